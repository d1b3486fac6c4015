/**
 * orders.flatten: close a position without sweeping the book. The limit comes from the live book
 * (our streamed copy when in sync, else a fresh snapshot) and the user's maximum slippage; the size
 * is the position's, re-read and clipped right before signing so a close never opens the other side.
 */
import type { CloseResult, FillView, SignAs } from '../../../shared/bridge';
import { parsePrice } from '../../../shared/protocol';
import { MAX_BOOK_DEPTH } from '../../../client';
import type { CoreContext } from '../context';
import { clipToInventory, planClose } from '../trading-math/close-plan';
import type { TradingSession } from '../session/session';
import { passGate, send } from './order-sending';

async function bookOf(
  session: TradingSession,
  assetId: bigint,
  epoch: bigint,
): Promise<{ bids: { price: bigint; size: bigint }[]; asks: { price: bigint; size: bigint }[] }> {
  const live = session.board.books.liveLevels(assetId, epoch);
  if (live) return live;
  const snap = await session.reader.getOrderBook(assetId, epoch, { depth: MAX_BOOK_DEPTH });
  return { bids: snap.bids, asks: snap.asks };
}

function priced(
  fills: readonly FillView[],
  sell: boolean,
): { average: bigint; worst: bigint; atOrBetter: boolean } | null {
  const size = fills.reduce((s, f) => s + BigInt(f.size), 0n);
  if (size === 0n) return null;
  const value = fills.reduce((s, f) => s + BigInt(f.price) * BigInt(f.size), 0n);
  const prices = fills.map((f) => BigInt(f.price));
  const worst = prices.reduce((w, p) => (sell ? (p < w ? p : w) : p > w ? p : w));
  return { average: value / size, worst, atOrBetter: fills.some((f) => f.priceIsLimit === true) };
}

export async function closePosition(
  ctx: CoreContext,
  session: TradingSession,
  a: bigint,
  e: bigint,
  signAs: SignAs,
): Promise<CloseResult> {
  const slippage = parsePrice(ctx.settings.getSettings().maxSlippageCents);
  const base = {
    orderId: null,
    side: null,
    requested: '0',
    filled: '0',
    averagePrice: null,
    worstPrice: null,
    pricesAreLimits: false,
    bestPrice: null,
    limitPrice: null,
    maxSlippage: slippage.toString(),
    reason: '',
    positionChanged: false,
  };
  await session.desk.refresh(e, a);
  const inventory = session.desk.account?.inventory(a, e) ?? 0n;
  const own = session.desk.ownLevels(a, e);
  const plan = planClose(inventory, await bookOf(session, a, e), inventory > 0n ? own.bids : own.asks, slippage);
  if (plan.kind === 'nothing') return { ...base, status: 'NOTHING_TO_CLOSE', remaining: '0' };
  if (plan.kind === 'no_liquidity') {
    return {
      ...base,
      status: 'NO_LIQUIDITY',
      side: plan.sell ? 'sell' : 'buy',
      remaining: inventory.toString(),
    };
  }
  const passed = await passGate(ctx, session, {
    path: 'close',
    signAs,
    assetId: a,
    epoch: e,
    ticket: { sell: plan.sell, price: plan.limit, size: plan.size },
    timeInForce: 'IOC',
    // At the limit, a close past the band or the budget goes at the edge they allow if that reaches the best price.
    tighten: { best: plan.best },
  });
  const limit = passed.price;
  let sent;
  try {
    // Re-read the position after the gate (and its dialog): a resting order may have filled meanwhile.
    await session.desk.refresh(e, a);
    const now = session.desk.account?.inventory(a, e) ?? 0n;
    const size = clipToInventory(plan, now);
    if (size === 0n) return { ...base, status: 'NOTHING_TO_CLOSE', remaining: now.toString(), positionChanged: true };
    sent = {
      size,
      ...(await send(session, {
        assetId: a,
        epoch: e,
        ticket: { sell: plan.sell, price: limit, size },
        timeInForce: 'IOC',
        signAs,
      })),
    };
  } finally {
    passed.release();
  }
  const { result, fills, size } = sent;
  const left = session.desk.account?.inventory(a, e) ?? 0n;
  const filled = BigInt(result.filled);
  const p = priced(fills, plan.sell);
  const common = {
    ...base,
    orderId: result.orderId,
    side: plan.sell ? ('sell' as const) : ('buy' as const),
    requested: size.toString(),
    filled: filled.toString(),
    remaining: left.toString(),
    averagePrice: p?.average.toString() ?? null,
    worstPrice: p?.worst.toString() ?? null,
    pricesAreLimits: p?.atOrBetter ?? false,
    bestPrice: plan.best.toString(),
    limitPrice: limit.toString(),
    ...(passed.tightened ? { tightenedFrom: passed.tightened.from.toString(), tightenedBy: passed.tightened.by } : {}),
  };
  if (result.status === 'REJECTED') return { ...common, status: 'REJECTED', reason: result.reason };
  if (filled === 0n) return { ...common, status: 'NOT_FILLED' };
  return { ...common, status: left === 0n ? 'CLOSED' : 'PARTIALLY_CLOSED' };
}
