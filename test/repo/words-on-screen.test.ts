// No message shown to the user names a schema path ("defaultSizes.0", "hotkeys.bindings.joinAsk"), a
// bridge method or argument ("settings.setAutoLock (argument 0)") or a status code in capitals
// (ACCEPTED, PARTIALLY_CLOSED): the window's notice sentences for every status the bridge can carry,
// the status-word table, the exchange's reject reasons, main's settings and argument refusals, and
// (read from the source) every sentence main throws as a BridgeFailure or sends as a notice.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { dispatchBridgeCall, type BridgeHandlers } from '../../src/main/core/bridge-runtime';
import { toBridgeFailure } from '../../src/main/core/errors';
import { endedOrdersText } from '../../src/main/core/session/epoch-end';
import { SettingsService } from '../../src/main/settings';
import { createMemoryStore } from '../../src/main/store/key-value-store';
import { bridgeMethodNames } from '../../src/shared/bridge';
import { closeResult, orderResult, cancelResult, replaceResult } from '../../src/shared/bridge/orders';
import { claimResult, withdrawalView } from '../../src/shared/bridge/funds';
import { rejectReasonSentence } from '../../src/shared/exchange-text';
import { KNOWN_STATUSES, statusWord } from '../../src/shared/status-words';
import {
  airgapSentText,
  cancelText,
  closeText,
  orderText,
  replaceText,
  signedFileSentText,
} from '../../src/renderer/lib/notice-text';
import type { CloseResult, OrderResult, PendingRequestView } from '../../src/shared/bridge';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every status code the bridge can carry, from its schemas and the word table. */
const STATUS_CODES = new Set<string>([
  ...orderResult.shape.status.options,
  ...cancelResult.shape.status.options,
  ...replaceResult.shape.status.options,
  ...closeResult.shape.status.options,
  ...claimResult.shape.status.options,
  ...withdrawalView.shape.status.options,
  ...KNOWN_STATUSES,
]);

/** What a message must never contain, each with why; the first that matches is returned. */
function leak(message: string): string | null {
  const underscore = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/.exec(message);
  if (underscore) return `status code ${underscore[0]}`;
  for (const code of STATUS_CODES) if (new RegExp(`\\b${code}\\b`).test(message)) return `status code ${code}`;
  const dotted = /\b[a-z][a-zA-Z]*\.(?:\d+\b|[a-z][a-z]*[A-Z][a-zA-Z]*\b)/.exec(message);
  if (dotted) return `schema path ${dotted[0]}`;
  for (const method of bridgeMethodNames) if (message.includes(method)) return `bridge method ${method}`;
  if (/\bargument \d/.test(message)) return 'argument position';
  return null;
}

const leaks = (messages: readonly string[]): string[] =>
  messages.flatMap((m) => {
    const why = leak(m);
    return why ? [`${why}: ${m}`] : [];
  });

describe('the words a trader reads', () => {
  it('notices of orders, cancels, edits and closes, for every status the bridge carries', () => {
    const order = (status: OrderResult['status'], filled: string, remaining: string): OrderResult => ({
      orderId: `0x${'ab'.repeat(32)}`,
      status,
      reason: status === 'REJECTED' ? 'INSUFFICIENT_BALANCE' : status === 'CANCELLED' ? 'IOC' : '',
      side: 'buy',
      price: '500000',
      filled,
      remaining,
      cancelled: '1000000',
      fillPrice: filled === '0' ? null : '498857',
      fillPriceIsLimit: false,
    });
    const texts: string[] = [];
    for (const status of orderResult.shape.status.options)
      for (const [filled, remaining] of [
        ['0', '3000000'],
        ['2000000', '0'],
        ['2000000', '1000000'],
      ] as const)
        texts.push(orderText(order(status, filled, remaining)));
    for (const status of cancelResult.shape.status.options) texts.push(cancelText({ status, orderIds: [] }));
    for (const status of replaceResult.shape.status.options)
      texts.push(replaceText({ status, replacement: order('ACCEPTED', '0', '1000000'), duplicate: false }));
    for (const status of closeResult.shape.status.options) {
      const close: CloseResult = {
        status,
        orderId: null,
        side: 'sell',
        requested: '5000000',
        filled: '2000000',
        remaining: '3000000',
        averagePrice: '498857',
        worstPrice: '498000',
        pricesAreLimits: false,
        bestPrice: '500000',
        limitPrice: '450000',
        maxSlippage: '50000',
        reason: 'MARGIN',
        positionChanged: false,
      };
      texts.push(closeText(close, 'BTC 1m #3'), closeText({ ...close, positionChanged: true }, 'BTC 1m #3'));
    }
    const request = { title: 'Withdrawal', fingerprint: 'MN2S-IF4E-F7RV-KEHQ-CZRJ' } as PendingRequestView;
    for (const status of STATUS_CODES) {
      texts.push(airgapSentText(request, { status }), signedFileSentText(null, { status }));
    }
    texts.push(endedOrdersText('BTC 1m #41', { buys: 2, sells: 1 }));
    expect(leaks(texts)).toEqual([]);
    // Averages at the price formatter's precision: a tenth of a cent.
    expect(texts.filter((t) => /\d+\.\d{2,}¢/.test(t))).toEqual([]);
  });

  it('status tags and reject reasons are words', () => {
    const words = [...STATUS_CODES, 'SOME_NEW_STATE'].map(statusWord);
    expect(leaks(words)).toEqual([]);
    const reasons = ['MARGIN', 'INSUFFICIENT_BALANCE', 'POST_ONLY', 'ALO', 'FOK', 'IOC', 'SELF_TRADE', 'NEW_RULE_X'];
    expect(leaks(reasons.map(rejectReasonSentence))).toEqual([]);
  });

  it('settings refusals name the field as the screen does', () => {
    const settings = new SettingsService({ store: createMemoryStore() });
    const current = settings.getSettings();
    const patches: Record<string, unknown>[] = [
      { defaultSizes: ['0', '1', '2', '3'] },
      { defaultSizes: ['1', 'abc', '2', '3'] },
      { hotkeys: { enabled: true, bindings: { joinAsk: 'B' } } },
      { hotkeys: { enabled: true, bindings: { joinAsk: 'Ctrl+Nope' } } },
      { maxSlippageCents: '150' },
      { maxSlippageCents: '2.55' },
      { maxSlippageCents: '0' },
      { maxSlippageCents: '−2' },
      { autoLockMinutes: -1 },
      { autoLockMinutes: 1.5 },
      { theme: 'purple' },
      { layout: { ...current.layout, panelSizes: { a: -1 } } },
    ];
    const messages = patches.map((patch) => {
      try {
        settings.updateSettings(patch);
        return 'accepted';
      } catch (error) {
        return toBridgeFailure(error)?.message ?? 'not a coded failure';
      }
    });
    expect(messages.filter((m) => !m.startsWith('Setting not saved: '))).toEqual([]);
    expect(leaks(messages)).toEqual([]);
    expect(messages[0]).toBe('Setting not saved: Size preset 1 must be greater than zero.');
    expect(messages[2]).toMatch(/^Setting not saved: The “Join the ask .*” hotkey uses B, already bound to/);
  });

  it('a refused bridge argument, for every method, is worded without its method, position or path', async () => {
    const refusals: string[] = [];
    for (const method of bridgeMethodNames) {
      for (const args of [[Symbol.for('x') as unknown], [{ price: 5, size: [], amount: {} }], ['x', 'y', 'z', 'w']]) {
        const outcome = await dispatchBridgeCall({} as BridgeHandlers, method, args);
        if (!outcome.ok && outcome.error.code === 'bridge.invalid_args') refusals.push(outcome.error.message);
      }
    }
    expect(refusals.length).toBeGreaterThan(bridgeMethodNames.length);
    expect(leaks(refusals)).toEqual([]);
    const autoLock = await dispatchBridgeCall({} as BridgeHandlers, 'settings.setAutoLock', [-5]);
    expect(autoLock).toMatchObject({
      ok: false,
      error: {
        message:
          'Not accepted: Auto-lock must be a whole number of minutes from 0 (off) to 1440 (a day). Nothing was changed.',
      },
    });
  });

  it("main's sentences, read from its source: every BridgeFailure and notice it writes", () => {
    const files = execFileSync('git', ['ls-files', '-z', 'src/main/*.ts'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('test-core.ts'));
    const found: string[] = [];
    const literalText = (node: ts.Node): string | null => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
      // A template: its fixed parts, with a neutral word where a value goes.
      if (ts.isTemplateExpression(node))
        return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('x');
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        return [literalText(node.left), literalText(node.right)].filter((t) => t !== null).join('x');
      }
      return null;
    };
    for (const file of files) {
      const source = ts.createSourceFile(
        file,
        readFileSync(path.join(root, file), 'utf8'),
        ts.ScriptTarget.Latest,
        true,
      );
      const visit = (node: ts.Node): void => {
        // new BridgeFailure(code, sentence)
        if (ts.isNewExpression(node) && node.expression.getText(source) === 'BridgeFailure' && node.arguments?.[1]) {
          const text = literalText(node.arguments[1]);
          if (text !== null) found.push(`${file}: ${text}`);
        }
        // { level: …, message: sentence } (notices main emits)
        if (ts.isObjectLiteralExpression(node)) {
          const props = new Map(
            node.properties.filter(ts.isPropertyAssignment).map((p) => [p.name.getText(source), p.initializer]),
          );
          const message = props.get('message');
          if (props.has('level') && message) {
            const text = literalText(message);
            if (text !== null) found.push(`${file}: ${text}`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found.length).toBeGreaterThan(50);
    expect(leaks(found)).toEqual([]);
  });
});
