const { createWebpackConfig } = require('../webpack.factory.cjs');

module.exports = createWebpackConfig({
  dir: __dirname,
  name: 'users',
  devPort: 3003,
  exposes: {
    './CreateUser': './src/create-user-page.tsx',
    './DeactivateUsers': './src/deactivate-users-page.tsx',
  },
  title: 'Veritas · Users',
});
