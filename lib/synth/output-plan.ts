/**
 * The plan of an app's output: validation, dependency resolution and the layout of every file,
 * as stock `App.synth()` lays out the manifests, plus the {@link OutputFile}s, each file rendered
 * only when asked for. `renderApp` renders a plan into memory; `synthesize` writes it file by file.
 */
import { ApiObject, App, Chart, DependencyGraph, Names, YamlOutputType } from 'cdk8s';
import { IConstruct } from 'constructs';
import { ClusterTlsError, inputErrorMessage, oneLine } from '../model/errors';
import * as layout from '../model/output-layout';
import { stringifyManifests } from '../yaml/emitter';
import { appObjects } from '../app/app-objects';
import { OutputFile } from '../app/output-file';

/** A manifest of the synthesized output, as JSON, with its file and the construct that made it. */
export interface RenderedObject {
  /** The manifest file that holds it. */
  readonly file: string;
  /** The construct path of the object. */
  readonly source: string;
  /** The object, as JSON. */
  readonly manifest: any;
}

/** The characters stock cdk8s leaves out of the file name of one resource (`<kind>.<name>`). */
const FILE_PER_RESOURCE_NAME = /[^0-9a-zA-Z-_.]/g;

/** A file of the output, laid out (its path is known) but not yet rendered. */
export interface PlannedFile {
  /** Path relative to the output folder, with '/' separators. */
  readonly path: string;
  /** Whether the file is executable. */
  readonly executable: boolean;
  /** Renders the file: its content, and the Kubernetes objects it holds (none but in a manifest). */
  render(): { readonly content: string; readonly objects: RenderedObject[] };
}

/** Options of {@link planOutput}. */
export interface PlanOptions {
  /**
   * Objects a check must read before any file is written, handed to it as {@link OutputPlan.renderedFirst}:
   * the renderings their files use too, the one rendering of every object the synth makes.
   * @default - none
   */
  readonly renderFirst?: (object: ApiObject) => boolean;
  /**
   * Leaves `construct-metadata.json` out of the files even when the app records construct
   * metadata; {@link OutputPlan.constructMetadata} still has it, for a writer that puts it elsewhere.
   * @default false
   */
  readonly constructMetadataApart?: boolean;
}

/** An app's output, laid out and checked, each file's text rendered only when asked for. */
export interface OutputPlan {
  /** Every file: the manifests (as stock cdk8s writes them), then the library's, sorted by path. */
  readonly files: PlannedFile[];
  /** How many of the first {@link files} stock cdk8s writes too. */
  readonly manifestFiles: number;
  /** The API objects of the manifests, in file order. */
  readonly apiObjects: ApiObject[];
  /** The objects {@link PlanOptions.renderFirst} chose, rendered, in file order. */
  readonly renderedFirst: ReadonlyMap<ApiObject, any>;
  /** `construct-metadata.json` when the app records construct metadata, whether among {@link files} or apart. */
  readonly constructMetadata?: PlannedFile;
}

/**
 * Validates the app, resolves its dependencies and lays out its output: every path, checked to be
 * written once. Every object is rendered once, for the rules and the manifests alike (the app's
 * facts, `app/app-objects.ts`, shared with the rules when the caller holds a pass over the app
 * open); the files are rendered as text only when asked for, so that a writer holds one file's
 * text at a time.
 */
export function planOutput(app: App, options: PlanOptions = {}): OutputPlan {
  resolveAndValidate(app);
  const constructs = app.node.findAll();
  const order = chartOrder(constructs);
  const charts = order ?? app.charts;
  const indexed = order === undefined
    && charts.some((c) => c.node.dependencies.some((d) => d instanceof Chart) || c.node.children.some((d) => d instanceof Chart));
  const subtrees = subtreesOf(constructs);
  const laidOut = charts.map((chart) => ({ chart, objects: chartObjects(chart, subtrees.get(chart)) }));
  const apiObjects = laidOut.flatMap((c) => c.objects);
  const renderFirst = options.renderFirst;
  // Every object rendered once, as the rules read it: the facts of the synth's pass over the app.
  const rendered = new Map(appObjects(app).map((o) => [o.object, o.rendered]));
  const manifestOf = (o: ApiObject) => (rendered.has(o) ? rendered.get(o) : o.toJson());
  const renderedFirst = new Map<ApiObject, any>(renderFirst ? apiObjects.filter(renderFirst).map((o) => [o, manifestOf(o)]) : []);
  const files = layOut(app, laidOut, indexed, manifestOf);
  // A private field of App (its prop, else CDK8S_RECORD_CONSTRUCT_METADATA): cdk8s is pinned to the
  // minor version whose output the equivalence test proves.
  const metadata = (app as unknown as { recordConstructMetadata?: boolean }).recordConstructMetadata === true ? constructMetadata(apiObjects) : undefined;
  if (metadata && !options.constructMetadataApart) {
    files.push(metadata);
  }
  const manifestFiles = files.length;
  files.push(...outputFiles(constructs, files));
  return { files, manifestFiles, apiObjects, renderedFirst, constructMetadata: metadata };
}

/** The longest file name (one path component) most file systems take, in bytes. */
const MAX_FILE_NAME_BYTES = 255;

/**
 * The files `OutputFile` constructs declare, sorted by path, refused with one line where one would
 * land on another's path or on the files folder's marker. They go to the files folder, the
 * manifests to the output folder: a manifest's name is checked for its length alone.
 */
function outputFiles(constructs: readonly IConstruct[], manifests: readonly PlannedFile[]): PlannedFile[] {
  const extra = constructs.filter(OutputFile.isOutputFile).filter((f) => f.isWritten());
  const seen = new Map<string, string>([[layout.OUTPUT_MARKER_FILE, 'the marker of the files folder']]);
  const owned = [
    ...manifests.map((f) => ({ path: f.path, owner: 'stock cdk8s\'s layout of the manifests', construct: 'app', manifest: true })),
    ...extra.map((f) => ({ path: f.path, owner: f.node.path, construct: f.node.path, manifest: false })),
  ];
  for (const f of owned) {
    const long = f.path.split('/').find((part) => Buffer.byteLength(part) > MAX_FILE_NAME_BYTES);
    if (long !== undefined) {
      throw new ClusterTlsError(`${f.construct}: path: received a file name of ${Buffer.byteLength(long)} bytes (${JSON.stringify(`${long.slice(0, 40)}…`)}); `
        + `expected at most ${MAX_FILE_NAME_BYTES}, the longest name a file system takes: shorten the chart, namespace, cluster or release name, or the file extension, that makes it`);
    }
    const owner = f.manifest ? undefined : seen.get(f.path);
    if (owner !== undefined) {
      throw new ClusterTlsError(`${f.owner}: path: received ${JSON.stringify(f.path)}; expected a file nothing else writes (${owner} writes it too)`);
    }
    if (!f.manifest) {
      seen.set(f.path, f.owner);
    }
  }
  return extra
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => ({ path: f.path, executable: f.executable, render: () => ({ content: f.render(), objects: [] }) }));
}

/** One chart's API objects, in the order stock cdk8s writes them. */
interface ChartObjects {
  readonly chart: Chart;
  readonly objects: ApiObject[];
}

/**
 * The files of the output folder that are no chart's, each with what writes it: a manifest of that
 * name would be overwritten by it, or taken for it by the next synth.
 */
const RESERVED_FILES: ReadonlyMap<string, string> = new Map([
  [layout.CONSTRUCT_METADATA_FILE, 'the construct metadata the app may record'],
  [layout.OUTPUT_MARKER_FILE, 'the output\'s marker'],
  [layout.EARLIER_OUTPUT_MARKER_FILE, 'the marker of earlier releases'],
]);

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
    const reserved = RESERVED_FILES.get(g.path);
    if (reserved !== undefined) {
      throw new ClusterTlsError(`${g.owner}: manifest file: received ${JSON.stringify(g.path)}, the name of ${reserved}; `
        + 'expected a name of its own: give the chart or object another name, or choose another outputFileExtension');
    }
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
 * Resolves the dependencies of the whole app and runs every construct's validations, once each,
 * reporting the failures as the library does, one line each. `Chart.toJson()` would do both for
 * the whole app, but it renders the chart's objects too, a second time when the rules have read
 * them; the dependencies are resolved as it resolves them instead ({@link resolveDependencies}).
 * An app without a chart has its validations run alone, as before.
 */
function resolveAndValidate(app: App): void {
  if (firstChart(app) !== undefined) {
    try {
      resolveDependencies(app);
    } catch (e) {
      validateApp(app.node.findAll());
      throw e;
    }
  }
  validateApp(app.node.findAll());
}

/**
 * The dependencies `App.synth()` and `Chart.toJson()` add before rendering (cdk8s's
 * `resolveDependencies`, of the minor version the equivalence test pins), added the same way: a
 * chart depends on the charts nested in it and on the charts its constructs' dependencies lie in,
 * and every API object of a construct that depends on another depends on the API objects of that
 * one, each in its own chart.
 */
function resolveDependencies(app: App): void {
  const subtrees = new Map<IConstruct, IConstruct[]>();
  const findAll = (c: IConstruct) => {
    let found = subtrees.get(c);
    if (found === undefined) {
      found = c.node.findAll();
      subtrees.set(c, found);
    }
    return found;
  };
  const dependencies = () => findAll(app).flatMap((source) => source.node.dependencies.map((target) => ({ source, target })));
  for (const parent of findAll(app).filter((c) => c instanceof Chart)) {
    for (const child of parent.node.children.filter((c) => c instanceof Chart)) {
      parent.node.addDependency(child);
    }
  }
  for (const { source, target } of dependencies()) {
    const [sourceChart, targetChart] = [Chart.of(source), Chart.of(target)];
    if (sourceChart !== targetChart) {
      sourceChart.node.addDependency(targetChart);
    }
  }
  for (const { source, target } of dependencies()) {
    const [sourceChart, targetChart] = [Chart.of(source), Chart.of(target)];
    const targets = findAll(target).filter((c) => c instanceof ApiObject && Chart.of(c) === targetChart);
    const sources = findAll(source).filter((c) => c instanceof ApiObject && Chart.of(c) === sourceChart);
    for (const t of targets) {
      for (const s of sources) {
        if (t !== s) {
          s.node.addDependency(t);
        }
      }
    }
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
    throw new ClusterTlsError(errors.map(oneLine).join('\n'));
  }
}
