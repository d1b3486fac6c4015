// Signed-order throughput of the local exchange service over real HTTP. The service runs in a
// child process (src/devnet/serve.ts, journal with group commit + fdatasync on a temp dir);
// this process pre-signs orders from several accounts (resting and crossing) and fires them with
// bounded concurrency over keep-alive connections. Then a quick in-process profile of the per-order
// work: JSON + strict parse, hashing, signature check (cached key vs recovery), engine, journal line, fsync.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, fdatasyncSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Engine } from '../src/exchange/engine';
import { DEFAULT_SIGNATURE_WORKERS } from '../src/exchange/service/service';
import { SignatureVerifier } from '../src/exchange/service/signature-verifier';
import { toSignedEntry } from '../src/exchange/service/records';
import { fillOrder, signedBody, testSigner } from '../test/support/exchange/testkit';
import {
  hashActionBytes,
  makeExchangeDomain,
  parseSignedRequest,
  recoverDigestSigner,
  type Address,
  type DigestSigner,
  type FillOrder,
} from '../src/shared/protocol';
import { openLeanConnection, postRequest, type LeanConnection } from './lean-http-client';
import { blackhole, measure, measureInterleaved, note, ratio, type BenchReport, type Benchmark } from './harness';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ACCOUNTS = 8;
const ROUND = 2000;
const ROUNDS = 3;
const WARMUP = 400;
const CONCURRENCY = 16;
const C = 1_000_000n;

interface Started {
  child: ChildProcess;
  info: {
    httpUrl: string;
    chainId: string;
    verifyingContract: Address;
    markets: { assetId: string; symbol: string; periodLength: string }[];
  };
}

async function startChild(dataDir: string, keys: DigestSigner[], workers: number): Promise<Started> {
  // EXCHANGE_BENCH_NODE_ARGS: extra node flags for the service process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p".
  const extra = (process.env['EXCHANGE_BENCH_NODE_ARGS'] ?? '').split(' ').filter((a) => a.length > 0);
  const args = [
    ...extra,
    '--import',
    'tsx',
    join(root, 'src/devnet/serve.ts'),
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--fresh',
    '--signature-workers',
    String(workers),
  ];
  for (const k of keys) args.push('--credit', `${k.address}=${1_000_000n * C}`);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise<Started['info']>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve.ts exited early (code ${code})`)));
    lines.on('line', (l) => {
      if (l.startsWith('{')) resolve(JSON.parse(l) as Started['info']);
    });
  });
  return { child, info };
}

/** Resting quotes around the middle with every fourth order crossing (IOC) to trade. */
function makeOrders(keys: DigestSigner[], assetId: bigint, epoch: bigint, n: number, seed: number): FillOrder[] {
  const out: FillOrder[] = [];
  for (let i = 0; i < n; i++) {
    const key = keys[(i + seed) % keys.length]!;
    const sell = i % 2 === 1;
    const crossing = i % 4 === 3;
    const step = BigInt((i * 7 + seed) % 50) * 1000n;
    const price = crossing ? (sell ? 400_000n : 600_000n) : sell ? 510_000n + step : 490_000n - step;
    out.push(
      fillOrder(
        { key },
        { assetId, epoch, side: sell, price, size: C * BigInt(1 + (i % 5)), timeInForce: crossing ? 2n : 0n },
      ),
    );
  }
  return out;
}

/** CONCURRENCY keep-alive connections, each sending its next body as soon as the last is answered. */
async function fire(
  connections: LeanConnection[],
  host: string,
  bodies: string[],
): Promise<{ seconds: number; latencies: number[]; statuses: Map<number, number> }> {
  const requests = bodies.map((b) => postRequest(host, '/orders', b));
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    connections.map(async (connection) => {
      while (next < requests.length) {
        const requestBytes = requests[next++]!;
        const s = performance.now();
        const status = await connection.send(requestBytes);
        latencies.push(performance.now() - s);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, latencies, statuses };
}

/**
 * The cached-key check as it was before the fixed-base tables (u1·G + u2·Q with noble's own
 * precomputed points, window 8 per signer), kept here only as the before-figure of the profile.
 */
function nobleTableCheck(
  items: { digest: Uint8Array; signature: string; signer: string }[],
): (count: number) => boolean[] {
  const { Point } = secp256k1;
  const N = Point.Fn.ORDER;
  const keys = new Map<string, InstanceType<typeof Point>>();
  for (const it of items) {
    if (keys.has(it.signer)) continue;
    const q = recoverPoint(it.digest, it.signature);
    q.precompute(8, false);
    keys.set(it.signer, q);
  }
  return (count) =>
    items.slice(0, count).map((it) => {
      const r = BigInt(`0x${it.signature.slice(2, 66)}`);
      const s = BigInt(`0x${it.signature.slice(66, 130)}`);
      const recovery = parseInt(it.signature.slice(130), 16) - 27;
      const h = BigInt(`0x${Buffer.from(it.digest).toString('hex')}`) % N;
      const is = Point.Fn.inv(s);
      const R = Point.BASE.multiplyUnsafe(Point.Fn.create(h * is)).add(
        keys.get(it.signer)!.multiplyUnsafe(Point.Fn.create(r * is)),
      );
      const a = R.toAffine();
      return a.x === r && Number(a.y & 1n) === recovery;
    });
}

function recoverPoint(digest: Uint8Array, signature: string) {
  const rec = Buffer.from(`0${Number(signature.slice(130) === '1c')}${signature.slice(2, 130)}`, 'hex');
  return secp256k1.Signature.fromBytes(rec, 'recovered').recoverPublicKey(digest);
}

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function profile(
  report: BenchReport,
  bodies: string[],
  domain: ReturnType<typeof makeExchangeDomain>,
  assetId: bigint,
  epoch: bigint,
): Promise<void> {
  const parsed = bodies.map((b) => parseSignedRequest('orders', JSON.parse(b)));
  const digests = parsed.map((r) => hashActionBytes('FillOrder', r.order, domain));
  const n = parsed.length;
  const parse = await measure(
    report,
    'profile: JSON.parse + strict wrapper parse',
    n,
    () => bodies.map((b) => parseSignedRequest('orders', JSON.parse(b))),
    { rounds: 3 },
  );
  const hash = await measure(
    report,
    'profile: EIP-712 digest (hashActionBytes)',
    n,
    () => parsed.map((r) => hashActionBytes('FillOrder', r.order, domain)),
    { rounds: 3 },
  );
  const warm = new SignatureVerifier({ tablesAfter: 1 });
  for (let i = 0; i < n; i++) warm.verify(digests[i]!, parsed[i]!.signature, parsed[i]!.order.signer);
  const before = nobleTableCheck(
    parsed.map((r, i) => ({ digest: digests[i]!, signature: r.signature, signer: r.order.signer })),
  );
  // Interleaved rounds, so the shared machine's load hits the three paths alike; ratios come from this run.
  const sub = Math.min(n, 200);
  const checks = parsed
    .slice(0, sub)
    .map((r, i) => ({ digest: digests[i]!, signature: r.signature, signer: r.order.signer }));
  const [fast, batched, old, rec] = await measureInterleaved(
    report,
    [
      {
        label: 'profile: signature check, cached key, fixed-base tables (one by one)',
        opsPerRound: sub,
        round: () => parsed.slice(0, sub).map((r, i) => warm.verify(digests[i]!, r.signature, r.order.signer)),
      },
      {
        label: 'profile: signature check, cached key, batches of 8 (verifyBatch, as the pool runs it)',
        opsPerRound: sub,
        round: () =>
          Array.from({ length: Math.ceil(sub / 8) }, (_, b) => warm.verifyBatch(checks.slice(b * 8, b * 8 + 8))),
      },
      {
        label: 'profile: signature check, cached key, noble tables (before)',
        opsPerRound: sub,
        round: () => before(sub),
      },
      {
        label: 'profile: signature recovery (recoverDigestSigner)',
        opsPerRound: sub,
        round: () => parsed.slice(0, sub).map((r, i) => recoverDigestSigner(digests[i]!, r.signature)),
      },
    ],
    { rounds: 5 },
  );
  ratio(report, 'signature check: recovery µs ÷ fixed-base µs', rec!.usPerOp / fast!.usPerOp);
  ratio(report, 'signature check: noble-tables µs ÷ fixed-base µs', old!.usPerOp / fast!.usPerOp);
  const line = await measure(
    report,
    'profile: journal entry + JSON line',
    n,
    () =>
      parsed.map((r, i) =>
        JSON.stringify({
          seqId: i,
          ts: 0,
          kind: 'fill',
          entry: toSignedEntry('FillOrder', r.order, r.orderHash, r.signature, 0),
        }),
      ),
    { rounds: 3 },
  );
  const engineOps = await measure(
    report,
    'profile: matching engine apply',
    n,
    () => {
      const e = new Engine();
      e.apply({ type: 'registerMarket', time: 0, assetId, epoch, strike: 1n, expiration: 4_000_000_000n });
      parsed.forEach((r, i) =>
        e.apply({ type: 'credit', time: 0, owner: r.order.sender, amount: 1_000_000n * C, index: BigInt(i + 1) }),
      );
      for (const r of parsed) {
        const o = r.order;
        e.apply({
          type: 'placeOrder',
          time: 1,
          orderId: r.orderHash,
          account: o.sender,
          signer: o.signer,
          signatureType: 0n,
          assetId,
          epoch,
          side: o.side,
          price: o.price,
          size: o.size,
          tif: o.timeInForce,
          nonce: o.nonce,
          approvalNonce: 0n,
        });
      }
      return e;
    },
    { rounds: 3 },
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-fsync-'));
  const fd = openSync(join(dir, 'f'), 'a');
  const syncs: number[] = [];
  const chunk = Buffer.alloc(400, 0x61);
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    writeSync(fd, chunk);
    fdatasyncSync(fd);
    syncs.push(performance.now() - t);
  }
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  syncs.sort((a, b) => a - b);
  const us = (m: { usPerOp: number }) => m.usPerOp.toFixed(0);
  note(
    report,
    `per-order CPU in the service: parse ${us(parse)} µs, digest ${us(hash)} µs, signature ${us(batched!)} µs batched / ${us(fast!)} µs one by one cached-key fixed-base (${us(old!)} µs with noble tables) / ${us(rec!)} µs recovery, engine ${us(engineOps)} µs, journal line ${us(line)} µs; ` +
      `one write+fdatasync ${pct(syncs, 50).toFixed(2)} ms median (amortised over a group-commit batch)`,
  );
}

/**
 * CPU ms used so far by each thread of a process, from /proc (Linux; empty elsewhere). Wall-clock
 * rates on a shared 2-core machine swing with other load; CPU per order does much less.
 */
function threadCpuMs(pid: number | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (pid === undefined) return out;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      // Fields 14 and 15 (utime, stime) in clock ticks, assumed 100/s.
      const ms = (Number(f[11]) + Number(f[12])) * 10;
      out.set(`${tid}:${name}`, ms);
    }
  } catch {
    // not Linux, or the process is gone
  }
  return out;
}

/** Signature worker counts measured; the last is the service default and carries the targets. */
const WORKER_COUNTS = [0, DEFAULT_SIGNATURE_WORKERS];

interface RunResult {
  rates: number[];
  latencies: number[];
  /** CPU µs per order: service main thread, its busiest other thread (the signature worker if any), the rest (libuv, GC), load process. */
  cpu: { mainUsPerOrder: number; busiestOtherUsPerOrder: number; restUsPerOrder: number; loadUsPerOrder: number };
}

/** One fresh service with `workers` signature workers: warm-up, then the timed rounds. */
async function runService(
  keys: DigestSigner[],
  workers: number,
  sign: (info: Started['info']) => Promise<{ warm: string[]; rounds: string[][] }>,
): Promise<RunResult & { info: Started['info']; bodies: { warm: string[]; rounds: string[][] } }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-exchange-'));
  const { child, info } = await startChild(dataDir, keys, workers);
  const base = new URL(info.httpUrl);
  const connections: LeanConnection[] = [];
  try {
    for (let i = 0; i < CONCURRENCY; i++) connections.push(await openLeanConnection(base.hostname, Number(base.port)));
    const bodies = await sign(info);
    await fire(connections, base.host, bodies.warm);
    const rates: number[] = [];
    const latencies: number[] = [];
    const cpu0 = threadCpuMs(child.pid);
    const self0 = process.cpuUsage();
    for (const round of bodies.rounds) {
      const r = await fire(connections, base.host, round);
      const bad = [...r.statuses.entries()].filter(([s]) => s !== 202);
      if (bad.length > 0) throw new Error(`unexpected statuses: ${JSON.stringify(bad)}`);
      rates.push(round.length / r.seconds);
      latencies.push(...r.latencies);
    }
    const selfUs = process.cpuUsage(self0);
    const cpu1 = threadCpuMs(child.pid);
    const orders = bodies.rounds.reduce((n, r) => n + r.length, 0);
    // The main thread's tid is the pid; every other thread (signature worker, libuv pool, GC) counts as other.
    let main = 0;
    let busiest = 0;
    let other = 0;
    for (const [k, v] of cpu1) {
      const d = v - (cpu0.get(k) ?? 0);
      if (k.startsWith(`${child.pid}:`)) main += d;
      else {
        other += d;
        busiest = Math.max(busiest, d);
      }
    }
    const per = (ms: number): number => (ms * 1000) / orders;
    const cpu = {
      mainUsPerOrder: per(main),
      busiestOtherUsPerOrder: per(busiest),
      restUsPerOrder: per(other - busiest),
      loadUsPerOrder: (selfUs.user + selfUs.system) / orders,
    };
    rates.sort((a, b) => a - b);
    latencies.sort((a, b) => a - b);
    return { rates, latencies, info, bodies, cpu };
  } finally {
    for (const c of connections) c.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bench: Benchmark = {
  name: 'exchange-http',
  async run(report) {
    const keys = Array.from({ length: ACCOUNTS }, (_, i) => testSigner('bench', i));
    // Orders are signed once (against the first service) and replayed to each fresh service:
    // same chain, contract, genesis-derived asset and epoch 0, so every service sees identical load.
    let signed: { warm: string[]; rounds: string[][] } | undefined;
    let ctx: { domain: ReturnType<typeof makeExchangeDomain>; assetId: bigint; epoch: bigint } | undefined;
    const sign = async (info: Started['info']): Promise<{ warm: string[]; rounds: string[][] }> => {
      const domain = makeExchangeDomain({ chainId: BigInt(info.chainId), verifyingContract: info.verifyingContract });
      const market = info.markets.find((m) => m.periodLength === '300') ?? info.markets[0]!;
      const assetId = BigInt(market.assetId);
      const asset = (await (await fetch(`${info.httpUrl}/asset/${assetId}`)).json()) as { epoch: string };
      const epoch = BigInt(asset.epoch);
      // A 5-minute boundary between the two starts changes the asset or epoch: sign again then.
      if (signed !== undefined && ctx !== undefined && ctx.assetId === assetId && ctx.epoch === epoch) return signed;
      note(
        report,
        `service in a child process; ${ACCOUNTS} accounts, concurrency ${CONCURRENCY}, keep-alive raw HTTP/1.1 client (bench/lean-http-client.ts), one request in flight per connection; asset ${market.symbol} ${market.periodLength}s epoch ${epoch}; 3/4 resting GTC, 1/4 crossing IOC`,
      );
      const one = (n: number, seed: number) =>
        makeOrders(keys, assetId, epoch, n, seed).map((o) =>
          JSON.stringify(
            signedBody(
              'orders',
              o,
              domain,
              keys.find((k) => k.address === o.signer)!,
            ),
          ),
        );
      const t0 = performance.now();
      signed = { warm: one(WARMUP, 1000), rounds: Array.from({ length: ROUNDS }, (_, r) => one(ROUND, r * 17)) };
      note(report, `pre-signed ${WARMUP + ROUNDS * ROUND} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      ctx = { domain, assetId, epoch };
      return signed;
    };

    let last: RunResult | undefined;
    for (const workers of WORKER_COUNTS) {
      const r = await runService(keys, workers, sign);
      const ops = r.rates[r.rates.length >> 1]!;
      const all = r.latencies;
      const label = `signed orders over HTTP (POST /orders → 202), ${workers} signature worker${workers === 1 ? '' : 's'}`;
      report.measurements.push({
        label,
        opsPerRound: ROUND,
        rounds: ROUNDS,
        opsPerSec: ops,
        minOpsPerSec: r.rates[0]!,
        maxOpsPerSec: r.rates.at(-1)!,
        usPerOp: 1e6 / ops,
      });
      console.log(
        `  ${label}: ${Math.round(ops)} orders/s (rounds ${r.rates.map((x) => Math.round(x)).join(', ')}), p99 ${pct(all, 99).toFixed(2)} ms`,
      );
      note(
        report,
        `${workers} workers — CPU µs/order (10 ms ticks): service main thread ${r.cpu.mainUsPerOrder.toFixed(0)}, busiest other thread ${r.cpu.busiestOtherUsPerOrder.toFixed(0)}, other threads ${r.cpu.restUsPerOrder.toFixed(0)}, load process ${r.cpu.loadUsPerOrder.toFixed(0)}`,
      );
      note(
        report,
        `${workers} workers — latency ms: p50 ${pct(all, 50).toFixed(2)}, p90 ${pct(all, 90).toFixed(2)}, p99 ${pct(all, 99).toFixed(2)}, max ${all.at(-1)!.toFixed(2)}`,
      );
      last = r;
    }
    const ops = last!.rates[last!.rates.length >> 1]!;
    ratio(report, `orders/s ÷ 2,000 (target >= 1), ${DEFAULT_SIGNATURE_WORKERS} worker (default)`, ops / 2000, {
      atLeast: 1,
    });
    ratio(report, 'p99 latency ms (target <= 25)', pct(last!.latencies, 99), { atMost: 25 });

    await profile(report, signed!.rounds[0]!.slice(0, 1000), ctx!.domain, ctx!.assetId, ctx!.epoch);
    blackhole(signed);
  },
};

export default bench;
