// The API suite runs twice: on embedded SQLite and on PostgreSQL 15 (a throwaway cluster,
// or the server named by VERITAS_TEST_PG_URL). The test script sets --experimental-vm-modules:
// @fastify/cookie loads the ESM-only `cookie` package with import(), which jest refuses otherwise.
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  // ignoreDynamic: an import() stays one, so a test can load an ES-only package (jest's vm modules).
  transform: {
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs', ignoreDynamic: true },
      },
    ],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
};

module.exports = {
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'sqlite', globals: { __VERITAS_ENGINE__: 'sqlite' } },
    {
      ...common,
      displayName: 'postgres',
      globals: { __VERITAS_ENGINE__: 'postgres' },
      globalSetup: '<rootDir>/test/support/pg-global-setup.ts',
      globalTeardown: '<rootDir>/test/support/pg-global-teardown.ts',
    },
  ],
};
