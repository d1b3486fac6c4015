/**
 * The markets a session follows: the window's list (ordered, what it shows and may trade) and every
 * market of the deployment the session has met (docs/risk-guards.md#the-invariant). A market taken off
 * the list stays among them: orders resting there and positions held there still count toward the
 * day's loss, and main's quote protection and over-limit cancels still reach them. So the risk ledger
 * reads the account on all of them, and the window's list is only what it shows.
 *
 * Met means: listed at the session's start or since, or found in the account's records of the day
 * (a position or an order of today on a market no longer listed, after a restart). The exchange has
 * no route that lists markets, so these are all the session can know of.
 */
import type { MarketEntry } from './market-directory';

/**
 * Markets followed at most. Listing one takes the person's yes in main's dialog, so this is reached
 * only by a long session of adds and removes; past it the oldest unlisted one is let go.
 */
export const MARKETS_FOLLOWED = 256;

export class MarketSet {
  #listed: readonly MarketEntry[];
  readonly #all = new Map<bigint, MarketEntry>();
  #allList: readonly MarketEntry[] = [];

  constructor(listed: readonly MarketEntry[]) {
    this.#listed = [...listed];
    for (const m of listed) this.#all.set(m.assetId, m);
    this.#allList = [...this.#all.values()];
  }

  /** The window's list, in its order. */
  get listed(): readonly MarketEntry[] {
    return this.#listed;
  }

  /** Every market followed: the list's and those met off it. */
  get all(): readonly MarketEntry[] {
    return this.#allList;
  }

  isListed(assetId: bigint): boolean {
    return this.#listed.some((m) => m.assetId === assetId);
  }

  entry(assetId: bigint): MarketEntry | undefined {
    return this.#all.get(assetId);
  }

  /** The window's list is now `next` (reordered, renamed, added to or cut); returns the markets not followed before. */
  setListed(next: readonly MarketEntry[]): MarketEntry[] {
    this.#listed = [...next];
    const added: MarketEntry[] = [];
    for (const m of next) {
      if (!this.#all.has(m.assetId)) added.push(m);
      // A renamed market keeps its place among the followed, with its new name.
      this.#all.set(m.assetId, m);
    }
    this.#bound();
    return added;
  }

  /** A market met in the account's records: followed from now on. True when it was not before. */
  meet(assetId: bigint, symbol = `asset ${assetId}`): boolean {
    if (this.#all.has(assetId)) return false;
    this.#all.set(assetId, { assetId, symbol });
    this.#bound();
    return true;
  }

  #bound(): void {
    for (const [id] of this.#all) {
      if (this.#all.size <= MARKETS_FOLLOWED) break;
      if (!this.isListed(id)) this.#all.delete(id);
    }
    this.#allList = [...this.#all.values()];
  }
}
