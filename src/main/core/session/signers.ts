/**
 * What a session signs under and with: the deployment's facts read at connect and held to its pin,
 * one signing ExchangeClient per vault key, the choice between the master and its agent, and the
 * checks that say why nothing may be signed now.
 */
import type { AccountSelection, SignAs } from '../../../shared/bridge';
import { makeExchangeDomain, type Address, type ExchangeDomain, type Hex } from '../../../shared/protocol';
import {
  ExchangeClient,
  type DeploymentContext,
  type ExchangeClock,
  type ExchangeConfig,
  type ExchangeReader,
} from '../../../client';
import { describePinChange, type Deployment, type DeploymentPinning, type DomainFacts } from '../../settings';
import type { Vault } from '../../vault';
import { BridgeFailure } from '../bridge-runtime';
import type { Clearances } from '../risk/clearances';
import { readDeploymentFacts } from './deployment-facts';
import { vaultSigner } from './vault-signer';
import { signingWorldOf } from '../practice/practice-domain';

/** What the deployment told us about itself at connect time. */
export interface DeploymentFacts {
  chainId: bigint;
  contracts: ExchangeConfig['contracts'];
  domainName: string;
}

/** The client that signs, and the master it acts for when it is the agent (docs/protocol/agents.md#agent-actions). */
export interface Actor {
  client: ExchangeClient;
  master: Hex | undefined;
  signedBy: SignAs;
}

export interface SignersOptions {
  deployment: Deployment;
  vault: Vault;
  clearances: Clearances;
  pinning: DeploymentPinning;
  clock: ExchangeClock;
  /** Facts of the built-in devnet written down by its launcher (devnet.json), to pin it without a dialog. */
  attestedFacts?: (deployment: Deployment) => DomainFacts | null;
  notify(level: 'warning', message: string): void;
}

export class Signers {
  facts: DeploymentFacts | null = null;
  readonly #o: SignersOptions;
  readonly #clients = new Map<string, ExchangeClient>();

  constructor(opts: SignersOptions) {
    this.#o = opts;
  }

  /** Reads the deployment's facts and checks them against its pin; throws when the exchange cannot be read or serves another chain. */
  async readFacts(reader: ExchangeReader): Promise<void> {
    const { deployment, pinning } = this.#o;
    let observed;
    try {
      // Held to the configured chain id: a server on another chain gets nothing pinned and nothing signed.
      observed = await readDeploymentFacts(reader, deployment.httpUrl, deployment.chainId);
    } catch (error) {
      if (error instanceof BridgeFailure) pinning.refuse(deployment.id, error.message);
      throw error;
    }
    if (deployment.builtIn === 'practice') {
      // Main pinned practice's own constants itself (practice-mode.ts); the exchange must name exactly them.
      if (
        signingWorldOf({
          ...observed.facts,
          chainId: BigInt(observed.facts.chainId),
          name: observed.facts.domainName,
        }) !== 'practice'
      ) {
        const why = 'The practice exchange named another signing domain than practice’s own: nothing will be signed.';
        pinning.refuse(deployment.id, why);
        throw new BridgeFailure('deployments.chain_mismatch', why);
      }
      pinning.refuse(deployment.id, null);
      this.facts = {
        chainId: BigInt(observed.facts.chainId),
        contracts: observed.contracts,
        domainName: observed.facts.domainName,
      };
      return;
    }
    pinning.refuse(deployment.id, null);
    this.facts = {
      chainId: BigInt(observed.facts.chainId),
      contracts: observed.contracts,
      domainName: observed.facts.domainName,
    };
    const attested = this.#o.attestedFacts?.(deployment) ?? null;
    // Only the built-in devnet is pinned without a person, and only with the facts its launcher wrote
    // down (devnet.json) when there are any; every other first pin waits for main's dialog.
    const trustFirstUse =
      deployment.builtIn === 'devnet' && (attested === null || describePinChange(attested, observed.facts) === '');
    const check = pinning.checkPin(deployment.id, observed.facts, { trustFirstUse });
    if (check.kind === 'changed')
      this.#o.notify(
        'warning',
        `The signing domain of ${deployment.name} changed: signing is paused until you accept it.`,
      );
    if (check.kind === 'unconfirmed')
      this.#o.notify(
        'warning',
        `Confirm the signing domain and token contracts of ${deployment.name} before anything is signed.`,
      );
  }

  /** Throws why nothing can be signed now (a pin to confirm or accept, another chain, not connected). */
  assertCanSign(): void {
    this.signingContext();
  }

  /** The pinned domain and the ledger: what every signature of this session is made over. */
  signingContext(): DeploymentContext {
    const pin = this.#o.pinning.pinFor(this.#o.deployment.id);
    // No pin: say why (answered but not confirmed, or another chain) rather than "not connected".
    if (!pin) this.#o.pinning.assertSigningAllowed(this.#o.deployment.id);
    if (!pin || !this.facts) throw notConnected(this.#o.deployment);
    return {
      domain: makeExchangeDomain({
        chainId: BigInt(pin.chainId),
        verifyingContract: pin.verifyingContract as Address,
        name: pin.domainName,
      }),
      ledger: this.facts.contracts.ledger,
    };
  }

  /** The pinned facts as one string, without copying the pin (the order gate reads it twice per order). */
  pinKey(): string {
    return this.#o.pinning.pinKey(this.#o.deployment.id);
  }

  pinnedDomain(): Readonly<ExchangeDomain> | null {
    const pin = this.#o.pinning.pinFor(this.#o.deployment.id);
    return pin
      ? makeExchangeDomain({
          chainId: BigInt(pin.chainId),
          verifyingContract: pin.verifyingContract as Address,
          name: pin.domainName,
        })
      : null;
  }

  /** The pinned settlement token (whose wallet balance the account view shows), null without a pin. */
  settlementToken(): string | null {
    return this.#o.pinning.pinFor(this.#o.deployment.id)?.spenders?.settlementToken ?? null;
  }

  /** One client per signing key, so nonces and intents are per key (docs/protocol/trading-client.md#setup). */
  client(address: string): ExchangeClient {
    const key = address.toLowerCase();
    let c = this.#clients.get(key);
    if (!c) {
      const clock = this.#o.clock;
      c = new ExchangeClient({
        baseUrl: this.#o.deployment.httpUrl,
        timeoutMs: 15_000,
        onResponse: clock.onResponse,
        signer: vaultSigner(this.#o.vault, address, this.#o.clearances),
        deployment: () => this.signingContext(),
        beforeSign: () => this.assertSigningAllowed(),
        now: () => Date.now() + clock.offsetMs,
      });
      this.#clients.set(key, c);
    }
    return c;
  }

  /** The master's client, or its agent's acting for it, as `signAs` asks. */
  actor(selection: AccountSelection, signAs: SignAs): Actor {
    const { master, agent } = selection;
    if (!master) throw new BridgeFailure('account.none_selected', 'Choose the account to trade with first.');
    if (signAs === 'master') {
      if (this.#o.vault.watchOnly.has(master))
        throw new BridgeFailure(
          'account.watch_only',
          'This account is watch-only: no key for it is on this machine. Prepare the action for offline signing instead.',
        );
      return { client: this.client(master), master: undefined, signedBy: 'master' };
    }
    if (!agent)
      throw new BridgeFailure(
        'account.no_agent',
        'No agent key is selected for this account: approve one or sign as the master.',
      );
    return { client: this.client(agent), master: master as Hex, signedBy: 'agent' };
  }

  assertSigningAllowed(): void {
    this.#o.pinning.assertSigningAllowed(this.#o.deployment.id);
  }

  /**
   * The contracts a deposit may approve and pay, as the user confirmed them with the pin (never the
   * exchange's current, unpinned configuration). Throws while signing is not allowed, and when the
   * deployment published no such contract when it was pinned.
   */
  pinnedSpenders(): { depositLedger: Address; settlementToken: Address; permit2: Address } {
    this.assertSigningAllowed();
    const spenders = this.#o.pinning.pinFor(this.#o.deployment.id)?.spenders;
    const { depositLedger, settlementToken, permit2 } = spenders ?? {
      depositLedger: null,
      settlementToken: null,
      permit2: null,
    };
    if (!depositLedger || !settlementToken || !permit2) {
      const missing = [
        !depositLedger && 'deposit ledger',
        !settlementToken && 'settlement token',
        !permit2 && 'Permit2',
      ]
        .filter(Boolean)
        .join(', ');
      throw new BridgeFailure(
        'funds.no_pinned_spenders',
        `${this.#o.deployment.name} published no ${missing} address when its domain was pinned, so deposits are not possible here.`,
      );
    }
    return {
      depositLedger: depositLedger as Address,
      settlementToken: settlementToken as Address,
      permit2: permit2 as Address,
    };
  }
}

export function notConnected(deployment: Deployment): BridgeFailure {
  return new BridgeFailure(
    'connection.not_connected',
    `Not connected to ${deployment.name} yet: nothing can be signed or sent until it answers.`,
  );
}
