import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_ERROR, bridgeMethodNames, eventChannel, invokeChannel } from '../../shared/bridge';
import { appHandlers, handlerTable } from './app-handlers';
import { BridgeFailure, dispatchBridgeCall, registerBridge, sendBridgeEvent, type BridgeHandlers } from './bridge-host';

const handlers = appHandlers({ version: '1.2.3', platform: 'linux' });

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
      expect(await dispatchBridgeCall(handlers, name, [])).toMatchObject({ ok: false, error: { code: BRIDGE_ERROR.unknownMethod } });
    }
  });

  it('passes coded failures through and hides unexpected errors from the window', async () => {
    const coded = handlerTable({ 'app.info': () => Promise.reject(new BridgeFailure('vault.locked', 'The vault is locked.')) });
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

describe('registerBridge', () => {
  function fakeIpc() {
    const registered = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
    return {
      registered,
      handle: (channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown) => {
        registered.set(channel, listener);
      },
      removeHandler: (channel: string) => registered.delete(channel),
    };
  }
  const mainFrame = { url: 'file:///app/index.html' };
  const event = (frame: object | null) => ({ senderFrame: frame, sender: { mainFrame } }) as unknown as IpcMainInvokeEvent;

  it('registers one handler per table method and removes them again', () => {
    const ipc = fakeIpc();
    const unregister = registerBridge(ipc, handlers, () => true);
    expect([...ipc.registered.keys()].sort()).toEqual(bridgeMethodNames.map(invokeChannel).sort());
    unregister();
    expect(ipc.registered.size).toBe(0);
  });

  it('checks the sender before doing anything', async () => {
    const ipc = fakeIpc();
    const seen: unknown[] = [];
    registerBridge(ipc, handlers, (sender) => {
      seen.push(sender);
      return sender?.isMainFrame === true && sender.url === mainFrame.url;
    });
    const listener = ipc.registered.get(invokeChannel('app.info'));
    expect(await listener?.(event(mainFrame), [])).toMatchObject({ ok: true });
    expect(await listener?.(event({ url: mainFrame.url }), [])).toMatchObject({
      ok: false,
      error: { code: BRIDGE_ERROR.untrustedSender },
    });
    expect(await listener?.(event(null), [])).toMatchObject({ ok: false, error: { code: BRIDGE_ERROR.untrustedSender } });
    expect(seen).toEqual([{ url: mainFrame.url, isMainFrame: true }, { url: mainFrame.url, isMainFrame: false }, null]);
  });
});

describe('sendBridgeEvent', () => {
  it('sends a validated payload on the event channel', () => {
    const send = vi.fn();
    sendBridgeEvent({ send }, 'notice', { level: 'info', message: 'hello' });
    expect(send).toHaveBeenCalledWith(eventChannel('notice'), { level: 'info', message: 'hello' });
  });

  it('throws on a payload that breaks the contract, before anything is sent', () => {
    const send = vi.fn();
    expect(() => sendBridgeEvent({ send }, 'notice', { level: 'loud', message: '' } as never)).toThrow();
    expect(send).not.toHaveBeenCalled();
  });
});
