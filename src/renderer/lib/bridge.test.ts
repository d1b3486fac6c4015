import { describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../shared/bridge';
import { BridgeCallError, connectBridge, createBridgeClient } from './bridge';

function api(overrides: Partial<TerminalApi> = {}): TerminalApi {
  return {
    invoke: () => Promise.resolve({ ok: true, value: { version: '0.1.0', platform: 'linux' } }),
    on: () => () => {},
    ...overrides,
  };
}

describe('renderer bridge client', () => {
  it('is absent outside the desktop app', () => {
    expect(connectBridge({})).toBeNull();
    expect(connectBridge({ terminal: { invoke: 1 } as unknown as TerminalApi })).toBeNull();
    expect(connectBridge({ terminal: api() })).not.toBeNull();
  });

  it('unwraps successful outcomes', async () => {
    const client = createBridgeClient(api());
    await expect(client.call('app.info')).resolves.toEqual({ version: '0.1.0', platform: 'linux' });
  });

  it('turns failures into BridgeCallError with the machine code', async () => {
    const client = createBridgeClient(
      api({ invoke: () => Promise.resolve({ ok: false, error: { code: 'bridge.untrusted_sender', message: 'No.' } }) }),
    );
    const error: unknown = await client.call('app.info').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeCallError);
    expect(error).toMatchObject({ code: 'bridge.untrusted_sender', message: 'No.' });
  });

  it('delivers event payloads to the typed handler', () => {
    let deliver: ((payload: unknown) => void) | undefined;
    const client = createBridgeClient(api({ on: (_e, h) => ((deliver = h), () => {}) }));
    const seen: string[] = [];
    client.on('notice', (notice) => seen.push(notice.message));
    deliver?.({ level: 'info', message: 'ready' });
    expect(seen).toEqual(['ready']);
  });
});
