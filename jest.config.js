/** Jest runs the TypeScript tests through ts-jest, which type-checks each file it loads. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }],
  },
  cacheDirectory: '<rootDir>/.jest-cache',
};
