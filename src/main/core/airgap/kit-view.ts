/** What the window is shown of a kept kit: coverage by market and epoch, what is used, and whether it fits the pin. */
import type { KitView } from '../../../shared/bridge';
import type { EmergencyKit } from '../../../client';
import type { Pin } from '../../settings';
import type { StoredKit } from './kit-store';

/** The kit was signed under exactly this pin's domain, for its exchange contract. */
export function kitMatchesPin(kit: Pick<EmergencyKit, 'domain' | 'contracts'>, pin: Pin | null): boolean {
  if (!pin) return false;
  const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
  return (
    kit.domain.chainId.toString() === pin.chainId &&
    same(kit.domain.verifyingContract, pin.verifyingContract) &&
    kit.domain.name === pin.domainName &&
    same(kit.contracts.exchange, pin.verifyingContract)
  );
}

interface Count {
  total: number;
  used: number;
}

export function kitView(stored: StoredKit, pin: Pin | null): KitView {
  const { kit, used, digests } = stored;
  // Counted in one pass over the digests kept with the kit (kitCoverage's counts): hashing 2,000
  // entries again, or scanning them once per epoch, for every view would hold main's loop.
  // Keys: "assetId" for a market, "assetId/epoch" for one of its epochs.
  const counts = new Map<string, Count>();
  const countOf = (key: string): Count => counts.get(key) ?? { total: 0, used: 0 };
  kit.cancels.forEach((c, i) => {
    const isUsed = used.has(digests[i]!);
    for (const key of [`${c.assetId}`, `${c.assetId}/${c.epoch}`]) {
      const count = countOf(key);
      counts.set(key, { total: count.total + 1, used: count.used + (isUsed ? 1 : 0) });
    }
  });
  const revocationDigest = kit.revocation ? digests[kit.cancels.length] : undefined;
  const until = kit.markets
    .map((m) => m.until)
    .sort()
    .at(-1)!;
  return {
    id: kit.id,
    fingerprint: kit.fingerprint,
    origin: stored.origin,
    source: stored.source,
    signer: kit.signer,
    createdAt: kit.createdAt,
    storedAt: stored.storedAt,
    until,
    perEpoch: kit.perEpoch,
    markets: kit.markets.map((m) => {
      const epochs: KitView['markets'][number]['epochs'] = [];
      for (let e = m.fromEpoch; e <= m.toEpoch; e++) {
        const count = countOf(`${m.assetId}/${e}`);
        epochs.push({ epoch: e.toString(), total: count.total, used: count.used });
      }
      const count = countOf(`${m.assetId}`);
      return {
        assetId: m.assetId.toString(),
        label: m.label,
        fromEpoch: m.fromEpoch.toString(),
        toEpoch: m.toEpoch.toString(),
        until: m.until,
        total: count.total,
        used: count.used,
        epochs,
      };
    }),
    revocation: revocationDigest === undefined ? 'none' : used.has(revocationDigest) ? 'used' : 'unused',
    matchesDeployment: kitMatchesPin(kit, pin),
  };
}
