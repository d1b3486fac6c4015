// A load generator's HTTP/1.1 client: keep-alive TCP connections, one request in flight on each
// (no pipelining), requests serialised once up front, responses parsed just enough to read the
// status and skip the body. node:http's client costs ~100–180 µs of CPU per request, and on a
// 2-core machine every microsecond the load process spends is taken from the service under test;
// this one spends a fraction of that, so the figures say more about the service.
import { connect, type Socket } from 'node:net';

export interface LeanConnection {
  /** Sends one prepared request and resolves with the response's status code. */
  send(request: Buffer): Promise<number>;
  close(): void;
}

/** `POST path` with a JSON body, as the bytes a keep-alive client would write. */
export function postRequest(host: string, path: string, body: string): Buffer {
  const payload = Buffer.from(body, 'utf8');
  const head = `POST ${path} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${payload.length}\r\nconnection: keep-alive\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

export function openLeanConnection(host: string, port: number): Promise<LeanConnection> {
  return new Promise((resolveOpen, rejectOpen) => {
    const socket: Socket = connect({ host, port, noDelay: true });
    let buffered: Buffer = Buffer.alloc(0);
    let pending: { resolve(status: number): void; reject(err: Error): void } | null = null;

    const fail = (err: Error) => {
      const p = pending;
      pending = null;
      p?.reject(err);
    };

    /** Completes the pending request once its whole response (headers + content-length body) is in. */
    const tryComplete = () => {
      if (pending === null) return;
      const end = buffered.indexOf(HEADER_END);
      if (end < 0) return;
      const head = buffered.toString('latin1', 0, end);
      const status = Number(head.slice(9, 12));
      const lengthMatch = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (lengthMatch === null) return fail(new Error(`response without content-length: ${head.split('\r\n')[0]}`));
      const total = end + HEADER_END.length + Number(lengthMatch[1]);
      if (buffered.length < total) return;
      buffered = buffered.subarray(total);
      const p = pending;
      pending = null;
      p.resolve(status);
    };

    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      tryComplete();
    });
    socket.on('error', (err) => {
      fail(err);
      rejectOpen(err);
    });
    socket.on('close', () => fail(new Error('connection closed')));
    socket.once('connect', () =>
      resolveOpen({
        send(request) {
          if (pending !== null) return Promise.reject(new Error('one request at a time on a connection'));
          return new Promise<number>((resolve, reject) => {
            pending = { resolve, reject };
            socket.write(request);
          });
        },
        close: () => socket.destroy(),
      }),
    );
  });
}
