import { Wallet, type JsonRpcProvider } from 'ethers';
import { decodeDevnetRevert } from './contracts';
import { ChainError } from './errors';
import { openRpc } from './rpc';

// One queue per (rpc, operator): concurrent helper calls would otherwise pick the same nonce.
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` with the operator's wallet on a fresh provider, one call at a time per operator,
 * and turns devnet custom-error reverts into ChainErrors. The key never reaches an error message.
 */
export async function withOperator<T>(
  rpcUrl: string,
  operatorKey: string,
  fn: (wallet: Wallet, provider: JsonRpcProvider) => Promise<T>,
): Promise<T> {
  let wallet: Wallet;
  try {
    wallet = new Wallet(operatorKey);
  } catch {
    throw new ChainError('INVALID_ARGUMENT', 'The operator key is not a valid private key.');
  }
  const queueKey = `${rpcUrl}|${wallet.address}`;
  const previous = queues.get(queueKey) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      const { provider } = await openRpc(rpcUrl);
      try {
        return await fn(wallet.connect(provider), provider);
      } catch (err) {
        throw toChainError(err);
      } finally {
        provider.destroy();
      }
    });
  queues.set(queueKey, run);
  void run
    .finally(() => {
      if (queues.get(queueKey) === run) queues.delete(queueKey);
    })
    .catch(() => undefined);
  return run;
}

function toChainError(err: unknown): ChainError {
  if (err instanceof ChainError) return err;
  const revert = decodeDevnetRevert(err);
  if (revert?.name === 'NotOperator') {
    return new ChainError('NOT_OPERATOR', 'The key used is not the operator of this contract.');
  }
  if (revert?.name === 'AlreadyPaid') {
    return new ChainError('WITHDRAWAL_ALREADY_PAID', 'This withdrawal id was already paid on chain.');
  }
  if (revert?.name === 'ERC20InsufficientBalance') {
    return new ChainError('INSUFFICIENT_LEDGER_BALANCE', 'The account ledger holds too few tokens for this payout.');
  }
  if (revert) return new ChainError('TX_REVERTED', `The transaction reverted with ${revert.name}.`);
  const message = err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.message) : String(err);
  return new ChainError('TX_REVERTED', `The chain refused the transaction: ${message}`);
}
