/** Jest runs the TypeScript tests through ts-jest, which type-checks each file it loads. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }],
  },
  cacheDirectory: '<rootDir>/.jest-cache',
  // One private temporary folder per run, removed at the end: cdk8s's Testing.app() and
  // Testing.chart() leave a cdk8s.outdir.* folder in os.tmpdir() per call, and tests leave
  // folders of their own. The setup points TMPDIR at the private folder before the workers start
  // (they inherit it); the check stops a test file whose worker did not; the teardown removes it.
  globalSetup: '<rootDir>/test/_jest-global-setup.ts',
  globalTeardown: '<rootDir>/test/_jest-global-teardown.ts',
  setupFiles: ['<rootDir>/test/_jest-tmpdir-check.ts'],
};
