// Unit tests of the root scripts that need no running console (e.g. deploy-remote.ts): node, swc.
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' } } }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
};
