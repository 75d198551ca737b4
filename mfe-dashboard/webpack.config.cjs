const { createWebpackConfig } = require('../webpack.factory.cjs');

module.exports = createWebpackConfig({
  dir: __dirname,
  name: 'dashboard',
  devPort: 3001,
  exposes: { './Dashboard': './src/dashboard.tsx' },
  title: 'Veritas · Dashboard',
});
