/**
 * offline.sign / describe / submit: one of a fixed set of actions signed with no network over the
 * pinned (or an explicitly given) domain; a payload checked and described in words; and a
 * previously signed payload sent as is.
 */
import type { OfflineAction, PayloadDescription, SignedPayload } from '../../../shared/bridge';
import { signedPayload } from '../../../shared/bridge';
import {
  REQUEST_KINDS,
  ZERO_HASH,
  formatAmount,
  formatPrice,
  formatSize,
  hashAction,
  makeExchangeDomain,
  parseSignedRequest,
  recoverDigestSigner,
  type Address,
  type ExchangeDomain,
  type Hex,
  type PrimaryType,
} from '../../../shared/protocol';
import {
  ExchangeClient,
  buildSignedCancelAll,
  buildSignedClaim,
  buildSignedOrder,
  buildSignedRevokeAgent,
  buildSignedWithdrawal,
  toExchangeError,
  type SignedAction,
  type SigningContext,
} from '../../exchange';
import { BridgeFailure } from '../../window/bridge-host';
import type { AreaHandlers, CoreContext } from '../context';
import type { TradingHost } from '../session/host';
import { vaultSigner } from '../session/vault-signer';

type PayloadKind = SignedPayload['kind'];
type DomainFacts = SignedPayload['domain'];

const FORMAT = 'exchange-terminal/signed-request@1' as const;

/** The JSON key each kind's action sits under (§6.2). */
const ACTION_KEY: Readonly<Record<PayloadKind, string>> = {
  orders: 'order',
  cancels: 'cancel',
  claim: 'claim',
  withdrawals: 'withdrawal',
  agentsRevoke: 'revocation',
};

function domainOf(f: DomainFacts): Readonly<ExchangeDomain> {
  return makeExchangeDomain({ chainId: BigInt(f.chainId), verifyingContract: f.verifyingContract as Address, name: f.domainName });
}

function sameFacts(a: DomainFacts, b: DomainFacts): boolean {
  return a.chainId === b.chainId && a.verifyingContract.toLowerCase() === b.verifyingContract.toLowerCase() && a.domainName === b.domainName;
}

function invalid(sentence: string): BridgeFailure {
  return new BridgeFailure('offline.invalid_payload', sentence);
}

async function build(ctx: SigningContext, action: OfflineAction, ledger: Address | undefined): Promise<SignedAction<PayloadKind>> {
  switch (action.kind) {
    case 'order':
      return buildSignedOrder(ctx, { assetId: BigInt(action.assetId), epoch: BigInt(action.epoch), side: action.side, price: action.price, size: action.size, timeInForce: action.timeInForce });
    case 'cancelAll':
      return buildSignedCancelAll(ctx, { assetId: BigInt(action.assetId), epoch: BigInt(action.epoch) });
    case 'claim':
      return buildSignedClaim(ctx, { assetId: BigInt(action.assetId), epoch: BigInt(action.epoch) });
    case 'withdrawal':
      if (!ledger) throw new BridgeFailure('offline.no_ledger', 'The account ledger of this deployment is not known yet: connect once before signing a withdrawal offline.');
      return buildSignedWithdrawal(ctx, { amount: action.amount, ledger, ...(action.receiver ? { receiver: action.receiver as Address } : {}) });
    case 'revokeAgent':
      return buildSignedRevokeAgent(ctx);
  }
}

/** Human lines for one parsed action. */
function describeAction(kind: PayloadKind, a: Record<string, unknown>): string[] {
  const big = (k: string): bigint => a[k] as bigint;
  const market = (): string => `asset ${String(a['assetId'])} epoch ${String(a['epoch'])}`;
  switch (kind) {
    case 'orders': {
      const tif = ['GTC', 'FOK', 'IOC', 'ALO'][Number(big('timeInForce'))] ?? String(a['timeInForce']);
      return [`${a['side'] ? 'Sell' : 'Buy'} ${formatSize(big('size'))} contracts at ${formatPrice(big('price'))}¢ (${tif}) on ${market()}`];
    }
    case 'cancels':
      return a['orderHash'] === ZERO_HASH ? [`Cancel every order on ${market()}`] : [`Cancel order ${String(a['orderHash'])} on ${market()}`];
    case 'claim':
      return [`Claim the payout of ${market()}`];
    case 'withdrawals':
      return [`Withdraw ${formatAmount(big('amount'))} to ${String(a['receiver'])}`, `Account ledger ${String(a['ledger'])}`];
    case 'agentsRevoke':
      return ['Revoke the current agent approval'];
  }
}

function parsePayload(value: unknown): SignedPayload {
  const r = signedPayload.safeParse(value);
  if (!r.success) throw invalid('This is not a signed request saved by Exchange Terminal (its envelope does not match).');
  return r.data;
}

export function offlineHandlers(ctx: CoreContext, trading: TradingHost): Pick<AreaHandlers<'offline'>, 'offline.sign' | 'offline.describe' | 'offline.submit'> {
  const pinnedFacts = (): DomainFacts | null => {
    const id = ctx.settings.getSettings().selectedDeploymentId;
    const pin = ctx.pinning.pinFor(id);
    return pin ? { chainId: pin.chainId, verifyingContract: pin.verifyingContract, domainName: pin.domainName } : null;
  };

  return {
    'offline.sign': async ({ signer, domain, action }) => {
      const key = ctx.vault.list().find((k) => k.address.toLowerCase() === signer.toLowerCase());
      if (!key) throw new BridgeFailure('keys.not_found', `No key for ${signer} is in this vault.`);
      const pinned = pinnedFacts();
      const facts = domain ?? pinned;
      if (!facts) throw new BridgeFailure('offline.no_domain', 'This deployment has no pinned signing domain yet: connect once or give the domain explicitly.');
      const id = ctx.settings.getSettings().selectedDeploymentId;
      // The pinned domain is only used while the user trusts it; an explicit one is the user's own choice.
      if (!domain) ctx.pinning.assertSigningAllowed(id);
      let ledger: Address | undefined;
      try {
        ledger = trading.session().facts?.contracts.ledger;
      } catch {
        ledger = undefined;
      }
      const signing: SigningContext = { signer: vaultSigner(ctx.vault, key.address), domain: domainOf(facts) };
      let signed: SignedAction<PayloadKind>;
      try {
        signed = await build(signing, action, ledger);
      } catch (error) {
        if (error instanceof BridgeFailure) throw error;
        throw toExchangeError(error);
      }
      return {
        format: FORMAT,
        kind: signed.kind,
        path: REQUEST_KINDS[signed.kind].path,
        domain: { chainId: facts.chainId, verifyingContract: facts.verifyingContract, domainName: facts.domainName },
        signedAt: new Date().toISOString(),
        body: signed.body,
      };
    },

    'offline.describe': (value): PayloadDescription => {
      const payload = parsePayload(value);
      const kind = payload.kind;
      let request: Record<string, unknown>;
      try {
        request = parseSignedRequest(kind, payload.body) as unknown as Record<string, unknown>;
      } catch (error) {
        throw invalid(`The signed request inside is malformed: ${error instanceof Error ? error.message : 'unreadable'}.`);
      }
      const action = request[ACTION_KEY[kind]] as Record<string, unknown>;
      const primaryType = REQUEST_KINDS[kind].primaryType as PrimaryType;
      const warnings: string[] = [];
      const domain = domainOf(payload.domain);
      const digest = hashAction(primaryType, action as never, domain);
      const orderHash = request['orderHash'] as Hex;
      if (digest.toLowerCase() !== orderHash.toLowerCase()) warnings.push('The orderHash in the file is not the digest of its action over its domain.');
      if (request['chainId'] !== domain.chainId) warnings.push(`The request names chain ${String(request['chainId'])} but the envelope's domain is chain ${domain.chainId}.`);
      if (payload.path !== REQUEST_KINDS[kind].path) warnings.push(`The envelope says it goes to ${payload.path}, but a ${kind} request goes to ${REQUEST_KINDS[kind].path}.`);
      let recovered = '';
      try {
        recovered = recoverDigestSigner(digest, request['signature'] as Hex);
      } catch {
        warnings.push('The signature cannot be recovered.');
      }
      const signer = action['signer'] as string;
      const signatureValid = recovered.toLowerCase() === signer.toLowerCase() && digest.toLowerCase() === orderHash.toLowerCase();
      if (!signatureValid) warnings.push('The signature was not made by the signer it names.');
      const pinned = pinnedFacts();
      const matches = pinned ? sameFacts(pinned, payload.domain) : null;
      if (matches === false) warnings.push('It was signed for a different domain than the selected deployment: the exchange will refuse it.');
      return { kind, signer, sender: action['sender'] as string, lines: describeAction(kind, action), digest, signatureValid, domainMatchesDeployment: matches, warnings };
    },

    'offline.submit': async (payload) => {
      const checked = parsePayload(payload);
      const session = await trading.connected();
      const pinned = pinnedFacts();
      if (!pinned || !sameFacts(pinned, checked.domain)) {
        throw new BridgeFailure('offline.domain_mismatch', `This request was signed for a different domain than ${session.deployment.name}, so the exchange would refuse it.`);
      }
      const client = new ExchangeClient({ baseUrl: session.deployment.httpUrl, deployment: () => session.signingContext() });
      const r = (await client.submitSigned(checked.kind, checked.body)) as { status: string };
      await session.refreshAccount();
      return { status: r.status, summary: `${REQUEST_KINDS[checked.kind].path} answered ${r.status}` };
    },
  };
}
