// The repository's jest settings (jest.preset.cjs), with its test-support files named from this
// folder, so the tests run wherever the package is.
const path = require('node:path');

const repository = path.join(__dirname, '__repository__');

module.exports = {
  ...require('__repository__/jest.preset.cjs'),
  moduleNameMapper: { '\\.(css)$': path.join(repository, 'test-support/style-stub.cjs') },
  setupFilesAfterEnv: [path.join(repository, 'test-support/setup-dom.cjs')],
};
