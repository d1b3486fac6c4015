/**
 * The one place updates come from: the update address baked into the build. Every request of the
 * updater (manifest, signature, download) goes to that scheme, host and port, under its folder; a
 * redirect anywhere else is refused. https only, except for loopback hosts (tests, a local mirror).
 */
import { UpdateProblem, NOTHING_INSTALLED } from './update-problem';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

export class UpdateOrigin {
  /** The update folder, always ending with a slash. */
  readonly base: URL;

  private constructor(base: URL) {
    this.base = base;
  }

  /** The origin of an update address, or null when it may not be one (not https off loopback, credentials, query). */
  static parse(address: string): UpdateOrigin | null {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return null;
    }
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
    if (!secure || url.username || url.password || url.search || url.hash) return null;
    if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
    return new UpdateOrigin(url);
  }

  /** The URL of a file of the update folder (a plain name: signed-manifest.ts checks it). */
  file(name: string): URL {
    return new URL(encodeURIComponent(name), this.base);
  }

  /** Whether a URL is this origin's, under its folder. */
  contains(url: URL): boolean {
    return (
      url.protocol === this.base.protocol &&
      url.host === this.base.host &&
      url.pathname.startsWith(this.base.pathname) &&
      !url.username &&
      !url.password
    );
  }

  /** The refusal of a redirect (or any request) that would leave the update address. */
  redirectRefusal(target: string): UpdateProblem {
    let where = 'an address it could not read';
    try {
      const url = new URL(target, this.base);
      where = url.host === this.base.host ? `${url.origin}${url.pathname}` : url.host;
    } catch {
      // keep the generic wording
    }
    return new UpdateProblem(
      'update.redirect',
      `The update server sent the app to ${where}; updates are fetched only from ${this.base.host}${this.base.pathname}, so the update was refused. ${NOTHING_INSTALLED}`,
    );
  }
}
