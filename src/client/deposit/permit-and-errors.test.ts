import { readFileSync } from 'node:fs';
import { Interface } from 'ethers';
import { describe, expect, it } from 'vitest';
import { UnitsError, type Address, type Hex } from '../../shared/protocol';
import { DEPOSIT_ERRORS_ABI } from './abi';
import { DepositError, toDepositError } from './errors';
import { randomPermitNonce, signDepositPermit } from './permit';

interface Permit2Vector {
  name: string;
  domain: { chainId: string; verifyingContract: Address };
  message: { permitted: { token: Address; amount: string }; spender: Address; nonce: string; deadline: string };
  privateKey: Hex;
  signature: Hex;
}

const vectors = JSON.parse(readFileSync(new URL('../../../test/fixtures/vectors.json', import.meta.url), 'utf8')) as {
  permit2: Permit2Vector[];
};

describe('signDepositPermit', () => {
  it.each(vectors.permit2.map((v) => [v.name, v] as const))('reproduces %s', (_name, v) => {
    const permit = signDepositPermit({
      chainId: BigInt(v.domain.chainId),
      permit2: v.domain.verifyingContract,
      token: v.message.permitted.token,
      spender: v.message.spender,
      amount: BigInt(v.message.permitted.amount),
      nonce: BigInt(v.message.nonce),
      deadline: BigInt(v.message.deadline),
      privateKey: v.privateKey,
    });
    expect(permit.signature.toLowerCase()).toBe(v.signature.toLowerCase());
    expect(permit.message.spender).toBe(v.message.spender);
  });

  it('draws distinct uint256 nonces', () => {
    const nonces = new Set(Array.from({ length: 64 }, () => randomPermitNonce()));
    expect(nonces.size).toBe(64);
    for (const n of nonces) expect(n >= 0n && n < 2n ** 256n).toBe(true);
  });
});

describe('toDepositError', () => {
  const iface = new Interface(DEPOSIT_ERRORS_ABI);
  // Shaped like ethers' CALL_EXCEPTION from eth_estimateGas, with the revert data nested.
  const reverted = (name: string, args: unknown[] = []) => ({
    code: 'CALL_EXCEPTION',
    shortMessage: 'execution reverted',
    info: { error: { code: 3, data: iface.encodeErrorResult(name, args) } },
  });

  it.each([
    ['SignatureExpired', [5n], 'PERMIT_EXPIRED'],
    ['InvalidSignature', [], 'PERMIT_INVALID'],
    ['InvalidSigner', [], 'PERMIT_INVALID'],
    ['InvalidAmount', [1n], 'PERMIT_INVALID'],
    ['InvalidNonce', [], 'PERMIT_NONCE_USED'],
    ['ERC20InsufficientBalance', ['0x0000000000000000000000000000000000000001', 0n, 1n], 'INSUFFICIENT_TOKEN_BALANCE'],
    ['ERC20InsufficientAllowance', ['0x0000000000000000000000000000000000000001', 0n, 1n], 'INSUFFICIENT_ALLOWANCE'],
    ['ZeroAmount', [], 'INVALID_AMOUNT'],
    ['TransferFailed', [], 'TX_REVERTED'],
  ] as const)('maps %s to %s', (name, args, code) => {
    const err = toDepositError(reverted(name, [...args]));
    expect(err).toBeInstanceOf(DepositError);
    expect(err.code).toBe(code);
    expect(err.message.length).toBeGreaterThan(10);
  });

  it('maps unknown reverts, gas shortfalls, unit errors and dead RPCs', () => {
    expect(toDepositError({ data: '0xdeadbeef00' }).code).toBe('TX_REVERTED');
    expect(toDepositError({ code: 'INSUFFICIENT_FUNDS', shortMessage: 'insufficient funds' }).code).toBe(
      'INSUFFICIENT_GAS',
    );
    expect(toDepositError(new UnitsError('INVALID_AMOUNT', 'Amount must be …')).code).toBe('INVALID_AMOUNT');
    expect(toDepositError(new TypeError('fetch failed')).code).toBe('RPC_UNAVAILABLE');
    const same = new DepositError('WRONG_CHAIN', 'x');
    expect(toDepositError(same)).toBe(same);
  });

  it('never echoes an error’s full message (which may embed request bodies)', () => {
    const key = '0x96a9aaae992dc91b323af861602808fdd879520e161af6043833b6cb4537f212';
    const err = toDepositError(Object.assign(new Error(`boom ${key}`), { shortMessage: 'could not coalesce error' }));
    expect(err.code).toBe('TX_REVERTED');
    expect(err.message).not.toContain(key.slice(2));
    expect(err.message).toContain('could not coalesce error');
  });
});
