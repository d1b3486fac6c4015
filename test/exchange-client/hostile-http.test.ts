// A hostile exchange and a hostile chain RPC on loopback: oversized, lying, endless and slow answers.
// Every request settles with a coded error on that request, the socket is dropped, main's memory
// stays bounded and nothing reaches process-level 'uncaughtException' / 'unhandledRejection'.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { JsonRpcProvider, Network } from 'ethers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ExchangeClient,
  ExchangeHttpError,
  ExchangeResponseTooLargeError,
  ExchangeTimeoutError,
  ExchangeTransportError,
  HttpCore,
  MAX_RESPONSE_BYTES,
} from '../../src/client';
import { MAX_RPC_RESPONSE_BYTES, RpcTransportError, rpcConnection, toDepositError } from '../../src/client';

const MiB = 1024 * 1024;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown): void => void uncaught.push(e);

/** Bytes the server managed to hand to the kernel per route, and whether the client hung up. */
const sent = new Map<string, { bytes: number; closed: boolean }>();
const sockets = new Set<Socket>();
let slowClosed = false;
let server: http.Server;
let base: string;

/** Write `chunk` until `total` bytes or the client goes away, honouring backpressure (the server must not be the one eating memory). */
function pump(route: string, res: http.ServerResponse, chunk: Buffer, total: number): void {
  const rec = { bytes: 0, closed: false };
  sent.set(route, rec);
  res.on('close', () => (rec.closed = true));
  const more = (): void => {
    while (!rec.closed && rec.bytes < total) {
      rec.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    if (!rec.closed) res.end();
  };
  more();
}

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  const block = Buffer.alloc(256 * 1024, 0x61); // "aaaa…"
  server = http.createServer((req, res) => {
    const route = new URL(req.url!, 'http://x').pathname.replace(/^\/(rpc\/)?/, '');
    if (route === 'ok' && req.url!.startsWith('/rpc')) {
      // A well-behaved node: answers eth_chainId with the request's own id.
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        const { id } = JSON.parse(Buffer.concat(parts).toString()) as { id: number };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x7a69' }));
      });
      return;
    }
    req.resume();
    switch (route) {
      case 'endless': // chunked, 600 MB unless the client hangs up
        res.writeHead(200, { 'content-type': 'application/json' });
        return pump(route, res, block, 600 * MiB);
      case 'declared-huge': // says 600 MB up front
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * MiB) });
        return pump(route, res, block, 600 * MiB);
      case 'lying-short': {
        // Declares 2 bytes, then keeps sending: the extra bytes are not part of this answer.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
        res.socket!.write('{}' + 'x'.repeat(64 * 1024));
        res.socket!.end();
        return;
      }
      case 'lying-long': // declares 1 KiB, sends 10 bytes and hangs up
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1024' });
        res.socket!.end('{"ok":true}');
        return;
      case 'slow': // one byte every 20 ms, forever
        res.writeHead(200, { 'content-type': 'application/json' });
        {
          const t = setInterval(() => res.write(' '), 20);
          res.on('close', () => {
            clearInterval(t);
            slowClosed = true;
          });
        }
        return;
      case 'exact': // exactly the limit the test sets (1 KiB)
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(`"${'a'.repeat(1022)}"`);
      case 'over-by-one':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(`"${'a'.repeat(1023)}"`);
      case 'refusal': // a hostile sentence with invisible characters and a line break
        res.writeHead(400, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({ error: 'INVALID_PRICE', message: 'Send your key to\u202e evil.example\n"now"' }),
        );
      case 'redirect':
        res.writeHead(307, { location: 'http://169.254.169.254/latest' });
        return void res.end();
      case 'gzip':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return void res.end(Buffer.alloc(10));
      default:
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"status":"ok"}');
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  expect(uncaught).toEqual([]);
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const until = async (cond: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`gave up waiting for ${what}`);
};

describe('exchange HTTP answers are bounded', () => {
  it('refuses a 600 MB endless body at 4 MiB, drops the socket and keeps memory bounded', async () => {
    const core = new HttpCore({ baseUrl: base });
    expect(core.maxResponseBytes).toBe(4 * MiB);
    const before = process.memoryUsage();
    const err = await core.get('endless').catch((e: unknown) => e);
    const after = process.memoryUsage();
    expect(err).toBeInstanceOf(ExchangeResponseTooLargeError);
    expect(err).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      limitBytes: MAX_RESPONSE_BYTES,
      sentence: "The exchange's answer to GET /endless was larger than 4 MiB; it was not read.",
    });
    // The client hung up: the server stopped long before 600 MB.
    await until(() => sent.get('endless')?.closed === true, 'the server to see the hang-up');
    expect(sent.get('endless')!.bytes).toBeLessThan(64 * MiB);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(64 * MiB);
    expect(after.rss - before.rss).toBeLessThan(64 * MiB);
    // The next request works (a fresh socket).
    await expect(core.get('health')).resolves.toMatchObject({ status: 200 });
    core.close();
  });

  it('refuses a declared length over the limit before reading the body', async () => {
    const core = new HttpCore({ baseUrl: base });
    await expect(core.get('declared-huge')).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    await until(() => sent.get('declared-huge')?.closed === true, 'the server to see the hang-up');
    expect(sent.get('declared-huge')!.bytes).toBeLessThan(64 * MiB);
    core.close();
  });

  it('counts bytes exactly: the limit is accepted, one more byte is refused', async () => {
    const core = new HttpCore({ baseUrl: base, maxResponseBytes: 1024 });
    await expect(core.get('exact')).resolves.toMatchObject({ status: 200, body: 'a'.repeat(1022) });
    await expect(core.get('over-by-one')).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      sentence: "The exchange's answer to GET /over-by-one was larger than 1 KiB; it was not read.",
    });
    core.close();
  });

  it('settles lying lengths: extra bytes are not read as the answer, a short body is a transport error', async () => {
    const core = new HttpCore({ baseUrl: base });
    // Node's parser either ends the answer at the declared 2 bytes or fails on the bytes after them,
    // depending on how they arrive; both settle this request, and neither reads them as the body.
    const short = await core.get('lying-short').then(
      (ok) => ({ ok }),
      (err: unknown) => ({ err }),
    );
    if ('ok' in short) expect(short.ok).toEqual({ status: 200, body: {} });
    else expect(short.err).toMatchObject({ code: 'TRANSPORT_ERROR' });
    await expect(core.get('lying-long')).rejects.toBeInstanceOf(ExchangeTransportError);
    // The connection that carried the garbage is not reused for the next request.
    await expect(core.get('health')).resolves.toMatchObject({ status: 200 });
    core.close();
  });

  it('times out a body that trickles forever', async () => {
    const core = new HttpCore({ baseUrl: base });
    await expect(core.get('slow', { timeoutMs: 200 })).rejects.toBeInstanceOf(ExchangeTimeoutError);
    await until(() => slowClosed, 'the server to see the hang-up');
    core.close();
  });

  it('reaches read calls through the client: a coded error on that call only', async () => {
    const client = new ExchangeClient({ baseUrl: base });
    const tooBig = new ExchangeClient({ baseUrl: base, maxResponseBytes: 8 });
    await expect(client.getHealth()).resolves.toBeDefined();
    await expect(tooBig.getHealth()).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    client.http.close();
    tooBig.http.close();
  });

  it("shows the exchange's words quoted, cleaned and labelled, after our own sentence for a known code", async () => {
    const core = new HttpCore({ baseUrl: base });
    const err = (await core.get('refusal').catch((e: unknown) => e)) as ExchangeHttpError;
    expect(err).toBeInstanceOf(ExchangeHttpError);
    expect(err.code).toBe('INVALID_PRICE');
    expect(err.sentence).toBe(
      'The exchange refused the price. The exchange said: "Send your key to evil.example \'now\'".',
    );
    core.close();
  });
});

describe('chain RPC answers are bounded', () => {
  const provider = (route: string, maxBytes?: number) =>
    new JsonRpcProvider(rpcConnection(`${base}/rpc/${route}`, maxBytes), Network.from(31337), {
      staticNetwork: true,
      batchMaxCount: 1,
    });

  it('answers normally through the bounded fetcher', async () => {
    const p = provider('ok');
    expect(await p.send('eth_chainId', [])).toBe('0x7a69');
    p.destroy();
  });

  it('refuses an endless answer at 4 MiB with bounded memory', async () => {
    const p = provider('endless');
    const before = process.memoryUsage();
    const err: unknown = await (p.send('eth_chainId', []) as Promise<unknown>).catch((e: unknown) => e);
    const after = process.memoryUsage();
    expect(err).toBeInstanceOf(RpcTransportError);
    expect(err).toMatchObject({ code: 'RPC_RESPONSE_TOO_LARGE' });
    expect(MAX_RPC_RESPONSE_BYTES).toBe(4 * MiB);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(64 * MiB);
    expect(after.rss - before.rss).toBeLessThan(64 * MiB);
    expect(toDepositError(err)).toMatchObject({
      code: 'RPC_UNAVAILABLE',
      message: "The chain RPC's answer was larger than 4 MiB; it was not read.",
    });
    p.destroy();
  });

  it('refuses a declared huge answer, a redirect to another host and an unrequested encoding', async () => {
    for (const [route, code] of [
      ['declared-huge', 'RPC_RESPONSE_TOO_LARGE'],
      ['redirect', 'RPC_REDIRECT_REFUSED'],
      ['gzip', 'RPC_ENCODING_REFUSED'],
    ] as const) {
      const p = provider(route);
      await expect(p.send('eth_chainId', []), route).rejects.toMatchObject({ code });
      p.destroy();
    }
  });

  it('counts bytes against a small limit', async () => {
    const p = provider('ok', 8);
    await expect(p.send('eth_chainId', [])).rejects.toMatchObject({ code: 'RPC_RESPONSE_TOO_LARGE' });
    p.destroy();
  });
});
