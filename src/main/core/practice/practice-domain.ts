/**
 * Practice's signing domain and deployment facts as main pins them: the constants of
 * src/shared/practice.ts, never what the practice exchange says (main started it, so it asks nobody).
 */
import {
  PRACTICE_CHAIN_ID,
  PRACTICE_DEPLOYMENT_ID,
  PRACTICE_DOMAIN_NAME,
  PRACTICE_VERIFYING_CONTRACT,
} from '../../../shared/practice';
import { makeExchangeDomain, type ExchangeDomain } from '../../../shared/protocol';
import type { Deployment, DomainFacts, Settings } from '../../settings';
import type { SigningWorld } from '../../vault';

export const PRACTICE_NAME = 'Practice';

/** The domain every practice signature is made under. */
export function practiceDomain(): Readonly<ExchangeDomain> {
  return makeExchangeDomain({
    chainId: PRACTICE_CHAIN_ID,
    verifyingContract: PRACTICE_VERIFYING_CONTRACT,
    name: PRACTICE_DOMAIN_NAME,
  });
}

/** The facts main pins for practice itself: no token contracts (practice has no chain, so no deposits). */
export function practiceFacts(): DomainFacts {
  return {
    chainId: PRACTICE_CHAIN_ID.toString(),
    verifyingContract: PRACTICE_VERIFYING_CONTRACT,
    domainName: PRACTICE_DOMAIN_NAME,
    spenders: { depositLedger: null, settlementToken: null, permit2: null },
  };
}

/**
 * The world a signature under `domain` belongs to: practice only for exactly practice's domain.
 * A practice key signs nothing else, and a real key never signs under it (vault.signDigest).
 */
export function signingWorldOf(domain: { chainId: bigint; verifyingContract: string; name: string }): SigningWorld {
  return domain.chainId === PRACTICE_CHAIN_ID &&
    domain.verifyingContract.toLowerCase() === PRACTICE_VERIFYING_CONTRACT.toLowerCase() &&
    domain.name === PRACTICE_DOMAIN_NAME
    ? 'practice'
    : 'real';
}

export function isPractice(deployment: Pick<Deployment, 'builtIn'> | null | undefined): boolean {
  return deployment?.builtIn === 'practice';
}

/** Whether practice is the selected deployment: the keys offered, the badge and the dialogs follow it. */
export function practiceSelected(settings: Pick<Settings, 'deployments' | 'selectedDeploymentId'>): boolean {
  return (
    settings.selectedDeploymentId === PRACTICE_DEPLOYMENT_ID &&
    settings.deployments.some((d) => d.id === PRACTICE_DEPLOYMENT_ID && d.builtIn === 'practice')
  );
}

/** The world of the selected deployment: which keys main offers and lets sign. */
export function selectedWorld(settings: Pick<Settings, 'deployments' | 'selectedDeploymentId'>): SigningWorld {
  return practiceSelected(settings) ? 'practice' : 'real';
}

/** The practice deployment at the loopback URLs its worker answered on (ephemeral ports). */
export function practiceDeploymentAt(at: { httpUrl: string; marketWsUrl: string; oracleWsUrl: string }): Deployment {
  return {
    id: PRACTICE_DEPLOYMENT_ID,
    name: PRACTICE_NAME,
    httpUrl: at.httpUrl,
    marketWsUrl: at.marketWsUrl,
    oracleWsUrl: at.oracleWsUrl,
    // Practice has no chain; the schema wants a node address, so it names the practice exchange
    // itself, on this computer. Nothing asks it for chain facts: every chain path checks isPractice.
    rpcUrl: at.httpUrl,
    chainId: PRACTICE_CHAIN_ID.toString(),
    builtIn: 'practice',
  };
}
