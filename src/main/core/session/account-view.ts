/** The selected account as the window sees it: balances, positions with P&L, open orders and own fills. */
import type {
  AccountSelection,
  AccountView,
  FillView,
  OpenOrderView,
  PositionView,
  SignAs,
  TimeInForceName,
} from '../../../shared/bridge';
import type { AccountState } from '../../../client';
import { averagePrice } from '../trading-math/position-math';
import { positionValue as valueAtFair } from '../risk/equity';
import type { MarketEntry } from './market-directory';

/** What we know of an order we placed that the exchange's resting-order list does not say. */
export interface PlacedFacts {
  size: bigint;
  timeInForce: TimeInForceName;
  placedAt: number;
  signedBy: SignAs;
}

/** What the view is made of: the account desk's state and the market board's quotes. */
export interface AccountViewSource {
  readonly account: AccountState | null;
  readonly selection: AccountSelection;
  readonly walletTokenBalance: bigint | null;
  readonly markets: readonly MarketEntry[];
  readonly takerFills: readonly FillView[];
  currentEpoch(assetId: bigint): bigint | undefined;
  topOfBook(assetId: bigint, epoch: bigint): { bid: bigint | null; ask: bigint | null };
  /**
   * The fair price of a live market's epoch, null when there is none: positions are valued at it, the
   * same valuation the daily loss budget uses (risk/equity.ts), never at a one-sided book's quote.
   */
  fairPrice(assetId: bigint, epoch: bigint): bigint | null;
  /** An ended epoch's settled price (10^6 if Up won, else 0), null while its resolution is not known. */
  settledPrice(assetId: bigint, epoch: bigint): bigint | null;
  claimable(assetId: bigint, epoch: bigint): bigint;
  /** Whether the exchange said what this epoch's claim is. */
  claimKnown(assetId: bigint, epoch: bigint): boolean;
  placed(orderId: string): PlacedFacts | undefined;
  fillTime(orderId: string, seqId: bigint): number | undefined;
}

const toMs = (ts: number): number => (ts < 100_000_000_000 ? ts * 1000 : ts);

export function accountViewOf(source: AccountViewSource, error: string | null = null): AccountView {
  const account = source.account;
  const base = {
    selection: source.selection,
    walletTokenBalance: source.walletTokenBalance?.toString() ?? null,
    error,
  };
  if (!account) return { ...base, balance: null, positions: [], openOrders: [], fills: [] };
  const balance = account.balance;
  const positions: PositionView[] = [];
  for (const p of account.positions.values()) {
    if (!p || (p.inventory === 0n && p.margin === 0n && p.realisedPnl === 0n)) continue;
    const symbol = source.markets.find((m) => m.assetId === p.assetId)?.symbol ?? p.assetId.toString();
    const current = source.currentEpoch(p.assetId);
    const resolved = current !== undefined && p.epoch < current;
    const short = p.inventory < 0n;
    const contracts = short ? -p.inventory : p.inventory;
    // Collateral is never negative; the magnitude keeps a stray flag from turning the average around.
    const margin = p.margin < 0n ? -p.margin : p.margin;
    const avg = averagePrice(contracts, margin, short);
    // One valuation for the row, equity and the loss budget: fair value, or the settled price once
    // the epoch ended; with neither, the worst the position can pay (nothing), never its cost.
    const mark = resolved ? source.settledPrice(p.assetId, p.epoch) : source.fairPrice(p.assetId, p.epoch);
    const worth = valueAtFair({ assetId: p.assetId, epoch: p.epoch, inventory: p.inventory, margin }, mark);
    const unrealised = contracts > 0n && !resolved ? worth - margin : null;
    const claimKnown = resolved && source.claimKnown(p.assetId, p.epoch);
    const claimable = source.claimable(p.assetId, p.epoch);
    positions.push({
      assetId: p.assetId.toString(),
      epoch: p.epoch.toString(),
      symbol,
      size: p.inventory.toString(),
      averagePrice: avg?.toString() ?? null,
      markPrice: mark?.toString() ?? null,
      margin: margin.toString(),
      unrealisedPnl: unrealised?.toString() ?? null,
      realisedPnl: p.realisedPnl.toString(),
      // Each contract of the winning side pays 10^6 units, i.e. its size (docs/protocol/units.md#margin).
      payoutIfRight: contracts.toString(),
      resolved,
      claimable: claimable.toString(),
      claimKnown,
      value: positionValue(resolved, claimKnown, claimable, worth).toString(),
    });
  }
  const openOrders: OpenOrderView[] = [];
  for (const orders of account.orders.values()) {
    // An ended epoch trades no more: what rested in it is off the book (the desk told the user at the roll).
    const current = source.currentEpoch(orders.assetId);
    if (current !== undefined && orders.epoch < current) continue;
    for (const [list, side] of [
      [orders.buys, 'buy'],
      [orders.sells, 'sell'],
    ] as const) {
      for (const o of list) {
        const placed = source.placed(o.id);
        openOrders.push({
          assetId: orders.assetId.toString(),
          epoch: orders.epoch.toString(),
          orderId: o.id,
          side,
          price: o.price.toString(),
          size: (placed?.size ?? o.size).toString(),
          remaining: o.size.toString(),
          timeInForce: placed?.timeInForce ?? 'GTC',
          placedAt: placed?.placedAt ?? (o.time === undefined ? 0 : toMs(o.time)),
          signedBy: placed?.signedBy ?? 'master',
        });
      }
    }
  }
  const makerFills = account.fills.map((f) => ({
    assetId: f.assetId.toString(),
    epoch: f.epoch.toString(),
    orderId: f.orderId,
    side: f.side ? ('sell' as const) : ('buy' as const),
    price: f.fillPrice.toString(),
    size: f.fill.toString(),
    liquidity: 'maker' as const,
    at: source.fillTime(f.orderId, f.seqId) ?? 0,
  }));
  return {
    ...base,
    balance: balance
      ? { available: balance.balance.toString(), locked: balance.pending.toString(), updatedAt: toMs(balance.ts) }
      : null,
    positions,
    openOrders,
    fills: [...makerFills, ...source.takerFills].sort((a, b) => a.at - b.at),
  };
}

/**
 * What equity counts for a position: its worth at fair value while it trades (nothing with no fair
 * value); once resolved, the claim when the exchange has said it, and until then what its settled
 * price pays (nothing while the resolution is not known: the worst it can pay, as the budget counts it).
 */
export function positionValue(resolved: boolean, claimKnown: boolean, claimable: bigint, worth: bigint): bigint {
  if (resolved && claimKnown) return claimable;
  return worth;
}
