// The air-gapped book survives a restart (the same store, read back through every envelope check),
// drops what no longer reads as ours, and stays bounded by count.
import { describe, expect, it } from 'vitest';
import { DigestSigner, makeExchangeDomain, type Address } from '../../../shared/protocol';
import { NonceRegistry, keySigner } from '../../../client/actions/signed-actions';
import { draftCancelAll, signUnsignedRequest, type DraftContext } from '../../../client';
import { createMemoryStore } from '../../store/key-value-store';
import { AirgapBook, MAX_PENDING, MAX_RECEIVED } from './book';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`);
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const DOMAIN = makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE });
const nonces = new NonceRegistry();
let seq = 0;
const ctx: DraftContext = {
  signer: MASTER.address,
  domain: DOMAIN,
  contracts: { exchange: EXCHANGE, ledger: null },
  nonces,
  newId: () => (++seq).toString(16).padStart(32, '0'),
};
const draft = (epoch: bigint) => draftCancelAll(ctx, { assetId: 1n, epoch });

describe('AirgapBook', () => {
  it('keeps prepared requests, their responses and states, and received ones across a restart', async () => {
    const store = createMemoryStore();
    const book = new AirgapBook(store);
    const a = await draft(1n);
    const b = await draft(2n);
    book.addPending(a);
    book.addPending(b);
    const response = await signUnsignedRequest(b, keySigner(MASTER));
    book.updatePending(b.id, { response, state: 'sent', outcome: 'ACCEPTED' });
    book.addReceived(a);
    book.setReceivedResponse(a.id, await signUnsignedRequest(a, keySigner(MASTER)));
    book.pinSigningDomain({ chainId: '31337', verifyingContract: EXCHANGE, domainName: 'X', pinnedAt: 'now' });
    book.setAlwaysConfirm(true);

    const again = new AirgapBook(store);
    expect(again.pending().map((p) => [p.request.id, p.request.fingerprint, p.state, p.outcome])).toEqual([
      [a.id, a.fingerprint, 'waiting', null],
      [b.id, b.fingerprint, 'sent', 'ACCEPTED'],
    ]);
    expect(again.pendingById(b.id)!.response).toEqual(response);
    expect(again.receivedById(a.id)!.response?.fingerprint).toBe(a.fingerprint);
    expect(again.signingDomains()).toHaveLength(1);
    expect(again.alwaysConfirm()).toBe(true);
  });

  it('drops a stored request that no longer passes its checks', async () => {
    const store = createMemoryStore();
    const book = new AirgapBook(store);
    book.addPending(await draft(3n));
    const raw = store.get('airgap.book') as { pending: { request: { fingerprint: string } }[] };
    raw.pending[0]!.request.fingerprint = 'AAAA-AAAA-AAAA-AAAA-AAAA';
    store.set('airgap.book', raw);
    expect(new AirgapBook(store).pending()).toEqual([]);
  });

  it('is bounded: a full list of waiting requests refuses with a sentence; a sent one makes room', async () => {
    const book = new AirgapBook(createMemoryStore());
    for (let i = 0; i < MAX_PENDING; i++) expect(typeof book.addPending(await draft(BigInt(10 + i)))).toBe('object');
    const refused = book.addPending(await draft(100n));
    expect(refused).toMatch(/already waiting for a signature/);
    const first = book.pending()[0]!.request.id;
    book.updatePending(first, { state: 'sent' });
    expect(typeof book.addPending(await draft(101n))).toBe('object');
    expect(book.pending()).toHaveLength(MAX_PENDING);
    expect(book.pendingById(first)).toBeUndefined();

    for (let i = 0; i < MAX_RECEIVED + 5; i++) book.addReceived(await draft(BigInt(200 + i)));
    expect(book.received()).toHaveLength(MAX_RECEIVED);
  });
});
