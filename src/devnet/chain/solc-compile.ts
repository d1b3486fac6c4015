import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTRACT_NAMES, artifactsFileSchema, type ArtifactsFile } from './artifacts-schema';

/** contracts/ at the repository root. */
export const CONTRACTS_DIR = fileURLToPath(new URL('../../../contracts/', import.meta.url));

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  // Cancun: widely deployed (Base, Ethereum) and supported by Hardhat's EDR.
  evmVersion: 'cancun',
} as const;

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

interface Solc {
  version(): string;
  compile(input: string): string;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Reads every .sol file in `dir`, keyed by file name. */
export function readContractSources(dir: string = CONTRACTS_DIR): Record<string, string> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

/** Compiles the sources with solc-js (no compiler download) into the artifacts-file shape. */
export function compileContracts(sources: Record<string, string> = readContractSources()): ArtifactsFile {
  // solc is CommonJS without useful types; load it lazily so start-up never pays for it.
  const solc = createRequire(import.meta.url)('solc') as Solc;
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([f, content]) => [f, { content }])),
    settings: { ...SETTINGS, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }
  const contracts: Record<string, { source: string; abi: unknown[]; bytecode: string }> = {};
  for (const name of CONTRACT_NAMES) {
    const source = `${name}.sol`;
    const compiled = output.contracts?.[source]?.[name];
    if (!compiled) throw new Error(`solc produced no output for ${source}:${name}`);
    contracts[name] = { source, abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
  }
  return artifactsFileSchema.parse({
    solcVersion: solc.version(),
    settings: SETTINGS,
    sources: Object.fromEntries(Object.entries(sources).map(([f, text]) => [f, sha256Hex(text)])),
    contracts,
  });
}
