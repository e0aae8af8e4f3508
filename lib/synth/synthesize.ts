/**
 * The one place that writes files: renders an app's charts and {@link OutputFile}s, checks them,
 * and swaps them into the output folder only when everything succeeded.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiObject, App, Chart, DependencyGraph, Names, YamlOutputType } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CLUSTER_RESOURCE_KINDS } from '../spec/catalog';
import { ClusterTlsError, inputErrorMessage } from '../spec/errors';
import * as layout from '../spec/output-layout';
import { stringifyManifests } from '../yaml/emitter';
import { OutputFile } from './output-file';
import { registeredDrainers } from './app-rules';
import {
  RECREATE_ENV, VERIFY_REPORT_ENV, checkFixedSettings, checkRotations, readVerifyReport, checkNoKeyMaterial, clusterKey, fixedSettings, readRecord, writeRecord,
} from './guards';

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
export interface RenderedObject {
  /** The manifest file that holds it. */
  readonly file: string;
  /** The construct path of the object. */
  readonly source: string;
  /** The object, as JSON. */
  readonly manifest: any;
}

/** Everything an app synthesizes, before anything is written. */
export interface RenderedApp {
  /**
   * Every file: first the ones stock cdk8s writes too (the manifests, in the app's
   * `yamlOutputType` and `outputFileExtension`, and `construct-metadata.json` when the app records
   * construct metadata), then the library's, sorted by path.
   */
  readonly files: RenderedFile[];
  /** How many of the first {@link files} stock cdk8s writes too. */
  readonly manifestFiles: number;
  /** Every Kubernetes object of the manifests, in file order. */
  readonly objects: RenderedObject[];
}

/** The characters stock cdk8s leaves out of the file name of one resource (`<kind>.<name>`). */
const FILE_PER_RESOURCE_NAME = /[^0-9a-zA-Z-_.]/g;

/**
 * Renders an app without writing anything: the manifests, named, laid out and ordered as
 * `App.synth()` writes them for the app's `yamlOutputType`, `outputFileExtension` and
 * `recordConstructMetadata`, plus every {@link OutputFile}. Everything is held in memory at once;
 * {@link synthesize} writes the same files one at a time instead.
 *
 * Unlike `App.synth()`, dependency resolution and validation run once for the whole app rather
 * than once per chart, and each chart's objects are ordered by a graph of that chart alone, so
 * the cost grows linearly with the number of charts; the output is the same.
 */
export function renderApp(app: App): RenderedApp {
  const plan = planOutput(app);
  const files: RenderedFile[] = [];
  const objects: RenderedObject[] = [];
  for (const file of plan.files) {
    const rendered = file.render();
    files.push({ path: file.path, content: rendered.content, executable: file.executable });
    objects.push(...rendered.objects);
  }
  return { files, manifestFiles: plan.manifestFiles, objects };
}

/** A file of the output, laid out (its path is known) but not yet rendered. */
interface PlannedFile {
  /** Path relative to the output folder, with '/' separators. */
  readonly path: string;
  /** Whether the file is executable. */
  readonly executable: boolean;
  /** Renders the file: its content, and the Kubernetes objects it holds (none but in a manifest). */
  render(): { readonly content: string; readonly objects: RenderedObject[] };
}

/** An app's output, laid out and checked, each file rendered only when asked for. */
interface OutputPlan {
  /** Every file, in the order of {@link RenderedApp.files}. */
  readonly files: PlannedFile[];
  /** How many of the first {@link files} stock cdk8s writes too. */
  readonly manifestFiles: number;
  /** The API objects of the manifests, in file order. */
  readonly apiObjects: ApiObject[];
  /**
   * Renders an object ahead of its file, for a check that reads it; its file then writes this
   * rendering rather than making another.
   */
  renderAhead(object: ApiObject): any;
}

/**
 * Validates the app, resolves its dependencies and lays out its output: every path, checked to be
 * written once, with nothing rendered yet, so that a writer can render and write one file at a
 * time and hold none of them afterwards.
 */
function planOutput(app: App): OutputPlan {
  resolveAndValidate(app);
  const constructs = app.node.findAll();
  const order = chartOrder(constructs);
  const charts = order ?? app.charts;
  const indexed = order === undefined
    && charts.some((c) => c.node.dependencies.some((d) => d instanceof Chart) || c.node.children.some((d) => d instanceof Chart));
  const subtrees = subtreesOf(constructs);
  const laidOut = charts.map((chart) => ({ chart, objects: chartObjects(chart, subtrees.get(chart)) }));
  const ahead = new Map<ApiObject, any>();
  const manifestOf = (o: ApiObject) => {
    const manifest = ahead.get(o);
    if (manifest === undefined) {
      return o.toJson();
    }
    ahead.delete(o);
    return manifest;
  };
  const files = layOut(app, laidOut, indexed, manifestOf);
  const apiObjects = laidOut.flatMap((c) => c.objects);
  // A private field of App (its prop, else CDK8S_RECORD_CONSTRUCT_METADATA): cdk8s is pinned to the
  // minor version whose output the equivalence test proves.
  if ((app as unknown as { recordConstructMetadata?: boolean }).recordConstructMetadata === true) {
    files.push(constructMetadata(apiObjects));
  }
  const manifestFiles = files.length;

  const extra = constructs.filter(OutputFile.isOutputFile);
  const seen = new Map<string, string>();
  const owned = [
    ...files.map((f) => ({ path: f.path, owner: 'stock cdk8s\'s layout of the manifests' })),
    ...extra.map((f) => ({ path: f.path, owner: f.node.path })),
  ];
  for (const f of owned) {
    const owner = seen.get(f.path);
    if (owner !== undefined) {
      throw new ClusterTlsError(`${f.owner}: path: received ${JSON.stringify(f.path)}; expected a file nothing else writes (${owner} writes it too)`);
    }
    seen.set(f.path, f.owner);
  }
  extra.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of extra) {
    files.push({ path: f.path, executable: f.executable, render: () => ({ content: f.render(), objects: [] }) });
  }
  const renderAhead = (o: ApiObject) => {
    const manifest = o.toJson();
    ahead.set(o, manifest);
    return manifest;
  };
  return { files, manifestFiles, apiObjects, renderAhead };
}

/** One chart's API objects, in the order stock cdk8s writes them. */
interface ChartObjects {
  readonly chart: Chart;
  readonly objects: ApiObject[];
}

/**
 * The manifest files of an app, as `App.synth()` lays them out for the app's `yamlOutputType`.
 * Where stock cdk8s would write two files at one path, the second silently replacing the first,
 * this refuses with one line instead. `manifestOf` renders an object, when its file is rendered.
 */
function layOut(app: App, charts: readonly ChartObjects[], indexed: boolean, manifestOf: (o: ApiObject) => any): PlannedFile[] {
  const ext = app.outputFileExtension;
  if (typeof ext !== 'string' || !/^\.[A-Za-z0-9][A-Za-z0-9._-]*$/.test(ext)) {
    throw new ClusterTlsError(inputErrorMessage('app', 'outputFileExtension', ext, 'a file extension that starts with a dot, such as ".k8s.yaml" or ".yaml", without \'/\''));
  }
  /** One manifest file: its objects as JSON, made when the file is rendered. */
  type Group = { path: string; owner: string; items: () => { source: string; manifest: any }[] };
  const groups: Group[] = [];
  const json = (objects: readonly ApiObject[]) => objects.map((o) => ({ source: o.node.path, manifest: manifestOf(o) }));
  const prefix = (i: number) => (indexed ? `${String(i).padStart(4, '0')}-` : '');
  const resourceFile = (kind: string, name: string) => `${kind}.${name}`.replace(FILE_PER_RESOURCE_NAME, '') + ext;
  switch (app.yamlOutputType) {
    case YamlOutputType.FILE_PER_APP:
      if (charts.length > 0) {
        groups.push({ path: `app${ext}`, owner: 'the app', items: () => charts.flatMap((c) => json(c.objects)) });
      }
      break;
    case YamlOutputType.FILE_PER_CHART:
      charts.forEach(({ chart, objects }, i) => groups.push({ path: `${prefix(i)}${layout.manifestFileName(chart)}`, owner: chart.node.path, items: () => json(objects) }));
      break;
    case YamlOutputType.FILE_PER_RESOURCE:
      // Named after the rendered object (escape hatches applied), as stock cdk8s names them.
      for (const item of charts.flatMap((c) => json(c.objects))) {
        groups.push({ path: resourceFile(item.manifest.kind, item.manifest.metadata.name), owner: item.source, items: () => [item] });
      }
      break;
    case YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE:
      charts.forEach(({ chart, objects }, i) => {
        const folder = `${prefix(i)}${Names.toDnsLabel(chart)}`;
        for (const o of objects) {
          groups.push({ path: `${folder}/${resourceFile(o.kind, o.metadata.name!)}`, owner: o.node.path, items: () => json([o]) });
        }
      });
      break;
    default:
      throw new ClusterTlsError(inputErrorMessage('app', 'yamlOutputType', app.yamlOutputType, `one of cdk8s's YamlOutputType values (${Object.keys(YamlOutputType).filter((k) => Number.isNaN(Number(k))).join(', ')})`));
  }
  const seen = new Map<string, string>();
  for (const g of groups) {
    const other = seen.get(g.path);
    if (other !== undefined) {
      throw new ClusterTlsError(`${g.owner}: manifest file: received ${JSON.stringify(g.path)} a second time (${other} is written there too, and stock cdk8s would `
        + 'keep only the last); expected one file per path: give the charts or objects distinct names, or choose another yamlOutputType');
    }
    seen.set(g.path, g.owner);
  }
  return groups.map((g) => ({
    path: g.path,
    executable: false,
    render: () => {
      const items = g.items();
      return { content: stringifyManifests(items.map((i) => i.manifest)), objects: items.map((i) => ({ file: g.path, ...i })) };
    },
  }));
}

/** `construct-metadata.json`, as `App.synth()` writes it when the app records construct metadata. */
function constructMetadata(objects: readonly ApiObject[]): PlannedFile {
  const render = () => {
    const resources: Record<string, { path: string }> = {};
    for (const o of objects) {
      resources[o.name] = { path: o.node.path };
    }
    return { content: JSON.stringify({ version: '1.0.0', resources }), objects: [] };
  };
  return { path: layout.CONSTRUCT_METADATA_FILE, executable: false, render };
}

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

/**
 * Resolves the dependencies of the whole app and runs every construct's validations, once each.
 * `Chart.toJson()` of any chart does both for the whole app (stock cdk8s offers no other way to
 * resolve them); when a validation fails, they run again to report the failures as the library
 * does, one line each.
 */
function resolveAndValidate(app: App): void {
  const chart = firstChart(app);
  if (chart === undefined) {
    validateApp(app.node.findAll());
    return;
  }
  try {
    chart.toJson();
  } catch (e) {
    validateApp(app.node.findAll());
    throw e;
  }
}

/** The first chart of a construct tree in pre-order, found without walking the rest of the tree. */
function firstChart(scope: IConstruct): Chart | undefined {
  for (const child of scope.node.children) {
    const found = child instanceof Chart ? child : firstChart(child);
    if (found) {
      return found;
    }
  }
  return undefined;
}

/** Runs every construct's validations, reporting all failures at once, one line each. */
function validateApp(constructs: readonly IConstruct[]): void {
  const errors = constructs.flatMap((c) => c.node.validate().map((e) => (e.startsWith(c.node.path) ? e : `${c.node.path}: ${e}`)));
  if (errors.length > 0) {
    throw new ClusterTlsError(errors.join('\n'));
  }
}

/**
 * Writes rendered files to `outdir`, replacing its previous content only when every file was
 * written: the files go to a staging folder beside it, which then takes its place. On failure
 * (an error writing, or one thrown by `files` while it makes the next file) the previous content
 * is left as it was. `files` is read once, one file at a time, so a generator that renders each
 * file as it is asked for keeps only one file in memory.
 */
export function writeOutput(outdir: string, files: Iterable<RenderedFile>): void {
  const target = path.resolve(outdir);
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  // Made with the mode a new folder gets (0777 less the umask), as stock cdk8s makes the output folder.
  const staging = path.join(parent, `.${path.basename(target)}.staging-${process.pid}-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(staging);
  const folders = new Set<string>([staging]);
  try {
    // The umask, read off the new folder: a file's mode is set again only where the umask took bits off.
    const umask = ~fs.statSync(staging).mode & 0o777;
    for (const file of files) {
      const dest = path.join(staging, ...file.path.split('/'));
      const folder = path.dirname(dest);
      if (!folders.has(folder)) {
        fs.mkdirSync(folder, { recursive: true });
        folders.add(folder);
      }
      const mode = file.executable ? 0o755 : 0o644;
      fs.writeFileSync(dest, file.content, { mode });
      if ((mode & umask) !== 0) {
        fs.chmodSync(dest, mode);
      }
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
    removeTree(previous);
  }
}

/**
 * Deletes a folder and everything below it, as `fs.rmSync(dir, { recursive: true })` does, but
 * with each entry's type taken from its folder's listing instead of asked for again entry by
 * entry: deleting the previous output is then one system call per file, not two.
 */
function removeTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removeTree(entryPath);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      fs.unlinkSync(entryPath);
    } else {
      // A type the listing does not give (some file systems leave it unknown): ask Node.js.
      fs.rmSync(entryPath, { recursive: true, force: true });
    }
  }
  fs.rmdirSync(dir);
}

/** Options of {@link synthesize}. */
export interface SynthesizeOptions {
  /**
   * The output folder, replaced whole at every synth.
   * @default - the app's `outdir` (`CDK8S_OUTDIR`, else `dist`)
   */
  readonly outdir?: string;
  /**
   * The record of settings fixed at creation, read before and written after every synth. Keep it
   * out of the output folder (the cdk8s CLI deletes that folder before it runs the app) and
   * commit it with the output.
   * @default - `cluster-tls.lock.json` in the folder that holds the output folder
   */
  readonly recordFile?: string;
  /**
   * Deliberate re-creations that may change a setting fixed at creation: `<Kind>/<namespace>/<name>`
   * for a cluster's `tlsCluster.enabled`, `drainer/<construct path>` for a drainer's name. The
   * error that refuses such a change names the entry to add.
   * @default - the comma-separated entries of the `CLUSTER_TLS_RECREATE` environment variable
   */
  readonly acknowledgeRecreation?: string[];
  /**
   * The JSON report of `cluster-tls verify --json` for the rotation phase in place. When given,
   * the synth refuses to move a rotation to its next phase while the report shows a Secret of
   * that cluster that is not yet where the phase in place leaves it.
   * @default - the file the `CLUSTER_TLS_VERIFY_REPORT` environment variable names, else none
   */
  readonly verifyReport?: string;
}

/** What {@link synthesize} wrote. */
export interface SynthesisResult {
  /** The output folder, as an absolute path. */
  readonly outdir: string;
  /**
   * Every file written, relative to the output folder with '/' separators, in the order of
   * {@link RenderedApp.files}, and last the marker of a synthesized folder.
   */
  readonly files: string[];
  /** How many of the first {@link files} stock cdk8s writes too (the manifests). */
  readonly manifestFiles: number;
  /** How many Kubernetes objects the manifests hold. */
  readonly objects: number;
}

/**
 * Renders the app and writes it to the output folder. Use it instead of `app.synth()`: it also
 * writes the runbooks, chart values and configuration files of the library's constructs, checks
 * the settings fixed at creation against the record of the last synth, and leaves the output
 * folder untouched when anything fails.
 *
 * The checks run before any file is rendered; the files are then rendered and written one at a
 * time, so that memory holds the app's constructs and one file, not the whole output. To have
 * every file in memory instead, call {@link renderApp}.
 *
 * Run by the cdk8s CLI (which sets `CDK8S_OUTDIR`) with an output folder other than the CLI's,
 * it also copies the files stock cdk8s would have written into the CLI's folder, for the CLI to
 * list, print (`--stdout`) and hand to its validation plugins.
 */
export function synthesize(app: App, options: SynthesizeOptions = {}): SynthesisResult {
  const outdir = options.outdir ?? app.outdir;
  const plan = planOutput(app);
  const acknowledged = options.acknowledgeRecreation
    ?? (process.env[RECREATE_ENV] ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  const recordFile = path.resolve(options.recordFile ?? layout.defaultRecordFile(outdir));
  // What the guards read, rendered once: the cluster resources, and the plans (written from this map).
  const clusters = plan.apiObjects.filter((o) => CLUSTER_RESOURCE_KINDS.has(o.kind)).map((o) => ({ source: o.node.path, manifest: plan.renderAhead(o) }));
  const plans = new Map(plan.files.filter((f) => layout.parseOutputPath(f.path)?.file === 'tls-plan').map((f) => [f.path, f.render().content]));
  const now = fixedSettings(clusters.map((c) => c.manifest), registeredDrainers(app), [...plans.values()].map((text) => JSON.parse(text)));
  const sources = new Map(clusters.map((c) => [clusterKey(c.manifest), c.source]));
  const record = readRecord(recordFile);
  checkFixedSettings(record, now, recordFile, sources, acknowledged);
  checkRotations(record, now, recordFile, acknowledged, readVerifyReport(options.verifyReport ?? process.env[VERIFY_REPORT_ENV]));
  checkNoKeyMaterial(outdir, new Set(plan.files.map((f) => f.path)));

  let objects = 0;
  function* rendered(): Generator<RenderedFile> {
    for (const file of plan.files) {
      let content = plans.get(file.path);
      if (content === undefined) {
        const r = file.render();
        content = r.content;
        objects += r.objects.length;
      }
      yield { path: file.path, content, executable: file.executable };
    }
    yield outputMarker(app);
  }
  writeOutput(outdir, rendered());
  writeRecord(recordFile, now);
  const files = [...plan.files.map((f) => f.path), layout.OUTPUT_MARKER_FILE];
  const cli = process.env.CDK8S_OUTDIR;
  if (cli && path.resolve(cli) !== path.resolve(outdir)) {
    copyFiles(outdir, cli, files.slice(0, plan.manifestFiles));
  }
  return { outdir: path.resolve(outdir), files, manifestFiles: plan.manifestFiles, objects };
}

/**
 * The marker of a synthesized output folder: the issuing script refuses to run below it, and
 * `cluster-tls verify` reads the manifests' file extension from it.
 */
function outputMarker(app: App): RenderedFile {
  const marker: layout.OutputMarker = {
    writtenBy: 'cdk8s-cluster-tls',
    about: 'Every synth replaces this folder whole. Keep no keys here: copy a cfssl folder out before running its issuing script.',
    outputFileExtension: app.outputFileExtension,
  };
  return { path: layout.OUTPUT_MARKER_FILE, content: `${JSON.stringify(marker, undefined, 2)}\n`, executable: false };
}

/** Copies files from one folder into another, keeping what else the other holds (as `App.synth()` writes its manifests). */
function copyFiles(from: string, to: string, files: readonly string[]): void {
  for (const file of files) {
    const dest = path.join(to, ...file.split('/'));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(path.join(from, ...file.split('/')), dest);
  }
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
export { MANIFESTS_ONLY_CONTEXT } from './app-rules';
