// Practice lists its markets by the names the worker gave them in `ready`, whatever their asset ids say
// (main keeps no table of tickers); a ready whose ticker is no ticker fails parsing like any bad message,
// so practice does not start and no practice deployment is written.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../log';
import {
  PRACTICE_DEPLOYMENT_ID,
  type PracticeEvent,
  type PracticeRequest,
  type PracticeStart,
} from '../../../shared/practice';
import { packAssetId } from '../../../shared/protocol';
import { createTestCore, type TestCore } from '../../../../test/support/test-core';
import { practiceDomain } from './practice-domain';
import { PracticeHost, type PracticeSpawner } from './practice-host';
import { PracticeMode } from './practice-mode';

/** An hourly up/down market on oracle symbol `id` (the asset id's base id). */
const hourly = (id: bigint): string =>
  packAssetId({ id, marketType: 1n, startTime: 1_767_225_600n, periodLength: 3600n, strike: 0n, range: 0n }).toString();

/**
 * A worker that answers `ready` at once with these markets (nothing listens at its URLs: none is needed
 * here), noting what main handed it in `starts`.
 */
function readyWorker(markets: unknown, starts: PracticeStart[] = []): PracticeSpawner {
  return (start) => {
    starts.push(start);
    const port = new EventEmitter();
    const domain = practiceDomain();
    const ready = {
      type: 'ready',
      httpUrl: 'http://127.0.0.1:9/',
      marketWsUrl: 'ws://127.0.0.1:9/ws/',
      oracleWsUrl: 'ws://127.0.0.1:9/oracle-ws/',
      chainId: domain.chainId.toString(),
      domain: { name: domain.name, version: domain.version, verifyingContract: domain.verifyingContract },
      markets,
      startupMs: 5,
    };
    setImmediate(() => port.emit('message', ready));
    return {
      postMessage: (request: PracticeRequest) => {
        const reply: PracticeEvent = { type: 'reply', id: request.id, ok: true };
        setImmediate(() => port.emit('message', reply));
      },
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one listener type for the three events
      on: (event: string, listener: (...args: any[]) => void) => port.on(event, listener),
      terminate: () => Promise.resolve(0),
    };
  };
}

let t: TestCore | undefined;
afterEach(async () => {
  await t?.practice?.host.stop();
  t?.close();
  t = undefined;
});

const practiceEntry = (core: TestCore) =>
  core.settings.getSettings().deployments.find((d) => d.id === PRACTICE_DEPLOYMENT_ID);

describe('PracticeMode: the markets practice lists', () => {
  it('names each market as the worker’s ready did, whatever its asset id', async () => {
    // Base ids 1, 2 and 9 with names no id-to-ticker table would give them.
    const markets = [
      { assetId: hourly(1n), symbol: 'SOL' },
      { assetId: hourly(2n), symbol: 'AVAX' },
      { assetId: hourly(9n), symbol: 'BTC' },
    ];
    const starts: PracticeStart[] = [];
    t = await createTestCore({ defaultDeployments: [], practice: { spawn: readyWorker(markets, starts) } });
    const endpoints = await t.practice!.host.start();
    // createPracticeMode keeps the journal in the app data folder's `practice` folder.
    expect(starts).toEqual([{ dataDir: join(t.dir, 'practice'), fresh: false }]);
    expect(endpoints.markets).toEqual(markets.map((m) => ({ assetId: BigInt(m.assetId), symbol: m.symbol })));
    expect(practiceEntry(t)?.markets).toEqual(markets);
  });

  it('does not start on a ready whose ticker is none: the event fails parsing and is ignored', async () => {
    t = await createTestCore({ defaultDeployments: [] });
    const warned: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (event) => void warned.push(event), child: () => logger };
    const host = new PracticeHost({
      spawn: readyWorker([{ assetId: hourly(1n), symbol: '<img src=x onerror=alert(1)>' }]),
      dataDir: t.dir,
      logger,
      startTimeoutMs: 300,
    });
    new PracticeMode({ host, settings: t.settings, pinning: t.pinning, vault: t.vault, logger });
    await expect(host.start()).rejects.toMatchObject({ code: 'practice.failed' });
    expect(warned).toContain('practice.bad_message');
    expect(host.status()).toMatchObject({ state: 'failed', endpoints: null });
    expect(practiceEntry(t)).toBeUndefined();
  });
});
