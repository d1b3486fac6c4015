// Conservation and consistency checks over the whole engine state, recomputed from scratch (used by tests).
import { rate, value } from './accounting';
import { liveOrders } from './book';
import type { Engine } from './engine';
import type { Book, Level, Order } from './state';

/** Returns every violated invariant as a sentence; an empty list means the state is consistent. */
export function checkInvariants(engine: Engine): string[] {
  const s = engine.internalState();
  const bad: string[] = [];
  const check = (ok: boolean, what: string): void => {
    if (!ok) bad.push(what);
  };
  const isMoney = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

  let free = 0;
  let pending = 0;
  const pendingByAccount = new Map<string, number>();
  for (const a of s.accounts.values()) {
    check(isMoney(a.free), `account ${a.id}: free ${a.free} is not a non-negative integer`);
    check(isMoney(a.pending), `account ${a.id}: pending ${a.pending} is not a non-negative integer`);
    free += a.free;
    pending += a.pending;
    pendingByAccount.set(a.id, 0);
  }

  let pool = 0;
  let restingSeen = 0;
  for (const epochs of s.books.values()) {
    for (const b of epochs.values()) {
      pool += b.pool;
      restingSeen += checkBook(b, check, pendingByAccount);
    }
  }
  check(restingSeen === s.orders.size, `orders map holds ${s.orders.size} orders but books hold ${restingSeen}`);
  for (const a of s.accounts.values()) {
    const want = pendingByAccount.get(a.id) ?? 0;
    check(a.pending === want, `account ${a.id}: pending ${a.pending} != reserved by its orders ${want}`);
  }

  let queued = 0;
  let paid = 0;
  for (const w of s.withdrawals.values()) {
    check(w.amount > 0, `withdrawal ${w.id}: amount ${w.amount} not positive`);
    if (w.paid) paid += w.amount;
    else queued += w.amount;
  }
  check(paid === s.paidOut, `paid withdrawals ${paid} != paidOut ${s.paidOut}`);
  check(
    free + pending + pool + queued === s.credited - s.paidOut,
    `conservation: free ${free} + pending ${pending} + collateral ${pool} + queued ${queued} != credited ${s.credited} − paid ${s.paidOut}`,
  );
  return bad;
}

function checkBook(b: Book, check: (ok: boolean, what: string) => void, pendingByAccount: Map<string, number>): number {
  const name = `book ${b.assetId}/${b.epoch}`;
  let count = 0;
  let bestBid = 0;
  let bestAsk = 1000;
  const inBook = new Set<Order>();
  for (let t = 1; t <= 999; t++) {
    for (const [levels, sell] of [
      [b.bids, false],
      [b.asks, true],
    ] as const) {
      const level = levels[t] as Level;
      const live = liveOrders(level);
      check(live.length === level.live, `${name}: level ${t} counts ${level.live} live but holds ${live.length}`);
      if (live.length > 0) {
        if (sell && t < bestAsk) bestAsk = t;
        if (!sell) bestBid = t;
      }
      for (let i = 1; i < live.length; i++) {
        check((live[i - 1] as Order).seq < (live[i] as Order).seq, `${name}: level ${t} out of time priority`);
      }
      for (const o of live) {
        count++;
        inBook.add(o);
        check(o.sell === sell && o.tick === t, `${name}: order ${o.id} sits in the wrong level`);
        check(o.remaining > 0 && o.remaining <= o.size, `${name}: order ${o.id} remaining ${o.remaining} out of range`);
        check(o.rp >= 0 && o.rp <= o.remaining, `${name}: order ${o.id} reserved position ${o.rp} out of range`);
        check(
          o.rm === value(o.remaining - o.rp, rate(o.sell, o.tick)),
          `${name}: order ${o.id} reserved margin ${o.rm} != collateral of its unreserved size`,
        );
        check(o.pos.book === b && o.pos.orders.has(o), `${name}: order ${o.id} not linked to its position`);
        const id = o.pos.account.id;
        pendingByAccount.set(id, (pendingByAccount.get(id) ?? 0) + o.rm);
      }
    }
  }
  check(b.bestBid === bestBid, `${name}: bestBid ${b.bestBid} but the highest bid level is ${bestBid}`);
  check(b.bestAsk === bestAsk, `${name}: bestAsk ${b.bestAsk} but the lowest ask level is ${bestAsk}`);
  check(bestBid < bestAsk, `${name}: crossed book ${bestBid} >= ${bestAsk}`);
  if (b.resolved) check(count === 0, `${name}: resolved but ${count} orders rest`);

  let net = 0;
  let longs = 0;
  let shorts = 0;
  let costMinusPnl = 0;
  for (const p of b.positions.values()) {
    const who = `${name} ${p.account.id}`;
    net += p.net;
    if (p.net > 0) longs += p.net;
    else shorts -= p.net;
    costMinusPnl += p.cost - p.pnl;
    check(Number.isSafeInteger(p.net) && Number.isSafeInteger(p.pnl), `${who}: non-integer position`);
    check(p.cost >= 0 && Number.isSafeInteger(p.cost), `${who}: margin ${p.cost} negative or non-integer`);
    check(p.net !== 0 || p.cost === 0, `${who}: flat position keeps margin ${p.cost}`);
    let rl = 0;
    let rs = 0;
    for (const o of p.orders) {
      check(inBook.has(o), `${who}: order ${o.id} linked but not resting`);
      if (o.sell) rl += o.rp;
      else rs += o.rp;
    }
    const reducing = [...p.orders].filter((o) => o.rp > 0);
    check(
      reducing.length === p.reducing.size && reducing.every((o) => p.reducing.has(o)),
      `${who}: reducing-order index out of date`,
    );
    check(p.resLong === rl && p.resShort === rs, `${who}: reserved ${p.resLong}/${p.resShort} != orders' ${rl}/${rs}`);
    check(
      p.resLong <= Math.max(p.net, 0) && p.resShort <= Math.max(-p.net, 0),
      `${who}: reserves more position than it holds`,
    );
  }
  check(Number.isSafeInteger(b.pool) && b.pool >= 0, `${name}: collateral ${b.pool} negative`);
  // Every unit paid into the market and not paid out is collateral: Σ(margin − realised P&L) = pool.
  check(costMinusPnl === b.pool, `${name}: Σ(margin − pnl) ${costMinusPnl} != collateral ${b.pool}`);
  if (!b.resolved) {
    check(net === 0, `${name}: longs and shorts do not balance (net ${net})`);
    check(b.pool === longs, `${name}: collateral ${b.pool} != open long contracts ${longs}`);
  } else {
    // After resolution only unclaimed winners are still backed.
    check(b.pool === (b.upWins ? longs : shorts), `${name}: collateral ${b.pool} != unclaimed winning contracts`);
  }
  return count;
}
