import { describe, expect, it } from 'vitest';
import { ARTIFACTS } from './artifacts';
import { compileContracts, readContractSources, sha256Hex } from './solc-compile';

describe('committed contract artifacts', () => {
  it('record the sha256 of every current source file', () => {
    const sources = readContractSources();
    const hashes = Object.fromEntries(Object.entries(sources).map(([f, text]) => [f, sha256Hex(text)]));
    expect(ARTIFACTS.sources).toEqual(hashes);
  });

  it('equal a fresh solc-js compilation of the sources (run `npx tsx src/devnet/chain/compile.ts` if not)', () => {
    const fresh = compileContracts();
    expect(fresh.solcVersion).toBe(ARTIFACTS.solcVersion);
    expect(fresh.settings).toEqual(ARTIFACTS.settings);
    for (const [name, artifact] of Object.entries(fresh.contracts)) {
      const committed = ARTIFACTS.contracts[name as keyof typeof ARTIFACTS.contracts];
      expect(committed.bytecode, `${name} bytecode`).toBe(artifact.bytecode);
      expect(committed.abi, `${name} abi`).toEqual(artifact.abi);
    }
  }, 120_000);
});
