// Every signature main makes with a key of the vault goes through one of two doors, so the order
// gate cannot be walked around: exchange actions through the vault signer (src/main/core/session/
// vault-signer.ts, which signs a FillOrder only with the gate's clearance), and on-chain transactions
// and the Permit2 signature of a deposit through the vault's wallet in the funds handlers. A new
// call site of either fails here until it is reviewed and listed.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|svelte)$/.test(name) && !name.endsWith('.test.ts') ? [full] : [];
  });
}

function callSites(pattern: RegExp): string[] {
  const hits = new Set<string>();
  for (const file of sources(path.join(root, 'src/main'))) {
    if (pattern.test(readFileSync(file, 'utf8'))) hits.add(path.relative(root, file));
  }
  return [...hits].sort();
}

describe('signing paths in main', () => {
  it('signs exchange digests with a vault key only in the vault signer', () => {
    expect(callSites(/\.signDigest\(/)).toEqual(['src/main/core/session/vault-signer.ts']);
  });

  it('hands the vault’s wallet only to the funds handlers (deposits on chain, the devnet faucet)', () => {
    expect(callSites(/\.withWallet\(/)).toEqual(['src/main/core/handlers/funds.ts']);
  });

  it('builds a vault signer only where the order gate or main’s dialogs stand before it', () => {
    expect(callSites(/\bvaultSigner\(/)).toEqual([
      'src/main/core/handlers/airgap.ts',
      'src/main/core/handlers/kit.ts',
      'src/main/core/handlers/offline.ts',
      'src/main/core/session/signers.ts',
      'src/main/core/session/vault-signer.ts',
    ]);
  });
});
