import { z } from 'zod';

/** The contracts the devnet deploys; artifacts.json holds exactly these. */
export const CONTRACT_NAMES = ['SettlementToken', 'Permit2', 'AccountLedger', 'DepositLedger', 'Exchange'] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];

const hex = z.string().regex(/^0x[0-9a-f]*$/);

export const contractArtifactSchema = z.object({
  source: z.string(),
  abi: z.array(z.record(z.string(), z.unknown())),
  bytecode: hex,
});

export const artifactsFileSchema = z.object({
  solcVersion: z.string(),
  settings: z.object({
    optimizer: z.object({ enabled: z.boolean(), runs: z.number().int() }),
    evmVersion: z.string(),
  }),
  /** sha256 (hex) of each source file, keyed by file name in contracts/. */
  sources: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  contracts: z.object(
    Object.fromEntries(CONTRACT_NAMES.map((n) => [n, contractArtifactSchema])) as Record<
      ContractName,
      typeof contractArtifactSchema
    >,
  ),
});

export type ContractArtifact = z.infer<typeof contractArtifactSchema>;
export type ArtifactsFile = z.infer<typeof artifactsFileSchema>;
