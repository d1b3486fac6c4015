import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_ERROR, bridgeMethodNames, bridgeMethods } from '../../shared/bridge';
import { BridgeFailure, dispatchBridgeCall, handlerTable, type BridgeHandlers } from './bridge-runtime';
import { createUnavailableCore } from './unavailable-core';

const handlers = handlerTable({ 'app.info': () => ({ version: '1.2.3', platform: 'linux' }) });

describe('dispatchBridgeCall', () => {
  it('runs a known method with valid arguments', async () => {
    await expect(dispatchBridgeCall(handlers, 'app.info', [])).resolves.toEqual({
      ok: true,
      value: { version: '1.2.3', platform: 'linux' },
    });
  });

  it('refuses unknown methods and malformed arguments with a code', async () => {
    const unknown = await dispatchBridgeCall(handlers, 'vault.exportAll', []);
    expect(unknown).toMatchObject({ ok: false, error: { code: BRIDGE_ERROR.unknownMethod } });
    const extra = await dispatchBridgeCall(handlers, 'app.info', ['surprise']);
    expect(extra).toMatchObject({ ok: false, error: { code: BRIDGE_ERROR.invalidArgs } });
    const notArray = await dispatchBridgeCall(handlers, 'app.info', { 0: 1 });
    expect(notArray).toMatchObject({ ok: false, error: { code: BRIDGE_ERROR.invalidArgs } });
    for (const name of ['__proto__', 'constructor', 'toString']) {
      expect(await dispatchBridgeCall(handlers, name, [])).toMatchObject({
        ok: false,
        error: { code: BRIDGE_ERROR.unknownMethod },
      });
    }
  });

  it('refuses arguments larger than anything the app sends before parsing them, in a sentence, without calling the handler', async () => {
    const handler = vi.fn();
    const table = handlerTable({
      'settings.update': handler,
      'keys.importKeystore': handler,
      'kit.importText': handler,
    });
    const deep: unknown[] = [];
    let at = deep;
    for (let i = 0; i < 40; i++) at.push((at = []));
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    const cases: [string, unknown, RegExp][] = [
      [
        'keys.importKeystore',
        [{ json: 'x'.repeat(50 * 1024 * 1024), password: 'pw' }],
        /more than 2,097,152 characters/,
      ],
      ['settings.update', [{ layout: { panelSizes: sparse } }], /more than 10,000 values/],
      [
        'settings.update',
        [{ hotkeys: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 1])) }],
        /more than 10,000 values/,
      ],
      ['settings.update', [{ layout: deep }], /nested more than 32 levels deep/],
    ];
    for (const [method, args, words] of cases) {
      const outcome = await dispatchBridgeCall(table, method, args);
      expect(outcome).toMatchObject({ ok: false, error: { code: BRIDGE_ERROR.tooLarge } });
      const message = outcome.ok ? '' : outcome.error.message;
      expect(message).toMatch(words);
      expect(message).toMatch(
        /^This request is far larger than anything the app sends \(.+\), so it was refused\. Nothing was changed\.$/,
      );
    }
    expect(handler).not.toHaveBeenCalled();
    // The largest real argument (a 1 MiB air-gapped envelope or kit text) still reaches its handler.
    await dispatchBridgeCall(table, 'kit.importText', ['x'.repeat(1024 * 1024)]);
    expect(handler).toHaveBeenCalledOnce();
  });

  it('passes coded failures through and hides unexpected errors from the window', async () => {
    const coded = handlerTable({
      'app.info': () => Promise.reject(new BridgeFailure('vault.locked', 'The vault is locked.')),
    });
    expect(await dispatchBridgeCall(coded, 'app.info', [])).toEqual({
      ok: false,
      error: { code: 'vault.locked', message: 'The vault is locked.' },
    });

    const sink = vi.fn();
    const crashing = handlerTable({
      'app.info': () => {
        throw new Error('ENOENT /home/user/secret-path');
      },
    });
    const outcome = await dispatchBridgeCall(crashing, 'app.info', [], sink);
    expect(outcome).toMatchObject({ ok: false, error: { code: BRIDGE_ERROR.internal } });
    expect(JSON.stringify(outcome)).not.toContain('secret-path');
    expect(sink).toHaveBeenCalledOnce();
  });

  it('refuses a result that does not match the table', async () => {
    const wrong = { 'app.info': () => ({ version: 1 }) } as unknown as BridgeHandlers;
    expect(await dispatchBridgeCall(wrong, 'app.info', [])).toMatchObject({
      ok: false,
      error: { code: BRIDGE_ERROR.invalidResult },
    });
  });
});

describe('createUnavailableCore', () => {
  it('answers app.info with the facts and every other method with the sentence, coded unavailable', async () => {
    const sentence = 'The app could not start.';
    const core = createUnavailableCore({ version: '1.2.3', platform: 'linux' }, sentence);
    expect(await core.invoke('app.info', [])).toEqual({ ok: true, value: { version: '1.2.3', platform: 'linux' } });
    // Methods without arguments reach their handler with []; the rest are refused at validation first.
    const noArgs = bridgeMethodNames.filter((m) => m !== 'app.info' && bridgeMethods[m].args.safeParse([]).success);
    expect(noArgs).toContain('lock.status');
    for (const method of noArgs) {
      expect(await core.invoke(method, []), method).toEqual({
        ok: false,
        error: { code: BRIDGE_ERROR.unavailable, message: sentence },
      });
    }
    expect(await core.invoke('vault.exportAll', [])).toMatchObject({
      ok: false,
      error: { code: BRIDGE_ERROR.unknownMethod },
    });
  });
});
