// Journal records: one JSON line per accepted state change. Signed actions are stored in the
// journal-entry shape of docs/protocol/signing.md#journal-entries ({typ, id, arrivalTime, auth:{…, signature}, …action
// fields}); the entry hashes to the same digest as its action. Replay rebuilds actions from entries with the protocol
// parsers.
import {
  parseAction,
  serializeAction,
  type ActionOf,
  type Hex,
  type PrimaryType,
  type WireAction,
} from '../../shared/protocol';

export interface AuthJson {
  typ: string;
  nonce: string;
  signer: string;
  signatureType: string;
  signature: string;
  sender: string;
}

/** A signed action as a journal entry (docs/protocol/signing.md#journal-entries). `id` is the action's digest. */
export interface SignedEntry {
  typ: string;
  id: Hex;
  /** Unix seconds. */
  arrivalTime: string;
  auth: AuthJson;
  [field: string]: unknown;
}

export interface GenesisEntry {
  format: 1;
  /** Unix ms of the first start; default market start times derive from it. */
  timeMs: number;
  /** Unix ms of the oracle paths' step 0. */
  oracleOriginMs: number;
  chainId: string;
  verifyingContract: string;
}

export interface EpochOpenEntry {
  assetId: string;
  epoch: string;
  strike: string;
  /** Unix seconds. */
  startTime: string;
  expiration: string;
}

/** typ-7 DepositSweepOrder shape; `index` is the DepositQueued index (chain) or 2^127 + n (devnet credit). */
export interface DepositEntry {
  typ: '7';
  id: string;
  arrivalTime: string;
  owner: string;
  amount: string;
  index: string;
  ledger: string;
  source: 'chain' | 'devnet';
  txHash?: string;
}

export interface PayoutEntry {
  id: Hex;
  txHash: Hex;
}

export type CancelReplaceEntry = SignedEntry & { replacement: SignedEntry };

export interface EntryByKind {
  genesis: GenesisEntry;
  epochOpen: EpochOpenEntry;
  deposit: DepositEntry;
  fill: SignedEntry;
  cancel: SignedEntry;
  cancelReplace: CancelReplaceEntry;
  claim: SignedEntry;
  withdrawal: SignedEntry;
  payout: PayoutEntry;
  approve: SignedEntry;
  revoke: SignedEntry;
  resolution: SignedEntry;
  pause: SignedEntry;
  invalidate: SignedEntry;
}
export type RecordKind = keyof EntryByKind;

export type JournalRecordOf<K extends RecordKind> = { seqId: number; ts: number; kind: K; entry: EntryByKind[K] };
export type JournalRecord = { [K in RecordKind]: JournalRecordOf<K> }[RecordKind];

const AUTH_KEYS = ['typ', 'nonce', 'signer', 'signatureType', 'sender'] as const;

/** The journal entry of a signed action (docs/protocol/signing.md#journal-entries). */
export function toSignedEntry<P extends PrimaryType>(
  primaryType: P,
  action: ActionOf<P>,
  id: Hex,
  signature: string,
  tsMs: number,
): SignedEntry {
  const wire = serializeAction(primaryType, action);
  const auth: AuthJson = {
    typ: String(wire['typ']),
    nonce: String(wire['nonce']),
    signer: String(wire['signer']),
    signatureType: String(wire['signatureType']),
    signature,
    sender: String(wire['sender']),
  };
  const entry: SignedEntry = { typ: auth.typ, id, arrivalTime: String(Math.floor(tsMs / 1000)), auth };
  for (const [k, v] of Object.entries(wire)) if (!(AUTH_KEYS as readonly string[]).includes(k)) entry[k] = v;
  return entry;
}

const NOT_ACTION_KEYS = new Set(['typ', 'id', 'arrivalTime', 'auth', 'replacement']);

/** Rebuilds the action of a signed entry (strictly parsed, so a damaged journal is caught). */
export function fromSignedEntry<P extends PrimaryType>(primaryType: P, entry: SignedEntry): ActionOf<P> {
  const wire: WireAction = {};
  for (const k of AUTH_KEYS) wire[k] = entry.auth[k];
  for (const [k, v] of Object.entries(entry)) if (!NOT_ACTION_KEYS.has(k)) wire[k] = v as string | boolean;
  return parseAction(primaryType, wire);
}
