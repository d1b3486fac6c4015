import { readFileSync } from 'node:fs';
import { JsonRpcProvider, Network, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePermit2Domain, permit2DomainSeparator } from '../../shared/protocol';
import { DEPLOY_ORDER, DEVNET_MNEMONIC, deriveDevnetKeys, predictDevnetContracts } from './accounts';
import { formatDevnetBanner } from './banner';
import { decodeDevnetRevert, devnetContract } from './contracts';
import { DEVNET_DEFAULTS, startChain, type DevnetChain } from './start-chain';
import { minedReceipt } from './rpc';

const vectors = JSON.parse(readFileSync(new URL('../../../test/fixtures/vectors.json', import.meta.url), 'utf8')) as {
  permit2: { typehash: string; tokenPermissionsTypehash: string }[];
};

let chain: DevnetChain;
let provider: JsonRpcProvider;

beforeAll(async () => {
  chain = await startChain({ port: 0, accounts: 3 });
  provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true, cacheTimeout: -1 });
});

afterAll(async () => {
  provider?.destroy();
  await chain?.stop();
});

describe('startChain', () => {
  it('serves JSON-RPC on an ephemeral loopback port with the requested chain id', async () => {
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(chain.rpcUrl).not.toBe('http://127.0.0.1:0');
    expect(BigInt((await provider.send('eth_chainId', [])) as string)).toBe(31337n);
  });

  it("derives operator and demo keys from the devnet mnemonic (m/44'/60'/0'/0/i)", () => {
    const keys = deriveDevnetKeys(DEVNET_MNEMONIC, 3);
    expect(chain.operator).toEqual(keys.operator);
    expect(chain.accounts).toEqual(keys.accounts);
    expect(chain.accounts.map((a) => a.label)).toEqual(['alice', 'bob', 'carol']);
    for (const a of chain.accounts) expect(new Wallet(a.privateKey).address).toBe(a.address);
  });

  it('deploys every contract at its predicted (run-independent) address', async () => {
    expect(chain.contracts).toEqual(predictDevnetContracts(chain.operator.address));
    for (const address of DEPLOY_ORDER.map((key) => chain.contracts[key])) {
      expect((await provider.getCode(address)).length).toBeGreaterThan(2);
    }
  });

  it('wires the DepositLedger to the token, AccountLedger and Permit2', async () => {
    const ledger = devnetContract('DepositLedger', chain.contracts.depositLedger, provider);
    expect(await ledger.getFunction('SETTLEMENT_TOKEN')()).toBe(chain.contracts.settlementToken);
    expect(await ledger.getFunction('ACCOUNT_LEDGER')()).toBe(chain.contracts.ledger);
    expect(await ledger.getFunction('PERMIT2')()).toBe(chain.contracts.permit2);
    expect(await ledger.getFunction('minBlockWait')()).toBe(1n);
    const exchange = devnetContract('Exchange', chain.contracts.exchange, provider);
    const domain = (await exchange.getFunction('eip712Domain')()) as unknown[];
    expect([domain[1], domain[2], domain[3], domain[4]]).toEqual([
      'Service Exchange',
      '2',
      31337n,
      chain.contracts.exchange,
    ]);
  });

  it('funds demo accounts with gas and 6-decimal dUSD', async () => {
    const token = devnetContract('SettlementToken', chain.contracts.settlementToken, provider);
    expect(await token.getFunction('decimals')()).toBe(6n);
    expect(await token.getFunction('symbol')()).toBe('dUSD');
    for (const a of chain.accounts) {
      expect(await token.getFunction('balanceOf')(a.address)).toBe(DEVNET_DEFAULTS.tokensPerAccount);
      expect(await provider.getBalance(a.address)).toBe(DEVNET_DEFAULTS.ethPerAccount);
    }
  });

  it('runs a Permit2 whose typehashes and domain separator match the protocol', async () => {
    const permit2 = devnetContract('Permit2', chain.contracts.permit2, provider);
    const vector = vectors.permit2[0]!;
    expect(await permit2.getFunction('PERMIT_TRANSFER_FROM_TYPEHASH')()).toBe(vector.typehash);
    expect(await permit2.getFunction('TOKEN_PERMISSIONS_TYPEHASH')()).toBe(vector.tokenPermissionsTypehash);
    const expected = permit2DomainSeparator(
      makePermit2Domain({ chainId: chain.chainId, verifyingContract: chain.contracts.permit2 }),
    );
    expect(await permit2.getFunction('DOMAIN_SEPARATOR')()).toBe(expected);
  });

  it('gives faucet tokens once per cooldown per address', async () => {
    const fresh = Wallet.createRandom().connect(provider);
    await provider.send('hardhat_setBalance', [fresh.address, '0xde0b6b3a7640000']);
    const token = devnetContract('SettlementToken', chain.contracts.settlementToken, fresh);
    await minedReceipt(provider, (await token.getFunction('faucet').send()).hash, 'faucet');
    expect(await token.getFunction('balanceOf')(fresh.address)).toBe(10_000_000_000n);
    const second = await token
      .getFunction('faucet')
      .send()
      .catch((err: unknown) => err);
    expect(decodeDevnetRevert(second)?.name).toBe('FaucetCooldown');
    expect(await token.getFunction('balanceOf')(fresh.address)).toBe(10_000_000_000n);
  });

  it('lets only the owner mint', async () => {
    const alice = new Wallet(chain.accounts[0]!.privateKey, provider);
    const token = devnetContract('SettlementToken', chain.contracts.settlementToken, alice);
    const err = await token
      .getFunction('mint')
      .send(alice.address, 1n)
      .catch((e: unknown) => e);
    expect(decodeDevnetRevert(err)?.name).toBe('NotOwner');
  });
});

describe('formatDevnetBanner', () => {
  it('lists URLs, chain id, contracts and demo keys under a loud warning', () => {
    const text = formatDevnetBanner({
      ...chain,
      mnemonic: DEVNET_MNEMONIC,
      services: [{ label: 'Exchange HTTP', url: 'http://127.0.0.1:1234' }],
    });
    expect(text).toContain(chain.rpcUrl);
    expect(text).toContain('http://127.0.0.1:1234');
    expect(text).toContain('31337');
    for (const address of DEPLOY_ORDER.map((key) => chain.contracts[key])) expect(text).toContain(address);
    for (const a of chain.accounts) {
      expect(text).toContain(a.address);
      expect(text).toContain(a.privateKey);
    }
    expect(text).toContain(DEVNET_MNEMONIC);
    expect(text).toContain('DEVNET ONLY — never use these keys or this mnemonic anywhere else');
    // The operator is the exchange's key: its address is shown, its key is not.
    expect(text).toContain(chain.operator.address);
    expect(text).not.toContain(chain.operator.privateKey);
  });
});
