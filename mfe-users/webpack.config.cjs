const { createWebpackConfig } = require('../webpack.factory.cjs');

module.exports = createWebpackConfig({
  dir: __dirname,
  name: 'users',
  devPort: 3003,
  exposes: {
    './CreateUser': './src/CreateUserPage.tsx',
    './DeactivateUsers': './src/DeactivateUsersPage.tsx',
  },
  title: 'Veritas · Users',
});
