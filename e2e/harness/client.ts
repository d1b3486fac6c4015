/** The test process's side of the harness: token-authenticated calls to the core server. */
import type { BridgeEvent, BridgeOutcome } from '../../src/shared/bridge';
import type { UserInput } from '../../src/main/core';
import type { DialogAnswer, DialogRecord } from '../../test/support/scripted-dialogs';
import type { UnscriptedMode } from '../../test/support/scripted-dialogs';

/** The header every harness request carries the server's random token in (core-server.ts checks it). */
export const TOKEN_HEADER = 'x-harness-token';

/** Where a core server listens and the token it wants (core-server.ts's CoreServer has both). */
export interface CoreServerAddress {
  readonly url: string;
  readonly token: string;
}

export interface HarnessClient {
  invoke(method: string, args: unknown): Promise<BridgeOutcome>;
  /**
   * The core's events from now on, as it emits them: `onEvents` gets each chunk's events in order.
   * Resolves once the server streams (no event after that is missed); `ended` settles when the
   * stream ends (aborted, or the server closed).
   */
  eventStream(onEvents: (events: HarnessEvent[]) => void, signal: AbortSignal): Promise<{ ended: Promise<void> }>;
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
  /** What Electron's main sees when the window's page goes away (reload, navigation): src/main/window/page-lifetime.ts. */
  pageGone(): Promise<void>;
  advanceClock(ms: number): Promise<void>;
  restartCore(): Promise<void>;
  /** Bridge calls the core has taken so far, by method (every page and test call). */
  calls(): Promise<Record<string, number>>;
}

export interface HarnessEvent {
  seq: number;
  event: BridgeEvent;
  payload: unknown;
}

export function harnessClient(server: CoreServerAddress): HarnessClient {
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
    async eventStream(onEvents, signal) {
      const response = await fetch(`${server.url}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: server.token },
        body: '{}',
        signal,
      });
      if (!response.ok || !response.body) throw new Error(`harness /events: HTTP ${response.status}`);
      const body = response.body;
      const ended = (async () => {
        const decoder = new TextDecoder();
        let partial = '';
        try {
          for await (const chunk of body as AsyncIterable<Uint8Array>) {
            const lines = (partial + decoder.decode(chunk, { stream: true })).split('\n');
            partial = lines.pop() ?? '';
            const events = lines.filter((l) => l !== '').map((l) => JSON.parse(l) as HarnessEvent);
            if (events.length > 0) onEvents(events);
          }
        } catch {
          /* aborted, or the server went away */
        }
      })();
      return { ended };
    },
    dialogs: (...answers) => post('/control/dialogs', { answers }),
    dialogPolicy: (policy) => post('/control/dialogs', policy),
    noteInput: (input) => post('/control/input', input),
    pageGone: () => post('/control/page-gone', {}),
    advanceClock: (ms) => post('/control/advance-clock', { ms }),
    restartCore: () => post('/control/restart', {}),
    calls: () => post('/control/calls', {}),
  };
}
