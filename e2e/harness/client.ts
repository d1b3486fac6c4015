/** The test process's side of the harness: token-authenticated calls to the core server. */
import type { BridgeEvent, BridgeOutcome } from '../../src/shared/bridge';
import type { DialogAnswer, DialogRecord, UserInput } from '../../src/main/core';
import type { UnscriptedMode } from '../../src/main/core/scripted-dialogs';
import { TOKEN_HEADER, type CoreServer } from './core-server';

export interface HarnessClient {
  invoke(method: string, args: unknown): Promise<BridgeOutcome>;
  events(
    after: number,
    options?: { signal?: AbortSignal; wait?: boolean },
  ): Promise<{ seq: number; event: BridgeEvent; payload: unknown }[]>;
  /** Queue answers for main's dialogs; returns what has been shown so far. */
  dialogs(...answers: DialogAnswer[]): Promise<{ shown: DialogRecord[]; pending: number }>;
  /**
   * Attack tests: how dialogs nobody scripted are answered (fail the call, "no", or never), and
   * whether to close the ones left waiting (as a cancel).
   */
  dialogPolicy(policy: {
    unscripted?: UnscriptedMode;
    release?: boolean;
  }): Promise<{ shown: DialogRecord[]; waiting: number; released: number }>;
  /** What Electron's main would see of the person (the page forwards its trusted presses: install-terminal.ts). */
  noteInput(input: UserInput): Promise<void>;
  advanceClock(ms: number): Promise<void>;
  restartCore(): Promise<void>;
}

export function harnessClient(server: Pick<CoreServer, 'url' | 'token'>): HarnessClient {
  async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const response = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: server.token },
      body: JSON.stringify(body ?? {}),
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) throw new Error(`harness ${path}: HTTP ${response.status}`);
    return (await response.json()) as T;
  }
  return {
    invoke: (method, args) => post('/invoke', { method, args }),
    events: (after, options = {}) =>
      post(`/events?after=${after}&wait=${options.wait === false ? 0 : 1}`, {}, options.signal),
    dialogs: (...answers) => post('/control/dialogs', { answers }),
    dialogPolicy: (policy) => post('/control/dialogs', policy),
    noteInput: (input) => post('/control/input', input),
    advanceClock: (ms) => post('/control/advance-clock', { ms }),
    restartCore: () => post('/control/restart', {}),
  };
}
