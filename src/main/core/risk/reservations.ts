/**
 * The risk ledger's reservations (docs/risk-guards.md#the-invariant): what every order the gate has
 * passed and the exchange has not yet answered could still lose, per account. The gate takes a
 * reservation in the same synchronous step as its check, so a burst of orders fired without awaiting
 * each other cannot all be checked against the same budget: the second sees the first's reservation.
 *
 * A reservation ends when its path releases it: after the exchange answered and the account was read
 * again (the order is then a resting order or a fill the figures count), or when the path stopped
 * before sending. An order signed here for another machine or a later send is a signature that exists
 * outside main: it stays reserved at the most it can lose until its epoch ends, when it can no longer trade.
 *
 * An order that may rest (GTC, ALO) on its way is not a sum of its own: it is counted with its market's
 * resting orders, as if it already rested (`resting`), because a market's worst case is not the sum of
 * its orders' (resting-worst.ts: bids and asks cannot both be taken stale at once).
 */

export interface Reservation {
  readonly account: string;
  readonly assetId: bigint;
  readonly epoch: bigint;
  /** The order's terms, to find a signed order again when it is sent (`sent`). */
  readonly sell?: boolean;
  readonly price?: bigint;
  readonly size?: bigint;
  /** What it counts toward today's worst case (amount units). */
  readonly cost: bigint;
  /** Kept until its epoch ends (a signature handed out), not until its path releases it. */
  readonly untilEpochEnds: boolean;
  /** An order that may rest, sent from here: counted with its market's resting orders, not in `total`. */
  readonly rests?: boolean;
}

/** An order on its way that may rest, as its market's worst case counts it. */
export interface RestingOnItsWay {
  readonly assetId: bigint;
  readonly epoch: bigint;
  readonly sell: boolean;
  readonly price: bigint;
  readonly size: bigint;
}

/**
 * Past this many, reservations of epochs that ended are swept at once rather than at the next sum.
 * The order-rate limit bounds how many an account can take (120 a minute by default).
 */
export const RESERVATIONS_KEPT = 2_000;

export class Reservations {
  readonly #byAccount = new Map<string, Set<Reservation>>();
  /** How many reservations each account has taken in all: moves with every order the gate passes. */
  readonly #taken = new Map<string, number>();
  /** An epoch is over (orders signed for it can no longer trade): asked when summing. */
  readonly #ended: (assetId: bigint, epoch: bigint) => boolean;

  constructor(ended: (assetId: bigint, epoch: bigint) => boolean = () => false) {
    this.#ended = ended;
  }

  /** Takes a reservation; returns what ends it (a path's release; a no-op for one kept until its epoch ends). */
  take(r: Omit<Reservation, 'account'> & { account: string }): () => void {
    const key = r.account.toLowerCase();
    let set = this.#byAccount.get(key);
    if (!set) this.#byAccount.set(key, (set = new Set()));
    const kept: Reservation = { ...r, account: key };
    set.add(kept);
    this.#taken.set(key, (this.#taken.get(key) ?? 0) + 1);
    if (set.size > RESERVATIONS_KEPT) this.#dropEnded(set);
    return r.untilEpochEnds ? () => undefined : () => void set.delete(kept);
  }

  /**
   * An order signed here for a later send is being sent now (through the gate, which reserves it
   * again for its way to the exchange): the signature is no longer only outside main, so the first
   * kept reservation with the same terms ends. Each send of a signature ends one.
   */
  sent(account: string, t: { assetId: bigint; epoch: bigint; sell: boolean; price: bigint; size: bigint }): void {
    const set = this.#byAccount.get(account.toLowerCase());
    if (!set) return;
    for (const r of set) {
      if (
        r.untilEpochEnds &&
        r.assetId === t.assetId &&
        r.epoch === t.epoch &&
        r.sell === t.sell &&
        r.price === t.price &&
        r.size === t.size
      ) {
        set.delete(r);
        return;
      }
    }
  }

  /**
   * The account's reserved worst case now (epochs that ended count nothing), orders on their way that
   * may rest left out: `resting` lists them, to be counted with their market.
   */
  total(account: string): bigint {
    const set = this.#byAccount.get(account.toLowerCase());
    if (!set || set.size === 0) return 0n;
    let sum = 0n;
    let ended = false;
    for (const r of set) {
      if (r.untilEpochEnds && this.#ended(r.assetId, r.epoch)) {
        ended = true;
        continue;
      }
      if (!r.rests) sum += r.cost;
    }
    if (ended) this.#dropEnded(set);
    return sum;
  }

  /** The account's orders on their way that may rest: their market counts them as if they rested. */
  resting(account: string): RestingOnItsWay[] {
    const out: RestingOnItsWay[] = [];
    for (const r of this.#byAccount.get(account.toLowerCase()) ?? [])
      if (r.rests && r.sell !== undefined && r.price !== undefined && r.size !== undefined)
        out.push({ assetId: r.assetId, epoch: r.epoch, sell: r.sell, price: r.price, size: r.size });
    return out;
  }

  /** How many reservations the account has taken since main started: unchanged means no order passed. */
  taken(account: string): number {
    return this.#taken.get(account.toLowerCase()) ?? 0;
  }

  /** How many orders of the account are passed and not yet answered (or signed for elsewhere). */
  count(account: string): number {
    return this.#byAccount.get(account.toLowerCase())?.size ?? 0;
  }

  #dropEnded(set: Set<Reservation>): void {
    for (const r of set) if (r.untilEpochEnds && this.#ended(r.assetId, r.epoch)) set.delete(r);
  }
}
