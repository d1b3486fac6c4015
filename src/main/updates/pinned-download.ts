/**
 * The HTTP executor electron-updater downloads with (its `download(url, destination, options)`),
 * written for this app instead of electron-updater's own (Chromium's net, which follows redirects to
 * any host and reads no limit): node's http/https, only files a verified signed manifest named, only
 * from the update address (a redirect elsewhere is refused), never more bytes than the manifest
 * signed, and a SHA-512 that must equal the signed one before the file is kept. A refused or broken
 * download deletes what it wrote. Differential downloads are off (their block maps are not signed),
 * so nothing else of the executor is ever called; the rest throws rather than reach the network.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { declaresMoreThan, getWithinOrigin } from './origin-request';
import type { ReleaseFile } from './signed-manifest';
import type { UpdateOrigin } from './update-origin';
import { NOTHING_INSTALLED, UpdateProblem } from './update-problem';

export interface DownloadProgress {
  readonly total: number;
  readonly delta: number;
  readonly transferred: number;
  readonly percent: number;
  readonly bytesPerSecond: number;
}

/** What electron-updater passes to `download` (builder-util-runtime's DownloadOptions, the fields we use). */
export interface DownloadRequest {
  readonly sha512?: string | null;
  readonly cancellationToken?: { readonly cancelled: boolean; on?(event: 'cancel', fn: () => void): unknown };
  onProgress?: (progress: DownloadProgress) => void;
}

const IDLE_TIMEOUT_MS = 60_000;

export class PinnedDownloadExecutor {
  private readonly aborts = new Set<AbortController>();

  constructor(
    private readonly origin: UpdateOrigin,
    /** The files of the release being downloaded, as its verified manifest signed them. */
    private readonly files: () => readonly ReleaseFile[],
  ) {}

  /** Stops every download in progress (the app quits, or offline mode was turned on). */
  abortAll(): void {
    for (const abort of this.aborts) abort.abort();
  }

  async download(url: URL, destination: string, options: DownloadRequest): Promise<string> {
    const signed = this.files().find((f) => this.origin.file(f.url).href === url.href);
    if (!this.origin.contains(url)) throw this.origin.redirectRefusal(url.href);
    if (!signed) {
      throw new UpdateProblem(
        'update.invalid_manifest',
        `The updater was asked for ${decodeURIComponent(url.pathname)}, which the signed manifest does not name, so nothing was downloaded. ${NOTHING_INSTALLED}`,
      );
    }
    if (options.sha512 !== signed.sha512) {
      throw new UpdateProblem(
        'update.invalid_manifest',
        `The updater was given a checksum for ${signed.url} other than the signed manifest's, so nothing was downloaded. ${NOTHING_INSTALLED}`,
      );
    }
    const abort = new AbortController();
    this.aborts.add(abort);
    options.cancellationToken?.on?.('cancel', () => abort.abort());
    try {
      await this.fetchTo(url, destination, signed, options, abort.signal);
      return destination;
    } catch (error) {
      await unlink(destination).catch(() => undefined);
      throw error;
    } finally {
      this.aborts.delete(abort);
    }
  }

  private fetchTo(
    url: URL,
    destination: string,
    signed: ReleaseFile,
    options: DownloadRequest,
    signal: AbortSignal,
  ): Promise<void> {
    const origin = this.origin;
    const failed = (): UpdateProblem =>
      new UpdateProblem(
        'update.download_failed',
        `The download of ${signed.url} from ${origin.base.host} did not complete; the app tries again at its next check.`,
      );
    const tooLarge = (): UpdateProblem =>
      new UpdateProblem(
        'update.file_too_large',
        `The update server sent more of ${signed.url} than the ${signed.size} bytes the signed manifest names, so the download was stopped and deleted. ${NOTHING_INSTALLED}`,
      );
    return getWithinOrigin<void>(
      origin,
      { url, timeoutMs: IDLE_TIMEOUT_MS, signal, failed },
      (response, request, finish) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          response.resume();
          return finish(failed());
        }
        if (declaresMoreThan(response, signed.size)) {
          request.destroy();
          return finish(tooLarge());
        }
        const hash = createHash('sha512');
        const out = createWriteStream(destination, { mode: 0o600 });
        const started = Date.now();
        let transferred = 0;
        let stopped = false;
        out.on('error', (error) => {
          request.destroy();
          finish(error);
        });
        response.on('error', () => finish(failed()));
        response.on('data', (chunk: Buffer) => {
          transferred += chunk.length;
          if (transferred > signed.size) {
            stopped = true;
            request.destroy();
            out.destroy();
            finish(tooLarge());
            return;
          }
          hash.update(chunk);
          if (!out.write(chunk)) {
            response.pause();
            out.once('drain', () => response.resume());
          }
          options.onProgress?.({
            total: signed.size,
            delta: chunk.length,
            transferred,
            percent: (transferred / signed.size) * 100,
            bytesPerSecond: Math.round(transferred / Math.max(0.001, (Date.now() - started) / 1000)),
          });
        });
        response.on('end', () => {
          if (stopped) return;
          out.end(() => {
            const actual = hash.digest('base64');
            if (actual !== signed.sha512) {
              finish(
                new UpdateProblem(
                  'update.checksum',
                  `The downloaded ${signed.url} does not match the SHA-512 in the signed manifest: it was deleted. ${NOTHING_INSTALLED}`,
                ),
              );
            } else finish(null);
          });
        });
      },
    );
  }

  // electron-updater reaches these only for differential downloads and providers' own requests, both
  // unused here: refuse loudly rather than open a connection the pin does not cover.
  request(): never {
    throw new Error('the pinned update executor downloads signed files only');
  }
  downloadToBuffer(): never {
    throw new Error('the pinned update executor downloads signed files only');
  }
  createRequest(): never {
    throw new Error('the pinned update executor downloads signed files only');
  }
}
