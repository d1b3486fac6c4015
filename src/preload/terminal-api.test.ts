import { describe, expect, it, vi } from 'vitest';
import {
  BRIDGE_ERROR,
  bridgeEventNames,
  bridgeEvents,
  bridgeMethodNames,
  bridgeMethods,
  EVENT_CHANNEL_PREFIX,
  INVOKE_CHANNEL_PREFIX,
} from '../shared/bridge';
import { allowedChannels, createTerminalApi, type PreloadIpc } from './terminal-api';

function fakeIpc() {
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipc = {
    invoke: vi.fn((_channel: string, ..._args: unknown[]) => Promise.resolve({ ok: true, value: 'x' } as unknown)),
    on: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(listener);
    }),
    removeListener: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      listeners.get(channel)?.delete(listener);
    }),
  } satisfies PreloadIpc;
  const emit = (channel: string, payload: unknown): void => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: 'ipc internals' }, payload);
  };
  return { ipc, emit, listeners };
}

describe('preload allowlist', () => {
  it('is derived from the bridge tables, one channel per row', () => {
    const channels = allowedChannels();
    expect(bridgeMethodNames).toEqual(Object.keys(bridgeMethods));
    expect(bridgeEventNames).toEqual(Object.keys(bridgeEvents));
    expect(channels.invoke).toEqual(Object.keys(bridgeMethods).map((m) => INVOKE_CHANNEL_PREFIX + m));
    expect(channels.events).toEqual(Object.keys(bridgeEvents).map((e) => EVENT_CHANNEL_PREFIX + e));
    expect(channels.invoke).toContain('bridge:invoke:app.info');
    expect(channels.events).toContain('bridge:event:notice');
  });

  it('exposes a frozen object with only invoke and on', () => {
    const api = createTerminalApi(fakeIpc().ipc);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards allowed methods on their channel with a plain copy of the arguments', async () => {
    const { ipc } = fakeIpc();
    const api = createTerminalApi(ipc);
    await expect(api.invoke('app.info', [])).resolves.toEqual({ ok: true, value: 'x' });
    expect(ipc.invoke).toHaveBeenCalledWith('bridge:invoke:app.info', []);
  });

  it('never reaches ipc with arguments over the size budget, so main never has to read them', async () => {
    const { ipc } = fakeIpc();
    const api = createTerminalApi(ipc);
    const panelSizes = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, 1]));
    for (const args of [[{ layout: { panelSizes } }], [{ json: 'x'.repeat(3 * 1024 * 1024), password: 'pw' }]]) {
      const outcome = await api.invoke('settings.update', args);
      expect(outcome).toMatchObject({ ok: false, error: { code: BRIDGE_ERROR.tooLarge } });
      expect(outcome.ok ? '' : outcome.error.message).toMatch(
        /^This request is far larger than anything the app sends/,
      );
    }
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('never reaches ipc for a method outside the table', async () => {
    const { ipc } = fakeIpc();
    const api = createTerminalApi(ipc);
    for (const name of ['vault.sign', 'bridge:invoke:app.info', '__proto__', 'toString', '']) {
      await expect(api.invoke(name, [])).resolves.toMatchObject({
        ok: false,
        error: { code: BRIDGE_ERROR.unknownMethod },
      });
    }
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('subscribes to allowed events without leaking the ipc event, and unsubscribes once', () => {
    const { ipc, emit, listeners } = fakeIpc();
    const api = createTerminalApi(ipc);
    const handler = vi.fn();
    const off = api.on('notice', handler);
    emit('bridge:event:notice', { level: 'info', message: 'hi' });
    expect(handler).toHaveBeenCalledExactlyOnceWith({ level: 'info', message: 'hi' });
    off();
    off();
    expect(ipc.removeListener).toHaveBeenCalledOnce();
    expect(listeners.get('bridge:event:notice')?.size).toBe(0);
  });

  it('refuses events outside the table', () => {
    const { ipc } = fakeIpc();
    const api = createTerminalApi(ipc);
    expect(() => api.on('anything', () => {})).toThrow(/Unknown bridge event/);
    expect(ipc.on).not.toHaveBeenCalled();
  });
});
