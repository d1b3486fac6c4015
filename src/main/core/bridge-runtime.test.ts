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
    const sentence = 'The app core could not start.';
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
