/**
 * Rules of the specification checked over the whole rendered app, before anything is written:
 * what no single construct can see (two constructs claiming one Secret, an allow-list changed
 * through an escape hatch) and what the committed output already fixed (settings that cannot
 * change once a cluster exists).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { CLUSTER_KINDS } from './catalog';
import { allowedCommonNameLists } from './_allowed-common-names';
import { ClusterTlsError, describeValue } from './errors';
import * as names from './names';

/** An object of the rendered output, with the construct that made it. */
export interface GuardedObject {
  /** The manifest file that holds it. */
  readonly file: string;
  /** The construct path of the object, or the file it was read from. */
  readonly source: string;
  /** The object, as JSON. */
  readonly manifest: any;
}

/** A Secret that a construct issues or requires. */
export interface SecretClaim {
  readonly namespace: string;
  readonly name: string;
  /** The construct path of the claimant. */
  readonly owner: string;
}

/** A drainer release and its effective name, as its values file records them. */
export interface DrainerRecord {
  /** The values file, relative to the output folder. */
  readonly file: string;
  /** The effective `drainerName`. */
  readonly drainerName: string;
}

/** Environment variable that acknowledges deliberate re-creations for `npm run synth`. */
export const RECREATE_ENV = 'CLUSTER_TLS_RECREATE';

const CLUSTER_RESOURCE_KINDS = new Set<string>(CLUSTER_KINDS.map((k) => k.resourceKind));

/** Refuses two constructs that claim the same Secret in one namespace. */
export function checkSecretClaims(claims: readonly SecretClaim[]): void {
  const seen = new Map<string, string>();
  for (const claim of claims) {
    const key = `${claim.namespace}/${claim.name}`;
    const first = seen.get(key);
    if (first !== undefined && first !== claim.owner) {
      throw new ClusterTlsError(`${claim.owner}: Secret "${claim.name}" in namespace "${claim.namespace}": received a second claim (${first} claims it too); `
        + 'expected each Secret issued by one construct: pass the same ClusterCertificates to every cluster of that name');
    }
    seen.set(key, claim.owner);
  }
}

/**
 * Checks the allowed Common Name lists of every cluster resource against the Common Name of its
 * certificates: each list holds it, and the single-value lists (coordinator, migration master)
 * hold exactly it.
 */
export function checkCommonNames(objects: readonly GuardedObject[], commonNames: ReadonlyMap<string, string>): void {
  for (const { source, manifest } of objects) {
    if (!CLUSTER_RESOURCE_KINDS.has(manifest.kind)) {
      continue;
    }
    const cn = commonNames.get(`${manifest.metadata?.namespace}/${manifest.metadata?.name}`);
    if (cn === undefined) {
      continue;
    }
    for (const { entry, path: at, value: list, optional } of allowedCommonNameLists(manifest)) {
      const field = at.join('.');
      if (optional && list === undefined) {
        continue;
      }
      if (entry.commonNameCheck!.singleValue && !(Array.isArray(list) && list.length === 1 && list[0] === cn)) {
        throw new ClusterTlsError(`${source}: ${field}: received ${describeValue(list)}; expected exactly ["${cn}"], the certificates' Common Name (only one value is allowed)`);
      }
      if (!Array.isArray(list) || !list.includes(cn)) {
        throw new ClusterTlsError(`${source}: ${field}: received ${describeValue(list)}; expected a list that holds "${cn}", the certificates' Common Name`);
      }
    }
  }
}

/** What the committed output says about settings that are fixed at creation. */
export interface History {
  readonly clusters: readonly GuardedObject[];
  readonly drainers: readonly DrainerRecord[];
}

/** A manifest file about to be written: its content and the objects it holds, in order. */
export interface RenderedManifestFile {
  readonly content: string;
  readonly manifests: readonly any[];
}

/**
 * Reads the cluster resources and drainer values of an earlier output; empty when there is none.
 * `rendered` holds the manifest files about to be written, by path: a committed manifest file
 * with exactly the same content holds exactly those objects, so it is not parsed again.
 */
export function readHistory(outdir: string, rendered: ReadonlyMap<string, RenderedManifestFile> = new Map()): History {
  if (!fs.existsSync(outdir)) {
    return { clusters: [], drainers: [] };
  }
  const clusters: GuardedObject[] = [];
  const drainers: DrainerRecord[] = [];
  const files = fs.readdirSync(outdir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  for (const entry of files) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(outdir, full).split(path.sep).join('/');
    if (rel.endsWith('.k8s.yaml')) {
      const same = rendered.get(rel);
      const manifests = same !== undefined && same.content === fs.readFileSync(full, 'utf8') ? same.manifests : parseAll(full, rel);
      for (const manifest of manifests) {
        if (CLUSTER_RESOURCE_KINDS.has(manifest?.kind)) {
          clusters.push({ file: rel, source: `${outdir}/${rel}`, manifest });
        }
      }
    } else if (isDrainerValuesFile(rel)) {
      const record = drainerRecord(rel, parseAll(full, rel)[0]);
      if (record) {
        drainers.push(record);
      }
    }
  }
  return { clusters, drainers };
}

const DRAINER_VALUES = /^[^/]+\/[^/]+\/drainer-([^/]+)-values\.yaml$/;

/** Whether an output path is a drainer values file (`<namespace>/<cluster>/drainer-<release>-values.yaml`). */
export function isDrainerValuesFile(rel: string): boolean {
  return DRAINER_VALUES.test(rel);
}

/**
 * The effective drainer name a values file records: its `drainerName`, or the chart's default
 * `${cluster_name}-${release_name}-drainer` from its `clusterName` and the release in its file name.
 */
export function drainerRecord(rel: string, values: any): DrainerRecord | undefined {
  const release = DRAINER_VALUES.exec(rel)?.[1];
  if (typeof values?.drainerName === 'string') {
    return { file: rel, drainerName: values.drainerName };
  }
  if (release !== undefined && typeof values?.clusterName === 'string') {
    return { file: rel, drainerName: names.drainerName(values.clusterName, release) };
  }
  return undefined;
}

function parseAll(file: string, rel: string): any[] {
  try {
    return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => {
      if (d.errors.length > 0) {
        throw d.errors[0];
      }
      return d.toJSON();
    });
  } catch (e) {
    throw new ClusterTlsError(`${rel}: the committed output: received a file that is not valid YAML (${(e as Error).message.split('\n')[0]}); `
      + 'expected the output of an earlier synth: restore it from version control');
  }
}

/**
 * Refuses to change a setting fixed at creation relative to the committed output:
 * `spec.tlsCluster.enabled` of either cluster kind and a drainer's name. `acknowledged` lists the
 * deliberate re-creations (`<Kind>/<namespace>/<name>`, or `drainer/<values file>`).
 */
export function checkFixedSettings(history: History, objects: readonly GuardedObject[], drainers: readonly DrainerRecord[],
  acknowledged: readonly string[]): void {
  const ack = new Set(acknowledged);
  const before = new Map(history.clusters.map((c) => [clusterKey(c.manifest), c]));
  for (const now of objects) {
    if (!CLUSTER_RESOURCE_KINDS.has(now.manifest.kind)) {
      continue;
    }
    const key = clusterKey(now.manifest);
    const old = before.get(key);
    if (!old || ack.has(key)) {
      continue;
    }
    const was = old.manifest.spec?.tlsCluster?.enabled;
    const is = now.manifest.spec?.tlsCluster?.enabled;
    if (was !== is) {
      throw new ClusterTlsError(`${now.source}: ${now.manifest.kind} "${now.manifest.metadata.name}" tlsCluster.enabled: received ${describeValue(is)}; `
        + `expected ${describeValue(was)} as in the committed ${old.file}: the setting is fixed at creation and changing it makes the cluster fail to upgrade; `
        + `to re-create the cluster deliberately, set ${RECREATE_ENV}=${key}`);
    }
  }
  const drainersBefore = new Map(history.drainers.map((d) => [d.file, d]));
  for (const now of drainers) {
    const old = drainersBefore.get(now.file);
    const key = `drainer/${now.file}`;
    if (old && old.drainerName !== now.drainerName && !ack.has(key)) {
      throw new ClusterTlsError(`${now.file}: drainerName: received ${describeValue(now.drainerName)}; expected ${describeValue(old.drainerName)} as in the committed output: `
        + `renaming a running drainer is unsupported; to re-create the drainer deliberately, set ${RECREATE_ENV}=${key}`);
    }
  }
}

function clusterKey(manifest: any): string {
  return `${manifest.kind}/${manifest.metadata?.namespace ?? ''}/${manifest.metadata?.name}`;
}

/** Files that hold keys or certificates: the issuing script's, never the synth's. */
const KEY_MATERIAL = /\.(pem|key|csr|crt|p12|pfx)$/;

/**
 * Refuses to replace an output folder that holds keys or certificates synth did not write (the
 * cfssl script run in place, say): the swap would delete them, and with them a running cluster's
 * CA. Lists them all in one line.
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
