// Read-only endpoints (docs/protocol/endpoints.md#endpoints). Any account may be queried. Every answer is
// schema-checked.
import type { z } from 'zod';
import { ADDRESS_RE, type Address } from '../../shared/protocol';
import { ExchangeHttpError, ExchangeValidationError } from '../errors';
import type { CallOptions, HttpCore } from './http';
import * as s from './schemas';

export const DEFAULT_BOOK_DEPTH = 200;
export const MAX_BOOK_DEPTH = 5000;
export const MAX_FILLS_LIMIT = 1000;

export interface FillsQuery {
  assetId?: bigint;
  epoch?: bigint;
  /** 1..1000; the server's default (100 on the devnet) when absent. */
  limit?: number;
}

function dec(v: bigint, what: string): string {
  if (typeof v !== 'bigint' || v < 0n)
    throw new ExchangeValidationError('INVALID_ARGUMENT', `${what} must be a non-negative integer.`);
  return v.toString();
}

function acct(a: string, what = 'Account'): string {
  if (typeof a !== 'string' || !ADDRESS_RE.test(a))
    throw new ExchangeValidationError('INVALID_ARGUMENT', `${what} must be 0x followed by 40 hex digits.`);
  return a;
}

export class ExchangeReader {
  constructor(readonly http: HttpCore) {}

  async #get<T>(path: string, schema: z.ZodType<T>, what: string, opts?: CallOptions): Promise<T> {
    const res = await this.http.get(path, opts);
    return s.parseResponse(schema, res.body, what);
  }

  getHealth(opts?: CallOptions): Promise<s.Health> {
    return this.#get('health', s.healthSchema, 'health answer', opts);
  }

  /**
   * Contract addresses the server uses for `chainId`. A 404 means the deployment does not serve it
   * (docs/protocol/choices.md#domain-name-and-chain-configuration).
   */
  getExchangeConfig(chainId: bigint, opts?: CallOptions): Promise<s.ExchangeConfig> {
    return this.#get(`config/chains/${dec(chainId, 'Chain id')}`, s.exchangeConfigSchema, 'chain configuration', opts);
  }

  /**
   * The server's EIP-712 domain, where the deployment publishes it (a devnet extension, 404 elsewhere:
   * docs/protocol/choices.md#domain-name-and-chain-configuration).
   */
  getExchangeDomain(chainId: bigint, opts?: CallOptions): Promise<s.DomainConfig> {
    return this.#get(`config/domain/${dec(chainId, 'Chain id')}`, s.domainConfigSchema, 'domain configuration', opts);
  }

  getAsset(assetId: bigint, opts?: CallOptions): Promise<s.Asset> {
    return this.#get(`asset/${dec(assetId, 'Asset id')}`, s.assetSchema, 'asset', opts);
  }

  getAssetAtEpoch(assetId: bigint, epoch: bigint, opts?: CallOptions): Promise<s.AssetAtEpoch> {
    return this.#get(
      `asset/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}`,
      s.assetAtEpochSchema,
      'asset epoch',
      opts,
    );
  }

  getResolutionPrice(assetId: bigint, epoch: bigint, opts?: CallOptions): Promise<s.Resolution> {
    return this.#get(
      `resolve/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}`,
      s.resolutionSchema,
      'resolution price',
      opts,
    );
  }

  getLastResolutionPrice(assetId: bigint, opts?: CallOptions): Promise<s.Resolution> {
    return this.#get(`resolve/last/epoch/${dec(assetId, 'Asset id')}`, s.resolutionSchema, 'resolution price', opts);
  }

  getMarkPrice(assetId: bigint, opts?: CallOptions): Promise<s.MarkPrice> {
    return this.#get(`resolve/mark/${dec(assetId, 'Asset id')}`, s.markPriceSchema, 'mark price', opts);
  }

  getSettlementPrice(assetId: bigint, epoch: bigint, opts?: CallOptions): Promise<s.SettlementPrice> {
    return this.#get(
      `resolve/settlement/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}`,
      s.settlementPriceSchema,
      'settlement price',
      opts,
    );
  }

  getBalance(account: Address, opts?: CallOptions): Promise<s.Balance> {
    return this.#get(`balance/${acct(account)}`, s.balanceSchema, 'balance', opts);
  }

  /** L2 book; `depth` 1..5000 (default 200) is checked before anything is sent. */
  getOrderBook(assetId: bigint, epoch: bigint, opts: CallOptions & { depth?: number } = {}): Promise<s.OrderBook> {
    const depth = opts.depth ?? DEFAULT_BOOK_DEPTH;
    if (!Number.isSafeInteger(depth) || depth < 1 || depth > MAX_BOOK_DEPTH) {
      return Promise.reject(
        new ExchangeValidationError(
          'INVALID_DEPTH',
          `Book depth must be a whole number from 1 to ${MAX_BOOK_DEPTH}; got ${String(depth)}.`,
        ),
      );
    }
    return this.#get(
      `book/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}?depth=${depth}`,
      s.orderBookSchema,
      'order book',
      opts,
    );
  }

  /** One account's resting orders; their ids are the orders' digests (docs/protocol/endpoints.md#field-shapes). */
  getBookOrders(assetId: bigint, epoch: bigint, account: Address, opts?: CallOptions): Promise<s.BookOrders> {
    return this.#get(
      `book/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}/${acct(account)}`,
      s.bookOrdersSchema,
      'resting orders',
      opts,
    );
  }

  getTopOfBook(assetId: bigint, epoch: bigint, opts?: CallOptions): Promise<s.TopOfBook> {
    return this.#get(
      `book/market/top/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}`,
      s.topOfBookSchema,
      'top of book',
      opts,
    );
  }

  getPosition(account: Address, assetId: bigint, epoch: bigint, opts?: CallOptions): Promise<s.ExchangePosition> {
    return this.#get(
      `position/${acct(account)}/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}`,
      s.positionSchema,
      'position',
      opts,
    );
  }

  getClaimable(assetId: bigint, epoch: bigint, account: Address, opts?: CallOptions): Promise<s.Claimable> {
    return this.#get(
      `claim/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}/${acct(account)}`,
      s.claimableSchema,
      'claimable amount',
      opts,
    );
  }

  getAgentApproval(master: Address, opts?: CallOptions): Promise<s.AgentStatus> {
    return this.#get(`agents/status/${acct(master, 'Master')}`, s.agentStatusSchema, 'agent status', opts);
  }

  /** Only the `nonce` of the agent status (a string on the wire; a number is rejected). */
  async getAgentApprovalNonce(master: Address, opts?: CallOptions): Promise<bigint> {
    return (await this.getAgentApproval(master, opts)).nonce;
  }

  getLedgerOrders(assetId: bigint, epoch: bigint, account?: Address, opts?: CallOptions): Promise<s.LedgerOrders> {
    const base = `ledger/orders/${dec(assetId, 'Asset id')}/${dec(epoch, 'Epoch')}`;
    return this.#get(
      account === undefined ? base : `${base}/${acct(account)}`,
      s.ledgerOrdersSchema,
      'ledger orders',
      opts,
    );
  }

  getLedgerEntries(seqId: bigint, opts?: CallOptions): Promise<s.LedgerEntries> {
    return this.#get(`ledger/entries/${dec(seqId, 'Sequence id')}`, s.ledgerEntriesSchema, 'ledger entries', opts);
  }

  /**
   * The account's own fills, newest first, each at the price it traded at (maker and taker). Not a documented
   * route (docs/protocol/choices.md#own-fills-and-order-state): a deployment that does not serve `GET /fills/:account`
   * answers 404, and this resolves to null ("unsupported"). Other errors are thrown as usual.
   */
  async getFills(account: Address, query: FillsQuery = {}, opts?: CallOptions): Promise<s.OwnFillRecord[] | null> {
    const params: string[] = [];
    if (query.assetId !== undefined) params.push(`assetId=${dec(query.assetId, 'Asset id')}`);
    if (query.epoch !== undefined) params.push(`epoch=${dec(query.epoch, 'Epoch')}`);
    if (query.limit !== undefined) {
      if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > MAX_FILLS_LIMIT) {
        throw new ExchangeValidationError(
          'INVALID_LIMIT',
          `The fills limit must be a whole number from 1 to ${MAX_FILLS_LIMIT}; got ${String(query.limit)}.`,
        );
      }
      params.push(`limit=${query.limit}`);
    }
    const path = `fills/${acct(account)}${params.length > 0 ? `?${params.join('&')}` : ''}`;
    try {
      return (await this.#get(path, s.ownFillsSchema, 'fills list', opts)).fills;
    } catch (error) {
      if (error instanceof ExchangeHttpError && error.status === 404) return null;
      throw error;
    }
  }
}
