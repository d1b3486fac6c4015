import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_ERROR, bridgeMethodNames, eventChannel, invokeChannel } from '../../shared/bridge';
import { createUnavailableCore } from '../core';
import { createEventHub } from '../core/event-hub';
import { forwardEvents, registerCore } from './bridge-ipc';

const core = createUnavailableCore({ version: '1.2.3', platform: 'linux' }, 'The app is not available.');

describe('registerCore', () => {
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
  const event = (frame: object | null) =>
    ({ senderFrame: frame, sender: { mainFrame } }) as unknown as IpcMainInvokeEvent;

  it('registers one handler per table method and removes them again', () => {
    const ipc = fakeIpc();
    const unregister = registerCore(ipc, core, () => true);
    expect([...ipc.registered.keys()].sort()).toEqual(bridgeMethodNames.map(invokeChannel).sort());
    unregister();
    expect(ipc.registered.size).toBe(0);
  });

  it('checks the sender before doing anything', async () => {
    const ipc = fakeIpc();
    const seen: unknown[] = [];
    registerCore(ipc, core, (sender) => {
      seen.push(sender);
      return sender?.isMainFrame === true && sender.url === mainFrame.url;
    });
    const listener = ipc.registered.get(invokeChannel('app.info'));
    expect(await listener?.(event(mainFrame), [])).toMatchObject({ ok: true });
    expect(await listener?.(event({ url: mainFrame.url }), [])).toMatchObject({
      ok: false,
      error: { code: BRIDGE_ERROR.untrustedSender },
    });
    expect(await listener?.(event(null), [])).toMatchObject({
      ok: false,
      error: { code: BRIDGE_ERROR.untrustedSender },
    });
    expect(seen).toEqual([{ url: mainFrame.url, isMainFrame: true }, { url: mainFrame.url, isMainFrame: false }, null]);
  });
});

describe('forwardEvents', () => {
  it('sends a validated payload on the event channel', () => {
    const hub = createEventHub();
    const send = vi.fn();
    forwardEvents(hub, () => ({ send }));
    hub.emit('notice', { level: 'info', message: 'hello' });
    expect(send).toHaveBeenCalledWith(eventChannel('notice'), { level: 'info', message: 'hello' });
  });

  it('sends the answer to an own order ahead of market data held for the frame, then the latest book', async () => {
    const hub = createEventHub();
    const sent: [string, unknown][] = [];
    forwardEvents(hub, () => ({ send: (channel: string, payload: unknown) => void sent.push([channel, payload]) }));
    const book = (seqId: string) => ({
      subscriptionId: 's1',
      book: {
        assetId: '1',
        epoch: '2',
        seqId,
        bids: [],
        asks: [],
        last: null,
        health: { state: 'live' as const, reason: '', resyncs: 0, lastUpdateAt: null },
      },
    });
    hub.emit('book', book('1'));
    hub.emit('book', book('2'));
    hub.emit('notice', { level: 'info', message: 'answered' });
    expect(sent.map(([channel]) => channel)).toEqual([eventChannel('notice')]);
    await new Promise((r) => setTimeout(r, 40));
    expect(sent.map(([channel, p]) => [channel, (p as { book?: { seqId: string } }).book?.seqId])).toEqual([
      [eventChannel('notice'), undefined],
      [eventChannel('book'), '2'],
    ]);
  });

  it('throws on a payload that breaks the contract, before anything is sent', () => {
    const hub = createEventHub();
    const send = vi.fn();
    forwardEvents(hub, () => ({ send }));
    expect(() => hub.emit('notice', { level: 'loud', message: '' } as never)).toThrow();
    expect(send).not.toHaveBeenCalled();
  });
});
