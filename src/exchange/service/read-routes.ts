// GET routes of docs/protocol/endpoints.md#endpoints (plus the documented extras /config/domain/:chainId,
// /withdrawals/:account and /fills/:account).
import { DOMAIN_VERSION, UINT_MAX } from '../../shared/protocol';
import { epochAt, epochEnd, RECURRING_ASSET_TYPE, type MarketSpec } from '../markets';
import { approvalStatus } from './auth';
import type { ServiceContext } from './context';
import { notFound, ServiceError } from './errors';
import type { Route } from './http-server';
import { addressParam, assetIdParam, decimalParam, depthQuery, epochParam } from './params';
import type { JournalRecord } from './records';
import { bookOrderJson, EMPTY_LEVEL, fillJson, ledgerOrderJson, levelJson, positionJson } from './views';

const MAX_ENTRIES_PER_PAGE = 1000;
const MAX_FILLS_PER_PAGE = 1000;
const DEFAULT_FILLS_PER_PAGE = 100;

export function readRoutes(ctx: ServiceContext): Route[] {
  const engine = ctx.ledger.engine;
  const now = (): number => ctx.nowMs();

  const market = (assetId: bigint, code = 'ASSET_ID_NOT_REGISTERED'): MarketSpec => {
    const m = ctx.markets.get(assetId);
    if (m === undefined) throw notFound(code, `Asset ${assetId} is not registered on this exchange.`);
    return m;
  };
  const isOpened = (assetId: bigint, epoch: bigint): boolean => engine.epochs(assetId).includes(epoch);
  const requireEpoch = (assetId: bigint, epoch: bigint, code: string): void => {
    if (!isOpened(assetId, epoch)) throw notFound(code, `Asset ${assetId} has no epoch ${epoch}.`);
  };

  const assetBody = (m: MarketSpec, epoch: bigint) => {
    const opened = isOpened(m.assetId, epoch);
    const view = opened ? engine.market(m.assetId, epoch) : null;
    return {
      assetId: m.assetId.toString(),
      epoch: epoch.toString(),
      registered: true,
      expiration: epochEnd(m, epoch).toString(),
      assetType: RECURRING_ASSET_TYPE.toString(),
      strikePrice: (view?.strike ?? m.strike).toString(),
      resolutionPrice: (view?.resolutionPrice ?? 0n).toString(),
      isResolved: view?.resolved ?? false,
      ledger: ctx.contracts.ledger,
    };
  };

  const resolutionBody = (m: MarketSpec, epoch: bigint) => {
    const r = ctx.ledger.state.resolutions.get(`${m.assetId}:${epoch}`);
    if (r === undefined)
      throw notFound('RESOLUTION_NOT_FOUND', `Asset ${m.assetId} epoch ${epoch} has no resolution yet.`);
    return {
      assetId: m.assetId.toString(),
      epoch: epoch.toString(),
      id: Number(m.symbolId),
      ts: String(Math.floor(r.tsMs / 1000)),
      price: r.price.toString(),
      isNull: false,
    };
  };

  const ok = (body: unknown) => ({ status: 200, body });

  return [
    { method: 'GET', path: '/health', handler: () => ok({ status: 'ok' }) },
    {
      method: 'GET',
      path: '/config/chains/:chainId',
      handler: ({ params }) => {
        const id = decimalParam(params['chainId'], UINT_MAX.uint256, 'INVALID_CHAIN_ID', 'The chain id');
        if (id !== ctx.domain.chainId)
          throw notFound('CHAIN_NOT_FOUND', `This exchange serves chain ${ctx.domain.chainId} only.`);
        return ok({ chainId: id.toString(), contracts: { ...ctx.contracts } });
      },
    },
    {
      method: 'GET',
      path: '/config/domain/:chainId',
      handler: ({ params }) => {
        const id = decimalParam(params['chainId'], UINT_MAX.uint256, 'INVALID_CHAIN_ID', 'The chain id');
        if (id !== ctx.domain.chainId)
          throw notFound('CHAIN_NOT_FOUND', `This exchange serves chain ${ctx.domain.chainId} only.`);
        return ok({
          chainId: id.toString(),
          name: ctx.domain.name,
          version: DOMAIN_VERSION,
          verifyingContract: ctx.domain.verifyingContract,
        });
      },
    },
    {
      method: 'GET',
      path: '/asset/:assetId',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']));
        const last = engine.epochs(m.assetId).at(-1);
        const epoch = last ?? epochAt(m, BigInt(Math.floor(now() / 1000))) ?? 0n;
        return ok(assetBody(m, epoch));
      },
    },
    {
      method: 'GET',
      path: '/asset/:assetId/:epoch',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']));
        const epoch = epochParam(params['epoch']);
        requireEpoch(m.assetId, epoch, 'ASSET_EPOCH_NOT_FOUND');
        return ok(assetBody(m, epoch));
      },
    },
    {
      method: 'GET',
      path: '/balance/:account',
      handler: ({ params }) => {
        // An account the exchange has never seen has a zero balance (not 404).
        const b = engine.balance(addressParam(params['account']));
        return ok({ account: b.account, ts: now(), balance: b.balance.toString(), pending: b.pending.toString() });
      },
    },
    {
      method: 'GET',
      path: '/position/:account/:assetId/:epoch',
      handler: ({ params }) => {
        const account = addressParam(params['account']);
        const m = market(assetIdParam(params['assetId']));
        const epoch = epochParam(params['epoch']);
        requireEpoch(m.assetId, epoch, 'POSITION_NOT_FOUND');
        return ok(positionJson(engine.position(account, m.assetId, epoch), now()));
      },
    },
    {
      method: 'GET',
      path: '/book/market/top/:assetId/:epoch',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']));
        const epoch = epochParam(params['epoch']);
        requireEpoch(m.assetId, epoch, 'ORDERBOOK_NOT_FOUND');
        const t = engine.top(m.assetId, epoch);
        return ok({
          assetId: m.assetId.toString(),
          epoch: epoch.toString(),
          seqId: t.seqId,
          ts: now(),
          bid: t.bid === null ? EMPTY_LEVEL : levelJson(t.bid),
          ask: t.ask === null ? EMPTY_LEVEL : levelJson(t.ask),
          last: t.last.toString(),
          lastTs: String(t.lastTs),
        });
      },
    },
    {
      method: 'GET',
      path: '/book/:assetId/:epoch',
      handler: ({ params, query }) => {
        const depth = depthQuery(query);
        const m = market(assetIdParam(params['assetId']));
        const epoch = epochParam(params['epoch']);
        requireEpoch(m.assetId, epoch, 'ORDERBOOK_NOT_FOUND');
        const l2 = engine.l2(m.assetId, epoch, depth);
        return ok({
          assetId: m.assetId.toString(),
          epoch: epoch.toString(),
          ts: now(),
          seqId: l2.seqId,
          bids: l2.bids.map(levelJson),
          asks: l2.asks.map(levelJson),
        });
      },
    },
    {
      method: 'GET',
      path: '/book/:assetId/:epoch/:account',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']));
        const epoch = epochParam(params['epoch']);
        const account = addressParam(params['account']);
        requireEpoch(m.assetId, epoch, 'ORDERBOOK_NOT_FOUND');
        const v = engine.accountOrders(account, m.assetId, epoch);
        return ok({
          assetId: m.assetId.toString(),
          epoch: epoch.toString(),
          seqId: v.seqId,
          ts: now(),
          buys: v.buys.map(bookOrderJson),
          sells: v.sells.map(bookOrderJson),
        });
      },
    },
    {
      method: 'GET',
      path: '/claim/:assetId/:epoch/:account',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']));
        const epoch = epochParam(params['epoch']);
        const account = addressParam(params['account']);
        requireEpoch(m.assetId, epoch, 'ASSET_NOT_FOUND');
        if (!engine.market(m.assetId, epoch).resolved)
          throw notFound('EPOCH_NOT_RESOLVED', `Epoch ${epoch} is not resolved yet.`);
        return ok({
          account,
          assetId: m.assetId.toString(),
          epoch: epoch.toString(),
          claimable: engine.claimable(account, m.assetId, epoch).toString(),
        });
      },
    },
    {
      method: 'GET',
      path: '/resolve/mark/:assetId',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']));
        const t = now();
        return ok({
          assetId: m.assetId.toString(),
          id: Number(m.symbolId),
          ts: String(Math.floor(t / 1000)),
          price: ctx.liveOracle.priceAt(m.symbolId, t).toString(),
        });
      },
    },
    {
      method: 'GET',
      path: '/resolve/settlement/:assetId/:epoch',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']), 'INVALID_ASSET_ID');
        const epoch = epochParam(params['epoch']);
        requireEpoch(m.assetId, epoch, 'INVALID_EPOCH');
        const expiration = epochEnd(m, epoch);
        const r = ctx.ledger.state.resolutions.get(`${m.assetId}:${epoch}`);
        if (r === undefined) {
          if (BigInt(Math.floor(now() / 1000)) < expiration)
            throw notFound('ASSET_ID_NOT_EXPIRED', `Epoch ${epoch} has not expired yet.`);
          throw notFound('ASSET_ID_NOT_RESOLVED', `Epoch ${epoch} has expired but is not resolved yet.`);
        }
        return ok({
          assetId: m.assetId.toString(),
          epoch: epoch.toString(),
          id: Number(m.symbolId),
          ts: Math.floor(r.tsMs / 1000),
          expirationTime: Number(expiration),
          settlementPrice: r.price.toString(),
        });
      },
    },
    {
      method: 'GET',
      path: '/resolve/last/epoch/:assetId',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']), 'INVALID_ASSET_ID');
        const epochs = engine.epochs(m.assetId);
        for (let i = epochs.length - 1; i >= 0; i--) {
          if (ctx.ledger.state.resolutions.has(`${m.assetId}:${epochs[i]!}`)) return ok(resolutionBody(m, epochs[i]!));
        }
        throw notFound('RESOLUTION_NOT_FOUND', `Asset ${m.assetId} has no resolved epoch yet.`);
      },
    },
    {
      method: 'GET',
      path: '/resolve/:assetId/:epoch',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']), 'INVALID_ASSET_ID');
        return ok(resolutionBody(m, epochParam(params['epoch'])));
      },
    },
    {
      method: 'GET',
      path: '/agents/status/:master',
      handler: ({ params }) => {
        const master = addressParam(params['master'], 'INVALID_MASTER', 400);
        const rec = ctx.ledger.state.agents.get(master);
        const status = approvalStatus(rec, ctx);
        // Inactive (none or revoked): empty agent and nonce "0"; expired keeps both for diagnosis.
        const body =
          status === 'inactive' || rec === undefined
            ? { agent: '', nonce: '0', status }
            : { agent: rec.agent, nonce: rec.approvalNonce.toString(), status };
        return { status: 202, body };
      },
    },
    {
      method: 'GET',
      path: '/ledger/orders/:assetId/:epoch',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']));
        const epoch = epochParam(params['epoch']);
        requireEpoch(m.assetId, epoch, 'ORDERS_NOT_FOUND');
        const orders = engine
          .ledgerOrders(m.assetId, epoch)
          .map((o) => ledgerOrderJson(o, ctx.ledger.state.orderSignatures.get(o.id) ?? '0x'));
        return ok({ assetId: m.assetId.toString(), epoch: epoch.toString(), ts: now(), orders });
      },
    },
    {
      method: 'GET',
      path: '/ledger/orders/:assetId/:epoch/:account',
      handler: ({ params }) => {
        const m = market(assetIdParam(params['assetId']));
        const epoch = epochParam(params['epoch']);
        const account = addressParam(params['account']);
        requireEpoch(m.assetId, epoch, 'ORDERS_NOT_FOUND');
        const orders = engine
          .ledgerOrders(m.assetId, epoch, account)
          .map((o) => ledgerOrderJson(o, ctx.ledger.state.orderSignatures.get(o.id) ?? '0x'));
        return ok({ assetId: m.assetId.toString(), epoch: epoch.toString(), account, ts: now(), orders });
      },
    },
    {
      method: 'GET',
      path: '/ledger/entries/:seqId',
      handler: async ({ params, query }) => {
        const seqId = Number(
          decimalParam(params['seqId'], BigInt(Number.MAX_SAFE_INTEGER), 'INVALID_SEQID', 'The seqId'),
        );
        const limitRaw = query.get('limit') ?? '1';
        if (!/^[1-9][0-9]{0,3}$/.test(limitRaw) || Number(limitRaw) > MAX_ENTRIES_PER_PAGE) {
          throw new ServiceError(
            400,
            'INVALID_LIMIT',
            `limit must be a whole number from 1 to ${MAX_ENTRIES_PER_PAGE}.`,
          );
        }
        const records: JournalRecord[] = [];
        for (let s = seqId; s < seqId + Number(limitRaw); s++) {
          const r = await ctx.journal.read(s);
          if (r === undefined) break;
          records.push(r);
        }
        const first = records[0];
        if (first === undefined) throw notFound('ENTRIES_NOT_FOUND', `No durable journal entry has seqId ${seqId}.`);
        return ok({
          seqId,
          ts: first.ts,
          entries: records.map((r) => ({ seqId: r.seqId, ts: r.ts, kind: r.kind, ...r.entry })),
        });
      },
    },
    {
      method: 'GET',
      path: '/fills/:account',
      handler: ({ params, query }) => {
        const account = addressParam(params['account']);
        const assetRaw = query.get('assetId');
        const epochRaw = query.get('epoch');
        const assetId =
          assetRaw === null
            ? undefined
            : decimalParam(assetRaw, UINT_MAX.uint256, 'INVALID_ASSET_ID', 'The asset id', 400);
        const epoch =
          epochRaw === null ? undefined : decimalParam(epochRaw, UINT_MAX.uint32, 'INVALID_EPOCH', 'The epoch', 400);
        const limitRaw = query.get('limit') ?? String(DEFAULT_FILLS_PER_PAGE);
        if (!/^[1-9][0-9]{0,3}$/.test(limitRaw) || Number(limitRaw) > MAX_FILLS_PER_PAGE) {
          throw new ServiceError(400, 'INVALID_LIMIT', `limit must be a whole number from 1 to ${MAX_FILLS_PER_PAGE}.`);
        }
        // The engine keeps them oldest first; the route answers newest first.
        const fills = engine
          .fills(account)
          .filter((f) => (assetId === undefined || f.assetId === assetId) && (epoch === undefined || f.epoch === epoch))
          .reverse()
          .slice(0, Number(limitRaw))
          .map(fillJson);
        return ok({ account, fills });
      },
    },
    {
      method: 'GET',
      path: '/withdrawals/:account',
      handler: ({ params }) => {
        const account = addressParam(params['account']);
        const withdrawals = engine.withdrawals(account).map((w) => {
          const info = ctx.ledger.state.withdrawals.get(w.id);
          const p = ctx.payoutStatus(w.id);
          return {
            id: w.id,
            receiver: info?.receiver ?? account,
            amount: w.amount.toString(),
            time: w.time,
            status: w.paid ? 'PAID' : 'QUEUED',
            txHash: w.txHash,
            attempts: p?.attempts ?? 0,
            lastError: p?.lastError ?? null,
          };
        });
        return ok({ account, withdrawals });
      },
    },
  ];
}
