/**
 * The text of every dialog main shows before value moves or trust changes, rendered from typed
 * facts so that every such dialog reads the same way: one labelled line per fact, in a fixed order;
 * addresses in full and EIP-55 checksummed; amounts in tokens and base units; text that came from
 * the window (a key label, a deployment name) or from the exchange (a domain name, a token symbol)
 * quoted, cleaned of control and direction characters, and labelled as such, so it can never pass
 * for the app's own words or forge another line.
 */
import { formatAmount, formatDollars, toChecksumAddress } from '../../../shared/protocol';
import type { ConfirmRequest } from './dialogs';

export interface AmountFact {
  /** Protocol units (6 decimals). */
  readonly units: bigint;
  /**
   * The token's symbol as its contract or the exchange reports it (shown quoted as such). Without one
   * the amount is the exchange's dollars (its settlement token), shown as "$12.50" like everywhere else.
   */
  readonly symbol?: string;
}

export interface ChangeFact {
  /** Our own words: what is changing, e.g. "Order confirmation". */
  readonly setting: string;
  readonly from: string;
  readonly to: string;
}

export interface ConfirmFacts {
  readonly capability: 'moves-value' | 'changes-trust';
  /** Our own words, no values: e.g. "Withdraw". */
  readonly title: string;
  /** Our own words, no values: e.g. "Withdraw from the exchange". */
  readonly action: string;
  /** The label of the yes button, our own words. */
  readonly confirmLabel: string;
  readonly amount?: AmountFact;
  /** The account that signs or sends. */
  readonly from?: string;
  readonly receiver?: string;
  readonly spender?: string;
  /** The spender's role in our words, e.g. "Permit2" or "deposit ledger". */
  readonly spenderRole?: string;
  readonly agent?: string;
  /** A key of the vault the action is about (export, delete). */
  readonly key?: string;
  /** The token contract. */
  readonly token?: string;
  readonly chainId?: bigint | string;
  /** EIP-712 facts of a signature. */
  readonly verifyingContract?: string;
  readonly domainName?: string;
  /** Where the domain name comes from, for its label; by default the exchange's pinned domain. */
  readonly domainNameSource?: string;
  /** Window-supplied text. */
  readonly deploymentName?: string;
  readonly keyLabel?: string;
  readonly change?: ChangeFact;
  /** Extra sentences in our own words. */
  readonly notes?: readonly string[];
}

const MAX_QUOTED = 80;
// C0/C1 controls, zero-width and bidirectional formatting characters, line and paragraph separators.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** Quoted, single-line, bounded: text nobody but its author vouches for. */
export function quoted(text: string): string {
  const clean = text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim().replace(/["“”]/g, "'");
  const cut = clean.length > MAX_QUOTED ? `${clean.slice(0, MAX_QUOTED)}…` : clean;
  return `“${cut}”`;
}

export function userText(text: string): string {
  return `${quoted(text)} (user text: typed in this app, not checked)`;
}

export function exchangeText(text: string, source = 'sent by the exchange'): string {
  return `${quoted(text)} (${source})`;
}

export function fullAddress(address: string): string {
  return toChecksumAddress(address);
}

/** "$12.50", or "12.5 “USDC”" when a token reported its own symbol: every amount carries its unit. */
function amountWithUnit(amount: AmountFact): string {
  return amount.symbol === undefined
    ? formatDollars(amount.units)
    : `${formatAmount(amount.units)} ${quoted(amount.symbol)}`;
}

export function amountText(amount: AmountFact): string {
  return `${amountWithUnit(amount)} (${amount.units} base units)`;
}

/** The dialog request for one action, every fact on its own labelled line. */
export function confirmRequest(facts: ConfirmFacts): ConfirmRequest {
  const lines: string[] = [];
  const line = (label: string, value: string | undefined): void => {
    if (value !== undefined) lines.push(`${label}: ${value}`);
  };
  line('Action', facts.action);
  if (facts.change) {
    line('Setting', facts.change.setting);
    line('Now', facts.change.from);
    line('After', facts.change.to);
  }
  line('Amount', facts.amount && amountText(facts.amount));
  line('Receiver', facts.receiver && fullAddress(facts.receiver));
  line(facts.spenderRole ? `Spender (${facts.spenderRole})` : 'Spender', facts.spender && fullAddress(facts.spender));
  line('Agent', facts.agent && fullAddress(facts.agent));
  line('Key', facts.key && fullAddress(facts.key));
  line('Key label', facts.keyLabel === undefined ? undefined : userText(facts.keyLabel));
  line('Token', facts.token && fullAddress(facts.token));
  line('From account', facts.from && fullAddress(facts.from));
  line('Chain id', facts.chainId?.toString());
  line('Verifying contract', facts.verifyingContract && fullAddress(facts.verifyingContract));
  line(
    'Domain name',
    facts.domainName === undefined
      ? undefined
      : exchangeText(facts.domainName, facts.domainNameSource ?? 'sent by the exchange, pinned'),
  );
  line('Deployment', facts.deploymentName === undefined ? undefined : userText(facts.deploymentName));
  const kind =
    facts.capability === 'moves-value'
      ? 'This moves value. Confirm only if you started it and every line above is what you expect.'
      : 'This changes what the app trusts. Confirm only if you asked for it.';
  const notes = facts.notes && facts.notes.length > 0 ? ['', ...facts.notes] : [];
  const detail = [...lines, ...notes, '', kind].join('\n');
  const amount = facts.amount ? `: ${amountWithUnit(facts.amount)}` : '';
  return { title: facts.title, message: `${facts.action}${amount}?`, detail, confirmLabel: facts.confirmLabel };
}
