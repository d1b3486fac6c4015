/**
 * Watches every way this node process can open a connection or resolve a name: net and tls
 * connects (the base of every HTTP, WebSocket and JSON-RPC client), DNS lookups and resolvers, the
 * http/https request functions, fetch (and undici's dispatcher behind it) and WebSocket. Each
 * attempt is recorded with where it came from and then allowed, so a test can both prove that
 * nothing tried and (as a control) that the watcher sees an attempt when one happens.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';

export interface SocketAttempt {
  readonly via: string;
  readonly target: string;
  readonly stack: string;
}

export interface SocketWatch {
  readonly attempts: SocketAttempt[];
  /** Forget what was recorded so far. */
  clear(): void;
  /** Put every original back. */
  stop(): void;
}

type AnyFn = (...args: unknown[]) => unknown;

/** A leaf value as text: strings and numbers as they are, anything else by its type. */
function leaf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : typeof value;
}

function describeTarget(args: unknown[]): string {
  const [first, second] = args;
  // net.Socket.connect is called internally with its normalized [options, callback] array.
  if (Array.isArray(first)) return describeTarget(first);
  if (typeof first === 'string') return typeof second === 'string' ? `${first} ${second}` : first;
  if (typeof first === 'number') return `port ${first}${typeof second === 'string' ? ` on ${second}` : ''}`;
  if (first instanceof URL) return first.href;
  if (typeof first === 'object' && first !== null) {
    const o = first as Record<string, unknown>;
    if (typeof o['url'] === 'string') return o['url'];
    const host = o['host'] ?? o['hostname'] ?? o['path'] ?? '?';
    return `${leaf(host)}${o['port'] === undefined ? '' : `:${leaf(o['port'])}`}`;
  }
  return leaf(first);
}

function callerStack(): string {
  return (new Error().stack ?? '').split('\n').slice(3, 12).join('\n');
}

export function watchSockets(): SocketWatch {
  const attempts: SocketAttempt[] = [];
  const restores: (() => void)[] = [];
  const record = (via: string, args: unknown[]): void => {
    attempts.push({ via, target: describeTarget(args), stack: callerStack() });
  };

  /** Replace owner[name] by a recording wrapper that calls through. */
  const wrap = (owner: object, name: string, via: string): void => {
    const o = owner as Record<string, unknown>;
    const original = o[name];
    if (typeof original !== 'function') return;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      record(via, args);
      return (original as AnyFn).apply(this, args);
    };
    Object.defineProperty(wrapped, 'name', { value: (original as AnyFn).name });
    o[name] = wrapped;
    restores.push(() => (o[name] = original));
  };

  wrap(net.Socket.prototype, 'connect', 'net.Socket.connect');
  wrap(net, 'connect', 'net.connect');
  wrap(net, 'createConnection', 'net.createConnection');
  wrap(tls, 'connect', 'tls.connect');
  for (const name of Object.keys(dns)) {
    if (name === 'lookup' || name === 'lookupService' || name.startsWith('resolve') || name === 'reverse')
      wrap(dns, name, `dns.${name}`);
  }
  for (const name of Object.keys(dns.promises)) {
    if (name === 'lookup' || name === 'lookupService' || name.startsWith('resolve') || name === 'reverse')
      wrap(dns.promises, name, `dns.promises.${name}`);
  }
  wrap(dns.Resolver.prototype, 'resolve', 'dns.Resolver.resolve');
  wrap(http, 'request', 'http.request');
  wrap(http, 'get', 'http.get');
  wrap(https, 'request', 'https.request');
  wrap(https, 'get', 'https.get');
  wrap(globalThis, 'fetch', 'fetch');

  // undici's global dispatcher (Node's fetch and any undici client that uses the default).
  const dispatcherKey = Symbol.for('undici.globalDispatcher.1');
  const g = globalThis as unknown as Record<symbol, { dispatch?: AnyFn } | undefined>;
  const dispatcher = g[dispatcherKey];
  if (dispatcher && typeof dispatcher.dispatch === 'function') wrap(dispatcher, 'dispatch', 'undici.dispatch');

  // WebSocket: the global one (undici's), and the ws package's, whose every connect goes through
  // http(s).request and net/tls above; its constructor is watched too, for a direct record.
  const NativeWebSocket = (globalThis as { WebSocket?: new (...a: unknown[]) => object }).WebSocket;
  if (NativeWebSocket) {
    const Watched = new Proxy(NativeWebSocket, {
      construct(target, args, newTarget) {
        record('WebSocket', args);
        return Reflect.construct(target, args, newTarget) as object;
      },
    });
    (globalThis as { WebSocket?: unknown }).WebSocket = Watched;
    restores.push(() => ((globalThis as { WebSocket?: unknown }).WebSocket = NativeWebSocket));
  }
  syncBuiltinESMExports();
  restores.push(() => syncBuiltinESMExports());

  return {
    attempts,
    clear: () => void attempts.splice(0),
    stop: () => {
      for (const restore of restores.splice(0).reverse()) restore();
    },
  };
}

/** One line per attempt, for a failure message that says what connected and from where. */
export function formatAttempts(attempts: readonly SocketAttempt[]): string {
  return attempts.map((a) => `${a.via} → ${a.target}\n${a.stack}`).join('\n\n');
}
