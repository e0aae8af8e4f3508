/**
 * What the writer checks before it replaces an output folder: the settings fixed at creation,
 * compared with the record of the last synth, and keys left in the folder it would delete.
 *
 * The record (`cluster-tls.lock.json`) sits beside the output folder, never in it: the cdk8s CLI
 * deletes its output folder before it runs the app, and a record kept there would be gone when
 * the guard reads it. It is a pure function of the app, so it is committed and reviewed with the
 * output: a diff in it is a setting fixed at creation that changed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLUSTER_RESOURCE_KINDS, ClusterKind, clusterKind } from '../model/catalog';
import { ENABLEMENT_PHASES } from '../model/enablement';
import { isPlainObject } from '../model/props';
import type { DrainerFacts, RecreationFacts } from '../app/app-facts';
import { MigrationRecreationPhase, RECREATION_PHASES } from '../model/recreation';
import { ClusterTlsError, describeValue } from '../model/errors';
import { displayPath, relativePath, shownName } from './display-path';
import { realPath } from './swap-files';
import type { TlsPlan } from '../plan/certificate-options';
import * as layout from '../model/output-layout';
import { recordedSecret } from './phase-report';
import { isSystemError, machineError } from './machine-errors';
import { READ_LIMITS, TooLargeError, UnreadableInputError, readBounded } from '../model/bounded-read';

/** Environment variable naming output folders synth may take over although they hold files it did not write. */
export const TAKE_OVER_ENV = 'CLUSTER_TLS_TAKE_OVER';

/** Environment variable that acknowledges deliberate re-creations for `npm run synth`. */
export const RECREATE_ENV = 'CLUSTER_TLS_RECREATE';

/** The version of the record's format. */
const RECORD_VERSION = 1;

/** A cluster resource's setting fixed at creation. */
export interface RecordedCluster {
  /** `spec.tlsCluster.enabled`, or null when the resource leaves it out. */
  readonly tlsClusterEnabled: boolean | null;
  /** The phase of a migration cluster's re-creation with TLS, while one is declared. */
  readonly recreation?: MigrationRecreationPhase;
  /**
   * Where a `DatabaseCluster` that spans Kubernetes clusters (`acrossK8s`) stands in the span: its
   * cluster domain, and the domain and namespace of the cluster it joins (none for the first).
   */
  readonly across?: RecordedAcross;
}

/** A `DatabaseCluster`'s place in a span of Kubernetes clusters, as the record keeps it. */
export interface RecordedAcross {
  /** Its `spec.clusterDomain`. */
  readonly clusterDomain: string;
  /** The `spec.cluster.clusterDomain` of the cluster it joins, when it is not the first. */
  readonly joins?: string;
  /**
   * The `spec.cluster.namespace` of the cluster it joins, when it is not the `DatabaseCluster`'s
   * own (each Kubernetes cluster in a namespace of its own); absent, the cluster joined is in its own.
   */
  readonly joinsNamespace?: string;
}

/** The place in a span of a cluster manifest, when it spans Kubernetes clusters. */
function acrossOf(m: any): RecordedAcross | undefined {
  if (m.spec?.acrossK8s !== true) {
    return undefined;
  }
  const joins = m.spec?.cluster?.clusterDomain;
  const namespace = m.spec?.cluster?.namespace;
  return {
    clusterDomain: String(m.spec?.clusterDomain ?? ''),
    ...(typeof joins === 'string' ? { joins } : {}),
    ...(typeof joins === 'string' && typeof namespace === 'string' && namespace !== m.metadata?.namespace ? { joinsNamespace: namespace } : {}),
  };
}

/** A span place as a message shows it. */
function describeAcross(across: RecordedAcross | undefined): string {
  if (across === undefined) {
    return 'one Kubernetes cluster alone';
  }
  const place = across.joins === undefined ? 'the first cluster of its span'
    : `joining the cluster in ${across.joinsNamespace === undefined ? '' : `namespace "${across.joinsNamespace}" of `}"${across.joins}"`;
  return `domain "${across.clusterDomain}", ${place}`;
}

/** Whether two span places are the same, field by field. */
function sameAcross(a: RecordedAcross | undefined, b: RecordedAcross | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.clusterDomain === b.clusterDomain && a.joins === b.joins && a.joinsNamespace === b.joinsNamespace;
}

/** A drainer release's names fixed at creation. */
export interface RecordedDrainer {
  readonly namespace: string;
  readonly releaseName: string;
  /** The effective `drainerName`, which names the drainer's StatefulSet, pods and service. */
  readonly drainerName: string;
}

/** The rotation a cluster's certificates declare: it moves one phase per synth, forward. */
export interface RecordedRotation {
  readonly id: string;
  readonly phase: string;
  /** The phases of its kind, in order. */
  readonly phases: readonly string[];
  /**
   * Every Secret of the plan in this phase (those of TLS for MySQL clients too),
   * as `recordedSecret` names them: a verify report must show each one in place before the phase moves on.
   */
  readonly secrets?: readonly string[];
  /** The phases left without a verify report, each acknowledged by name, as `<rotation id> <phase>`: kept across rotations, for review. */
  readonly unverified?: readonly string[];
  /** Every rotation declared, in order, this one last, as `<id> (<kind>)`. */
  readonly history?: readonly string[];
}

/** The TLS enablement a database cluster declares: it moves one phase per synth, forward. */
export interface RecordedEnablement {
  /** One of {@link ENABLEMENT_PHASES}. */
  readonly phase: string;
  /** Every Secret of the plan in this phase: a verify report must show each one in place before the phase moves on. */
  readonly secrets: readonly string[];
  /** The phases left without a verify report, each acknowledged by name: kept, for review. */
  readonly unverified?: readonly string[];
  /** The coordinator member that stays through the flip and the https peer URL it must show before the scale-out. */
  readonly coordinator: { readonly member: string; readonly peerUrl: string };
}

/** The settings fixed at creation of every cluster and drainer of an app. */
export interface FixedSettings {
  /**
   * The output folder the record goes with, relative to the record's folder (`dist`): two output
   * folders side by side cannot share one record, each synth replacing it whole.
   */
  readonly output?: string;
  /** By `<Kind>/<namespace>/<name>`. */
  readonly clusters: Readonly<Record<string, RecordedCluster>>;
  /** By the `DrainerRelease`'s construct path. */
  readonly drainers: Readonly<Record<string, RecordedDrainer>>;
  /** By `<namespace>/<cluster>` of the certificates; left out of the record while empty. */
  readonly rotations?: Readonly<Record<string, RecordedRotation>>;
  /** By `<namespace>/<cluster>` of the certificates; left out of the record while empty. */
  readonly enablements?: Readonly<Record<string, RecordedEnablement>>;
}

/** A declared rotation as the record lists it: `<id> (<kind>)`. */
export function historyEntry(h: { readonly id: string; readonly kind: string }): string {
  return `${h.id} (${h.kind})`;
}

/** The fixed settings of rendered cluster manifests, drainers and certificate plans, keys sorted. */
export function fixedSettings(manifests: readonly any[], drainers: readonly DrainerFacts[], plans: readonly TlsPlan[] = [],
  recreations: readonly RecreationFacts[] = []): FixedSettings {
  const phases = new Map(recreations.map((r) => [recreationKey(r), r.recreationPhase]));
  const clusters: Record<string, RecordedCluster> = {};
  for (const m of manifests) {
    if (CLUSTER_RESOURCE_KINDS.has(m?.kind)) {
      const enabled = m.spec?.tlsCluster?.enabled;
      const recreation = phases.get(clusterKey(m));
      const across = acrossOf(m);
      clusters[clusterKey(m)] = { tlsClusterEnabled: typeof enabled === 'boolean' ? enabled : null, ...(recreation !== undefined ? { recreation } : {}), ...(across !== undefined ? { across } : {}) };
    }
  }
  const byPath: Record<string, RecordedDrainer> = {};
  for (const d of drainers) {
    byPath[d.node.path] = { namespace: d.namespace, releaseName: d.releaseName, drainerName: d.drainerName };
  }
  const rotations: Record<string, RecordedRotation> = {};
  for (const p of plans) {
    if (p.rotation) {
      // TLS for MySQL clients rotates with the cluster: the report must show its Secrets too, each in its namespace.
      const sql = p.sqlTls?.secrets ?? [];
      rotations[`${p.namespace}/${p.clusterName}`] = {
        id: p.rotation.id, phase: p.rotation.phase, phases: p.rotation.phases,
        secrets: [...p.secrets.map((s) => s.name), ...sql.map((s) => recordedSecret(p.namespace, s))],
        history: p.rotation.history.map(historyEntry),
      };
    }
  }
  const enablements: Record<string, RecordedEnablement> = {};
  for (const p of plans) {
    if (p.enablement) {
      enablements[`${p.namespace}/${p.clusterName}`] = { phase: p.enablement.phase, secrets: p.secrets.map((s) => s.name), coordinator: p.enablement.coordinator };
    }
  }
  return {
    clusters: sortedKeys(clusters),
    drainers: sortedKeys(byPath),
    ...(plans.some((p) => p.rotation) ? { rotations: sortedKeys(rotations) } : {}),
    ...(plans.some((p) => p.enablement) ? { enablements: sortedKeys(enablements) } : {}),
  };
}

export function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The key of a cluster resource in the record: `<Kind>/<namespace>/<name>`. */
export function clusterKey(manifest: any): string {
  return `${manifest.kind}/${manifest.metadata?.namespace ?? ''}/${manifest.metadata?.name}`;
}

/** The record's text: stable, so that an unchanged app leaves it byte-identical. */
export function recordText(settings: FixedSettings): string {
  return `${JSON.stringify({
    version: RECORD_VERSION,
    about: 'Settings fixed at creation, recorded by cdk8s-cluster-tls at every synth and compared at the next. Commit it with the output.',
    ...settings,
  }, undefined, 2)}\n`;
}

/** Reads a record; undefined when there is none yet (a first synth). */
export function readRecord(file: string): FixedSettings | undefined {
  let text: string;
  try {
    text = readBounded(file, READ_LIMITS.record);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    if (isSystemError(e)) {
      throw machineError(e, file, 'read the record of settings fixed at creation');
    }
    throw new ClusterTlsError(`${displayPath(file)}: the record of settings fixed at creation: received ${(e as Error).message}; `
      + 'expected the file an earlier synth wrote: restore it from version control');
  }
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed?.version !== RECORD_VERSION || !isPlainObject(parsed.clusters) || !isPlainObject(parsed.drainers)) {
    throw new ClusterTlsError(`${displayPath(file)}: the record of settings fixed at creation: received a file that is not a version ${RECORD_VERSION} record; `
      + 'expected the file an earlier synth wrote: restore it from version control');
  }
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  const cluster = (c: any) => isPlainObject(c) && (typeof c.tlsClusterEnabled === 'boolean' || c.tlsClusterEnabled === null)
    && (c.recreation === undefined || (RECREATION_PHASES as readonly unknown[]).includes(c.recreation))
    && (c.across === undefined || (isPlainObject(c.across) && typeof c.across.clusterDomain === 'string' && (c.across.joins === undefined || typeof c.across.joins === 'string')
      && (c.across.joinsNamespace === undefined || typeof c.across.joinsNamespace === 'string')
      && Object.keys(c.across).every((k) => k === 'clusterDomain' || k === 'joins' || k === 'joinsNamespace')));
  const drainer = (d: any) => isPlainObject(d) && typeof d.namespace === 'string' && typeof d.releaseName === 'string' && typeof d.drainerName === 'string';
  for (const [entry, valid] of [['clusters', cluster], ['drainers', drainer]] as const) {
    const bad = Object.entries(parsed[entry]).find(([, v]) => !valid(v));
    if (bad) {
      throw new ClusterTlsError(`${displayPath(file)}: the record of settings fixed at creation: received a ${entry} entry ${describeValue(bad[0])} that is not one an earlier synth wrote; `
        + 'expected the file an earlier synth wrote: restore it from version control');
    }
  }
  const rotation = (r: any) => isPlainObject(r) && typeof r.id === 'string' && typeof r.phase === 'string' && strings(r.phases)
    && (r.secrets === undefined || strings(r.secrets)) && (r.unverified === undefined || strings(r.unverified)) && (r.history === undefined || strings(r.history));
  if (parsed.rotations !== undefined && (!isPlainObject(parsed.rotations) || !Object.values(parsed.rotations).every(rotation))) {
    throw new ClusterTlsError(`${displayPath(file)}: the record of settings fixed at creation: received a rotations entry that is not one an earlier synth wrote; `
      + 'expected the file an earlier synth wrote: restore it from version control');
  }
  const enablement = (r: any) => isPlainObject(r) && (ENABLEMENT_PHASES as readonly unknown[]).includes(r.phase) && strings(r.secrets)
    && (r.unverified === undefined || strings(r.unverified)) && isPlainObject(r.coordinator) && typeof (r.coordinator as any).member === 'string' && typeof (r.coordinator as any).peerUrl === 'string';
  if (parsed.enablements !== undefined && (!isPlainObject(parsed.enablements) || !Object.values(parsed.enablements).every(enablement))) {
    throw new ClusterTlsError(`${displayPath(file)}: the record of settings fixed at creation: received an enablements entry that is not one an earlier synth wrote; `
      + 'expected the file an earlier synth wrote: restore it from version control');
  }
  if (parsed.output !== undefined && typeof parsed.output !== 'string') {
    throw new ClusterTlsError(`${displayPath(file)}: the record of settings fixed at creation: received an output entry that is not one an earlier synth wrote; `
      + 'expected the file an earlier synth wrote: restore it from version control');
  }
  return { output: parsed.output, clusters: parsed.clusters, drainers: parsed.drainers, rotations: parsed.rotations, enablements: parsed.enablements };
}

/** The output folder a record goes with, as the record names it: relative to the record's folder, with '/' separators. */
export function recordOutput(recordFile: string, outdir: string): string {
  // Where the paths lead, so that one folder reached by two spellings (a link) is one output.
  return path.relative(path.dirname(realPath(recordFile)), realPath(outdir)).split(path.sep).join('/');
}

/**
 * Refuses a record written for another output folder (two apps synthesizing side by side into one
 * folder's `dist-a` and `dist-b` would otherwise share, and erase, one record). A record of an
 * earlier release, which names no output folder, is taken as this one's.
 */
export function checkRecordOutput(record: FixedSettings | undefined, recordFile: string, outdir: string): void {
  const mine = recordOutput(recordFile, outdir);
  if (record?.output !== undefined && record.output !== mine) {
    throw new ClusterTlsError(`${displayPath(recordFile)}: received the record of output folder ${shownName(record.output)}; expected the record of ${shownName(mine)}: `
      + 'one record goes with one output folder, each synth replacing it whole: give this output folder a record of its own (recordFile)');
  }
}

/** The record's new text, or undefined when the file already holds it (an unchanged app leaves it untouched). */
export function changedRecordText(file: string, settings: FixedSettings): string | undefined {
  const text = recordText(settings);
  try {
    return readBounded(file, READ_LIMITS.record) === text ? undefined : text;
  } catch {
    return text;
  }
}

/**
 * Refuses to change a setting fixed at creation relative to the record: `spec.tlsCluster.enabled`
 * of either cluster kind, a spanning `DatabaseCluster`'s place in its span (its domain and the
 * cluster it joins), and a drainer's effective name (changed by `drainerName` or by the
 * `releaseName` it derives from). `sources` gives the construct path of each cluster key, for the
 * message; `acknowledged` lists the deliberate re-creations (`<Kind>/<namespace>/<name>`, or
 * `drainer/<construct path>`); `flipping` lists the clusters whose TLS enablement turns
 * `tlsCluster.enabled` on in this synth, the one change of it allowed.
 */
export function checkFixedSettings(record: FixedSettings | undefined, now: FixedSettings, recordFile: string,
  sources: ReadonlyMap<string, string>, acknowledged: readonly string[], flipping: ReadonlySet<string> = new Set()): void {
  if (record === undefined) {
    return;
  }
  const ack = new Set(acknowledged);
  const where = `as recorded in ${displayPath(recordFile)}`;
  for (const [key, cluster] of Object.entries(now.clusters)) {
    const old = record.clusters[key];
    if (old === undefined || ack.has(key) || old.tlsClusterEnabled === cluster.tlsClusterEnabled
      || ((flipping.has(key) || recreatedWithTls(old, cluster)) && old.tlsClusterEnabled === false && cluster.tlsClusterEnabled === true)) {
      continue;
    }
    const [kind, , name] = key.split('/');
    throw new ClusterTlsError(`${sources.get(key) ?? key}: ${kind} "${name}" tlsCluster.enabled: received ${describeValue(cluster.tlsClusterEnabled ?? undefined)}; `
      + `expected ${describeValue(old.tlsClusterEnabled ?? undefined)} ${where}: the setting is fixed at creation and changing it makes the cluster fail to upgrade; `
      + `${old.tlsClusterEnabled === false ? 'turn TLS on in place through the phases of the cluster\'s enablement prop, or ' : ''}to re-create the cluster deliberately, set ${RECREATE_ENV}=${key}`);
  }
  for (const [key, cluster] of Object.entries(now.clusters)) {
    const old = record.clusters[key];
    if (old === undefined || ack.has(key) || sameAcross(old.across, cluster.across)) {
      continue;
    }
    const [kind, , name] = key.split('/');
    throw new ClusterTlsError(`${sources.get(key) ?? key}: ${kind} "${name}" span: received ${describeAcross(cluster.across)}; expected ${describeAcross(old.across)} ${where}: `
      + 'a running cluster keeps its domain, the cluster it joins and its CA; add Kubernetes clusters at the end of the span only, '
      + `or to re-create the cluster deliberately, set ${RECREATE_ENV}=${key}`);
  }
  for (const [at, drainer] of Object.entries(now.drainers)) {
    const old = record.drainers[at];
    const key = `drainer/${at}`;
    if (old === undefined || ack.has(key) || old.drainerName === drainer.drainerName) {
      continue;
    }
    const cause = old.releaseName === drainer.releaseName ? 'drainerName' : `releaseName ${describeValue(drainer.releaseName)} (was ${describeValue(old.releaseName)})`;
    throw new ClusterTlsError(`${at}: drainerName: received ${describeValue(drainer.drainerName)} from ${cause}; expected ${describeValue(old.drainerName)} ${where}: `
      + `renaming a running drainer is unsupported; to re-create the drainer deliberately, set ${RECREATE_ENV}=${key}`);
  }
}

/** The resource kind of a migration cluster, in the record's keys. */
const MIGRATION_KIND = clusterKind(ClusterKind.MIGRATION).resourceKind;

/** The record key of a migration cluster: `MigrationCluster/<namespace>/<name>`. */
export function recreationKey(cluster: Pick<RecreationFacts, 'namespace' | 'clusterName'>): string {
  return clusterKey({ kind: MIGRATION_KIND, metadata: { namespace: cluster.namespace, name: cluster.clusterName } });
}

/** Whether a cluster moves from its re-creation's `stop` phase, recorded, to `create`: the one flip of `tlsCluster.enabled` a re-creation makes. */
function recreatedWithTls(old: RecordedCluster, now: RecordedCluster): boolean {
  return old.recreation === MigrationRecreationPhase.STOP && now.recreation === MigrationRecreationPhase.CREATE;
}

/**
 * Refuses a migration cluster's re-creation with TLS out of order relative to the record: `create`
 * without a synth of `stop` before it, `stop` on a cluster recorded with TLS on or after `create`,
 * and the prop dropped at `stop`. `acknowledged` lifts the rules for the clusters it names.
 */
export function checkRecreations(record: FixedSettings | undefined, now: FixedSettings, recordFile: string,
  paths: ReadonlyMap<string, string>, acknowledged: readonly string[]): void {
  const where = record === undefined ? `(no record at ${displayPath(recordFile)})` : `(as recorded in ${displayPath(recordFile)})`;
  for (const [key, cluster] of Object.entries(now.clusters)) {
    const old = record?.clusters[key];
    if (acknowledged.includes(key) || (old?.recreation === undefined && cluster.recreation === undefined)) {
      continue;
    }
    const fail = (received: string, expected: string, why: string) => {
      throw new ClusterTlsError(`${paths.get(key) ?? key}: recreation.phase: received ${received}; expected ${expected} ${where}: ${why}; `
        + `to override deliberately, set ${RECREATE_ENV}=${key}`);
    };
    if (cluster.recreation === MigrationRecreationPhase.CREATE && old?.recreation === undefined) {
      fail('"create"', '"stop" first', `${record === undefined ? 'synthesize the stop phase into this output first, or restore the record its synth wrote' : old === undefined ? 'the record holds no such cluster' : 'the record holds no re-creation of it'}, `
        + 'and the stop phase\'s runbook stops the task and deletes the plain-text cluster before the create phase makes the new one');
    }
    if (cluster.recreation === MigrationRecreationPhase.STOP && old?.recreation === MigrationRecreationPhase.CREATE) {
      fail('"stop"', '"create" or no re-creation', 'the cluster was created with TLS in the create phase');
    }
    if (cluster.recreation === MigrationRecreationPhase.STOP && old !== undefined && old.recreation === undefined && old.tlsClusterEnabled === true) {
      fail('"stop"', 'no re-creation', 'the cluster is recorded with TLS on, so there is nothing to re-create');
    }
    if (cluster.recreation === undefined && old?.recreation === MigrationRecreationPhase.STOP) {
      fail('nothing', '"stop" or "create"', 'the re-creation is at its stop phase, and the cluster gets TLS in the create phase');
    }
  }
}

/**
 * Names of files that hold keys or certificates: PEM, DER and PKCS files and Java keystores, with
 * any further suffix (a `.bak` copy) and in any case, and SSH key files.
 */
const KEY_MATERIAL = /(\.(pem|key|csr|crt|cer|der|p7b|p7c|p8|pk8|p12|pfx|jks|jceks|keystore|bcfks|ppk|gpg|pgp|asc|kdbx)(\.[^/]*)?$|^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$)/i;

/** What a key or certificate file holds, whatever its name: a PEM block, a PuTTY key, an armoured PGP key. */
const KEY_CONTENT = /-----BEGIN [A-Z0-9 ]*(PRIVATE KEY|CERTIFICATE)[A-Z0-9 ]*-----|PuTTY-User-Key-File-|-----BEGIN PGP PRIVATE KEY BLOCK-----/;

/** The largest file the content check reads whole; a larger one is taken for a key, to be safe. */
const KEY_SNIFF_BYTES = 16 * 1024 * 1024;

/**
 * Whether a file of the output folder holds a key or a certificate, by its name or its content. A
 * regular file that cannot be read, or is larger than the check reads, counts as one: the swap must
 * not delete what it could not look at. A pipe, device or socket holds no key file.
 */
function isKeyMaterial(file: string): boolean {
  if (KEY_MATERIAL.test(path.basename(file))) {
    return true;
  }
  try {
    return KEY_CONTENT.test(readBounded(file, KEY_SNIFF_BYTES));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? false : !(e instanceof UnreadableInputError && !(e instanceof TooLargeError));
  }
}

/** Every entry below a folder, relative with '/' separators, sorted: files and links, and folders that hold nothing (with a trailing '/'). */
function entriesBelow(outdir: string): string[] {
  const all = fs.readdirSync(outdir, { recursive: true, withFileTypes: true });
  const rel = (e: fs.Dirent) => path.relative(outdir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
  const parents = new Set(all.map((e) => path.relative(outdir, e.parentPath).split(path.sep).join('/')));
  return all.filter((e) => !e.isDirectory() || !parents.has(rel(e))).map((e) => (e.isDirectory() ? `${rel(e)}/` : rel(e))).sort();
}

/** A list of paths in a message: the first few, quoted where needed, then how many more. */
function shownList(paths: readonly string[]): string {
  return paths.slice(0, LISTED).map(shownName).join(', ') + (paths.length > LISTED ? ` and ${paths.length - LISTED} more` : '');
}

/**
 * Refuses to replace an output folder that holds keys or certificates synth did not write (the
 * cfssl script copied back in, say), told by name or by content: the swap would delete them, and
 * with them a running cluster's CA. Taking the folder over does not lift it.
 */
export function checkNoKeyMaterial(outdir: string, written: ReadonlySet<string>, entries = listOutput(outdir)): void {
  const found = entries.filter((rel) => !rel.endsWith('/') && !written.has(rel) && isKeyMaterial(path.join(outdir, ...rel.split('/'))));
  if (found.length > 0) {
    throw new ClusterTlsError(`${displayPath(outdir)}: received keys or certificates that synth did not write (${shownList(found)}); `
      + 'expected an output folder of synthesized files only: move them out before synthesizing, or the swap would delete them');
  }
}

/** How many paths a message lists before it counts the rest. */
const LISTED = 5;

/**
 * Refuses to replace an output folder that holds anything no synth wrote: a folder without a
 * valid marker of a synth output that is not empty, or entries the marker does not list (a marker
 * of an earlier release, without a list, lets the key check alone stand). The swap would delete
 * them.
 */
export function checkOnlySynthesizedFiles(outdir: string, entries = listOutput(outdir)): void {
  // A folder of an earlier release carries the marker of then, and may be replaced by the layout of today.
  const found = layout.readOutputMarker(outdir, [layout.OUTPUT_MARKER_FILE, layout.EARLIER_OUTPUT_MARKER_FILE]);
  const marker = found?.marker;
  const files = marker?.files;
  const listed = Array.isArray(files) && files.every((f) => typeof f === 'string') ? new Set([...files, found!.file]) : undefined;
  if (marker !== undefined && files === undefined) {
    return;
  }
  const foreign = entries.filter((f) => !listed?.has(f));
  if (foreign.length === 0) {
    return;
  }
  const what = listed === undefined ? `a folder no synth wrote (it has no valid ${layout.OUTPUT_MARKER_FILE}) holding ${shownList(foreign)}`
    : `files the last synth did not write (${shownList(foreign)})`;
  throw new ClusterTlsError(`${displayPath(outdir)}: received ${what}; expected an output folder of synthesized files only, or none: `
    + `move them out, or ${takeOverHint(outdir)} to replace the folder and delete them`);
}

/** How to take a folder over, as a refusal says it: the environment variable, or the option where a shell cannot carry the name. */
function takeOverHint(folder: string): string {
  // The variable holds comma-separated folders as typed in a shell: a name it cannot carry (a comma, a quoted or masked name) is taken over in code.
  const shown = displayPath(folder);
  return shown !== relativePath(folder) || shown.includes(',') ? 'pass takeOver: true to synthesize' : `set ${TAKE_OVER_ENV}=${shown}`;
}

/**
 * Refuses to replace a files folder that another output folder's synth wrote, as its marker
 * records: two output folders in one folder would otherwise take turns deleting each other's
 * runbooks and plans. Taking the folder over lifts it (an output folder renamed since, say).
 */
export function checkFilesFolderOwner(filesFolder: string, outdir: string): void {
  // No marker, or none of a synth: the check of what the folder holds decides.
  const owner: unknown = layout.readOutputMarker(filesFolder)?.marker.outputFolder;
  if (typeof owner === 'string' && owner !== path.basename(outdir)) {
    throw new ClusterTlsError(`${displayPath(filesFolder)}: received the files folder of the output folder ${shownName(owner)}; expected the files folder of ${displayPath(outdir)}, `
      + `since each output folder keeps its other files in ${layout.FILES_FOLDER} beside it: put each output folder in a folder of its own, `
      + `or, if ${shownName(owner)} is gone or renamed, ${takeOverHint(filesFolder)} to replace it`);
  }
}

/**
 * Refuses to replace an output folder that holds what the swap must not delete: keys and
 * certificates synth did not write (always), and any other file no synth wrote (unless taken over).
 */
export function checkReplaceable(outdir: string, written: ReadonlySet<string>, takeOver: boolean): void {
  // One walk of the folder for both checks.
  const entries = listOutput(outdir);
  checkNoKeyMaterial(outdir, written, entries);
  if (!takeOver) {
    checkOnlySynthesizedFiles(outdir, entries);
  }
}

/** {@link entriesBelow} of the output folder, a failure of the machine as one line. */
function listOutput(outdir: string): string[] {
  try {
    return entriesBelow(outdir);
  } catch (e) {
    throw machineError(e, outdir, 'read the output folder');
  }
}
