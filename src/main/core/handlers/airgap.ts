/**
 * airgap.*: watch-only accounts and the air-gapped round trip (docs/airgap.md). The online machine
 * prepares, keeps and sends; the signing machine reads, pins (only through main's dialog) and signs.
 * Nothing the window sends names a domain, chain or contract.
 */
import type { PendingRequestView } from '../../../shared/bridge/airgap';
import { toChecksumAddress, type Address } from '../../../shared/protocol';
import {
  ExchangeClient,
  toExchangeError,
  REQUEST_KIND_OF,
  describeRequest,
  signUnsignedRequest,
  toSignedAction,
  type UnsignedRequest,
} from '../../../client';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';
import type { AirgapQrMethod } from './airgap-qr';
import type { ConfirmRequest } from '../dialogs/dialogs';
import type { TradingHost } from '../session/host';
import { vaultSigner } from '../session/vault-signer';
import { passOrderStruct } from '../risk/signed-orders';
import { airgapFailure, receiveEnvelope } from '../airgap/inbox';
import { envelopeText } from '../airgap/outbox';
import { domainPinnedHere, pinDomainRequest } from '../airgap/pins';
import { draftAction } from '../airgap/prepare';
import { pendingView, receivedView } from '../airgap/words';

const MAX_FILE_CHARS = 1024 * 1024;

/** Main's dialog before this machine signs, or before the online machine sends, anything that moves value. */
function roundTripRequest(request: UnsignedRequest, stage: 'sign' | 'send'): ConfirmRequest {
  const d = describeRequest(request);
  const w = request.kind === 'withdrawal' ? request.withdrawal : null;
  return confirmRequest({
    capability: 'moves-value',
    title: stage === 'sign' ? 'Sign for another machine' : 'Send a request signed offline',
    action:
      stage === 'sign'
        ? `Sign a request another machine prepared: ${d.title.toLowerCase()}`
        : `Send a request signed on another machine: ${d.title.toLowerCase()}`,
    confirmLabel: stage === 'sign' ? 'Sign' : 'Send',
    ...(w ? { amount: { units: w.amount }, receiver: w.receiver } : {}),
    ...(request.kind === 'agent-approval' ? { agent: request.approval.agent } : {}),
    from: request.signer,
    chainId: request.domain.chainId,
    verifyingContract: request.domain.verifyingContract,
    domainName: request.domain.name,
    notes: [
      ...d.lines,
      `Fingerprint: ${request.fingerprint}. The other machine shows the same for the same request.`,
      stage === 'sign'
        ? 'Whoever holds the signed response can send it to the exchange.'
        : 'Once sent, the exchange carries it out.',
    ],
  });
}

/** The request's fingerprint, which the other machine shows for the same request. */
function fingerprintNote(request: UnsignedRequest): string[] {
  return [`Fingerprint: ${request.fingerprint}. The other machine shows the same for the same request.`];
}

/** The order a request signs or sends: a new order, or the replacement of an edit. */
function orderStructOf(request: UnsignedRequest): Readonly<Record<string, unknown>> | null {
  if (request.kind === 'order') return request.order;
  if (request.kind === 'cancel-replace') return request.replacement;
  return null;
}

function isHeld(ctx: CoreContext, address: string): boolean {
  return ctx.vault.list().some((k) => k.address.toLowerCase() === address.toLowerCase());
}

/** Every airgap.* method but the QR transport's (handlers/airgap-qr.ts). */
export function airgapHandlers(ctx: CoreContext, trading: TradingHost): Omit<AreaHandlers<'airgap'>, AirgapQrMethod> {
  const { airgap: book, dialogs } = ctx;
  const receivedEntry = (id: string) => {
    const entry = book.receivedById(id);
    if (!entry) throw new BridgeFailure('airgap.not_found', 'No request with that id was opened on this machine.');
    return entry;
  };

  return {
    'airgap.watchList': () => ctx.vault.watchOnly.list(),
    'airgap.watchAdd': ({ address, label }) => ctx.vault.watchOnly.add(address, label, isHeld(ctx, address)),
    'airgap.watchRemove': (address) => ctx.vault.watchOnly.remove(address),

    'airgap.prepare': async ({ master, action }): Promise<PendingRequestView> => {
      if (!ctx.vault.watchOnly.has(master))
        throw new BridgeFailure(
          'airgap.not_watch_only',
          `${toChecksumAddress(master)} is not a watch-only account here: sign with its key instead.`,
        );
      let request: UnsignedRequest;
      try {
        // The exchange's time (the wall clock corrected by the session's measured offset) dates an agent approval.
        const exchangeNowMs = Date.now() + (trading.clockOffsetMs() ?? 0);
        request = await draftAction(ctx, master as Address, action, {
          ledger: trading.facts()?.contracts.ledger,
          chainId: trading.facts()?.chainId,
          exchangeNowMs,
        });
      } catch (error) {
        if (error instanceof BridgeFailure) throw error;
        try {
          airgapFailure(error);
        } catch (failure) {
          if (failure instanceof BridgeFailure) throw failure;
        }
        throw toExchangeError(error);
      }
      const kept = book.addPending(request);
      if (typeof kept === 'string') throw new BridgeFailure('airgap.too_many_pending', kept);
      ctx.logger.info('airgap.prepared', { kind: request.kind });
      return pendingView(kept);
    },
    'airgap.pending': () => book.pending().map(pendingView),
    'airgap.discard': ({ id }) => book.discardPending(id),
    'airgap.received': () => book.received().map((r) => receivedView(r, domainPinnedHere(ctx, r.request))),

    'airgap.envelopeText': ({ kind, id }) => envelopeText(ctx, kind, id),
    'airgap.saveFile': async ({ kind, id }) => {
      const { text, fileName } = envelopeText(ctx, kind, id);
      const path = await dialogs.saveFile({
        title: kind === 'request' ? 'Save unsigned request' : 'Save signed response',
        defaultName: fileName,
        content: text,
      });
      return path === null ? { confirmed: false } : { confirmed: true, value: { path } };
    },
    'airgap.openFile': async () => {
      const text = await dialogs.openFile({ title: 'Open a request or a response' });
      if (text === null) return { confirmed: false };
      if (text.length > MAX_FILE_CHARS)
        throw new BridgeFailure('airgap.ur_oversize', 'This file is too large to be one of ours.');
      return { confirmed: true, value: await receiveEnvelope(ctx, text, 'file', 'file') };
    },
    'airgap.receiveText': ({ text, via }) => receiveEnvelope(ctx, text, via),

    'airgap.pinDomain': async ({ id }) => {
      const entry = receivedEntry(id);
      if (domainPinnedHere(ctx, entry.request)) return { confirmed: true, value: receivedView(entry, true) };
      const yes = await dialogs.confirm(pinDomainRequest(entry.request));
      if (!yes) return { confirmed: false };
      const d = entry.request.domain;
      book.pinSigningDomain({
        chainId: d.chainId.toString(),
        verifyingContract: toChecksumAddress(d.verifyingContract),
        domainName: d.name,
        pinnedAt: new Date(ctx.now()).toISOString(),
      });
      return { confirmed: true, value: receivedView(entry, true) };
    },

    'airgap.sign': async ({ id }) => {
      const entry = receivedEntry(id);
      const request = entry.request;
      if (!isHeld(ctx, request.signer))
        throw new BridgeFailure('airgap.no_key', `The key of ${request.signer} is not in this vault.`);
      if (!domainPinnedHere(ctx, request))
        throw new BridgeFailure(
          'airgap.domain_not_pinned',
          `This machine has never trusted the signing domain of this request (chain ${request.domain.chainId}, contract ${toChecksumAddress(request.domain.verifyingContract)}): trust it first, after checking the fingerprint ${request.fingerprint}. Nothing was signed.`,
        );
      // An order (or an edit's replacement) passes the order gate, whose dialog says what it is;
      // everything else that moves value, or everything when asked, gets the round-trip dialog.
      const order = orderStructOf(request);
      const passed = order ? await passOrderStruct(ctx, trading, 'airgap-sign', order, fingerprintNote(request)) : null;
      if (!passed && (describeRequest(request).movesValue || book.alwaysConfirm())) {
        const yes = await dialogs.confirm(roundTripRequest(request, 'sign'));
        if (!yes) return { confirmed: false };
      }
      try {
        // The wall clock: an expired agent approval is refused before it is signed.
        const response = await signUnsignedRequest(request, vaultSigner(ctx.vault, request.signer, ctx.clearances));
        book.setReceivedResponse(id, response);
      } catch (error) {
        airgapFailure(error);
      } finally {
        passed?.release();
      }
      ctx.logger.info('airgap.signed', { kind: request.kind });
      return { confirmed: true, value: receivedView(receivedEntry(id), true) };
    },

    'airgap.submit': async ({ id }) => {
      const entry = book.pendingById(id);
      if (!entry) throw new BridgeFailure('airgap.not_found', 'No request with that id was prepared on this machine.');
      if (entry.state === 'sent')
        throw new BridgeFailure(
          'airgap.replayed',
          `This request (${entry.request.fingerprint}) was already sent once; its signed response is not sent again.`,
        );
      if (!entry.response)
        throw new BridgeFailure('airgap.not_signed', 'No signed response for this request has been opened yet.');
      let signed;
      try {
        signed = toSignedAction(entry.request, entry.response); // verifies again: nothing unverified is sent
      } catch (error) {
        airgapFailure(error);
      }
      const session = await trading.connected();
      const domain = session.signers.signingContext().domain;
      if (
        domain.chainId !== entry.request.domain.chainId ||
        domain.verifyingContract.toLowerCase() !== entry.request.domain.verifyingContract.toLowerCase() ||
        domain.name !== entry.request.domain.name
      )
        throw new BridgeFailure(
          'airgap.domain_mismatch',
          `This request was prepared for another domain than ${session.deployment.name} pins now, so nothing was sent.`,
        );
      const order = orderStructOf(entry.request);
      const passed = order
        ? await passOrderStruct(ctx, trading, 'airgap-send', order, fingerprintNote(entry.request))
        : null;
      if (!passed && describeRequest(entry.request).movesValue) {
        const yes = await dialogs.confirm(roundTripRequest(entry.request, 'send'));
        if (!yes) return { confirmed: false };
      }
      try {
        if (book.pendingById(id)?.state === 'sent')
          throw new BridgeFailure('airgap.replayed', 'This request was sent meanwhile; it is not sent again.');
        // Marked before the send, so a second call while this one waits cannot send it twice.
        book.updatePending(id, { state: 'sent' });
        const client = new ExchangeClient({
          baseUrl: session.deployment.httpUrl,
          deployment: () => session.signers.signingContext(),
        });
        let status: string;
        try {
          const kind = REQUEST_KIND_OF[entry.request.kind];
          const r = (await client.submitSigned(kind, signed.body)) as { status?: unknown };
          status = typeof r.status === 'string' ? r.status : 'accepted';
        } catch (error) {
          const failure = toExchangeError(error);
          // Refused by the exchange (or not delivered): the nonce was not used unless it says it was.
          const used = /ENTRY_PROCESSED|NONCE/i.test(`${(failure as { code?: string }).code ?? ''} ${failure.message}`);
          book.updatePending(id, used ? { outcome: failure.message } : { state: 'signed', outcome: failure.message });
          throw failure;
        }
        book.updatePending(id, { outcome: status });
        await session.desk.refresh().catch(() => undefined);
        return { confirmed: true, value: { status } };
      } finally {
        // An order's reservation ends once the account was read with the exchange's answer in it.
        passed?.release();
      }
    },

    'airgap.alwaysConfirm': () => book.alwaysConfirm(),
    'airgap.setAlwaysConfirm': async (on) => {
      if (on === book.alwaysConfirm()) return on;
      if (!on) {
        // Turning the question off lowers a protection: only after main's own dialog.
        const yes = await dialogs.confirm(
          confirmRequest({
            capability: 'changes-trust',
            title: 'Offline signing confirmation',
            action: 'Sign orders, cancels and claims for another machine without asking',
            confirmLabel: 'Stop asking',
            change: { setting: 'Ask before every offline signature', from: 'on', to: 'off' },
            notes: ['Withdrawals and agent approvals are always confirmed.'],
          }),
        );
        if (!yes) return book.alwaysConfirm();
      }
      book.setAlwaysConfirm(on);
      return on;
    },
  };
}
