/**
 * A recording stand-in for `kubectl`, for tests that run generated scripts (pass its `command` as
 * `KUBECTL`). It keeps Secrets in a JSON file, so that a second run sees what a first run created,
 * and understands only what those scripts and `cluster-tls verify` use:
 *
 * - `get secret <name> [--namespace=<ns>|-n <ns>] [-o json]`: exit 0 when the Secret exists
 *   (printing it with `-o json`), else kubectl's NotFound message and exit 1;
 * - `get secrets [--namespace=<ns>|-n <ns>|-A] -o json`: a `List` of the Secrets, each
 *   `{ kind: 'Secret', metadata: { name, namespace }, data: { <key>: <base64> } }`;
 * - `get secret <name> -o jsonpath={.data.<key>}` (dots in the key escaped) and
 *   `-o jsonpath={.metadata.ownerReferences}`: the value, or nothing when absent;
 * - `create secret generic <name> [--namespace=<ns>] --from-file=[<key>=]<path>...`: stores the
 *   files (read relative to the caller's working folder), refusing a name that exists; with
 *   `--dry-run=client -o json` it prints the Secret instead and stores nothing;
 * - `apply -f -`: stores the Secret read from standard input, replacing the data of one that exists;
 * - `delete certificate <name>... [--ignore-not-found]`: records the names (the stand-in holds no
 *   Certificates).
 *
 * Without a namespace flag the namespace is `default`, as with a default kubectl context. Anything
 * else exits 2 with a message. Every call's arguments are recorded, in order.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A Secret the stand-in holds; `data` values are base64, as the API returns them. */
export interface FakeSecret {
  readonly namespace: string;
  readonly name: string;
  readonly data: Record<string, string>;
  /** The Secret's owners, when a controller set them. */
  readonly ownerReferences?: unknown[];
}

/** What `kubectl get secrets -o json` prints, as far as the stand-in fills it. */
export interface SecretList {
  readonly apiVersion: 'v1';
  readonly kind: 'List';
  readonly items: Array<{
    readonly apiVersion: 'v1';
    readonly kind: 'Secret';
    readonly type: 'Opaque';
    readonly metadata: { readonly name: string; readonly namespace: string };
    readonly data: Record<string, string>;
  }>;
}

/** A stand-in created by {@link createFakeKubectl}. */
export interface FakeKubectl {
  /** The executable: the value for `KUBECTL`. */
  readonly command: string;
  /** The folder that holds the executable, its state and its call log. */
  readonly dir: string;
  /** The arguments of every call so far, in order. */
  calls(): string[][];
  /** The Secrets held, in the order they were created. */
  secrets(): FakeSecret[];
  /** `kubectl get secrets -o json` over every namespace, or one (not recorded as a call). */
  secretList(namespace?: string): SecretList;
  /** Stores a Secret as if it had been created earlier (values are raw, not base64). */
  putSecret(namespace: string, name: string, data: Record<string, string | Buffer>): void;
  /** Stores a Secret, replacing one of that name, as a controller that owns it writes it (values raw). */
  writeSecret(namespace: string, name: string, data: Record<string, string | Buffer>, ownerReferences?: unknown[]): void;
}

/** The stand-in itself, a Node.js script; `__STATE__` and `__CALLS__` are replaced by file paths. */
const SOURCE = String.raw`
'use strict';
const fs = require('fs');
const path = require('path');
const STATE = __STATE__;
const CALLS = __CALLS__;
const args = process.argv.slice(2);
if (process.env.FAKE_KUBECTL_NO_RECORD !== '1') {
  fs.appendFileSync(CALLS, JSON.stringify(args) + '\n');
}
function die(message, code) {
  process.stderr.write(message + '\n');
  process.exit(code === undefined ? 1 : code);
}
function load() {
  return fs.existsSync(STATE) ? JSON.parse(fs.readFileSync(STATE, 'utf8')) : { secrets: [] };
}
function save(state) {
  fs.writeFileSync(STATE, JSON.stringify(state, null, 2) + '\n');
}
function toObject(s) {
  return { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: s.name, namespace: s.namespace }, data: s.data };
}

let namespace;
let output;
let all = false;
let dryRun = false;
let file;
const fromFiles = [];
const words = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '-n' || a === '--namespace') namespace = args[++i];
  else if (a.startsWith('--namespace=')) namespace = a.slice('--namespace='.length);
  else if (a === '-o' || a === '--output') output = args[++i];
  else if (a.startsWith('--output=')) output = a.slice('--output='.length);
  else if (a.startsWith('-o') && a.length > 2) output = a.slice(2);
  else if (a === '-A' || a === '--all-namespaces') all = true;
  else if (a === '--dry-run=client') dryRun = true;
  else if (a === '--ignore-not-found') continue;
  else if (a === '-f' || a === '--filename') file = args[++i];
  else if (a === '--from-file') fromFiles.push(args[++i]);
  else if (a.startsWith('--from-file=')) fromFiles.push(a.slice('--from-file='.length));
  else if (a.startsWith('-')) die('fake kubectl: unsupported flag ' + a, 2);
  else words.push(a);
}
const ns = namespace === undefined ? 'default' : namespace;
if (output !== undefined && output !== 'json' && !output.startsWith('jsonpath=')) die('fake kubectl: unsupported output ' + output, 2);

/** The value of a jsonpath output of one Secret: a data key or the owner references. */
function jsonpath(secret, expression) {
  const data = /^jsonpath=\{\.data\.(.+)\}$/.exec(expression);
  if (data) return secret.data[data[1].replace(/\\\./g, '.')] ?? '';
  if (expression === 'jsonpath={.metadata.ownerReferences}') return secret.ownerReferences ? JSON.stringify(secret.ownerReferences) : '';
  die('fake kubectl: unsupported jsonpath ' + expression, 2);
}

const [verb, resource, third, ...rest] = words;
if (verb === 'get' && (resource === 'secret' || resource === 'secrets')) {
  const state = load();
  if (third !== undefined) {
    const found = state.secrets.find((s) => s.namespace === ns && s.name === third);
    if (!found) die('Error from server (NotFound): secrets "' + third + '" not found');
    if (output === 'json') process.stdout.write(JSON.stringify(toObject(found), null, 2) + '\n');
    else if (output !== undefined) process.stdout.write(jsonpath(found, output));
    else process.stdout.write('NAME\tTYPE\tDATA\n' + found.name + '\tOpaque\t' + Object.keys(found.data).length + '\n');
    process.exit(0);
  }
  const items = state.secrets.filter((s) => all || s.namespace === ns).map(toObject);
  if (output === 'json') process.stdout.write(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2) + '\n');
  else process.stdout.write(['NAME\tTYPE\tDATA', ...items.map((s) => s.metadata.name + '\tOpaque\t' + Object.keys(s.data).length)].join('\n') + '\n');
  process.exit(0);
}
if (verb === 'create' && resource === 'secret' && third === 'generic') {
  if (rest.length !== 1) die('fake kubectl: create secret generic takes exactly one name', 2);
  const name = rest[0];
  const state = load();
  if (!dryRun && state.secrets.some((s) => s.namespace === ns && s.name === name)) {
    die('error: failed to create secret secrets "' + name + '" already exists');
  }
  const data = {};
  for (const spec of fromFiles) {
    const eq = spec.indexOf('=');
    const key = eq < 0 ? path.basename(spec) : spec.slice(0, eq);
    const file = eq < 0 ? spec : spec.slice(eq + 1);
    if (key in data) die('error: cannot add key ' + key + ', another key by that name already exists');
    try {
      data[key] = fs.readFileSync(path.resolve(file)).toString('base64');
    } catch (e) {
      die('error: error reading ' + file + ': no such file or directory');
    }
  }
  if (dryRun) {
    if (output !== 'json') die('fake kubectl: --dry-run=client only with -o json', 2);
    process.stdout.write(JSON.stringify(toObject({ namespace: ns, name, data }), null, 2) + '\n');
    process.exit(0);
  }
  state.secrets.push({ namespace: ns, name, data });
  save(state);
  process.stdout.write('secret/' + name + ' created\n');
  process.exit(0);
}
if (verb === 'apply' && file === '-' && resource === undefined) {
  const object = JSON.parse(fs.readFileSync(0, 'utf8'));
  if (object.kind !== 'Secret') die('fake kubectl: apply takes only a Secret', 2);
  const at = object.metadata.namespace ?? ns;
  const state = load();
  const found = state.secrets.find((s) => s.namespace === at && s.name === object.metadata.name);
  if (found) found.data = object.data;
  else state.secrets.push({ namespace: at, name: object.metadata.name, data: object.data });
  save(state);
  process.stdout.write('secret/' + object.metadata.name + (found ? ' configured' : ' created') + '\n');
  process.exit(0);
}
if (verb === 'delete' && resource === 'certificate') {
  process.exit(0);
}
die('fake kubectl: unsupported command: ' + args.join(' '), 2);
`;

/**
 * Creates the stand-in in `dir` (a new temporary folder when not given) and returns it.
 * The executable runs with the Node.js that runs the tests.
 */
export function createFakeKubectl(dir?: string): FakeKubectl {
  const folder = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fake-kubectl-'));
  fs.mkdirSync(folder, { recursive: true });
  const state = path.join(folder, 'secrets.json');
  const log = path.join(folder, 'calls.jsonl');
  const command = path.join(folder, 'kubectl');
  const source = SOURCE.replace('__STATE__', JSON.stringify(state)).replace('__CALLS__', JSON.stringify(log));
  fs.writeFileSync(command, `#!${process.execPath}${source}`, { mode: 0o755 });
  fs.chmodSync(command, 0o755);
  fs.writeFileSync(log, '');

  const load = (): { secrets: FakeSecret[] } => (fs.existsSync(state) ? JSON.parse(fs.readFileSync(state, 'utf8')) : { secrets: [] });
  return {
    command,
    dir: folder,
    calls: () => fs.readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)),
    secrets: () => load().secrets,
    secretList: (namespace) => JSON.parse(execFileSync(command,
      ['get', 'secrets', ...(namespace === undefined ? ['-A'] : [`--namespace=${namespace}`]), '-o', 'json'],
      { encoding: 'utf8', env: { ...process.env, FAKE_KUBECTL_NO_RECORD: '1' } })),
    putSecret: (namespace, name, data) => {
      const current = load();
      if (current.secrets.some((s) => s.namespace === namespace && s.name === name)) {
        throw new Error(`fake kubectl already holds Secret ${namespace}/${name}`);
      }
      const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
      current.secrets.push({ namespace, name, data: encoded });
      fs.writeFileSync(state, `${JSON.stringify(current, null, 2)}\n`);
    },
    writeSecret: (namespace, name, data, ownerReferences) => {
      const current = load();
      const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
      const others = current.secrets.filter((s) => !(s.namespace === namespace && s.name === name));
      others.push({ namespace, name, data: encoded, ...(ownerReferences ? { ownerReferences } : {}) });
      fs.writeFileSync(state, `${JSON.stringify({ secrets: others }, null, 2)}\n`);
    },
  };
}
