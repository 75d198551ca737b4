// Unit tests of the root scripts that need no running console (e.g. deploy-remote.ts): node, swc.
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.[tj]s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' } } }] },
  // github-slugger ships ES modules only: compiled like the scripts, as nothing else in node_modules is.
  transformIgnorePatterns: ['/node_modules/(?!\\.pnpm|github-slugger)'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
};
