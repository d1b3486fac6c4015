// One response body read with a byte limit, for the exchange client and the chain RPC alike (both
// servers are untrusted): a declared length over the limit is refused before a byte of the body is
// read, and the bytes are counted as they arrive so an undeclared flood stops at the limit too.
import type { IncomingMessage } from 'node:http';

export interface BoundedBodyHandlers {
  /** Whether the caller's request has already settled: later chunks and the end are then ignored. */
  settled(): boolean;
  /** The body is (or was declared) larger than the limit; the caller settles with its own error. */
  tooLarge(): void;
  /** The whole body, at most `limit` bytes (empty when the server sent none). */
  body(bytes: Buffer): void;
}

export function readBoundedBody(res: IncomingMessage, limit: number, on: BoundedBodyHandlers): void {
  if (Number(res.headers['content-length'] ?? 0) > limit) {
    on.tooLarge();
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  res.on('data', (c: Buffer) => {
    if (on.settled()) return;
    received += c.length;
    if (received > limit) on.tooLarge();
    else chunks.push(c);
  });
  res.on('end', () => {
    if (!on.settled()) on.body(Buffer.concat(chunks));
  });
}
