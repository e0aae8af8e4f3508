/**
 * Running a runbook as written: its `bash` blocks, each with bash (`-euo pipefail`, so any command
 * that fails fails the block) from the output folder its first line names, with the cluster's part
 * (the restarts the applied manifest causes) between them; the verify report a block wrote; and
 * the project folder a user runs it in.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultVerifyReportFile, filesFolderOf } from '../lib/model/output-layout';

/**
 * Builds the library with `tsc -b` from the sources under test, so that `npx cluster-tls`, which
 * the runbooks run, is the command they are.
 */
export function buildCommand(): void {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b'], { cwd: path.join(__dirname, '..') });
}

/** The `bash` blocks of a Markdown file, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/**
 * Runs a bash block from `cwd`, asynchronously, so that the controllers act meanwhile; throws with its
 * output when it fails. No start-up file is read: bash reads one when it takes its input for a remote
 * shell's, and /etc/bash.bashrc fails under -u.
 */
export function bash(block: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', block], { cwd, env });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`block exited ${code} in ${cwd}:\n${block}\n--- output:\n${out}`))));
  });
}

/** The failing checks of a `cluster-tls verify --json` report, one line per Secret. */
export function failures(report: any): string[] {
  return report.secrets.filter((s: any) => !s.ok).map((s: any) => `${s.name}: ${s.checks.filter((c: any) => !c.ok).map((c: any) => `${c.check} ${c.found}`).join('; ')}`);
}

/** A project folder as a user has it: `npx cluster-tls` resolves to this package's built command. */
export interface ProjectFolder {
  readonly dir: string;
  /** The output folder, `dist/` in the project. */
  readonly outdir: string;
  /** A home folder of the project's own, for the commands' HOME. */
  readonly home: string;
}

/** Makes a project folder under `parent` (the system's temporary folder by default). */
export function projectFolder(prefix: string, parent = os.tmpdir()): ProjectFolder {
  const dir = fs.mkdtempSync(path.join(parent, prefix));
  fs.writeFileSync(path.join(dir, 'package.json'), `{ "name": "${path.basename(dir).toLowerCase()}", "private": true }\n`);
  const bin = path.join(dir, 'node_modules', '.bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'cluster-tls'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(__dirname, '..', 'build', 'bin', 'cluster-tls.js')}" "$@"\n`, { mode: 0o755 });
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  return { dir, outdir: path.join(dir, 'dist'), home };
}

/** The environment of a runbook's commands: the caller's, without the variables that would change what the scripts and the CLI do. */
export function runbookEnv(home: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, ...extra };
  for (const name of ['KUBECTL', 'CMCTL', 'CLUSTER_TLS_VERIFY_REPORT', 'CLUSTER_TLS_UNVERIFIED_PHASE']) {
    delete env[name];
  }
  return env;
}

/** Where a runbook runs: the output folder, the manifest its blocks apply, the cluster it is for. */
export interface RunbookSite {
  readonly outdir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly namespace: string;
  readonly clusterName: string;
  /** The manifest file the blocks apply, in the output folder. */
  readonly manifest: string;
}

/** What the cluster does between a runbook's blocks. */
export interface RunbookCluster {
  /** Before a block runs (the team restarts its own workloads before the check, for example). */
  beforeBlock?(block: string): Promise<void>;
  /** After the block that applies the whole manifest: the restarts it causes, until the cluster settles. */
  afterApply(): Promise<void>;
  /** What to add to a failing block's output: the rejected handshakes so far, the controllers' state. */
  describe(): string;
}

/**
 * Runs every `bash` block of a runbook (a path of the files folder beside the output folder) in
 * order, each from the output folder its first line names (checked). A block that fails throws
 * with its output, the failing checks of the report it wrote, and what the cluster says of itself.
 */
export async function runRunbook(site: RunbookSite, runbookFile: string, cluster: RunbookCluster): Promise<string[]> {
  const outputs: string[] = [];
  for (const block of shellBlocks(fs.readFileSync(path.join(filesFolderOf(site.outdir), runbookFile), 'utf8'))) {
    const [first, ...commands] = block.trimEnd().split('\n');
    if (first !== `# run in the output folder (the one that holds ${site.manifest})`) {
      throw new Error(`${runbookFile}: a block does not say it runs in the output folder: ${first}`);
    }
    await cluster.beforeBlock?.(block);
    try {
      outputs.push(await bash(block, site.outdir, site.env));
    } catch (e) {
      const file = defaultVerifyReportFile(site.outdir, site.namespace, site.clusterName);
      const failing = fs.existsSync(file) ? failures(JSON.parse(fs.readFileSync(file, 'utf8'))) : [];
      throw new Error([(e as Error).message, ...failing, cluster.describe()].join('\n'));
    }
    if (commands.includes(`kubectl apply -f ${site.manifest}`)) {
      await cluster.afterApply();
    }
  }
  return outputs;
}

/** The verify report the runbook wrote where it writes it, beside the output folder. */
export function verifyReport(site: Pick<RunbookSite, 'outdir' | 'namespace' | 'clusterName'>): any {
  return JSON.parse(fs.readFileSync(defaultVerifyReportFile(site.outdir, site.namespace, site.clusterName), 'utf8'));
}
