/** Whether the signing machine trusts a request's domain: a deployment pin of its own, or one pinned for offline signing through main's dialog. */
import { toChecksumAddress } from '../../../shared/protocol';
import type { UnsignedRequest } from '../../../client';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';
import type { ConfirmRequest } from '../dialogs/dialogs';

interface DomainLike {
  chainId: string;
  verifyingContract: string;
  domainName: string;
}

function sameDomain(a: DomainLike, request: UnsignedRequest): boolean {
  return (
    a.chainId === request.domain.chainId.toString() &&
    a.verifyingContract.toLowerCase() === request.domain.verifyingContract.toLowerCase() &&
    a.domainName === request.domain.name &&
    // The request's exchange is its verifying contract (checked when read); said again for clarity.
    a.verifyingContract.toLowerCase() === request.contracts.exchange.toLowerCase()
  );
}

export function domainPinnedHere(ctx: CoreContext, request: UnsignedRequest): boolean {
  const pins = Object.values(ctx.settings.getSettings().pins);
  return pins.some((p) => sameDomain(p, request)) || ctx.airgap.signingDomains().some((p) => sameDomain(p, request));
}

/** Main's dialog before a never-seen domain is trusted for offline signing: every fact, and the fingerprint both machines show. */
export function pinDomainRequest(request: UnsignedRequest): ConfirmRequest {
  return confirmRequest({
    capability: 'changes-trust',
    title: 'Trust a signing domain',
    action: 'Trust a new exchange signing domain for offline signing',
    confirmLabel: 'Trust this domain',
    chainId: request.domain.chainId,
    verifyingContract: request.domain.verifyingContract,
    domainName: request.domain.name,
    domainNameSource: 'the unsigned request',
    notes: [
      `The request that names it has the fingerprint ${request.fingerprint}: check that the online machine shows the same.`,
      ...(request.contracts.ledger
        ? [`Account ledger named by the request: ${toChecksumAddress(request.contracts.ledger)}.`]
        : []),
      'Requests under this domain can then be signed here. This changes what the app trusts: confirm only if you asked for it.',
    ],
  });
}
