// What the signing machine shows before it signs: the request in words, from the structs themselves
// (never from anything the preparing machine wrote about them), and whether it moves value.
import {
  describeMarketByFacts,
  epochWindow,
  formatDollars,
  formatPrice,
  formatSize,
  orderMargin,
  type ActionOf,
} from '../../shared/protocol';
import type { UnsignedRequest } from './formats';

export interface RequestDescription {
  /** e.g. "Order", "Withdrawal". */
  title: string;
  lines: string[];
  /** Withdrawals and agent approvals: main's dialog confirms these before they are signed. */
  movesValue: boolean;
}

/** Names a market for people; main knows the deployment's markets, this layer does not. */
export type MarketName = (assetId: bigint) => string | undefined;

const TIF = ['GTC', 'FOK', 'IOC', 'ALO'];

// A crafted request can hold values the formatters refuse (off range); show the raw units then.
function safe(format: (v: bigint) => string, v: bigint, unit: string): string {
  try {
    return format(v);
  } catch {
    return `${v} ${unit}`;
  }
}

// A market by its name where this machine knows one, else by what its asset id says (symbol,
// timeframe, the epoch's start and end), never by the 30-odd digits of the id.
function market(name: MarketName, assetId: bigint, epoch: bigint): string {
  const known = name(assetId);
  const window = epochWindow(assetId, epoch);
  if (!known) return describeMarketByFacts(assetId, epoch);
  return `${known}, epoch ${epoch}${window ? ` (${window})` : ''}`;
}

function orderLine(o: ActionOf<'FillOrder'>, name: MarketName): string[] {
  const side = o.side ? 'Sell' : 'Buy';
  const price = safe(formatPrice, o.price, 'price units');
  const size = safe(formatSize, o.size, 'size units');
  const tif = TIF[Number(o.timeInForce)] ?? `time in force ${o.timeInForce}`;
  let margin = '';
  try {
    margin = `, locking up to ${formatDollars(orderMargin(o.side, o.size, o.price))}`;
  } catch {
    margin = '';
  }
  return [`${side} ${size} contracts at ${price}¢ (${tif}) on ${market(name, o.assetId, o.epoch)}${margin}.`];
}

export function describeRequest(request: UnsignedRequest, name: MarketName = () => undefined): RequestDescription {
  const nonce = (n: bigint) => `Nonce ${n}.`;
  switch (request.kind) {
    case 'order':
      return {
        title: 'Order',
        lines: [...orderLine(request.order, name), nonce(request.order.nonce)],
        // A trade is a value move: a price far from fair hands money to the other side.
        movesValue: true,
      };
    case 'cancel':
      return {
        title: 'Cancel',
        lines: [
          `Cancel the order ${request.cancel.orderHash} on ${market(name, request.cancel.assetId, request.cancel.epoch)}.`,
          nonce(request.cancel.nonce),
        ],
        movesValue: false,
      };
    case 'cancel-all':
      return {
        title: 'Cancel all',
        lines: [
          `Cancel every open order on ${market(name, request.cancel.assetId, request.cancel.epoch)}.`,
          nonce(request.cancel.nonce),
        ],
        movesValue: false,
      };
    case 'cancel-replace':
      return {
        title: 'Cancel and replace',
        lines: [
          `Cancel the order ${request.cancelReplace.cancelOrderHash}${request.cancelReplace.allOrNothing ? ' (only if the replacement is placed too)' : ''} and place instead:`,
          ...orderLine(request.replacement, name),
          nonce(request.cancelReplace.nonce),
        ],
        movesValue: true,
      };
    case 'claim':
      return {
        title: 'Claim',
        lines: [
          `Claim the payout of ${market(name, request.claim.assetId, request.claim.epoch)}.`,
          nonce(request.claim.nonce),
        ],
        movesValue: false,
      };
    case 'withdrawal': {
      const w = request.withdrawal;
      const self = w.receiver.toLowerCase() === request.signer.toLowerCase();
      return {
        title: 'Withdrawal',
        lines: [
          `Withdraw ${safe(formatDollars, w.amount, 'units')} to ${w.receiver}${self ? ' (this account itself)' : ' (another address)'}.`,
          `From the account ledger ${w.ledger}.`,
          nonce(w.nonce),
        ],
        movesValue: true,
      };
    }
    case 'agent-approval': {
      const expires = new Date(Number(request.approval.approvalNonce) * 1000).toISOString();
      return {
        title: 'Agent approval',
        lines: [
          `Let ${request.approval.agent} trade for ${request.signer}: place, cancel and claim, never withdraw.`,
          `The approval must be sent before ${expires}, or it expires unused.`,
          nonce(request.approveAgent.nonce),
        ],
        movesValue: true,
      };
    }
    case 'agent-revocation':
      return {
        title: 'Agent revocation',
        lines: ['Revoke the agent currently approved for this account.', nonce(request.revocation.nonce)],
        movesValue: false,
      };
  }
}
