/**
 * agents.*: the agent approval of the selected master; approve and revoke are signed by the master
 * (docs/protocol/agents.md).
 */
import type { AgentStatusView } from '../../../shared/bridge';
import { toChecksumAddress, type Address } from '../../../shared/protocol';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../confirm-text';
import type { CoreContext } from '../context';
import { assertSameFacts, signingFacts } from '../session/signing-facts';
import type { TradingHost } from '../session/host';
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
      const yes = await confirm(
        'Revoke agent',
        `Stop the agent of ${master} from trading for it?`,
        'The master signs one revocation; the agent key stays in the vault.',
        'Revoke agent',
      );
      if (!yes) return { confirmed: false };
      const r = await session.signers.client(master).revokeAgent();
      if (r.status !== 'SUCCESS')
        throw new BridgeFailure(
          'agents.revoke_failed',
          'The exchange did not accept the revocation: there may be no active agent.',
        );
      return { confirmed: true, value: await statusOf(session, master) };
    },
  };
}
