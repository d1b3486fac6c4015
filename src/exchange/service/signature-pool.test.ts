import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesToHex, DigestSigner, keccakUtf8, recoverDigestSigner } from '../../shared/protocol';
import { SignaturePool } from './signature-pool';
import { SignatureVerifier, type SignatureToCheck } from './signature-verifier';
import { startFixture } from '../../../test/support/exchange/test-fixture';
import { fillOrder, signedBody } from '../../../test/support/exchange/testkit';

const keys = Array.from({ length: 3 }, (_, i) => new DigestSigner(bytesToHex(keccakUtf8(`pool key ${i}`))));

function reference(c: SignatureToCheck): boolean {
  try {
    return recoverDigestSigner(c.digest, c.signature as `0x${string}`).toLowerCase() === c.signer.toLowerCase();
  } catch {
    return false;
  }
}

/** Valid, foreign-signer, mutated, high-v, malformed and short-digest checks over a few signers. */
function mixedChecks(n: number): SignatureToCheck[] {
  const out: SignatureToCheck[] = [];
  for (let i = 0; i < n; i++) {
    const key = keys[i % keys.length]!;
    const digest = keccakUtf8(`pool payload ${i}`);
    let signature: string = key.sign(digest);
    let signer: string = key.address;
    switch (i % 7) {
      case 1:
        signer = keys[(i + 1) % keys.length]!.address;
        break;
      case 2:
        signature = `${signature.slice(0, 20)}${signature[20] === 'a' ? 'b' : 'a'}${signature.slice(21)}`;
        break;
      case 3:
        signature = `${signature.slice(0, 130)}${signature.endsWith('1b') ? '1c' : '1b'}`;
        break;
      case 4:
        signature = `${signature.slice(0, 130)}1d`;
        break;
      case 5:
        signature = signature.slice(0, 100);
        break;
      default:
        break;
    }
    out.push({ digest: i % 11 === 10 ? digest.subarray(0, 31) : digest, signature, signer });
  }
  return out;
}

describe('SignatureVerifier.verifyBatch', () => {
  it('answers like recoverDigestSigner for every item, with tables, without, and across evictions', () => {
    for (const opts of [{}, { tablesAfter: 1 }, { tablesAfter: 1, capacity: 1 }]) {
      const v = new SignatureVerifier(opts);
      for (let round = 0; round < 3; round++) {
        const checks = mixedChecks(30);
        expect(v.verifyBatch(checks)).toEqual(checks.map(reference));
      }
    }
  });
});

describe('SignaturePool', () => {
  const pools: SignaturePool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it.each([0, 1])('workers: %i verifies concurrent checks correctly and counts them', async (workers) => {
    const pool = await SignaturePool.start({ workers, onError: (e) => expect.fail(String(e)) });
    pools.push(pool);
    expect(pool.workers).toBe(workers);
    const checks = mixedChecks(60);
    // Two waves: the second reaches cached keys with tables.
    for (let wave = 0; wave < 2; wave++) {
      const got = await Promise.all(checks.map((c) => pool.verify(c.digest, c.signature, c.signer)));
      expect(got).toEqual(checks.map(reference));
    }
    expect(pool.stats.fast + pool.stats.recovered).toBeGreaterThan(0);
    expect(pool.stats.fast).toBeGreaterThan(0);
  });

  it('shares the work with this thread when the worker lags (stealAt), with the same answers', async () => {
    const pool = await SignaturePool.start({ workers: 1, stealAt: 1, onError: (e) => expect.fail(String(e)) });
    pools.push(pool);
    const checks = mixedChecks(80);
    for (let wave = 0; wave < 2; wave++) {
      expect(await Promise.all(checks.map((c) => pool.verify(c.digest, c.signature, c.signer)))).toEqual(
        checks.map(reference),
      );
    }
    expect(pool.workers).toBe(1);
  });

  it('falls back to this thread when a worker dies, losing no check', async () => {
    const errors: unknown[] = [];
    const pool = await SignaturePool.start({ workers: 1, onError: (e) => errors.push(e) });
    pools.push(pool);
    const checks = mixedChecks(20);
    const pending = checks.map((c) => pool.verify(c.digest, c.signature, c.signer));
    // Kill the worker while the batch is (about to be) in flight.
    const worker = (pool as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots[0]!.worker;
    setImmediate(() => void worker.terminate());
    expect(await Promise.all(pending)).toEqual(checks.map(reference));
    expect(pool.workers).toBe(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(await Promise.all(checks.map((c) => pool.verify(c.digest, c.signature, c.signer)))).toEqual(
      checks.map(reference),
    );
  });
});

describe('service with signature workers', () => {
  it.each([0, 1])(
    'workers: %i — concurrent duplicates: one 202, the rest ENTRY_PROCESSED, one journal line',
    async (workers) => {
      const fx = await startFixture({ signatureWorkers: workers });
      try {
        expect(fx.svc.signatureStats().workers).toBe(workers);
        const { alice, bob } = fx.keys;
        await fx.svc.credit(alice.address, 100_000_000n);
        const body = signedBody(
          'orders',
          fillOrder(
            { key: alice },
            { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 100_000n, size: 1_000_000n },
          ),
          fx.svc.domain,
          alice,
        );
        const forged = {
          ...body,
          signature: signedBody(
            'orders',
            fillOrder(
              { key: bob },
              { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 100_000n, size: 1_000_000n },
            ),
            fx.svc.domain,
            bob,
          ).signature,
        };
        const replies = await Promise.all([
          ...Array.from({ length: 8 }, () => fx.http.post('/orders', body)),
          fx.http.post('/orders', forged),
        ]);
        const statuses = replies.map((r) => `${r.status} ${String((r.body as { error?: string }).error ?? '')}`.trim());
        expect(statuses.filter((s) => s === '202')).toHaveLength(1);
        expect(statuses.filter((s) => s === '404 ENTRY_PROCESSED')).toHaveLength(7);
        expect(statuses.at(-1)).toBe('401 INVALID_SIGNATURE');
        const journal = await readFile(join(fx.dataDir, 'journal.ndjson'), 'utf8');
        expect(journal.split('\n').filter((l) => l.includes(body.orderHash as string))).toHaveLength(1);
        const before = fx.svc.stateHash();
        await fx.restart();
        expect(fx.svc.stateHash()).toBe(before);
        expect(fx.svc.checkInvariants()).toEqual([]);
      } finally {
        await fx.close();
      }
    },
  );
});
