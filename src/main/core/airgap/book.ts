/**
 * What the air-gapped round trips keep across restarts, bounded by count: the requests this machine
 * prepared (and the responses matched to them), the requests it received to sign (and what it
 * signed), the signing domains pinned here for offline signing, and whether every signature asks
 * first. Stored as the envelopes' own JSON and read back through their full checks.
 */
import { z } from 'zod';
import {
  parseSignedResponse,
  parseUnsignedRequest,
  requestToJson,
  responseToJson,
  type SignedResponse,
  type UnsignedRequest,
} from '../../../client';
import type { KeyValueStore } from '../../store/key-value-store';

const BOOK_KEY = 'airgap.book';
/** Requests waiting for a signature, or kept as a record once sent. */
export const MAX_PENDING = 50;
/** Requests received for signing on this machine. */
export const MAX_RECEIVED = 50;
export const MAX_SIGNING_DOMAINS = 16;

export type PendingState = 'waiting' | 'signed' | 'sent';

export interface PendingEntry {
  request: UnsignedRequest;
  response: SignedResponse | null;
  state: PendingState;
  outcome: string | null;
}

export interface ReceivedEntry {
  request: UnsignedRequest;
  response: SignedResponse | null;
}

/** A signing domain pinned for offline signing, through main's dialog. */
export interface SigningDomainPin {
  chainId: string;
  verifyingContract: string;
  domainName: string;
  pinnedAt: string;
}

const stored = z.object({
  pending: z
    .array(
      z.object({
        request: z.unknown(),
        response: z.unknown(),
        state: z.enum(['waiting', 'signed', 'sent']),
        outcome: z.string().nullable(),
      }),
    )
    .default([]),
  received: z.array(z.object({ request: z.unknown(), response: z.unknown() })).default([]),
  domains: z
    .array(
      z.object({ chainId: z.string(), verifyingContract: z.string(), domainName: z.string(), pinnedAt: z.string() }),
    )
    .default([]),
  alwaysConfirm: z.boolean().default(false),
});

function readOrNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

export class AirgapBook {
  readonly #store: KeyValueStore;
  #pending: PendingEntry[] = [];
  #received: ReceivedEntry[] = [];
  #domains: SigningDomainPin[] = [];
  #alwaysConfirm = false;

  constructor(store: KeyValueStore) {
    this.#store = store;
    const parsed = stored.safeParse(store.get(BOOK_KEY) ?? {});
    if (!parsed.success) return;
    // Each envelope is read back with every check of its format; one that fails is dropped, not trusted.
    for (const p of parsed.data.pending) {
      const request = readOrNull(() => parseUnsignedRequest(p.request));
      if (!request) continue;
      const response =
        p.response === null || p.response === undefined ? null : readOrNull(() => parseSignedResponse(p.response));
      this.#pending.push({
        request,
        response,
        state: response || p.state === 'waiting' ? p.state : 'waiting',
        outcome: p.outcome,
      });
    }
    for (const r of parsed.data.received) {
      const request = readOrNull(() => parseUnsignedRequest(r.request));
      if (!request) continue;
      const response =
        r.response === null || r.response === undefined ? null : readOrNull(() => parseSignedResponse(r.response));
      this.#received.push({ request, response });
    }
    this.#domains = parsed.data.domains;
    this.#alwaysConfirm = parsed.data.alwaysConfirm;
  }

  pending(): readonly PendingEntry[] {
    return this.#pending;
  }

  pendingById(id: string): PendingEntry | undefined {
    return this.#pending.find((p) => p.request.id === id);
  }

  /** Keeps a prepared request; when full, the oldest sent one makes room, or the caller is told why not. */
  addPending(request: UnsignedRequest): PendingEntry | string {
    if (this.#pending.length >= MAX_PENDING) {
      const sent = this.#pending.findIndex((p) => p.state === 'sent');
      if (sent < 0)
        return `${MAX_PENDING} requests are already waiting for a signature: send or discard some before preparing more.`;
      this.#pending.splice(sent, 1);
    }
    const entry: PendingEntry = { request, response: null, state: 'waiting', outcome: null };
    this.#pending.push(entry);
    this.#save();
    return entry;
  }

  updatePending(id: string, change: Partial<Omit<PendingEntry, 'request'>>): void {
    const entry = this.pendingById(id);
    if (!entry) return;
    Object.assign(entry, change);
    this.#save();
  }

  discardPending(id: string): boolean {
    const before = this.#pending.length;
    this.#pending = this.#pending.filter((p) => p.request.id !== id);
    if (before === this.#pending.length) return false;
    this.#save();
    return true;
  }

  received(): readonly ReceivedEntry[] {
    return this.#received;
  }

  receivedById(id: string): ReceivedEntry | undefined {
    return this.#received.find((r) => r.request.id === id);
  }

  /** Keeps a received request (the same request again replaces nothing); the oldest makes room. */
  addReceived(request: UnsignedRequest): ReceivedEntry {
    const known = this.receivedById(request.id);
    if (known && known.request.fingerprint === request.fingerprint) return known;
    if (known) this.#received = this.#received.filter((r) => r !== known);
    if (this.#received.length >= MAX_RECEIVED) this.#received.shift();
    const entry: ReceivedEntry = { request, response: null };
    this.#received.push(entry);
    this.#save();
    return entry;
  }

  setReceivedResponse(id: string, response: SignedResponse): void {
    const entry = this.receivedById(id);
    if (!entry) return;
    entry.response = response;
    this.#save();
  }

  signingDomains(): readonly SigningDomainPin[] {
    return this.#domains;
  }

  pinSigningDomain(pin: SigningDomainPin): void {
    if (this.#domains.length >= MAX_SIGNING_DOMAINS) this.#domains.shift();
    this.#domains.push(pin);
    this.#save();
  }

  alwaysConfirm(): boolean {
    return this.#alwaysConfirm;
  }

  setAlwaysConfirm(on: boolean): void {
    this.#alwaysConfirm = on;
    this.#save();
  }

  #save(): void {
    this.#store.set(BOOK_KEY, {
      pending: this.#pending.map((p) => ({
        request: requestToJson(p.request),
        response: p.response ? responseToJson(p.response) : null,
        state: p.state,
        outcome: p.outcome,
      })),
      received: this.#received.map((r) => ({
        request: requestToJson(r.request),
        response: r.response ? responseToJson(r.response) : null,
      })),
      domains: this.#domains,
      alwaysConfirm: this.#alwaysConfirm,
    });
  }
}
