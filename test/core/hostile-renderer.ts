/**
 * The hostile window in a thread of its own, as Electron's renderer process is: its script builds each
 * attack here (a million keys, 50 MB strings cost this thread, not main) and calls the real preload
 * (src/preload/terminal-api.ts), whose ipcRenderer is a MessagePort to main's thread, where the test
 * serves it with main's real IPC handlers. Messages are structured clones, as Electron's IPC is.
 *
 * From the test: { prepare: Attack } builds the arguments and answers { prepared }; { send } makes the
 * call(s) and answers { outcomes }. Nothing runs between the two, so main's measurement sees the call only.
 */
import { setPriority } from 'node:os';
import { workerData, parentPort, type MessagePort } from 'node:worker_threads';
import type { BridgeOutcome } from '../../src/shared/bridge';
import { createTerminalApi } from '../../src/preload/terminal-api';

/** What the window sends: plain arguments, or one built here from a recipe. */
export interface Attack {
  method: string;
  args?: unknown[];
  /** settings.update with this many panel sizes. */
  panels?: number;
  /** A string of this many MiB in the keystore's json, or in the layout's selected market. */
  hugeString?: { mib: number; into: 'keystore' | 'settings' };
  /** The same call this many times at once. */
  times?: number;
}

// The renderer is another process, on a core of its own when the machine has one: on this test's
// shared machine its thread yields to main's instead (Linux nice values are per thread), so main's
// measured delay is main's own and not this thread's work on a busy core.
setPriority(19);

const ipcPort = (workerData as { ipc: MessagePort }).ipc;
const waiting = new Map<number, (outcome: unknown) => void>();
let nextId = 0;
ipcPort.on('message', ({ id, outcome }: { id: number; outcome: unknown }) => {
  waiting.get(id)?.(outcome);
  waiting.delete(id);
});

const terminal = createTerminalApi({
  invoke: (channel, ...args) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      ipcPort.postMessage({ id, channel, args });
    }),
  on: () => undefined,
  removeListener: () => undefined,
});

function build(attack: Attack): unknown[] {
  if (attack.panels !== undefined) {
    const panelSizes: Record<string, number> = {};
    for (let i = 0; i < attack.panels; i++) panelSizes[`panel-${i}`] = 100;
    return [{ layout: { panelSizes, selectedMarket: null } }];
  }
  if (attack.hugeString) {
    const huge = 'x'.repeat(attack.hugeString.mib * 1024 * 1024);
    return attack.hugeString.into === 'keystore'
      ? [{ json: huge, password: 'whatever' }]
      : [{ layout: { panelSizes: {}, selectedMarket: huge } }];
  }
  return attack.args ?? [];
}

let prepared: { attack: Attack; args: unknown[] } | null = null;
parentPort!.on('message', (message: { prepare?: Attack; send?: true }) => {
  if (message.prepare) {
    prepared = { attack: message.prepare, args: build(message.prepare) };
    parentPort!.postMessage({ prepared: true });
    return;
  }
  const { attack, args } = prepared!;
  prepared = null;
  const calls = Array.from({ length: attack.times ?? 1 }, () => terminal.invoke(attack.method, args));
  void Promise.all(calls).then((outcomes: BridgeOutcome[]) => parentPort!.postMessage({ outcomes }));
});
parentPort!.postMessage({ ready: true });
