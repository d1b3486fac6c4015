import type { DevnetChain } from './start-chain';

export interface BannerInfo extends Pick<DevnetChain, 'rpcUrl' | 'chainId' | 'contracts' | 'accounts' | 'operator'> {
  /** The mnemonic the keys came from, shown so a wallet can import it. */
  mnemonic?: string;
  /** Other devnet endpoints (exchange HTTP, market WS, oracle WS…), in display order. */
  services?: { label: string; url: string }[];
  startupMs?: number;
}

const WARNING = '!!  DEVNET ONLY — never use these keys or this mnemonic anywhere else. They are public.  !!';

/** The text the devnet CLI prints at start-up. Builds a string; prints nothing. */
export function formatDevnetBanner(info: BannerInfo): string {
  const rule = '!'.repeat(WARNING.length);
  const pad = (s: string, n: number): string => s.padEnd(n);
  const lines: string[] = [];
  lines.push(
    'Exchange Terminal devnet' + (info.startupMs === undefined ? '' : ` (chain ready in ${info.startupMs} ms)`),
    '',
  );
  lines.push(`  ${pad('Chain RPC', 18)}${info.rpcUrl}`);
  for (const s of info.services ?? []) lines.push(`  ${pad(s.label, 18)}${s.url}`);
  lines.push(`  ${pad('Chain id', 18)}${info.chainId.toString()}`, '');
  lines.push('Contracts');
  const c = info.contracts;
  for (const [label, address] of [
    ['exchange', c.exchange],
    ['ledger', c.ledger],
    ['depositLedger', c.depositLedger],
    ['settlementToken', c.settlementToken],
    ['permit2', c.permit2],
  ] as const) {
    lines.push(`  ${pad(label, 18)}${address}`);
  }
  lines.push(`  ${pad('operator', 18)}${info.operator.address}`, '');
  lines.push(rule, WARNING, rule, '');
  if (info.mnemonic !== undefined) lines.push(`Mnemonic (m/44'/60'/0'/0/i): ${info.mnemonic}`, '');
  lines.push('Demo accounts (funded with gas and dUSD)');
  const width = Math.max(8, ...info.accounts.map((a) => a.label.length + 2));
  for (const a of info.accounts) {
    lines.push(`  ${pad(a.label, width)}${a.address}`, `  ${pad('', width)}key ${a.privateKey}`);
  }
  lines.push('', WARNING);
  return lines.join('\n') + '\n';
}
