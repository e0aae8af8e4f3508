/**
 * Hostile input, by construction: every prop of the jsii assembly (each field of each struct a
 * callable takes, each parameter), found in the apps the generator builds from the assembly, is
 * given each hostile value of its type (`_hostile-values.ts`) in place of its valid one. Each run
 * either refuses with exactly one line that names the construct and the prop, shows no credential
 * and writes nothing; or, for a value that can be right, writes output its readers take. A prop
 * added later is tried without a test written for it; a prop no generated app gives fails the test.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { coverage, loadApi } from './_api-model';
import { Program, buildProgram, runProgram } from './_api-programs';
import { Generated, generateScenarios } from './_api-scenarios';
import { Hostile, MARKER, hostileValues } from './_hostile-values';

/** The places whose values may hold credentials: no message shows what they hold. */
const CREDENTIAL_PLACES = /^(password|config|extraValues|discovery)$/;

/** The names of the places that hold a path the library writes to. */
const PATH_PLACES = ['outdir', 'recordFile', 'verifyReport'];

/** The parameter of a static type guard (`OutputFile.isOutputFile(x)`): it takes anything and says whether it is one. */
const TYPE_GUARD = /\.is[A-Z]\w*\.\w+$/;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { exhaustive } = require('./_tiers') as { exhaustive: () => boolean };
/**
 * Each prop is given every hostile value of its type under `npm test`; the fast tier gives each
 * prop every third of them, starting at the prop's own place in the list, so every prop is still
 * tried and each value still reaches the props of its type (test/_tiers.js).
 */
const SHARE = exhaustive() ? 1 : 3;

/** The longest line a refusal may be: what it echoes of a value is bounded. */
const MAX_LINE = 2000;

let generated: Generated;
let props: readonly string[];

beforeAll(async () => {
  const assembly = await loadApi();
  const cov = coverage(assembly);
  // A construct's scope and id are the constructs library's to check, not this library's.
  props = cov.targets.filter((t) => t.prop && !/^new \w+\.(scope|id)$/.test(t.key)).map((t) => t.key);
  generated = generateScenarios(assembly, cov);
}, 300_000);

/** The construct path of each statement of a program. */
function constructPaths(program: Program): Map<string, string> {
  const paths = new Map<string, string>();
  for (const [at, keys] of program.constructs) {
    keys.forEach((k) => paths.set(k, at));
  }
  return paths;
}

/** Whether a field lies in another or holds it (`a.b[0]` and `a.b`); a call's argument (`addSqlClient("x").`) is read as the method's name. */
function related(a: string, b: string): boolean {
  const strip = (f: string) => f.replace(/^(\w+)\(("[^"]*")?\)/, '$1');
  const [x, y] = [strip(a), strip(b)];
  const inside = (f: string, g: string) => f === g || g === '' || f.startsWith(`${g}.`) || f.startsWith(`${g}[`);
  return inside(x, y) || inside(y, x);
}

/** Whether a hostile value can be made at all: cdk8s itself refuses `Duration.hours(-1)`, before any library code runs. */
function canGive(hostile: Hostile): boolean {
  if (hostile.value.kind !== 'raw') {
    return true;
  }
  try {
    hostile.value.make();
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with how a run ended, if anything. */
function judge(key: string, hostile: Hostile, program: Program, statement: string, field: string, folder: string): string | undefined {
  const outcome = runProgram(program, folder);
  const written = ['dist', 'cluster-tls', 'cluster-tls.lock.json'].filter((f) => fs.existsSync(path.join(folder, f)));
  if (outcome.ok) {
    if (!hostile.mayAccept && !TYPE_GUARD.test(key)) {
      return 'accepted';
    }
    return unreadable(folder);
  }
  const message = outcome.message;
  if (!outcome.refusal) {
    return `not a one-line refusal: ${message.split('\n').slice(0, 2).join(' | ').slice(0, 300)}`;
  }
  const problems = [
    message.includes('\n') && 'more than one line',
    message.length > MAX_LINE && `a line of ${message.length} characters`,
    message.includes(MARKER) && (hostile.credential || CREDENTIAL_PLACES.test(field.split('.').pop() ?? '')) && 'a credential repeated',
    written.length > 0 && `wrote ${written.join(', ')}`,
  ].filter(Boolean);
  const where = constructPaths(program).get(statement);
  const parsed = /^([^:\n]+): (.+?): received /s.exec(message.slice(0, MAX_LINE));
  // The construct the statement makes or calls, or one of its children (the watch `watchExpiry`
  // makes, which names the field by its own prop). A value that can be right may be refused for
  // what it meets (a namespace another construct does not share), naming that.
  const child = where !== undefined && message.startsWith(`${where}/`);
  if (where !== undefined && !message.startsWith(`${where}: `) && !child) {
    problems.push(`names another construct than ${where}`);
  } else if (parsed && !hostile.mayAccept && !(child ? parsed[2].split('.').pop() === field.split('.').pop() : related(parsed[2], field))) {
    problems.push(`names another field than ${field}`);
  }
  return problems.length > 0 ? `${problems.join(', ')}: ${message.slice(0, 200)}` : undefined;
}

/** Whether the written files can be read back: every YAML file parses. */
function unreadable(folder: string): string | undefined {
  for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.ya?ml$/.test(entry.name)) {
      const file = path.join(entry.parentPath, entry.name);
      for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
        if (doc.errors.length > 0) {
          return `wrote ${path.relative(folder, file)}, which YAML 1.2 does not read: ${doc.errors[0].message.split('\n')[0]}`;
        }
      }
    }
  }
  return undefined;
}

test(`every prop of the assembly, given ${SHARE === 1 ? 'every hostile value' : `one in ${SHARE} of the hostile values`} of its type, is refused in one line naming it, or written so that it reads back`, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-api-'));
  const defects: string[] = [];
  const missing: string[] = [];
  let runs = 0;
  try {
    for (const [index, key] of props.entries()) {
      const scenario = generated.scenarios.find((s) => s.refusal === undefined && s.program.targetPlaces.has(key));
      const place = scenario?.program.targetPlaces.get(key);
      if (!scenario || !place) {
        missing.push(key);
        continue;
      }
      // A path a user gives may point anywhere (the library writes where it is told): at a place
      // that holds a path, the values stay below the run's folder.
      const isPath = PATH_PLACES.includes(place.path.split('/').pop()!);
      const values = hostileValues(place.type).filter((_, i) => (i + index) % SHARE === 0);
      for (const hostile of values.filter((h) => canGive(h) && (!isPath || h.value.kind !== 'string' || (!h.value.value.startsWith('/') && !h.value.value.includes('..'))))) {
        const program = buildProgram({ ...scenario.plan, overrides: new Map([[place.path, hostile.value]]) });
        const folder = path.join(work, `run-${++runs}`);
        fs.mkdirSync(folder);
        const defect = judge(key, hostile, program, place.statement, place.field, folder);
        fs.rmSync(folder, { recursive: true, force: true });
        if (defect !== undefined) {
          defects.push(`${key} = ${hostile.label}: ${defect}`);
        }
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  // eslint-disable-next-line no-console
  console.log(`hostile input: ${props.length - missing.length} of ${props.length} props, ${runs} values tried, ${defects.length} defects`);
  expect(missing).toEqual([]);
  expect(defects).toEqual([]);
}, 30 * 60_000);
