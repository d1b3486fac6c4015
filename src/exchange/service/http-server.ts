// Minimal JSON HTTP server: a route table with `:param` segments, bounded bodies, and one error
// shape for everything that goes wrong (README.md "Errors"). Nothing here knows the exchange.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { JournalError, ServiceError } from './errors';

export interface RouteRequest {
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** Parsed JSON body (POST only). */
  body: unknown;
}

export interface Reply {
  status: number;
  body: unknown;
}

export type Handler = (req: RouteRequest) => Reply | Promise<Reply>;

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  handler: Handler;
}

interface CompiledRoute extends Route {
  segments: readonly string[];
  literals: number;
}

type Match = { route: CompiledRoute; params: Record<string, string> } | { error: ServiceError; allow?: string };

export function compileRoutes(routes: readonly Route[]): (method: string, pathname: string) => Match {
  const compiled: CompiledRoute[] = routes.map((r) => {
    const segments = r.path.split('/').filter((s) => s.length > 0);
    return { ...r, segments, literals: segments.filter((s) => !s.startsWith(':')).length };
  });
  // More literal segments first: /resolve/mark/:assetId wins over /resolve/:assetId/:epoch.
  compiled.sort((a, b) => b.literals - a.literals);
  return (method, pathname) => {
    let parts: string[];
    try {
      parts = pathname
        .split('/')
        .filter((s) => s.length > 0)
        .map((s) => decodeURIComponent(s));
    } catch {
      return { error: new ServiceError(400, 'INVALID_PATH', 'The path is not valid percent-encoding.') };
    }
    const allowed = new Set<string>();
    for (const r of compiled) {
      if (r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = r.segments[i]!;
        if (seg.startsWith(':')) params[seg.slice(1)] = parts[i]!;
        else if (seg !== parts[i]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (r.method === method) return { route: r, params };
      allowed.add(r.method);
    }
    if (allowed.size > 0) {
      const allow = [...allowed].join(', ');
      return {
        error: new ServiceError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allow}.`),
        allow,
      };
    }
    return { error: new ServiceError(404, 'ROUTE_NOT_FOUND', `No route ${method} ${pathname}.`) };
  };
}

export interface HttpServerOptions {
  routes: readonly Route[];
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  onError(err: unknown, where: string): void;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, e: ServiceError, headers: Record<string, string> = {}): void {
  send(res, e.status, e.body(), { ...e.headers, ...headers });
}

/**
 * Reads the body up to `limit` bytes. Over the limit it drains (discarding) up to 16× the limit so
 * the client can read the 413; `{ tooLarge, drained }` tells the caller whether to close.
 */
function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<{ data: Buffer } | { tooLarge: true; drained: boolean }> {
  return new Promise((resolve, reject) => {
    const cap = limit * 16;
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > cap) {
      resolve({ tooLarge: true, drained: false });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > cap) {
        done = true;
        resolve({ tooLarge: true, drained: false });
      } else if (size <= limit) chunks.push(c);
      else chunks.length = 0;
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      if (size > limit) resolve({ tooLarge: true, drained: true });
      else resolve({ data: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
    });
    req.on('error', reject);
  });
}

export function createJsonServer(opts: HttpServerOptions): Server {
  const match = compileRoutes(opts.routes);
  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
      const m = match(req.method ?? 'GET', pathname);
      if ('error' in m) {
        req.resume();
        sendError(res, m.error, m.allow === undefined ? {} : { allow: m.allow });
        return;
      }
      let body: unknown = undefined;
      if (m.route.method === 'POST') {
        const type = req.headers['content-type'];
        if (type !== undefined && !/^application\/json\b/i.test(type)) {
          req.resume();
          sendError(res, new ServiceError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.'));
          return;
        }
        const raw = await readBody(req, opts.bodyLimit);
        if ('tooLarge' in raw) {
          // Past the drain cap: answer and close, so an endless body cannot tie the socket up.
          sendError(
            res,
            new ServiceError(413, 'BODY_TOO_LARGE', `The body exceeds ${opts.bodyLimit} bytes.`),
            raw.drained ? {} : { connection: 'close' },
          );
          if (!raw.drained) res.once('finish', () => req.socket.destroy());
          return;
        }
        try {
          body = JSON.parse(raw.data.toString('utf8'));
        } catch {
          sendError(res, new ServiceError(400, 'INVALID_JSON', 'The body is not valid JSON.'));
          return;
        }
      }
      const reply = await m.route.handler({ params: m.params, query, body });
      send(res, reply.status, reply.body);
    } catch (e) {
      if (e instanceof ServiceError) sendError(res, e);
      else if (e instanceof JournalError) {
        opts.onError(e, 'journal');
        sendError(
          res,
          new ServiceError(500, 'INTERNAL_ERROR', 'Internal enqueue error: the change could not be made durable.'),
        );
      } else {
        opts.onError(e, `${req.method} ${req.url}`);
        sendError(res, new ServiceError(500, 'INTERNAL_ERROR', 'The service failed to handle this request.'));
      }
    }
  }

  return server;
}
