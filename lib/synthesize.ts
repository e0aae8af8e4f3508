/**
 * The one place that writes files: renders an app's charts and {@link OutputFile}s, checks them,
 * and swaps them into the output folder only when everything succeeded.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiObject, App, Chart, DependencyGraph, Yaml } from 'cdk8s';
import * as YAML from 'yaml';
import { CLUSTER_KINDS } from './catalog';
import { ClusterCertificates } from './cluster-certificates';
import { ClusterTlsError } from './errors';
import * as names from './names';
import { OutputFile } from './output-file';
import {
  DrainerRecord, RECREATE_ENV, checkCommonNames, checkFixedSettings, checkSecretClaims, isDrainerValuesFile, readHistory,
} from './_guards';

/** A file of the synthesized output. */
export interface RenderedFile {
  /** Path relative to the output folder, with '/' separators. */
  readonly path: string;
  /** The content. */
  readonly content: string;
  /** Whether the file is executable. */
  readonly executable: boolean;
}

/** A manifest of the synthesized output, as JSON, with the chart it belongs to. */
export interface RenderedObject {
  /** The manifest file that holds it. */
  readonly file: string;
  /** The construct path of the object. */
  readonly source: string;
  /** The object. */
  readonly manifest: any;
}

/** Everything an app synthesizes, before anything is written. */
export interface RenderedApp {
  /** Every file, manifests first, sorted by path within each group. */
  readonly files: RenderedFile[];
  /** Every Kubernetes object of the manifests, in file order. */
  readonly objects: RenderedObject[];
}

/**
 * Renders an app without writing anything: one `<chart>.k8s.yaml` per chart, named and ordered
 * as `App.synth()` names and orders them, plus every {@link OutputFile}.
 *
 * Unlike `App.synth()`, dependency resolution and validation run once for the whole app rather
 * than once per chart, so the cost grows linearly with the number of charts; the output is the same.
 */
export function renderApp(app: App): RenderedApp {
  validateApp(app);
  const first = app.charts[0];
  if (first) {
    // Chart.toJson() resolves the dependencies of the whole app; once is enough.
    first.toJson();
  }
  const charts = app.charts;
  const indexed = charts.some((c) => c.node.dependencies.some((d) => d instanceof Chart) || c.node.children.some((d) => d instanceof Chart));
  const files: RenderedFile[] = [];
  const objects: RenderedObject[] = [];
  charts.forEach((chart, i) => {
    const name = `${indexed ? `${String(i).padStart(4, '0')}-` : ''}${names.manifestFileName(chart)}`;
    const rendered = chartObjects(chart).map((o) => ({ file: name, source: o.node.path, manifest: o.toJson() }));
    files.push({ path: name, content: Yaml.stringify(...rendered.map((r) => r.manifest)), executable: false });
    objects.push(...rendered);
  });
  checkUniqueObjects(objects);
  const certificates = app.node.findAll().filter((c): c is ClusterCertificates => c instanceof ClusterCertificates);
  checkSecretClaims(certificates.flatMap((c) => [c.caSecretName, ...c.plan().secrets.map((s) => s.name)]
    .map((name) => ({ namespace: c.namespace, name, owner: c.node.path }))));
  checkCommonNames(objects, new Map(certificates.map((c) => [`${c.namespace}/${c.clusterName}`, c.commonName])));

  const extra = app.node.findAll().filter(OutputFile.isOutputFile).map((f) => ({ path: f.path, content: f.render(), executable: f.executable, owner: f.node.path }));
  const seen = new Map<string, string>(files.map((f) => [f.path, 'a chart']));
  for (const f of extra) {
    const owner = seen.get(f.path);
    if (owner !== undefined) {
      throw new ClusterTlsError(`${f.owner}: path: received ${JSON.stringify(f.path)}; expected a file no other construct writes (${owner} writes it too)`);
    }
    seen.set(f.path, f.owner);
  }
  extra.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  files.push(...extra.map(({ owner: _owner, ...f }) => f));
  return { files, objects };
}

/** The manifest file of a chart; see {@link manifestFileName} in `names.ts`. */
export { manifestFileName } from './names';

/** The API objects of one chart (not of nested charts), in dependency order. */
function chartObjects(chart: Chart): ApiObject[] {
  return new DependencyGraph(chart.node).topology()
    .filter((x): x is ApiObject => x instanceof ApiObject && Chart.of(x) === chart);
}

/** Runs every construct's validations, reporting all failures at once, one line each. */
function validateApp(app: App): void {
  const errors = app.node.findAll().flatMap((c) => c.node.validate().map((e) => (e.startsWith(c.node.path) ? e : `${c.node.path}: ${e}`)));
  if (errors.length > 0) {
    throw new ClusterTlsError(errors.join('\n'));
  }
}

const CLUSTER_RESOURCES = new Set<string>(CLUSTER_KINDS.map((k) => k.resourceKind));

/** Two objects of the same kind, namespace and name would overwrite each other in the cluster. */
function checkUniqueObjects(objects: readonly RenderedObject[]): void {
  const seen = new Map<string, string>();
  // Cluster resources first, so that two clusters of one name are reported as such.
  const clustersFirst = [...objects].sort((a, b) => Number(!CLUSTER_RESOURCES.has(a.manifest.kind)) - Number(!CLUSTER_RESOURCES.has(b.manifest.kind)));
  for (const { file, manifest } of clustersFirst) {
    const group = String(manifest.apiVersion).split('/').slice(0, -1).join('/');
    const key = `${group}/${manifest.kind}/${manifest.metadata?.namespace ?? ''}/${manifest.metadata?.name}`;
    const other = seen.get(key);
    if (other !== undefined) {
      throw new ClusterTlsError(`${manifest.kind} "${manifest.metadata?.name}" in namespace "${manifest.metadata?.namespace ?? ''}": `
        + `received it twice (in ${other} and ${file}); expected each object once: share one construct instead of declaring it twice`);
    }
    seen.set(key, file);
  }
}

/**
 * Writes rendered files to `outdir`, replacing its previous content only when every file was
 * written: the files go to a staging folder beside it, which then takes its place. On failure the
 * previous content is left as it was.
 */
export function writeOutput(outdir: string, files: readonly RenderedFile[]): void {
  const target = path.resolve(outdir);
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const staging = fs.mkdtempSync(path.join(parent, `.${path.basename(target)}.staging-`));
  try {
    for (const file of files) {
      const dest = path.join(staging, ...file.path.split('/'));
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, file.content, { mode: file.executable ? 0o755 : 0o644 });
      fs.chmodSync(dest, file.executable ? 0o755 : 0o644);
    }
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  const previous = fs.existsSync(target) ? `${staging}.previous` : undefined;
  if (previous) {
    fs.renameSync(target, previous);
  }
  try {
    fs.renameSync(staging, target);
  } catch (e) {
    if (previous) {
      fs.renameSync(previous, target);
    }
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  if (previous) {
    fs.rmSync(previous, { recursive: true, force: true });
  }
}

/** Options of {@link synthesize}. */
export interface SynthesizeOptions {
  /**
   * The output folder.
   * @default - the app's `outdir` (`CDK8S_OUTDIR`, else `dist`)
   */
  readonly outdir?: string;
  /**
   * Deliberate re-creations that may change a setting fixed at creation: `<Kind>/<namespace>/<name>`
   * for a cluster's `tlsCluster.enabled`, `drainer/<values file>` for a drainer's name. The error
   * that refuses such a change names the entry to add.
   * @default - the comma-separated entries of the `CLUSTER_TLS_RECREATE` environment variable
   */
  readonly acknowledgeRecreation?: string[];
}

/**
 * Renders the app and writes it to the output folder. Use it instead of `app.synth()`: it also
 * writes the runbooks, chart values and configuration files of the library's constructs, and
 * leaves the output folder untouched when anything fails.
 */
export function synthesize(app: App, options: SynthesizeOptions = {}): RenderedApp {
  const outdir = options.outdir ?? app.outdir;
  const rendered = renderApp(app);
  const acknowledged = options.acknowledgeRecreation
    ?? (process.env[RECREATE_ENV] ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  checkFixedSettings(readHistory(outdir), rendered.objects, drainerRecords(rendered.files), acknowledged);
  writeOutput(outdir, rendered.files);
  return rendered;
}

/** The drainer names recorded in the rendered values files. */
function drainerRecords(files: readonly RenderedFile[]): DrainerRecord[] {
  return files.filter((f) => isDrainerValuesFile(f.path))
    .map((f) => ({ file: f.path, drainerName: YAML.parse(f.content)?.drainerName }))
    .filter((d): d is DrainerRecord => typeof d.drainerName === 'string');
}

/**
 * Builds and synthesizes an app as a command does: a user mistake ({@link ClusterTlsError}) is
 * printed as its message alone, without a stack trace, and the process exit code is set to 1.
 */
export function synthesizeOrExit(build: () => App, options: SynthesizeOptions = {}): void {
  try {
    synthesize(build(), options);
  } catch (e) {
    if (e instanceof ClusterTlsError) {
      process.stderr.write(`error: ${e.message.split('\n').join('\nerror: ')}\n`);
      process.exitCode = 1;
      return;
    }
    throw e;
  }
}
