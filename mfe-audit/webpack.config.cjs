const { createWebpackConfig } = require('../webpack.factory.cjs');

// Exposed modules, dev port and title: this remote's entry in shared/src/remotes.json.
module.exports = createWebpackConfig({ dir: __dirname, remote: 'audit' });
