/**
 * agents.*: the agent approval of the selected master; approve and revoke are signed by the master
 * (docs/protocol/agents.md).
 */
import type { AgentStatusView, OpenOrderView } from '../../../shared/bridge';
import { toChecksumAddress, type Address, type Hex } from '../../../shared/protocol';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';
import { assertSameFacts, signingFacts } from '../session/signing-facts';
import type { TradingHost } from '../session/host';
import { marketLabel } from '../session/market-name';
import type { TradingSession } from '../session/session';

const masterOf = (session: TradingSession): Address => session.desk.master('Choose the master account first.');

async function statusOf(session: TradingSession, master: Address): Promise<AgentStatusView> {
  const s = await session.reader.getAgentApproval(master);
  return {
    master,
    agent: s.agent === '' ? null : toChecksumAddress(s.agent),
    status: s.status,
    approvalNonce: s.nonce.toString(),
    // The approval nonce is the unix second the approval expires (docs/protocol/choices.md#agent-approval-lifetime).
    expiresAt: s.nonce > 0n ? Number(s.nonce) * 1000 : null,
  };
}

export function agentsHandlers(ctx: CoreContext, trading: TradingHost): AreaHandlers<'agents'> {
  const confirm = (title: string, message: string, detail: string, confirmLabel: string): Promise<boolean> =>
    ctx.dialogs.confirm({ title, message, detail, confirmLabel });

  return {
    'agents.status': async () => {
      const session = await trading.connected();
      const master = session.desk.selection.master;
      return master ? statusOf(session, master as Address) : null;
    },

    'agents.approve': async ({ agent }) => {
      const session = await trading.connected();
      const master = masterOf(session);
      const key = ctx.vault.list().find((k) => k.address.toLowerCase() === agent.toLowerCase());
      if (!key)
        throw new BridgeFailure(
          'keys.not_found',
          `The agent ${agent} is not a key in this vault: create or import it first.`,
        );
      if (key.address.toLowerCase() === master.toLowerCase()) {
        throw new BridgeFailure('agents.agent_is_master', 'The agent must be a different key from the master account.');
      }
      // Always confirmed: an agent can trade the account, so approving one hands out its value.
      session.signers.assertSigningAllowed();
      const facts = signingFacts(
        session.deployment,
        ctx.pinning.pinFor(session.deployment.id),
        session.signers.facts?.chainId,
      );
      const yes = await ctx.dialogs.confirm(
        confirmRequest({
          capability: 'moves-value',
          title: 'Approve agent',
          action: 'Let an agent key trade for this account',
          confirmLabel: 'Approve agent',
          agent: key.address,
          keyLabel: key.label,
          from: master,
          ...facts,
          notes: [
            'The master signs twice: once to approve this agent key, once to send that approval. The agent can then place, cancel and claim for this account, but never withdraw; the approval expires within a few minutes unless renewed.',
          ],
        }),
      );
      if (!yes) return { confirmed: false };
      assertSameFacts(
        facts,
        signingFacts(session.deployment, ctx.pinning.pinFor(session.deployment.id), session.signers.facts?.chainId),
      );
      const r = await session.signers.client(master).approveAgent({ agent: key.address as Address });
      if (r.status !== 'SUCCESS')
        throw new BridgeFailure('agents.approval_failed', 'The exchange did not accept the agent approval; try again.');
      await session.desk.select({ ...session.desk.selection, agent: key.address });
      return { confirmed: true, value: await statusOf(session, master) };
    },

    'agents.revoke': async () => {
      const session = await trading.connected();
      const master = masterOf(session);
      // A revocation stops new actions only: orders the agent already signed stay on the book. Those
      // this app placed are cancelled right after, by the master; the dialog says so beforehand.
      const agentOrders = session.desk.view().openOrders.filter((o) => o.signedBy === 'agent');
      const yes = await confirm(
        'Revoke agent',
        `Stop the agent of ${master} from trading for it?`,
        `The master signs one revocation; the agent key stays in the vault. ${agentOrdersNote(session, agentOrders)}`,
        'Revoke agent',
      );
      if (!yes) return { confirmed: false };
      const r = await session.signers.client(master).revokeAgent();
      if (r.status !== 'SUCCESS')
        throw new BridgeFailure(
          'agents.revoke_failed',
          'The exchange did not accept the revocation: there may be no active agent.',
        );
      if (agentOrders.length > 0) {
        const left = await cancelAgentOrders(session, master, agentOrders);
        ctx.events.emit('notice', {
          level: left === 0 ? 'info' : 'warning',
          message: revokedOrdersText(session, agentOrders, left),
        });
      }
      return { confirmed: true, value: await statusOf(session, master) };
    },
  };
}

/** "BTC 1m #5, ETH 5m #2": the markets a set of orders rest in. */
function marketsOf(session: TradingSession, orders: readonly OpenOrderView[]): string {
  const names = orders.map((o) => {
    const symbol = session.marketSet.entry(BigInt(o.assetId))?.symbol ?? o.assetId;
    return marketLabel(symbol, BigInt(o.assetId), BigInt(o.epoch));
  });
  return [...new Set(names)].join(', ');
}

function ordersWord(n: number): string {
  return `${n} resting order${n === 1 ? '' : 's'}`;
}

/** What the revocation dialog says of the agent's resting orders. */
function agentOrdersNote(session: TradingSession, orders: readonly OpenOrderView[]): string {
  if (orders.length === 0)
    return 'Orders the agent already signed would stay on the book; it has none resting that this app placed.';
  return `Orders the agent already signed stay on the book after a revocation: its ${ordersWord(orders.length)} in ${marketsOf(session, orders)} will be cancelled right after, signed by the master.`;
}

/** Cancels each order with the master's signature; returns how many are still open. */
async function cancelAgentOrders(
  session: TradingSession,
  master: Address,
  orders: readonly OpenOrderView[],
): Promise<number> {
  const cancelled: string[] = [];
  for (const o of orders) {
    try {
      const outcome = await session.signers
        .client(master)
        .cancelOrder({ assetId: BigInt(o.assetId), epoch: BigInt(o.epoch), orderHash: o.orderId as Hex });
      if (outcome.delivery !== 'answered' || outcome.response.status === 'CANCELLED') cancelled.push(o.orderId);
    } catch {
      /* told below: it stays open */
    }
  }
  session.desk.ordersCancelled(cancelled, 'the agent that signed it was revoked');
  await session.desk.refresh();
  return orders.length - cancelled.length;
}

function revokedOrdersText(session: TradingSession, orders: readonly OpenOrderView[], left: number): string {
  const where = marketsOf(session, orders);
  if (left === 0)
    return `Agent revoked. Its ${ordersWord(orders.length)} in ${where} ${orders.length === 1 ? 'was' : 'were'} cancelled by the master.`;
  return `Agent revoked, but ${left} of its ${ordersWord(orders.length)} in ${where} could not be cancelled and may still trade: cancel them in Open orders.`;
}
