// Helpers shared by the engine's tests and benchmark: ids, accounts and command builders.
import { Engine } from './engine';
import type { Command, Hex, OrderFields, PlaceOrderCommand, TifName } from './types';
import { TIF } from './types';

export const ASSET = 261336857817713630688382311349658711122006440411137n;
export const EPOCH = 0n;
export const STRIKE = 3_000_000_000n;
/** Far-future expiration (unix s) so tests are not affected by time unless they mean to be. */
export const EXPIRATION = 4_000_000_000n;
export const T0 = 1_770_000_000_000;

export const ALICE = '0x' + 'a1'.repeat(20);
export const BOB = '0x' + 'b2'.repeat(20);
export const CAROL = '0x' + 'c3'.repeat(20);
export const DAVE = '0x' + 'd4'.repeat(20);

/** A deterministic 32-byte id from a number and a one-byte tag (so order and cancel ids never collide). */
export function hexId(n: number, tag = 1): Hex {
  return `0x${tag.toString(16).padStart(2, '0')}${n.toString(16).padStart(62, '0')}`;
}

export interface OrderSpec {
  account: string;
  side: 'buy' | 'sell';
  /** Protocol price units. */
  price: bigint;
  /** Size units (1e6 = one contract). */
  size: bigint;
  tif?: TifName;
  assetId?: bigint;
  epoch?: bigint;
  id?: Hex;
}

/** Builds commands with increasing ids and times, and applies them to an engine. */
export class Script {
  readonly engine: Engine;
  readonly log: Command[] = [];
  time = T0;
  private n = 0;

  constructor(engine = new Engine()) {
    this.engine = engine;
  }

  nextId(tag = 1): Hex {
    return hexId(++this.n, tag);
  }

  tick(ms = 1000): number {
    this.time += ms;
    return this.time;
  }

  market(assetId = ASSET, epoch = EPOCH, strike = STRIKE, expiration = EXPIRATION) {
    return this.engine.apply(
      this.push({ type: 'registerMarket', assetId, epoch, strike, expiration, time: this.tick() }),
    );
  }

  credit(owner: string, amount: bigint) {
    return this.engine.apply(this.push({ type: 'credit', owner, amount, index: BigInt(++this.n), time: this.tick() }));
  }

  orderFields(spec: OrderSpec): OrderFields {
    return {
      orderId: spec.id ?? this.nextId(1),
      account: spec.account,
      signer: spec.account,
      signatureType: 0n,
      assetId: spec.assetId ?? ASSET,
      epoch: spec.epoch ?? EPOCH,
      side: spec.side === 'sell',
      price: spec.price,
      size: spec.size,
      tif: BigInt(TIF[spec.tif ?? 'GTC']),
      nonce: BigInt(this.n),
      approvalNonce: 0n,
    };
  }

  order(spec: OrderSpec) {
    const cmd: PlaceOrderCommand = { type: 'placeOrder', ...this.orderFields(spec), time: this.tick() };
    return this.engine.apply(this.push(cmd));
  }

  cancel(account: string, orderId: Hex, assetId = ASSET, epoch = EPOCH) {
    return this.engine.apply(
      this.push({ type: 'cancel', id: this.nextId(2), account, assetId, epoch, orderId, time: this.tick() }),
    );
  }

  cancelReplace(account: string, cancelOrderId: Hex, replacement: OrderSpec, allOrNothing: boolean) {
    return this.engine.apply(
      this.push({
        type: 'cancelReplace',
        id: this.nextId(3),
        account,
        assetId: replacement.assetId ?? ASSET,
        epoch: replacement.epoch ?? EPOCH,
        cancelOrderId,
        allOrNothing,
        replacement: this.orderFields(replacement),
        time: this.tick(),
      }),
    );
  }

  resolve(price: bigint, assetId = ASSET, epoch = EPOCH) {
    return this.engine.apply(
      this.push({ type: 'resolve', id: this.nextId(4), assetId, epoch, price, time: this.tick() }),
    );
  }

  claim(account: string, assetId = ASSET, epoch = EPOCH) {
    return this.engine.apply(
      this.push({ type: 'claim', id: this.nextId(5), account, assetId, epoch, time: this.tick() }),
    );
  }

  withdraw(account: string, amount: bigint) {
    return this.engine.apply(this.push({ type: 'withdraw', id: this.nextId(6), account, amount, time: this.tick() }));
  }

  markPaid(id: Hex) {
    return this.engine.apply(this.push({ type: 'markWithdrawalPaid', id, txHash: this.nextId(7), time: this.tick() }));
  }

  private push<C extends Command>(cmd: C): C {
    this.log.push(cmd);
    return cmd;
  }
}
