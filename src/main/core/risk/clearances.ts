/**
 * One-shot permissions to sign one order, issued only by the order gate (order-gate.ts) and taken
 * by the vault signer (session/vault-signer.ts) when it is asked to sign a FillOrder. A path that
 * signs an order without passing the gate finds no clearance and signs nothing: the gate cannot be
 * forgotten by a new handler.
 */
import { BridgeFailure } from '../bridge-runtime';

/** What a clearance binds: who signs, for whom, and the order's terms. */
export interface ClearedTerms {
  /** The key that signs (the master, or its agent). */
  signer: string;
  /** The account whose money it is (the master). */
  sender: string;
  assetId: bigint;
  epoch: bigint;
  sell: boolean;
  price: bigint;
  /** The most it may be for: a close re-reads its position after the dialog and may only shrink. */
  size: bigint;
}

interface Entry extends ClearedTerms {
  expiresAt: number;
}

/** A clearance unused this long after the gate issued it is void (the dialog is long answered by then). */
export const CLEARANCE_TTL_MS = 30_000;
/** More outstanding than this means something is issuing and not signing: refuse rather than grow. */
const MAX_OUTSTANDING = 64;

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

function matches(e: ClearedTerms, t: ClearedTerms): boolean {
  return (
    same(e.signer, t.signer) &&
    same(e.sender, t.sender) &&
    e.assetId === t.assetId &&
    e.epoch === t.epoch &&
    e.sell === t.sell &&
    e.price === t.price &&
    t.size > 0n &&
    t.size <= e.size
  );
}

export class Clearances {
  readonly #entries: Entry[] = [];
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Only the gate calls this. */
  issue(terms: ClearedTerms): void {
    this.#sweep();
    if (this.#entries.length >= MAX_OUTSTANDING) this.#entries.shift();
    this.#entries.push({ ...terms, expiresAt: this.#now() + CLEARANCE_TTL_MS });
  }

  /** Takes the clearance for exactly these terms; throws when the gate never cleared them. */
  take(terms: ClearedTerms): void {
    this.#sweep();
    const i = this.#entries.findIndex((e) => matches(e, terms));
    if (i < 0)
      throw new BridgeFailure(
        'orders.not_cleared',
        'Not signed: this order did not pass the app’s order checks, so the app refused to sign it.',
      );
    this.#entries.splice(i, 1);
  }

  /** Withdraws a clearance the path did not use (a refusal after the dialog, an error before signing). */
  void(terms: ClearedTerms): void {
    const i = this.#entries.findIndex((e) => matches(e, terms) && e.size === terms.size);
    if (i >= 0) this.#entries.splice(i, 1);
  }

  get outstanding(): number {
    this.#sweep();
    return this.#entries.length;
  }

  #sweep(): void {
    const now = this.#now();
    for (let i = this.#entries.length - 1; i >= 0; i--)
      if (this.#entries[i]!.expiresAt <= now) this.#entries.splice(i, 1);
  }
}
