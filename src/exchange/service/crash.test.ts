// Crash durability: the service runs as a child process (serve.ts, journal with fdatasync in a temp
// data dir, accounts funded by its documented `--credit` start-up flag, journaled like deposits).
// A load of signed resting orders is fired; every 2xx acknowledgement is recorded; the child is
// killed with SIGKILL in the middle of the load, restarted on the same data dir, and every
// acknowledged order must be resting exactly once, replays must be refused, and the replayed
// journal must satisfy the invariants and conservation.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { conservationViolation } from '../../../test/exchange-service/chaos-kit';
import { makeExchangeDomain, type Address, type DigestSigner } from '../../shared/protocol';
import { startExchangeService } from './service';
import { fillOrder, jsonClient, signedBody, testSigner } from '../../../test/support/exchange/testkit';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const C = 1_000_000n;
const ORDERS = 600;
const CONCURRENCY = 8;

interface Info {
  httpUrl: string;
  chainId: string;
  verifyingContract: Address;
  ledger: Address;
  markets: { assetId: string; periodLength: string }[];
}

const children = new Set<ChildProcess>();
afterEach(() => {
  // Never leave a service behind, also when an assertion failed mid-test.
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
});

async function startChild(dataDir: string, extra: string[]): Promise<{ child: ChildProcess; info: Info }> {
  const args = ['--import', 'tsx', join(root, 'src/devnet/serve.ts'), '--port', '0', '--data-dir', dataDir, ...extra];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise<Info>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve.ts exited early (code ${code}): ${stderr}`)));
    lines.on('line', (l) => {
      if (l.startsWith('{')) resolve(JSON.parse(l) as Info);
    });
  });
  return { child, info };
}

const exited = (c: ChildProcess) =>
  new Promise<void>((resolve) =>
    c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve()),
  );

describe('crash durability (kill -9 mid-load)', () => {
  it('keeps every acknowledged order exactly once across a SIGKILL and refuses their replays', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'exchange-crash-'));
    try {
      const keys: DigestSigner[] = Array.from({ length: 4 }, (_, i) => testSigner('crash', i));
      const first = await startChild(dataDir, [
        '--fresh',
        ...keys.flatMap((k) => ['--credit', `${k.address}=${10_000n * C}`]),
      ]);
      const info = first.info;
      const http = jsonClient(info.httpUrl);
      const domain = makeExchangeDomain({ chainId: BigInt(info.chainId), verifyingContract: info.verifyingContract });
      const market = info.markets.find((m) => m.periodLength === '300') ?? info.markets[0]!;
      const assetId = BigInt(market.assetId);
      const epoch = BigInt((await http.get<{ epoch: string }>(`/asset/${assetId}`)).body.epoch);
      for (const k of keys)
        expect((await http.get<{ balance: string }>(`/balance/${k.address}`)).body).toMatchObject({
          balance: (10_000n * C).toString(),
        });

      // Resting GTC orders only (bids below, asks above the middle): an acknowledged order can
      // only be on the book afterwards, so "present" is exact.
      const bodies = Array.from({ length: ORDERS }, (_, i) => {
        const key = keys[i % keys.length]!;
        const sell = i % 2 === 1;
        const price = sell ? 600_000n + BigInt(i % 50) * 1000n : 400_000n - BigInt(i % 50) * 1000n;
        return {
          key,
          body: signedBody('orders', fillOrder({ key }, { assetId, epoch, side: sell, price, size: C }), domain, key),
        };
      });
      const acked = new Map<string, { key: DigestSigner; body: object }>();
      const killAfter = ORDERS / 3;
      let next = 0;
      let killed = false;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < bodies.length) {
            const item = bodies[next++]!;
            try {
              const res = await http.post<{ orderId: string; status: string }>('/orders', item.body);
              if (res.status >= 200 && res.status < 300) {
                expect(res.body.status).toBe('ACCEPTED');
                acked.set(res.body.orderId, item);
              }
            } catch {
              // connection reset by the kill: not acknowledged, so no promise was made
            }
            if (!killed && acked.size >= killAfter) {
              killed = true;
              first.child.kill('SIGKILL');
            }
          }
        }),
      );
      await exited(first.child);
      expect(first.child.signalCode).toBe('SIGKILL');
      expect(acked.size).toBeGreaterThanOrEqual(killAfter);
      expect(acked.size).toBeLessThan(ORDERS); // the kill did land mid-load

      // Restart on the same data dir: no --fresh, no credits.
      const second = await startChild(dataDir, []);
      const http2 = jsonClient(second.info.httpUrl);
      const sentIds = new Set(bodies.map((b) => (b.body as { orderHash: string }).orderHash));
      const resting: string[] = [];
      for (const k of keys) {
        const v = (
          await http2.get<{ buys: { id: string }[]; sells: { id: string }[] }>(`/book/${assetId}/${epoch}/${k.address}`)
        ).body;
        resting.push(...v.buys.map((o) => o.id), ...v.sells.map((o) => o.id));
      }
      expect(new Set(resting).size).toBe(resting.length); // none twice
      expect(resting.filter((id) => !sentIds.has(id))).toEqual([]);
      const restingSet = new Set(resting);
      expect([...acked.keys()].filter((id) => !restingSet.has(id))).toEqual([]); // every ack survived
      // A replay of an acknowledged order is refused after the restart.
      for (const [, item] of [...acked].slice(0, 20)) {
        expect(await http2.post('/orders', item.body)).toMatchObject({
          status: 404,
          body: { error: 'ENTRY_PROCESSED' },
        });
      }
      second.child.kill('SIGTERM');
      await exited(second.child);
      expect(second.child.exitCode).toBe(0);

      // The same journal in-process: invariants and conservation after the crash and the replay.
      const svc = await startExchangeService({
        dataDir,
        chainId: BigInt(info.chainId),
        verifyingContract: info.verifyingContract,
        ledger: info.ledger,
        schedulerIntervalMs: 0,
        pingIntervalMs: 0,
      });
      try {
        expect(svc.checkInvariants()).toEqual([]);
        const t = svc.totals();
        expect(conservationViolation(t)).toBeNull();
        expect(t.credited).toBe(BigInt(keys.length) * 10_000n * C);
      } finally {
        await svc.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
