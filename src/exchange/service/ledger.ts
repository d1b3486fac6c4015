// The deterministic core of the service: journal records in, engine + service state out. The live
// path and replay run the same `apply`, so a replayed journal reaches the identical state.
import { createHash } from 'node:crypto';
import { canonicalJson, checkInvariants, Engine, type EngineOptions } from '../engine';
import type {
  CancelReplaceResult,
  EngineCancelResult,
  EngineClaimResult,
  CreditResult,
  MarketEvent,
  MarkWithdrawalPaidResult,
  NewOrderResult,
  OrderFields,
  RegisterMarketResult,
  ResolveResult,
  WithdrawResult,
} from '../engine';
import type { ActionOf, CancelReplaceOrder, FillOrder, Hex, PrimaryType } from '../../shared/protocol';
import type { Journal } from './journal';
import {
  fromSignedEntry,
  type EntryByKind,
  type GenesisEntry,
  type JournalRecord,
  type JournalRecordOf,
  type RecordKind,
  type SignedEntry,
} from './records';

export interface AgentRecord {
  /** Lowercase agent address. */
  agent: string;
  /** Unix seconds (an expiry-style timestamp, docs/protocol/agents.md#the-approval-nonce). */
  approvalNonce: bigint;
  approvedAtMs: number;
  revoked: boolean;
}

export interface WithdrawalInfo {
  account: string;
  receiver: string;
  amount: bigint;
}

export interface ResolutionInfo {
  price: bigint;
  /** Unix ms of the resolution. */
  tsMs: number;
  id: Hex;
}

/** Service state the engine does not model. Everything but `orderSignatures` enters stateHash. */
export class ServiceState {
  genesis: GenesisEntry | null = null;
  /** Digests of approvals, revocations, pauses and invalidations (the engine tracks the rest). */
  readonly processed = new Set<string>();
  /** By lowercase master. */
  readonly agents = new Map<string, AgentRecord>();
  paused = false;
  readonly invalidated = new Set<string>();
  readonly withdrawals = new Map<string, WithdrawalInfo>();
  /** By `${assetId}:${epoch}`. */
  readonly resolutions = new Map<string, ResolutionInfo>();
  /** Credited deposit indexes (decimal strings). */
  readonly deposits = new Set<string>();
  devnetCredits = 0n;
  /** Signatures of resting orders, for /ledger/orders (derived; not hashed). */
  readonly orderSignatures = new Map<string, string>();

  hashInput(): unknown {
    const sorted = <T>(m: Map<string, T>): [string, T][] =>
      [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return {
      genesis: this.genesis,
      processed: [...this.processed].sort(),
      agents: sorted(this.agents),
      paused: this.paused,
      invalidated: [...this.invalidated].sort(),
      withdrawals: sorted(this.withdrawals),
      resolutions: sorted(this.resolutions),
      deposits: [...this.deposits].sort(),
      devnetCredits: this.devnetCredits,
    };
  }
}

/** Parsed actions the live path already holds, so apply need not re-parse the entry. */
export interface DecodedByKind {
  fill: FillOrder;
  cancel: ActionOf<'CancelOrder'>;
  cancelReplace: { cancelReplace: CancelReplaceOrder; replacement: FillOrder };
  claim: ActionOf<'ClaimOrder'>;
  withdrawal: ActionOf<'WithdrawalOrder'>;
  approve: ActionOf<'ApproveAgentOrder'>;
  revoke: ActionOf<'RevokeAgentOrder'>;
  resolution: ActionOf<'ResolutionOrder'>;
  pause: ActionOf<'PauseOrder'>;
  invalidate: ActionOf<'InvalidateOrder'>;
}
type DecodedKind = keyof DecodedByKind;

export interface SimpleResult {
  status: 'SUCCESS';
}

export interface ResultByKind {
  genesis: null;
  epochOpen: RegisterMarketResult;
  deposit: CreditResult;
  fill: NewOrderResult;
  cancel: EngineCancelResult;
  cancelReplace: CancelReplaceResult;
  claim: EngineClaimResult;
  withdrawal: WithdrawResult;
  payout: MarkWithdrawalPaidResult;
  approve: SimpleResult;
  revoke: SimpleResult;
  resolution: ResolveResult;
  pause: SimpleResult;
  invalidate: SimpleResult;
}

export interface Applied<K extends RecordKind> {
  seqId: number;
  result: ResultByKind[K];
  events: MarketEvent[];
}

const PRIMARY: Record<DecodedKind, PrimaryType> = {
  fill: 'FillOrder',
  cancel: 'CancelOrder',
  cancelReplace: 'CancelReplaceOrder',
  claim: 'ClaimOrder',
  withdrawal: 'WithdrawalOrder',
  approve: 'ApproveAgentOrder',
  revoke: 'RevokeAgentOrder',
  resolution: 'ResolutionOrder',
  pause: 'PauseOrder',
  invalidate: 'InvalidateOrder',
};

function decode<K extends DecodedKind>(kind: K, entry: SignedEntry): DecodedByKind[K] {
  if (kind === 'cancelReplace') {
    const cr = entry as EntryByKind['cancelReplace'];
    return {
      cancelReplace: fromSignedEntry('CancelReplaceOrder', cr),
      replacement: fromSignedEntry('FillOrder', cr.replacement),
    } as DecodedByKind[K];
  }
  return fromSignedEntry(PRIMARY[kind], entry) as DecodedByKind[K];
}

function orderFields(o: FillOrder, id: Hex): OrderFields {
  return {
    orderId: id,
    account: o.sender,
    signer: o.signer,
    signatureType: o.signatureType,
    assetId: o.assetId,
    epoch: o.epoch,
    side: o.side,
    price: o.price,
    size: o.size,
    tif: o.timeInForce,
    nonce: o.nonce,
    approvalNonce: o.approvalNonce,
  };
}

const SUCCESS: SimpleResult = { status: 'SUCCESS' };

export class Ledger {
  readonly engine: Engine;
  readonly state = new ServiceState();
  private seq = 0;

  constructor(
    private readonly journal: Journal,
    engineOptions: EngineOptions = {},
  ) {
    this.engine = new Engine(engineOptions);
  }

  get lastSeqId(): number {
    return this.seq;
  }

  /** Re-applies records read from the journal at start-up. */
  replay(records: readonly JournalRecord[]): void {
    for (const r of records) {
      this.apply(r);
      this.seq = r.seqId;
    }
  }

  /**
   * Applies a new record and appends it to the journal (not yet durable: await `durable(seqId)`
   * before telling anyone). `decoded` is the already-parsed action of a signed entry.
   */
  submit<K extends RecordKind>(
    kind: K,
    entry: EntryByKind[K],
    ts: number,
    decoded?: K extends DecodedKind ? DecodedByKind[K] : never,
  ): Applied<K> {
    const rec = { seqId: this.seq + 1, ts, kind, entry } as JournalRecordOf<K>;
    const out = this.apply(rec as JournalRecord, decoded);
    this.journal.append(rec as JournalRecord);
    this.seq = rec.seqId;
    return { seqId: rec.seqId, result: out.result as ResultByKind[K], events: out.events };
  }

  durable(seqId: number): Promise<void> {
    return this.journal.durable(seqId);
  }

  private apply(rec: JournalRecord, decoded?: unknown): { result: ResultByKind[RecordKind]; events: MarketEvent[] } {
    const time = rec.ts;
    const none: MarketEvent[] = [];
    const dec = <K extends DecodedKind>(kind: K, entry: SignedEntry): DecodedByKind[K] =>
      (decoded as DecodedByKind[K] | undefined) ?? decode(kind, entry);
    const s = this.state;
    switch (rec.kind) {
      case 'genesis':
        s.genesis = rec.entry;
        return { result: null, events: none };
      case 'epochOpen': {
        const e = rec.entry;
        return this.engine.apply({
          type: 'registerMarket',
          time,
          assetId: BigInt(e.assetId),
          epoch: BigInt(e.epoch),
          strike: BigInt(e.strike),
          expiration: BigInt(e.expiration),
        });
      }
      case 'deposit': {
        const e = rec.entry;
        const out = this.engine.apply({
          type: 'credit',
          time,
          owner: e.owner,
          amount: BigInt(e.amount),
          index: BigInt(e.index),
        });
        s.deposits.add(e.index);
        if (e.source === 'devnet') s.devnetCredits++;
        return out;
      }
      case 'fill': {
        const o = dec('fill', rec.entry);
        const out = this.engine.apply({ type: 'placeOrder', time, ...orderFields(o, rec.entry.id) });
        if (
          out.result.remaining > 0n &&
          (out.result.status === 'ACCEPTED' || out.result.status === 'PARTIALLY_FILLED')
        ) {
          s.orderSignatures.set(rec.entry.id, rec.entry.auth.signature);
        }
        this.forget(out.events);
        return out;
      }
      case 'cancel': {
        const c = dec('cancel', rec.entry);
        const out = this.engine.apply({
          type: 'cancel',
          time,
          id: rec.entry.id,
          account: c.sender,
          assetId: c.assetId,
          epoch: c.epoch,
          orderId: c.orderHash,
        });
        this.forget(out.events);
        return out;
      }
      case 'cancelReplace': {
        const { cancelReplace: c, replacement } = dec('cancelReplace', rec.entry);
        const repId = rec.entry.replacement.id;
        const out = this.engine.apply({
          type: 'cancelReplace',
          time,
          id: rec.entry.id,
          account: c.sender,
          assetId: c.assetId,
          epoch: c.epoch,
          cancelOrderId: c.cancelOrderHash,
          allOrNothing: c.allOrNothing,
          replacement: orderFields(replacement, repId),
        });
        const r = out.result.replacement;
        if (r !== null && r.remaining > 0n && (r.status === 'ACCEPTED' || r.status === 'PARTIALLY_FILLED')) {
          s.orderSignatures.set(repId, rec.entry.replacement.auth.signature);
        }
        this.forget(out.events);
        return out;
      }
      case 'claim': {
        const c = dec('claim', rec.entry);
        return this.engine.apply({
          type: 'claim',
          time,
          id: rec.entry.id,
          account: c.sender,
          assetId: c.assetId,
          epoch: c.epoch,
        });
      }
      case 'withdrawal': {
        const w = dec('withdrawal', rec.entry);
        const out = this.engine.apply({
          type: 'withdraw',
          time,
          id: rec.entry.id,
          account: w.sender,
          amount: w.amount,
        });
        if (out.result.status === 'WITHDRAWN')
          s.withdrawals.set(rec.entry.id, {
            account: w.sender.toLowerCase(),
            receiver: w.receiver.toLowerCase(),
            amount: w.amount,
          });
        return out;
      }
      case 'payout':
        return this.engine.apply({ type: 'markWithdrawalPaid', time, id: rec.entry.id, txHash: rec.entry.txHash });
      case 'resolution': {
        const r = dec('resolution', rec.entry);
        const out = this.engine.apply({
          type: 'resolve',
          time,
          id: rec.entry.id,
          assetId: r.assetId,
          epoch: r.epoch,
          price: r.price,
        });
        if (out.result.status === 'SUCCESS')
          s.resolutions.set(`${r.assetId}:${r.epoch}`, { price: r.price, tsMs: time, id: rec.entry.id });
        return out;
      }
      case 'approve': {
        const a = dec('approve', rec.entry);
        s.processed.add(rec.entry.id);
        s.agents.set(a.sender.toLowerCase(), {
          agent: a.agent.toLowerCase(),
          approvalNonce: a.approvalNonce,
          approvedAtMs: time,
          revoked: false,
        });
        return { result: SUCCESS, events: none };
      }
      case 'revoke': {
        const r = dec('revoke', rec.entry);
        s.processed.add(rec.entry.id);
        const cur = s.agents.get(r.sender.toLowerCase());
        if (cur !== undefined) cur.revoked = true;
        return { result: SUCCESS, events: none };
      }
      case 'pause': {
        const p = dec('pause', rec.entry);
        s.processed.add(rec.entry.id);
        s.paused = p.isPause;
        return { result: SUCCESS, events: none };
      }
      case 'invalidate': {
        const i = dec('invalidate', rec.entry);
        s.processed.add(rec.entry.id);
        s.invalidated.add(i.id.toString());
        return { result: SUCCESS, events: none };
      }
    }
  }

  /** Drops signatures of orders that left the book. */
  private forget(events: readonly MarketEvent[]): void {
    for (const e of events) {
      if (e.type === 'cancel') this.state.orderSignatures.delete(e.data.cancelId);
      else if (e.type === 'trade' && e.data.size === '0') this.state.orderSignatures.delete(e.data.orderId);
    }
  }

  /** A digest already consumed by any accepted action. */
  isProcessed(digest: string): boolean {
    const d = digest.toLowerCase();
    return this.engine.isProcessed(d) || this.state.processed.has(d);
  }

  /** sha256 over the engine's state hash and the service state. */
  stateHash(): string {
    return createHash('sha256')
      .update(this.engine.stateHash())
      .update('\n')
      .update(canonicalJson(this.state.hashInput()))
      .digest('hex');
  }

  checkInvariants(): string[] {
    const bad = checkInvariants(this.engine);
    for (const w of this.engine.pendingPayouts()) {
      if (!this.state.withdrawals.has(w.id)) bad.push(`queued withdrawal ${w.id} has no receiver`);
    }
    return bad;
  }
}
