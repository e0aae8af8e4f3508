/**
 * The one place that writes files: renders an app's charts and {@link OutputFile}s, checks them,
 * and swaps them into the output folder only when everything succeeded.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiObject, App, Chart, DependencyGraph, Yaml } from 'cdk8s';
import { IConstruct } from 'constructs';
import * as YAML from 'yaml';
import { CLUSTER_KINDS } from './catalog';
import { ClusterCertificates } from './cluster-certificates';
import { ClusterTlsError } from './errors';
import * as names from './names';
import { OutputFile } from './output-file';
import {
  DrainerRecord, GuardedObject, RECREATE_ENV, RenderedManifestFile, checkCommonNames, checkNoKeyMaterial, checkFixedSettings, checkSecretClaims, drainerRecord, isDrainerValuesFile,
  readHistory,
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

/** A manifest of the synthesized output, as JSON, with its file and the construct that made it. */
export type RenderedObject = GuardedObject;

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
 * than once per chart, and each chart's objects are ordered by a graph of that chart alone, so
 * the cost grows linearly with the number of charts; the output is the same.
 */
export function renderApp(app: App): RenderedApp {
  const before = app.node.findAll();
  validateApp(before);
  const anyChart = before.find((c): c is Chart => c instanceof Chart);
  if (anyChart) {
    // Chart.toJson() resolves the dependencies of the whole app (and validates it); once is enough.
    anyChart.toJson();
  }
  const constructs = app.node.findAll();
  const order = chartOrder(constructs);
  const charts = order ?? app.charts;
  const indexed = order === undefined
    && charts.some((c) => c.node.dependencies.some((d) => d instanceof Chart) || c.node.children.some((d) => d instanceof Chart));
  const files: RenderedFile[] = [];
  const objects: RenderedObject[] = [];
  const subtrees = subtreesOf(constructs);
  charts.forEach((chart, i) => {
    const name = `${indexed ? `${String(i).padStart(4, '0')}-` : ''}${names.manifestFileName(chart)}`;
    const rendered = chartObjects(chart, subtrees.get(chart)).map((o) => ({ file: name, source: o.node.path, manifest: o.toJson() }));
    files.push({ path: name, content: Yaml.stringify(...rendered.map((r) => r.manifest)), executable: false });
    for (const r of rendered) {
      objects.push(r);
    }
  });
  checkUniqueObjects(objects);
  const certificates: ClusterCertificates[] = [];
  const outputFiles: OutputFile[] = [];
  for (const c of constructs) {
    if (c instanceof ClusterCertificates) {
      certificates.push(c);
    }
    if (OutputFile.isOutputFile(c)) {
      outputFiles.push(c);
    }
  }
  checkSecretClaims(certificates.flatMap((c) => [c.caSecretName, ...c.plan().secrets.map((s) => s.name)]
    .map((name) => ({ namespace: c.namespace, name, owner: c.node.path }))));
  checkCommonNames(objects, new Map(certificates.map((c) => [`${c.namespace}/${c.clusterName}`, c.commonName])));

  const extra = outputFiles.map((f) => ({ path: f.path, content: f.render(), executable: f.executable, owner: f.node.path }));
  const seen = new Map<string, string>(files.map((f) => [f.path, 'a chart']));
  for (const f of extra) {
    const owner = seen.get(f.path);
    if (owner !== undefined) {
      throw new ClusterTlsError(`${f.owner}: path: received ${JSON.stringify(f.path)}; expected a file no other construct writes (${owner} writes it too)`);
    }
    seen.set(f.path, f.owner);
  }
  extra.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const { owner: _owner, ...f } of extra) {
    files.push(f);
  }
  return { files, objects };
}

/** The manifest file of a chart; see {@link manifestFileName} in `names.ts`. */
export { manifestFileName } from './names';

/** Whether a construct path would be ordered as an array index among an object's keys. */
const INDEX_LIKE = /^\d+$/;

/**
 * The charts in the order `App.charts` returns them, without building the app's dependency graph,
 * when that order is plain: no chart depends on anything or is depended on (so none is nested in
 * another, which makes a dependency) and no chart's path looks like a number. Then `App.charts`
 * lists the charts in construct-tree order. `undefined` otherwise: ask `App.charts`.
 * `constructs` is the app's tree in pre-order, after dependency resolution.
 */
function chartOrder(constructs: readonly IConstruct[]): Chart[] | undefined {
  const charts: Chart[] = [];
  for (const c of constructs) {
    const isChart = c instanceof Chart;
    if (isChart) {
      if (INDEX_LIKE.test(c.node.path)) {
        return undefined;
      }
      charts.push(c);
    }
    for (const d of c.node.dependencies) {
      if (isChart || d instanceof Chart) {
        return undefined;
      }
    }
  }
  return charts;
}

/**
 * Each chart's subtree, as `chart.node.findAll()` lists it, cut from the app's pre-order list, in
 * which a subtree is the chart followed by every construct whose path continues the chart's.
 */
function subtreesOf(constructs: readonly IConstruct[]): Map<IConstruct, IConstruct[]> {
  const subtrees = new Map<IConstruct, IConstruct[]>();
  constructs.forEach((c, start) => {
    if (c instanceof Chart) {
      const prefix = `${c.node.path}/`;
      let end = start + 1;
      while (end < constructs.length && constructs[end].node.path.startsWith(prefix)) {
        end++;
      }
      subtrees.set(c, constructs.slice(start, end));
    }
  });
  return subtrees;
}

/** The API objects of one chart (not of nested charts), in dependency order. */
function chartObjects(chart: Chart, subtree?: readonly IConstruct[]): ApiObject[] {
  return (topology(chart, subtree) ?? new DependencyGraph(chart.node).topology())
    .filter((x): x is ApiObject => x instanceof ApiObject && Chart.of(x) === chart);
}

/**
 * The constructs of a subtree (`vertices`, in pre-order) in the order that
 * `new DependencyGraph(scope.node).topology()` gives, computed in time linear in the subtree:
 * an edge for each dependency inside the subtree, and a depth-first walk from the vertices nothing
 * depends on, in tree order, that lists each construct after its dependencies. `undefined` when
 * the graph has a cycle, or when the scope's path looks like a number (the graph keys vertices by
 * path, which puts such a key first): `DependencyGraph` then reports the cycle or orders it.
 */
function topology(scope: IConstruct, vertices: readonly IConstruct[] = scope.node.findAll()): IConstruct[] | undefined {
  if (INDEX_LIKE.test(scope.node.path)) {
    return undefined;
  }
  const index = new Map<IConstruct, number>();
  vertices.forEach((v, i) => index.set(v, i));
  const edges: (number[] | undefined)[] = new Array(vertices.length);
  const dependedOn = new Uint8Array(vertices.length);
  vertices.forEach((v, i) => {
    for (const d of v.node.dependencies) {
      const j = index.get(d);
      if (j === undefined) {
        continue;
      }
      const out = edges[i] ?? (edges[i] = []);
      if (!out.includes(j)) {
        out.push(j);
        dependedOn[j] = 1;
      }
    }
  });
  const IN_PROGRESS = 1;
  const DONE = 2;
  const state = new Uint8Array(vertices.length);
  const order: IConstruct[] = [];
  const visit = (i: number): boolean => {
    state[i] = IN_PROGRESS;
    for (const j of edges[i] ?? []) {
      if (state[j] === IN_PROGRESS || (state[j] !== DONE && !visit(j))) {
        return false;
      }
    }
    state[i] = DONE;
    order.push(vertices[i]);
    return true;
  };
  for (let i = 0; i < vertices.length; i++) {
    if (!dependedOn[i] && !visit(i)) {
      return undefined;
    }
  }
  // A vertex that no walk reached sits on a cycle.
  return order.length === vertices.length ? order : undefined;
}

/** Runs every construct's validations, reporting all failures at once, one line each. */
function validateApp(constructs: readonly IConstruct[]): void {
  const errors = constructs.flatMap((c) => c.node.validate().map((e) => (e.startsWith(c.node.path) ? e : `${c.node.path}: ${e}`)));
  if (errors.length > 0) {
    throw new ClusterTlsError(errors.join('\n'));
  }
}

const CLUSTER_RESOURCES = new Set<string>(CLUSTER_KINDS.map((k) => k.resourceKind));

/** Two objects of the same kind, namespace and name would overwrite each other in the cluster. */
function checkUniqueObjects(objects: readonly RenderedObject[]): void {
  const seen = new Map<string, string>();
  // Cluster resources first, so that two clusters of one name are reported as such.
  const isCluster = (o: RenderedObject) => CLUSTER_RESOURCES.has(o.manifest.kind);
  const clustersFirst = [...objects.filter(isCluster), ...objects.filter((o) => !isCluster(o))];
  for (const { file, source, manifest } of clustersFirst) {
    const apiVersion = String(manifest.apiVersion);
    const group = apiVersion.slice(0, Math.max(apiVersion.lastIndexOf('/'), 0));
    const key = `${group}/${manifest.kind}/${manifest.metadata?.namespace ?? ''}/${manifest.metadata?.name}`;
    const other = seen.get(key);
    if (other !== undefined) {
      throw new ClusterTlsError(`${source}: ${manifest.kind} "${manifest.metadata?.name}" in namespace "${manifest.metadata?.namespace ?? ''}": `
        + `received it twice (${other} declares it too); expected each object once: share one construct instead of declaring it twice`);
    }
    seen.set(key, `${source} in ${file}`);
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
  const folders = new Set<string>([staging]);
  try {
    for (const file of files) {
      const dest = path.join(staging, ...file.path.split('/'));
      const folder = path.dirname(dest);
      if (!folders.has(folder)) {
        fs.mkdirSync(folder, { recursive: true });
        folders.add(folder);
      }
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
  const history = readHistory(outdir, manifestFiles(rendered));
  // Only a drainer the committed output records can have been renamed: read just those values files.
  const recorded = new Set(history.drainers.map((d) => d.file));
  checkFixedSettings(history, rendered.objects, drainerRecords(rendered.files.filter((f) => recorded.has(f.path))), acknowledged);
  checkNoKeyMaterial(outdir, new Set(rendered.files.map((f) => f.path)));
  writeOutput(outdir, rendered.files);
  return rendered;
}

/**
 * The rendered manifest files with the objects each holds, for {@link readHistory}. A path written
 * twice (two charts of one file name) is left out, so that its committed version is read as it is.
 */
function manifestFiles(rendered: RenderedApp): Map<string, RenderedManifestFile> {
  const contents = new Map<string, string>();
  const twice = new Set<string>();
  for (const f of rendered.files) {
    if (contents.has(f.path)) {
      twice.add(f.path);
    }
    contents.set(f.path, f.content);
  }
  const result = new Map<string, { content: string; manifests: any[] }>();
  for (const o of rendered.objects) {
    if (twice.has(o.file)) {
      continue;
    }
    let entry = result.get(o.file);
    if (entry === undefined) {
      entry = { content: contents.get(o.file)!, manifests: [] };
      result.set(o.file, entry);
    }
    entry.manifests.push(o.manifest);
  }
  return result;
}

/** The drainer names recorded in the rendered values files. */
function drainerRecords(files: readonly RenderedFile[]): DrainerRecord[] {
  return files.filter((f) => isDrainerValuesFile(f.path))
    .map((f) => drainerRecord(f.path, YAML.parse(f.content)))
    .filter((d): d is DrainerRecord => d !== undefined);
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
