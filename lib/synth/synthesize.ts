/**
 * The two ways of rendering an app: {@link renderApp} into memory, and {@link synthesize}, which
 * checks the app against the record of its last synth and writes its output folder file by file.
 *
 * Loading this module hands {@link synthesize} to the registry of the library's constructs
 * (`app/registry.ts`, at the end of this file), so that stock `app.synth()` of an app holding them
 * runs it; the package's entry point loads it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'cdk8s';
import { CLUSTER_RESOURCE_KINDS } from '../model/catalog';
import { ClusterTlsError, Description, describeType, inputError, oneLine } from '../model/errors';
import { ShapeOf, checkArguments, constructOf, isConstruct, listOf, objectOf, pathSpec } from '../model/props';
import * as layout from '../model/output-layout';
import { registeredDrainers, registeredRecreations, useLibrarySynthesis } from '../app/registry';
import {
  RECREATE_ENV, TAKE_OVER_ENV, changedRecordText, checkFilesFolderOwner, checkFixedSettings, checkRecreations, recreationKey, checkRecordOutput, checkReplaceable, clusterKey, fixedSettings, readRecord, recordOutput,
} from './guards';
import { displayPath } from './display-path';
import { isSystemError, machineError } from './machine-errors';
import { OutputSwap, SwapFile } from './output-swap';
import { isWithin } from './swap-files';
import { checkRotations } from './rotation-guard';
import { checkSpansAgree } from './span-agreement';
import { checkTargetsApart } from './target-folders';
import { UNVERIFIED_ENV, VERIFY_REPORT_ENV } from './phase-report';
import { checkEnablements, flippingClusters } from './enablement-guard';
import { RenderedObject, planOutput } from './output-plan';
import { openRenderPass } from '../app/app-objects';
import { RenderedFile, copyFiles, writeFilesInto } from './write-output';

export { RenderedFile, writeOutput } from './write-output';
export type { RenderedObject } from './output-plan';

/** Everything an app synthesizes, before anything is written. */
export interface RenderedApp {
  /**
   * Every file: first the ones stock cdk8s writes too (the manifests, in the app's
   * `yamlOutputType` and `outputFileExtension`, and `construct-metadata.json` when the app records
   * construct metadata), with paths relative to the output folder; then the library's, sorted by
   * path, relative to the files folder beside it.
   */
  readonly files: RenderedFile[];
  /** How many of the first {@link files} stock cdk8s writes too. */
  readonly manifestFiles: number;
  /** Every Kubernetes object of the manifests, in file order. */
  readonly objects: RenderedObject[];
}

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
  checkArguments('ClusterTls', 'render', { app }, { app: APP });
  // One pass over the app: the rules, the runbooks and the manifests read every object rendered once.
  const closePass = openRenderPass(app);
  try {
    const plan = planOutput(app);
    const files: RenderedFile[] = [];
    const objects: RenderedObject[] = [];
    for (const file of plan.files) {
      const rendered = file.render();
      files.push({ path: file.path, content: rendered.content, executable: file.executable });
      objects.push(...rendered.objects);
    }
    return { files, manifestFiles: plan.manifestFiles, objects };
  } finally {
    closePass();
  }
}

/** What an app argument must be: the root of a construct tree, as `new App()` makes it. */
const APP = constructOf((a) => isConstruct(a) && a.node.scope === undefined && typeof (a as Partial<App>).outdir === 'string', 'a cdk8s App');

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
   * The JSON report of `cluster-tls verify --json` for the rotation phases in place. A rotation
   * moves to its next phase only when the report shows every Secret the record names in the
   * phase in place, and no pod that loaded its Secret before it was written.
   * @default - the file the `CLUSTER_TLS_VERIFY_REPORT` environment variable names, else each
   * cluster's `cluster-tls-verify.<namespace>.<cluster>.json` beside the output folder, where the
   * rotation runbook writes it
   */
  readonly verifyReport?: string;
  /**
   * Clusters (`<namespace>/<cluster>`) whose rotation or TLS enablement may move to its next phase
   * without a verify report (and, leaving an enablement's `enable`, without the member list). The
   * risk is an outage: pods that still trust only a CA their peers no longer present, pods still in
   * plain text, or a coordinator member stored with its `http` peer URL when others join. The
   * record keeps each phase left this way, for review. Given, it replaces the environment variable.
   * @default - the comma-separated entries of the `CLUSTER_TLS_UNVERIFIED_PHASE` environment variable
   */
  readonly acknowledgeUnverifiedPhase?: string[];
  /**
   * Whether to replace an output folder, and the files folder beside it, that hold files no synth
   * wrote (a folder of your own manifests, say), or a files folder another output folder's synth
   * wrote, deleting them. Keys and certificates are never deleted: move them out.
   * @default - for each folder, true when the `CLUSTER_TLS_TAKE_OVER` environment variable names it
   * (comma-separated paths)
   */
  readonly takeOver?: boolean;
}

/** The shape of {@link SynthesizeOptions}. */
const SYNTHESIZE_OPTIONS_SHAPE = {
  outdir: pathSpec(), recordFile: pathSpec(), acknowledgeRecreation: 'strings?', verifyReport: pathSpec(), acknowledgeUnverifiedPhase: 'strings?', takeOver: 'boolean?',
} satisfies ShapeOf<SynthesizeOptions>;

/** What {@link synthesize} wrote. */
export interface SynthesisResult {
  /** The output folder, as an absolute path: the manifests alone. */
  readonly outdir: string;
  /**
   * Every file written to the output folder, relative to it with '/' separators, in the order of
   * {@link RenderedApp.files}, and last the marker of a synthesized folder.
   */
  readonly files: string[];
  /** How many of the first {@link files} stock cdk8s writes too (the manifests). */
  readonly manifestFiles: number;
  /** The files folder beside the output folder (`cluster-tls`), as an absolute path. */
  readonly filesFolder: string;
  /**
   * Every file written to the files folder, relative to it with '/' separators, sorted by path,
   * and last its marker: plans, runbooks, scripts, chart values and migration files.
   */
  readonly otherFiles: string[];
  /** How many Kubernetes objects the manifests hold. */
  readonly objects: number;
  /** The cdk8s CLI's own output folder, when the synth ran under `cdk8s synth` and copied the manifests there. */
  readonly cliFolder?: string;
}

/**
 * Renders the app and writes it; `app.synth()` of an app holding the library's constructs calls
 * it. The output folder gets the manifests alone, as stock cdk8s lays them out, for `kubectl apply
 * -f` and GitOps tools; the files folder beside it (`cluster-tls`) gets the plans, runbooks,
 * scripts, chart values and configuration files of the library's constructs. It checks the
 * settings fixed at creation against the record of the last synth, and leaves both folders and the
 * record untouched when anything fails.
 *
 * The checks run before any file is written, on the cluster resources and certificate plans,
 * rendered ahead. Every object is rendered once, for the checks and the manifests alike; the files
 * are then rendered as text and written one at a time, so that memory holds the app's constructs,
 * its objects rendered once and one file's text, not the whole output. To have every file in
 * memory instead, call {@link renderApp}.
 *
 * Run by the cdk8s CLI (which sets `CDK8S_OUTDIR`) with an output folder other than the CLI's,
 * it also copies the files stock cdk8s would have written into the CLI's folder, for the CLI to
 * list, print (`--stdout`) and hand to its validation plugins.
 */
export function synthesize(app: App, options: SynthesizeOptions = {}): SynthesisResult {
  ({ options } = checkArguments('ClusterTls', 'synthesize', { app, options }, { app: APP, options: objectOf(SYNTHESIZE_OPTIONS_SHAPE, false) }));
  const prepared = prepareSynthesis(app, options);
  try {
    return prepared.commit();
  } finally {
    prepared.close();
  }
}

/** The output folder and the record of an app, as absolute paths. */
function outputPaths(app: App, options: SynthesizeOptions): { readonly outdir: string; readonly recordFile: string } {
  const outdir = path.resolve(options.outdir ?? app.outdir);
  return { outdir, recordFile: path.resolve(options.recordFile ?? layout.defaultRecordFile(outdir)) };
}

/** An app checked and ready to write: its output folder's lock is held until {@link close}. */
interface PreparedSynthesis {
  readonly outdir: string;
  readonly recordFile: string;
  /** Writes both folders and the record, and copies the manifests to the CLI's folder under `cdk8s synth`. */
  commit(): SynthesisResult;
  /** Releases the lock. */
  close(): void;
}

/**
 * Renders what the checks read, takes the output folder's lock and runs every check; writes
 * nothing. The pass over the app it opens (every object rendered once, for the rules, the runbooks
 * and the manifests) lasts until {@link PreparedSynthesis.close}.
 */
function prepareSynthesis(app: App, options: SynthesizeOptions): PreparedSynthesis {
  const closePass = openRenderPass(app);
  try {
    const prepared = prepareInPass(app, options);
    const close = () => {
      try {
        prepared.close();
      } finally {
        closePass();
      }
    };
    return { ...prepared, close };
  } catch (e) {
    closePass();
    throw e;
  }
}

/** {@link prepareSynthesis}, in its pass over the app. */
function prepareInPass(app: App, options: SynthesizeOptions): PreparedSynthesis {
  const { outdir, recordFile } = outputPaths(app, options);
  const filesFolder = layout.filesFolderOf(outdir);
  // A record inside either folder is refused further on, with what to do.
  if (options.recordFile !== undefined && !isWithin(outdir, recordFile) && !isWithin(filesFolder, recordFile)
    && !fs.statSync(path.dirname(recordFile), { throwIfNoEntry: false })?.isDirectory()) {
    inputError('ClusterTls', 'synthesize.options.recordFile', options.recordFile, 'a file in a folder that exists: the record is written beside the files of the synth that wrote it, never into a folder the synth would have to make');
  }
  const cli = cliFolder(outdir);
  // The construct metadata the CLI asks for its validation plugins goes to the CLI's folder alone,
  // so that the output folder holds the same files whichever command synthesized it.
  const plan = planOutput(app, {
    renderFirst: (o) => CLUSTER_RESOURCE_KINDS.has(o.kind),
    constructMetadataApart: cli !== undefined && process.env.CDK8S_RECORD_CONSTRUCT_METADATA === 'true',
  });
  // Rendered ahead for the checks, and written from here; each is let go once written.
  const plans = new Map(plan.files.filter((f) => layout.parseOutputPath(f.path)?.file === 'tls-plan').map((f) => [f.path, f.render().content]));
  const recreations = registeredRecreations(app);
  const now = fixedSettings([...plan.renderedFirst.values()], registeredDrainers(app), [...plans.values()].map((text) => JSON.parse(text)), recreations);
  const sources = new Map([...plan.renderedFirst].map(([o, manifest]) => [clusterKey(manifest), o.node.path]));
  const acknowledged = options.acknowledgeRecreation ?? listFromEnv(RECREATE_ENV);
  // The variable names each folder it takes over, as the refusal that names the folder asks; the option takes both.
  const takenOver = listFromEnv(TAKE_OVER_ENV).map((p) => path.resolve(p));
  const takeOver = options.takeOver ?? takenOver.includes(outdir);
  const takeOverFiles = options.takeOver ?? takenOver.includes(filesFolder);
  const files = [...plan.files.slice(0, plan.manifestFiles).map((f) => f.path), layout.OUTPUT_MARKER_FILE];
  const otherFiles = [...plan.files.slice(plan.manifestFiles).map((f) => f.path), layout.OUTPUT_MARKER_FILE];

  let objects = 0;
  function* rendered(): Generator<SwapFile> {
    for (const [index, file] of plan.files.entries()) {
      let content = plans.get(file.path);
      plans.delete(file.path);
      if (content === undefined) {
        const r = file.render();
        content = r.content;
        objects += r.objects.length;
      }
      yield { path: file.path, content, executable: file.executable, inFilesFolder: index >= plan.manifestFiles };
    }
    yield outputMarker(app, files.slice(0, -1));
    yield outputMarker(app, otherFiles.slice(0, -1), path.basename(outdir));
  }

  // From the lock on, the record and the output are read and replaced by this run alone.
  const swap = OutputSwap.open(outdir, recordFile, { takeOver, takeOverFiles, filesFolder });
  let recordText: string | undefined;
  try {
    const recreationPaths = new Map(recreations.map((r) => [recreationKey(r), r.node.path]));
    recordText = checkedRecord(recordFile, outdir, now, { clusters: sources, recreations: recreationPaths }, options, acknowledged);
    checkFolders(swap, { outdir, files, takeOver }, { folder: filesFolder, files: otherFiles, takeOver: takeOverFiles });
  } catch (e) {
    swap.close();
    throw e;
  }
  return {
    outdir,
    recordFile,
    commit() {
      swap.commit(rendered(), recordText);
      if (cli !== undefined) {
        copyFiles(outdir, cli, files.slice(0, plan.manifestFiles));
        if (plan.constructMetadata && !files.includes(plan.constructMetadata.path)) {
          writeFilesInto(cli, [{ path: plan.constructMetadata.path, content: plan.constructMetadata.render().content, executable: false }]);
        }
      }
      return { outdir, files, manifestFiles: plan.manifestFiles, filesFolder, otherFiles, objects, cliFolder: cli };
    },
    close: () => swap.close(),
  };
}

/**
 * Runs a step of one target of {@link synthesizeAll}, its refusal prefixed with the target and its
 * output folder on every line: the apps of a span share their construct paths.
 */
function ofTarget<T>(index: number, outdir: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof ClusterTlsError) {
      throw new ClusterTlsError(e.message.split('\n').map((line) => `synthesizeAll.targets[${index}] (${displayPath(outdir)}): ${line}`).join('\n'), { cause: e });
    }
    throw e;
  }
}

/** One app of {@link synthesizeAll} and where it goes. */
export interface SynthesisTarget {
  /** The app, built and not yet synthesized. */
  readonly app: App;
  /**
   * Its output folder, record and guard inputs, as {@link synthesize} takes them.
   * @default - those of synthesize: the app's `outdir`, the record beside it
   */
  readonly options?: SynthesizeOptions;
}

/** The shape of a {@link SynthesisTarget}. */
const SYNTHESIS_TARGET_SHAPE = { app: APP, options: objectOf(SYNTHESIZE_OPTIONS_SHAPE) } satisfies ShapeOf<SynthesisTarget>;

/**
 * Synthesizes several apps, each as {@link synthesize} does, checked together: every app is
 * rendered and checked against its own record first, and only when every one passes is any
 * written, one after another, each output whole. A refusal of any app writes none. The outputs of
 * a cluster across Kubernetes clusters go together this way: a rotation phase of the span moves on
 * in one output only when the verify report of every other one lets it, so no Kubernetes cluster
 * presents certificates that another does not trust yet. So the apps of one span (one cluster
 * name, a Kubernetes cluster in common) must give it one declaration (its Kubernetes clusters with
 * their domains and namespaces, `rootCluster`, the rotations at one phase), each be the output of
 * another Kubernetes cluster, each in the namespace the declaration gives it, and be there for
 * every Kubernetes cluster of the span. Each target needs an output folder, a files folder and a
 * record of its own, none inside another's folders; a refusal names the target and its output
 * folder before its message.
 */
export function synthesizeAll(targets: SynthesisTarget[]): SynthesisResult[] {
  ({ targets } = checkArguments('ClusterTls', 'synthesizeAll', { targets }, { targets: listOf(SYNTHESIS_TARGET_SHAPE, false, 'a list of apps, each with its options') }));
  if (targets.length === 0) {
    inputError('ClusterTls', 'synthesizeAll.targets', new Description('an empty list'), 'at least one app, each with its options');
  }
  const paths = targets.map((t) => outputPaths(t.app, t.options ?? {}));
  checkTargetsApart(paths);
  checkSpansAgree(targets.map((t, i) => ({ app: t.app, outdir: paths[i].outdir })));
  const prepared: PreparedSynthesis[] = [];
  try {
    for (const [i, target] of targets.entries()) {
      prepared.push(ofTarget(i, paths[i].outdir, () => prepareSynthesis(target.app, target.options ?? {})));
    }
    return prepared.map((p, i) => ofTarget(i, p.outdir, () => p.commit()));
  } finally {
    prepared.forEach((p) => p.close());
  }
}

/**
 * Reads the record and checks the app against it, the enablements and re-creations first (a phase out of order says
 * so rather than that `tlsCluster` changed), then the settings fixed at creation, then the
 * rotations; returns the record's new text, undefined when it does not change.
 */
function checkedRecord(recordFile: string, outdir: string, now: ReturnType<typeof fixedSettings>,
  paths: { readonly clusters: ReadonlyMap<string, string>; readonly recreations: ReadonlyMap<string, string> },
  options: SynthesizeOptions, acknowledged: string[]): string | undefined {
  const record = readRecord(recordFile);
  checkRecordOutput(record, recordFile, outdir);
  const guardInputs = {
    outdir,
    report: options.verifyReport !== undefined ? { file: options.verifyReport, from: 'verifyReport' }
      : process.env[VERIFY_REPORT_ENV] ? { file: process.env[VERIFY_REPORT_ENV], from: VERIFY_REPORT_ENV } : undefined,
    acknowledged,
    unverified: options.acknowledgeUnverifiedPhase ?? listFromEnv(UNVERIFIED_ENV),
  };
  const enablements = checkEnablements(record, now, recordFile, guardInputs);
  checkRecreations(record, now, recordFile, paths.recreations, acknowledged);
  checkFixedSettings(record, now, recordFile, paths.clusters, acknowledged, flippingClusters(record, now));
  const rotations = checkRotations(record, now, recordFile, guardInputs);
  return changedRecordText(recordFile, { output: recordOutput(recordFile, outdir), ...now, ...(rotations ? { rotations } : {}), ...(enablements ? { enablements } : {}) });
}

/** Refuses to replace either folder when it holds what the swap must not delete, or when the files folder is another output folder's. */
function checkFolders(swap: OutputSwap, output: { readonly outdir: string; readonly files: readonly string[]; readonly takeOver: boolean },
  files: { readonly folder: string; readonly files: readonly string[]; readonly takeOver: boolean }): void {
  if (swap.output.exists) {
    checkReplaceable(output.outdir, new Set(output.files), output.takeOver);
  }
  if (swap.files.exists) {
    if (!files.takeOver) {
      checkFilesFolderOwner(files.folder, output.outdir);
    }
    checkReplaceable(files.folder, new Set(files.files), files.takeOver);
  }
}

/**
 * The cdk8s CLI's output folder (`CDK8S_OUTDIR`), which gets a copy of the manifests. Refused when
 * it is the output folder, holds it or sits inside it: the CLI deletes its folder before every run,
 * so a refused synth would leave no manifests, and a copy into the output folder would be a file
 * no synth listed. An `App` given no `outdir` takes the CLI's folder, so the refusal names both fixes.
 */
function cliFolder(outdir: string): string | undefined {
  const cli = process.env.CDK8S_OUTDIR;
  if (!cli) {
    return undefined;
  }
  if (path.resolve(cli) === outdir) {
    throw new ClusterTlsError(`CDK8S_OUTDIR: received ${displayPath(outdir)}, the folder the app writes its output to as well; expected the cdk8s CLI's folder apart from the app's, `
      + 'since the CLI deletes it before every run: give the app its own output folder (new App({ outdir: \'dist\' }), or synthesizeOrExit(build, { outdir: \'dist\' })) '
      + 'and keep output in cdk8s.yaml on another folder, such as cdk8s.out');
  }
  const inside = isWithin(outdir, path.resolve(cli));
  if (inside || isWithin(path.resolve(cli), outdir)) {
    throw new ClusterTlsError(`CDK8S_OUTDIR: received ${displayPath(path.resolve(cli))}, which ${inside ? 'is inside' : 'holds'} the output folder ${displayPath(outdir)}; `
      + 'expected a folder of its own for the cdk8s CLI, which deletes it before every run: set output in cdk8s.yaml to another folder, such as build/cdk8s-cli');
  }
  return cli;
}

/** The comma-separated entries of an environment variable. */
function listFromEnv(name: string): string[] {
  return (process.env[name] ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * The marker of a synthesized folder (the output folder, or the files folder beside it): the
 * issuing script refuses to run below it, `cluster-tls verify` reads the manifests' file extension
 * from it, and the next synth the list of files it may delete.
 */
function outputMarker(app: App, files: readonly string[], outputFolder?: string): SwapFile {
  const marker: layout.OutputMarker = {
    writtenBy: 'cdk8s-cluster-tls',
    about: `Every synth replaces this folder whole, and refuses to when it holds a file not listed here. ${outputFolder === undefined
      ? `It holds the manifests alone; the other files of the output are in ${layout.FILES_FOLDER} beside it.`
      : 'Keep no keys here: copy a cfssl folder out before running its issuing script.'}`,
    outputFileExtension: app.outputFileExtension,
    files,
    ...(outputFolder !== undefined ? { outputFolder } : {}),
  };
  return { path: layout.OUTPUT_MARKER_FILE, content: `${JSON.stringify(marker, undefined, 2)}\n`, executable: false, inFilesFolder: outputFolder !== undefined };
}

/**
 * Builds and synthesizes an app as a command does: on success one line on standard output says
 * what it wrote and where; a user mistake ({@link ClusterTlsError}) is printed as its message
 * alone, without a stack trace, and the process exit code is set to 1.
 */
export function synthesizeOrExit(build: () => App, options: SynthesizeOptions = {}): void {
  orExit(() => {
    const app = built('synthesizeOrExit', build, 'the app', 'ClusterTls.synthesize(app)');
    if (!isConstruct(app) || app.node.scope !== undefined) {
      inputError('synthesizeOrExit', 'build', new Description(`a function that returned ${describeType(app).text}`),
        'a function that returns the app it built (a cdk8s App): add "return app"');
    }
    return [synthesize(app, options)];
  });
}

/**
 * Builds several apps and synthesizes them checked together ({@link synthesizeAll}), as a command does:
 * one line per output on success; on a user mistake its message alone, nothing written, and exit
 * code 1. For the outputs of a cluster across Kubernetes clusters, one per Kubernetes cluster.
 */
export function synthesizeAllOrExit(build: () => SynthesisTarget[]): void {
  orExit(() => synthesizeAll(built('synthesizeAllOrExit', build, 'the list of apps, each with its options', 'ClusterTls.synthesizeAll(targets)')));
}

/** Calls `build`, refusing what is not a function and a Promise (an async function): `returns` says what it must return, `afterAwaits` what to call instead. */
function built<T>(caller: string, build: () => T, returns: string, afterAwaits: string): T {
  if (typeof build !== 'function') {
    inputError(caller, 'build', describeType(build), `a function that builds and returns ${returns}`);
  }
  const value = build();
  if (value instanceof Promise || (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function')) {
    // A rejection the build makes after its first await is not this call's: let it go by.
    Promise.resolve(value).catch(() => undefined);
    inputError(caller, 'build', new Description('a function that returned a Promise (an async function)'),
      `a function that returns ${returns} itself: ${caller} does not wait; build without await, or call ${afterAwaits} after your awaits`);
  }
  return value;
}

/** Runs a synth as a command: a line per output written, or each failure's line and exit code 1. */
function orExit(run: () => SynthesisResult[]): void {
  try {
    for (const result of run()) {
      const others = result.otherFiles.length - 1;
      // On standard output, where a command's report belongs. Under `cdk8s synth` the CLI keeps the
      // app's standard output to itself and lists the manifests it copied: standard error stays empty
      // on success, as the CLI's own runs leave it, and a failure's line is the one thing it holds.
      process.stdout.write(`synthesized ${result.manifestFiles} manifest${result.manifestFiles === 1 ? '' : 's'} (${result.objects} objects) into ${displayPath(result.outdir)} `
        + `and ${others} other file${others === 1 ? '' : 's'} into ${displayPath(result.filesFolder)}\n`);
    }
  } catch (e) {
    // A failure of the machine that no step named is still one line, naming the path the system gave.
    const error = !isSystemError(e) ? e
      : e.syscall === 'uv_cwd' ? new ClusterTlsError('the working folder: received a folder that no longer exists; expected the folder the synth runs in: change to an existing folder and synthesize again')
        : machineError(e, e.path ?? '.', `complete ${e.syscall}`, 'synthesize again once it is fixed: the next synth finishes or undoes what this one left');
    if (error instanceof ClusterTlsError) {
      // One line per failure (construct validations report several at once, one per line), each
      // kept to one line whatever a name in it holds: a control character is written as its escape.
      process.stderr.write(error.message.split('\n').map((line) => `error: ${oneLine(line)}\n`).join(''));
      process.exitCode = 1;
      return;
    }
    throw e;
  }
}

// `app.synth()` of an app holding the library's constructs runs this synthesis (see app/registry.ts).
useLibrarySynthesis((app) => {
  synthesize(app);
});
