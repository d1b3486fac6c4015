// Signed POST routes (docs/protocol/endpoints.md#endpoints). Each handler: strict parse → chain id → digest and
// signature → single use → signer rules → business pre-checks (4xx, no state change) → one journal record
// applied to the ledger → market events out → wait for the fsync → answer. Signature checks are
// awaited (signature-pool.ts); every check that reads state comes after the last await and runs
// synchronously up to the submit, so concurrent duplicates still get ENTRY_PROCESSED.
import {
  hashActionBytes,
  MAX_AMOUNT,
  MAX_PRACTICAL_SIZE,
  MAX_PRICE,
  MIN_PRICE,
  PRICE_TICK,
  SIGNATURE_RE,
  SIZE_LOT,
  ZERO_ADDRESS,
  ZERO_HASH,
  type FillOrder,
} from '../../shared/protocol';
import {
  approvalStatus,
  checkChainId,
  checkEoaOnly,
  checkEoaOrAgent,
  checkNotProcessed,
  checkRole,
  parseRequest,
  verifyPair,
} from './auth';
import type { ServiceContext } from './context';
import { badRequest, notFound, tooManyRequests, unauthorized } from './errors';
import type { Reply, Route } from './http-server';
import type { Applied } from './ledger';
import { toSignedEntry, type RecordKind } from './records';
import { cancelJson, cancelReplaceJson, newOrderJson } from './views';

/** Agents may approve only 10–300 s ahead (exclusive), docs/protocol/agents.md#the-approval-nonce. */
const APPROVAL_MIN_AHEAD = 10n;
const APPROVAL_MAX_AHEAD = 300n;

export function writeRoutes(ctx: ServiceContext): Route[] {
  const engine = ctx.ledger.engine;
  const nowSec = (): bigint => BigInt(Math.floor(ctx.nowMs() / 1000));

  /** Publishes the events, waits until the record is durable, then answers. */
  const commit = async <K extends RecordKind>(applied: Applied<K>, status: number, body: unknown): Promise<Reply> => {
    ctx.publish(applied.events);
    await ctx.ledger.durable(applied.seqId);
    return { status, body };
  };

  const requireMarket = (assetId: bigint, status: 400 | 404, code: string): void => {
    if (!ctx.markets.has(assetId))
      throw status === 400
        ? badRequest(code, `Asset ${assetId} is not available on this exchange.`)
        : notFound(code, `Asset ${assetId} is not registered.`);
  };
  const requireEpoch = (assetId: bigint, epoch: bigint, code: string): void => {
    if (!engine.epochs(assetId).includes(epoch))
      throw notFound(code, `Asset ${assetId} has no open or past epoch ${epoch}.`);
  };
  const checkOrderValues = (o: FillOrder): void => {
    if (o.price < MIN_PRICE || o.price > MAX_PRICE || o.price % PRICE_TICK !== 0n) {
      throw badRequest('INVALID_PRICE', 'price must be a multiple of 1,000 from 1,000 to 999,000 (0.1¢ to 99.9¢).');
    }
    if (o.size < SIZE_LOT || o.size > MAX_PRACTICAL_SIZE || o.size % SIZE_LOT !== 0n) {
      throw badRequest(
        'INVALID_SIZE',
        'size must be a multiple of 10,000 from 10,000 to 100,000,000,000 (0.01 to 100,000 contracts).',
      );
    }
  };
  /** After the signature: only a proven master spends its own budget, and replays never do. */
  const limitAgentRoute = (master: string): void => {
    const took = ctx.agentLimiter?.take(master);
    if (took !== undefined && !took.ok) {
      throw tooManyRequests(
        'RATE_LIMITED',
        `Too many agent approvals or revocations for this account; retry in ${Math.ceil(took.retryAfterMs / 1000)} s.`,
        took.retryAfterMs,
      );
    }
  };
  const requireNotPaused = (): void => {
    if (ctx.ledger.state.paused)
      throw badRequest(
        'EXCHANGE_PAUSED',
        'The exchange is paused; orders are not accepted until an admin unpauses it.',
      );
  };

  return [
    {
      method: 'POST',
      path: '/orders',
      handler: async ({ body }) => {
        const req = parseRequest('orders', body, {
          actionKey: 'order',
          missing: 'MISSING_ORDER_OR_SIGNATURE',
          params: 'INVALID_ORDER_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const o = req.order;
        const id = await verifyPair(ctx, 'FillOrder', o, req.orderHash, req.signature, o.signer, {
          mismatch: 'ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkEoaOrAgent(ctx, o);
        requireNotPaused();
        requireMarket(o.assetId, 400, 'ASSET_ID_NOT_AVAILABLE');
        requireEpoch(o.assetId, o.epoch, 'INVALID_EPOCH');
        checkOrderValues(o);
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit('fill', toSignedEntry('FillOrder', o, id, req.signature, t), t, o);
        return commit(applied, 202, newOrderJson(applied.result));
      },
    },
    {
      method: 'POST',
      path: '/cancels',
      handler: async ({ body }) => {
        const req = parseRequest('cancels', body, {
          actionKey: 'cancel',
          missing: 'MISSING_CANCEL_OR_SIGNATURE',
          params: 'INVALID_CANCEL_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const c = req.cancel;
        const id = await verifyPair(ctx, 'CancelOrder', c, req.orderHash, req.signature, c.signer, {
          mismatch: 'CANCEL_ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkEoaOrAgent(ctx, c);
        requireMarket(c.assetId, 404, 'INVALID_ASSET_ID');
        requireEpoch(c.assetId, c.epoch, 'ORDERBOOK_NOT_FOUND');
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit('cancel', toSignedEntry('CancelOrder', c, id, req.signature, t), t, c);
        return commit(applied, 202, cancelJson(applied.result));
      },
    },
    {
      method: 'POST',
      path: '/cancel-replace',
      handler: async ({ body }) => {
        const req = parseRequest('cancelReplace', body, {
          actionKey: 'cancelReplace',
          missing: 'MISSING_CANCEL_REPLACE_OR_SIGNATURE',
          params: 'INVALID_CANCEL_REPLACE_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const cr = req.cancelReplace;
        const rep = req.replacement;
        const id = await verifyPair(ctx, 'CancelReplaceOrder', cr, req.orderHash, req.signature, cr.signer, {
          mismatch: 'CANCEL_REPLACE_ORDER_HASH_MISMATCH',
          signature: 'INVALID_CANCEL_REPLACE_SIGNATURE',
        });
        const repId = await verifyPair(
          ctx,
          'FillOrder',
          rep,
          req.replacementOrderHash,
          req.replacementSignature,
          rep.signer,
          {
            mismatch: 'REPLACEMENT_ORDER_HASH_MISMATCH',
            signature: 'INVALID_REPLACEMENT_SIGNATURE',
          },
        );
        if (cr.replacementOrderHash.toLowerCase() !== repId) {
          throw unauthorized(
            'REPLACEMENT_ORDER_HASH_MISMATCH',
            'cancelReplace.replacementOrderHash is not the digest of the replacement order.',
          );
        }
        checkNotProcessed(ctx, id);
        checkNotProcessed(ctx, repId, 'REPLACEMENT_ENTRY_PROCESSED');
        if (cr.signatureType !== rep.signatureType)
          throw badRequest(
            'SIGNATURE_TYPE_MISMATCH',
            'The replacement must have the same signatureType as the cancel-replace.',
          );
        if (cr.sender.toLowerCase() !== rep.sender.toLowerCase())
          throw badRequest('SENDER_MISMATCH', 'The replacement must have the same sender.');
        if (cr.signer.toLowerCase() !== rep.signer.toLowerCase())
          throw badRequest('SIGNER_MISMATCH', 'The replacement must have the same signer.');
        if (cr.approvalNonce !== rep.approvalNonce)
          throw badRequest('APPROVAL_NONCE_MISMATCH', 'The replacement must have the same approvalNonce.');
        if (cr.assetId !== rep.assetId || cr.epoch !== rep.epoch) {
          throw badRequest(
            'CROSS_MARKET_CANCEL_REPLACE_NOT_SUPPORTED',
            'The replacement must be in the same asset and epoch as the cancelled order.',
          );
        }
        if (cr.cancelOrderHash.toLowerCase() === ZERO_HASH) {
          throw badRequest(
            'CANCEL_REPLACE_CANCEL_ALL_NOT_SUPPORTED',
            'Cancel-replace needs one order to cancel; use POST /cancels for cancel-all.',
          );
        }
        checkEoaOrAgent(ctx, cr);
        requireNotPaused();
        requireMarket(cr.assetId, 400, 'ASSET_ID_NOT_AVAILABLE');
        requireEpoch(cr.assetId, cr.epoch, 'INVALID_EPOCH');
        checkOrderValues(rep);
        const mine = engine.accountOrders(cr.sender, cr.assetId, cr.epoch);
        const target = [...mine.buys, ...mine.sells].find((o) => o.id === cr.cancelOrderHash.toLowerCase());
        if (target !== undefined && mine.sells.includes(target) !== rep.side) {
          throw badRequest(
            'REPLACEMENT_SIDE_MISMATCH',
            'The replacement must be on the same side as the cancelled order.',
          );
        }
        const t = ctx.nowMs();
        const entry = {
          ...toSignedEntry('CancelReplaceOrder', cr, id, req.signature, t),
          replacement: toSignedEntry('FillOrder', rep, repId, req.replacementSignature, t),
        };
        const applied = ctx.ledger.submit('cancelReplace', entry, t, { cancelReplace: cr, replacement: rep });
        return commit(applied, 202, cancelReplaceJson(applied.result));
      },
    },
    {
      method: 'POST',
      path: '/claim',
      handler: async ({ body }) => {
        const req = parseRequest('claim', body, {
          actionKey: 'claim',
          missing: 'MISSING_CLAIM_OR_SIGNATURE',
          params: 'INVALID_CLAIM_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const c = req.claim;
        const id = await verifyPair(ctx, 'ClaimOrder', c, req.orderHash, req.signature, c.signer, {
          mismatch: 'ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkEoaOrAgent(ctx, c);
        requireMarket(c.assetId, 404, 'INVALID_ASSET_ID');
        requireEpoch(c.assetId, c.epoch, 'INVALID_EPOCH');
        if (!engine.market(c.assetId, c.epoch).resolved)
          throw notFound('EPOCH_NOT_RESOLVED', `Epoch ${c.epoch} is not resolved yet.`);
        if (engine.claimable(c.sender, c.assetId, c.epoch) === 0n)
          throw notFound('NO_CLAIMABLE_AMOUNT', 'There is nothing to claim for this account in this epoch.');
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit('claim', toSignedEntry('ClaimOrder', c, id, req.signature, t), t, c);
        return commit(applied, 202, { id, status: applied.result.status });
      },
    },
    {
      method: 'POST',
      path: '/withdrawals',
      handler: async ({ body }) => {
        const req = parseRequest('withdrawals', body, {
          actionKey: 'withdrawal',
          missing: 'MISSING_WITHDRAWAL_OR_SIGNATURE',
          params: 'INVALID_WITHDRAWAL_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const w = req.withdrawal;
        const id = await verifyPair(ctx, 'WithdrawalOrder', w, req.orderHash, req.signature, w.signer, {
          mismatch: 'WITHDRAWAL_ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkEoaOnly(w, 'EOA_SIGNER_AND_SENDER_MUST_MATCH');
        if (w.ledger.toLowerCase() !== ctx.contracts.ledger.toLowerCase()) {
          throw badRequest(
            'INVALID_WITHDRAWAL_PARAMETERS',
            `ledger must be the account ledger ${ctx.contracts.ledger}.`,
          );
        }
        if (w.amount === 0n || w.amount > MAX_AMOUNT)
          throw badRequest('INVALID_WITHDRAWAL_PARAMETERS', 'amount must be from 1 to 10^15 units.');
        if (w.receiver.toLowerCase() === ZERO_ADDRESS)
          throw badRequest('INVALID_WITHDRAWAL_PARAMETERS', 'receiver may not be the zero address.');
        if (engine.balance(w.sender).balance < w.amount)
          throw badRequest('INSUFFICIENT_LEDGER_BALANCE', 'The free ledger balance is smaller than the amount.');
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit(
          'withdrawal',
          toSignedEntry('WithdrawalOrder', w, id, req.signature, t),
          t,
          w,
        );
        const reply = await commit(applied, 202, { id, status: applied.result.status });
        ctx.onWithdrawalQueued();
        return reply;
      },
    },
    {
      method: 'POST',
      path: '/agents/approve',
      handler: async ({ body }) => {
        const req = parseRequest('agentsApprove', body, {
          actionKey: 'approval',
          missing: 'MISSING_APPROVAL_OR_SIGNATURE',
          params: 'INVALID_APPROVAL_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const a = req.approval;
        const id = await verifyPair(ctx, 'ApproveAgentOrder', a, req.orderHash, req.signature, a.signer, {
          mismatch: 'APPROVE_AGENT_ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkEoaOnly(a, 'SENDER_MUST_BE_SIGNER');
        const master = a.sender.toLowerCase();
        limitAgentRoute(master);
        if (a.agent.toLowerCase() === ZERO_ADDRESS)
          throw badRequest('INVALID_AGENT', 'The agent may not be the zero address.');
        if (a.agent.toLowerCase() === master)
          throw badRequest('AGENT_CANNOT_APPROVE_ITSELF', 'The agent must differ from the master account.');
        const now = nowSec();
        if (a.approvalNonce <= now + APPROVAL_MIN_AHEAD)
          throw badRequest(
            'NONCE_IN_THE_PAST',
            `approvalNonce must be a unix time more than ${APPROVAL_MIN_AHEAD} s ahead (now ${now}).`,
          );
        if (a.approvalNonce >= now + APPROVAL_MAX_AHEAD)
          throw badRequest(
            'NONCE_TOO_FAR_IN_FUTURE',
            `approvalNonce must be a unix time less than ${APPROVAL_MAX_AHEAD} s ahead (now ${now}).`,
          );
        const inner = hashActionBytes(
          'AgentApproval',
          { master: a.sender, agent: a.agent, approvalNonce: a.approvalNonce },
          ctx.domain,
        );
        if (
          !SIGNATURE_RE.test(a.approvalSignature) ||
          !(await ctx.verifier.verify(inner, a.approvalSignature, a.sender))
        ) {
          throw unauthorized(
            'INVALID_APPROVAL_SIGNATURE',
            "approvalSignature is not the master's signature of AgentApproval{master, agent, nonce: approvalNonce}.",
          );
        }
        // Another request may have been applied while the approval signature was checked.
        checkNotProcessed(ctx, id);
        const cur = ctx.ledger.state.agents.get(master);
        // FAIL (404, normal body): an older approval than the one in force.
        if (cur !== undefined && approvalStatus(cur, ctx) === 'active' && a.approvalNonce <= cur.approvalNonce) {
          return { status: 404, body: { id, status: 'FAIL' } };
        }
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit('approve', toSignedEntry('ApproveAgentOrder', a, id, req.signature, t), t, a);
        return commit(applied, 202, { id, status: applied.result.status });
      },
    },
    {
      method: 'POST',
      path: '/agents/revoke',
      handler: async ({ body }) => {
        const req = parseRequest('agentsRevoke', body, {
          actionKey: 'revocation',
          missing: 'MISSING_REVOKE_OR_SIGNATURE',
          params: 'INVALID_REVOKE_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const r = req.revocation;
        const id = await verifyPair(ctx, 'RevokeAgentOrder', r, req.orderHash, req.signature, r.signer, {
          mismatch: 'REVOKE_ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkEoaOnly(r, 'SIGNER_NOT_SENDER');
        limitAgentRoute(r.sender.toLowerCase());
        const cur = ctx.ledger.state.agents.get(r.sender.toLowerCase());
        if (cur === undefined || cur.revoked) return { status: 404, body: { id, status: 'FAIL' } };
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit('revoke', toSignedEntry('RevokeAgentOrder', r, id, req.signature, t), t, r);
        return commit(applied, 202, { id, status: applied.result.status });
      },
    },
    {
      method: 'POST',
      path: '/resolve',
      handler: async ({ body }) => {
        const req = parseRequest('resolve', body, {
          actionKey: 'resolution',
          missing: 'MISSING_ORDER_OR_SIGNATURE',
          params: 'INVALID_RESOLUTION_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const r = req.resolution;
        const id = await verifyPair(ctx, 'ResolutionOrder', r, req.orderHash, req.signature, r.signer, {
          mismatch: 'RESOLVE_ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkRole(r, ctx.resolvers, 'NOT_RESOLVER');
        if (!ctx.markets.has(r.assetId))
          throw badRequest('CANNOT_RESOLVE_ASSET_ID', `Asset ${r.assetId} is not available on this exchange.`);
        const fail = {
          status: 404,
          body: { status: 'FAIL', assetId: r.assetId.toString(), epoch: r.epoch.toString() },
        };
        if (!engine.epochs(r.assetId).includes(r.epoch) || engine.market(r.assetId, r.epoch).resolved) return fail;
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit(
          'resolution',
          toSignedEntry('ResolutionOrder', r, id, req.signature, t),
          t,
          r,
        );
        if (applied.result.status !== 'SUCCESS') return commit(applied, 404, fail.body);
        return commit(applied, 200, {
          status: 'SUCCESS',
          assetId: r.assetId.toString(),
          epoch: r.epoch.toString(),
          price: r.price.toString(),
        });
      },
    },
    {
      method: 'POST',
      path: '/admin/pause',
      handler: async ({ body }) => {
        const req = parseRequest('adminPause', body, {
          actionKey: 'pause',
          missing: 'MISSING_ROLLBACK_OR_SIGNATURE',
          params: 'INVALID_PAUSE_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const p = req.pause;
        const id = await verifyPair(ctx, 'PauseOrder', p, req.orderHash, req.signature, p.signer, {
          mismatch: 'ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkRole(p, ctx.admins, 'NOT_ADMIN');
        if (p.isPause && ctx.ledger.state.paused)
          throw badRequest('CONTRACT_ALREADY_PAUSED', 'The exchange is already paused.');
        if (!p.isPause && !ctx.ledger.state.paused)
          throw badRequest('CONTRACT_NOT_PAUSED', 'The exchange is not paused.');
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit('pause', toSignedEntry('PauseOrder', p, id, req.signature, t), t, p);
        return commit(applied, 202, { status: 'enqueued', orderId: id });
      },
    },
    {
      method: 'POST',
      path: '/admin/invalidate',
      handler: async ({ body }) => {
        const req = parseRequest('adminInvalidate', body, {
          actionKey: 'invalidate',
          missing: 'MISSING_ROLLBACK_OR_SIGNATURE',
          params: 'INVALID_INVALIDATE_PARAMETERS',
        });
        checkChainId(req.chainId, ctx);
        const v = req.invalidate;
        const id = await verifyPair(ctx, 'InvalidateOrder', v, req.orderHash, req.signature, v.signer, {
          mismatch: 'ORDER_HASH_MISMATCH',
          signature: 'INVALID_SIGNATURE',
        });
        checkNotProcessed(ctx, id);
        checkRole(v, ctx.admins, 'NOT_ADMIN');
        if (!ctx.ledger.state.paused)
          throw badRequest('CONTRACT_NOT_PAUSED', 'Transactions can be invalidated only while the exchange is paused.');
        if (v.id === 0n || ctx.ledger.state.invalidated.has(v.id.toString()))
          throw badRequest('INVALID_TX_ID', 'id must be a non-zero transaction id that is not invalidated yet.');
        const t = ctx.nowMs();
        const applied = ctx.ledger.submit(
          'invalidate',
          toSignedEntry('InvalidateOrder', v, id, req.signature, t),
          t,
          v,
        );
        return commit(applied, 202, { status: 'enqueued', orderId: id });
      },
    },
  ];
}
