/**
 * Jest runs the TypeScript tests through ts-jest, which only transpiles them, one file at a time
 * (test/tsconfig.jest.json sets isolatedModules): the type check of the tests and the library is
 * `tsc -b . test`, which `npm test` and `npm run test:fast` run first. ts-jest's own
 * type check built a program per worker and checked every file it loaded again: ten unit files
 * took 57 CPU-seconds with it and 24 without (jest's cache empty).
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.jest.json' }],
  },
  cacheDirectory: '<rootDir>/.jest-cache',
  // A bound on a hung test, not a measure of speed (that is npm run bench): jest's default of 5 s
  // failed a test that issues a deployment's keys on a loaded CI machine. Live suites set longer ones.
  testTimeout: 120_000,
  // Two test files at a time on the 2-core machines CI runs on: the live suites spend most of their
  // time waiting for API servers, cert-manager and the SQL server, and jest's default (cores - 1)
  // ran the whole suite one file at a time, close to CI's 90-minute limit.
  maxWorkers: 2,
  // The suites that need no built program first, then those waiting for the build's first programs,
  // then its last: .ci/run starts the tests while scripts/build-control-plane.sh builds.
  testSequencer: '<rootDir>/test/_sequencer.js',
  // One private temporary folder per run, removed at the end: cdk8s's Testing.app() and
  // Testing.chart() leave a cdk8s.outdir.* folder in os.tmpdir() per call, and tests leave
  // folders of their own. The setup points TMPDIR at the private folder before the workers start
  // (they inherit it); the check stops a test file whose worker did not; the teardown removes it.
  globalSetup: '<rootDir>/test/_jest-global-setup.ts',
  globalTeardown: '<rootDir>/test/_jest-global-teardown.ts',
  setupFiles: ['<rootDir>/test/_jest-tmpdir-check.ts'],
  // A file that needs the built programs waits, while a build runs, for those of its stage; with
  // CLUSTER_TLS_CPU_LOG set, each file's CPU and wall time are logged to that file.
  setupFilesAfterEnv: ['<rootDir>/test/_jest-build-wait.ts', '<rootDir>/test/_jest-cpu-log.ts'],
};
