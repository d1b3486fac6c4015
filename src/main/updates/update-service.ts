/**
 * The app's own updates, start to end: a few seconds after start and every few hours, read the
 * manifest and its signature from the update address baked into the build, refuse anything a trusted
 * release key did not sign or that is not newer (signed-manifest.ts), then download it at once or when
 * the person asks (their setting), through electron-updater (electron-updater-engine.ts). A downloaded
 * release installs when the person says yes in main's restart dialog (the core's updates handler), or
 * as the app quits when their setting "install when I quit" is on (only main's dialog turns it on):
 * the setting alone decides, never who made the app quit. In offline mode nothing is checked and no
 * socket is opened. Every change of state is reported to the listeners (the `updates` bridge event).
 */
import type { UpdateDownloads, UpdateRelease, UpdateStatus } from '../../shared/bridge';
import type { Logger } from '../log';
import type { UpdateEngine } from './electron-updater-engine';
import { getBounded } from './fetch-bounded';
import type { ReleaseKey } from './release-key';
import {
  MAX_MANIFEST_BYTES,
  MAX_SIGNATURE_BYTES,
  SIGNATURE_SUFFIX,
  verifyManifest,
  type VerifiedRelease,
} from './signed-manifest';
import { UpdateOrigin } from './update-origin';
import { NOTHING_INSTALLED, UpdateProblem } from './update-problem';
import { parseVersion, type Version } from './version';

export const FIRST_CHECK_MS = 15_000;
export const CHECK_EVERY_MS = 4 * 60 * 60 * 1000;

export interface UpdateServiceOptions {
  /** The update folder baked into the build; null: this build does not update itself. */
  readonly feedUrl: string | null;
  /** The release keys this build trusts (src/main/updates/release-keys.json). */
  readonly trustedKeys: readonly ReleaseKey[];
  readonly currentVersion: string;
  /** The manifest of this platform, e.g. latest-linux.yml (release-channel.ts). */
  readonly manifestName: string;
  /**
   * How to download and install; null when this copy cannot be replaced (not an installed copy).
   * `installOnQuit` is the engine's question as the app quits with a release downloaded.
   */
  readonly engine: ((origin: UpdateOrigin, installOnQuit: () => boolean) => UpdateEngine) | null;
  readonly logger: Logger;
  readonly now?: () => number;
  readonly firstCheckMs?: number;
  readonly checkEveryMs?: number;
}

/** What the service reads from the running app, given when the core starts it. */
export interface UpdateEnvironment {
  /** Offline mode is on: nothing may open a connection. */
  readonly offline: () => boolean;
  readonly downloads: () => UpdateDownloads;
  /** The person's setting: install a downloaded release when they quit (off unless main's dialog turned it on). */
  readonly installOnQuit: () => boolean;
}

export interface UpdateService {
  status(): UpdateStatus;
  onChange(listener: (status: UpdateStatus) => void): () => void;
  /** Begin checking (at start and every few hours) under the app's offline mode and download setting. */
  start(environment: UpdateEnvironment): void;
  /** Offline mode, the download setting or the install-on-quit setting changed. */
  settingsChanged(): void;
  /** Check now (the schedule calls this; tests too). Resolves with the status it ends in. */
  check(): Promise<UpdateStatus>;
  /** Download the announced release (ask-first mode); resolves once the download has begun. */
  download(): UpdateStatus;
  /** The downloaded, checked release the restart would install, or null. */
  ready(): VerifiedRelease | null;
  /** Quit, install the ready release and restart. False when there is nothing to install. */
  install(): boolean;
  dispose(): void;
}

function releaseView(release: VerifiedRelease): UpdateRelease {
  return {
    version: release.version.text,
    releaseDate: release.releaseDate,
    notes: release.notes,
    keyFingerprint: release.keyFingerprint,
  };
}

export function createUpdateService(options: UpdateServiceOptions): UpdateService {
  const logger = options.logger.child({ scope: 'updates' });
  const now = options.now ?? Date.now;
  const origin = options.feedUrl === null ? null : UpdateOrigin.parse(options.feedUrl);
  const running: Version | null = parseVersion(options.currentVersion);
  const offReason = ((): UpdateProblem | null => {
    if (options.feedUrl === null)
      return new UpdateProblem(
        'update.off',
        'This build does not update itself: it was built without an update address (builds made by npm run release have one).',
      );
    if (!origin)
      return new UpdateProblem(
        'update.off',
        'This build does not update itself: its update address is not an https address, so it is never contacted.',
      );
    if (!running)
      return new UpdateProblem(
        'update.off',
        `This build's version ${options.currentVersion} is not a semantic version.`,
      );
    if (!options.engine)
      return new UpdateProblem(
        'update.off',
        'This copy of the app does not update itself: it runs from a build folder, not from an installation.',
      );
    return null;
  })();
  // Before start (no environment yet) quitting installs nothing.
  const engine = origin && options.engine ? options.engine(origin, () => installOnQuitNow()) : null;

  let environment: UpdateEnvironment | null = null;
  let state: UpdateStatus['state'] = offReason ? 'off' : 'idle';
  let announced: VerifiedRelease | null = null;
  let readyRelease: VerifiedRelease | null = null;
  let percent: number | null = null;
  let problem: UpdateProblem | null = offReason;
  let checkedAt: number | null = null;
  let checking: Promise<UpdateStatus> | null = null;
  let downloading: Promise<void> | null = null;
  let abortCheck: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;
  let offlineBefore = false;
  const listeners = new Set<(status: UpdateStatus) => void>();

  const isOffline = (): boolean => environment?.offline() ?? false;
  const downloads = (): UpdateDownloads => environment?.downloads() ?? 'automatic';
  const installOnQuitSetting = (): boolean => environment?.installOnQuit() === true;

  /**
   * As the app quits: a release is ready and the person's setting is on. Nothing else counts (asked
   * after the core was disposed too: main disposes it on will-quit, before electron's quit event).
   */
  function installOnQuitNow(): boolean {
    return state === 'ready' && readyRelease !== null && installOnQuitSetting();
  }

  function status(): UpdateStatus {
    const shown = state === 'ready' ? readyRelease : announced;
    return {
      state,
      downloads: downloads(),
      installOnQuit: installOnQuitSetting() && (engine?.canInstallOnQuit ?? false),
      currentVersion: options.currentVersion,
      release: shown ? releaseView(shown) : null,
      percent: state === 'downloading' ? percent : null,
      problem: problem ? { code: problem.code, message: problem.message } : null,
      checkedAt,
    };
  }

  function set(next: UpdateStatus['state'], why: UpdateProblem | null = null): void {
    state = next;
    problem = next === 'off' ? offReason : why;
    const view = status();
    for (const listener of [...listeners]) {
      try {
        listener(view);
      } catch (error) {
        logger.error('updates.listener_failed', { message: error instanceof Error ? error.message : 'non-error' });
      }
    }
  }

  function schedule(ms: number): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (disposed || state === 'off' || isOffline()) return;
    timer = setTimeout(() => {
      timer = null;
      void check().finally(() => schedule(options.checkEveryMs ?? CHECK_EVERY_MS));
    }, ms);
    timer.unref?.();
  }

  async function fetchAndVerify(signal: AbortSignal): Promise<ReturnType<typeof verifyManifest>> {
    const o = origin!;
    const name = options.manifestName;
    const manifest = await getBounded(o, {
      url: o.file(name),
      maxBytes: MAX_MANIFEST_BYTES,
      signal,
      tooLarge: () =>
        new UpdateProblem(
          'update.manifest_too_large',
          `The update server's ${name} is larger than ${MAX_MANIFEST_BYTES / 1024} KiB, so it was refused unread. ${NOTHING_INSTALLED}`,
        ),
    });
    if (manifest === null) {
      throw new UpdateProblem(
        'update.server',
        `The update server at ${o.base.host} has no ${name}; the app tries again at its next check.`,
      );
    }
    const signature = await getBounded(o, {
      url: o.file(`${name}${SIGNATURE_SUFFIX}`),
      maxBytes: MAX_SIGNATURE_BYTES,
      signal,
      // A signature file this large is no signature this app reads.
      tooLarge: () =>
        new UpdateProblem(
          'update.unsigned',
          `The update server's ${name} carries no release signature this app can read, so the update was refused before anything was downloaded. ${NOTHING_INSTALLED}`,
        ),
    });
    return verifyManifest({
      manifestName: name,
      manifest,
      signature: signature === null ? null : signature.toString('utf8'),
      trusted: options.trustedKeys,
      running: running!,
    });
  }

  function startDownload(release: VerifiedRelease): void {
    if (!engine || downloading) return;
    percent = 0;
    set('downloading');
    let lastReported = -1;
    downloading = engine
      .download(release, (p) => {
        percent = p;
        // Progress events in whole percents: the window needs no more.
        if (Math.floor(p) !== lastReported) {
          lastReported = Math.floor(p);
          set('downloading');
        }
      })
      .then(
        () => {
          if (disposed) return;
          readyRelease = release;
          logger.info('updates.ready', { version: release.version.text, key: release.keyFingerprint });
          set('ready');
        },
        (error: unknown) => {
          if (disposed) return;
          if (isOffline()) return set('offline');
          const why = error instanceof UpdateProblem ? error : null;
          logger.warn('updates.download_refused', { code: why?.code ?? 'unexpected' });
          set(
            why?.refused ? 'refused' : 'failed',
            why ??
              new UpdateProblem(
                'update.download_failed',
                'The update could not be downloaded; the app tries again at its next check.',
              ),
          );
        },
      )
      .finally(() => {
        downloading = null;
      });
  }

  async function runCheck(): Promise<UpdateStatus> {
    if (state === 'off' || !engine || isOffline()) return status();
    // A check while downloading or with a release ready keeps showing that; only news changes it.
    const quiet = state === 'downloading' || state === 'ready';
    if (!quiet) set('checking');
    abortCheck = new AbortController();
    try {
      const verdict = await fetchAndVerify(abortCheck.signal);
      checkedAt = now();
      if (disposed || isOffline()) return status();
      if (verdict.kind === 'current') {
        if (!quiet) set('up-to-date');
        return status();
      }
      const release = verdict.release;
      const known = readyRelease ?? (state === 'downloading' ? announced : null);
      if (known && known.version.text === release.version.text && known.keyFingerprint === release.keyFingerprint) {
        return status();
      }
      announced = release;
      logger.info('updates.announced', { version: release.version.text, key: release.keyFingerprint });
      if (downloads() === 'automatic') startDownload(release);
      else set('available');
      return status();
    } catch (error) {
      checkedAt = now();
      if (disposed || isOffline()) return status();
      const why =
        error instanceof UpdateProblem
          ? error
          : new UpdateProblem(
              'update.unreachable',
              'The update check did not complete; the app tries again at its next check.',
            );
      logger.warn('updates.check_refused', { code: why.code });
      // A release already downloaded stays ready: a later bad answer does not take it away.
      if (!quiet) set(why.refused ? 'refused' : 'failed', why);
      return status();
    } finally {
      abortCheck = null;
    }
  }

  function check(): Promise<UpdateStatus> {
    checking ??= runCheck().finally(() => (checking = null));
    return checking;
  }

  return {
    status,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    start(env) {
      environment = env;
      if (state === 'off') return;
      offlineBefore = isOffline();
      if (offlineBefore) set('offline');
      schedule(options.firstCheckMs ?? FIRST_CHECK_MS);
    },
    settingsChanged() {
      if (state === 'off' || disposed || !environment) return;
      const offlineNow = isOffline();
      const wasOffline = offlineBefore;
      offlineBefore = offlineNow;
      if (offlineNow) {
        // Offline from now on: stop whatever is on the wire, and check nothing.
        abortCheck?.abort();
        engine?.abort();
        if (timer) clearTimeout(timer);
        timer = null;
        if (state !== 'ready') set('offline');
        return;
      }
      if (wasOffline) {
        if (state === 'offline') set(readyRelease ? 'ready' : 'idle');
        schedule(0);
        return;
      }
      // The download setting: switching to automatic downloads what waits.
      if (state === 'available' && announced && downloads() === 'automatic') startDownload(announced);
      else set(state, problem);
    },
    check,
    download() {
      if (state === 'off') throw offReason!;
      if (state === 'downloading' || state === 'ready') return status();
      if (!announced || state !== 'available') {
        throw new UpdateProblem(
          'update.not_ready',
          'No new version is announced right now: there is nothing to download. The app checks again by itself.',
        );
      }
      startDownload(announced);
      return status();
    },
    ready: () => (state === 'ready' ? readyRelease : null),
    install() {
      if (state !== 'ready' || !readyRelease || !engine) return false;
      logger.info('updates.install', { version: readyRelease.version.text, key: readyRelease.keyFingerprint });
      return engine.installAndRestart();
    },
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      abortCheck?.abort();
      engine?.abort();
      listeners.clear();
    },
  };
}
