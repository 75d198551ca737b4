const { createWebpackConfig } = require('../webpack.factory.cjs');

// Its name, exposed modules, dev port and title: remote.json beside package.json.
module.exports = createWebpackConfig({ dir: __dirname });
