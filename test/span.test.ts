/**
 * One database cluster across Kubernetes clusters (`span`). The props: host names in every
 * cluster's domain, the DatabaseCluster's `acrossK8s` and `cluster`, the CA Issuers on the
 * intermediate's Secret, every refusal. Then docs/how-to/across-kubernetes-clusters.md, run as
 * written on two real API servers, each with the real cert-manager (test/_control-plane.ts), with
 * the real cfssl making the root and the intermediates: every handshake between the Secrets of one
 * cluster and those of the other, dialed by the other cluster's domain, with OpenSSL (node:tls)
 * and Go's crypto/tls, and the private keys each cluster holds.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { ClusterCertificates, IssuingMethod, KubernetesClusterSpec, TlsDatabaseCluster } from '../lib';
import type { TlsPlan } from '../lib/certificates/certificate-options';
import { HandshakeServer, describeOutcome, dialedNames } from '../lib/verify/handshake';
import { CONTROL_PLANE_TOOLS, ControlPlane, describeWithTools, tool } from './_control-plane';
import { expectValidAgainstCrds } from './_crds';
import { DocBlock, ROOT, readmeBlocks } from './_readme';
import type { SecretPem } from './_handshakes';

const GUIDE = 'docs/how-to/across-kubernetes-clusters.md';
const RUN_MARKER = '<!-- run: test/span.test.ts -->';
const CLUSTERS: KubernetesClusterSpec[] = [{ name: 'east', clusterDomain: 'east.example.com' }, { name: 'west', clusterDomain: 'west.example.com' }];

/** One Kubernetes cluster's app, as the guide builds it, with extra props for the certificates. */
function span(current: string, props: Record<string, unknown> = {}) {
  const app = Testing.app();
  const chart = new Chart(app, 'orders', { namespace: 'orders' });
  const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: 'orders', span: { clusters: CLUSTERS, current }, ...props });
  const database = new TlsDatabaseCluster(chart, 'database', {
    clusterName: 'orders', version: 'v8.5.0', operatorVersion: 'v1.6.6', certificates,
    coordinator: { baseImage: 'r/coordinator', storage: '10Gi' }, store: { baseImage: 'r/store', storage: '10Gi' }, sqlserver: { baseImage: 'r/sqlserver' },
  });
  return { app, chart, certificates, database, objects: Testing.synth(chart) };
}

/** The message of what `build` throws. */
function refusal(build: () => unknown): string {
  try {
    build();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('nothing was refused');
}

describe('span, as props', () => {
  test('every server certificate names its host names in every Kubernetes cluster\'s domain, after the specification\'s', () => {
    const { certificates } = span('west');
    const store = certificates.serverCertificates.find((s) => s.token === 'store')!;
    expect(store.dnsNames).toEqual([
      'orders-store', 'orders-store.orders', 'orders-store.orders.svc',
      'orders-store-peer', 'orders-store-peer.orders', 'orders-store-peer.orders.svc',
      '*.orders-store-peer', '*.orders-store-peer.orders', '*.orders-store-peer.orders.svc',
      'orders-store.orders.svc.east.example.com', 'orders-store-peer.orders.svc.east.example.com', '*.orders-store-peer.orders.svc.east.example.com',
      'orders-store.orders.svc.west.example.com', 'orders-store-peer.orders.svc.west.example.com', '*.orders-store-peer.orders.svc.west.example.com',
    ]);
    expect(certificates.clusterDomain).toBe('west.example.com');
  });

  test('the first cluster\'s DatabaseCluster is acrossK8s; every other one joins it by its domain', () => {
    const spec = (current: string) => span(current).objects.find((o) => o.kind === 'DatabaseCluster').spec;
    expect(spec('east')).toMatchObject({ acrossK8s: true, clusterDomain: 'east.example.com' });
    expect(spec('east').cluster).toBeUndefined();
    expect(spec('west')).toMatchObject({ acrossK8s: true, clusterDomain: 'west.example.com', cluster: { name: 'orders', namespace: 'orders', clusterDomain: 'east.example.com' } });
  });

  test('the CA Issuers sign with this cluster\'s intermediate, and no CA of the cluster\'s own is declared', () => {
    const { objects, certificates } = span('west');
    const issuers = objects.filter((o) => o.kind === 'Issuer');
    expect(issuers.map((i) => [i.metadata.name, i.spec])).toEqual([['orders-db-issuer', { ca: { secretName: 'orders-west-intermediate-ca-secret' } }]]);
    expect(objects.filter((o) => o.kind === 'Certificate' && o.spec.isCA)).toEqual([]);
    expect(certificates.caSecretName).toBe('orders-west-intermediate-ca-secret');
    expect(certificates.externalTlsSecrets()).toEqual([{ name: 'orders-west-intermediate-ca-secret', namespace: 'orders', usedBy: 'cert-manager\'s CA Issuer of Kubernetes cluster west' }]);
    expectValidAgainstCrds(objects);
  });

  test.each([
    ['method', { method: IssuingMethod.CFSSL }, 'orders/certificates: method: received "cfssl"; expected "cert-manager" with span'],
    ['issuerRef', { issuerRef: { name: 'corp', kind: 'ClusterIssuer' } }, 'expected no issuerRef with span'],
    ['rotations', { rotations: [{ id: '2027-01' }] }, 'orders/certificates: rotations: received "1 rotation"; expected no rotations with span'],
    ['caRenewBefore', { caRenewBefore: '1440h' }, 'orders/certificates: caRenewBefore: received "1440h"; expected no caRenewBefore with span'],
    ['caKeyRotationPolicy', { caKeyRotationPolicy: 'Never' }, 'orders/certificates: caKeyRotationPolicy: received "Never"; expected no caKeyRotationPolicy with span'],
    ['an Ed25519 key', { privateKey: { algorithm: 'Ed25519' } }, 'orders/certificates: privateKey.algorithm: received "Ed25519"; expected RSA or ECDSA with span'],
    ['clusterDomain', { clusterDomain: 'cluster.local' }, 'orders/certificates: clusterDomain: received "cluster.local"; expected no clusterDomain with span'],
  ])('refuses %s with span, naming the field and what is expected', (_field, props, message) => {
    expect(refusal(() => span('east', props))).toContain(message);
  });

  test.each([
    [{ clusters: [], current: 'east' }, 'span.clusters: received "0 Kubernetes clusters"; expected from 1 to 10 Kubernetes clusters'],
    [{ clusters: [CLUSTERS[0], { ...CLUSTERS[1], name: 'east' }], current: 'east' }, 'span.clusters[1].name: received "east"; expected a name no other Kubernetes cluster of the span has'],
    [{ clusters: [CLUSTERS[0], { ...CLUSTERS[1], clusterDomain: 'east.example.com' }], current: 'east' }, 'span.clusters[1].clusterDomain: received "east.example.com"; expected a domain no other'],
    [{ clusters: Array.from({ length: 11 }, (_, i) => ({ name: `k${i}`, clusterDomain: `k${i}.example.com` })), current: 'k0' }, 'span.clusters: received "11 Kubernetes clusters"; expected from 1 to 10'],
    [{ clusters: [{ name: 'east', clusterDomain: 'east..example.com' }], current: 'east' }, 'span.clusters[0].clusterDomain: received "east..example.com"'],
    [{ clusters: CLUSTERS, current: 'north' }, 'span.current: received "north"; expected the name of one of the span\'s Kubernetes clusters: "east", "west"'],
    [{ clusters: [{ name: 'East_1', clusterDomain: 'east.example.com' }], current: 'East_1' }, 'span.clusters[0].name: received "East_1"'],
  ])('refuses the span %j', (given, message) => {
    const chart = new Chart(Testing.app(), 'orders', { namespace: 'orders' });
    expect(refusal(() => new ClusterCertificates(chart, 'certificates', { clusterName: 'orders', span: given }))).toContain(`orders/certificates: ${message}`);
  });
});

/** Dialing one cluster's server from the other: the names of the server's cluster's domain alone, as the members of the other cluster reach it. */
interface CrossTry {
  readonly server: string;
  readonly client: string;
  readonly name: string;
  readonly serverSecret: SecretPem;
  readonly clientSecret: SecretPem;
}

/** Every handshake of `server`'s plan's server Secrets with every Secret of `client`'s plan, by the server cluster's fully qualified names. */
function crossTries(server: { plan: TlsPlan; secrets: Map<string, SecretPem>; domain: string }, client: { plan: TlsPlan; secrets: Map<string, SecretPem> }): CrossTry[] {
  return server.plan.secrets.filter((s) => s.role === 'server').flatMap((s) => {
    const names = dialedNames(s).filter((n) => n.endsWith(`.svc.${server.domain}`));
    expect(names.length).toBeGreaterThan(0);
    return client.plan.secrets.flatMap((c) => names.map((name) => ({
      server: s.name, client: c.name, name, serverSecret: server.secrets.get(s.name)!, clientSecret: client.secrets.get(c.name)!,
    })));
  });
}

/** OpenSSL (node:tls) on both sides: the rejections, as lines. */
async function nodeRejections(tries: readonly CrossTry[]): Promise<string[]> {
  const rejected: string[] = [];
  for (const server of [...new Set(tries.map((t) => t.server))]) {
    const mine = tries.filter((t) => t.server === server);
    const s = mine[0].serverSecret;
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
function goRejections(tries: readonly CrossTry[]): string[] {
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
function publicKeyOf(pem: string): string {
  const key = pem.includes('PRIVATE KEY') ? crypto.createPublicKey(crypto.createPrivateKey(pem)) : new crypto.X509Certificate(pem).publicKey;
  return key.export({ type: 'spki', format: 'der' }).toString('base64');
}

/** The certificates of a PEM bundle, in order. */
function certificatesOf(pem: string): crypto.X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((c) => new crypto.X509Certificate(c));
}

/** What one command block did. */
interface Ran {
  readonly block: DocBlock;
  readonly status: number;
  readonly output: string;
}

/** Runs a command block as a reader's shell would, from `cwd`; returns what it did and the folder it left off in. */
function runBlock(block: DocBlock, cwd: string, env: NodeJS.ProcessEnv, scratch: string): Promise<Ran & { cwd: string }> {
  const script = path.join(scratch, `block-${block.line}.sh`);
  const pwd = path.join(scratch, `block-${block.line}.pwd`);
  fs.writeFileSync(script, block.text);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-eo', 'pipefail', '-c', 'cd "$1"; . "$2"; pwd > "$3"', 'bash', cwd, script, pwd], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ block, status: code ?? 1, output, cwd: code === 0 ? fs.readFileSync(pwd, 'utf8').trim() : cwd }));
  });
}

/** One kubeconfig holding each control plane as a context of its own, named after its Kubernetes cluster. */
function mergedKubeconfig(planes: ReadonlyMap<string, ControlPlane>, file: string): void {
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

// Two control planes with cert-manager, the app's compile and the issuance on a loaded 2-core machine.
jest.setTimeout(600_000);

describeWithTools(`${GUIDE} on two real API servers with the real cert-manager`, [...CONTROL_PLANE_TOOLS, 'tls-peer'], () => {
  const planes = new Map<string, ControlPlane>();
  let work: string;
  let app: string;
  let env: NodeJS.ProcessEnv;
  const ran: Ran[] = [];
  const blocks = readmeBlocks(fs.readFileSync(path.join(ROOT, GUIDE), 'utf8'), GUIDE);

  /** Each cluster's plan and its Secrets as its API server holds them. */
  const site = (name: string) => {
    const plan: TlsPlan = JSON.parse(fs.readFileSync(path.join(app, name, 'cluster-tls', 'orders', 'orders', 'tls-plan.json'), 'utf8'));
    return { plan, secrets: planes.get(name)!.tlsSecrets('orders'), domain: CLUSTERS.find((c) => c.name === name)!.clusterDomain };
  };

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-'));
    for (const { name } of CLUSTERS) {
      const plane = await ControlPlane.start();
      planes.set(name, plane);
      await plane.startCertManager();
    }
    // The app of the tutorial's set-up: the library and its peers from this project's packages.
    app = path.join(work, 'orders-app');
    const modules = path.join(app, 'node_modules');
    fs.mkdirSync(modules, { recursive: true });
    for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
      fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
    }
    fs.symlinkSync(ROOT, path.join(modules, 'cdk8s-cluster-tls'));
    const bin = path.join(work, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(tool('kubectl'), path.join(bin, 'kubectl'));
    const home = path.join(work, 'home');
    fs.mkdirSync(home, { mode: 0o700 });
    const kubeconfig = path.join(work, 'kubeconfig');
    mergedKubeconfig(planes, kubeconfig);
    env = { ...process.env, HOME: home, PATH: `${bin}${path.delimiter}${process.env.PATH}`, KUBECONFIG: kubeconfig, KUBECACHEDIR: path.join(work, 'kube-cache') };
    for (const name of ['KUBECTL', 'CDK8S_OUTDIR', 'ROOT_CA']) {
      delete env[name];
    }
    // The guide's blocks in order: the app file written, each command block sourced where the one before left off.
    const scratch = path.join(work, 'blocks');
    fs.mkdirSync(scratch);
    let cwd = app;
    for (const block of blocks) {
      if (block.file !== undefined) {
        fs.writeFileSync(path.join(cwd, block.file), block.text);
        continue;
      }
      if (block.lang !== 'sh') {
        continue;
      }
      const before = fs.readFileSync(path.join(ROOT, GUIDE), 'utf8').split('\n')[block.line - 2];
      expect(`${GUIDE}:${block.line} ${before}`).toBe(`${GUIDE}:${block.line} ${RUN_MARKER}`);
      // ROOT_CA is exported by one block for the next ones, as the reader's shell keeps it.
      const done = await runBlock({ ...block, text: `${ran.some((r) => r.block.text.includes('export ROOT_CA')) ? 'export ROOT_CA="$HOME/orders-root-ca"\n' : ''}${block.text}` }, cwd, env, scratch);
      ran.push(done);
      if (done.status !== 0) {
        throw new Error(`${GUIDE}:${block.line} (${block.section}) exited ${done.status}:\n${block.text}--- output:\n${done.output}`);
      }
      cwd = done.cwd;
    }
  }, 1_200_000);

  afterAll(async () => {
    for (const plane of planes.values()) {
      await plane.stop();
    }
    if (work) {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  test('every command block of the guide ran as written, the last one printing that west\'s certificate verifies against east\'s ca.crt', () => {
    expect(ran.map((r) => r.block.section)).toEqual([
      '2. Synthesize one output per Kubernetes cluster', '3. Make the root and the first cluster\'s intermediate',
      '4. Issue the first cluster\'s certificates and deploy it', '5. Every other cluster, with the same root', '6. Check that the clusters trust each other',
    ]);
    expect(ran.at(-1)!.output).toContain('west-store.crt: OK');
    expect(ran[0].output).toContain('synthesized 1 manifest (');
  });

  test('each leaf\'s tls.crt is the leaf and its cluster\'s intermediate, and its ca.crt the root that signed both intermediates', () => {
    const east = site('east');
    const west = site('west');
    const rootPem = fs.readFileSync(path.join(env.HOME!, 'orders-root-ca', 'root-ca.pem'), 'utf8');
    const root = new crypto.X509Certificate(rootPem);
    for (const [name, s] of [['east', east], ['west', west]] as const) {
      const intermediate = certificatesOf(s.secrets.get(`orders-${name}-intermediate-ca-secret`)!['tls.crt']);
      expect(intermediate).toHaveLength(1);
      expect(intermediate[0].checkIssued(root) && intermediate[0].verify(root.publicKey)).toBe(true);
      expect(intermediate[0].ca).toBe(true);
      for (const secret of s.plan.secrets) {
        const pem = s.secrets.get(secret.name)!;
        const chain = certificatesOf(pem['tls.crt']);
        expect([secret.name, chain.length, chain[1]?.fingerprint256]).toEqual([secret.name, 2, intermediate[0].fingerprint256]);
        expect([secret.name, certificatesOf(pem['ca.crt']).map((c) => c.fingerprint256)]).toEqual([secret.name, [root.fingerprint256]]);
      }
    }
  });

  test('OpenSSL: every server Secret of one cluster accepts every Secret of the other, dialed by its own domain\'s names, both ways', async () => {
    const east = site('east');
    const west = site('west');
    const tries = [...crossTries(east, west), ...crossTries(west, east)];
    expect(await nodeRejections(tries)).toEqual([]);
    // Three server Secrets a cluster, five Secrets a cluster dialing, two names or more each.
    expect(tries.length).toBeGreaterThanOrEqual(2 * 3 * 5 * 2);
  });

  test('cluster-tls verify passes each cluster\'s Secrets against its own output, the root in the intermediate\'s ca.crt as the CA', () => {
    for (const { name } of CLUSTERS) {
      const secrets = planes.get(name)!.kubectl(['get', 'secrets', '-n', 'orders', '-o', 'json']);
      const run = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'cluster-tls.js'), 'verify', '--dist', path.join(app, name, 'dist'), '--secrets', '-', '--json'],
        { input: secrets.stdout, encoding: 'utf8' });
      const report = JSON.parse(run.stdout);
      expect([name, run.status, report.secrets.filter((r: any) => !r.ok).map((r: any) => r.name)]).toEqual([name, 0, []]);
      expect(report.plans[0].ca).toBe(`the root in ca.crt of the intermediate CA Secret orders-${name}-intermediate-ca-secret`);
    }
  });

  test('Go\'s crypto/tls: the same matrix across the clusters, with zero rejections', () => {
    const tries = [...crossTries(site('east'), site('west')), ...crossTries(site('west'), site('east'))];
    expect(goRejections(tries)).toEqual([]);
  });

  test('no Secret in west holds the root\'s key or east\'s intermediate\'s, and no key is left in the app\'s folders', () => {
    const rootKey = publicKeyOf(fs.readFileSync(path.join(env.HOME!, 'orders-root-ca', 'root-ca-key.pem'), 'utf8'));
    const eastIntermediate = publicKeyOf(site('east').secrets.get('orders-east-intermediate-ca-secret')!['tls.key']);
    const got = planes.get('west')!.kubectl(['get', 'secrets', '--all-namespaces', '-o', 'json']);
    expect(got.status).toBe(0);
    const westKeys = JSON.parse(got.stdout).items.flatMap((s: any) => Object.values<string>(s.data ?? {})
      .map((v) => Buffer.from(v, 'base64').toString('utf8')).filter((v) => v.includes('PRIVATE KEY')).map(publicKeyOf));
    expect(westKeys.length).toBeGreaterThanOrEqual(6);
    expect(westKeys.filter((k: string) => k === rootKey || k === eastIntermediate)).toEqual([]);
    // The intermediates' keys were made in a scratch folder and written nowhere but their Secrets.
    const files = fs.readdirSync(app, { recursive: true, encoding: 'utf8' }).filter((f) => !f.startsWith('node_modules')).map((f) => path.join(app, f));
    expect(files.filter((f) => fs.statSync(f).isFile() && fs.readFileSync(f, 'utf8').includes('PRIVATE KEY'))).toEqual([]);
    expect(fs.readdirSync(path.join(env.HOME!, 'orders-root-ca')).sort()).toEqual(['root-ca-key.pem', 'root-ca.pem']);
  });

  test('broken as a Secret without the root would break it: leaves issued from an intermediate without ca.crt trust the intermediate alone, and the other cluster rejects them', async () => {
    const west = planes.get('west')!;
    const intermediate = site('west').secrets.get('orders-west-intermediate-ca-secret')!;
    const ns = 'broken';
    expect(west.kubectl(['create', 'namespace', ns]).status).toBe(0);
    const cert = path.join(work, 'no-root.crt');
    const key = path.join(work, 'no-root.key');
    fs.writeFileSync(cert, intermediate['tls.crt']);
    fs.writeFileSync(key, intermediate['tls.key'], { mode: 0o600 });
    const created = west.kubectl(['create', 'secret', 'tls', 'no-root', '-n', ns, `--cert=${cert}`, `--key=${key}`]);
    fs.rmSync(key);
    expect(created.stderr).toBe('');
    const manifest = [
      { apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'no-root', namespace: ns }, spec: { ca: { secretName: 'no-root' } } },
      { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'leaf', namespace: ns }, spec: {
        secretName: 'leaf', commonName: 'orders', dnsNames: ['orders-store.orders.svc.west.example.com'], usages: ['server auth', 'client auth'], issuerRef: { name: 'no-root', kind: 'Issuer' },
      } },
    ].map((o) => YAML.stringify(o)).join('---\n');
    expect(west.kubectl(['apply', '-f', '-'], manifest).status).toBe(0);
    const waited = west.kubectl(['wait', '--for=condition=Ready', 'certificate/leaf', '-n', ns, '--timeout=2m']);
    expect(waited.stderr).toBe('');
    const leaf = west.tlsSecrets(ns).get('leaf')!;
    expect(certificatesOf(leaf['ca.crt']).map((c) => c.fingerprint256)).toEqual(certificatesOf(intermediate['tls.crt']).map((c) => c.fingerprint256));
    const east = site('east');
    const tries = east.plan.secrets.filter((s) => s.role === 'client').map((c) => ({
      server: 'leaf', client: c.name, name: 'orders-store.orders.svc.west.example.com', serverSecret: leaf, clientSecret: east.secrets.get(c.name)!,
    }));
    const rejected = await nodeRejections(tries);
    expect(rejected).toHaveLength(tries.length);
    expect(goRejections(tries)).toHaveLength(tries.length);
  });

  test('the script keeps a Secret that exists, and refuses --new-root over a root, a folder without one, and a root inside a synth output', () => {
    const script = path.join(app, 'west', 'cluster-tls', 'orders', 'orders', 'cfssl', 'issue-intermediate.sh');
    const run = (args: string[]) => spawnSync(script, args, { env: { ...env, KUBECTL: 'kubectl --context=west' }, encoding: 'utf8' });
    const again = run([path.join(env.HOME!, 'orders-root-ca')]);
    expect([again.status, again.stdout.trim()]).toEqual([0, `Secret orders/orders-west-intermediate-ca-secret exists, signed by the root in ${path.join(env.HOME!, 'orders-root-ca')}: kept`]);
    // Another root than the one that signed the Secret: refused, since the clusters would not trust each other.
    const other = path.join(work, 'other-root');
    const otherRoot = run(['--new-root', other]);
    expect([otherRoot.status, otherRoot.stderr]).toEqual([1, expect.stringContaining('exists with another root in its ca.crt')]);
    // A relative folder is taken from where the script runs.
    const relative = spawnSync(script, ['../home/orders-root-ca'], { cwd: path.join(work, 'blocks'), env: { ...env, KUBECTL: 'kubectl --context=west' }, encoding: 'utf8' });
    expect([relative.status, relative.stdout]).toEqual([0, expect.stringContaining('kept')]);
    // A cluster whose Secret does not exist yet: delete west's and watch each refusal leave it absent.
    const saved = planes.get('west')!.kubectl(['get', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders', '-o', 'json']);
    expect(planes.get('west')!.kubectl(['delete', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders']).status).toBe(0);
    try {
      const overRoot = run(['--new-root', path.join(env.HOME!, 'orders-root-ca')]);
      expect([overRoot.status, overRoot.stderr.trim()]).toEqual([1, `issue-intermediate.sh: ${path.join(env.HOME!, 'orders-root-ca')} already holds a root CA; run without --new-root to sign with it`]);
      const empty = fs.mkdtempSync(path.join(work, 'empty-'));
      const none = run([empty]);
      expect([none.status, none.stderr]).toEqual([1, expect.stringContaining(`${empty} holds no root CA`)]);
      const inOutput = run(['--new-root', path.join(app, 'west', 'dist', 'sub', 'root')]);
      expect([inOutput.status, inOutput.stderr]).toEqual([1, expect.stringContaining('is inside the synth output')]);
      expect(fs.existsSync(path.join(app, 'west', 'dist', 'sub'))).toBe(false);
      const usage = run([]);
      expect([usage.status, usage.stderr.trim()]).toEqual([1, 'issue-intermediate.sh: usage: issue-intermediate.sh [--new-root] ROOT_FOLDER (the folder that keeps the span\'s root CA)']);
      expect(planes.get('west')!.kubectl(['get', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders']).status).not.toBe(0);
    } finally {
      const secret = JSON.parse(saved.stdout);
      delete secret.metadata.resourceVersion;
      delete secret.metadata.uid;
      expect(planes.get('west')!.kubectl(['create', '-f', '-'], JSON.stringify(secret)).status).toBe(0);
    }
  });
});
