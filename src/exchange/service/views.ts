// JSON bodies of the API (docs/protocol/endpoints.md#endpoints, #field-shapes): integers as decimal strings,
// `ts`/`seqId`/`orderCount` as numbers, exactly the documented keys.
import type {
  BookOrderView,
  CancelReplaceResult,
  EngineCancelResult,
  EngineFill,
  L2LevelView,
  LedgerOrderView,
  NewOrderResult,
  EnginePosition,
} from '../engine';

export interface BookOrderJson {
  id: string;
  size: string;
  price: string;
  time: number;
  account: string;
}

export interface L2LevelJson {
  price: string;
  size: string;
  orderCount: number;
  orders: BookOrderJson[];
}

export function bookOrderJson(o: BookOrderView): BookOrderJson {
  return { id: o.id, size: o.size.toString(), price: o.price.toString(), time: o.time, account: o.account };
}

export function levelJson(l: L2LevelView): L2LevelJson {
  return {
    price: l.price.toString(),
    size: l.size.toString(),
    orderCount: l.orderCount,
    orders: l.orders.map(bookOrderJson),
  };
}

/** An empty side in top-of-book (documented: price "0", no orders). */
export const EMPTY_LEVEL: Readonly<L2LevelJson> = Object.freeze({ price: '0', size: '0', orderCount: 0, orders: [] });

export function newOrderJson(r: NewOrderResult) {
  return {
    orderId: r.orderId,
    filled: r.filled.toString(),
    remaining: r.remaining.toString(),
    cancelled: r.cancelled.toString(),
    status: r.status,
    reason: r.reason,
  };
}

export function cancelJson(r: EngineCancelResult) {
  return { id: r.id, status: r.status, orderIds: r.orderIds };
}

export function cancelReplaceJson(r: CancelReplaceResult) {
  return {
    id: r.id,
    status: r.status,
    cancel: cancelJson(r.cancel),
    replacement: r.replacement === null ? null : newOrderJson(r.replacement),
  };
}

export function positionJson(p: EnginePosition, ts: number) {
  return {
    account: p.account,
    assetId: p.assetId.toString(),
    epoch: p.epoch.toString(),
    ts,
    size: p.size.toString(),
    margin: p.margin.toString(),
    balance: p.balance.toString(),
    pnl: p.pnl.toString(),
    side: p.side,
    bSide: p.bSide,
    mSide: p.mSide,
    pSide: p.pSide,
  };
}

export function ledgerOrderJson(o: LedgerOrderView, signature: string) {
  return {
    id: o.id,
    type: o.type,
    side: o.side,
    epoch: o.epoch.toString(),
    size: o.size.toString(),
    price: o.price.toString(),
    limitPrice: o.limitPrice.toString(),
    account: o.account,
    assetId: o.assetId.toString(),
    filled: o.filled.toString(),
    remaining: o.remaining.toString(),
    reservedPosition: o.reservedPosition.toString(),
    reservedSize: o.reservedSize.toString(),
    reservedMargin: o.reservedMargin.toString(),
    maxSize: o.maxSize.toString(),
    timeInForce: o.timeInForce.toString(),
    nonce: o.nonce.toString(),
    signer: o.signer,
    signature,
    signatureType: o.signatureType.toString(),
    approvalSignature: '0x',
    approvalNonce: o.approvalNonce.toString(),
    seq: o.seq,
    lastTxId: o.id,
    version: 1,
  };
}

/** One own fill of GET /fills/:account (a devnet extra, not a documented route). */
export function fillJson(f: EngineFill) {
  return {
    orderId: f.orderId,
    assetId: f.assetId.toString(),
    epoch: f.epoch.toString(),
    side: f.side,
    price: f.price.toString(),
    size: f.size.toString(),
    liquidity: f.liquidity,
    ts: f.time,
  };
}
