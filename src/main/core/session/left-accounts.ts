/**
 * Accounts the window left with orders resting (docs/risk-guards.md#the-invariant). Selecting another
 * account moves the desk, and with it the risk ledger's eyes, to the new one; the orders the previous
 * one left resting keep trading. Left unwatched, a window could rest a bid and an ask at fair on A,
 * select B, and let a colluder take A's stale side when fair moves. So every key of this machine's
 * vault that is left with orders resting (or selected before a restart, with orders open today in its
 * records) is kept here: read from the exchange on every followed market, its fills heard on the feed,
 * and looked at by the ledger like the selected account (quote protection, over-limit cancels, counted
 * in that account's own day).
 *
 * Bounded: at most LEFT_ACCOUNTS_KEPT. Past it, the one left longest ago has every resting order
 * cancelled before it goes (a blind account is what the ledger exists to prevent; a cancelled quote
 * is only a quote). One with nothing resting and nothing on its way goes at its next read.
 */
import type { Address } from '../../../shared/protocol';
import { AccountState, type ExchangeReader, type MarketUpdate } from '../../../client';
import type { MarketEntry } from './market-directory';

export const LEFT_ACCOUNTS_KEPT = 8;

export interface LeftAccount {
  readonly address: Address;
  readonly state: AccountState;
  /** When each order was placed from this app (ms), for the ledger's newest-first cancels. */
  readonly placedAt: ReadonlyMap<string, number>;
  /** The agent key selected with it when it was left: signs its cancels when the master's key is not here. */
  readonly agent: Address | null;
}

export interface LeftAccountsOptions {
  reader: Pick<ExchangeReader, 'getBalance' | 'getBookOrders' | 'getPosition'>;
  /** Every market the session follows (market-set.ts). */
  markets(): readonly MarketEntry[];
  currentEpoch(assetId: bigint): bigint | undefined;
  /** Whether this machine can sign for it (a master key in the vault, not watch-only): only those are kept. */
  canSign(address: string): boolean;
  /** Orders of the account passed by the gate and not yet answered, or signed for elsewhere (reservations.ts). */
  pending(address: string): number;
  /** A left account's state changed: the ledger looks again. */
  onChange(): void;
  /** Past the bound: cancel every resting order of an account about to be let go. */
  cancelAll(account: LeftAccount): Promise<void>;
}

export class LeftAccounts {
  readonly #o: LeftAccountsOptions;
  readonly #accounts = new Map<string, LeftAccount>();

  constructor(opts: LeftAccountsOptions) {
    this.#o = opts;
  }

  list(): LeftAccount[] {
    return [...this.#accounts.values()];
  }

  has(address: string): boolean {
    return this.#accounts.has(address.toLowerCase());
  }

  /**
   * The desk leaves `state` for another account. Kept when this machine signs for it and it has
   * orders resting or on their way; its last read is kept at once (no blind moment), then read again.
   */
  leave(state: AccountState, placedAt: (orderId: string) => number | undefined, agent: Address | null = null): void {
    const address = state.account;
    if (!this.#o.canSign(address) || (restingCount(state) === 0 && this.#o.pending(address) === 0)) return;
    const fresh = this.#state(address);
    if (state.balance) fresh.balance = state.balance;
    const placed = new Map<string, number>();
    for (const [k, orders] of state.orders) {
      fresh.orders.set(k, orders);
      for (const o of [...orders.buys, ...orders.sells]) {
        fresh.trackOrder(o.id);
        const at = placedAt(o.id);
        if (at !== undefined) placed.set(o.id.toLowerCase(), at);
      }
    }
    for (const [k, p] of state.positions) fresh.positions.set(k, p);
    this.#add({ address, state: fresh, placedAt: placed, agent });
    void this.read(address);
  }

  /** An account with orders open today by its records (after a restart): read, and kept if they still rest. */
  watch(address: Address): void {
    if (this.has(address) || !this.#o.canSign(address)) return;
    this.#add({ address, state: this.#state(address), placedAt: new Map(), agent: null });
    void this.read(address);
  }

  /** The account is selected again: the desk watches it now. */
  take(address: string): void {
    this.#accounts.delete(address.toLowerCase());
  }

  onMarketUpdate(u: MarketUpdate): void {
    for (const a of this.#accounts.values()) a.state.onMarketUpdate(u);
  }

  /** Reads every kept account again on every followed market's current epoch; lets go of those with nothing open. */
  async readAll(): Promise<void> {
    await Promise.all([...this.#accounts.keys()].map((k) => this.read(k)));
  }

  async read(address: string): Promise<void> {
    const a = this.#accounts.get(address.toLowerCase());
    if (!a) return;
    const targets = this.#o.markets().flatMap((m) => {
      const epoch = this.#o.currentEpoch(m.assetId);
      return epoch === undefined ? [] : [{ assetId: m.assetId, epoch }];
    });
    const reads = await Promise.all(
      targets.map((t) =>
        a.state.refresh(t.assetId, t.epoch).then(
          () => true,
          () => false,
        ),
      ),
    );
    // Let go only on a whole read that found nothing: a failed read is not "nothing rests".
    if (this.#accounts.get(address.toLowerCase()) !== a || reads.includes(false)) return;
    const live = new Set(targets.map((t) => `${t.assetId}:${t.epoch}`));
    let resting = 0;
    for (const [k, o] of a.state.orders) if (live.has(k)) resting += o.buys.length + o.sells.length;
    if (resting === 0 && this.#o.pending(a.address) === 0) this.#accounts.delete(address.toLowerCase());
  }

  #state(address: Address): AccountState {
    return new AccountState({
      reader: this.#o.reader,
      account: address,
      currentEpoch: (a) => this.#o.currentEpoch(a),
      onChange: () => this.#o.onChange(),
    });
  }

  #add(a: LeftAccount): void {
    this.#accounts.set(a.address.toLowerCase(), a);
    while (this.#accounts.size > LEFT_ACCOUNTS_KEPT) {
      const [oldestKey, oldest] = this.#accounts.entries().next().value!;
      this.#accounts.delete(oldestKey);
      void this.#o.cancelAll(oldest).catch(() => undefined);
    }
  }
}

function restingCount(state: AccountState): number {
  let n = 0;
  for (const o of state.orders.values()) n += o.buys.length + o.sells.length;
  return n;
}
