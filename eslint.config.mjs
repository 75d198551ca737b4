// One lint configuration for every package: TypeScript and React hooks rules, and the boundaries
// between packages (docs/architecture.md#dependency-rule): a remote never imports another remote
// or the shell, shared never imports an app, the API never imports front-end code, no package
// reaches into @veritas/shared/src (its `exports` map names the entry points), no import cycles,
// and one case for file names (kebab-case). Formatting is Prettier's (eslint-config-prettier turns
// the overlapping rules off).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import checkFile from 'eslint-plugin-check-file';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { createRequire } from 'node:module';

const { workspaceRemotes } = createRequire(import.meta.url)('./scripts/workspace-remotes.cjs');
const REMOTES = workspaceRemotes().map((remote) => remote.package);
const FRONT_END = ['shell', ...REMOTES];

/** Imports of @veritas/shared past its exports map. */
const DEEP_SHARED = {
  group: ['@veritas/shared/src', '@veritas/shared/src/*'],
  message: 'Import an entry point of @veritas/shared (see its package.json "exports").',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      '.veritas-data/**',
      '**/.bench/**',
      'mfe-devices-build-*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      // import-x's TypeScript settings (how to parse the files an import leads to, for no-cycle),
      // with the resolver reading every package's tsconfig.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['*/tsconfig.json'],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...REMOTES.map((remote) => ({
              target: `./${remote}`,
              from: FRONT_END.filter((pkg) => pkg !== remote).map((pkg) => `./${pkg}`),
              message: 'A remote imports only @veritas/shared, never another remote or the shell.',
            })),
            {
              target: './shared',
              from: [...FRONT_END, 'api', 'e2e'].map((pkg) => `./${pkg}`),
              message: '@veritas/shared never imports an app.',
            },
            {
              target: './api',
              from: [...FRONT_END, 'e2e'].map((pkg) => `./${pkg}`),
              message: 'The API never imports front-end code.',
            },
            {
              target: './shell',
              from: REMOTES.map((pkg) => `./${pkg}`),
              message: 'The shell loads remotes at run time only.',
            },
          ],
        },
      ],
      'no-restricted-imports': ['error', { patterns: [DEEP_SHARED] }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // One case for every file name: kebab-case, digits allowed anywhere (a migration's number leads its name).
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx,js,mjs,cjs}': '+([a-z0-9])*(-+([a-z0-9]))' },
        { ignoreMiddleExtensions: true },
      ],
    },
  },
  {
    // The API compiles in the DOM-free part of @veritas/shared only, never its React entry.
    files: ['api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@veritas/shared', message: 'The API imports @veritas/shared/domain (no React, no DOM).' }],
          patterns: [DEEP_SHARED],
        },
      ],
    },
  },
  {
    // Where PostgreSQL and SQLite differ, each engine's code is in a file of its own
    // (docs/architecture.md#the-api-by-feature): nothing else reads which engine it runs on, or
    // the engines' own handles.
    files: ['api/src/**/*.ts'],
    ignores: ['api/src/db/**', 'api/src/**/*.postgres.ts', 'api/src/**/*.sqlite.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(engine|sqlite|pg)$/]',
          message:
            "Engine-specific code goes in a <name>.postgres.ts / <name>.sqlite.ts pair, chosen with db/engines.ts's forEngine.",
        },
        {
          selector: 'BinaryExpression > Literal[value=/^(postgres|sqlite)$/]',
          message:
            "Engine-specific code goes in a <name>.postgres.ts / <name>.sqlite.ts pair, chosen with db/engines.ts's forEngine.",
        },
      ],
    },
  },
  {
    // A route is its schema, its access rule and a call into its feature: no query of its own.
    files: ['api/src/*/routes.ts', 'api/src/*/*-routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@veritas/shared', message: 'The API imports @veritas/shared/domain (no React, no DOM).' },
            { name: 'kysely', message: "A route calls its feature's repository; it does not query." },
          ],
          patterns: [
            DEEP_SHARED,
            {
              group: ['**/db/connection', '**/db/engines'],
              message: "A route calls its feature's repository; it does not query.",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(kysely|sqlite|pg|transaction)$/]',
          message: "A route calls its feature's repository; it does not query.",
        },
      ],
    },
  },
  {
    files: [...FRONT_END, 'shared'].map((pkg) => `${pkg}/**/*.{ts,tsx}`),
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // React Compiler is not used: its notes on libraries it would skip are not findings.
    files: [...FRONT_END, 'shared'].map((pkg) => `${pkg}/**/*.{ts,tsx}`),
    rules: { 'react-hooks/incompatible-library': 'off' },
  },
  {
    files: ['**/*.test.{ts,tsx}', '**/test/**', 'test-support/**'],
    languageOptions: { globals: { ...globals.jest, ...globals.node, ...globals.browser } },
  },
  {
    // Answers of the API under test (and of the simulator's web client) are JSON whose shape each
    // test asserts; migrations see the schema as it was then, so Kysely's own advice is Kysely<any>.
    files: ['api/test/**', 'api/sim/**', 'api/src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
