/**
 * The fast tier, `npm run test:fast`: every test file of jest.config.js except the live suites
 * (test/_tiers.js says which and why), for the edit loop, and the exhaustive proofs on fewer cases
 * (CLUSTER_TLS_TIER=fast, which the workers inherit: test/_tiers.js's exhaustive). `npm test`
 * still runs them all, every case.
 */
const path = require('node:path');
const base = require('./jest.config');
const { liveSuites } = require('./test/_tiers');

process.env.CLUSTER_TLS_TIER = 'fast';

/** A test path as a pattern that matches it alone. */
const exactly = (file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

module.exports = {
  ...base,
  testPathIgnorePatterns: ['/node_modules/', ...liveSuites(path.join(__dirname, 'test')).map(exactly)],
};
