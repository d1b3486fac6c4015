/**
 * Taking in a kit on the watch-only machine, from a file or from QR codes (the scan hands over the
 * rebuilt text): every check of the kit format (signatures by its signer, coverage, fingerprint),
 * and the selected deployment's pin: the same chain, verifying contract and domain name, and the
 * same exchange (and ledger, when both are known). A kit for another exchange is refused, not kept.
 *
 * Cheap facts first: the text's size, its format, domain, contracts and counts, the pin and a free
 * slot take a few milliseconds; its entries and their up to 2,001 signatures (seconds) last, off
 * main's event loop (kit-checks.ts), and only for a kit that would be kept.
 */
import type { KitView } from '../../../shared/bridge';
import { AirgapError, jsonFromFileText, readKitHeader, type EmergencyKit } from '../../../client';
import type { Pin } from '../../settings';
import { BridgeFailure } from '../bridge-runtime';
import type { CoreContext } from '../context';
import type { KitSource } from './kit-store';
import { kitMatchesPin, kitView } from './kit-view';

export function airgapFailure(error: unknown): unknown {
  return error instanceof AirgapError
    ? new BridgeFailure(`airgap.${error.code.toLowerCase().replace(/^airgap_/, '')}`, error.sentence)
    : error;
}

function selectedPin(ctx: CoreContext) {
  const id = ctx.settings.getSettings().selectedDeploymentId;
  return { id, pin: ctx.pinning.pinFor(id) };
}

/** The selected deployment's pin, when the kit was signed under it (and names its ledger, when both know one). */
function pinOfKit(ctx: CoreContext, kit: Pick<EmergencyKit, 'domain' | 'contracts'>, knownLedger: string | null): Pin {
  const { pin } = selectedPin(ctx);
  if (!pin)
    throw new BridgeFailure(
      'kit.no_pin',
      'The selected deployment has no pinned signing domain yet: connect to it and confirm its domain before taking in a kit.',
    );
  if (!kitMatchesPin(kit, pin))
    throw new BridgeFailure(
      'kit.wrong_domain',
      `This kit was signed for chain ${kit.domain.chainId} and exchange ${kit.domain.verifyingContract}, not for the selected deployment's pinned domain: the exchange would refuse every entry, so it is not kept.`,
    );
  if (kit.contracts.ledger && knownLedger && kit.contracts.ledger.toLowerCase() !== knownLedger.toLowerCase())
    throw new BridgeFailure(
      'kit.wrong_domain',
      'This kit names another account ledger than the selected deployment uses, so it is not kept.',
    );
  return pin;
}

export interface ReceiveKitOptions {
  /** A file the person picked in main's dialog, or the window (bounded slots, kit-store.ts). */
  readonly source: Exclude<KitSource, 'build'>;
  readonly knownLedger?: string | null;
  /** The text's JSON, when the caller has read it already (the inbox). */
  readonly json?: unknown;
  /** Turns a refusal of the kit's own checks into the caller's bridge failure; airgapFailure by default. */
  readonly refusal?: (error: unknown) => unknown;
}

/** Reads a kit's text and keeps it, once it checks out against the selected deployment. */
export async function receiveKit(ctx: CoreContext, text: string, options: ReceiveKitOptions): Promise<KitView> {
  const { source, knownLedger = null, refusal = airgapFailure } = options;
  const read = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw refusal(error);
    }
  };
  await ctx.kits.ready();
  const who = source === 'window' ? 'window' : 'main';
  // Before the text is read: a burst from the window is refused without parsing each kit on main.
  read(() => ctx.kitChecks.assertFree(who));
  const json = options.json !== undefined ? options.json : read(() => jsonFromFileText(text));
  const header = read(() => readKitHeader(json));
  pinOfKit(ctx, header, knownLedger);
  ctx.kits.assertRoom(header.id, header.fingerprint, source);
  let checked;
  try {
    // Refused at once (kit.busy) while another kit from the window is checked.
    checked = await ctx.kitChecks.check(text, who);
  } catch (error) {
    throw refusal(error);
  }
  const { kit, digests } = checked;
  // Seconds may have passed: the kit is kept only if it still fits what is selected now.
  const pin = pinOfKit(ctx, kit, knownLedger);
  const stored = ctx.kits.put(kit, source, new Date(), digests);
  return kitView(stored, pin);
}

/** The kit's envelope text, for a file or for QR codes (the QR display turns it into UR parts). */
export function kitEnvelopeText(ctx: CoreContext, id: string): string {
  return ctx.kits.envelopeText(id);
}
