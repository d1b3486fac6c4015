import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEVNET_DEPLOYMENT, type Deployment } from '../../settings/schema';
import { appMarkets, configuredMarkets, parseDevnetMarkets } from './market-directory';

const remote: Deployment = {
  ...DEVNET_DEPLOYMENT,
  id: 'remote',
  name: 'Remote',
  builtIn: undefined,
  markets: [{ assetId: '42', symbol: 'ETH' }],
};

describe('market directory', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('reads the devnet list from devnet.json only for the devnet deployment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'markets-'));
    dirs.push(dir);
    const file = join(dir, 'devnet.json');
    writeFileSync(file, JSON.stringify({ markets: [{ assetId: '7', symbol: 'BTC' }] }));
    const directory = appMarkets(file);
    expect(directory(DEVNET_DEPLOYMENT)).toEqual([{ assetId: 7n, symbol: 'BTC' }]);
    // A configured deployment uses its own list, never the devnet's.
    expect(directory(remote)).toEqual([{ assetId: 42n, symbol: 'ETH' }]);
  });

  it('falls back to the configured list when the devnet file is missing or malformed', () => {
    const directory = appMarkets('/nonexistent/devnet.json');
    expect(directory({ ...DEVNET_DEPLOYMENT, markets: [{ assetId: '1', symbol: 'X' }] })).toEqual([
      { assetId: 1n, symbol: 'X' },
    ]);
    expect(appMarkets(null)(DEVNET_DEPLOYMENT)).toEqual([]);
    expect(parseDevnetMarkets('{not json')).toBeNull();
    expect(parseDevnetMarkets(JSON.stringify({ markets: [{ assetId: '01', symbol: 'A' }] }))).toBeNull();
  });

  it('converts configured asset ids exactly, beyond the safe-integer range', () => {
    const big = '261336857817713630688382311349658711122006440411137';
    expect(configuredMarkets({ ...remote, markets: [{ assetId: big, symbol: 'BTC' }] })[0]?.assetId).toBe(BigInt(big));
  });
});
