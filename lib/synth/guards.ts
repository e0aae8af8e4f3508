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
import { CLUSTER_RESOURCE_KINDS } from '../spec/catalog';
import { isPlainObject } from '../spec/props';
import type { DrainerFacts } from './app-rules';
import { ClusterTlsError, describeValue } from '../spec/errors';
import type { TlsPlan } from '../certificates/certificate-options';

/** Environment variable that acknowledges deliberate re-creations for `npm run synth`. */
export const RECREATE_ENV = 'CLUSTER_TLS_RECREATE';

/** The version of the record's format. */
const RECORD_VERSION = 1;

/** A cluster resource's setting fixed at creation. */
export interface RecordedCluster {
  /** `spec.tlsCluster.enabled`, or null when the resource leaves it out. */
  readonly tlsClusterEnabled: boolean | null;
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
}

/** The settings fixed at creation of every cluster and drainer of an app. */
export interface FixedSettings {
  /** By `<Kind>/<namespace>/<name>`. */
  readonly clusters: Readonly<Record<string, RecordedCluster>>;
  /** By the `DrainerRelease`'s construct path. */
  readonly drainers: Readonly<Record<string, RecordedDrainer>>;
  /** By `<namespace>/<cluster>` of the certificates; left out of the record while empty. */
  readonly rotations?: Readonly<Record<string, RecordedRotation>>;
}

/** The fixed settings of rendered cluster manifests, drainers and certificate plans, keys sorted. */
export function fixedSettings(manifests: readonly any[], drainers: readonly DrainerFacts[], plans: readonly TlsPlan[] = []): FixedSettings {
  const clusters: Record<string, RecordedCluster> = {};
  for (const m of manifests) {
    if (CLUSTER_RESOURCE_KINDS.has(m?.kind)) {
      const enabled = m.spec?.tlsCluster?.enabled;
      clusters[clusterKey(m)] = { tlsClusterEnabled: typeof enabled === 'boolean' ? enabled : null };
    }
  }
  const byPath: Record<string, RecordedDrainer> = {};
  for (const d of drainers) {
    byPath[d.node.path] = { namespace: d.namespace, releaseName: d.releaseName, drainerName: d.drainerName };
  }
  const rotations: Record<string, RecordedRotation> = {};
  for (const p of plans) {
    if (p.rotation) {
      rotations[`${p.namespace}/${p.clusterName}`] = { id: p.rotation.id, phase: p.rotation.phase, phases: p.rotation.phases };
    }
  }
  return { clusters: sortedKeys(clusters), drainers: sortedKeys(byPath), ...(plans.some((p) => p.rotation) ? { rotations: sortedKeys(rotations) } : {}) };
}

function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
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
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw e;
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
  return { clusters: parsed.clusters, drainers: parsed.drainers, rotations: isPlainObject(parsed.rotations) ? parsed.rotations : undefined };
}

/** Writes a record in place of the old one, whole or not at all. */
export function writeRecord(file: string, settings: FixedSettings): void {
  const text = recordText(settings);
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) {
    return;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/** A path as a message shows it: relative to the working folder when inside it. */
function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/**
 * Refuses to change a setting fixed at creation relative to the record: `spec.tlsCluster.enabled`
 * of either cluster kind, and a drainer's effective name (changed by `drainerName` or by the
 * `releaseName` it derives from). `sources` gives the construct path of each cluster key, for the
 * message; `acknowledged` lists the deliberate re-creations (`<Kind>/<namespace>/<name>`, or
 * `drainer/<construct path>`).
 */
export function checkFixedSettings(record: FixedSettings | undefined, now: FixedSettings, recordFile: string,
  sources: ReadonlyMap<string, string>, acknowledged: readonly string[]): void {
  if (record === undefined) {
    return;
  }
  const ack = new Set(acknowledged);
  const where = `as recorded in ${displayPath(recordFile)}`;
  for (const [key, cluster] of Object.entries(now.clusters)) {
    const old = record.clusters[key];
    if (old === undefined || ack.has(key) || old.tlsClusterEnabled === cluster.tlsClusterEnabled) {
      continue;
    }
    const [kind, , name] = key.split('/');
    throw new ClusterTlsError(`${sources.get(key) ?? key}: ${kind} "${name}" tlsCluster.enabled: received ${describeValue(cluster.tlsClusterEnabled ?? undefined)}; `
      + `expected ${describeValue(old.tlsClusterEnabled ?? undefined)} ${where}: the setting is fixed at creation and changing it makes the cluster fail to upgrade; `
      + `to re-create the cluster deliberately, set ${RECREATE_ENV}=${key}`);
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

/** Environment variable naming the JSON report of `cluster-tls verify` for the phase in place. */
export const VERIFY_REPORT_ENV = 'CLUSTER_TLS_VERIFY_REPORT';

/**
 * Refuses a rotation that skips a phase, goes back, is dropped before its last phase, or starts
 * anywhere but at its first phase, relative to the record. Acknowledged `rotation/<namespace>/<cluster>`
 * entries pass. With a verify report, refuses to leave a phase that some Secret is not yet in.
 */
export function checkRotations(record: FixedSettings | undefined, now: FixedSettings, recordFile: string,
  acknowledged: readonly string[], report?: VerifyReportFile): void {
  if (record === undefined) {
    return;
  }
  const where = `as recorded in ${displayPath(recordFile)}`;
  const before = record.rotations ?? {};
  const after = now.rotations ?? {};
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    if (acknowledged.includes(`rotation/${key}`)) {
      continue;
    }
    const expected = allowedNext(before[key]);
    const cur = after[key];
    const got = cur ? `${cur.id} at "${cur.phase}"` : 'no rotation';
    const matches = (e: { id: string; phase: string } | undefined) => (e === undefined ? cur === undefined
      : e.id === NEW ? cur !== undefined && cur.id !== before[key]?.id && cur.phase === cur.phases[0]
        : cur?.id === e.id && cur.phase === e.phase);
    if (!expected.some(matches)) {
      const want = expected.map((e) => (e === undefined ? 'no rotation' : e.id === NEW ? 'a new rotation at its first phase' : `${e.id} at "${e.phase}"`)).join(' or ');
      throw new ClusterTlsError(`certificates ${key}: rotations: received ${got}; expected ${want} ${where}: a rotation moves one phase per synth, forward, and stays declared once done; `
        + `to override deliberately, set ${RECREATE_ENV}=rotation/${key}`);
    }
    const old = before[key];
    if (report && old && cur && cur.id === old.id && cur.phase !== old.phase) {
      checkPhaseReached(key, old, report);
    }
  }
}

/** Stands for any new rotation, at its first phase. */
const NEW = '*';

/** The rotation states allowed after a recorded one: the same, the next phase, or after the last phase a new rotation at its first. */
function allowedNext(old: RecordedRotation | undefined): ({ id: string; phase: string } | undefined)[] {
  if (old === undefined) {
    return [undefined, { id: NEW, phase: NEW }];
  }
  const at = old.phases.indexOf(old.phase);
  return at === old.phases.length - 1
    ? [{ id: old.id, phase: old.phase }, { id: NEW, phase: NEW }]
    : [{ id: old.id, phase: old.phase }, { id: old.id, phase: old.phases[at + 1] }];
}

/** A `cluster-tls verify --json` report, as the synth reads it. */
export interface VerifyReportFile {
  readonly file: string;
  readonly plans: readonly { readonly namespace: string; readonly clusterName: string; readonly rotation?: { readonly id: string; readonly phase: string } }[];
  readonly secrets: readonly { readonly name: string; readonly namespace: string; readonly clusterName: string; readonly checks: readonly { readonly check: string; readonly ok: boolean; readonly found: string }[] }[];
}

/** Reads the report {@link VERIFY_REPORT_ENV} names; undefined when it is not set. */
export function readVerifyReport(file: string | undefined): VerifyReportFile | undefined {
  if (!file) {
    return undefined;
  }
  let parsed: any;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed?.plans) || !Array.isArray(parsed?.secrets)) {
    throw new ClusterTlsError(`${VERIFY_REPORT_ENV}: received ${describeValue(file)}, which is not a report of cluster-tls verify --json; expected the JSON report of the phase in place`);
  }
  return { file, plans: parsed.plans, secrets: parsed.secrets };
}

/** Refuses to leave a phase while the report shows a Secret of the cluster that is not in it. */
function checkPhaseReached(key: string, old: RecordedRotation, report: VerifyReportFile): void {
  const [namespace, clusterName] = key.split('/');
  const plan = report.plans.find((p) => p.namespace === namespace && p.clusterName === clusterName);
  const at = `certificates ${key}: rotations phase: received the phase after "${old.phase}"; expected "${old.phase}" until every Secret of the cluster is in it`;
  if (plan?.rotation?.id !== old.id || plan.rotation.phase !== old.phase) {
    throw new ClusterTlsError(`${at}: ${displayPath(report.file)} is not a report of phase "${old.phase}" of rotation ${old.id} (run cluster-tls verify --json on it first)`);
  }
  const behind = report.secrets.filter((s) => s.namespace === namespace && s.clusterName === clusterName)
    .find((s) => !s.checks.some((c) => c.check === 'rotation' && c.ok));
  if (behind) {
    const reason = behind.checks.find((c) => c.check === 'rotation')?.found ?? 'not checked';
    throw new ClusterTlsError(`${at}, and ${displayPath(report.file)} shows Secret ${behind.name} is not: ${reason}; write it as rotation-runbook.md says and verify again`);
  }
}

/** Files that hold keys or certificates: the issuing script's, never the synth's. */
const KEY_MATERIAL = /\.(pem|key|csr|crt|p12|pfx)$/;

/**
 * Refuses to replace an output folder that holds keys or certificates synth did not write (the
 * cfssl script copied back in, say): the swap would delete them, and with them a running
 * cluster's CA. Lists them all in one line.
 */
export function checkNoKeyMaterial(outdir: string, written: ReadonlySet<string>): void {
  if (!fs.existsSync(outdir)) {
    return;
  }
  const found = fs.readdirSync(outdir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && KEY_MATERIAL.test(e.name))
    .map((e) => path.relative(outdir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((rel) => !written.has(rel))
    .sort();
  if (found.length > 0) {
    throw new ClusterTlsError(`${outdir}: received keys or certificates that synth did not write (${found.join(', ')}); `
      + 'expected an output folder of synthesized files only: move them out before synthesizing, or the swap would delete them');
  }
}
