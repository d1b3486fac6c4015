import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { META_CSP } from './src/main/window/csp';

const here = dirname(fileURLToPath(import.meta.url));
const CHARSET_TAG = '<meta charset="UTF-8" />';

/** Adds the production CSP as a meta tag to the built index.html (dev uses main's header). */
function cspMetaTag(): Plugin {
  return {
    name: 'exchange-terminal:csp-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        // Right after the charset, before any script or stylesheet it has to govern.
        if (!html.includes(CHARSET_TAG)) throw new Error(`index.html must contain ${CHARSET_TAG}`);
        const meta = `<meta http-equiv="Content-Security-Policy" content="${META_CSP}" />`;
        return html.replace(CHARSET_TAG, `${CHARSET_TAG}\n    ${meta}`);
      },
    },
  };
}

/**
 * A sandboxed preload can only `require('electron')` (and a few shims). Fail the build if
 * the bundle would require anything else at runtime.
 */
function sandboxedPreloadGuard(): Plugin {
  return {
    name: 'exchange-terminal:sandboxed-preload',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const foreign = [...chunk.imports, ...chunk.dynamicImports].filter((id) => id !== 'electron');
        if (foreign.length > 0) {
          this.error(
            `Preload ${chunk.fileName} must be one bundle that imports only electron, found: ${foreign.join(', ')}`,
          );
        }
      }
    },
  };
}

/**
 * The window never signs or hashes: the WebAssembly crypto engines (src/shared/protocol/wasm-crypto.ts
 * and the two modules it loads) are for main and the devnet. Fail the renderer build if anything
 * in it reaches them, rather than shipping 1.2 MB of libsecp256k1 to the page.
 */
function noWasmCryptoInWindow(): Plugin {
  const NODE_ONLY = /(^|\/)(tiny-secp256k1|hash-wasm|wasm-crypto|secp256k1-wasm|keccak-wasm)(\.ts)?$/;
  return {
    name: 'exchange-terminal:no-wasm-crypto-in-window',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (NODE_ONLY.test(source))
        this.error(
          `${importer ?? 'the renderer'} imports ${source}: the WASM crypto engines are for main and the devnet, never the window.`,
        );
      return null;
    },
  };
}

/**
 * The app carries no chain: the practice worker runs the local exchange (src/exchange), whose chain
 * wiring is injected by the devnet (src/devnet/chain-sync.ts) and never imported by the service. Any
 * import of src/devnet (the chain, the contracts' artifacts, hardhat, solc) fails the main build; the
 * lint rules say the same at the source (eslint.config.js), and test/built/pack.test.ts reads the maps.
 */
const DEVNET_DIR = resolve(here, 'src/devnet') + '/';

function noChainInTheApp(): Plugin {
  return {
    name: 'exchange-terminal:no-chain-in-the-app',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      // Relative specifiers are resolved against their importer: src/main/core/devnet/ (the built-in
      // devnet deployment, which only reads devnet.json) is not src/devnet.
      const target = source.startsWith('.') && importer ? resolve(dirname(importer), source) : source;
      if (target.startsWith(DEVNET_DIR) || /(^|\/)(hardhat|solc)(\/|$)/.test(source))
        this.error(`${importer ?? 'main'} imports ${source}: the app carries no chain and no chain tooling.`);
      return null;
    },
  };
}

export default defineConfig({
  main: {
    plugins: [noChainInTheApp()],
    build: {
      // Main runs under Node inside Electron: dependencies stay in node_modules (native keyring).
      externalizeDeps: true,
      sourcemap: true,
      // Three programs: main (index.js), the practice exchange's worker (src/practice/worker.ts) and the
      // emergency kit's signature checks (src/main/core/airgap/kit-worker.ts), which main starts by
      // their paths. Code they share (the client library, zod, ethers' parts) lands in shared chunks
      // under chunks/, so the installer carries it once; src/practice and src/devnet reach only
      // practice-worker.js (test/built/pack.test.ts reads the source maps to check).
      rolldownOptions: {
        input: {
          index: resolve(here, 'src/main/index.ts'),
          'practice-worker': resolve(here, 'src/practice/worker.ts'),
          'kit-worker': resolve(here, 'src/main/core/airgap/kit-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // Sandboxed preload: CommonJS, everything bundled, only `electron` external.
      externalizeDeps: false,
      isolatedEntries: true,
      rolldownOptions: {
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
    plugins: [sandboxedPreloadGuard()],
  },
  renderer: {
    plugins: [noWasmCryptoInWindow(), svelte(), cspMetaTag()],
    build: {
      sourcemap: false,
      // Inline assets as data: URLs would need a wider img-src; keep them as files.
      assetsInlineLimit: 0,
      // The entry's static chunks are listed as <link rel="modulepreload"> (fetched with the entry, not
      // after it parses); Chromium needs no polyfill.
      modulePreload: { polyfill: false },
    },
  },
});
