/**
 * The layers of lib/ (.dependency-cruiser.cjs, explained in docs/development/layout.md): no import
 * circle, type-only imports included, and no import up the layers, found by dependency-cruiser's
 * own API over lib/. dependency-cruiser is an ES module, which jest's module system does not load,
 * so its API runs in a Node.js process of its own and hands back the violations as JSON.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..');

/** The longest a source file of lib/ may be, in lines: one sitting's reading. */
const MAX_LINES = 600;

/** Runs `cruise` over lib/ with the project's configuration; prints `{ violations, modules }`. */
const CRUISE = `
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const result = await cruise(['lib'], { ...options, validate: true, outputType: 'json' }, {}, { tsConfig: extractTSConfig('tsconfig.json') });
const { summary } = JSON.parse(result.output);
process.stdout.write(JSON.stringify({ violations: summary.violations, modules: summary.totalCruised }));
`;

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly { readonly name: string }[];
}

test('lib/ has no import circle and no import up the layers', () => {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', CRUISE], { cwd: ROOT, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const { violations, modules } = JSON.parse(run.stdout) as { violations: Violation[]; modules: number };
  // Every module of lib/ was read: a configuration that matched nothing would pass any tree.
  expect(modules).toBeGreaterThan(100);
  const shown = violations.map((v) => `${v.from} → ${v.to} (${v.rule.name})${v.cycle ? `: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}` : ''}`);
  expect(shown).toEqual([]);
}, 120_000);

/** Every .ts file under a folder, relative to the project's root. */
function sourceFiles(folder: string): string[] {
  return fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(relative) : entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** A file's lines, as `wc -l` counts them. */
function lineCount(file: string): number {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

test(`no source file of lib/ is over ${MAX_LINES} lines`, () => {
  const over = sourceFiles('lib').map((f) => [f, lineCount(f)] as const).filter(([, n]) => n > MAX_LINES);
  expect(over).toEqual([]);
});
