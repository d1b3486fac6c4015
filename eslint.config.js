// ESLint 9 flat config: type-aware TypeScript, Svelte 5, and the process boundaries of
// docs/design.md enforced as import rules.
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));

const TS_PROJECTS = ['./tsconfig.json', './tsconfig.web.json'];

/**
 * Files under src/main that may load electron at runtime. Everything else in src/main
 * must run (and be unit tested) under plain node, so it may import electron's types only.
 */
const ELECTRON_RUNTIME_FILES = [
  'src/main/index.ts',
  'src/main/window/create-window.ts',
  'src/main/electron/dialogs.ts',
  'src/main/electron/store.ts',
];

/** Boundaries of every shipped file of src/main (a later block for a narrower group repeats them). */
const MAIN_BOUNDARIES = [
  {
    deny: ['src/devnet', 'src/exchange', 'src/practice', 'src/renderer'],
    reason:
      'main reaches the devnet over HTTP/WebSocket/JSON-RPC like any deployment, starts the practice worker (the local exchange) by its built file and speaks src/shared/practice.ts to it, and reaches the window only through the bridge.',
  },
  {
    deny: ['src/client'],
    allowFiles: ['src/client/index.ts'],
    reason: 'import the client library from its index (src/client), never its files.',
  },
];

/** The app core knows neither the window nor Electron: both are wired to it in src/main/index.ts. */
const CORE_BOUNDARY = {
  deny: ['src/main/window', 'src/main/electron'],
  reason:
    'the app core runs under plain node behind AppCore.invoke; window/ and electron/ are wired to it by src/main/index.ts, never imported by it.',
};

/** Settings and the vault are services the core uses, so they never use the core. */
const SERVICE_BOUNDARY = {
  deny: ['src/main/core'],
  reason:
    'settings/ and vault/ are services the app core uses; they never import it (no cycle, and they stay testable alone).',
};

const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));

/** no-restricted-imports entries that forbid node builtins (bare and `node:`) and electron. */
function forbidNodeAndElectron(reason) {
  return {
    paths: [{ name: 'electron', message: reason }, ...NODE_BUILTINS.map((name) => ({ name, message: reason }))],
    patterns: [{ group: ['node:*'], message: reason }],
  };
}

/**
 * local/import-boundaries: relative imports may not reach into the listed folders
 * (`deny`), or may not leave the listed folders (`allowOnly`). Paths are resolved, so
 * `../../main/x` and `../main/../main/x` are caught alike.
 */
const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep relative imports inside the process boundaries of docs/design.md' },
    // One or more boundary objects, each checked on its own (a file group may need several).
    schema: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          deny: { type: 'array', items: { type: 'string' } },
          allowOnly: { type: 'array', items: { type: 'string' } },
          allowFiles: { type: 'array', items: { type: 'string' } },
          reason: { type: 'string' },
        },
        additionalProperties: false,
      },
    },
    messages: { outside: "'{{source}}' crosses a process boundary: {{reason}}" },
  },
  create(context) {
    const inside = (file, dir) => {
      const abs = path.resolve(root, dir);
      return file === abs || file.startsWith(abs + path.sep);
    };
    const boundaries = context.options.map(
      ({ deny = [], allowOnly = [], allowFiles = [], reason = 'see docs/design.md' }) => ({
        reason,
        // Exact module files exempt from `deny` (a public index), matched with or without extension.
        exempt: (target) =>
          allowFiles.some((f) => {
            const abs = path.resolve(root, f);
            return [target, `${target}.ts`, path.join(target, 'index.ts')].includes(abs);
          }),
        deny,
        allowOnly,
      }),
    );
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !(source.startsWith('.') || source.startsWith('/'))) return;
      const target = path.resolve(path.dirname(context.filename), source);
      for (const b of boundaries) {
        const denied = b.deny.some((dir) => inside(target, dir)) && !b.exempt(target);
        const escaped = b.allowOnly.length > 0 && !b.allowOnly.some((dir) => inside(target, dir));
        if (denied || escaped) {
          context.report({ node: node.source, messageId: 'outside', data: { source, reason: b.reason } });
          return;
        }
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

// The same check under a second name, so its options are not replaced by a later block's boundaries.
const local = { rules: { 'import-boundaries': importBoundaries, 'test-support-boundary': importBoundaries } };

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench-results/**',
      'release/**',
      'coverage/**',
      '.devnet-data/**',
      '.tmp/**',
      '.vite/**',
    ],
  },

  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...svelte.configs.recommended,

  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: {
        project: TS_PROJECTS,
        tsconfigRootDir: root,
        extraFileExtensions: ['.svelte'],
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { local },
    rules: {
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          // ethers' waits subscribe to block events whose un-awaited requests outlive them and
          // reject unhandled once the provider is destroyed (a crashed e2e worker, seen in CI).
          selector:
            "CallExpression[callee.property.type='Identifier'][callee.property.name=/^(wait|waitForDeployment|waitForTransaction)$/]",
          message:
            'Poll the receipt with pollReceipt (src/shared/receipt-poll.ts) or minedReceipt (src/devnet/chain/rpc.ts); ethers waits leave listeners that reject after provider.destroy().',
        },
      ],
    },
  },

  // Svelte components: TypeScript inside <script lang="ts">, type-aware like the rest.
  {
    files: ['**/*.svelte'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser },
    },
  },

  // Plain JavaScript (configs, scripts) is outside the tsconfigs: lint it without types.
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['e2e/browser/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },

  // Where console output is the product.
  {
    files: ['scripts/**', 'bench/**', 'src/devnet/cli*', 'e2e/**', 'playwright.config.ts'],
    rules: { 'no-console': 'off' },
  },

  // ── Process boundaries (docs/design.md#boundaries) ──
  {
    files: ['src/shared/**/*.ts'],
    // Tests never ship; like tsconfig.shared.json, they may use node and test/ helpers.
    ignores: ['src/shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        forbidNodeAndElectron(
          'src/shared is pure TypeScript that runs in every process: no node builtins, no electron.',
        ),
      ],
      'local/import-boundaries': [
        'error',
        { allowOnly: ['src/shared'], reason: 'src/shared imports nothing outside itself.' },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.svelte'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        forbidNodeAndElectron(
          'The window has no node and no electron; ask main through the bridge (src/shared/bridge.ts).',
        ),
      ],
      'local/import-boundaries': [
        'error',
        {
          deny: ['src/main', 'src/client', 'src/devnet', 'src/exchange', 'src/practice', 'src/preload'],
          reason: 'the renderer talks to main only through the bridge contract in src/shared.',
        },
      ],
    },
  },
  {
    // The bridge's zod schemas compile with new Function, which the window's CSP blocks (a console CSP
    // violation on every page): the window takes their types, and its values from zod-free files
    // (bridge/limits.ts, working-defaults.ts). Its tests run under node and may use the schemas.
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.svelte'],
    ignores: ['src/renderer/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/shared/bridge(/(?!limits$)|$)|/shared/settings-schema$',
              allowTypeImports: true,
              message:
                'Import types only from the bridge schemas; put a value the window needs in a zod-free shared file.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NODE_BUILTINS.map((name) => ({ name, message: 'A sandboxed preload can only use electron.' })),
          patterns: [{ group: ['node:*'], message: 'A sandboxed preload can only use electron.' }],
        },
      ],
      'local/import-boundaries': [
        'error',
        { allowOnly: ['src/preload', 'src/shared'], reason: 'the preload is built from the bridge contract only.' },
      ],
    },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ELECTRON_RUNTIME_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              allowTypeImports: true,
              message: `Only ${ELECTRON_RUNTIME_FILES.join(' and ')} load electron; other main modules must run under plain node (import types only).`,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/**/*.ts'],
    // Integration tests may start the devnet in-process; shipped code may not import it.
    ignores: ['src/main/**/*.test.ts'],
    rules: { 'local/import-boundaries': ['error', ...MAIN_BOUNDARIES] },
  },
  // One block per group below: a later block replaces the rule's options for the same file.
  {
    files: ['src/main/core/**/*.ts'],
    ignores: ['src/main/core/**/*.test.ts'],
    rules: {
      // No electron at runtime here, whatever ELECTRON_RUNTIME_FILES says; types are fine.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', allowTypeImports: true, message: CORE_BOUNDARY.reason },
            { name: 'electron-store', message: CORE_BOUNDARY.reason },
          ],
        },
      ],
      'local/import-boundaries': ['error', ...MAIN_BOUNDARIES, CORE_BOUNDARY],
    },
  },
  {
    files: ['src/main/core/**/*.test.ts'],
    rules: { 'local/import-boundaries': ['error', CORE_BOUNDARY] },
  },
  {
    files: ['src/main/settings/**/*.ts', 'src/main/vault/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'local/import-boundaries': ['error', ...MAIN_BOUNDARIES, SERVICE_BOUNDARY] },
  },
  {
    files: ['src/main/settings/**/*.test.ts', 'src/main/vault/**/*.test.ts'],
    rules: { 'local/import-boundaries': ['error', SERVICE_BOUNDARY] },
  },
  {
    files: ['src/devnet/**/*.ts'],
    ignores: ['src/devnet/**/*.test.ts'],
    rules: {
      'local/import-boundaries': [
        'error',
        {
          deny: ['src/main', 'src/renderer', 'src/preload', 'src/practice'],
          reason:
            'the devnet is the local exchange (src/exchange) plus a chain: it shares src/shared and the client library with the app, never main or practice mode.',
        },
        {
          deny: ['src/client'],
          allowFiles: ['src/client/index.ts'],
          reason: 'import the client library from its index (src/client), never its files.',
        },
      ],
    },
  },
  {
    // The local exchange (engine, service, journal, markets, oracle simulation, bots) ships in the app:
    // practice mode runs it in a worker thread, and the devnet adds a chain to it. So it never imports
    // the chain tooling (src/devnet), main, or the window; the chain comes in as types and an injected
    // starter (src/exchange/service/chain-wiring.ts).
    files: ['src/exchange/**/*.ts'],
    ignores: ['src/exchange/**/*.test.ts'],
    rules: {
      'local/import-boundaries': [
        'error',
        {
          allowOnly: ['src/exchange', 'src/shared', 'src/client'],
          reason:
            'src/exchange ships in the app (practice mode): it may use the client library and src/shared, never the chain tooling of src/devnet, main, or the window.',
        },
        {
          deny: ['src/client'],
          allowFiles: ['src/client/index.ts'],
          reason: 'import the client library from its index (src/client), never its files.',
        },
      ],
    },
  },
  {
    // Practice mode's exchange (a worker thread of the installed app): the local exchange and the client
    // library, never the chain tooling, never main (main starts it by its built file).
    files: ['src/practice/**/*.ts'],
    ignores: ['src/practice/**/*.test.ts'],
    rules: {
      'local/import-boundaries': [
        'error',
        {
          allowOnly: ['src/practice', 'src/shared', 'src/client', 'src/exchange'],
          reason:
            'practice mode ships in the app: it may use the local exchange (src/exchange), the client library and src/shared, never the chain tooling (src/devnet) nor main.',
        },
        {
          deny: ['src/client'],
          allowFiles: ['src/client/index.ts'],
          reason: 'import the client library from its index (src/client), never its files.',
        },
      ],
    },
  },
  {
    // Production source holds production code: test doubles and harness helpers live under test/support
    // (and e2e/harness), which nothing that ships may import. A test beside its module may.
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'local/test-support-boundary': [
        'error',
        {
          deny: ['test', 'e2e', 'bench'],
          reason:
            'test doubles and harness helpers (test/support, e2e/harness) never ship: production source cannot import them.',
        },
      ],
    },
  },
  {
    // The exchange client library is a layer of its own: main and the devnet's bots both use it, so it
    // knows neither (docs/design.md).
    files: ['src/client/**/*.ts'],
    ignores: ['src/client/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'The client library runs under plain node (bots, benches, scripts): no electron.',
            },
          ],
        },
      ],
      'local/import-boundaries': [
        'error',
        { allowOnly: ['src/client', 'src/shared'], reason: 'src/client imports only src/shared and its libraries.' },
      ],
    },
  },
  {
    // Benches use the client library as a script would: through its index.
    files: ['bench/**/*.ts'],
    rules: {
      'local/import-boundaries': [
        'error',
        {
          deny: ['src/client'],
          allowFiles: ['src/client/index.ts'],
          reason: 'import the client library from its index (src/client), never its files.',
        },
      ],
    },
  },
);
