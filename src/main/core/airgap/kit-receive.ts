/**
 * Taking in a kit on the watch-only machine, from a file or from QR codes (the scan hands over the
 * rebuilt text): every check of the kit format (signatures by its signer, coverage, fingerprint),
 * then the selected deployment's pin: the same chain, verifying contract and domain name, and the
 * same exchange (and ledger, when both are known). A kit for another exchange is refused, not kept.
 */
import type { KitView } from '../../../shared/bridge';
import { AirgapError, KIT_FORMAT, payloadFromFileText, type EmergencyKit } from '../../../client';
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

/**
 * Reads a kit's text and keeps it, once it checks out against the selected deployment. `source` says
 * how the text came: a file the person picked in main's dialog, or the window (bounded slots, kit-store.ts).
 */
export function receiveKit(
  ctx: CoreContext,
  text: string,
  source: Exclude<KitSource, 'build'>,
  knownLedger?: string | null,
): KitView {
  let kit: EmergencyKit;
  try {
    const payload = payloadFromFileText(text, [KIT_FORMAT]);
    if (payload.format !== KIT_FORMAT) throw new BridgeFailure('kit.not_a_kit', 'This is not an emergency kit.');
    kit = payload.kit;
  } catch (error) {
    throw airgapFailure(error);
  }
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
  const stored = ctx.kits.put(kit, source, new Date());
  return kitView(stored, pin);
}

/** The kit's envelope text, for a file or for QR codes (the QR display turns it into UR parts). */
export function kitEnvelopeText(ctx: CoreContext, id: string): string {
  return ctx.kits.envelopeText(id);
}
