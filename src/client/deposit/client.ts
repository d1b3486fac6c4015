import { setTimeout as sleep } from 'node:timers/promises';
import {
  Contract,
  Interface,
  type ContractTransactionResponse,
  JsonRpcProvider,
  Network,
  type TransactionReceipt,
  type Wallet,
} from 'ethers';
import { formatAmount, parseAmount, type Address, type Hex } from '../../shared/protocol';
import { sendWithGasMargin } from '../../shared/gas-margin';
import { pollReceipt } from '../../shared/receipt-poll';
import { DEPOSIT_LEDGER_ABI, ERC20_ABI } from './abi';
import { rpcConnection } from './bounded-rpc';
import { DepositError, toDepositError } from './errors';
import { randomPermitNonce, signDepositPermit } from './permit';

export interface DepositClientOptions {
  rpcUrl: string;
  expectedChainId: bigint;
  depositLedger: Address;
  /**
   * The token and Permit2 addresses the user confirmed (pinned with the deployment's domain, with
   * `depositLedger`). The ledger's own SETTLEMENT_TOKEN and PERMIT2 must equal them, or nothing is
   * approved, signed or sent.
   */
  pinned?: { settlementToken: Address; permit2: Address };
  wallet: Wallet;
  /** Receipt and confirmation polling interval. */
  pollIntervalMs?: number;
}

export type DepositMode = 'approve' | 'permit';

/** 'credited' is never emitted here: the caller reports it once the exchange balance shows the deposit. */
export type DepositStage =
  'checking' | 'approving' | 'approved' | 'signing-permit' | 'sent' | 'mined' | 'confirmations' | 'credited';

export interface ChainDepositProgress {
  stage: DepositStage;
  confirmations: number;
  required: number;
  txHash?: Hex;
}

export interface DepositOptions {
  mode: DepositMode;
  /** Blocks to wait for, counting the deposit's own block. Default 1. */
  confirmations?: number;
  onProgress?: (progress: ChainDepositProgress) => void;
  /** Give up waiting for a receipt or confirmations after this long. Default 5 minutes. */
  timeoutMs?: number;
  /** Permit mode: overrides (tests, or a UI that lets the user choose). */
  permit?: { nonce?: bigint; deadline?: bigint; ttlSeconds?: number };
}

export interface ChainDepositResult {
  /** DepositQueued index: the deposit's id at the exchange. */
  index: bigint;
  txHash: Hex;
  blockNumber: bigint;
  amount: bigint;
}

export interface DepositPlan {
  amount: bigint;
  /** Canonical human form of `amount`, e.g. "100.25". */
  amountHuman: string;
  owner: Address;
  chainId: bigint;
  depositLedger: Address;
  settlementToken: Address;
  accountLedger: Address;
  permit2: Address;
  tokenSymbol: string;
  tokenBalance: bigint;
  gasBalance: bigint;
  /** Upper estimate of the gas cost (wei) of the most expensive path. */
  maxGasCost: bigint;
  approve: { approvalNeeded: boolean; transactions: number };
  permit: { permit2ApprovalNeeded: boolean; transactions: number };
}

export interface DepositClient {
  plan(amountHuman: string): Promise<DepositPlan>;
  deposit(amountHuman: string, options: DepositOptions): Promise<ChainDepositResult>;
  /** Releases the RPC connection. */
  close(): void;
}

// Generous gas ceilings for the pre-flight balance check (measured: approve ≈ 46k, deposit ≈ 120k).
const APPROVE_GAS = 80_000n;
const DEPOSIT_GAS = 250_000n;
const DEFAULT_PERMIT_TTL_SECONDS = 600;

/**
 * On-chain deposits through the DepositLedger (docs/protocol/deposits.md): approve + deposit, or Permit2 +
 * depositWithPermit.
 */
export function createDepositClient(opts: DepositClientOptions): DepositClient {
  const pollMs = opts.pollIntervalMs ?? 500;
  // Pinned network: no auto-detection loop; we check eth_chainId ourselves before every step.
  const provider = new JsonRpcProvider(rpcConnection(opts.rpcUrl), Network.from(opts.expectedChainId), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
    pollingInterval: pollMs,
  });
  const wallet = opts.wallet.connect(provider);
  const owner = wallet.address as Address;
  const ledger = new Contract(opts.depositLedger, DEPOSIT_LEDGER_ABI, wallet);
  let queue: Promise<unknown> = Promise.resolve();

  async function checkChain(): Promise<void> {
    let actual: bigint;
    try {
      actual = BigInt((await provider.send('eth_chainId', [])) as string);
    } catch {
      throw new DepositError('RPC_UNAVAILABLE', `The chain RPC at ${opts.rpcUrl} did not answer.`);
    }
    if (actual !== opts.expectedChainId) {
      throw new DepositError(
        'WRONG_CHAIN',
        `The RPC is on chain ${actual}, but this deployment expects chain ${opts.expectedChainId}. Nothing was sent.`,
      );
    }
  }

  async function readPlan(amountHuman: string): Promise<DepositPlan> {
    const amount = parseAmount(amountHuman);
    await checkChain();
    if ((await provider.getCode(opts.depositLedger)) === '0x') {
      throw new DepositError(
        'NOT_A_DEPOSIT_LEDGER',
        `No contract is deployed at the deposit ledger address ${opts.depositLedger}.`,
      );
    }
    const [settlementToken, accountLedger, permit2] = (await Promise.all([
      ledger.getFunction('SETTLEMENT_TOKEN')(),
      ledger.getFunction('ACCOUNT_LEDGER')(),
      ledger.getFunction('PERMIT2')(),
    ])) as [Address, Address, Address];
    const pinned = opts.pinned;
    if (pinned) {
      for (const [what, onChain, trusted] of [
        ['settlement token', settlementToken, pinned.settlementToken],
        ['Permit2', permit2, pinned.permit2],
      ] as const) {
        if (onChain.toLowerCase() !== trusted.toLowerCase()) {
          throw new DepositError(
            'SPENDER_MISMATCH',
            `The deposit ledger names ${onChain} as its ${what}, but the pinned ${what} of this deployment is ${trusted}: nothing was approved or sent.`,
          );
        }
      }
    }
    const token = new Contract(settlementToken, ERC20_ABI, provider);
    const [decimals, symbol, tokenBalance, ledgerAllowance, permit2Allowance, gasBalance, fees] = await Promise.all([
      token.getFunction('decimals')() as Promise<bigint>,
      (token.getFunction('symbol')() as Promise<string>).catch(() => 'tokens'),
      token.getFunction('balanceOf')(owner) as Promise<bigint>,
      token.getFunction('allowance')(owner, opts.depositLedger) as Promise<bigint>,
      token.getFunction('allowance')(owner, permit2) as Promise<bigint>,
      provider.getBalance(owner),
      provider.getFeeData(),
    ]);
    if (decimals !== 6n) {
      throw new DepositError(
        'TOKEN_DECIMALS',
        `The settlement token has ${decimals} decimals; deposits need a 6-decimal token.`,
      );
    }
    if (tokenBalance < amount) {
      throw new DepositError(
        'INSUFFICIENT_TOKEN_BALANCE',
        `The wallet holds ${formatAmount(tokenBalance)} ${symbol}, less than the ${formatAmount(amount)} to deposit.`,
      );
    }
    const approvalNeeded = ledgerAllowance < amount;
    const permit2ApprovalNeeded = permit2Allowance < amount;
    const gasPrice = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
    const maxGasCost = gasPrice * (APPROVE_GAS + DEPOSIT_GAS);
    if (gasBalance < maxGasCost) {
      throw new DepositError(
        'INSUFFICIENT_GAS',
        'The wallet has too little native currency to pay for the deposit gas.',
      );
    }
    return {
      amount,
      amountHuman: formatAmount(amount),
      owner,
      chainId: opts.expectedChainId,
      depositLedger: opts.depositLedger,
      settlementToken,
      accountLedger,
      permit2,
      tokenSymbol: symbol,
      tokenBalance,
      gasBalance,
      maxGasCost,
      approve: { approvalNeeded, transactions: approvalNeeded ? 2 : 1 },
      permit: { permit2ApprovalNeeded, transactions: permit2ApprovalNeeded ? 2 : 1 },
    };
  }

  async function waitForReceipt(txHash: Hex, deadline: number): Promise<TransactionReceipt> {
    const receipt = await pollReceipt(provider, txHash, { pollMs, deadline, sleep });
    if (!receipt)
      throw new DepositError(
        'CONFIRMATION_TIMEOUT',
        `Transaction ${txHash} was not mined in time; it may still be pending.`,
      );
    if (receipt.status !== 1) throw new DepositError('TX_REVERTED', `Transaction ${txHash} reverted on chain.`);
    return receipt;
  }

  async function approve(
    token: Address,
    spender: Address,
    amount: bigint,
    deadline: number,
    emit: Emit,
  ): Promise<void> {
    await checkChain();
    const tx = await sendWithGasMargin(new Contract(token, ERC20_ABI, wallet).getFunction('approve'), spender, amount);
    emit('approving', 0, tx.hash as Hex);
    await waitForReceipt(tx.hash as Hex, deadline);
    emit('approved', 0, tx.hash as Hex);
  }

  async function runDeposit(amountHuman: string, options: DepositOptions): Promise<ChainDepositResult> {
    const required = Math.max(1, options.confirmations ?? 1);
    const deadline = Date.now() + (options.timeoutMs ?? 300_000);
    const emit: Emit = (stage, confirmations, txHash) =>
      options.onProgress?.({ stage, confirmations, required, ...(txHash === undefined ? {} : { txHash }) });

    emit('checking', 0);
    const plan = await readPlan(amountHuman);
    const { amount } = plan;
    let send: () => Promise<ContractTransactionResponse>;
    if (options.mode === 'approve') {
      // Exact approval: the DepositLedger never holds a standing allowance beyond this deposit.
      if (plan.approve.approvalNeeded) await approve(plan.settlementToken, opts.depositLedger, amount, deadline, emit);
      send = () => sendWithGasMargin(ledger.getFunction('deposit'), amount);
    } else {
      // Exact approval here too: Permit2 never holds a standing allowance beyond what this deposit needs.
      if (plan.permit.permit2ApprovalNeeded) await approve(plan.settlementToken, plan.permit2, amount, deadline, emit);
      const latest = await provider.getBlock('latest');
      const chainNow = BigInt(latest?.timestamp ?? Math.floor(Date.now() / 1000));
      const permitDeadline =
        options.permit?.deadline ?? chainNow + BigInt(options.permit?.ttlSeconds ?? DEFAULT_PERMIT_TTL_SECONDS);
      if (permitDeadline <= chainNow) {
        throw new DepositError('PERMIT_EXPIRED', 'The deposit permit deadline has already passed; sign a new one.');
      }
      emit('signing-permit', 0);
      const permit = signDepositPermit({
        chainId: opts.expectedChainId,
        permit2: plan.permit2,
        token: plan.settlementToken,
        spender: opts.depositLedger,
        amount,
        nonce: options.permit?.nonce ?? randomPermitNonce(),
        deadline: permitDeadline,
        privateKey: wallet.privateKey as Hex,
      });
      send = () =>
        sendWithGasMargin(
          ledger.getFunction('depositWithPermit'),
          amount,
          permit.message.nonce,
          owner,
          permit.message.deadline,
          permit.signature,
        );
    }

    await checkChain();
    // Gas is estimated first, so a deposit that would revert is refused before anything is sent.
    const tx = await send();
    const txHash = tx.hash as Hex;
    emit('sent', 0, txHash);
    const receipt = await waitForReceipt(txHash, deadline);
    emit('mined', 1, txHash);
    const index = depositIndexFrom(receipt, opts.depositLedger, owner);

    let confirmations = 1;
    while (confirmations < required) {
      if (Date.now() > deadline) {
        throw new DepositError(
          'CONFIRMATION_TIMEOUT',
          `Deposit ${txHash} is mined but did not reach ${required} confirmations in time.`,
        );
      }
      await sleep(pollMs);
      const head = await provider.getBlockNumber();
      const now = head - receipt.blockNumber + 1;
      if (now > confirmations) {
        confirmations = Math.min(now, required);
        emit('confirmations', confirmations, txHash);
      }
    }
    return { index, txHash, blockNumber: BigInt(receipt.blockNumber), amount };
  }

  /** Deposits from one wallet run one at a time, so approvals and nonces never interleave. */
  function serialised<T>(fn: () => Promise<T>): Promise<T> {
    const run = queue.catch(() => undefined).then(fn);
    queue = run;
    return run;
  }

  return {
    plan: (amountHuman) => readPlan(amountHuman).catch((err: unknown) => Promise.reject(toDepositError(err))),
    deposit: (amountHuman, options) =>
      serialised(() => runDeposit(amountHuman, options)).catch((err: unknown) => Promise.reject(toDepositError(err))),
    close: () => provider.destroy(),
  };
}

type Emit = (stage: DepositStage, confirmations: number, txHash?: Hex) => void;

const depositLedgerInterface = new Interface(DEPOSIT_LEDGER_ABI);

function depositIndexFrom(receipt: TransactionReceipt, depositLedger: Address, owner: Address): bigint {
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== depositLedger.toLowerCase()) continue;
    const parsed = depositLedgerInterface.parseLog(log);
    if (parsed?.name === 'DepositQueued' && (parsed.args[1] as string).toLowerCase() === owner.toLowerCase()) {
      return parsed.args[0] as bigint;
    }
  }
  throw new DepositError('TX_REVERTED', `Deposit ${receipt.hash} was mined but emitted no DepositQueued event.`);
}
