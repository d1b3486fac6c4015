/**
 * The facts every signature of a session is made under, for main's dialogs: the pinned domain of the
 * selected deployment and its name. Refuses when there is no pin, a pin change is pending, or the pin
 * and the exchange disagree with the chain id the user configured: then nothing may be signed.
 */
import { BridgeFailure } from '../bridge-runtime';
import type { Deployment, DeploymentPinning, Pin, SettingsService } from '../../settings';

export interface SigningFacts {
  readonly chainId: string;
  readonly verifyingContract: string;
  readonly domainName: string;
  readonly deploymentName: string;
}

export function chainMismatch(deployment: Deployment, served: string): BridgeFailure {
  return new BridgeFailure(
    'deployments.chain_mismatch',
    `${deployment.name} is configured for chain ${deployment.chainId}, but its signing domain is on chain ${served}: nothing is signed until they agree.`,
  );
}

/** The pinned facts, after the checks that apply to every signature. `served` is the chain id the exchange reported, when connected. */
export function signingFacts(deployment: Deployment, pin: Pin | null, served?: bigint): SigningFacts {
  if (!pin) {
    throw new BridgeFailure(
      'offline.no_domain',
      `${deployment.name} has no pinned signing domain yet: connect to it once, and confirm its domain, before signing.`,
    );
  }
  if (pin.chainId !== deployment.chainId) throw chainMismatch(deployment, pin.chainId);
  if (served !== undefined && served.toString() !== deployment.chainId)
    throw chainMismatch(deployment, served.toString());
  return {
    chainId: pin.chainId,
    verifyingContract: pin.verifyingContract,
    domainName: pin.domainName,
    deploymentName: deployment.name,
  };
}

/**
 * The selected deployment's pinned facts after every check that applies to a signature, whether or not
 * a session runs (offline signing, emergency kits, drafted requests). `served`: the chain id the
 * exchange reported, when connected.
 */
export function selectedSigningFacts(
  ctx: { readonly settings: SettingsService; readonly pinning: DeploymentPinning },
  served: bigint | undefined,
  noDomainCode = 'offline.no_domain',
): SigningFacts {
  const current = ctx.settings.getSettings();
  const deployment = current.deployments.find((d) => d.id === current.selectedDeploymentId);
  if (!deployment)
    throw new BridgeFailure(
      noDomainCode,
      'No deployment is selected, so there is no signing domain: choose one first.',
    );
  ctx.pinning.assertSigningAllowed(deployment.id);
  return signingFacts(deployment, ctx.pinning.pinFor(deployment.id), served);
}

/** After a dialog: the facts the user saw must still be the ones signed under. */
export function assertSameFacts(shown: SigningFacts, now: SigningFacts): void {
  if (
    shown.chainId !== now.chainId ||
    shown.verifyingContract.toLowerCase() !== now.verifyingContract.toLowerCase() ||
    shown.domainName !== now.domainName
  ) {
    throw new BridgeFailure(
      'deployments.domain_changed',
      'The signing domain changed while the dialog was open, so nothing was signed. Check the deployment and try again.',
    );
  }
}
