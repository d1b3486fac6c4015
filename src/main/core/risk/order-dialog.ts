/**
 * The text of main's order dialog: every fact on its own labelled line, in a fixed order. The
 * account is named by its label, its role and its full address; the market by its name; text that
 * came from the window (a key label, a market name) is quoted, stripped of control and direction
 * characters and labelled, as in every dialog of main (confirm-text.ts).
 */
import type { TimeInForceName } from '../../../shared/bridge';
import { displayPrice, formatCents, formatDollars, formatSize, orderMargin } from '../../../shared/protocol';
import { fullAddress, quoted } from '../dialogs/confirm-text';
import type { ConfirmRequest } from '../dialogs/dialogs';
import type { Breach } from './guards';
import { openingSize } from './guards';

export type OrderPath =
  | 'place'
  | 'edit'
  | 'close'
  | 'offline-sign'
  | 'offline-send'
  | 'airgap-sign'
  | 'airgap-send'
  /** An order a working order sends when its trigger holds (src/main/core/working-orders). */
  | 'working-order';

const TITLES: Readonly<Record<OrderPath, string>> = {
  place: 'Place order',
  edit: 'Edit order',
  close: 'Close position',
  'offline-sign': 'Sign an order for another machine',
  'offline-send': 'Send an order signed earlier',
  'airgap-sign': 'Sign an order another machine prepared',
  'airgap-send': 'Send an order signed on another machine',
  'working-order': 'Working order',
};

export interface OrderDialogFacts {
  path: OrderPath;
  /** The key that signs; its label as the user typed it (null without one). */
  signer: string;
  signerLabel: string | null;
  role: 'master' | 'agent';
  /** The account whose money it is. */
  master: string;
  market: string;
  sell: boolean;
  price: bigint;
  size: bigint;
  timeInForce: TimeInForceName;
  /** Signed contracts held in this market before the order (null: not known here). */
  inventory: bigint | null;
  fair: { price: bigint } | { reason: string };
  breaches: readonly Breach[];
  /** Guards that could not be checked here, in our words. */
  unchecked: readonly string[];
  /** The deployment's name (user text). */
  deployment: string | null;
  /** Our own sentences, e.g. an air-gapped request's fingerprint. */
  notes?: readonly string[];
}

/** "12.5¢ above fair value 50.0¢", "at fair value 50.0¢". */
export function distanceText(price: bigint, fair: bigint): string {
  if (price === fair) return `at fair value ${displayPrice(fair)}`;
  const d = price > fair ? price - fair : fair - price;
  return `${displayPrice(d)} ${price > fair ? 'above' : 'below'} fair value ${displayPrice(fair)}`;
}

export function orderDialog(f: OrderDialogFacts): ConfirmRequest {
  const side = f.sell ? 'Sell' : 'Buy';
  const lines: string[] = [];
  const line = (label: string, value: string): void => void lines.push(`${label}: ${value}`);
  const label = f.signerLabel === null ? '' : `${quoted(f.signerLabel)} (your label), `;
  if (f.role === 'master') line('Account', `${label}master key ${fullAddress(f.signer)}`);
  else {
    line('Account', `${fullAddress(f.master)}`);
    line('Signed by', `${label}agent key ${fullAddress(f.signer)}, trading for that account`);
  }
  line('Market', `${quoted(f.market)} (name from the market list)`);
  line('Order', `${side} ${formatSize(f.size)} Up at ${formatCents(f.price)}, ${f.timeInForce}`);
  line(
    'Fair value',
    'price' in f.fair ? `${side} price is ${distanceText(f.price, f.fair.price)}` : `none: ${f.fair.reason}`,
  );
  const inventory = f.inventory ?? 0n;
  const opening = openingSize(f, inventory);
  const cost = orderMargin(f.sell, opening, f.price);
  const closing = f.size - opening;
  line(
    'Cost',
    `${formatDollars(cost)}; pays ${formatDollars(opening)} if right; the most it can lose is ${formatDollars(cost)}`,
  );
  if (closing > 0n && f.inventory !== null) line('Closes', `${formatSize(closing)} contracts of the position`);
  if (f.deployment !== null) line('Deployment', `${quoted(f.deployment)} (user text: typed in this app, not checked)`);
  const notes: string[] = f.notes && f.notes.length > 0 ? ['', ...f.notes] : [];
  if (f.breaches.length > 0) {
    notes.push('', 'This order breaks your risk limits:');
    for (const b of f.breaches) notes.push(`• ${b.sentence}`);
    notes.push('Send it anyway only if you meant exactly this order: the limits stay as they are.');
  }
  if (f.unchecked.length > 0) notes.push('', `Not checked here: ${f.unchecked.join('; ')}.`);
  const footer = 'A trade moves money. Confirm only if you started it and every line above is what you expect.';
  return {
    title: TITLES[f.path],
    message: `${side} ${formatSize(f.size)} Up at ${formatCents(f.price)}${f.breaches.length > 0 ? ' despite your risk limits' : ''}?`,
    detail: [...lines, ...notes, '', footer].join('\n'),
    confirmLabel: f.breaches.length > 0 ? `${side} anyway` : `${side} ${formatSize(f.size)}`,
  };
}
