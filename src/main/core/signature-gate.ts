/**
 * The restart to update never lands in the middle of a signature: every call that signs or sends
 * (trade and moves-value) runs through this gate, and once the person said yes to the restart the
 * gate closes: new ones are refused with a sentence, and the restart waits until those already
 * running have finished.
 */
import { BridgeFailure } from './bridge-runtime';

export interface SignatureGate {
  /** Runs a signing call, or refuses it while the gate is closed. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** Refuses new signing calls from now on; resolves once none is running. */
  close(): Promise<void>;
  /** Lets signing calls in again (the restart did not happen). */
  reopen(): void;
  isClosed(): boolean;
}

export function restartingRefusal(): BridgeFailure {
  return new BridgeFailure(
    'update.restarting',
    'The app is restarting to install an update: nothing new is signed or sent. Nothing was sent for this request.',
  );
}

export function createSignatureGate(): SignatureGate {
  let running = 0;
  let closed = false;
  let idle: (() => void)[] = [];
  const settle = (): void => {
    if (running > 0) return;
    for (const resolve of idle.splice(0)) resolve();
  };
  return {
    async run(call) {
      if (closed) throw restartingRefusal();
      running++;
      try {
        return await call();
      } finally {
        running--;
        settle();
      }
    },
    close() {
      closed = true;
      return new Promise<void>((resolve) => {
        idle.push(resolve);
        settle();
      });
    },
    reopen() {
      closed = false;
      idle = [];
    },
    isClosed: () => closed,
  };
}
