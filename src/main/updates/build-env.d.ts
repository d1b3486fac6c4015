// What electron-vite bakes into the main bundle at build time (`MAIN_VITE_*` environment variables,
// set by `npm run release`); undefined in an ordinary build and under vitest.
interface ImportMetaEnv {
  /** The update folder of this build (https), e.g. https://updates.example.org/exchange-terminal/. */
  readonly MAIN_VITE_UPDATE_FEED_URL?: string;
  /** Windows: Authenticode publisher names (comma separated) a downloaded installer must be signed by. */
  readonly MAIN_VITE_WINDOWS_PUBLISHERS?: string;
}

interface ImportMeta {
  /** Absent when the module runs unbundled (tsx, Playwright), where nothing is baked in. */
  readonly env?: ImportMetaEnv;
}
