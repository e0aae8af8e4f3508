/// <reference types="node" preserve="true" />
/**
 * The certificate plans `cluster-tls verify` checks the Secrets against: every plan of a
 * synthesized output folder, with the allowed Common Names its cluster manifests and chart values
 * configure, every path read through the output layout.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import * as YAML from 'yaml';
import { COMPONENTS, CLUSTER_KINDS, ClusterKind, ComponentToken, DeployedBy } from '../model/catalog';
import { TLS_PLAN_VERSION } from '../plan/certificate-options';
import type { TlsPlan } from '../plan/certificate-options';
import { parseDuration } from '../model/duration';
import { READ_LIMITS, UnreadableInputError, readBounded } from '../model/bounded-read';
import { Description } from '../model/errors';
import { DEFAULT_MANIFEST_EXTENSION, LAYOUT_DEPTH, filesFolderOf, fromOutputFolder, parseOutputPath, readOutputMarker, tlsPlanPath } from '../model/output-layout';
import { VerifyInputError } from './input';
import { brief, oneLine } from './text';
import { allowedCommonNameLists } from '../model/allowed-common-names';
import PLAN_SCHEMA from '../plan/tls-plan.schema.json';

/**
 * A list of Common Names that one component accepts from its peers, and where it was read.
 * @jsii ignore
 */
export interface AllowedCommonNames {
  /** The component that checks. */
  readonly component: ComponentToken;
  /** The cluster kind the component belongs to. */
  readonly cluster: ClusterKind;
  /** The configuration key (`cert-allowed-cn`, `cluster-verify-cn`, `certAllowedCN`). */
  readonly key: string;
  /** The allowed names. */
  readonly names: readonly string[];
  /** The file, relative to the output folder, and the path in it. */
  readonly source: string;
}

/**
 * A plan read from an output folder, with the allowed Common Names of its cluster.
 * @jsii ignore
 */
export interface LoadedPlan {
  /** The plan file, relative to the output folder. */
  readonly file: string;
  /** The plan. */
  readonly plan: TlsPlan;
  /** Every allowed Common Name list configured for the cluster's components in the output folder. */
  readonly allowedCommonNames: readonly AllowedCommonNames[];
}

/**
 * Reads every certificate plan (`../cluster-tls/<namespace>/<cluster>/tls-plan.json`) of a
 * synthesized output folder, whichever issuing method wrote it, with the allowed Common Names that
 * the cluster manifests of the folder (`*.k8s.yaml`, or the extension the output's marker records)
 * and the drainer chart values files beside the plans configure; every path is read through the
 * output layout, and named as a command run in the output folder names it.
 * @throws VerifyInputError when the folder holds no plan or a plan is malformed
 */
export function loadPlans(distDir: string): LoadedPlan[] {
  if (!fs.existsSync(distDir) || !fs.statSync(distDir).isDirectory()) {
    throw new VerifyInputError('--dist', 'folder', distDir, 'the folder of the synthesized output, such as dist (run npm run synth first)');
  }
  const extension = manifestExtension(distDir);
  // The plans and chart values sit in the files folder beside the output folder, named as a command
  // run in the output folder names them; only the output folder's manifests are read as manifests.
  const filesDir = filesFolderOf(distDir);
  checkFilesFolderOf(distDir, filesDir);
  const files = [
    ...listFiles(distDir, LAYOUT_DEPTH.outputFolder).map((file) => ({ file, is: parseOutputPath(file, extension) })).filter((f) => f.is?.file === 'manifest'),
    ...(fs.existsSync(filesDir) ? listFiles(filesDir, LAYOUT_DEPTH.filesFolder) : []).map((file) => ({ file: fromOutputFolder(file), is: parseOutputPath(file, extension) }))
      .filter((f) => f.is?.file !== 'manifest'),
  ];
  const planFiles = files.filter((f) => f.is?.file === 'tls-plan').map((f) => f.file);
  if (planFiles.length === 0) {
    throw new VerifyInputError('--dist', 'folder', distDir, `a synthesized output folder with at least one ${fromOutputFolder(tlsPlanPath('<namespace>', '<cluster>'))} beside it`);
  }
  const manifests = files.filter((f) => f.is?.file === 'manifest').flatMap((f) => readYamlDocuments(distDir, f.file));
  return planFiles.map((file) => {
    const plan = readPlan(distDir, file);
    const valuesFiles = files.filter(({ is }) => is?.file === 'drainer-values' && is.namespace === plan.namespace && is.clusterName === plan.clusterName);
    const values = valuesFiles.flatMap((f) => readYamlDocuments(distDir, f.file));
    return {
      file,
      plan,
      allowedCommonNames: [...allowedFromManifests(plan, manifests), ...allowedFromChartValues(values)],
    };
  });
}

/**
 * Refuses a `--dist` that is a files folder (its marker names the output folder it belongs to),
 * and a files folder beside it that another output folder's synth wrote: either would check the
 * Secrets against manifests that are not the plans'.
 */
function checkFilesFolderOf(distDir: string, filesDir: string): void {
  const owner = readOutputMarker(distDir)?.marker.outputFolder;
  if (typeof owner === 'string') {
    throw new VerifyInputError('--dist', 'folder', distDir, `the output folder that holds the manifests, such as ${path.join(path.dirname(distDir), owner)}, not the files folder beside it`);
  }
  const filesOwner = readOutputMarker(filesDir)?.marker.outputFolder;
  if (typeof filesOwner === 'string' && filesOwner !== path.basename(path.resolve(distDir))) {
    throw new VerifyInputError('--dist', 'folder', distDir,
      `an output folder whose files folder is its own; ${filesDir} holds the plans of the output folder ${filesOwner}: pass that one, or synthesize this one again`);
  }
}

/**
 * The file extension of the manifests of an output folder, as the synth that wrote it recorded in
 * its marker; `.k8s.yaml`, cdk8s's default, for a folder without one.
 */
function manifestExtension(distDir: string): string {
  const extension: unknown = readOutputMarker(distDir)?.marker.outputFileExtension;
  return typeof extension === 'string' && extension.length > 0 ? extension : DEFAULT_MANIFEST_EXTENSION;
}

/** How many entries verify lists at most, beyond which the folder is not an output folder. */
const MAX_ENTRIES = 100_000;

/** Every file below a folder to the layout's depth, relative, with '/' separators, sorted; hidden entries skipped. */
function listFiles(root: string, depth: number, rel = '', seen = { entries: 0 }): string[] {
  const out: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  } catch (e) {
    throw new VerifyInputError('--dist', 'folder', root, `a synthesized output folder verify can read (${(e as NodeJS.ErrnoException).code ?? 'unreadable'} at ${rel || '.'}): give --dist the folder synth wrote`);
  }
  seen.entries += entries.length;
  if (seen.entries > MAX_ENTRIES) {
    throw new VerifyInputError('--dist', 'folder', root, `a synthesized output folder, which holds far fewer than ${MAX_ENTRIES.toLocaleString('en-US')} entries: give --dist the folder synth wrote`);
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) {
      continue;
    }
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (depth > 1) {
        out.push(...listFiles(root, depth - 1, child, seen));
      }
    } else if (entry.isFile()) {
      out.push(child);
    }
  }
  return out;
}

/** A file of the output folder, refused in one line past its bound. */
function readOutputFile(root: string, file: string): string {
  try {
    return readBounded(path.join(root, file), READ_LIMITS.outputFile);
  } catch (e) {
    if (e instanceof UnreadableInputError) {
      throw new VerifyInputError(file, 'content', new Description(e.message), 'a file of the output folder as synth writes it');
    }
    throw e;
  }
}

interface YamlDocument {
  readonly file: string;
  readonly doc: any;
}

function readYamlDocuments(root: string, file: string): YamlDocument[] {
  const text = readOutputFile(root, file);
  // The parser refuses some documents by throwing (too many aliases, say) rather than listing an
  // error: both are named as the file's parse error, on one line.
  const parseError = (message: string) => new VerifyInputError(file, 'content', 'YAML that does not parse', `valid YAML; the parser said: ${oneLine(message.split('\n')[0])}`);
  try {
    const docs = YAML.parseAllDocuments(text);
    const bad = docs.find((d) => d.errors.length > 0);
    if (bad) {
      throw parseError(bad.errors[0].message);
    }
    return docs.map((d) => ({ file, doc: d.toJSON() }));
  } catch (e) {
    throw e instanceof VerifyInputError ? e : parseError((e as Error).message);
  }
}

/**
 * The plan schema, compiled on first use: compiling takes tens of milliseconds, which every synth
 * would pay for nothing, since the library's index loads this module.
 */
let planValidator: ValidateFunction<TlsPlan> | undefined;

/** Throws, with the first failure ajv reports and the schema's wording, unless `plan` is a valid plan. */
function checkPlanSchema(file: string, plan: unknown): asserts plan is TlsPlan {
  planValidator ??= new Ajv({ allErrors: false, verbose: true, strict: true }).compile<TlsPlan>(PLAN_SCHEMA);
  if (!planValidator(plan)) {
    throw planSchemaError(file, plan, planValidator.errors![0]);
  }
}

/**
 * Reads a certificate plan: its `version` first, so that a plan from another version of the
 * library is refused as such, then the whole plan against `tls-plan.schema.json`. A failure is one
 * line naming the field, the value and the schema's description of what is expected.
 */
function readPlan(root: string, file: string): TlsPlan {
  const text = readOutputFile(root, file);
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch (e) {
    throw new VerifyInputError(file, 'content', 'text that is not JSON', `the certificate plan as synth writes it; the JSON parser said: ${oneLine((e as Error).message)}`);
  }
  if (plan === null || typeof plan !== 'object' || Array.isArray(plan)) {
    throw new VerifyInputError(file, 'content', brief(plan), 'a certificate plan object');
  }
  const version = (plan as { version?: unknown }).version;
  if (version !== TLS_PLAN_VERSION) {
    throw new VerifyInputError(file, 'version', brief(version),
      `${TLS_PLAN_VERSION}, the plan version this cluster-tls reads; run the cluster-tls of the cdk8s-cluster-tls version that synthesized the plan, or synthesize again`);
  }
  checkPlanSchema(file, plan);
  if ((plan.ca === undefined) === (plan.issuer === undefined)) {
    throw new VerifyInputError(file, plan.ca === undefined ? 'ca' : 'issuer', plan.ca === undefined ? undefined : brief(plan.issuer),
      plan.ca === undefined ? PLAN_SCHEMA.properties.ca.description : 'no issuer beside ca: either the library\'s CA signs the certificates, or an issuer of the user\'s');
  }
  for (const [field, value] of [['ca.duration', plan.ca?.duration], ['ca.renewBefore', plan.ca?.renewBefore],
    ['duration', plan.duration], ['renewBefore', plan.renewBefore]] as const) {
    if (value === undefined) {
      continue;
    }
    if (!((parseDuration(value) ?? 0) > 0)) {
      throw new VerifyInputError(file, field, value, PLAN_SCHEMA.definitions.duration.description);
    }
  }
  return plan;
}

/** The one-line error for a schema failure: the field as a path, its value, the schema's description. */
function planSchemaError(file: string, plan: unknown, error: ErrorObject): VerifyInputError {
  const keys = error.instancePath.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const field = (extra?: string) => [...keys, ...(extra === undefined ? [] : [extra])]
    .map((k, i) => (/^\d+$/.test(k) ? `[${k}]` : i === 0 ? k : `.${k}`)).join('') || 'content';
  const described = (schema: any): string | undefined => schema?.description ?? (schema?.$ref ? refDescription(schema.$ref) : undefined);
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return new VerifyInputError(file, field(missing), undefined, described((error.parentSchema as any)?.properties?.[missing]) ?? 'the field');
    }
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return new VerifyInputError(file, field(extra), brief(at(plan, [...keys, extra])),
        `no such field in a version-${TLS_PLAN_VERSION} plan (tls-plan.schema.json lists the fields)`);
    }
    default:
      return new VerifyInputError(file, field(), brief(error.data), described(error.parentSchema) ?? error.message ?? 'what tls-plan.schema.json describes');
  }
}

/** The description of a schema the plan's schema refers to (`#/definitions/<name>`). */
function refDescription(ref: string): string | undefined {
  const name = ref.replace('#/definitions/', '') as keyof typeof PLAN_SCHEMA.definitions;
  return PLAN_SCHEMA.definitions[name]?.description;
}

function at(obj: any, keys: readonly string[]): unknown {
  return keys.reduce((node, key) => (node !== null && typeof node === 'object' ? node[key] : undefined), obj);
}

function asNames(value: unknown): string[] | undefined {
  if (typeof value === 'string') {
    return [value];
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return value;
  }
  return undefined;
}

/** Allowed Common Names of the operator-deployed components, from the plan's cluster resources. */
function allowedFromManifests(plan: TlsPlan, docs: readonly YamlDocument[]): AllowedCommonNames[] {
  const out: AllowedCommonNames[] = [];
  for (const { file, doc } of docs) {
    const kind = CLUSTER_KINDS.find((k) => k.resourceKind === doc?.kind);
    if (!kind || doc.metadata?.name !== plan.clusterName || (doc.metadata?.namespace ?? plan.namespace) !== plan.namespace) {
      continue;
    }
    for (const { entry, key, path: keys, value } of allowedCommonNameLists(doc)) {
      const allowed = asNames(value);
      if (allowed) {
        out.push({ component: entry.token, cluster: entry.cluster, key, names: allowed, source: `${file} ${kind.resourceKind} ${keys.join('.')}` });
      }
    }
  }
  return out;
}

/** Allowed Common Names of the chart-deployed components (the drainer), from chart values files. */
function allowedFromChartValues(docs: readonly YamlDocument[]): AllowedCommonNames[] {
  const out: AllowedCommonNames[] = [];
  for (const { file, doc } of docs) {
    for (const entry of COMPONENTS) {
      if (entry.deployment !== DeployedBy.CHART || !entry.commonNameCheck) {
        continue;
      }
      const allowed = asNames(at(doc, entry.commonNameCheck.path));
      if (allowed) {
        out.push({ component: entry.token, cluster: entry.cluster, key: entry.commonNameCheck.key, names: allowed, source: `${file} ${entry.commonNameCheck.path.join('.')}` });
      }
    }
  }
  return out;
}
