/**
 * The fast tier (`npm run test:fast`, jest.fast.config.js) leaves out every live suite and nothing
 * else, by what the suites import (test/_tiers.js): a new suite that starts a control plane, the
 * operator or a SQL server through the helpers lands in `npm test` only, with no list edited.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { liveChain, liveSuites } = require('./_tiers') as {
  liveChain: (file: string) => string[] | undefined;
  liveSuites: (folder: string) => string[];
};

const TEST = __dirname;
const names = (files: readonly string[]) => files.map((f) => path.basename(f)).sort();

/**
 * A new suite for one case, in a folder of its own (so that no jest run picks it up), importing the
 * test folder's helpers by relative paths; `HELPER` in its source stands for the path to test/.
 */
function withSuite(source: string, check: (file: string) => void): void {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tiers-'));
  const file = path.join(folder, 'new.test.ts');
  fs.writeFileSync(file, source.replaceAll('HELPER/', `${path.relative(folder, TEST)}/`));
  try {
    check(file);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

describe('the live tier', () => {
  test('holds the suites that start a control plane, the operator, a SQL server, the packed library or the other languages, and the rotation and enablement runbooks run as written', () => {
    expect(names(liveSuites(TEST))).toEqual(expect.arrayContaining([
      'consumer.test.ts', 'control-plane-rotation.test.ts', 'control-plane.test.ts', 'enablement-runbooks.test.ts', 'languages.test.ts', 'operator.test.ts',
      'rotation-runbooks-sql.test.ts', 'rotation-runbooks.test.ts', 'span-kept-root.test.ts', 'span.test.ts', 'sql-tls-mariadb.test.ts', 'sql-tls-tidb.test.ts', 'tutorial.test.ts',
    ]));
  });

  test('every suite that calls ControlPlane.start, runs the operator or starts a SQL server is live', () => {
    const starts = /\b(ControlPlane|MariaDb|TidbServer)\.start\(|\brenderWithOperator\(|\bTidbJudge\b/;
    const starting = fs.readdirSync(TEST).filter((f) => f.endsWith('.test.ts')).map((f) => path.join(TEST, f))
      .filter((f) => starts.test(fs.readFileSync(f, 'utf8')));
    expect(starting.length).toBeGreaterThan(0);
    expect(names(starting.filter((f) => liveChain(f) === undefined))).toEqual([]);
  });

  test('a new suite that imports a live helper, even through another helper, is live', () => {
    withSuite("import { guideWorkspace } from 'HELPER/_span-guide';\ntest('x', () => expect(guideWorkspace).toBeDefined());\n", (file) => {
      expect(names(liveChain(file) ?? [])).toEqual(names([file, '_span-guide.ts', '_control-plane.ts']));
    });
  });

  test('a suite that only names a live helper\'s types, or runs a built Go program, stays fast', () => {
    withSuite("import type { ControlPlane } from 'HELPER/_control-plane';\nimport { tool } from 'HELPER/_programs';\nlet p: ControlPlane | undefined;\ntest('x', () => expect([p, tool('duration')]).toBeDefined());\n", (file) => {
      expect(liveChain(file)).toBeUndefined();
    });
    expect(names(liveSuites(TEST))).not.toContain('handshakes.test.ts');
    expect(names(liveSuites(TEST))).not.toContain('cfssl-e2e.test.ts');
  });

  test('the fast configuration leaves out exactly the live suites', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fast = require('../jest.fast.config.js') as { testPathIgnorePatterns: string[] };
    const all = fs.readdirSync(TEST).filter((f) => f.endsWith('.test.ts')).map((f) => path.join(TEST, f));
    const ignored = all.filter((f) => fast.testPathIgnorePatterns.some((p) => new RegExp(p).test(f)));
    expect(names(ignored)).toEqual(names(liveSuites(TEST)));
  });
});
