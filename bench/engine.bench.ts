// Matching-engine throughput, in process, no signatures: a realistic mixed stream of resting limits around a
// drifting mid, crossing IOC/GTC takers and cancels from several accounts, replayed into a fresh engine each round.
// Target (issue 3): >= 200,000 orders/s. Run with `npm run bench -- engine` or `npx tsx bench/engine.bench.ts`.
import { pathToFileURL } from 'node:url';
import { Engine } from '../src/exchange/engine/engine';
import { checkInvariants } from '../src/exchange/engine/invariants';
import type { Command, Hex } from '../src/exchange/engine/types';
import { measure, note, type BenchReport, type Benchmark } from './harness';
import { seededRandom as rng } from '../src/exchange/prng';

const ASSET = 261336857817713630688382311349658711122006440411137n;
const EPOCH = 0n;
const N = 200_000;
const ACCOUNTS = Array.from({ length: 8 }, (_, i) => `0x${(i + 1).toString(16).padStart(2, '0').repeat(20)}`);
const T0 = 1_770_000_000_000;

function id(n: number, tag: number): Hex {
  return `0x${tag.toString(16).padStart(2, '0')}${n.toString(16).padStart(62, '0')}`;
}

interface Stream {
  setup: Command[];
  flow: Command[];
  orders: number;
  cancels: number;
}

function makeStream(): Stream {
  const r = rng(42);
  const setup: Command[] = [
    {
      type: 'registerMarket',
      assetId: ASSET,
      epoch: EPOCH,
      strike: 3_000_000_000n,
      expiration: 4_000_000_000n,
      time: T0,
    },
  ];
  ACCOUNTS.forEach((owner, i) =>
    setup.push({ type: 'credit', owner, amount: 1_000_000_000_000n, index: BigInt(i), time: T0 }),
  );
  const flow: Command[] = [];
  const placed: { id: Hex; account: string }[] = [];
  let mid = 500;
  let orders = 0;
  let cancels = 0;
  for (let i = 0; i < N; i++) {
    const time = T0 + i; // one command per millisecond
    if (r() < 0.02) mid = Math.min(900, Math.max(100, mid + (r() < 0.5 ? -1 : 1)));
    const account = ACCOUNTS[Math.floor(r() * ACCOUNTS.length)] as string;
    const x = r();
    if (x < 0.2 && placed.length > 0) {
      // Cancel one of the recent orders of the stream (some are already filled: CANCEL_FAILED, as in real life).
      const target = placed[placed.length - 1 - Math.floor(r() * Math.min(placed.length, 200))] as {
        id: Hex;
        account: string;
      };
      flow.push({
        type: 'cancel',
        id: id(i, 2),
        account: target.account,
        assetId: ASSET,
        epoch: EPOCH,
        orderId: target.id,
        time,
      });
      cancels++;
      continue;
    }
    const sell = r() < 0.5;
    const taker = x > 0.8;
    // Makers rest 1..20 ticks away from the mid (GTC or post-only); takers cross by up to 5 ticks (IOC or GTC).
    const offset = taker ? -(1 + Math.floor(r() * 5)) : 1 + Math.floor(r() * 20);
    const tick = sell ? mid + offset : mid - offset;
    const tif = taker ? (r() < 0.8 ? 2n : 0n) : r() < 0.5 ? 3n : 0n;
    const orderId = id(i, 1);
    flow.push({
      type: 'placeOrder',
      orderId,
      account,
      signer: account,
      signatureType: 0n,
      assetId: ASSET,
      epoch: EPOCH,
      side: sell,
      price: BigInt(tick * 1000),
      size: BigInt((1 + Math.floor(r() * 100)) * 10_000),
      tif,
      nonce: BigInt(i),
      approvalNonce: 0n,
      time,
    });
    placed.push({ id: orderId, account });
    orders++;
  }
  return { setup, flow, orders, cancels };
}

function replay(stream: Stream): Engine {
  const engine = new Engine();
  for (const c of stream.setup) engine.apply(c);
  for (const c of stream.flow) engine.apply(c);
  return engine;
}

const bench: Benchmark = {
  name: 'engine',
  async run(report: BenchReport) {
    const stream = makeStream();
    // Check the stream really trades and the state stays consistent before timing anything.
    const probe = replay(stream);
    const bad = checkInvariants(probe);
    if (bad.length > 0) throw new Error(`invariants broken by the bench stream: ${bad.slice(0, 3).join('; ')}`);
    let trades = 0;
    let rested = 0;
    const e2 = new Engine();
    for (const c of stream.setup) e2.apply(c);
    for (const c of stream.flow) {
      for (const ev of e2.apply(c).events) {
        if (ev.type === 'trade') trades++;
        else if (ev.type === 'order') rested++;
      }
    }
    note(
      report,
      `stream: ${stream.orders} orders + ${stream.cancels} cancels, ${ACCOUNTS.length} accounts → ${trades} trades, ${rested} resting orders; state hash ${probe.stateHash().slice(0, 16)}…`,
    );
    await measure(report, `engine: commands/s (orders + cancels, N=${N})`, stream.flow.length, () => replay(stream), {
      warmupRounds: 1,
      rounds: 5,
    });
  },
};

export default bench;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bench.run({ measurements: [], ratios: [], notes: [] });
}
