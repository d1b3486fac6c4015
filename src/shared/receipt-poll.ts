/**
 * Waits for a transaction receipt by asking for it, one request at a time.
 *
 * Why not ethers' `tx.wait()`: it subscribes to block events, and each block it sees starts an
 * un-awaited receipt and block-number request. When blocks come faster than the polling interval,
 * several are in flight when `wait()` resolves; destroying the provider then rejects them with no
 * handler ("provider destroyed; cancelled request"), an unhandled rejection in whatever process
 * owns the provider. Here nothing is left running once the promise settles.
 */
export interface ReceiptSource<R> {
  getTransactionReceipt(hash: string): Promise<R | null>;
}

export interface ReceiptPollOptions {
  /** Pause between two requests. */
  readonly pollMs: number;
  /** Give up after this instant (same clock as `now`); the result is then null. */
  readonly deadline: number;
  readonly now?: () => number;
  /** Injected so this module needs no timer globals (src/shared runs anywhere). */
  readonly sleep: (ms: number) => Promise<void>;
}

/** The receipt once mined, or null when the deadline passes first. */
export async function pollReceipt<R>(
  source: ReceiptSource<R>,
  hash: string,
  options: ReceiptPollOptions,
): Promise<R | null> {
  const now = options.now ?? (() => Date.now());
  for (;;) {
    const receipt = await source.getTransactionReceipt(hash);
    if (receipt) return receipt;
    if (now() > options.deadline) return null;
    await options.sleep(options.pollMs);
  }
}
