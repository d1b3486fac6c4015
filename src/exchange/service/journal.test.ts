import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hex } from '../../shared/protocol';
import { Journal, JOURNAL_FILE } from './journal';
import type { JournalRecord } from './records';
import { startFixture, type Fixture } from '../../../test/support/exchange/test-fixture';
import {
  approveAgentOrder,
  cancelOrder,
  fillOrder,
  signedBody,
  withdrawalOrder,
} from '../../../test/support/exchange/testkit';
import { LEDGER } from '../../../test/support/exchange/test-fixture';

const C = 1_000_000n;
type Body = Record<string, unknown>;
const open: Fixture[] = [];

async function fixture(): Promise<Fixture> {
  const fx = await startFixture();
  open.push(fx);
  return fx;
}
afterEach(async () => {
  for (const fx of open.splice(0)) await fx.close();
});

async function order(
  fx: Fixture,
  who: 'alice' | 'bob',
  side: boolean,
  price: bigint,
  size: bigint,
  tif = 0n,
  assetId = fx.btc.assetId,
  epoch = 0n,
) {
  const key = fx.keys[who];
  return fx.http.post<Body>(
    '/orders',
    signedBody(
      'orders',
      fillOrder({ key }, { assetId, epoch, side, price, size, timeInForce: tif }),
      fx.svc.domain,
      key,
    ),
  );
}

/** A bit of everything that changes state. */
async function activity(fx: Fixture): Promise<void> {
  await fx.svc.credit(fx.keys.alice.address, 100n * C);
  await fx.svc.credit(fx.keys.bob.address, 100n * C);
  const a = await order(fx, 'alice', false, 450_000n, 5n * C);
  await order(fx, 'bob', true, 440_000n, 2n * C, 2n);
  await order(fx, 'alice', true, 700_000n, C);
  const k = fx.keys.alice;
  await fx.http.post(
    '/cancels',
    signedBody(
      'cancels',
      cancelOrder({ key: k }, { assetId: fx.btc.assetId, epoch: 0n, orderHash: a.body['orderId'] as Hex }),
      fx.svc.domain,
      k,
    ),
  );
  await fx.http.post(
    '/withdrawals',
    signedBody(
      'withdrawals',
      withdrawalOrder({ key: fx.keys.bob }, { amount: C, ledger: LEDGER }),
      fx.svc.domain,
      fx.keys.bob,
    ),
  );
  const n = BigInt(Math.floor(fx.clock.now / 1000)) + 100n;
  await fx.http.post(
    '/agents/approve',
    signedBody(
      'agentsApprove',
      approveAgentOrder({ key: k }, fx.keys.agent.address, n, fx.svc.domain),
      fx.svc.domain,
      k,
    ),
  );
  await order(fx, 'bob', false, 300_000n, C, 0n, fx.eth.assetId);
}

describe('journal', () => {
  it('replays to the identical state after a restart', async () => {
    const fx = await fixture();
    await activity(fx);
    fx.clock.now += 60_000; // epoch 0 expires: resolution + next epoch through the journal
    await fx.svc.runScheduler();
    const hash = fx.svc.stateHash();
    const book = (await fx.http.get(`/book/${fx.btc.assetId}/0`)).body;
    await fx.restart();
    expect(fx.svc.stateHash()).toBe(hash);
    expect(fx.svc.checkInvariants()).toEqual([]);
    expect((await fx.http.get(`/book/${fx.btc.assetId}/0`)).body).toEqual({
      ...(book as Body),
      ts: expect.any(Number) as unknown,
    });
    // Duplicates stay duplicates across restarts.
    expect((await fx.http.get<Body>(`/agents/status/${fx.keys.alice.address}`)).body['status']).toBe('active');
  });

  it('writes the record to disk before answering', async () => {
    const fx = await fixture();
    await fx.svc.credit(fx.keys.alice.address, 10n * C);
    const res = await order(fx, 'alice', false, 100_000n, C);
    expect(res.status).toBe(202);
    const text = await readFile(join(fx.dataDir, JOURNAL_FILE), 'utf8');
    expect(text).toContain(res.body['orderId'] as string);
  });

  it('batches concurrent appends into fewer fsyncs', async () => {
    const fx = await fixture();
    await fx.svc.credit(fx.keys.alice.address, 1_000n * C);
    const before = fx.svc.journalStats();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => order(fx, 'alice', false, BigInt(1 + i) * 1000n, C)),
    );
    expect(results.every((r) => r.status === 202)).toBe(true);
    const after = fx.svc.journalStats();
    expect(after.records - before.records).toBe(40);
    expect(after.flushes - before.flushes).toBeLessThan(40);
  });

  it('ignores a torn last line and keeps appending cleanly', async () => {
    const fx = await fixture();
    await activity(fx);
    const hash = fx.svc.stateHash();
    await fx.svc.stop();
    await appendFile(join(fx.dataDir, JOURNAL_FILE), '{"seqId":999,"ts":1,"kind":"fill","entry":{"ty');
    await fx.restart();
    expect(fx.svc.stateHash()).toBe(hash);
    expect((await order(fx, 'alice', false, 1000n, C)).status).toBe(202);
    const hash2 = fx.svc.stateHash();
    await fx.restart();
    expect(fx.svc.stateHash()).toBe(hash2);
  });

  it('refuses to start on a corrupt line in the middle', async () => {
    const fx = await fixture();
    await activity(fx);
    await fx.svc.stop();
    const file = join(fx.dataDir, JOURNAL_FILE);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[2] = '{not json';
    await writeFile(file, lines.join('\n'));
    await expect(fx.restart()).rejects.toMatchObject({ code: 'JOURNAL_CORRUPT' });
    fx.svc = { stop: () => Promise.resolve() } as never;
  });

  it('catches up after downtime: each missed open epoch resolves once, the current one opens', async () => {
    const fx = await fixture();
    await activity(fx);
    await fx.svc.stop();
    fx.clock.now += 5 * 60_000 + 5_000; // five epochs later
    await fx.restart();
    const a0 = await fx.http.get<Body>(`/asset/${fx.btc.assetId}/0`);
    expect(a0.body['isResolved']).toBe(true);
    expect((await fx.http.get<Body>(`/asset/${fx.btc.assetId}`)).body).toMatchObject({ epoch: '5', isResolved: false });
    expect((await fx.http.get(`/asset/${fx.btc.assetId}/3`)).status).toBe(404);
    const resolutions = (await readFile(join(fx.dataDir, JOURNAL_FILE), 'utf8'))
      .split('\n')
      .filter((l) => l.includes('"kind":"resolution"'));
    expect(resolutions).toHaveLength(2); // btc and eth epoch 0
    const hash = fx.svc.stateHash();
    await fx.restart();
    expect(fx.svc.stateHash()).toBe(hash);
    expect(fx.svc.checkInvariants()).toEqual([]);
  });
});

describe('Journal.read (the sparse line index)', () => {
  /** Records of uneven length, so a wrong offset would land mid-line. */
  const record = (seqId: number): JournalRecord =>
    ({ seqId, ts: 1_700_000_000_000 + seqId, kind: 'genesis', entry: { pad: 'x'.repeat(seqId % 37) } }) as never;

  it('reads every durable record by seqId across index blocks, before and after a reopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'journal-index-'));
    try {
      const { journal } = await Journal.open(dir, true);
      const n = 64 * 3 + 5;
      for (let s = 1; s <= n; s++) journal.append(record(s));
      await journal.durable(n);
      const check = async (j: Journal, last: number) => {
        // Out of order too: a page re-reads a block, another block comes in between.
        for (const s of [1, 64, 65, 128, 129, n, 2, 130, 63, n - 1]) expect(await j.read(s)).toEqual(record(s));
        for (let s = 1; s <= n; s++) expect((await j.read(s))?.seqId).toBe(s);
        expect(await j.read(0)).toBeUndefined();
        expect(await j.read(last + 1)).toBeUndefined();
      };
      await check(journal, n);
      journal.append(record(n + 1)); // the last block grows: its cached lines must not hide the new one
      await journal.durable(n + 1);
      expect(await journal.read(n + 1)).toEqual(record(n + 1));
      await journal.close();
      const reopened = await Journal.open(dir);
      await check(reopened.journal, n + 1);
      expect(await reopened.journal.read(n + 1)).toEqual(record(n + 1));
      await reopened.journal.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
