/** What the window is shown of a kept kit: coverage by market and epoch, what is used, and whether it fits the pin. */
import type { KitView } from '../../../shared/bridge';
import { kitCancelDigest, kitCoverage, type EmergencyKit } from '../../../client';
import type { Pin } from '../../settings';
import type { StoredKit } from './kit-store';

/** The kit was signed under exactly this pin's domain, for its exchange contract. */
export function kitMatchesPin(kit: EmergencyKit, pin: Pin | null): boolean {
  if (!pin) return false;
  const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
  return (
    kit.domain.chainId.toString() === pin.chainId &&
    same(kit.domain.verifyingContract, pin.verifyingContract) &&
    kit.domain.name === pin.domainName &&
    same(kit.contracts.exchange, pin.verifyingContract)
  );
}

export function kitView(stored: StoredKit, pin: Pin | null): KitView {
  const { kit, used } = stored;
  const cover = kitCoverage(kit, used);
  return {
    id: kit.id,
    fingerprint: kit.fingerprint,
    origin: stored.origin,
    source: stored.source,
    signer: kit.signer,
    createdAt: kit.createdAt,
    storedAt: stored.storedAt,
    until: cover.until,
    perEpoch: kit.perEpoch,
    markets: cover.markets.map((m) => {
      const epochs: KitView['markets'][number]['epochs'] = [];
      for (let e = m.fromEpoch; e <= m.toEpoch; e++) {
        const entries = kit.cancels.filter((c) => c.assetId === m.assetId && c.epoch === e);
        epochs.push({
          epoch: e.toString(),
          total: entries.length,
          used: entries.filter((c) => used.has(kitCancelDigest(kit, c).toLowerCase())).length,
        });
      }
      return {
        assetId: m.assetId.toString(),
        label: m.label,
        fromEpoch: m.fromEpoch.toString(),
        toEpoch: m.toEpoch.toString(),
        until: m.until,
        total: m.total,
        used: m.used,
        epochs,
      };
    }),
    revocation: cover.revocation,
    matchesDeployment: kitMatchesPin(kit, pin),
  };
}
