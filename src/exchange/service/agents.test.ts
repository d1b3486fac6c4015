import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DigestSigner, Hex } from '../../shared/protocol';
import { startFixture, type Fixture } from '../../../test/support/exchange/test-fixture';
import {
  approveAgentOrder,
  cancelOrder,
  claimOrder,
  fillOrder,
  revokeAgentOrder,
  signedBody,
} from '../../../test/support/exchange/testkit';

let fx: Fixture;
const C = 1_000_000n;
type Body = Record<string, unknown>;

beforeAll(async () => {
  fx = await startFixture({ agentLifetimeSec: 3600 });
  await fx.svc.credit(fx.keys.alice.address, 100n * C);
});
afterAll(() => fx.close());
afterEach(() => {
  expect(fx.svc.checkInvariants()).toEqual([]);
});

const nowSec = () => BigInt(Math.floor(fx.clock.now / 1000));
const status = (master: string) => fx.http.get<Body>(`/agents/status/${master}`);
const approve = (master: DigestSigner, agent: string, approvalNonce: bigint, signWith = master) =>
  fx.http.post<Body>(
    '/agents/approve',
    signedBody(
      'agentsApprove',
      approveAgentOrder({ key: master }, agent as Hex, approvalNonce, fx.svc.domain),
      fx.svc.domain,
      signWith,
    ),
  );
const revoke = (master: DigestSigner) =>
  fx.http.post<Body>(
    '/agents/revoke',
    signedBody('agentsRevoke', revokeAgentOrder({ key: master }), fx.svc.domain, master),
  );
const agentOrder = (agent: DigestSigner, approvalNonce: bigint, master = fx.keys.alice) =>
  fx.http.post<Body>(
    '/orders',
    signedBody(
      'orders',
      fillOrder(
        { key: agent, sender: master.address, approvalNonce },
        { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 100_000n, size: C },
      ),
      fx.svc.domain,
      agent,
    ),
  );

describe('agent approvals', () => {
  it('validates the approval request', async () => {
    const { alice, agent, bob } = fx.keys;
    expect(await approve(alice, agent.address, nowSec() + 10n)).toMatchObject({
      status: 400,
      body: { error: 'NONCE_IN_THE_PAST' },
    });
    expect(await approve(alice, agent.address, nowSec() + 300n)).toMatchObject({
      status: 400,
      body: { error: 'NONCE_TOO_FAR_IN_FUTURE' },
    });
    expect(await approve(alice, alice.address, nowSec() + 100n)).toMatchObject({
      status: 400,
      body: { error: 'AGENT_CANNOT_APPROVE_ITSELF' },
    });
    // Inner approval signed by bob, outer by alice: the inner signature is not the master's.
    const action = {
      ...approveAgentOrder({ key: bob }, agent.address, nowSec() + 100n, fx.svc.domain),
      signer: alice.address,
      sender: alice.address,
    };
    expect(
      await fx.http.post('/agents/approve', signedBody('agentsApprove', action, fx.svc.domain, alice)),
    ).toMatchObject({ status: 401, body: { error: 'INVALID_APPROVAL_SIGNATURE' } });
    const tampered = signedBody(
      'agentsApprove',
      approveAgentOrder({ key: alice }, agent.address, nowSec() + 100n, fx.svc.domain),
      fx.svc.domain,
      alice,
    );
    expect(await fx.http.post('/agents/approve', { ...tampered, orderHash: `0x${'11'.repeat(32)}` })).toMatchObject({
      status: 401,
      body: { error: 'APPROVE_AGENT_ORDER_HASH_MISMATCH' },
    });
    expect(await revoke(alice)).toMatchObject({ status: 404, body: { status: 'FAIL' } });
    expect((await status(alice.address)).body).toEqual({ agent: '', nonce: '0', status: 'inactive' });
  });

  it('approves, trades as the agent, rejects wrong agents and nonces, expires and revokes', async () => {
    const { alice, agent, agent2 } = fx.keys;
    const n = nowSec() + 150n;
    const ok = await approve(alice, agent.address, n);
    expect(ok).toMatchObject({ status: 202, body: { status: 'SUCCESS' } });
    expect(await status(alice.address)).toEqual({
      status: 202,
      body: { agent: agent.address.toLowerCase(), nonce: n.toString(), status: 'active' },
    });
    // An older approval than the one in force: FAIL with the normal body.
    expect(await approve(alice, agent2.address, n - 1n)).toMatchObject({ status: 404, body: { status: 'FAIL' } });

    const placed = await agentOrder(agent, n);
    expect(placed).toMatchObject({ status: 202, body: { status: 'ACCEPTED' } });
    expect(await agentOrder(agent, n + 1n)).toMatchObject({ status: 401, body: { error: 'APPROVAL_NONCE_MISMATCH' } });
    expect(await agentOrder(agent2, n)).toMatchObject({ status: 401, body: { error: 'AGENT_APPROVAL_INACTIVE' } });

    // The agent cancels and claims for the master; claims reach the claim checks (not auth errors).
    const cancel = cancelOrder(
      { key: agent, sender: alice.address, approvalNonce: n },
      { assetId: fx.btc.assetId, epoch: 0n, orderHash: placed.body['orderId'] as Hex },
    );
    expect(await fx.http.post('/cancels', signedBody('cancels', cancel, fx.svc.domain, agent))).toMatchObject({
      status: 202,
      body: { status: 'CANCELLED' },
    });
    const claim = claimOrder(
      { key: agent, sender: alice.address, approvalNonce: n },
      { assetId: fx.btc.assetId, epoch: 0n },
    );
    expect(await fx.http.post('/claim', signedBody('claim', claim, fx.svc.domain, agent))).toMatchObject({
      status: 404,
      body: { error: 'EPOCH_NOT_RESOLVED' },
    });

    // Expiry: lifetime 3600 s after the approvalNonce timestamp.
    const saved = fx.clock.now;
    fx.clock.now = Number(n + 3601n) * 1000;
    expect((await status(alice.address)).body).toMatchObject({ status: 'expired', agent: agent.address.toLowerCase() });
    expect(await agentOrder(agent, n)).toMatchObject({ status: 401, body: { error: 'AGENT_APPROVAL_EXPIRED' } });
    fx.clock.now = saved;

    expect(await revoke(alice)).toMatchObject({ status: 202, body: { status: 'SUCCESS' } });
    expect((await status(alice.address)).body).toEqual({ agent: '', nonce: '0', status: 'inactive' });
    expect(await agentOrder(agent, n)).toMatchObject({ status: 401, body: { error: 'AGENT_APPROVAL_INACTIVE' } });
    expect(await revoke(alice)).toMatchObject({ status: 404, body: { status: 'FAIL' } });

    // Replacing: a new approval for agent2 makes agent inactive.
    const n2 = nowSec() + 200n;
    expect(await approve(alice, agent2.address, n2)).toMatchObject({ status: 202 });
    expect(await agentOrder(agent2, n2)).toMatchObject({ status: 202 });
    expect(await agentOrder(agent, n2)).toMatchObject({ status: 401, body: { error: 'AGENT_APPROVAL_INACTIVE' } });
  });

  it('refuses agent signatures on approve and revoke', async () => {
    const { alice, agent } = fx.keys;
    const revocation = { ...revokeAgentOrder({ key: agent, sender: alice.address }) };
    expect(
      await fx.http.post('/agents/revoke', signedBody('agentsRevoke', revocation, fx.svc.domain, agent)),
    ).toMatchObject({ status: 400, body: { error: 'UNSUPPORTED_SIGNATURE_TYPE' } });
    const eoaMismatch = { ...revokeAgentOrder({ key: agent, sender: alice.address, signatureType: 0n }) };
    expect(
      await fx.http.post('/agents/revoke', signedBody('agentsRevoke', eoaMismatch, fx.svc.domain, agent)),
    ).toMatchObject({ status: 400, body: { error: 'SIGNER_NOT_SENDER' } });
  });
});
