/** Recent trades of each market from its feed, newest first and bounded per market. */
import type { TradePrint } from '../../../shared/bridge';

export const TAPE_LIMIT = 100;
/** Markets whose tapes are kept: the current epochs of every asset and a few just ended. */
const MARKETS_KEPT = 64;

export class TradeTape {
  readonly #tapes = new Map<string, TradePrint[]>();
  readonly #limit: number;

  constructor(limit = TAPE_LIMIT) {
    this.#limit = limit;
  }

  push(t: TradePrint): void {
    const key = `${t.assetId}:${t.epoch}`;
    let tape = this.#tapes.get(key);
    if (!tape) {
      tape = [];
      this.#tapes.set(key, tape);
      // Maps iterate in insertion order: the oldest market goes first.
      if (this.#tapes.size > MARKETS_KEPT) this.#tapes.delete(this.#tapes.keys().next().value!);
    }
    tape.unshift(t);
    if (tape.length > this.#limit) tape.length = this.#limit;
  }

  recent(assetId: string, epoch: string): TradePrint[] {
    return [...(this.#tapes.get(`${assetId}:${epoch}`) ?? [])];
  }
}
