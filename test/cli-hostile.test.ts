/**
 * Hostile input on `cluster-tls verify`, generated from the command itself: every option of its
 * table (`OPTIONS`, which `parseArgs` reads) given every hostile value of its type, and every field
 * of the input it reads (the kubectl List of Secrets and Pods, and the plan in the output folder)
 * replaced by every shape JSON has and by hostile strings. Each run must end in exit code 0 or 1
 * with a bounded report, or 2 with one `error:` line; never a stack trace, never a key or a
 * certificate of the input repeated, never a huge value echoed whole. An option or a field added
 * later is tried without writing a test.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'cdk8s';
import { NUMERIC_OPTIONS, OPTIONS } from '../bin/cluster-tls';
import { cli } from './_cli';
import { ClusterCertificates } from '../lib';
import { MAX_LINE } from '../lib/verify/text';
import { writeLaidOut } from './_output';
import { TestPki, secretObject, userTlsSecret } from './_pki';

const HUGE = 'x'.repeat(2_000_000);

/** Strings a user or an attacker may pass where a string goes. */
const HOSTILE_STRINGS = [
  '', ' ', '-', '--json', '\n', 'a\nb', 'tab\there', 'nul\u0000byte', 'ctrl\u0001\u001b[31m', '\u2028', 'ünïcødé', '{{ .Values }}', '<<', 'yes',
  '-1', '0', 'NaN', 'Infinity', '1e400', '99999999999999999999', '2026-02-31', '2026-13-01T00:00:00Z', '+002030-01-01', '1e3',
  // Numbers a date cannot hold as days, or that are not whole: every numeric option must refuse them in one line.
  '200000000', '100000000', '9007199254740993', '1.5', '+5', ' 5', '0x10', '-0',
  '/', '/dev/null', '/proc/self/mem', '../..', 'does/not/exist', 'https://user:hunter2@example.com/x', HUGE,
];

/** The shapes JSON has, and hostile strings, to put at each field of an input. */
const SHAPES: unknown[] = [null, 0, -1, 1e308, true, [], [null], {}, { a: 1 }, '', 'a\nb', '2026-02-31T00:00:00Z', '-----BEGIN CERTIFICATE-----', HUGE];

/** Every place of a JSON value, as the keys that lead to it; lists beyond their first two items are left out. */
function places(value: unknown, at: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') {
    return [at];
  }
  const entries = Array.isArray(value) ? value.slice(0, 2).map((v, i) => [String(i), v] as const) : Object.entries(value);
  return [at, ...entries.flatMap(([k, v]) => places(v, [...at, k]))];
}

/** A copy of a JSON value with the place replaced. */
function replaced(root: any, at: readonly string[], value: unknown): any {
  if (at.length === 0) {
    return value;
  }
  const copy = Array.isArray(root) ? [...root] : { ...root };
  copy[at[0]] = replaced(root[at[0]], at.slice(1), value);
  return copy;
}

let work: string;
let dist: string;
let plan: any;
let list: any;
let secretMaterial: string[];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-cli-hostile-'));
  const certificates = new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo', components: ['store'] });
  // With a Secret the user creates, so that its fields, and its Secret's, are tried too.
  plan = { ...certificates.plan(), userSecrets: [{ name: 'basic-sink-tls', cluster: 'database', usedBy: 'the changefeed\'s sink' }] };
  dist = writeLaidOut(path.join(work, 'out'), { 'demo/basic/tls-plan.json': JSON.stringify(plan, undefined, 2) });
  const pki = await TestPki.create(new Date());
  const secrets = await pki.secrets(plan);
  const store = secrets.items.find((s: any) => s.metadata.name === 'basic-store-cluster-secret')!;
  const written = { ...store, metadata: { ...store.metadata, creationTimestamp: '2026-11-24T09:00:00Z', managedFields: [{ manager: 'cert-manager', operation: 'Update', time: '2026-11-24T09:00:00Z' }] } };
  const pod = {
    kind: 'Pod',
    metadata: { name: 'basic-store-0', namespace: 'demo', labels: { 'app.kubernetes.io/component': 'store', 'app.kubernetes.io/instance': 'basic' } },
    spec: { containers: [{ name: 'store' }], volumes: [{ name: 'tls', secret: { secretName: 'basic-store-cluster-secret' } }] },
    status: { phase: 'Running', containerStatuses: [{ name: 'store', state: { running: { startedAt: '2026-11-24T10:00:00Z' } } }] },
  };
  const sink = secretObject('basic-sink-tls', 'demo', { ...await userTlsSecret() });
  list = { kind: 'List', items: [written, pod, sink] };
  // The key and certificate bodies of the input, those of the Secret you create too (a value of it
  // that does not parse is a failed row of the report, not an error line): no output may repeat them.
  secretMaterial = [store, sink].flatMap((s) => Object.values(s.data as Record<string, string>))
    .map((b64) => Buffer.from(b64, 'base64').toString('utf8').split('\n')[1]).filter(Boolean);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Runs the command in-process, standard input holding the good list. */
const run = (argv: string[]) => cli(argv, JSON.stringify(list));

/** What is wrong with a run, or undefined when it ended as the command must. */
function defect(run: { code: number; stdout: string; stderr: string }, given: unknown): string | undefined {
  const both = run.stdout + run.stderr;
  if (![0, 1, 2].includes(run.code)) {
    return `exit code ${run.code}`;
  }
  if (/\n\s+at /.test(both)) {
    return `a stack trace: ${run.stderr.split('\n').slice(0, 2).join(' | ')}`;
  }
  if (run.code === 2 && (run.stdout !== '' || !/^error: [^\n]*\n$/.test(run.stderr) || run.stderr.length > MAX_LINE + 200)) {
    return `exit 2 without one bounded error line: ${JSON.stringify(run.stderr.slice(0, 300))}`;
  }
  if (run.code !== 2 && (run.stderr !== '' || run.stdout.split('\n').some((l) => l.length > MAX_LINE + 100))) {
    return `a report with an unbounded line or an error beside it: ${JSON.stringify(run.stderr.slice(0, 200))}`;
  }
  if (secretMaterial.some((m) => both.includes(m))) {
    return 'a key or certificate of the input repeated';
  }
  if (typeof given === 'string' && given.length > 10_000 && both.includes(given.slice(0, 10_000))) {
    return 'a huge value echoed whole';
  }
  if (both.includes('hunter2')) {
    return 'a URL\'s password repeated';
  }
  return undefined;
}

test('every option of cluster-tls verify, given every hostile value of its type, ends in a report or one error line', async () => {
  const input = path.join(work, 'secrets.json');
  fs.writeFileSync(input, JSON.stringify(list));
  const defects: string[] = [];
  let runs = 0;
  for (const [name, option] of Object.entries(OPTIONS)) {
    const values = option.type === 'string' ? HOSTILE_STRINGS : ['', 'yes', 'false', HUGE];
    for (const value of values) {
      // The valid options, the one under test given the hostile value instead (or beside, for a list).
      const base: Record<string, string> = { dist, secrets: input };
      const argv = ['verify', ...Object.entries(base).filter(([k]) => k !== name || name === 'secrets').flatMap(([k, v]) => [`--${k}`, v]),
        option.type === 'string' ? `--${name}` : `--${name}=${value}`, ...(option.type === 'string' ? [value] : [])];
      runs++;
      const problem = defect(await run(argv), value);
      if (problem) {
        defects.push(`--${name} ${JSON.stringify(value.slice(0, 40))}: ${problem}`);
      }
    }
  }
  // eslint-disable-next-line no-console
  console.log(`hostile options: ${Object.keys(OPTIONS).length} options, ${runs} runs, ${defects.length} defects`);
  expect(defects).toEqual([]);
  expect(runs).toBeGreaterThanOrEqual(Object.keys(OPTIONS).length * 4);
}, 10 * 60_000);

test('every numeric option refuses each value outside its range, or not a whole number, in one line naming the option, the value and the range; its bounds run', async () => {
  const input = path.join(work, 'numeric.json');
  fs.writeFileSync(input, JSON.stringify(list));
  const base = ['verify', '--dist', dist, '--secrets', input, '--now', '2026-11-25T00:00:00Z'];
  let runs = 0;
  for (const [name, option] of Object.entries(NUMERIC_OPTIONS)) {
    const refused = [String(option.min - 1), String(option.max + 1), String(option.max * 100), '200000000', '9'.repeat(30), `${option.min}.5`, `${option.min}.0`,
      `+${option.min}`, ` ${option.min}`, `${option.min} `, '1e3', '0x10', '1_000', '', 'NaN', 'Infinity', '-0', '\u0661'];
    for (const value of refused) {
      runs++;
      expect({ value, run: await run([...base, `--${name}=${value}`]) })
        .toEqual({ value, run: { code: 2, stdout: '', stderr: `error: --${name}: ${option.noun}: received ${JSON.stringify(value)}; expected ${option.expected}\n` } });
    }
    for (const value of [option.min, option.max]) {
      runs++;
      const ran = await run([...base, `--${name}`, String(value)]);
      expect({ value, code: ran.code, stderr: ran.stderr }).toEqual({ value, code: expect.any(Number), stderr: '' });
      expect([0, 1]).toContain(ran.code);
    }
  }
  // eslint-disable-next-line no-console
  console.log(`numeric options: ${Object.keys(NUMERIC_OPTIONS).length} options, ${runs} runs`);
  expect(runs).toBeGreaterThanOrEqual(Object.keys(NUMERIC_OPTIONS).length * 20);
});

test.each(['secrets', 'plan'] as const)('every field verify reads of the %s, replaced by every shape and hostile string, ends in a report or one error line', async (which) => {
  const input = path.join(work, `fields-${which}.json`);
  const planFile = path.join(work, 'out', 'cluster-tls', 'demo', 'basic', 'tls-plan.json');
  const original = fs.readFileSync(planFile, 'utf8');
  const document = which === 'secrets' ? list : plan;
  const defects: string[] = [];
  let runs = 0;
  try {
    fs.writeFileSync(input, JSON.stringify(list));
    for (const at of places(document)) {
      for (const shape of SHAPES) {
        const text = JSON.stringify(replaced(document, at, shape));
        fs.writeFileSync(which === 'secrets' ? input : planFile, text);
        runs++;
        const problem = defect(await run(['verify', '--dist', dist, '--secrets', input, '--now', '2026-11-25T00:00:00Z']), shape);
        if (problem) {
          defects.push(`${at.join('.') || '(the document)'} = ${JSON.stringify(shape)?.slice(0, 40)}: ${problem}`);
        }
      }
    }
  } finally {
    fs.writeFileSync(planFile, original);
  }
  // eslint-disable-next-line no-console
  console.log(`hostile ${which} fields: ${runs} runs, ${defects.length} defects`);
  expect(defects).toEqual([]);
  expect(runs).toBeGreaterThan(200);
}, 20 * 60_000);
