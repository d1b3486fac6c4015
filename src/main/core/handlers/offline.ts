/**
 * offline.sign / describe / submit: one of a fixed set of actions signed with no network under the
 * pinned domain of the selected deployment (never one the window names); a payload checked and
 * described in words; and a previously signed payload sent as is. Anything but orders and cancels
 * is confirmed in main's dialog when it is signed and again when it is sent; orders pass the order
 * gate (risk/order-gate.ts) when signed and again when sent.
 */
import type { OfflineAction, PayloadDescription, SignedPayload } from '../../../shared/bridge';
import { signedPayload } from '../../../shared/bridge';
import {
  REQUEST_KINDS,
  describeMarketByFacts,
  ZERO_HASH,
  formatDollars,
  formatCents,
  formatSize,
  hashAction,
  makeExchangeDomain,
  parseSignedRequest,
  recoverDigestSigner,
  toChecksumAddress,
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
  toAmount,
  toExchangeError,
  type SignedAction,
  type SigningContext,
} from '../../../client';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';
import type { ConfirmRequest } from '../dialogs/dialogs';
import { assertSameFacts, selectedSigningFacts, type SigningFacts } from '../session/signing-facts';
import type { TradingHost } from '../session/host';
import { vaultSigner } from '../session/vault-signer';
import type { Passed } from '../risk/order-gate';
import { hostGateView, passOrderStruct } from '../risk/signed-orders';
import { parseTicket } from '../trading-math/order-math';

type PayloadKind = SignedPayload['kind'];
type DomainFacts = SignedPayload['domain'];

const FORMAT = 'exchange-terminal/signed-request@1' as const;

/** The JSON key each kind's action sits under (docs/protocol/signing.md#action-catalogue). */
const ACTION_KEY: Readonly<Record<PayloadKind, string>> = {
  orders: 'order',
  cancels: 'cancel',
  claim: 'claim',
  withdrawals: 'withdrawal',
  agentsRevoke: 'revocation',
};

function domainOf(f: DomainFacts): Readonly<ExchangeDomain> {
  return makeExchangeDomain({
    chainId: BigInt(f.chainId),
    verifyingContract: f.verifyingContract as Address,
    name: f.domainName,
  });
}

function sameFacts(a: DomainFacts, b: DomainFacts): boolean {
  return (
    a.chainId === b.chainId &&
    a.verifyingContract.toLowerCase() === b.verifyingContract.toLowerCase() &&
    a.domainName === b.domainName
  );
}

function invalid(sentence: string): BridgeFailure {
  return new BridgeFailure('offline.invalid_payload', sentence);
}

async function build(
  ctx: SigningContext,
  action: OfflineAction,
  ledger: Address | undefined,
): Promise<SignedAction<PayloadKind>> {
  switch (action.kind) {
    case 'order':
      return buildSignedOrder(ctx, {
        assetId: BigInt(action.assetId),
        epoch: BigInt(action.epoch),
        side: action.side,
        price: action.price,
        size: action.size,
        timeInForce: action.timeInForce,
      });
    case 'cancelAll':
      return buildSignedCancelAll(ctx, { assetId: BigInt(action.assetId), epoch: BigInt(action.epoch) });
    case 'claim':
      return buildSignedClaim(ctx, { assetId: BigInt(action.assetId), epoch: BigInt(action.epoch) });
    case 'withdrawal':
      if (!ledger)
        throw new BridgeFailure(
          'offline.no_ledger',
          'The account ledger of this deployment is not known yet: connect once before signing a withdrawal offline.',
        );
      return buildSignedWithdrawal(ctx, {
        amount: action.amount,
        ledger,
        ...(action.receiver ? { receiver: action.receiver as Address } : {}),
      });
    case 'revokeAgent':
      return buildSignedRevokeAgent(ctx);
  }
}

/** Human lines for one parsed action. */
function describeAction(kind: PayloadKind, a: Record<string, unknown>): string[] {
  const big = (k: string): bigint => a[k] as bigint;
  const market = (): string => describeMarketByFacts(a['assetId'] as bigint, a['epoch'] as bigint);
  switch (kind) {
    case 'orders': {
      const tif = ['GTC', 'FOK', 'IOC', 'ALO'][Number(big('timeInForce'))] ?? String(a['timeInForce']);
      return [
        `${a['side'] ? 'Sell' : 'Buy'} ${formatSize(big('size'))} contracts at ${formatCents(big('price'))} (${tif}) on ${market()}`,
      ];
    }
    case 'cancels':
      return a['orderHash'] === ZERO_HASH
        ? [`Cancel every order on ${market()}`]
        : [`Cancel order ${String(a['orderHash'])} on ${market()}`];
    case 'claim':
      return [`Claim the payout of ${market()}`];
    case 'withdrawals':
      return [
        `Withdraw ${formatDollars(big('amount'))} to ${String(a['receiver'])}`,
        `Account ledger ${String(a['ledger'])}`,
      ];
    case 'agentsRevoke':
      return ['Revoke the current agent approval'];
  }
}

function parsePayload(value: unknown): SignedPayload {
  const r = signedPayload.safeParse(value);
  if (!r.success)
    throw invalid('This is not a signed request saved by Exchange Terminal (its envelope does not match).');
  return r.data;
}

/** The signed request inside an envelope, parsed at the edge. */
function parseOrThrow(payload: SignedPayload): Record<string, unknown> {
  try {
    return parseSignedRequest(payload.kind, payload.body) as unknown as Record<string, unknown>;
  } catch (error) {
    throw invalid(`The signed request inside is malformed: ${error instanceof Error ? error.message : 'unreadable'}.`);
  }
}

/** The order gate for an order this machine signs for another to send (the signer trades for itself). */
function passOfflineOrder(
  ctx: CoreContext,
  trading: TradingHost,
  signer: Address,
  action: Extract<OfflineAction, { kind: 'order' }>,
): Promise<Passed> {
  const t = parseTicket(action);
  return ctx.orderGate.pass(
    {
      path: 'offline-sign',
      signer,
      master: signer,
      role: 'master',
      assetId: BigInt(action.assetId),
      epoch: BigInt(action.epoch),
      sell: t.sell,
      price: t.price,
      size: t.size,
      timeInForce: action.timeInForce,
      signsHere: true,
    },
    hostGateView(trading),
  );
}

/** What main shows before it signs or sends anything offline that is not an order or a cancel. */
interface OfflineDialogFacts {
  readonly stage: 'sign' | 'submit';
  readonly kind: PayloadKind;
  readonly signer: string;
  readonly amount?: bigint;
  readonly receiver?: string;
  readonly lines: readonly string[];
  readonly signing: SigningFacts;
}

const OFFLINE_WHAT: Readonly<Record<PayloadKind, string>> = {
  orders: 'an order',
  cancels: 'a cancel',
  claim: 'a claim',
  withdrawals: 'a withdrawal',
  agentsRevoke: 'an agent revocation',
};

function offlineRequest(f: OfflineDialogFacts): ConfirmRequest {
  const what = OFFLINE_WHAT[f.kind];
  return confirmRequest({
    capability: 'moves-value',
    title: f.stage === 'sign' ? 'Sign offline' : 'Send a signed request',
    action:
      f.stage === 'sign' ? `Sign ${what} for another machine to send` : `Send ${what} signed earlier to the exchange`,
    confirmLabel: f.stage === 'sign' ? 'Sign' : 'Send',
    ...(f.amount === undefined ? {} : { amount: { units: f.amount } }),
    ...(f.receiver === undefined ? {} : { receiver: f.receiver }),
    from: f.signer,
    ...f.signing,
    notes: [
      ...f.lines,
      f.stage === 'sign'
        ? 'Whoever holds the signed file can send it to the exchange.'
        : 'Once sent, the exchange carries it out.',
    ],
  });
}

/**
 * Everything but orders and cancels is confirmed in main's dialog, when signed and when sent; orders
 * pass the order gate instead (its dialog when the user confirms orders, a guard breaks, or the
 * account cannot be read here), and cancels stay one step.
 */
function needsDialog(kind: PayloadKind): boolean {
  return kind !== 'orders' && kind !== 'cancels';
}

const KIND_OF: Readonly<Record<OfflineAction['kind'], PayloadKind>> = {
  order: 'orders',
  cancelAll: 'cancels',
  claim: 'claim',
  withdrawal: 'withdrawals',
  revokeAgent: 'agentsRevoke',
};

export function offlineHandlers(
  ctx: CoreContext,
  trading: TradingHost,
): Pick<AreaHandlers<'offline'>, 'offline.sign' | 'offline.describe' | 'offline.submit'> {
  const pinnedFacts = (): DomainFacts | null => {
    const id = ctx.settings.getSettings().selectedDeploymentId;
    const pin = ctx.pinning.pinFor(id);
    return pin ? { chainId: pin.chainId, verifyingContract: pin.verifyingContract, domainName: pin.domainName } : null;
  };
  /** The selected deployment's pinned domain, after every check that applies to a signature. */
  const signingNow = (): SigningFacts => selectedSigningFacts(ctx, trading.facts()?.chainId);

  return {
    'offline.sign': async ({ signer, action }) => {
      const key = ctx.vault.list().find((k) => k.address.toLowerCase() === signer.toLowerCase());
      if (!key) throw new BridgeFailure('keys.not_found', `No key for ${signer} is in this vault.`);
      // Only ever the pinned domain of the selected deployment: no argument can name another.
      const facts = signingNow();
      const ledger = trading.facts()?.contracts.ledger;
      const kind = KIND_OF[action.kind];
      if (needsDialog(kind)) {
        const amount = action.kind === 'withdrawal' ? toAmount(action.amount) : undefined;
        if (action.kind === 'withdrawal' && !ledger) {
          throw new BridgeFailure(
            'offline.no_ledger',
            'The account ledger of this deployment is not known yet: connect once before signing a withdrawal offline.',
          );
        }
        const lines =
          action.kind === 'claim'
            ? [`Claim the payout of asset ${action.assetId} epoch ${action.epoch}.`]
            : action.kind === 'revokeAgent'
              ? ['Revoke the current agent approval of this account.']
              : [];
        const yes = await ctx.dialogs.confirm(
          offlineRequest({
            stage: 'sign',
            kind,
            signer: key.address,
            ...(amount === undefined
              ? {}
              : { amount, receiver: action.kind === 'withdrawal' ? (action.receiver ?? key.address) : key.address }),
            lines: [
              ...lines,
              ...(action.kind === 'withdrawal' && ledger
                ? [`The withdrawal names the account ledger ${toChecksumAddress(ledger)}.`]
                : []),
            ],
            signing: facts,
          }),
        );
        if (!yes) return { confirmed: false };
        assertSameFacts(facts, signingNow());
      }
      const domain: DomainFacts = {
        chainId: facts.chainId,
        verifyingContract: facts.verifyingContract,
        domainName: facts.domainName,
      };
      // An order handed out signed is an order: the same gate as one sent from here, then the same facts.
      const passed =
        action.kind === 'order' ? await passOfflineOrder(ctx, trading, key.address as Address, action) : null;
      if (passed) assertSameFacts(facts, signingNow());
      const signing: SigningContext = {
        signer: vaultSigner(ctx.vault, key.address, ctx.clearances),
        domain: domainOf(domain),
      };
      let signed: SignedAction<PayloadKind>;
      try {
        signed = await build(signing, action, ledger);
      } catch (error) {
        if (error instanceof BridgeFailure) throw error;
        throw toExchangeError(error);
      } finally {
        passed?.release();
      }
      return {
        confirmed: true,
        value: {
          format: FORMAT,
          kind: signed.kind,
          path: REQUEST_KINDS[signed.kind].path,
          domain,
          signedAt: new Date().toISOString(),
          body: signed.body,
        },
      };
    },

    'offline.describe': (value): PayloadDescription => {
      const payload = parsePayload(value);
      const kind = payload.kind;
      const request = parseOrThrow(payload);
      const action = request[ACTION_KEY[kind]] as Record<string, unknown>;
      const primaryType = REQUEST_KINDS[kind].primaryType as PrimaryType;
      const warnings: string[] = [];
      const domain = domainOf(payload.domain);
      const digest = hashAction(primaryType, action as never, domain);
      const orderHash = request['orderHash'] as Hex;
      if (digest.toLowerCase() !== orderHash.toLowerCase())
        warnings.push('The orderHash in the file is not the digest of its action over its domain.');
      if (request['chainId'] !== domain.chainId)
        warnings.push(
          `The request names chain ${String(request['chainId'])} but the envelope's domain is chain ${domain.chainId}.`,
        );
      if (payload.path !== REQUEST_KINDS[kind].path)
        warnings.push(
          `The envelope says it goes to ${payload.path}, but a ${kind} request goes to ${REQUEST_KINDS[kind].path}.`,
        );
      let recovered = '';
      try {
        recovered = recoverDigestSigner(digest, request['signature'] as Hex);
      } catch {
        warnings.push('The signature cannot be recovered.');
      }
      const signer = action['signer'] as string;
      const signatureValid =
        recovered.toLowerCase() === signer.toLowerCase() && digest.toLowerCase() === orderHash.toLowerCase();
      if (!signatureValid) warnings.push('The signature was not made by the signer it names.');
      const pinned = pinnedFacts();
      const matches = pinned ? sameFacts(pinned, payload.domain) : null;
      if (matches === false)
        warnings.push(
          'It was signed for a different domain than the selected deployment: the exchange will refuse it.',
        );
      return {
        kind,
        signer,
        sender: action['sender'] as string,
        lines: describeAction(kind, action),
        digest,
        signatureValid,
        domainMatchesDeployment: matches,
        warnings,
      };
    },

    'offline.submit': async (payload) => {
      const checked = parsePayload(payload);
      const session = await trading.connected();
      const pinned = pinnedFacts();
      if (!pinned || !sameFacts(pinned, checked.domain)) {
        throw new BridgeFailure(
          'offline.domain_mismatch',
          `This request was signed for a different domain than ${session.deployment.name}, so the exchange would refuse it.`,
        );
      }
      if (needsDialog(checked.kind)) {
        const facts = signingNow();
        const request = parseOrThrow(checked);
        const action = request[ACTION_KEY[checked.kind]] as Record<string, unknown>;
        const withdrawal = checked.kind === 'withdrawals';
        const yes = await ctx.dialogs.confirm(
          offlineRequest({
            stage: 'submit',
            kind: checked.kind,
            signer: action['signer'] as string,
            ...(withdrawal ? { amount: action['amount'] as bigint, receiver: action['receiver'] as string } : {}),
            lines: describeAction(checked.kind, action),
            signing: facts,
          }),
        );
        if (!yes) return { confirmed: false };
      }
      const passed =
        checked.kind === 'orders'
          ? await passOrderStruct(
              ctx,
              trading,
              'offline-send',
              parseOrThrow(checked)['order'] as Record<string, unknown>,
            )
          : null;
      const client = new ExchangeClient({
        baseUrl: session.deployment.httpUrl,
        deployment: () => session.signers.signingContext(),
      });
      try {
        const r = (await client.submitSigned(checked.kind, checked.body)) as { status: string };
        await session.desk.refresh();
        return { confirmed: true, value: { status: r.status } };
      } finally {
        // The order's reservation ends once the account was read with the exchange's answer in it.
        passed?.release();
      }
    },
  };
}
