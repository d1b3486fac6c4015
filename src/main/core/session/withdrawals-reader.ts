/**
 * GET /withdrawals/:account, a documented devnet extension the read client does not wrap yet:
 * a small adapter over its HTTP core, parsed strictly at the edge.
 */
import { z } from 'zod';
import type { WithdrawalView } from '../../../shared/bridge';
import { toChecksumAddress, type Address } from '../../../shared/protocol';
import type { ExchangeReader } from '../../../client';

const withdrawalsSchema = z.object({
  withdrawals: z.array(
    z.object({
      id: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
      receiver: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
      amount: z.string().regex(/^(0|[1-9][0-9]*)$/),
      time: z.number().int().nonnegative(),
      status: z.enum(['PAID', 'QUEUED']),
      txHash: z
        .string()
        .regex(/^0x[0-9a-fA-F]{64}$/)
        .nullable(),
    }),
  ),
});

export async function readWithdrawals(reader: ExchangeReader, account: Address): Promise<WithdrawalView[]> {
  const { body } = await reader.http.get(`withdrawals/${account}`);
  const parsed = withdrawalsSchema.parse(body);
  return parsed.withdrawals.map((w) => ({
    id: w.id,
    amount: w.amount,
    // The exchange stores addresses in lower case; a wallet shows them checksummed.
    receiver: toChecksumAddress(w.receiver),
    status: w.status,
    txHash: w.txHash,
    requestedAt: w.time < 100_000_000_000 ? w.time * 1000 : w.time,
  }));
}
