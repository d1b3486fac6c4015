/**
 * Claims for the selected master, as the session's parts make them: shared by the claims.* handlers
 * and auto-claim (which the session host runs when an epoch resolves).
 */
import type { ClaimableEpoch, ClaimResult } from '../../../shared/bridge';
import { formatDollars, type Address } from '../../../shared/protocol';
import { marketLabel } from './market-name';
import type { TradingSession } from './session';

const masterOf = (session: TradingSession): Address => session.desk.master('Choose the account to claim for first.');

export async function listClaims(session: TradingSession): Promise<ClaimableEpoch[]> {
  const master = masterOf(session);
  const out: ClaimableEpoch[] = [];
  // Every market followed: one taken off the list may still pay.
  for (const m of session.marketSet.all) {
    for (const c of await session.epochs.claimable(m.assetId, master)) {
      session.desk.claimableSeen(c.assetId, c.epoch, c.claimable);
      out.push({
        assetId: c.assetId.toString(),
        epoch: c.epoch.toString(),
        symbol: m.symbol,
        amount: c.claimable.toString(),
      });
    }
  }
  return out;
}

export async function claimOne(session: TradingSession, assetId: bigint, epoch: bigint): Promise<ClaimResult> {
  const master = masterOf(session);
  const symbol = session.board.market(assetId).symbol;
  const amount = (await session.reader.getClaimable(assetId, epoch, master)).claimable;
  const r = await session.signers.client(master).claim({ assetId, epoch });
  session.desk.claimed(assetId, epoch);
  await session.desk.refresh(epoch, assetId);
  const ok = r.status === 'CLAIMED';
  const name = marketLabel(symbol, assetId, epoch);
  return {
    assetId: assetId.toString(),
    epoch: epoch.toString(),
    status: r.status,
    amount: ok ? amount.toString() : '0',
    summary: ok
      ? `Claimed ${formatDollars(amount)} from ${name}`
      : `Nothing claimed from ${name}: it is not resolved or holds nothing`,
  };
}
