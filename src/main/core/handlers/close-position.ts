/**
 * orders.flatten: close a position without sweeping the book. The limit comes from the live book
 * (our streamed copy when in sync, else a fresh snapshot) and the user's maximum slippage; the size
 * is the position's, re-read and clipped right before signing so a close never opens the other side.
 */
import type { CloseResult, FillView, SignAs } from '../../../shared/bridge';
import { formatCents, formatSize, parsePrice } from '../../../shared/protocol';
import { MAX_BOOK_DEPTH } from '../../../client';
import { rejectReasonSentence } from '../../../shared/exchange-text';
import type { CoreContext } from '../context';
import { clipToInventory, planClose } from '../session/close-plan';
import { marketLabel } from '../session/market-name';
import type { TradingSession } from '../session/session';
import { confirmOrder, send } from './orders';

/** An average to a hundredth of a cent (half up): "49.09¢", not "49.0943¢". */
const averageCents = (p: bigint): string => formatCents(((p + 50n) / 100n) * 100n);
const contracts = (n: bigint): string => `${formatSize(n)} contract${n === 1000000n ? '' : 's'}`;

async function bookOf(session: TradingSession, assetId: bigint, epoch: bigint): Promise<{ bids: { price: bigint; size: bigint }[]; asks: { price: bigint; size: bigint }[] }> {
  const live = session.books.liveLevels(assetId, epoch);
  if (live) return live;
  const snap = await session.reader.getOrderBook(assetId, epoch, { depth: MAX_BOOK_DEPTH });
  return { bids: snap.bids, asks: snap.asks };
}

function priced(fills: readonly FillView[], sell: boolean): { average: bigint; worst: bigint; atOrBetter: boolean } | null {
  const size = fills.reduce((s, f) => s + BigInt(f.size), 0n);
  if (size === 0n) return null;
  const value = fills.reduce((s, f) => s + BigInt(f.price) * BigInt(f.size), 0n);
  const prices = fills.map((f) => BigInt(f.price));
  const worst = prices.reduce((w, p) => (sell ? (p < w ? p : w) : p > w ? p : w));
  return { average: value / size, worst, atOrBetter: fills.some((f) => f.priceIsLimit === true) };
}

export async function closePosition(ctx: CoreContext, session: TradingSession, a: bigint, e: bigint, signAs: SignAs): Promise<CloseResult> {
  const name = marketLabel(session.markets.find((m) => m.assetId === a)?.symbol ?? a.toString(), a, e);
  const slippage = parsePrice(ctx.settings.getSettings().maxSlippageCents);
  const base = { orderId: null, side: null, requested: '0', filled: '0', averagePrice: null, worstPrice: null, pricesAreLimits: false, bestPrice: null, limitPrice: null, maxSlippage: slippage.toString() };
  await session.refreshAccount(e, a);
  const inventory = session.account?.inventory(a, e) ?? 0n;
  const own = session.ownLevels(a, e);
  const plan = planClose(inventory, await bookOf(session, a, e), inventory > 0n ? own.bids : own.asks, slippage);
  if (plan.kind === 'nothing') return { ...base, status: 'NOTHING_TO_CLOSE', remaining: '0', summary: `Nothing to close: no position in ${name}.` };
  if (plan.kind === 'no_liquidity') {
    return {
      ...base,
      status: 'NO_LIQUIDITY',
      side: plan.sell ? 'sell' : 'buy',
      remaining: inventory.toString(),
      summary: `Nothing closed: no ${plan.sell ? 'bids' : 'offers'} in ${name} to close against; ${contracts(plan.size)} still open.`,
    };
  }
  await confirmOrder(ctx, session, a, e, { sell: plan.sell, price: plan.limit, size: plan.size }, 'IOC');
  // Re-read the position after the dialog: a resting order may have filled meanwhile.
  await session.refreshAccount(e, a);
  const now = session.account?.inventory(a, e) ?? 0n;
  const size = clipToInventory(plan, now);
  if (size === 0n) return { ...base, status: 'NOTHING_TO_CLOSE', remaining: now.toString(), summary: `Nothing to close: the position in ${name} changed to ${now === 0n ? 'flat' : 'the other side'} before the order was sent.` };
  const { result, fills } = await send(session, { assetId: a, epoch: e, ticket: { sell: plan.sell, price: plan.limit, size }, timeInForce: 'IOC', signAs });
  const left = session.account?.inventory(a, e) ?? 0n;
  const filled = BigInt(result.filled);
  const p = priced(fills, plan.sell);
  const verb = plan.sell ? 'sold' : 'bought';
  const at = p ? ` at ${p.atOrBetter ? 'or better than ' : ''}${averageCents(p.average)} average (worst ${formatCents(p.worst)})` : '';
  const open = left < 0n ? -left : left;
  const limitWords = `the ${formatCents(plan.limit)} limit (best ${formatCents(plan.best)} ${plan.sell ? '−' : '+'} ${formatCents(slippage)} slippage)`;
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
    limitPrice: plan.limit.toString(),
  };
  if (result.status === 'REJECTED') return { ...common, status: 'REJECTED', summary: `Not closed: ${rejectReasonSentence(result.reason)}; ${contracts(open)} still open in ${name}.` };
  if (filled === 0n) return { ...common, status: 'NOT_FILLED', summary: `Nothing closed in ${name}: no ${plan.sell ? 'bids' : 'offers'} within ${limitWords}; ${contracts(open)} still open.` };
  if (open === 0n) return { ...common, status: 'CLOSED', summary: `Closed ${name}: ${verb} ${contracts(filled)}${at}; the position is closed.` };
  return {
    ...common,
    status: 'PARTIALLY_CLOSED',
    summary: `Partly closed ${name}: ${verb} ${contracts(filled)}${at}, stopped at ${limitWords}; ${contracts(open)} still open.`,
  };
}
