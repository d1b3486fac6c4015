/** claims.*: resolved epochs with something to claim, and the claims themselves (signed by the master). */
import type { ClaimResult } from '../../../shared/bridge';
import type { AreaHandlers } from '../bridge-runtime';
import { claimOne, listClaims } from '../session/claim-actions';
import type { TradingHost } from '../session/host';

export function claimsHandlers(trading: TradingHost): AreaHandlers<'claims'> {
  return {
    'claims.list': async () => listClaims(await trading.connected()),
    'claims.claim': async ({ assetId, epoch }) => claimOne(await trading.connected(), BigInt(assetId), BigInt(epoch)),
    'claims.claimAll': async () => {
      const session = await trading.connected();
      const results: ClaimResult[] = [];
      for (const c of await listClaims(session))
        results.push(await claimOne(session, BigInt(c.assetId), BigInt(c.epoch)));
      return results;
    },
  };
}
