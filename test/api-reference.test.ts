/**
 * API.md is the reference of every exported name, generated from the code's comments by TypeDoc
 * (`npm run docs`, settings in typedoc.json). Here it is generated again into a temporary folder:
 * the run must report nothing (an exported name without a comment, a broken link or a type the
 * reference cannot show is a warning, and warnings are errors), and the result must be the
 * committed file byte for byte.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..');

test('API.md is what npm run docs generates, and every exported name is documented', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-api-'));
  try {
    const run = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'typedoc'), ['--out', out], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const reported = `${run.stdout}${run.stderr}`.split('\n').filter((line) => /\[(warning|error)\]/.test(line));
    expect(reported).toEqual([]);
    expect(run.status).toBe(0);
    const generated = fs.readFileSync(path.join(out, 'API.md'), 'utf8');
    const committed = fs.readFileSync(path.join(ROOT, 'API.md'), 'utf8');
    // A stale reference shows its first differing line: run `npm run docs` and commit API.md.
    const [was, is] = [committed.split('\n'), generated.split('\n')];
    const line = was.findIndex((text, i) => text !== is[i]);
    const firstDifference = committed === generated ? undefined : { line: (line < 0 ? was.length : line) + 1, committed: was[line], generated: is[line < 0 ? was.length : line] };
    expect(firstDifference).toBeUndefined();
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}, 120_000);
