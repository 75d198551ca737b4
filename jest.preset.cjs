// Common jest settings: TypeScript through swc, jsdom for components.
module.exports = {
  testEnvironment: 'jsdom',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } },
    ],
  },
  moduleNameMapper: { '\\.(css)$': '<rootDir>/../test-support/style-stub.cjs' },
  setupFilesAfterEnv: ['<rootDir>/../test-support/setup-dom.cjs'],
  testMatch: ['<rootDir>/src/**/*.test.ts?(x)', '<rootDir>/test/**/*.test.ts?(x)'],
};
