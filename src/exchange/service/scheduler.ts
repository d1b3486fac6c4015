// Epoch scheduler: at each run it resolves every open epoch whose end has passed (at the oracle
// price of its end, through the journal) and opens each market's current epoch. After downtime
// it resolves every missed open epoch once, in time order; epochs that were never opened while
// the service was down are skipped (nobody could trade them).
import {
  hashAction,
  ZERO_ADDRESS,
  type Address,
  type ExchangeDomain,
  type ResolutionOrder,
} from '../../shared/protocol';
import type { MarketEvent } from '../engine';
import { epochAt, epochEnd, epochStart, epochStrike, type MarketSpec } from '../markets';
import type { Ledger } from './ledger';
import type { OraclePriceLog } from './oracle';
import { toSignedEntry } from './records';

export interface SchedulerDeps {
  ledger: Ledger;
  markets: readonly MarketSpec[];
  oracle: OraclePriceLog;
  domain: Readonly<ExchangeDomain>;
  nowMs(): number;
  publish(events: MarketEvent[]): void;
}

interface Job {
  atSec: bigint;
  /** Resolutions before opens at the same instant (epoch e ends where e+1 starts). */
  rank: 0 | 1;
  market: MarketSpec;
  epoch: bigint;
}

/** The synthetic ResolutionOrder the scheduler journals: zero signer and sender, nonce = epoch, no signature. */
export function schedulerResolution(m: MarketSpec, epoch: bigint, price: bigint): ResolutionOrder {
  const zero = ZERO_ADDRESS as Address;
  return { typ: 4n, nonce: epoch, signer: zero, signatureType: 0n, sender: zero, assetId: m.assetId, epoch, price };
}

export class EpochScheduler {
  /** Per asset: how many of its opened epochs (ascending) are resolved from the start. */
  private readonly resolvedPrefix = new Map<bigint, number>();

  constructor(private readonly d: SchedulerDeps) {}

  /** Does all due work; returns the last journal seqId written (0 when nothing was due). */
  run(): number {
    const nowMs = this.d.nowMs();
    const nowSec = BigInt(Math.floor(nowMs / 1000));
    const engine = this.d.ledger.engine;
    const jobs: Job[] = [];
    for (const m of this.d.markets) {
      const opened = engine.epochs(m.assetId);
      // Skip the prefix known to be resolved; a resolver may resolve any epoch early, so scan the rest.
      let floor = this.resolvedPrefix.get(m.assetId) ?? 0;
      while (floor < opened.length && engine.market(m.assetId, opened[floor]!).resolved) floor++;
      this.resolvedPrefix.set(m.assetId, floor);
      for (let i = floor; i < opened.length; i++) {
        const e = opened[i]!;
        if (epochEnd(m, e) > nowSec) break;
        if (!engine.market(m.assetId, e).resolved) jobs.push({ atSec: epochEnd(m, e), rank: 0, market: m, epoch: e });
      }
      const cur = epochAt(m, nowSec);
      const last = opened.at(-1);
      if (cur !== null && (last === undefined || last < cur))
        jobs.push({ atSec: epochStart(m, cur), rank: 1, market: m, epoch: cur });
    }
    jobs.sort((a, b) => (a.atSec !== b.atSec ? (a.atSec < b.atSec ? -1 : 1) : a.rank - b.rank));
    let lastSeq = 0;
    for (const j of jobs) lastSeq = j.rank === 0 ? this.resolve(j, nowMs) : this.open(j, nowMs);
    return lastSeq;
  }

  private resolve(j: Job, nowMs: number): number {
    const price = this.d.oracle.priceAt(j.market.symbolId, Number(j.atSec) * 1000);
    const action = schedulerResolution(j.market, j.epoch, price);
    const id = hashAction('ResolutionOrder', action, this.d.domain);
    const applied = this.d.ledger.submit(
      'resolution',
      toSignedEntry('ResolutionOrder', action, id, '0x', nowMs),
      nowMs,
      action,
    );
    this.d.publish(applied.events);
    return applied.seqId;
  }

  private open(j: Job, nowMs: number): number {
    const strike = epochStrike(j.market, j.epoch, (s, t) => this.d.oracle.priceAt(s, t));
    const entry = {
      assetId: j.market.assetId.toString(),
      epoch: j.epoch.toString(),
      strike: strike.toString(),
      startTime: epochStart(j.market, j.epoch).toString(),
      expiration: epochEnd(j.market, j.epoch).toString(),
    };
    return this.d.ledger.submit('epochOpen', entry, nowMs).seqId;
  }
}
