/**
 * Reads one small file of the update folder (a manifest or its signature): bounded in size (the
 * declared length first, then counted as bytes arrive) and time, from the update address only
 * (origin-request.ts). A missing file is null, not an error: an unsigned manifest is refused by the
 * caller with its own sentence.
 */
import { declaresMoreThan, getWithinOrigin } from './origin-request';
import type { UpdateOrigin } from './update-origin';
import { UpdateProblem } from './update-problem';

export interface BoundedGet {
  readonly url: URL;
  readonly maxBytes: number;
  /** The refusal when the file is larger than maxBytes. */
  readonly tooLarge: () => UpdateProblem;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

function unreachable(origin: UpdateOrigin): UpdateProblem {
  return new UpdateProblem(
    'update.unreachable',
    `The update server at ${origin.base.host} could not be reached; the app tries again at its next check.`,
  );
}

export function getBounded(origin: UpdateOrigin, get: BoundedGet): Promise<Buffer | null> {
  const { maxBytes } = get;
  return getWithinOrigin<Buffer | null>(
    origin,
    {
      url: get.url,
      timeoutMs: get.timeoutMs ?? 30_000,
      ...(get.signal ? { signal: get.signal } : {}),
      failed: () => unreachable(origin),
    },
    (response, request, finish) => {
      const status = response.statusCode ?? 0;
      if (status === 404 || status === 410) {
        response.resume();
        return finish(null, null);
      }
      if (status < 200 || status >= 300) {
        response.resume();
        const file = decodeURIComponent(request.path.split('?')[0]?.split('/').pop() ?? '');
        return finish(
          new UpdateProblem(
            'update.server',
            `The update server at ${origin.base.host} could not serve ${file}; the app tries again at its next check.`,
          ),
        );
      }
      if (declaresMoreThan(response, maxBytes)) {
        request.destroy();
        return finish(get.tooLarge());
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) {
          request.destroy();
          finish(get.tooLarge());
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => finish(null, Buffer.concat(chunks)));
      response.on('error', () => finish(unreachable(origin)));
    },
  );
}
