// The repository's jest settings (jest.preset.cjs), with its test-support files named from this
// folder, so the tests run wherever the package is.
const path = require('node:path');

const repository = path.join(__dirname, '..');

module.exports = {
  ...require('../jest.preset.cjs'),
  moduleNameMapper: { '\\.(css)$': path.join(repository, 'test-support/style-stub.cjs') },
  setupFilesAfterEnv: [path.join(repository, 'test-support/setup-dom.cjs')],
};
