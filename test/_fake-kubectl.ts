/**
 * A recording stand-in for `kubectl`, for tests that run generated scripts and runbooks (pass its
 * `command` as `KUBECTL`, or put its folder first on `PATH`). It keeps its state in a JSON file,
 * under a lock, so that a second run sees what a first run created and a test-side controller
 * (test/_fake-cluster.ts) can act on it at the same time. It understands only what the library's
 * scripts, runbooks and `cluster-tls verify` use, and refuses the rest as kubectl would:
 *
 * - `get secret <name> [--namespace=<ns>|-n <ns>] [-o json]`: exit 0 when the Secret exists
 *   (printing it with `-o json`), else kubectl's NotFound message and exit 1;
 * - `get secrets [--namespace=<ns>|-n <ns>|-A] -o json`, and `get secrets,pods -n <ns> -o json`: a
 *   `List` of the Secrets (and Pods), each Secret `{ kind: 'Secret', metadata: { name, namespace,
 *   creationTimestamp }, data }`, with `metadata.managedFields` only under `--show-managed-fields`
 *   (as kubectl 1.21 and later);
 * - `get secret <name> -o jsonpath={.data.<key>}` (dots in the key escaped) and
 *   `-o jsonpath={.metadata.ownerReferences}`: the value, or nothing when absent;
 * - `get certificate <name> -o jsonpath=<template>`: the template's `{.path}` expressions (with
 *   `[?(@.field=="value")]` filters) over the object as applied, with its status;
 * - `create secret generic <name> [--namespace=<ns>] --from-file=[<key>=]<path>...`: stores the
 *   files (read relative to the caller's working folder), refusing a name that exists; with
 *   `--dry-run=client -o json` it prints the Secret instead and stores nothing;
 * - `apply [--server-side [--field-manager=<name>] [--force-conflicts]] -f -`: stores the Secret read
 *   from standard input, replacing the data of one that exists; a client-side apply also keeps the
 *   whole Secret as its last-applied configuration, as kubectl does in an annotation; a Namespace
 *   read there is recorded (`created`, or `unchanged` when it exists);
 * - `create namespace <name> --dry-run=client -o json`: prints the Namespace, stores nothing;
 * - `apply -f <file> [-l <selector>]`: stores every object of the YAML file (matching the label
 *   selector), raising `metadata.generation` when its spec changes; refuses a missing file, a bad
 *   selector, and a kind that is neither built in nor one of the CRDs in `crds/`;
 * - `create -f <file>`: the same, refusing (storing nothing) an object that exists, as kubectl's
 *   AlreadyExists;
 * - `delete <kind> <name>... [--ignore-not-found]`: deletes those objects (a Certificate, a `MigrationCluster`);
 * - `get|delete pvc -n <ns> -l <selector>`: a table of the matching claims, or deletes them;
 * - `delete secret <name>... [--ignore-not-found]`: deletes those Secrets, refusing (before deleting any) a name
 *   that is not there unless told to ignore it;
 * - `get secret <name> <name>... -n <ns>`: a table of them, or NotFound for the first missing;
 * - `get|describe <resource> <name> -n <ns>` of an applied object (`backups.db.operator.io`, say);
 * - `wait --for=condition=Ready <kind> -l <selector> -n <ns>`: waits until every matching object is Ready;
 * - `patch <kind> <name> -n <ns> --type merge --patch-file <file>|-p <patch>`: merges the patch in;
 * - `exec [-i] <pod> -n <ns> -- <command>...`: refuses a pod that does not run, and records the call;
 *   with `FAKE_KUBECTL_EXEC` set, runs that program with the namespace, the pod and the command,
 *   standard streams passed through, as the pod would run the command;
 * - `get pods -n <ns> [-l <selector>] -o custom-columns=<name>:<path>,...|name`: a table of the pods, or their names
 *   (selectors of `k=v`, `k!=v`, `k in (a,b)` and `k notin (a,b)` requirements);
 * - `get pod <name> -n <ns> -o jsonpath=<template>` and `wait --for=condition=Ready pod/<name> -n <ns>`;
 * - `port-forward -n <ns> pod/<name> <local>:<port>`: forwards the local port to where
 *   `FAKE_KUBECTL_PORTS` (JSON of `"<ns>/<pod>:<port>"` to `"<host>:<port>"`) says the pod's port is,
 *   until killed;
 * - `rollout restart|status <kind>/<name> -n <ns>`: records a restart for the controller to carry
 *   out; `status` waits until it has.
 *
 * {@link createFakeCmctl} makes the stand-in of `cmctl renew` beside it.
 *
 * Without a namespace flag the namespace is `default`, as with a default kubectl context; a
 * `--context=<name>` is accepted and changes nothing (there is one cluster). Anything
 * else exits 2 with a message. Every call's arguments are recorded, in order. Every write moves a
 * clock of whole seconds on (`clock`), which dates Secrets and pods.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';

/** A Secret the stand-in holds; `data` values are base64, as the API returns them. */
export interface FakeSecret {
  readonly namespace: string;
  readonly name: string;
  readonly data: Record<string, string>;
  /** The Secret's owners, when a controller set them. */
  readonly ownerReferences?: unknown[];
  /** The clock when it was created, and when it was last written. */
  readonly createdAt?: number;
  readonly writtenAt?: number;
  /** What a client-side `kubectl apply` kept in `kubectl.kubernetes.io/last-applied-configuration`: the whole Secret. */
  readonly lastApplied?: string;
  /** The field manager of the last server-side apply. */
  readonly manager?: string;
}

/** Everything the stand-in holds. */
export interface FakeState {
  secrets: FakeSecret[];
  /** Objects applied from files, each with `metadata.generation` and, once a controller set it, `status`. */
  objects?: any[];
  /** Pods, as `kubectl get pods -o json` prints them. */
  pods?: any[];
  /** Persistent volume claims, each `{ metadata: { name, namespace, labels, uid }, data }`: what a controller keeps on the volume. */
  pvcs?: any[];
  /** What a test-side controller keeps outside the cluster's objects (a migration's target database, say). */
  external?: any;
  /** Restarts asked for with `kubectl rollout restart`, not yet carried out. */
  restarts?: { kind: string; name: string; namespace: string }[];
  /** Namespaces applied with `apply -f -`. */
  namespaces?: string[];
  /** Whole seconds since {@link CLOCK_START}, moved on by every write. */
  clock?: number;
}

/** The time the clock's 0 stands for. */
export const CLOCK_START = Date.UTC(2026, 10, 24, 10, 0, 0);

/** A clock reading as the API prints times (RFC 3339, whole seconds). */
export function clockTime(clock: number): string {
  return new Date(CLOCK_START + clock * 1000).toISOString().replace('.000Z', 'Z');
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
  /** Reads and changes the whole state under the stand-in's lock; returns what `change` returns. */
  update<T>(change: (state: FakeState) => T): T;
  /** The whole state, read under the lock. */
  state(): FakeState;
}

/** The stand-in itself, a Node.js script; `__STATE__`, `__CALLS__`, `__YAML__` and `__KINDS__` are replaced. */
const SOURCE = String.raw`
'use strict';
const fs = require('fs');
const path = require('path');
const STATE = __STATE__;
const CALLS = __CALLS__;
/** The YAML reader, loaded only by the verbs that read YAML: every call is a process of its own, and loading it cost each one about 40 ms of CPU. */
let yamlReader;
function yaml() {
  return yamlReader || (yamlReader = require(__YAML__));
}
const KINDS = __KINDS__;
const CLOCK_START = ${CLOCK_START};
const args = process.argv.slice(2);
if (process.env.FAKE_KUBECTL_NO_RECORD !== '1') {
  fs.appendFileSync(CALLS, JSON.stringify(args) + '\n');
}
/** The lock this process holds, released by die() too (process.exit skips finally blocks). */
let heldLock = null;
function die(message, code) {
  if (heldLock !== null) fs.rmdirSync(heldLock);
  heldLock = null;
  process.stderr.write(message + '\n');
  process.exit(code === undefined ? 1 : code);
}
/** Writes all of text to standard output before the process exits (a pipe may take it in parts). */
function out(text) {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length;) {
    try { at += fs.writeSync(1, bytes, at); } catch (e) { if (e.code !== 'EAGAIN') throw e; sleep(1); }
  }
}
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
/** Runs change(state) under the lock and saves the state when it returns true. */
function withState(change) {
  const lock = STATE + '.lock';
  for (let i = 0; ; i++) {
    try { fs.mkdirSync(lock); break; } catch (e) {
      if (e.code !== 'EEXIST' || i > 20000) throw e;
      sleep(2);
    }
  }
  heldLock = lock;
  try {
    const state = fs.existsSync(STATE) ? JSON.parse(fs.readFileSync(STATE, 'utf8')) : { secrets: [] };
    const out = change(state);
    if (out && out.save) fs.writeFileSync(STATE, JSON.stringify(state, null, 2) + '\n');
    return out;
  } finally {
    if (heldLock !== null) fs.rmdirSync(lock);
    heldLock = null;
  }
}
function tick(state) {
  state.clock = (state.clock || 0) + 1;
  return state.clock;
}
function time(clock) {
  return new Date(CLOCK_START + (clock || 0) * 1000).toISOString().replace('.000Z', 'Z');
}
function toObject(s, managed) {
  const metadata = { name: s.name, namespace: s.namespace, creationTimestamp: time(s.createdAt) };
  if (managed) metadata.managedFields = [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: time(s.writtenAt) }];
  return { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata, data: s.data };
}

let namespace;
let output;
let all = false;
let dryRun = false;
let managedFields = false;
let serverSide = false;
let fieldManager;
let forceConflicts = false;
let selector;
let file;
let waitFor;
let patchType;
let patchFile;
let patchText;
let command;
const fromFiles = [];
const words = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--') { command = args.slice(i + 1); break; }
  if (a === '-n' || a === '--namespace') namespace = args[++i];
  else if (a.startsWith('--for=')) waitFor = a.slice('--for='.length);
  else if (a.startsWith('--timeout=')) continue;
  else if (a === '--type') patchType = args[++i];
  else if (a.startsWith('--type=')) patchType = a.slice('--type='.length);
  else if (a === '--patch-file') patchFile = args[++i];
  else if (a === '-p' || a === '--patch') patchText = args[++i];
  else if (a.startsWith('--namespace=')) namespace = a.slice('--namespace='.length);
  else if (a === '-o' || a === '--output') output = args[++i];
  else if (a.startsWith('--output=')) output = a.slice('--output='.length);
  else if (a.startsWith('-o') && a.length > 2) output = a.slice(2);
  else if (a === '-A' || a === '--all-namespaces') all = true;
  else if (a === '--dry-run=client') dryRun = true;
  else if (a === '--show-managed-fields') managedFields = true;
  else if (a === '--server-side') serverSide = true;
  else if (a.startsWith('--field-manager=')) fieldManager = a.slice('--field-manager='.length);
  else if (a === '--force-conflicts') forceConflicts = true;
  else if (a === '--ignore-not-found') continue;
  else if (a === '-i' || a === '--stdin') continue;
  else if (a.startsWith('--context=')) continue;
  else if (a === '-l' || a === '--selector') selector = args[++i];
  else if (a.startsWith('--selector=')) selector = a.slice('--selector='.length);
  else if (a === '-f' || a === '--filename') file = args[++i];
  else if (a.startsWith('--filename=')) file = a.slice('--filename='.length);
  else if (a === '--from-file') fromFiles.push(args[++i]);
  else if (a.startsWith('--from-file=')) fromFiles.push(a.slice('--from-file='.length));
  else if (a.startsWith('-')) die('error: unknown flag: ' + a, 1);
  else words.push(a);
}
const ns = namespace === undefined ? 'default' : namespace;
if (output !== undefined && output !== 'json' && output !== 'name' && !output.startsWith('jsonpath=') && !output.startsWith('custom-columns=')) die('fake kubectl: unsupported output ' + output, 2);

/** The requirements of a label selector, as kubectl parses them: k=v, k==v, k!=v, k in (a,b), k notin (a,b), comma-separated outside parentheses. */
function parseSelector(text) {
  const parts = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { parts.push(current); current = ''; } else current += ch;
  }
  parts.push(current);
  return parts.map((part) => {
    const set = /^([A-Za-z0-9./_-]+)\s+(in|notin)\s+\(([A-Za-z0-9._,\s-]*)\)$/.exec(part.trim());
    if (set) return { key: set[1], op: set[2], values: set[3].split(',').map((v) => v.trim()).filter(Boolean) };
    const m = /^([A-Za-z0-9./_-]+)\s*(==|=|!=)\s*([A-Za-z0-9._-]*)$/.exec(part.trim());
    if (!m) die('error: unable to parse requirement: ' + JSON.stringify(part), 1);
    return { key: m[1], op: m[2], value: m[3] };
  });
}
function matches(object, requirements) {
  const labels = (object.metadata && object.metadata.labels) || {};
  return requirements.every((r) => {
    if (r.op === 'in') return r.values.includes(labels[r.key]);
    if (r.op === 'notin') return !r.values.includes(labels[r.key]);
    return r.op === '!=' ? labels[r.key] !== r.value : labels[r.key] === r.value;
  });
}

/** The value of a {.path} expression over an object: dotted keys and [?(@.key=="value")] filters. */
function evaluate(object, expression) {
  let values = [object];
  const re = /\.([A-Za-z0-9_-]+)|\[\?\(@\.([A-Za-z0-9_.-]+)=="([^"]*)"\)\]|(\[\*\])/g;
  let m;
  let at = 0;
  while ((m = re.exec(expression)) !== null) {
    if (m.index !== at) die('fake kubectl: unsupported jsonpath ' + expression, 2);
    at = re.lastIndex;
    if (m[4] !== undefined) values = values.flatMap((v) => (Array.isArray(v) ? v : []));
    else if (m[1] !== undefined) values = values.map((v) => (v == null ? undefined : v[m[1]])).filter((v) => v !== undefined);
    else values = values.flatMap((v) => (Array.isArray(v) ? v : [])).filter((v) => String(m[2].split('.').reduce((x, k) => (x == null ? undefined : x[k]), v)) === m[3]);
  }
  if (at !== expression.length) die('fake kubectl: unsupported jsonpath ' + expression, 2);
  return values.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(' ');
}
function jsonpathTemplate(object, template) {
  return template.replace(/\{([^}]*)\}/g, (whole, expression) => evaluate(object, expression));
}

/** The Secret-only jsonpath outputs the scripts use. */
function secretJsonpath(secret, expression) {
  const data = /^jsonpath=\{\.data\.(.+)\}$/.exec(expression);
  if (data) return secret.data[data[1].replace(/\\\./g, '.')] ?? '';
  if (expression === 'jsonpath={.metadata.ownerReferences}') return secret.ownerReferences ? JSON.stringify(secret.ownerReferences) : '';
  die('fake kubectl: unsupported jsonpath ' + expression, 2);
}

const [verb, resource, third, ...rest] = words;
const kindOf = (word) => KINDS.find((k) => k.plural === word || k.singular === word || k.kind.toLowerCase() === word || (k.plural + '.' + k.group) === word);

if (verb === 'port-forward' && resource !== undefined && resource.startsWith('pod/') && third !== undefined && rest.length === 0) {
  // Forwards a local port to where the test says the pod's port is (FAKE_KUBECTL_PORTS, JSON of
  // "<ns>/<pod>:<port>" to "<host>:<port>"), until killed, as kubectl port-forward does.
  const name = resource.slice('pod/'.length);
  const [local, remote] = third.split(':');
  withState((state) => {
    if (!(state.pods || []).some((p) => p.metadata.namespace === ns && p.metadata.name === name)) die('Error from server (NotFound): pods "' + name + '" not found');
  });
  const to = JSON.parse(process.env.FAKE_KUBECTL_PORTS || '{}')[ns + '/' + name + ':' + remote];
  if (!to) die('error: unable to forward port because pod is not running or does not listen on ' + remote);
  const net = require('net');
  const [host, port] = [to.slice(0, to.lastIndexOf(':')), Number(to.slice(to.lastIndexOf(':') + 1))];
  net.createServer((client) => {
    const upstream = net.connect(port, host);
    client.pipe(upstream).pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  }).on('error', (e) => die('error: unable to listen on port ' + local + ': ' + e.message))
    .listen(Number(local), '127.0.0.1', () => out('Forwarding from 127.0.0.1:' + local + ' -> ' + remote + '\n'));
  return;
}
if (verb === 'get' && resource === 'pods' && third === undefined && output === 'name') {
  const wanted = selector === undefined ? [] : parseSelector(selector);
  const pods = withState((state) => (state.pods || []).filter((p) => p.metadata.namespace === ns && matches(p, wanted)));
  out(pods.map((p) => 'pod/' + p.metadata.name + '\n').join(''));
  process.exit(0);
}
if (verb === 'get' && resource === 'pod' && third !== undefined && rest.length === 0 && output !== undefined && output.startsWith('jsonpath=')) {
  const pod = withState((state) => (state.pods || []).find((p) => p.metadata.namespace === ns && p.metadata.name === third));
  if (!pod) die('Error from server (NotFound): pods "' + third + '" not found');
  out(jsonpathTemplate(pod, output.slice('jsonpath='.length)));
  process.exit(0);
}
if (verb === 'wait' && waitFor === 'condition=Ready' && resource !== undefined && resource.startsWith('pod/') && third === undefined && selector === undefined) {
  const name = resource.slice('pod/'.length);
  for (let waited = 0; ; waited += 20) {
    const pod = withState((state) => (state.pods || []).find((p) => p.metadata.namespace === ns && p.metadata.name === name));
    if (!pod) die('Error from server (NotFound): pods "' + name + '" not found');
    if (((pod.status && pod.status.conditions) || []).some((c) => c.type === 'Ready' && c.status === 'True')) {
      out('pod/' + name + ' condition met\n');
      process.exit(0);
    }
    if (waited > 60000) die('error: timed out waiting for the condition on pods/' + name);
    sleep(20);
  }
}
if (verb === 'get' && resource === 'pods' && third === undefined && output !== undefined && output.startsWith('custom-columns=')) {
  // A table of the pods matching the selector, one column per spec: only the fields the pods carry.
  const columns = output.slice('custom-columns='.length).split(',').map((c) => c.split(':'));
  const wanted = selector === undefined ? [] : parseSelector(selector);
  const field = (o, p) => evaluate(o, p).split(' ').filter(Boolean).join(',') || undefined;
  const pods = withState((state) => (state.pods || []).filter((p) => p.metadata.namespace === ns && matches(p, wanted)));
  out([columns.map((c) => c[0]).join('   '), ...pods.map((p) => columns.map((c) => String(field(p, c[1]) ?? '<none>')).join('   '))].join('\n') + '\n');
  process.exit(0);
}
if (verb === 'get' && resource === 'secrets,pods') {
  if (third !== undefined || output !== 'json') die('fake kubectl: get secrets,pods takes no name and -o json', 2);
  withState((state) => {
    const items = [
      ...state.secrets.filter((s) => all || s.namespace === ns).map((s) => toObject(s, managedFields)),
      ...(state.pods || []).filter((p) => all || p.metadata.namespace === ns),
    ];
    out(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2) + '\n');
  });
  process.exit(0);
}
if (verb === 'get' && (resource === 'secret' || resource === 'secrets')) {
  withState((state) => {
    if (rest.length > 0) {
      // Several names: kubectl reports the first missing one, and lists the others.
      const missing = [third, ...rest].find((n) => !state.secrets.some((s) => s.namespace === ns && s.name === n));
      if (missing !== undefined) die('Error from server (NotFound): secrets "' + missing + '" not found');
      if (output !== undefined) die('fake kubectl: get secret with several names takes no -o', 2);
      out(['NAME\tTYPE\tDATA', ...[third, ...rest].map((n) => n + '\tOpaque\t3')].join('\n') + '\n');
      return;
    }
    if (third !== undefined) {
      const found = state.secrets.find((s) => s.namespace === ns && s.name === third);
      if (!found) die('Error from server (NotFound): secrets "' + third + '" not found');
      if (output === 'json') out(JSON.stringify(toObject(found, managedFields), null, 2) + '\n');
      else if (output !== undefined) out(secretJsonpath(found, output));
      else out('NAME\tTYPE\tDATA\n' + found.name + '\tOpaque\t' + Object.keys(found.data).length + '\n');
      return;
    }
    const items = state.secrets.filter((s) => all || s.namespace === ns).map((s) => toObject(s, managedFields));
    if (output === 'json') out(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2) + '\n');
    else out(['NAME\tTYPE\tDATA', ...items.map((s) => s.metadata.name + '\tOpaque\t' + Object.keys(s.data).length)].join('\n') + '\n');
  });
  process.exit(0);
}
if (verb === 'get' && kindOf(resource) && third !== undefined) {
  const k = kindOf(resource);
  withState((state) => {
    const found = (state.objects || []).find((o) => o.kind === k.kind && o.metadata.namespace === ns && o.metadata.name === third);
    if (!found) die('Error from server (NotFound): ' + k.plural + (k.group ? '.' + k.group : '') + ' "' + third + '" not found');
    if (output === 'json') out(JSON.stringify(found, null, 2) + '\n');
    else if (output !== undefined) out(jsonpathTemplate(found, output.slice('jsonpath='.length)));
    else out('NAME\n' + third + '\n');
  });
  process.exit(0);
}
if ((verb === 'describe' || verb === 'get') && kindOf(resource) && third !== undefined && output === undefined && rest.length === 0
  && !['Secret', 'Certificate'].includes(kindOf(resource).kind)) {
  const k = kindOf(resource);
  withState((state) => {
    const found = (state.objects || []).find((o) => o.kind === k.kind && o.metadata.namespace === ns && o.metadata.name === third);
    if (!found) die('Error from server (NotFound): ' + k.plural + (k.group ? '.' + k.group : '') + ' "' + third + '" not found');
    out(verb === 'get' ? 'NAME\n' + third + '\n' : 'Name:         ' + third + '\nNamespace:    ' + ns + '\nKind:         ' + k.kind + '\n');
  });
  process.exit(0);
}
if (verb === 'wait' && waitFor === 'condition=Ready' && kindOf(resource) && selector !== undefined && third === undefined) {
  const k = kindOf(resource);
  const requirements = parseSelector(selector);
  const ready = (o) => ((o.status && o.status.conditions) || []).some((c) => c.type === 'Ready' && c.status === 'True');
  for (let waited = 0; ; waited += 20) {
    const matching = withState((state) => (state.objects || []).filter((o) => o.kind === k.kind && o.metadata.namespace === ns && matches(o, requirements)));
    if (matching.length === 0) die('error: no matching resources found');
    if (matching.every(ready)) {
      out(matching.map((o) => k.singular + '.' + k.group + '/' + o.metadata.name + ' condition met\n').join(''));
      process.exit(0);
    }
    if (waited > 60000) die('error: timed out waiting for the condition on ' + k.plural + '.' + k.group);
    sleep(20);
  }
}
if (verb === 'patch' && kindOf(resource) && third !== undefined && rest.length === 0) {
  const k = kindOf(resource);
  if (patchType !== 'merge') die('fake kubectl: only --type merge patches', 2);
  if ((patchFile === undefined) === (patchText === undefined)) die('error: must specify --patch or --patch-file containing the contents of the patch');
  if (patchFile !== undefined && !fs.existsSync(patchFile)) die('error: unable to read patch file: open ' + patchFile + ': no such file or directory');
  const patch = yaml().parse(patchFile !== undefined ? fs.readFileSync(patchFile, 'utf8') : patchText);
  const merge = (into, from) => {
    for (const [key, value] of Object.entries(from)) {
      if (value === null) delete into[key];
      else if (typeof value === 'object' && !Array.isArray(value) && typeof into[key] === 'object' && into[key] !== null) merge(into[key], value);
      else into[key] = value;
    }
  };
  withState((state) => {
    const found = (state.objects || []).find((o) => o.kind === k.kind && o.metadata.namespace === ns && o.metadata.name === third);
    if (!found) die('Error from server (NotFound): ' + k.plural + '.' + k.group + ' "' + third + '" not found');
    const before = JSON.stringify(found.spec);
    merge(found, patch);
    if (JSON.stringify(found.spec) !== before) found.metadata.generation += 1;
    return { save: true };
  });
  out(k.singular + '.' + k.group + '/' + third + ' patched\n');
  process.exit(0);
}
if (verb === 'exec' && resource !== undefined && third === undefined && command !== undefined && command.length > 0) {
  // The command runs in the pod: the stand-in checks the pod runs, and records it (the call log).
  withState((state) => {
    const pod = (state.pods || []).find((p) => p.metadata.namespace === ns && p.metadata.name === resource);
    if (!pod) die('Error from server (NotFound): pods "' + resource + '" not found');
  });
  // A test that plays the pod's part names a program that runs the command as the pod would.
  if (process.env.FAKE_KUBECTL_EXEC) {
    const run = require('child_process').spawnSync(process.env.FAKE_KUBECTL_EXEC, [ns, resource, ...command], { stdio: 'inherit' });
    process.exit(run.status === null ? 1 : run.status);
  }
  process.exit(0);
}
if (verb === 'create' && resource === 'namespace' && third !== undefined && rest.length === 0) {
  // A namespace as the runbooks make one that may exist: printed with --dry-run=client -o json, then applied.
  if (!dryRun || output !== 'json') die('fake kubectl: create namespace only with --dry-run=client -o json', 2);
  out(JSON.stringify({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: third } }, null, 2) + '\n');
  process.exit(0);
}
if (verb === 'create' && resource === 'secret' && third === 'generic') {
  if (rest.length !== 1) die('fake kubectl: create secret generic takes exactly one name', 2);
  const name = rest[0];
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
    out(JSON.stringify(toObject({ namespace: ns, name, data }, false), null, 2) + '\n');
    process.exit(0);
  }
  withState((state) => {
    if (state.secrets.some((s) => s.namespace === ns && s.name === name)) {
      die('error: failed to create secret secrets "' + name + '" already exists');
    }
    const now = tick(state);
    state.secrets.push({ namespace: ns, name, data, createdAt: now, writtenAt: now });
    return { save: true };
  });
  out('secret/' + name + ' created\n');
  process.exit(0);
}
if (verb === 'apply' && file === '-' && resource === undefined) {
  const object = JSON.parse(fs.readFileSync(0, 'utf8'));
  if (object.kind === 'Namespace') {
    withState((state) => {
      const known = (state.namespaces || []).includes(object.metadata.name);
      state.namespaces = [...new Set([...(state.namespaces || []), object.metadata.name])];
      out('namespace/' + object.metadata.name + (known ? ' unchanged' : ' created') + '\n');
      return { save: true };
    });
    process.exit(0);
  }
  if (object.kind !== 'Secret') die('fake kubectl: apply -f - takes only a Secret or a Namespace', 2);
  const at = object.metadata.namespace ?? ns;
  if (forceConflicts && !serverSide) die('error: --force-conflicts only works with --server-side');
  // A client-side apply keeps the whole object, data included, in an annotation; a server-side one does not.
  const lastApplied = serverSide ? undefined : JSON.stringify(object);
  const found = withState((state) => {
    const existing = state.secrets.find((s) => s.namespace === at && s.name === object.metadata.name);
    const now = tick(state);
    if (existing) {
      existing.data = object.data;
      existing.writtenAt = now;
      if (lastApplied) existing.lastApplied = lastApplied;
      if (fieldManager) existing.manager = fieldManager;
    } else {
      state.secrets.push({ namespace: at, name: object.metadata.name, data: object.data, createdAt: now, writtenAt: now,
        ...(lastApplied ? { lastApplied } : {}), ...(fieldManager ? { manager: fieldManager } : {}) });
    }
    return { save: true, existing: !!existing };
  }).existing;
  out('secret/' + object.metadata.name + (found ? ' configured' : ' created') + '\n');
  process.exit(0);
}
if ((verb === 'apply' || verb === 'create') && file !== undefined && resource === undefined) {
  if (!fs.existsSync(file)) die('error: the path "' + file + '" does not exist');
  const requirements = selector === undefined ? [] : parseSelector(selector);
  const objects = yaml().parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS()).filter((o) => o && matches(o, requirements));
  for (const o of objects) {
    const k = KINDS.find((x) => x.kind === o.kind && x.apiVersions.includes(o.apiVersion));
    if (!k) die('error: resource mapping not found for name: "' + o.metadata.name + '" namespace: "' + (o.metadata.namespace || '') + '" from "' + file + '": no matches for kind "' + o.kind + '" in version "' + o.apiVersion + '"');
  }
  const applied = withState((state) => {
    state.objects = state.objects || [];
    const out = [];
    for (const o of objects) {
      const k = KINDS.find((x) => x.kind === o.kind);
      const at = (o.metadata && o.metadata.namespace) || ns;
      const existing = state.objects.find((x) => x.kind === o.kind && x.metadata.namespace === at && x.metadata.name === o.metadata.name);
      const label = k.singular + (k.group ? '.' + k.group : '') + '/' + o.metadata.name;
      if (verb === 'create' && existing) {
        return { save: false, error: 'Error from server (AlreadyExists): error when creating "' + file + '": ' + k.singular + (k.group ? '.' + k.group : '') + ' "' + o.metadata.name + '" already exists' };
      }
      if (o.kind === 'Secret') {
        out.push(label + ' unchanged (the stand-in keeps Secrets apart)');
        continue;
      }
      if (!existing) {
        state.objects.push({ ...o, metadata: { ...o.metadata, namespace: at, generation: 1 } });
        out.push(label + ' created');
      } else if (JSON.stringify(existing.spec) !== JSON.stringify(o.spec) || JSON.stringify(existing.metadata.labels) !== JSON.stringify(o.metadata.labels)) {
        const generation = existing.metadata.generation + (JSON.stringify(existing.spec) !== JSON.stringify(o.spec) ? 1 : 0);
        Object.assign(existing, { ...o, status: existing.status, metadata: { ...o.metadata, namespace: at, generation } });
        out.push(label + ' configured');
      } else {
        out.push(label + ' unchanged');
      }
    }
    tick(state);
    return { save: true, out };
  });
  if (applied.error) die(applied.error);
  out(applied.out.map((l) => l + '\n').join(''));
  process.exit(0);
}
if (verb === 'delete' && (resource === 'secret' || resource === 'secrets') && third !== undefined) {
  const names = [third, ...rest];
  withState((state) => {
    for (const name of names) {
      if (!args.includes('--ignore-not-found') && !state.secrets.some((s) => s.namespace === ns && s.name === name)) die('Error from server (NotFound): secrets "' + name + '" not found');
    }
    state.secrets = state.secrets.filter((s) => !(s.namespace === ns && names.includes(s.name)));
    return { save: true };
  });
  out(names.map((n) => 'secret "' + n + '" deleted\n').join(''));
  process.exit(0);
}
if (verb === 'delete' && kindOf(resource) && !['Secret', 'Pod'].includes(kindOf(resource).kind) && third !== undefined) {
  const k = kindOf(resource);
  const names = [third, ...rest];
  const ignore = args.includes('--ignore-not-found');
  const label = k.plural + (k.group ? '.' + k.group : '');
  withState((state) => {
    state.objects = state.objects || [];
    for (const name of names) {
      const i = state.objects.findIndex((o) => o.kind === k.kind && o.metadata.namespace === ns && o.metadata.name === name);
      if (i < 0 && !ignore) die('Error from server (NotFound): ' + label + ' "' + name + '" not found');
      if (i >= 0) state.objects.splice(i, 1);
    }
    return { save: true };
  });
  out(names.map((n) => k.singular + (k.group ? '.' + k.group : '') + ' "' + n + '" deleted\n').join(''));
  process.exit(0);
}
if ((verb === 'get' || verb === 'delete') && (resource === 'pvc' || resource === 'persistentvolumeclaims') && third === undefined && selector !== undefined) {
  // Claims, which a controller (test/_fake-migration.ts) creates for its members and which outlive their pods.
  const wanted = parseSelector(selector);
  const found = withState((state) => {
    const matching = (state.pvcs || []).filter((c) => c.metadata.namespace === ns && matches(c, wanted));
    if (verb === 'delete') state.pvcs = (state.pvcs || []).filter((c) => !matching.includes(c));
    return { save: verb === 'delete', names: matching.map((c) => c.metadata.name) };
  }).names;
  if (found.length === 0) process.stderr.write('No resources found in ' + ns + ' namespace.\n');
  else if (verb === 'delete') out(found.map((n) => 'persistentvolumeclaim "' + n + '" deleted\n').join(''));
  else out(['NAME   STATUS', ...found.map((n) => n + '   Bound')].join('\n') + '\n');
  process.exit(0);
}
if (verb === 'rollout' && (resource === 'restart' || resource === 'status') && third !== undefined && rest.length === 0) {
  const [kindWord, name] = third.split('/');
  const k = kindOf(kindWord);
  if (!k || !name || !['Deployment', 'StatefulSet', 'DaemonSet'].includes(k.kind)) die('error: ' + third + ' is not a workload rollout can ' + resource, 1);
  const pending = (state) => (state.restarts || []).some((r) => r.kind === k.kind && r.name === name && r.namespace === ns);
  const known = (state) => (state.pods || []).some((p) => p.metadata.namespace === ns && p.workload === k.kind + '/' + name);
  if (resource === 'restart') {
    withState((state) => {
      if (!known(state)) die('Error from server (NotFound): ' + k.plural + '.apps "' + name + '" not found');
      state.restarts = [...(state.restarts || []), { kind: k.kind, name, namespace: ns }];
      return { save: true };
    });
    out(k.singular + '.apps/' + name + ' restarted\n');
    process.exit(0);
  }
  for (let waited = 0; withState(pending); waited += 20) {
    if (waited > 60000) die('error: timed out waiting for the condition');
    sleep(20);
  }
  out(k.singular + ' "' + name + '" successfully rolled out\n');
  process.exit(0);
}
if (verb === '__mark-issuing' && process.env.FAKE_KUBECTL_INTERNAL === '1' && resource !== undefined) {
  // cmctl renew's stand-in: the Issuing condition cert-manager's issuing controller acts on.
  const names = [resource, third, ...rest].filter((n) => n !== undefined);
  withState((state) => {
    for (const name of names) {
      const found = (state.objects || []).find((o) => o.kind === 'Certificate' && o.metadata.namespace === ns && o.metadata.name === name);
      if (!found) die('error: certificates.cert-manager.io "' + name + '" not found');
      const conditions = ((found.status && found.status.conditions) || []).filter((c) => c.type !== 'Issuing');
      found.status = { ...(found.status || {}), conditions: [...conditions, { type: 'Issuing', status: 'True', reason: 'ManuallyTriggered' }] };
      out('Manually triggered issuance of Certificate ' + ns + '/' + name + '\n');
    }
    return { save: true };
  });
  process.exit(0);
}
die('fake kubectl: unsupported command: ' + args.join(' '), 2);
`;

/** A kind the stand-in's API server serves. */
interface ServedKind {
  readonly kind: string;
  readonly singular: string;
  readonly plural: string;
  readonly group: string;
  readonly apiVersions: readonly string[];
}

/** The built-in kinds the library's output uses, and every CRD in `crds/`. */
function servedKinds(): ServedKind[] {
  const builtIn: ServedKind[] = [
    { kind: 'Secret', singular: 'secret', plural: 'secrets', group: '', apiVersions: ['v1'] },
    { kind: 'ConfigMap', singular: 'configmap', plural: 'configmaps', group: '', apiVersions: ['v1'] },
    { kind: 'Service', singular: 'service', plural: 'services', group: '', apiVersions: ['v1'] },
    { kind: 'Pod', singular: 'pod', plural: 'pods', group: '', apiVersions: ['v1'] },
    ...['Deployment', 'StatefulSet', 'DaemonSet'].map((kind) => ({ kind, singular: kind.toLowerCase(), plural: `${kind.toLowerCase()}s`, group: 'apps', apiVersions: ['apps/v1'] })),
    { kind: 'Job', singular: 'job', plural: 'jobs', group: 'batch', apiVersions: ['batch/v1'] },
    { kind: 'CronJob', singular: 'cronjob', plural: 'cronjobs', group: 'batch', apiVersions: ['batch/v1'] },
  ];
  const root = path.join(__dirname, '..', 'crds');
  const crds = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(root, f), 'utf8')).map((d) => d.toJS()))
    .filter((c) => c?.kind === 'CustomResourceDefinition')
    .map((c) => ({
      kind: c.spec.names.kind, singular: c.spec.names.singular, plural: c.spec.names.plural, group: c.spec.group,
      apiVersions: c.spec.versions.filter((v: any) => v.served !== false).map((v: any) => `${c.spec.group}/${v.name}`),
    }));
  return [...builtIn, ...crds];
}

/** Waits a few milliseconds, synchronously: the lock is short-lived. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Creates the stand-in in `dir` (a new temporary folder when not given) and returns it. The
 * executable runs with the Node.js that runs the tests, and is named `kubectl`, so that its folder
 * can go first on `PATH`.
 */
export function createFakeKubectl(dir?: string): FakeKubectl {
  const folder = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fake-kubectl-'));
  fs.mkdirSync(folder, { recursive: true });
  const stateFile = path.join(folder, 'secrets.json');
  const log = path.join(folder, 'calls.jsonl');
  const command = path.join(folder, 'kubectl');
  const source = SOURCE.replace('__STATE__', JSON.stringify(stateFile)).replace('__CALLS__', JSON.stringify(log))
    .replace('__YAML__', JSON.stringify(require.resolve('yaml'))).replace('__KINDS__', JSON.stringify(servedKinds()));
  fs.writeFileSync(command, `#!${process.execPath}${source}`, { mode: 0o755 });
  fs.chmodSync(command, 0o755);
  fs.writeFileSync(log, '');

  const update = <T>(change: (state: FakeState) => T): T => {
    const lock = `${stateFile}.lock`;
    for (let i = 0; ; i++) {
      try {
        fs.mkdirSync(lock);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || i > 20_000) {
          throw e;
        }
        pause(2);
      }
    }
    try {
      const current: FakeState = fs.existsSync(stateFile) ? JSON.parse(fs.readFileSync(stateFile, 'utf8')) : { secrets: [] };
      const out = change(current);
      fs.writeFileSync(stateFile, `${JSON.stringify(current, null, 2)}\n`);
      return out;
    } finally {
      fs.rmdirSync(lock);
    }
  };
  const encode = (data: Record<string, string | Buffer>) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  return {
    command,
    dir: folder,
    calls: () => fs.readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)),
    secrets: () => update((s) => s.secrets),
    state: () => update((s) => s),
    update,
    secretList: (namespace) => JSON.parse(execFileSync(command,
      ['get', 'secrets', ...(namespace === undefined ? ['-A'] : [`--namespace=${namespace}`]), '-o', 'json'],
      { encoding: 'utf8', env: { ...process.env, FAKE_KUBECTL_NO_RECORD: '1' } })),
    putSecret: (namespace, name, data) => update((current) => {
      if (current.secrets.some((s) => s.namespace === namespace && s.name === name)) {
        throw new Error(`fake kubectl already holds Secret ${namespace}/${name}`);
      }
      current.clock = (current.clock ?? 0) + 1;
      current.secrets.push({ namespace, name, data: encode(data), createdAt: current.clock, writtenAt: current.clock });
    }),
    writeSecret: (namespace, name, data, ownerReferences) => update((current) => {
      const before = current.secrets.find((s) => s.namespace === namespace && s.name === name);
      current.clock = (current.clock ?? 0) + 1;
      current.secrets = current.secrets.filter((s) => s !== before);
      current.secrets.push({
        namespace, name, data: encode(data), ...(ownerReferences ? { ownerReferences } : {}), createdAt: before?.createdAt ?? current.clock, writtenAt: current.clock,
      });
    }),
  };
}

/**
 * A stand-in for cert-manager's `cmctl` beside a stand-in kubectl (named `cmctl`, in the same
 * folder): `renew [--namespace=<ns>|-n <ns>] <name>...` marks each Certificate for issuance with
 * the `Issuing` condition, as cmctl does; anything else exits 1 with cmctl's kind of message.
 */
export function createFakeCmctl(kubectl: FakeKubectl): string {
  const command = path.join(kubectl.dir, 'cmctl');
  fs.writeFileSync(command, `#!${process.execPath}
'use strict';
const { spawnSync } = require('child_process');
const args = process.argv.slice(2);
let namespace = 'default';
const names = [];
if (args[0] !== 'renew') { process.stderr.write('Error: unknown command "' + (args[0] || '') + '" for "cmctl"\\n'); process.exit(1); }
for (let i = 1; i < args.length; i++) {
  const a = args[i];
  if (a === '-n' || a === '--namespace') namespace = args[++i];
  else if (a.startsWith('--namespace=')) namespace = a.slice('--namespace='.length);
  else if (a.startsWith('-')) { process.stderr.write('Error: unknown flag: ' + a + '\\n'); process.exit(1); }
  else names.push(a);
}
if (names.length === 0) { process.stderr.write('Error: please supply one or more Certificate resource names or use the --all flag\\n'); process.exit(1); }
const r = spawnSync(${JSON.stringify(kubectl.command)}, ['__mark-issuing', ...names, '--namespace=' + namespace], { stdio: 'inherit', env: { ...process.env, FAKE_KUBECTL_INTERNAL: '1' } });
process.exit(r.status === null ? 1 : r.status);
`, { mode: 0o755 });
  fs.chmodSync(command, 0o755);
  return command;
}

/**
 * A stand-in for `helm` beside a stand-in kubectl (named `helm`, in the same folder), for the
 * commands the runbooks give: `repo add <name> <https:// or oci:// URL>`, and
 * `install|upgrade <release> <repo>/<chart>|oci://… --namespace=<ns> --version=<v> -f <values file>`,
 * which refuses a repository never added, a missing values file (read from the caller's folder), a
 * missing version, any other flag, an install of a release that exists and an upgrade of one that
 * does not, as helm would; `helm-releases.json` beside it keeps each release's values.
 */
export function createFakeHelm(kubectl: FakeKubectl): string {
  const command = path.join(kubectl.dir, 'helm');
  const repos = path.join(kubectl.dir, 'helm-repos.json');
  fs.writeFileSync(command, `#!${process.execPath}
'use strict';
const fs = require('fs');
const REPOS = ${JSON.stringify(repos)};
const args = process.argv.slice(2);
const die = (m) => { process.stderr.write('Error: ' + m + '\\n'); process.exit(1); };
const known = fs.existsSync(REPOS) ? JSON.parse(fs.readFileSync(REPOS, 'utf8')) : {};
if (args[0] === 'repo' && args[1] === 'add' && args.length === 4) {
  if (!/^(https|oci):\\/\\//.test(args[3])) die('could not find protocol handler for: ' + args[3]);
  known[args[2]] = args[3];
  fs.writeFileSync(REPOS, JSON.stringify(known));
  process.stdout.write('"' + args[2] + '" has been added to your repositories\\n');
  process.exit(0);
}
if (args[0] !== 'install' && args[0] !== 'upgrade') die('unknown command "' + args[0] + '" for "helm"');
const words = [];
let namespace, version, install = false;
const values = [];
for (let i = 1; i < args.length; i++) {
  const a = args[i];
  if (a.startsWith('--namespace=')) namespace = a.slice(12);
  else if (a === '--namespace' || a === '-n') namespace = args[++i];
  else if (a.startsWith('--version=')) version = a.slice(10);
  else if (a === '--version') version = args[++i];
  else if (a === '-f' || a === '--values') values.push(args[++i]);
  else if (a === '--install' && args[0] === 'upgrade') install = true;
  else if (a.startsWith('-')) die('unknown flag: ' + a);
  else words.push(a);
}
if (words.length !== 2) die('"helm ' + args[0] + '" requires 2 arguments');
const [release, chart] = words;
if (!chart.startsWith('oci://') && !(chart.split('/')[0] in known)) die('repo ' + chart.split('/')[0] + ' not found');
if (version === undefined) die('the stand-in installs pinned versions only');
for (const v of values) if (!fs.existsSync(v)) die('open ' + v + ': no such file or directory');
// Releases by namespace/name: an install refuses one that exists, an upgrade one that does not.
const RELEASES = ${JSON.stringify(path.join(kubectl.dir, 'helm-releases.json'))};
const releases = fs.existsSync(RELEASES) ? JSON.parse(fs.readFileSync(RELEASES, 'utf8')) : {};
const id = (namespace || 'default') + '/' + release;
if (args[0] === 'install' && id in releases) die('INSTALLATION FAILED: cannot re-use a name that is still in use');
if (args[0] === 'upgrade' && !install && !(id in releases)) die('UPGRADE FAILED: "' + release + '" has no deployed releases');
releases[id] = { chart, version, values: values.map((v) => fs.readFileSync(v, 'utf8')) };
fs.writeFileSync(RELEASES, JSON.stringify(releases));
process.stdout.write('NAME: ' + release + '\\nNAMESPACE: ' + (namespace || 'default') + '\\nSTATUS: deployed\\n');
`, { mode: 0o755 });
  fs.chmodSync(command, 0o755);
  return command;
}

/** The certificate Secrets of a namespace the stand-in holds (those with a `tls.crt`), decoded, by name. */
export function tlsSecretsOf(kubectl: FakeKubectl, namespace: string): Map<string, { 'tls.crt': string; 'tls.key': string; 'ca.crt': string }> {
  const decode = (value: string | undefined) => Buffer.from(value ?? '', 'base64').toString();
  return new Map(kubectl.secrets().filter((s) => s.namespace === namespace && s.data['tls.crt']).map((s) => [s.name, {
    'tls.crt': decode(s.data['tls.crt']), 'tls.key': decode(s.data['tls.key']), 'ca.crt': decode(s.data['ca.crt']),
  }]));
}
