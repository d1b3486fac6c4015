// JSON-RPC over HTTP for ethers with the same bounds as the exchange client: ethers' own Node
// fetcher keeps a whole answer in memory however large, follows redirects to any host and
// decompresses gzip without a limit. This one reads at most 4 MiB (declared or counted), refuses
// compressed answers and redirects, and settles every request exactly once.
import http from 'node:http';
import https from 'node:https';
import { FetchRequest, type FetchCancelSignal, type FetchGetUrlFunc, type GetUrlResponse } from 'ethers';
import { readBoundedBody } from '../http/bounded-body';
import { formatBytes } from '../errors';

/** How long one JSON-RPC request may take (the exchange client's own limit). */
export const RPC_TIMEOUT_MS = 15_000;

/** The most of one JSON-RPC answer main will hold. */
export const MAX_RPC_RESPONSE_BYTES = 4 * 1024 * 1024;

export type RpcRefusalCode =
  | 'RPC_RESPONSE_TOO_LARGE'
  | 'RPC_REDIRECT_REFUSED'
  | 'RPC_ENCODING_REFUSED'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'NETWORK_ERROR';

/** A refused or failed RPC exchange; `code` follows ethers' style so callers can switch on it. */
export class RpcTransportError extends Error {
  override readonly name = 'RpcTransportError';
  readonly shortMessage: string;
  constructor(
    readonly code: RpcRefusalCode,
    sentence: string,
  ) {
    super(sentence);
    this.shortMessage = sentence;
  }
}

/** A getUrl function for ethers' FetchRequest that reads at most `maxBytes` of any answer. */
export function boundedGetUrl(maxBytes = MAX_RPC_RESPONSE_BYTES): FetchGetUrlFunc {
  return (req: FetchRequest, signal?: FetchCancelSignal) =>
    new Promise<GetUrlResponse>((resolve, reject) => {
      const url = new URL(req.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        reject(
          new RpcTransportError('NETWORK_ERROR', `The chain RPC address must be http or https, not ${url.protocol}`),
        );
        return;
      }
      const body = req.body;
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: req.method,
        headers: { ...req.headers },
      });
      let settled = false;
      const fail = (e: RpcTransportError): void => {
        if (settled) return;
        settled = true;
        request.destroy();
        reject(e);
      };
      request.setTimeout(req.timeout, () =>
        fail(new RpcTransportError('TIMEOUT', `The chain RPC did not answer within ${req.timeout / 1000} s.`)),
      );
      signal?.addListener(() => fail(new RpcTransportError('CANCELLED', 'The chain RPC request was cancelled.')));
      request.on('error', (e) =>
        fail(
          new RpcTransportError(
            'NETWORK_ERROR',
            `Could not reach the chain RPC (${(e as { code?: string }).code ?? e.message}).`,
          ),
        ),
      );
      request.on('response', (res) => {
        res.on('error', (e) =>
          fail(
            new RpcTransportError(
              'NETWORK_ERROR',
              `The chain RPC connection failed (${(e as { code?: string }).code ?? e.message}).`,
            ),
          ),
        );
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          fail(
            new RpcTransportError(
              'RPC_REDIRECT_REFUSED',
              'The chain RPC answered with a redirect; main only talks to the configured address.',
            ),
          );
          return;
        }
        const encoding = (res.headers['content-encoding'] ?? 'identity').toLowerCase();
        if (encoding !== 'identity') {
          fail(
            new RpcTransportError(
              'RPC_ENCODING_REFUSED',
              `The chain RPC sent a ${encoding}-encoded answer, which was not asked for.`,
            ),
          );
          return;
        }
        readBoundedBody(res, maxBytes, {
          settled: () => settled,
          tooLarge: () =>
            fail(
              new RpcTransportError(
                'RPC_RESPONSE_TOO_LARGE',
                `The chain RPC's answer was larger than ${formatBytes(maxBytes)}; it was not read.`,
              ),
            ),
          body: (bytes) => {
            settled = true;
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers))
              if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
            resolve({
              statusCode: status,
              statusMessage: res.statusMessage ?? '',
              headers,
              body: bytes.length === 0 ? null : new Uint8Array(bytes),
            });
          },
        });
      });
      request.end(body === null ? undefined : Buffer.from(body));
    });
}

/** The connection for `new JsonRpcProvider(rpcConnection(url), …)`: bounded, uncompressed. */
export function rpcConnection(url: string, maxBytes = MAX_RPC_RESPONSE_BYTES): FetchRequest {
  const req = new FetchRequest(url);
  // ethers waits 5 minutes by default; a read behind a user's action gives up like the exchange client does.
  req.timeout = RPC_TIMEOUT_MS;
  req.allowGzip = false;
  req.getUrlFunc = boundedGetUrl(maxBytes);
  return req;
}
