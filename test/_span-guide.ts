/**
 * What the live tests of the span's guides share: the cross-cluster handshake matrix (OpenSSL and
 * Go's crypto/tls), the reader's shell that runs a guide's command blocks, and the workspace the
 * guides run in (an app linked to this project's packages, one kubeconfig with a context per
 * control plane, kubectl and cmctl on the search path), and its teardown.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as YAML from 'yaml';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { HandshakeServer, describeOutcome, dialedNames } from '../lib/verify/handshake';
import { ControlPlane, tool } from './_control-plane';
import type { SecretPem } from './_handshakes';
import { DocBlock, ROOT } from './_readme';

/** Dialing one cluster's server from the other: the names of the server's cluster's domain alone, as the members of the other cluster reach it. */
export interface CrossTry {
  readonly server: string;
  readonly client: string;
  readonly name: string;
  readonly serverSecret: SecretPem;
  readonly clientSecret: SecretPem;
}

/** Every handshake of `server`'s plan's server Secrets with every Secret of `client`'s plan, by the server cluster's fully qualified names. */
export function crossTries(server: { plan: TlsPlan; secrets: Map<string, SecretPem>; domain: string }, client: { plan: TlsPlan; secrets: Map<string, SecretPem> }): CrossTry[] {
  return server.plan.secrets.filter((s) => s.role === 'server').flatMap((s) => {
    const names = dialedNames(s).filter((n) => n.endsWith(`.svc.${server.domain}`));
    expect(names.length).toBeGreaterThan(0);
    return client.plan.secrets.flatMap((c) => names.map((name) => ({
      server: s.name, client: c.name, name, serverSecret: server.secrets.get(s.name)!, clientSecret: client.secrets.get(c.name)!,
    })));
  });
}

/** OpenSSL (node:tls) on both sides: the rejections, as lines. */
export async function nodeRejections(tries: readonly CrossTry[]): Promise<string[]> {
  const rejected: string[] = [];
  // By the server's Secret itself: Secrets of one name in two clusters are two servers.
  for (const s of [...new Set(tries.map((t) => t.serverSecret))]) {
    const mine = tries.filter((t) => t.serverSecret === s);
    const listening = await HandshakeServer.start({ cert: s['tls.crt'], key: s['tls.key'], ca: s['ca.crt'] });
    try {
      for (const t of mine) {
        const c = t.clientSecret;
        const outcome = await listening.handshake({ cert: c['tls.crt'], key: c['tls.key'], ca: c['ca.crt'] }, { name: t.name });
        if (!outcome.ok) {
          rejected.push(`${t.client} → ${t.server} as ${t.name}: ${describeOutcome(outcome)}`);
        }
      }
    } finally {
      await listening.close();
    }
  }
  return rejected;
}

/** Go's crypto/tls on both sides (the Go peer): the rejections, as lines. */
export function goRejections(tries: readonly CrossTry[]): string[] {
  const input = tries.map((t) => ({
    serverCert: t.serverSecret['tls.crt'], serverKey: t.serverSecret['tls.key'], serverTrust: t.serverSecret['ca.crt'],
    clientCert: t.clientSecret['tls.crt'], clientKey: t.clientSecret['tls.key'], clientTrust: t.clientSecret['ca.crt'], serverName: t.name,
  }));
  const run = spawnSync(tool('tls-peer'), [], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    throw new Error(`the Go peer failed (${run.status}): ${run.stderr}`);
  }
  const results: { ok: boolean; serverError?: string; clientError?: string }[] = JSON.parse(run.stdout);
  expect(results).toHaveLength(tries.length);
  return results.flatMap((r, i) => (r.ok ? [] : [`${tries[i].client} → ${tries[i].server} as ${tries[i].name}: ${r.clientError ?? ''} ${r.serverError ?? ''}`]));
}

/** The public key of a PEM private key or certificate, as DER, to compare keys by. */
export function publicKeyOf(pem: string): string {
  const key = pem.includes('PRIVATE KEY') ? crypto.createPublicKey(crypto.createPrivateKey(pem)) : new crypto.X509Certificate(pem).publicKey;
  return key.export({ type: 'spki', format: 'der' }).toString('base64');
}

/** The certificates of a PEM bundle, in order. */
export function certificatesOf(pem: string): crypto.X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((c) => new crypto.X509Certificate(c));
}

/** What one command block did. */
export interface Ran {
  readonly block: DocBlock;
  readonly status: number;
  readonly output: string;
}

/** Runs a command block as a reader's shell would, from `cwd`; returns what it did and the folder it left off in. */
export function runBlock(block: DocBlock, cwd: string, env: NodeJS.ProcessEnv, scratch: string): Promise<Ran & { cwd: string }> {
  const script = path.join(scratch, `block-${block.line}.sh`);
  const pwd = path.join(scratch, `block-${block.line}.pwd`);
  fs.writeFileSync(script, block.text);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-eo', 'pipefail', '-c', 'cd "$1"; . "$2"; pwd > "$3"', 'bash', cwd, script, pwd], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ block, status: code ?? 1, output, cwd: code === 0 ? fs.readFileSync(pwd, 'utf8').trim() : cwd }));
  });
}

/** One kubeconfig holding each control plane as a context of its own, named after its Kubernetes cluster. */
export function mergedKubeconfig(planes: ReadonlyMap<string, ControlPlane>, file: string): void {
  const merged = { apiVersion: 'v1', kind: 'Config', clusters: [] as unknown[], users: [] as unknown[], contexts: [] as unknown[], 'current-context': '' };
  for (const [name, plane] of planes) {
    const config = YAML.parse(fs.readFileSync(plane.kubeconfig, 'utf8'));
    const context = config.contexts.find((c: any) => c.name === config['current-context']) ?? config.contexts[0];
    merged.clusters.push({ name, cluster: config.clusters.find((c: any) => c.name === context.context.cluster).cluster });
    merged.users.push({ name, user: config.users.find((u: any) => u.name === context.context.user).user });
    merged.contexts.push({ name, context: { cluster: name, user: name } });
  }
  merged['current-context'] = [...planes.keys()][0];
  fs.writeFileSync(file, YAML.stringify(merged), { mode: 0o600 });
}

/** Stops a guide's control planes and removes its workspace, if one was made: the teardown of every live suite of a span's guide. */
export async function stopGuide(planes: ReadonlyMap<string, ControlPlane>, work: string | undefined): Promise<void> {
  for (const plane of planes.values()) {
    await plane.stop();
  }
  if (work) {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The workspace a span's guide runs in, below `work`: the app folder (`orders-app`, its
 * node_modules linked to this project's, the package's command as `npx cluster-tls`), kubectl and
 * cmctl on the search path, a private HOME, and one kubeconfig with a context per control plane,
 * named after its Kubernetes cluster. Returns the app folder and the environment of the reader's shell.
 */
export function guideWorkspace(work: string, planes: ReadonlyMap<string, ControlPlane>): { app: string; env: NodeJS.ProcessEnv } {
  const app = path.join(work, 'orders-app');
  const modules = path.join(app, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  fs.symlinkSync(ROOT, path.join(modules, 'cdk8s-cluster-tls'));
  // The package's command, as npm links a dependency's bin: npx cluster-tls.
  fs.rmSync(path.join(modules, '.bin'));
  fs.mkdirSync(path.join(modules, '.bin'));
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules', '.bin'))) {
    fs.symlinkSync(path.join(ROOT, 'node_modules', '.bin', entry), path.join(modules, '.bin', entry));
  }
  fs.writeFileSync(path.join(modules, '.bin', 'cluster-tls'), `#!/bin/sh\nexec node ${JSON.stringify(path.join(ROOT, 'build', 'jsii', 'bin', 'cluster-tls.js'))} "$@"\n`, { mode: 0o755 });
  const bin = path.join(work, 'bin');
  fs.mkdirSync(bin);
  for (const program of ['kubectl', 'cmctl'] as const) {
    fs.symlinkSync(tool(program), path.join(bin, program));
  }
  const home = path.join(work, 'home');
  fs.mkdirSync(home, { mode: 0o700 });
  const kubeconfig = path.join(work, 'kubeconfig');
  mergedKubeconfig(planes, kubeconfig);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: `${bin}${path.delimiter}${process.env.PATH}`, KUBECONFIG: kubeconfig, KUBECACHEDIR: path.join(work, 'kube-cache') };
  for (const name of ['KUBECTL', 'ROOT_KUBECTL', 'CDK8S_OUTDIR', 'ROOT_CA']) {
    delete env[name];
  }
  return { app, env };
}
