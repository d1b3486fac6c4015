// A kit's checks off main's event loop: on the worker or in slices, the same kit, digests and
// refusals as reading it in one go; the window gets one check at a time, main's own queue; a worker
// that cannot start leaves the checks on this thread.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { DigestSigner, makeExchangeDomain, type Address } from '../../../shared/protocol';
import { AirgapError, KIT_FORMAT, buildEmergencyKit, keySigner, kitDigests, payloadToFileText } from '../../../client';
import { createKitChecks, type KitChecks } from './kit-checks';

const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const MARKET = { assetId: 7n, label: 'BTC 5m', fromEpoch: 10n, toEpoch: 13n, until: '2026-07-01T12:10:00.000Z' };

const built = buildEmergencyKit(
  {
    signer: keySigner(new DigestSigner(`0x${'11'.repeat(32)}`)),
    domain: makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE }),
  },
  { contracts: { exchange: EXCHANGE, ledger: null }, markets: [MARKET], perEpoch: 3, revokeAgent: true },
);

const worker = (): Worker =>
  new Worker(new URL('../../../../test/core/ts-worker-boot.mjs', import.meta.url), {
    workerData: { entry: new URL('./kit-worker.ts', import.meta.url).href },
  });

async function expectSameAsOneGo(checks: KitChecks): Promise<void> {
  const kit = await built;
  const text = payloadToFileText({ format: KIT_FORMAT, kit });
  const checked = await checks.check(text, 'main');
  expect(checked.kit).toEqual(kit);
  expect(checked.digests).toEqual(kitDigests(kit));
  const changed = text.replace('"perEpoch": 3', '"perEpoch": 2');
  const refusal = await checks.check(changed, 'main').catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(AirgapError);
  expect(refusal).toMatchObject({ code: 'AIRGAP_INCONSISTENT' });
}

describe('kit checks', () => {
  it('read and check a kit as parseEmergencyKit does, on a worker and on this thread', async () => {
    const onWorker = createKitChecks({ spawn: worker });
    await expectSameAsOneGo(onWorker);
    await onWorker.close();
    await expectSameAsOneGo(createKitChecks());
  }, 60_000);

  it('check one kit from the window at a time and queue main’s own', async () => {
    const checks = createKitChecks();
    const text = payloadToFileText({ format: KIT_FORMAT, kit: await built });
    const first = checks.check(text, 'window');
    await expect(checks.check(text, 'window')).rejects.toMatchObject({ code: 'kit.busy' });
    const mains = [checks.check(text, 'main'), checks.check(text, 'main')];
    await Promise.all([first, ...mains]);
    // Done: the window may ask again.
    await expect(checks.check(text, 'window')).resolves.toMatchObject({ kit: { id: (await built).id } });
  });

  it('check on this thread when the worker cannot start', async () => {
    const checks = createKitChecks({ spawn: () => new Worker('throw new Error("no worker here")', { eval: true }) });
    await expectSameAsOneGo(checks);
    await checks.close();
  });
});
