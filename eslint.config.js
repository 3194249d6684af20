import js from '@eslint/js';
import nodePlugin from 'eslint-plugin-n';
import unicorn from 'eslint-plugin-unicorn';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Layers run one way. Each folder of `src` (or top-level file: `logger`, `config`, `cli`,
 * `catalogue`) may import only the ones listed here (and its own files); the wiring files
 * (`service.ts`, `serve.ts`, `main.ts`, `bin.ts`, `app.ts`) wire them. Nothing in `src` imports
 * `tools/` (the offline tooling builds on the service, never the reverse).
 */
const LAYERS = {
  platform: [],
  domain: [],
  representation: ['platform'],
  logger: [],
  store: ['domain', 'platform'],
  // The environment's schema (it checks DATABASE_URL with the store's own rules).
  config: ['store'],
  // The conventions every command line shares.
  cli: ['config'],
  mentions: ['domain'],
  reviews: ['domain', 'platform'],
  insights: ['domain', 'store', 'mentions', 'reviews', 'cli', 'config', 'platform'],
  catalogue: ['domain', 'insights'],
  feeds: ['domain', 'catalogue'],
  snapshot: ['domain', 'representation', 'store', 'reviews', 'feeds', 'catalogue', 'logger'],
  build: [
    'platform',
    'domain',
    'representation',
    'store',
    'import',
    'insights',
    'catalogue',
    'snapshot',
    'logger',
  ],
  http: ['domain', 'representation', 'store'],
  import: ['domain', 'store', 'mentions', 'cli', 'config', 'platform'],
  admin: ['domain', 'store', 'cli', 'config', 'platform'],
  // Review sources the service runs by itself: each run is an import.
  // The watched export URLs go out through the WebSub hub's outbound guard.
  sources: ['domain', 'store', 'import', 'cli', 'config', 'platform', 'logger', 'websub'],
  api: ['domain', 'representation', 'reviews', 'catalogue', 'snapshot', 'http'],
  // The OpenAPI document is derived from the API's endpoint declarations.
  openapi: ['domain', 'reviews', 'catalogue', 'api'],
  pages: ['domain', 'representation', 'reviews', 'insights', 'catalogue', 'snapshot', 'http'],
  mcp: [
    'domain',
    'representation',
    'store',
    'reviews',
    'insights',
    'catalogue',
    'snapshot',
    'http',
    'logger',
  ],
  // Prometheus metrics: fed by the wiring from the parts it follows (types only, but snapshot's
  // and store's, for the data version and the store faults' classification).
  metrics: ['platform', 'logger', 'store', 'snapshot', 'sources', 'mcp'],
  websub: [
    'domain',
    'representation',
    'store',
    'catalogue',
    'snapshot',
    'http',
    'logger',
    'config',
  ],
};
const FOLDERS = [...Object.keys(LAYERS), 'app', 'service', 'listen', 'serve', 'main', 'bin'];

/** `src` never imports the offline tools (`../tools/` from a top-level file of `src`). */
const NO_TOOLS = {
  regex: '^(\\.\\./)+tools/',
  message: 'src never imports tools/ (offline tooling builds on the service, not the reverse).',
};

/**
 * The import rules of one layer. Its folder's files reach the others with `../`; a top-level file
 * (`src/config.ts`) reaches them with `./`.
 */
function layerRule(folder, allowed) {
  // Every layer may import platform, the bottom one (it imports nothing of src).
  const forbidden = FOLDERS.filter((f) => f !== folder && f !== 'platform' && !allowed.includes(f));
  const rule = (up, toolsUp) => ({
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^${up}(${forbidden.join('|')})(/|\\.js$)`,
            message: `src/${folder} may import only ${allowed.join(', ') || 'nothing else in src'} (layers run one way: eslint.config.js).`,
          },
          {
            regex: `^${up}[^./][^/]*/(.+/)?internal/`,
            message: "Another feature's internal/ files are private: import its public surface.",
          },
          { ...NO_TOOLS, regex: `^${toolsUp}tools/` },
        ],
      },
    ],
  });
  return [
    {
      files: [`src/${folder}/**/*.ts`],
      // A test may wire its module into the service's upper layers (a route on a real port).
      ignores: ['src/**/*.test.ts'],
      rules: rule('(\\.\\./)+', '(\\.\\./){2,}'),
    },
    { files: [`src/${folder}.ts`], rules: rule('\\./', '\\.\\./') },
  ];
}

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      'sample/',
      'models/',
      '.bench/',
      '.conformance/',
      'results/',
      'test-results/',
      '.cache/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { n: nodePlugin, unicorn },
    rules: {
      'n/prefer-node-protocol': 'error',
      'unicorn/filename-case': ['error', { case: 'kebabCase' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Use explicit named exports.' },
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/main.ts', 'src/logger.ts', 'src/**/cli.ts', 'src/**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  ...Object.entries(LAYERS).flatMap(([folder, allowed]) => layerRule(folder, allowed)),
  {
    files: ['src/*.ts', 'src/**/*.test.ts'],
    ignores: Object.keys(LAYERS).map((name) => `src/${name}.ts`),
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TOOLS] }] },
  },
  {
    // Tests may reach into internals to prove them; tools build only on public surfaces.
    files: ['tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/(.+/)?internal/',
              message: "Another feature's internal/ files are private: import its public surface.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['eslint.config.js', 'vitest.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
