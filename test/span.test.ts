/**
 * One database cluster across Kubernetes clusters (`span`). The props: host names in every
 * cluster's domain, the DatabaseCluster's `acrossK8s` and `cluster`, the CA Issuers on the
 * intermediate's Secret, every refusal. Then docs/how-to/across-kubernetes-clusters.md, run as
 * written on three real API servers, each with the real cert-manager (test/_control-plane.ts), with
 * the real cfssl making the root and the intermediates and the real cmctl renewing: a cluster added
 * after the first two, then an intermediate renewed; every handshake between the Secrets of each
 * cluster and those of each other one, dialed by the server cluster's domain, and across the
 * renewal, with OpenSSL (node:tls) and Go's crypto/tls; what the added cluster changed in the
 * others; and the private keys each cluster holds. Last, the guide's root replacement: each
 * cluster's rotation runbook of each phase run as written, with pods on each API server
 * (test/_live-cluster.ts) checked within each cluster and across after every step.
 */
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { ClusterCertificates, IssuingMethod, KubernetesClusterSpec, RotationPhase, TlsDatabaseCluster, synthesize, synthesizeAll } from '../lib';
import * as names from '../lib/model/names';
import { OutputFile } from '../lib/app/output-file';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { describeOutcome, dialedNames, mutualHandshake } from '../lib/verify/handshake';
import { CONTROL_PLANE_TOOLS, ControlPlane, describeWithTools } from './_control-plane';
import { expectValidAgainstCrds } from './_crds';
import { ROOT, readmeBlocks } from './_readme';
import type { SecretPem } from './_handshakes';
import { LiveCluster } from './_live-cluster';
import { RotationSimulator } from './_rotation-simulator';
import { refusal } from './_refusal';
import { bash, failures, runRunbook, shellBlocks, verifyReport } from './_runbooks';
import { Ran, certificatesOf, crossTries, goRejections, guideWorkspace, nodeRejections, publicKeyOf, runBlock, stopGuide } from './_span-guide';
import { createFakeKubectl } from './_fake-kubectl';

const GUIDE = 'docs/how-to/across-kubernetes-clusters.md';
const RUN_MARKER = '<!-- run: test/span.test.ts -->';
const CLUSTERS: KubernetesClusterSpec[] = [{ name: 'east', clusterDomain: 'east.example.com' }, { name: 'west', clusterDomain: 'west.example.com' }];
/** The same span, each Kubernetes cluster with a namespace of its own. */
const SITES: KubernetesClusterSpec[] = CLUSTERS.map((c) => ({ ...c, namespace: `orders-${c.name}` }));

/** One Kubernetes cluster's app, as the guide builds it, with extra props for the certificates. */
function span(current: string, props: Record<string, unknown> = {}, clusters = CLUSTERS, namespace = 'orders') {
  const app = Testing.app();
  const chart = new Chart(app, 'orders', { namespace });
  const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: 'orders', span: { clusters, current }, ...props });
  const database = new TlsDatabaseCluster(chart, 'database', {
    clusterName: 'orders', version: 'v8.5.0', operatorVersion: 'v1.6.6', certificates,
    coordinator: { baseImage: 'r/coordinator', storage: '10Gi' }, store: { baseImage: 'r/store', storage: '10Gi' }, sqlserver: { baseImage: 'r/sqlserver' },
  });
  return { app, chart, certificates, database, objects: Testing.synth(chart) };
}


describe('span, as props', () => {
  test('every server certificate names its fully qualified host names in its own Kubernetes cluster\'s domain, after the specification\'s', () => {
    const { certificates } = span('west');
    const store = certificates.serverCertificates.find((s) => s.token === 'store')!;
    expect(store.dnsNames).toEqual([
      'orders-store', 'orders-store.orders', 'orders-store.orders.svc',
      'orders-store-peer', 'orders-store-peer.orders', 'orders-store-peer.orders.svc',
      '*.orders-store-peer', '*.orders-store-peer.orders', '*.orders-store-peer.orders.svc',
      'orders-store.orders.svc.west.example.com', 'orders-store-peer.orders.svc.west.example.com', '*.orders-store-peer.orders.svc.west.example.com',
    ]);
    expect(certificates.clusterDomain).toBe('west.example.com');
  });

  test('a Kubernetes cluster added at the end of the span changes nothing in the others\' output', () => {
    const north = [...CLUSTERS, { name: 'north', clusterDomain: 'north.example.com' }];
    for (const { name } of CLUSTERS) {
      expect(span(name, {}, north).objects).toEqual(span(name).objects);
    }
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
    expect(certificates.externalTlsSecrets()).toEqual([{ name: 'orders-west-intermediate-ca-secret', namespace: 'orders', cluster: 'database', usedBy: 'cert-manager\'s CA Issuer of Kubernetes cluster west' }]);
    expectValidAgainstCrds(objects);
  });

  test('a root replacement: the Issuers move to the next root\'s intermediate when the leaves switch, and the phase\'s script trusts each root from its intermediate\'s ca.crt', () => {
    const at = (phase: RotationPhase) => {
      const { objects, app } = span('west', { rotations: [{ id: 'root-2', phase }] });
      const files = new Map(app.node.findAll().filter((c): c is OutputFile => c instanceof OutputFile).map((f) => [path.basename(f.path), f.render()]));
      return { issuer: objects.find((o) => o.kind === 'Issuer').spec.ca.secretName, files };
    };
    const trustBoth = at(RotationPhase.TRUST_BOTH);
    expect(trustBoth.issuer).toBe('orders-west-intermediate-ca-secret');
    const script = trustBoth.files.get('rotate-certificates.sh')!;
    // Both roots, read from the ca.crt of each intermediate's Secret; the next one must exist first.
    expect(script).toContain('get_key \'orders-west-intermediate-ca-root-2-secret\' ca.crt');
    expect(script).toContain('get_key \'orders-west-intermediate-ca-secret\' ca.crt');
    expect(script).toContain('secret_exists \'orders-west-intermediate-ca-root-2-secret\' || fail "Secret orders/orders-west-intermediate-ca-root-2-secret does not exist; "'
      + '\'sign it first: run ../cluster-tls/orders/orders/cfssl/issue-intermediate.sh "$ROOT_CA" from the output folder');
    // Checked before the leaves leave cert-manager's hands, so a run without the intermediate changes nothing.
    expect(script.indexOf('secret_exists \'orders-west-intermediate-ca-root-2-secret\'')).toBeLessThan(script.indexOf('delete certificate'));
    expect(script).not.toContain('secret_exists \'orders-west-intermediate-ca-secret\'');
    expect(trustBoth.files.get('issue-intermediate.sh')).toContain('root="$root/root-2"');
    const runbook = trustBoth.files.get('rotation-runbook.md')!;
    expect(runbook).toContain('## 1. Issue the intermediate CA of rotation root-2 of Kubernetes cluster west');
    expect(runbook).toContain('every Kubernetes cluster does this phase, and passes its check, before any of them commits the next phase');
    expect(at(RotationPhase.SWITCH_LEAVES).issuer).toBe('orders-west-intermediate-ca-root-2-secret');
    const dropOld = at(RotationPhase.DROP_OLD);
    expect(dropOld.issuer).toBe('orders-west-intermediate-ca-root-2-secret');
    expect(dropOld.files.get('rotation-runbook.md')).toContain('kubectl delete secret -n orders --ignore-not-found orders-west-intermediate-ca-secret');
    expect(dropOld.files.get('rotation-runbook.md')).not.toContain('kubectl delete certificate -n orders --ignore-not-found orders-ca ');
  });

  test('the root replacement\'s script, run without the next root\'s intermediate, stops before it changes anything, naming the command that signs it', () => {
    const { app, certificates } = span('west', { rotations: [{ id: 'root-2', phase: RotationPhase.TRUST_BOTH }] });
    const script = app.node.findAll().filter((c): c is OutputFile => c instanceof OutputFile).find((f) => path.basename(f.path) === 'rotate-certificates.sh')!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'span-rotation-'));
    try {
      const file = path.join(dir, 'rotate-certificates.sh');
      fs.writeFileSync(file, script.render(), { mode: 0o700 });
      const kubectl = createFakeKubectl(path.join(dir, 'kubectl'));
      const pem = (name: string) => `-----BEGIN CERTIFICATE-----\n${Buffer.from(name).toString('base64')}\n-----END CERTIFICATE-----\n`;
      kubectl.putSecret('orders', 'orders-west-intermediate-ca-secret', { 'tls.crt': pem('intermediate'), 'tls.key': 'key', 'ca.crt': pem('root') });
      // The leaves cert-manager issued, owned by no Certificate: the script would take them out of its hands next.
      for (const { name } of certificates.plan().secrets) {
        kubectl.putSecret('orders', name, { 'tls.crt': pem(name), 'tls.key': 'key', 'ca.crt': pem('root') });
      }
      const run = () => spawnSync('bash', [file], { cwd: dir, encoding: 'utf8', env: { ...process.env, KUBECTL: kubectl.command } });
      const refused = run();
      expect([refused.status, refused.stderr.trim().split('\n').pop()]).toEqual([1, 'rotate-certificates.sh: Secret orders/orders-west-intermediate-ca-root-2-secret does not exist; '
        + 'sign it first: run ../cluster-tls/orders/orders/cfssl/issue-intermediate.sh "$ROOT_CA" from the output folder, with ROOT_CA naming the folder that keeps the root']);
      const writes = (calls: string[][]) => calls.filter((c) => !['get', 'version', 'auth'].includes(c[0]));
      expect(writes(kubectl.calls())).toEqual([]);
      // With the intermediate there, the script goes on past the check and releases the leaves.
      kubectl.putSecret('orders', 'orders-west-intermediate-ca-root-2-secret', { 'tls.crt': pem('next intermediate'), 'tls.key': 'key', 'ca.crt': pem('next root') });
      const ran = run();
      expect(ran.stderr).not.toContain('orders-west-intermediate-ca-root-2-secret does not exist');
      expect(kubectl.calls().filter((c) => c[0] === 'delete')).toEqual([['delete', 'certificate', '--namespace=orders', '--ignore-not-found', ...certificates.plan().secrets.map((x) => x.name)]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test.each([
    ['method', { method: IssuingMethod.CFSSL }, 'orders/certificates: method: received "cfssl"; expected "cert-manager" with span'],
    ['issuerRef', { issuerRef: { name: 'corp', kind: 'ClusterIssuer' } }, 'expected no issuerRef with span'],
    ['a CA renewal', { rotations: [{ id: '2027-01', kind: 'ca-renewal' }] }, 'orders/certificates: rotations[0].kind: received "ca-renewal"; expected "ca-replacement" or "leaf-renewal" with cert-manager'],
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
    [{ clusters: [CLUSTERS[0], { ...CLUSTERS[1], namespace: 'Orders_West' }], current: 'east' }, 'span.clusters[1].namespace: received "Orders_West"'],
    [{ clusters: [CLUSTERS[0], { ...CLUSTERS[1], namespace: 'orders-west' }], current: 'west' }, 'span.clusters[1].namespace: received "orders-west"; '
      + 'expected "orders", the namespace of these certificates, where the app of Kubernetes cluster west writes its objects, or none: '
      + 'declare in span.clusters the namespace each Kubernetes cluster\'s app gives its certificates, the same in every app of the span'],
  ])('refuses the span %j', (given, message) => {
    const chart = new Chart(Testing.app(), 'orders', { namespace: 'orders' });
    expect(refusal(() => new ClusterCertificates(chart, 'certificates', { clusterName: 'orders', span: given }))).toContain(`orders/certificates: ${message}`);
  });

  test('each Kubernetes cluster in a namespace of its own: the DatabaseCluster of every other one joins the first one\'s in the first one\'s namespace, and the plan holds the whole declaration', () => {
    const spec = (current: string, namespace: string) => span(current, {}, SITES, namespace).objects.find((o) => o.kind === 'DatabaseCluster');
    expect(spec('east', 'orders-east').spec.cluster).toBeUndefined();
    const west = spec('west', 'orders-west');
    expect([west.metadata.namespace, west.spec.cluster]).toEqual(['orders-west', { name: 'orders', namespace: 'orders-east', clusterDomain: 'east.example.com' }]);
    const { certificates } = span('west', {}, SITES, 'orders-west');
    expect(certificates.span!.first).toEqual({ name: 'east', clusterDomain: 'east.example.com', namespace: 'orders-east' });
    expect(certificates.plan().span).toEqual({ kubernetesCluster: 'west', clusterDomain: 'west.example.com', clusters: SITES });
    // An entry without a namespace takes the certificates' own.
    expect(span('west').certificates.plan().span!.clusters).toEqual(CLUSTERS.map((c) => ({ ...c, namespace: 'orders' })));
  });
});

describe('span, in the record of settings fixed at creation', () => {
  /** Synthesizes west's app of a span into `dir` (its own record beside the output). */
  const synthWest = (dir: string, clusters?: KubernetesClusterSpec[], acknowledgeRecreation: string[] = []) => {
    const app = new App();
    const chart = new Chart(app, 'orders', { namespace: 'orders' });
    const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: 'orders', ...(clusters ? { span: { clusters, current: 'west' } } : {}) });
    new TlsDatabaseCluster(chart, 'database', {
      clusterName: 'orders', version: 'v8.5.0', operatorVersion: 'v1.6.6', certificates,
      coordinator: { baseImage: 'r/coordinator', storage: '10Gi' }, store: { baseImage: 'r/store', storage: '10Gi' }, sqlserver: { baseImage: 'r/sqlserver' },
    });
    return synthesize(app, { outdir: path.join(dir, 'dist'), acknowledgeRecreation });
  };

  test('records where the cluster stands, and a cluster added at the end passes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-record-'));
    synthWest(dir, CLUSTERS);
    const record = JSON.parse(fs.readFileSync(path.join(dir, 'cluster-tls.lock.json'), 'utf8'));
    expect(record.clusters['DatabaseCluster/orders/orders'].across).toEqual({ clusterDomain: 'west.example.com', joins: 'east.example.com' });
    expect(() => synthWest(dir, [...CLUSTERS, { name: 'north', clusterDomain: 'north.example.com' }])).not.toThrow();
  });

  test.each([
    ['reordered, so that west would be first', [CLUSTERS[1], CLUSTERS[0]], 'received domain "west.example.com", the first cluster of its span; expected domain "west.example.com", joining the cluster in "east.example.com"'],
    ['dropped', undefined, 'received one Kubernetes cluster alone; expected domain "west.example.com", joining the cluster in "east.example.com"'],
  ])('refuses a running cluster\'s span %s, naming the recreation to acknowledge', (_what, clusters, message) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-record-'));
    synthWest(dir, CLUSTERS);
    const manifest = fs.readFileSync(path.join(dir, 'dist', 'orders.k8s.yaml'), 'utf8');
    expect(refusal(() => synthWest(dir, clusters))).toBe(`orders/database/Resource: DatabaseCluster "orders" span: ${message} as recorded in ${path.join(dir, 'cluster-tls.lock.json')}: `
      + 'a running cluster keeps its domain, the cluster it joins and its CA; add Kubernetes clusters at the end of the span only, or to re-create the cluster deliberately, set CLUSTER_TLS_RECREATE=DatabaseCluster/orders/orders');
    // Refused before anything is written; a deliberate re-creation passes.
    expect(fs.readFileSync(path.join(dir, 'dist', 'orders.k8s.yaml'), 'utf8')).toBe(manifest);
    expect(() => synthWest(dir, clusters, ['DatabaseCluster/orders/orders'])).not.toThrow();
  });

  test('records the namespace of the cluster west joins when it is not west\'s own, and refuses a running west another', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-record-'));
    const eastIn = (namespace: string) => [{ ...CLUSTERS[0], namespace }, CLUSTERS[1]];
    synthWest(dir, eastIn('orders-east'));
    const record = JSON.parse(fs.readFileSync(path.join(dir, 'cluster-tls.lock.json'), 'utf8'));
    expect(record.clusters['DatabaseCluster/orders/orders'].across).toEqual({ clusterDomain: 'west.example.com', joins: 'east.example.com', joinsNamespace: 'orders-east' });
    expect(refusal(() => synthWest(dir, eastIn('orders-east-2')))).toBe('orders/database/Resource: DatabaseCluster "orders" span: '
      + 'received domain "west.example.com", joining the cluster in namespace "orders-east-2" of "east.example.com"; '
      + `expected domain "west.example.com", joining the cluster in namespace "orders-east" of "east.example.com" as recorded in ${path.join(dir, 'cluster-tls.lock.json')}: `
      + 'a running cluster keeps its domain, the cluster it joins and its CA; add Kubernetes clusters at the end of the span only, or to re-create the cluster deliberately, set CLUSTER_TLS_RECREATE=DatabaseCluster/orders/orders');
  });

  test('refuses a span given to a running cluster of one Kubernetes cluster', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-record-'));
    synthWest(dir);
    expect(refusal(() => synthWest(dir, CLUSTERS))).toContain('span: received domain "west.example.com", joining the cluster in "east.example.com"; expected one Kubernetes cluster alone');
  });
});

describe('span, synthesized together', () => {
  /** Each Kubernetes cluster's app at a phase of the root's replacement, into `<dir>/<cluster>/dist`, the clusters in `unverified` moving on without a report. */
  const targets = (dir: string, phase?: RotationPhase, unverified: string[] = []) => CLUSTERS.map(({ name }) => ({
    app: span(name, phase === undefined ? {} : { rotations: [{ id: 'root-2', phase }] }).app,
    options: { outdir: path.join(dir, name, 'dist'), acknowledgeUnverifiedPhase: unverified.includes(name) ? ['orders/orders'] : [] },
  }));
  const manifests = (dir: string) => CLUSTERS.map(({ name }) => fs.readFileSync(path.join(dir, name, 'dist', 'orders.k8s.yaml'), 'utf8'));

  test('a phase refused in one Kubernetes cluster (no verify report of the phase before) writes no cluster\'s output, though the others\' checks pass', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-all-'));
    expect(synthesizeAll(targets(dir)).map((r) => r.outdir)).toEqual(CLUSTERS.map(({ name }) => path.join(dir, name, 'dist')));
    synthesizeAll(targets(dir, RotationPhase.TRUST_BOTH));
    const trustBoth = manifests(dir);
    // east may move on unverified; west has no report of trust-both, so neither moves.
    expect(refusal(() => synthesizeAll(targets(dir, RotationPhase.SWITCH_LEAVES, ['east'])))).toContain(`synthesizeAll.targets[1] (${path.join(dir, 'west', 'dist')}): certificates orders/orders: rotations: received root-2 at "switch-leaves"; expected root-2 at "trust-both" until cluster-tls verify shows every Secret of the cluster in it and every pod restarted since: no report at ${path.join(dir, 'west', 'cluster-tls-verify.orders.orders.json')}`);
    expect(manifests(dir)).toEqual(trustBoth);
    expect(fs.readdirSync(path.join(dir, 'east'))).not.toContain('.cluster-tls.lock');
    // Both acknowledged: both move, together.
    synthesizeAll(targets(dir, RotationPhase.SWITCH_LEAVES, ['east', 'west']));
    expect(manifests(dir).map((m) => m.includes('intermediate-ca-root-2-secret'))).toEqual([true, true]);
  });

  test('refuses apps of one span that declare other rotations, before writing any', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-all-'));
    const [east] = targets(dir, RotationPhase.TRUST_BOTH);
    const [, west] = targets(dir);
    expect(refusal(() => synthesizeAll([east, west]))).toBe(`synthesizeAll.targets[1] (${path.join(dir, 'west', 'dist')}): orders/certificates: rotations: received no rotations; `
      + `expected root-2 (ca-replacement) at "trust-both", as targets[0] (${path.join(dir, 'east', 'dist')}) declares them for cluster orders: `
      + 'the Kubernetes clusters of a span move phase by phase together; declare the rotations once, for every app of the span');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  /** The apps of `currents`, each from its own declaration and namespace, into `<dir>/<n>-<current>/dist`. */
  const declared = (dir: string, apps: { current: string; clusters?: KubernetesClusterSpec[]; namespace?: string; props?: Record<string, unknown> }[]) =>
    apps.map(({ current, clusters, namespace, props }, i) => ({ app: span(current, props, clusters, namespace).app, options: { outdir: path.join(dir, `${i}-${current}`, 'dist') } }));
  /** What synthesizeAll of those apps refuses, checking that it wrote nothing. */
  const refusedAll = (apps: Parameters<typeof declared>[1]) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-all-'));
    const message = refusal(() => synthesizeAll(declared(dir, apps)));
    expect(fs.readdirSync(dir)).toEqual([]);
    return message.split(dir).join('<dir>');
  };

  test('refuses two apps of one span that both write east\'s output (and none west\'s), before writing any', () => {
    expect(refusedAll([{ current: 'east' }, { current: 'east' }])).toBe('synthesizeAll.targets[1] (<dir>/1-east/dist): orders/certificates: span.current: received "east"; '
      + 'expected a Kubernetes cluster whose output no other target of cluster orders writes: targets[0] (<dir>/0-east/dist) writes east\'s; give each app of the span its own current');
  });

  test('refuses apps that leave a Kubernetes cluster of the span out, naming it: the outputs of a span move together or not at all', () => {
    const north = [...CLUSTERS, { name: 'north', clusterDomain: 'north.example.com' }];
    expect(refusedAll([{ current: 'east', clusters: north }, { current: 'west', clusters: north }])).toBe('ClusterTls: synthesizeAll.targets: '
      + 'received no target for Kubernetes cluster north of cluster orders across east, west, north; '
      + 'expected one target for each Kubernetes cluster of the span, so that its outputs are checked together: add the app whose span.current is "north", or synthesize outputs one at a time with synthesize');
  });

  test.each([
    ['another list of clusters', { current: 'west', clusters: [...CLUSTERS, { name: 'north', clusterDomain: 'north.example.com' }] },
      'span.clusters: received east, west, north; expected east, west, as targets[0] (<dir>/0-east/dist) declares them for cluster orders'],
    ['the clusters in another order', { current: 'west', clusters: [CLUSTERS[1], CLUSTERS[0]] },
      'span.clusters: received west, east; expected east, west, as targets[0] (<dir>/0-east/dist) declares them for cluster orders'],
    ['another domain for east, whose names west would join', { current: 'west', clusters: [{ ...CLUSTERS[0], clusterDomain: 'east.other.example.com' }, CLUSTERS[1]] },
      'span.clusters[0].clusterDomain: received "east.other.example.com"; expected "east.example.com", as targets[0] (<dir>/0-east/dist) declares it for cluster orders'],
    ['another domain for its own cluster', { current: 'west', clusters: [CLUSTERS[0], { ...CLUSTERS[1], clusterDomain: 'west.other.example.com' }] },
      'span.clusters[1].clusterDomain: received "west.other.example.com"; expected "west.example.com", as targets[0] (<dir>/0-east/dist) declares it for cluster orders'],
  ])('refuses apps of one span with %s, naming both targets and the field', (_what, west, message) => {
    expect(refusedAll([{ current: 'east' }, west])).toBe(`synthesizeAll.targets[1] (<dir>/1-west/dist): orders/certificates: ${message}: `
      + 'every app of a span gives it the same declaration; declare it once, in a module every app imports');
  });

  test('refuses apps in namespaces of their own that their declarations do not give, naming what to declare', () => {
    // Neither declares a namespace: each app's declaration puts every cluster in its own namespace.
    expect(refusedAll([{ current: 'east', namespace: 'orders-east' }, { current: 'west', namespace: 'orders-west' }])).toBe('synthesizeAll.targets[1] (<dir>/1-west/dist): '
      + 'orders/certificates: namespace: received "orders-west"; expected "orders-east", the namespace targets[0] (<dir>/0-east/dist) declares for Kubernetes cluster west of cluster orders '
      + '(an entry of span.clusters without namespace takes its app\'s): declare each Kubernetes cluster\'s namespace in span.clusters, the same in every app of the span: east "orders-east", west "orders-west"');
    // West declares them; east's app does not, and puts west in its own namespace.
    expect(refusedAll([{ current: 'west', clusters: SITES, namespace: 'orders-west' }, { current: 'east', namespace: 'orders-east' }])).toBe('synthesizeAll.targets[1] (<dir>/1-east/dist): '
      + 'orders/certificates: span.clusters[1].namespace: received "orders-east"; expected "orders-west", the namespace of targets[0] (<dir>/0-west/dist), Kubernetes cluster west\'s output of cluster orders '
      + '(an entry of span.clusters without namespace takes its app\'s): declare each Kubernetes cluster\'s namespace in span.clusters, the same in every app of the span: west "orders-west", east "orders-east"');
  });

  test('apps in namespaces of their own, declared once: west\'s DatabaseCluster joins east\'s in orders-east, and each plan holds the declaration', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-all-'));
    synthesizeAll(declared(dir, SITES.map((c) => ({ current: c.name, clusters: SITES, namespace: c.namespace }))));
    const west = YAML.parseAllDocuments(fs.readFileSync(path.join(dir, '1-west', 'dist', 'orders.k8s.yaml'), 'utf8')).map((d) => d.toJSON()).find((o) => o.kind === 'DatabaseCluster');
    expect([west.metadata.namespace, west.spec.cluster]).toEqual(['orders-west', { name: 'orders', namespace: 'orders-east', clusterDomain: 'east.example.com' }]);
    const plan = JSON.parse(fs.readFileSync(path.join(dir, '1-west', 'cluster-tls', 'orders-west', 'orders', 'tls-plan.json'), 'utf8'));
    expect(plan.span.clusters).toEqual(SITES);
  });

  test('refuses an app holding two spans of one cluster name over the same Kubernetes clusters: their apps could not be told apart', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-all-'));
    const twice = (current: string) => {
      const app = Testing.app();
      for (const team of ['team-a', 'team-b']) {
        new ClusterCertificates(new Chart(app, team, { namespace: team }), 'certificates', { clusterName: 'orders', components: ['store'], span: { clusters: CLUSTERS, current } });
      }
      return { app, options: { outdir: path.join(dir, current, 'dist') } };
    };
    expect(refusal(() => synthesizeAll(CLUSTERS.map((c) => twice(c.name))))).toBe(`synthesizeAll.targets[0] (${path.join(dir, 'east', 'dist')}): team-b/certificates: span: `
      + 'received a second span of cluster orders across east, west in one app (team-a/certificates declares the other); expected one cluster of a name across the same Kubernetes clusters '
      + 'in an app: synthesizeAll tells the apps of a span apart by cluster name; give one of the two database clusters another clusterName');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('two spans of one cluster name over other Kubernetes clusters (staging and production, say) are two spans', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-all-'));
    const staging = CLUSTERS.map((c) => ({ name: `staging-${c.name}`, clusterDomain: `staging.${c.clusterDomain}` }));
    expect(synthesizeAll(declared(dir, [...CLUSTERS.map((c) => ({ current: c.name })), ...staging.map((c) => ({ current: c.name, clusters: staging }))]))).toHaveLength(4);
  });
});

// Two control planes with cert-manager, the app's compile and the issuance on a loaded 2-core machine.
jest.setTimeout(600_000);

/** The Kubernetes clusters of the guide, with the one its section 7 adds. */
const GUIDE_CLUSTERS: KubernetesClusterSpec[] = [...CLUSTERS, { name: 'north', clusterDomain: 'north.example.com' }];
const ADD_SECTION = '7. Add a Kubernetes cluster later';
const RENEW_SECTION = '8. Renew an intermediate';
const ROOT_SECTION = '9. Replace the root';
/** Run by a suite of its own, on API servers of its own: the guide's start with a namespace per Kubernetes cluster. */
const NAMESPACES_SECTION = 'A namespace of its own in each Kubernetes cluster';
/** The phases of the root's replacement, one synth block of the guide each. */
const ROOT_PHASES = ['trust-both', 'switch-leaves', 'drop-old'] as const;

/** A cluster's Secrets, objects and output at one moment of the guide. */
interface Snapshot {
  readonly secrets: Map<string, SecretPem>;
  /** `Secret/<name>` → its resourceVersion, `Certificate/<name>` → its generation. */
  readonly versions: Map<string, string>;
  /** Every file of the cluster's output folder, files folder and record, by path. */
  readonly files: Map<string, string>;
}

/** Every file below a folder, by its path there. */
function filesBelow(dir: string): Map<string, string> {
  return new Map(fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort()
    .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

describeWithTools(`${GUIDE} on three real API servers with the real cert-manager`, [...CONTROL_PLANE_TOOLS, 'tls-peer', 'cmctl'], () => {
  const planes = new Map<string, ControlPlane>();
  let work: string;
  let app: string;
  let env: NodeJS.ProcessEnv;
  const ran: Ran[] = [];
  /** Each cluster's state right before a section's block runs, by section. */
  const before = new Map<string, Map<string, Snapshot>>();
  const blocks = readmeBlocks(fs.readFileSync(path.join(ROOT, GUIDE), 'utf8'), GUIDE);

  /** Each cluster's plan and its Secrets as its API server holds them. */
  const site = (name: string) => {
    const plan: TlsPlan = JSON.parse(fs.readFileSync(path.join(app, name, 'cluster-tls', 'orders', 'orders', 'tls-plan.json'), 'utf8'));
    return { plan, secrets: planes.get(name)!.tlsSecrets('orders'), domain: GUIDE_CLUSTERS.find((c) => c.name === name)!.clusterDomain };
  };

  /** What each cluster that has an output holds now. */
  const snapshot = (): Map<string, Snapshot> => new Map(GUIDE_CLUSTERS.filter(({ name }) => fs.existsSync(path.join(app, name, 'dist'))).map(({ name }) => {
    const got = planes.get(name)!.kubectl(['get', 'secrets,certificates', '-n', 'orders', '-o', 'json']);
    const items: any[] = got.status === 0 ? JSON.parse(got.stdout).items : [];
    return [name, {
      secrets: planes.get(name)!.tlsSecrets('orders'),
      versions: new Map(items.map((i) => [`${i.kind}/${i.metadata.name}`, String(i.kind === 'Secret' ? i.metadata.resourceVersion : i.metadata.generation)])),
      files: filesBelow(path.join(app, name)),
    }];
  }));

  /** Waits until every leaf of a cluster carries the intermediate its Secret holds now (cert-manager re-issued them). */
  const untilIssuedFrom = async (name: string) => {
    for (let i = 0; i < 120; i++) {
      const s = site(name);
      const intermediate = certificatesOf(s.secrets.get(`orders-${name}-intermediate-ca-secret`)!['tls.crt'])[0].fingerprint256;
      if (s.plan.secrets.every((p) => certificatesOf(s.secrets.get(p.name)?.['tls.crt'] ?? '')[1]?.fingerprint256 === intermediate)) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    throw new Error(`cert-manager did not re-issue the certificates of ${name} from its renewed intermediate within 120 s`);
  };

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-'));
    for (const { name } of GUIDE_CLUSTERS) {
      const plane = await ControlPlane.start();
      planes.set(name, plane);
      await plane.startCertManager();
    }
    ({ app, env } = guideWorkspace(work, planes));
    // The guide's blocks in order: each file written, each command block sourced where the one before left off.
    const scratch = path.join(work, 'blocks');
    fs.mkdirSync(scratch);
    let cwd = app;
    // The root's replacement runs after the tests of what came before it (its describe below);
    // the start with a namespace per Kubernetes cluster, in place of the first sections, in a suite of its own.
    for (const block of blocks.filter((b) => b.section !== ROOT_SECTION && b.section !== NAMESPACES_SECTION)) {
      if (block.file !== undefined) {
        fs.writeFileSync(path.join(cwd, block.file), block.text);
        continue;
      }
      if (block.lang !== 'sh') {
        continue;
      }
      const marker = fs.readFileSync(path.join(ROOT, GUIDE), 'utf8').split('\n')[block.line - 2];
      expect(`${GUIDE}:${block.line} ${marker}`).toBe(`${GUIDE}:${block.line} ${RUN_MARKER}`);
      // What the clusters held before the section's first block.
      if (!before.has(block.section)) {
        before.set(block.section, snapshot());
      }
      // ROOT_CA is exported by one block for the next ones, as the reader's shell keeps it.
      const done = await runBlock({ ...block, text: `${ran.some((r) => r.block.text.includes('export ROOT_CA')) ? 'export ROOT_CA="$HOME/orders-root-ca"\n' : ''}${block.text}` }, cwd, env, scratch);
      ran.push(done);
      if (done.status !== 0) {
        throw new Error(`${GUIDE}:${block.line} (${block.section}) exited ${done.status}:\n${block.text}--- output:\n${done.output}`);
      }
      cwd = done.cwd;
      if (block.section === ADD_SECTION) {
        // The GitOps tools of east and west apply their outputs, synthesized again with north in the span.
        for (const { name } of CLUSTERS) {
          const applied = planes.get(name)!.kubectl(['apply', '-f', path.join(app, name, 'dist', 'orders.k8s.yaml')]);
          expect([name, applied.status, applied.stderr]).toEqual([name, 0, '']);
        }
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
    }
    await untilIssuedFrom('west');
  }, 1_200_000);

  afterAll(() => stopGuide(planes, work));

  test('every command block of the guide ran as written, the check printing that west\'s certificate verifies against east\'s ca.crt', () => {
    expect(ran.map((r) => r.block.section)).toEqual([
      '2. Synthesize one output per Kubernetes cluster', '3. Make the root and the first cluster\'s intermediate',
      '4. Issue the first cluster\'s certificates and deploy it', '5. Every other cluster, with the same root',
      '6. Check that the clusters trust each other', '6. Check that the clusters trust each other', '6. Check that the clusters trust each other',
      ADD_SECTION, RENEW_SECTION, RENEW_SECTION,
    ]);
    expect(ran.find((r) => r.block.text.includes('openssl verify'))!.output).toContain('west-store.crt: OK');
    // cluster-tls verify, once per cluster: every Secret passed, the root as the CA.
    const verified = ran.find((r) => r.block.text.includes('cluster-tls verify'))!.output;
    expect(verified.match(/^\d+ secrets checked: \d+ passed, 0 failed$/gm)).toEqual(['5 secrets checked: 5 passed, 0 failed', '5 secrets checked: 5 passed, 0 failed']);
    // And across, the outputs of east and west, then of the three once west's intermediate was renewed.
    const across = ran.filter((r) => r.block.text.includes('cluster-tls verify \\\n')).map((r) => r.output.match(/^\d+ secrets checked: .*$/gm));
    expect(across).toEqual([['10 secrets checked: 10 passed, 0 failed'], ['15 secrets checked: 15 passed, 0 failed']]);
    expect(ran[0].output).toContain('synthesized 1 manifest (');
  });

  test('each leaf\'s tls.crt is the leaf and its cluster\'s intermediate, and its ca.crt the root that signed every intermediate', () => {
    const root = new crypto.X509Certificate(fs.readFileSync(path.join(env.HOME!, 'orders-root-ca', 'root-ca.pem'), 'utf8'));
    for (const { name } of GUIDE_CLUSTERS) {
      const s = site(name);
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

  /** Every directed pair of the three clusters, as they hold their Secrets at the end. */
  const allPairs = () => GUIDE_CLUSTERS.flatMap((a) => GUIDE_CLUSTERS.filter((b) => b.name !== a.name).flatMap((b) => crossTries(site(a.name), site(b.name))));

  /**
   * The renewal's mixed state: the Secrets west held before the renewal against those it holds after
   * it (pods that loaded one or the other while cert-manager re-issued), each side dialed as a server.
   */
  const renewalPairs = () => {
    const old = { ...site('west'), secrets: before.get(RENEW_SECTION)!.get('west')!.secrets };
    return [...crossTries(old, site('west')), ...crossTries(site('west'), old)];
  };

  test('OpenSSL: every server Secret of each cluster accepts every Secret of each other one, dialed by its own domain\'s names, and across the renewal', async () => {
    const tries = [...allPairs(), ...renewalPairs()];
    expect(await nodeRejections(tries)).toEqual([]);
    // Six directed pairs and the renewal's two, three server Secrets a cluster, five Secrets dialing, two names or more each.
    expect(tries.length).toBeGreaterThanOrEqual(8 * 3 * 5 * 2);
  });

  test('Go\'s crypto/tls: the same matrix, with zero rejections', () => {
    expect(goRejections([...allPairs(), ...renewalPairs()])).toEqual([]);
  });

  test('the renewal wrote a new intermediate with a new key over west\'s Secret, and left every ca.crt as it was', () => {
    const was = before.get(RENEW_SECTION)!.get('west')!.secrets;
    const is = site('west').secrets;
    const secret = 'orders-west-intermediate-ca-secret';
    expect(certificatesOf(is.get(secret)!['tls.crt'])[0].fingerprint256).not.toBe(certificatesOf(was.get(secret)!['tls.crt'])[0].fingerprint256);
    expect(publicKeyOf(is.get(secret)!['tls.key'])).not.toBe(publicKeyOf(was.get(secret)!['tls.key']));
    expect([...is.entries()].filter(([name, pem]) => pem['ca.crt'] !== was.get(name)?.['ca.crt']).map(([name]) => name)).toEqual([]);
  });

  test('adding north changed nothing in east and west but the list of the span in their plans, and once applied again, no Certificate changed and not one Secret written', () => {
    const was = before.get(ADD_SECTION)!;
    const is = before.get(RENEW_SECTION)!;
    for (const { name } of CLUSTERS) {
      const plan = 'cluster-tls/orders/orders/tls-plan.json';
      const changed = [...is.get(name)!.files].filter(([f, text]) => was.get(name)!.files.get(f) !== text).map(([f]) => f);
      expect([name, changed, is.get(name)!.files.size]).toEqual([name, [plan], was.get(name)!.files.size]);
      const [before, after] = [was, is].map((m) => JSON.parse(m.get(name)!.files.get(plan)!));
      expect(after).toEqual({ ...before, span: { ...before.span, clusters: GUIDE_CLUSTERS.map((c) => ({ ...c, namespace: 'orders' })) } });
      expect([name, Object.fromEntries(is.get(name)!.versions)]).toEqual([name, Object.fromEntries(was.get(name)!.versions)]);
      expect([...is.get(name)!.versions.keys()].filter((k) => k.startsWith('Certificate/')).length).toBeGreaterThanOrEqual(5);
    }
    expect(was.has('north')).toBe(false);
  });

  test('the rotation simulator: pods of three clusters through the addition of north and west\'s renewal, one pod at a time, reject no handshake within a cluster or across', async () => {
    /** A cluster's pods, started with the Secrets it held at a moment of the guide. */
    const simulate = (name: string, secrets: ReadonlyMap<string, SecretPem>) => {
      const { plan, domain } = site(name);
      const manifests = YAML.parseAllDocuments(fs.readFileSync(path.join(app, name, 'dist', 'orders.k8s.yaml'), 'utf8')).map((d) => d.toJSON());
      const sim = new RotationSimulator(plan, manifests);
      sim.startAll(secrets);
      // The name the other clusters' pods dial each server pod by: its fully qualified name in its own domain.
      const fqdn = new Map(plan.secrets.filter((x) => x.role === 'server').map((x) => [x.name, dialedNames(x).find((n) => n.endsWith(`.svc.${domain}`))!]));
      return { name, sim, fqdn };
    };
    const sims = [simulate('east', before.get(ADD_SECTION)!.get('east')!.secrets), simulate('west', before.get(ADD_SECTION)!.get('west')!.secrets)];
    const outages: string[] = [];
    let checks = 0;
    const checkAll = async (step: string) => {
      for (const s of sims) {
        outages.push(...(await s.sim.check(step)).map((o) => `${step}: ${s.name} ${o.client} → ${o.server}: ${o.reason}`));
        checks += 1;
      }
      for (const server of sims) {
        for (const client of sims.filter((c) => c !== server)) {
          for (const pod of server.sim.pods.filter((p) => p.component !== undefined)) {
            for (const peer of client.sim.pods.filter((p) => p.kind === pod.kind)) {
              const outcome = await mutualHandshake(server.sim.presented(pod), client.sim.presented(peer), { name: server.fqdn.get(pod.secretName) });
              checks += 1;
              if (!outcome.ok) {
                outages.push(`${step}: ${client.name} ${peer.name} → ${server.name} ${pod.name}: ${describeOutcome(outcome)}`);
              }
            }
          }
        }
      }
    };
    await checkAll('east and west running');
    sims.push(simulate('north', before.get(RENEW_SECTION)!.get('north')!.secrets));
    await checkAll('north started');
    // West's renewal: each pod takes the re-issued Secret, one at a time, from its volume when it re-reads its certificate, else by a restart.
    const west = sims[1];
    const renewed = site('west').secrets;
    for (const pod of west.sim.pods) {
      if (pod.reloadsLeaf) {
        west.sim.project(pod, renewed);
      } else {
        west.sim.restart(pod, renewed);
      }
      await checkAll(`west's renewal: ${pod.name} ${pod.reloadsLeaf ? 'reloaded' : 'restarted'}`);
    }
    expect(outages).toEqual([]);
    // Every pod of west ended on the renewed intermediate.
    expect(west.sim.pods.map((p) => certificatesOf(west.sim.presented(p).cert)[1].fingerprint256)).toEqual(west.sim.pods.map(() => certificatesOf(renewed.get('orders-west-intermediate-ca-secret')!['tls.crt'])[0].fingerprint256));
    expect(checks).toBeGreaterThan(100);
  });

  test('each cluster\'s database runbook: its intermediate and issuance steps run as written from the output folder, and keep what the guide issued', async () => {
    for (const { name } of GUIDE_CLUSTERS) {
      const runbook = fs.readFileSync(path.join(app, name, 'cluster-tls', 'orders', 'orders', 'database-runbook.md'), 'utf8');
      // Found by their titles: the namespace's step comes first.
      const steps = runbook.split(/^(?=## \d+\. )/m).filter((x) => /^## \d+\. Issue the /.test(x));
      expect(steps.map((x) => x.split('\n')[0])).toEqual([`## 2. Issue the intermediate CA of Kubernetes cluster ${name}`, '## 3. Issue the certificates with cert-manager']);
      const versions = snapshot().get(name)!.versions;
      for (const step of steps) {
        const block = shellBlocks(step)[0];
        expect(block.split('\n')[0]).toBe('# run in the output folder (the one that holds orders.k8s.yaml)');
        const output = await bash(block, path.join(app, name, 'dist'), { ...env, KUBECONFIG: planes.get(name)!.kubeconfig, ROOT_CA: path.join(env.HOME!, 'orders-root-ca') });
        if (step.startsWith('## 2.')) {
          expect(output).toContain(`Secret orders/orders-${name}-intermediate-ca-secret exists, signed by the root in ${path.join(env.HOME!, 'orders-root-ca')}: kept`);
        }
      }
      // Run again over what the guide made, the steps change nothing.
      expect([name, Object.fromEntries(snapshot().get(name)!.versions)]).toEqual([name, Object.fromEntries(versions)]);
    }
  });

  test('cluster-tls verify passes each cluster\'s Secrets against its own output, the root in the intermediate\'s ca.crt as the CA', () => {
    for (const { name } of GUIDE_CLUSTERS) {
      const secrets = planes.get(name)!.kubectl(['get', 'secrets', '-n', 'orders', '-o', 'json']);
      const run = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'cluster-tls.js'), 'verify', '--dist', path.join(app, name, 'dist'), '--secrets', '-', '--json'],
        { input: secrets.stdout, encoding: 'utf8' });
      const report = JSON.parse(run.stdout);
      expect([name, run.status, report.secrets.filter((r: any) => !r.ok).map((r: any) => r.name)]).toEqual([name, 0, []]);
      expect(report.plans[0].ca).toBe(`the root in ca.crt of the intermediate CA Secret orders-${name}-intermediate-ca-secret`);
    }
  });

  test('no Secret in a cluster holds the root\'s key or another cluster\'s intermediate\'s, and no key is left in the app\'s folders', () => {
    const rootKey = publicKeyOf(fs.readFileSync(path.join(env.HOME!, 'orders-root-ca', 'root-ca-key.pem'), 'utf8'));
    const intermediateKey = (name: string) => publicKeyOf(site(name).secrets.get(`orders-${name}-intermediate-ca-secret`)!['tls.key']);
    for (const { name } of GUIDE_CLUSTERS) {
      const got = planes.get(name)!.kubectl(['get', 'secrets', '--all-namespaces', '-o', 'json']);
      expect(got.status).toBe(0);
      const keys: string[] = JSON.parse(got.stdout).items.flatMap((s: any) => Object.values<string>(s.data ?? {})
        .map((v) => Buffer.from(v, 'base64').toString('utf8')).filter((v) => v.includes('PRIVATE KEY')).map(publicKeyOf));
      expect(keys.length).toBeGreaterThanOrEqual(6);
      const foreign = [rootKey, ...GUIDE_CLUSTERS.filter((c) => c.name !== name).map((c) => intermediateKey(c.name))];
      expect([name, keys.filter((k) => foreign.includes(k)).length]).toEqual([name, 0]);
    }
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

  test('the script keeps a Secret that exists, and refuses --new-root over a root, a folder without one, a root inside a synth output, and --renew without a Secret', () => {
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
      expect([overRoot.status, overRoot.stderr.trim()]).toEqual([1, `issue-intermediate.sh: ${path.join(env.HOME!, 'orders-root-ca')} already holds a root CA file (root-ca.pem or root-ca-key.pem); run without --new-root to sign with it, or give a new folder`]);
      const half = fs.mkdtempSync(path.join(work, 'half-'));
      fs.copyFileSync(path.join(env.HOME!, 'orders-root-ca', 'root-ca.pem'), path.join(half, 'root-ca.pem'));
      const halfRun = run([half]);
      expect([halfRun.status, halfRun.stderr]).toEqual([1, expect.stringContaining(`${half} holds no root CA (root-ca-key.pem is missing or empty); give the folder the first Kubernetes cluster's run made it in, or add --new-root`)]);
      const empty = fs.mkdtempSync(path.join(work, 'empty-'));
      const none = run([empty]);
      expect([none.status, none.stderr]).toEqual([1, expect.stringContaining(`${empty} holds no root CA`)]);
      const inOutput = run(['--new-root', path.join(app, 'west', 'dist', 'sub', 'root')]);
      expect([inOutput.status, inOutput.stderr]).toEqual([1, expect.stringContaining('is inside the synth output')]);
      expect(fs.existsSync(path.join(app, 'west', 'dist', 'sub'))).toBe(false);
      const usage = run([]);
      expect([usage.status, usage.stderr.trim()]).toEqual([1, 'issue-intermediate.sh: usage: issue-intermediate.sh [--new-root | --renew] ROOT_FOLDER (the folder that keeps the span\'s root CA)']);
      // --help prints the script's header, without the comment marks.
      const header = fs.readFileSync(script, 'utf8').split('\n').slice(1).filter((_line, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('#')))
        .map((l) => l.replace(/^# ?/, ''));
      const help = run(['--help']);
      expect([help.status, help.stdout]).toEqual([0, `${header.join('\n')}\n`]);
      expect(header[5]).toBe('Usage: issue-intermediate.sh [--new-root | --renew] ROOT_FOLDER');
      // A namespace the cluster lacks: the output of an app in namespace "absent", run against west.
      const absent = new App();
      const chart = new Chart(absent, 'absent', { namespace: 'absent' });
      new ClusterCertificates(chart, 'certificates', { clusterName: 'orders', span: { clusters: CLUSTERS, current: 'west' } }).addComponent('store');
      synthesize(absent, { outdir: path.join(work, 'absent', 'dist') });
      const absentScript = path.join(work, 'absent', 'cluster-tls', 'absent', 'orders', 'cfssl', 'issue-intermediate.sh');
      const noNamespace = spawnSync(absentScript, [path.join(env.HOME!, 'orders-root-ca')], { env: { ...env, KUBECTL: 'kubectl --context=west' }, encoding: 'utf8' });
      expect([noNamespace.status, noNamespace.stderr.trim()]).toEqual([1, 'issue-intermediate.sh: namespace absent does not exist in this Kubernetes cluster; create it first: kubectl create namespace absent']);
      // With --new-root too, before the root is made: run again once the namespace exists, it makes it then.
      const newRoot = spawnSync(absentScript, ['--new-root', path.join(work, 'absent-root')], { env: { ...env, KUBECTL: 'kubectl --context=west' }, encoding: 'utf8' });
      expect([newRoot.status, newRoot.stderr.trim(), fs.existsSync(path.join(work, 'absent-root'))]).toEqual([1, noNamespace.stderr.trim(), false]);
      const renewNone = run(['--renew', path.join(env.HOME!, 'orders-root-ca')]);
      expect([renewNone.status, renewNone.stderr]).toEqual([1, expect.stringContaining('does not exist, so there is no intermediate to renew; run without --renew to issue it')]);
      expect(planes.get('west')!.kubectl(['get', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders']).status).not.toBe(0);
    } finally {
      const secret = JSON.parse(saved.stdout);
      delete secret.metadata.resourceVersion;
      delete secret.metadata.uid;
      expect(planes.get('west')!.kubectl(['create', '-f', '-'], JSON.stringify(secret)).status).toBe(0);
    }
  });

  describe(ROOT_SECTION, () => {
    /** What each cluster held once its runbook of a phase ran, by `<phase> <cluster>`: its Secrets and its plan. */
    const states = new Map<string, { secrets: Map<string, SecretPem>; plan: TlsPlan }>();
    let start: Map<string, Snapshot>;
    const rootCa = () => path.join(env.HOME!, 'orders-root-ca');
    /** Each cluster's pods (Pod objects on its API server, loading their Secrets), restarted by the operator's part as the runbooks apply. */
    const lives = new Map<string, { live: LiveCluster; fqdn: Map<string, string> }>();
    const crossOutages: string[] = [];
    /** The section's check across the clusters, run after every cluster's runbook of each phase. */
    const acrossRuns = new Map<string, Ran>();
    let steps = 0;
    const verdicts = new Map<string, boolean>();
    const digest = (m: { cert: string; key: string; ca: string }) => crypto.createHash('sha256').update(`${m.cert}\0${m.key}\0${m.ca}`).digest('hex');

    /** After every step in any cluster: every server pod of each cluster with every pod of each other one, as its domain's name dials it. */
    const crossCheck = async (step: string) => {
      steps += 1;
      for (const [serverName, server] of lives) {
        for (const [clientName, client] of [...lives].filter(([n]) => n !== serverName)) {
          for (const pod of server.live.sim.pods.filter((p) => p.component !== undefined)) {
            for (const peer of client.live.sim.pods.filter((p) => p.kind === pod.kind && p.application === undefined)) {
              const [a, b, name] = [server.live.sim.presented(pod), client.live.sim.presented(peer), server.fqdn.get(pod.secretName)!];
              const key = `${digest(a)}/${digest(b)}/${name}`;
              if (!verdicts.has(key)) {
                const outcome = await mutualHandshake(a, b, { name });
                verdicts.set(key, outcome.ok);
                if (!outcome.ok) {
                  crossOutages.push(`${step}: ${clientName} ${peer.name} → ${serverName} ${pod.name}: ${describeOutcome(outcome)}`);
                }
              } else if (!verdicts.get(key)) {
                crossOutages.push(`${step}: ${clientName} ${peer.name} → ${serverName} ${pod.name}: rejected, as before`);
              }
            }
          }
        }
      }
    };

    beforeAll(async () => {
      start = snapshot();
      for (const { name, clusterDomain } of GUIDE_CLUSTERS) {
        const { plan } = site(name);
        const manifests = YAML.parseAllDocuments(fs.readFileSync(path.join(app, name, 'dist', 'orders.k8s.yaml'), 'utf8')).map((d) => d.toJSON());
        const live = new LiveCluster(planes.get(name)!, new RotationSimulator(plan, manifests), { namespace: 'orders', clusterName: 'orders', afterStep: (step) => crossCheck(`${name}: ${step}`) });
        const fqdn = new Map(plan.secrets.filter((x) => x.role === 'server').map((x) => [x.name, dialedNames(x).find((n) => n.endsWith(`.svc.${clusterDomain}`))!]));
        lives.set(name, { live, fqdn });
        await live.start();
      }
      await crossCheck('three clusters running on the first root');
      const scratch = path.join(work, 'blocks-root');
      fs.mkdirSync(scratch);
      const phases = [...ROOT_PHASES];
      // The check across the clusters, which the section gives once and runs after each phase.
      const across = blocks.filter((b) => b.section === ROOT_SECTION && b.text.includes('cluster-tls verify'));
      expect(across).toHaveLength(1);
      for (const block of blocks.filter((b) => b.section === ROOT_SECTION && !across.includes(b))) {
        if (block.file !== undefined) {
          fs.writeFileSync(path.join(app, block.file), block.text);
          continue;
        }
        const done = await runBlock({ ...block, text: `export ROOT_CA="$HOME/orders-root-ca"\n${block.text}` }, app, env, scratch);
        ran.push(done);
        if (done.status !== 0) {
          throw new Error(`${GUIDE}:${block.line} (${block.section}) exited ${done.status}:\n${block.text}--- output:\n${done.output}`);
        }
        // As the guide says: each cluster's rotation runbook, east first, kubectl pointing at it.
        const phase = phases.shift()!;
        for (const { name } of GUIDE_CLUSTERS) {
          const plane = planes.get(name)!;
          const { live } = lives.get(name)!;
          const site = { outdir: path.join(app, name, 'dist'), env: { ...env, KUBECONFIG: plane.kubeconfig, ROOT_CA: rootCa() }, namespace: 'orders', clusterName: 'orders', manifest: 'orders.k8s.yaml' };
          await runRunbook(site, 'orders/orders/rotation-runbook.md', {
            // The team's own clients restart before the check, as the runbook asks in words, and the kubelets write the Secrets into the pods that re-read them.
            beforeBlock: async (b) => {
              if (b.includes('cluster-tls verify')) {
                await live.restartClients();
                await live.kubeletSync();
              }
            },
            afterApply: async () => { await live.operatorRoll(); },
            describe: () => `Kubernetes cluster ${name}, phase ${phase}:\n${[...live.sim.outages.map((o) => `${o.step}: ${o.client} → ${o.server}: ${o.reason}`), ...crossOutages].join('\n')}`,
          });
          expect([name, phase, live.errors]).toEqual([name, phase, []]);
          states.set(`${phase} ${name}`, held(name));
        }
        acrossRuns.set(phase, await runBlock(across[0], app, env, scratch));
      }
      expect(phases).toEqual([]);
    }, 2_400_000);

    afterAll(async () => {
      for (const { live } of lives.values()) {
        await live.stop();
      }
    });

    /** A cluster's Secrets and plan now. */
    const held = (name: string) => ({ secrets: planes.get(name)!.tlsSecrets('orders'), plan: site(name).plan });

    test('the section\'s three synths ran as written, and each cluster\'s runbook of each phase, its check passing in its report', () => {
      expect(ran.filter((r) => r.block.section === ROOT_SECTION)).toHaveLength(3);
      // And after each phase, the section's cluster-tls verify of the three outputs, each against its own cluster and across.
      expect([...acrossRuns].map(([phase, r]) => [phase, r.status, r.output.match(/^\d+ secrets checked: .*$/gm)])).toEqual(
        ROOT_PHASES.map((phase) => [phase, 0, ['15 secrets checked: 15 passed, 0 failed']]));
      expect([...states.keys()]).toEqual(ROOT_PHASES.flatMap((phase) => GUIDE_CLUSTERS.map((c) => `${phase} ${c.name}`)));
      for (const { name } of GUIDE_CLUSTERS) {
        const report = verifyReport({ outdir: path.join(app, name, 'dist'), namespace: 'orders', clusterName: 'orders' });
        expect([name, failures(report)]).toEqual([name, []]);
        expect(states.get(`drop-old ${name}`)!.plan.rotation).toMatchObject({ id: 'root-2', phase: 'drop-old', caCertificates: ['root-2'] });
      }
    });

    test('OpenSSL and Go\'s crypto/tls: after each cluster\'s runbook of each phase, every server Secret of each cluster accepts every Secret of each other one, dialed by its own domain\'s names', async () => {
      const now = new Map(GUIDE_CLUSTERS.map(({ name }) => [name, { ...start.get(name)!, plan: site(name).plan }]));
      let tries = 0;
      for (const [moment] of states) {
        const [, name] = moment.split(' ');
        now.set(name, { ...now.get(name)!, secrets: states.get(moment)!.secrets, plan: states.get(moment)!.plan });
        const matrix = GUIDE_CLUSTERS.flatMap((server) => GUIDE_CLUSTERS.filter((c) => c !== server).map((client) => crossTries(
          { plan: now.get(server.name)!.plan, secrets: now.get(server.name)!.secrets, domain: server.clusterDomain },
          { plan: now.get(client.name)!.plan, secrets: now.get(client.name)!.secrets },
        ))).flat();
        tries += matrix.length;
        expect([moment, await nodeRejections(matrix)]).toEqual([moment, []]);
        expect([moment, goRejections(matrix)]).toEqual([moment, []]);
      }
      expect(tries).toBeGreaterThan(1000);
    });

    test('the rotation simulator: the pods of three clusters, restarted as each cluster\'s runbook of each phase makes them, reject no handshake within a cluster or across, after any step', () => {
      expect([...lives].flatMap(([name, { live }]) => live.sim.outages.map((o) => `${name}: ${o.step}: ${o.client} → ${o.server}: ${o.reason}`))).toEqual([]);
      expect(crossOutages).toEqual([]);
      expect(steps).toBeGreaterThan(50);
      // Every pod ended on the next root alone, presenting its cluster's intermediate of it.
      const root2 = new crypto.X509Certificate(fs.readFileSync(path.join(rootCa(), 'root-2', 'root-ca.pem'), 'utf8'));
      for (const [name, { live }] of lives) {
        const intermediate = certificatesOf(states.get(`drop-old ${name}`)!.secrets.get(`orders-${name}-intermediate-ca-root-2-secret`)?.['tls.crt'] ?? '')[0];
        expect(live.sim.pods.map((p) => certificatesOf(live.sim.presented(p).ca).map((c) => c.fingerprint256))).toEqual(live.sim.pods.map(() => [root2.fingerprint256]));
        expect(live.sim.pods.map((p) => certificatesOf(live.sim.presented(p).cert)[1]?.fingerprint256)).toEqual(live.sim.pods.map(() => intermediate?.fingerprint256));
      }
    });

    test('at the end each cluster issues from its intermediate of the next root: the Issuers name it, every ca.crt is the next root, and the previous intermediate\'s Secret is gone', () => {
      const root2 = new crypto.X509Certificate(fs.readFileSync(path.join(rootCa(), 'root-2', 'root-ca.pem'), 'utf8'));
      const root1 = new crypto.X509Certificate(fs.readFileSync(path.join(rootCa(), 'root-ca.pem'), 'utf8'));
      expect(root2.fingerprint256).not.toBe(root1.fingerprint256);
      for (const { name } of GUIDE_CLUSTERS) {
        const plane = planes.get(name)!;
        const issuers = JSON.parse(plane.kubectl(['get', 'issuers', '-n', 'orders', '-o', 'json']).stdout).items.map((i: any) => [i.metadata.name, i.spec.ca.secretName]);
        expect([name, issuers]).toEqual([name, [['orders-db-issuer', `orders-${name}-intermediate-ca-root-2-secret`]]]);
        const { secrets, plan } = site(name);
        const intermediate = secrets.get(`orders-${name}-intermediate-ca-root-2-secret`)!;
        expect(certificatesOf(intermediate['ca.crt']).map((c) => c.fingerprint256)).toEqual([root2.fingerprint256]);
        expect(certificatesOf(intermediate['tls.crt'])[0].verify(root2.publicKey)).toBe(true);
        for (const p of plan.secrets) {
          const leaf = secrets.get(p.name)!;
          expect([name, p.name, certificatesOf(leaf['ca.crt']).map((c) => c.fingerprint256)]).toEqual([name, p.name, [root2.fingerprint256]]);
          expect([name, p.name, certificatesOf(leaf['tls.crt'])[1].fingerprint256]).toEqual([name, p.name, certificatesOf(intermediate['tls.crt'])[0].fingerprint256]);
        }
        expect([name, secrets.has(`orders-${name}-intermediate-ca-secret`), [...secrets.keys()].filter((k) => k.endsWith('-root-2'))]).toEqual([name, false, []]);
      }
    });

    test('no Secret in a cluster holds a key of either root or of another cluster\'s intermediates, old or new, and the roots are the only keys on the machine', () => {
      const keyOf = (file: string) => publicKeyOf(fs.readFileSync(file, 'utf8'));
      const roots = [keyOf(path.join(rootCa(), 'root-ca-key.pem')), keyOf(path.join(rootCa(), 'root-2', 'root-ca-key.pem'))];
      const intermediates = (name: string) => [start.get(name)!.secrets.get(`orders-${name}-intermediate-ca-secret`)!, site(name).secrets.get(`orders-${name}-intermediate-ca-root-2-secret`)!]
        .map((x) => publicKeyOf(x['tls.key']));
      for (const { name } of GUIDE_CLUSTERS) {
        const got = planes.get(name)!.kubectl(['get', 'secrets', '--all-namespaces', '-o', 'json']);
        const keys: string[] = JSON.parse(got.stdout).items.flatMap((x: any) => Object.values<string>(x.data ?? {})
          .map((v) => Buffer.from(v, 'base64').toString('utf8')).filter((v) => v.includes('PRIVATE KEY')).map(publicKeyOf));
        const foreign = [...roots, ...GUIDE_CLUSTERS.filter((c) => c.name !== name).flatMap((c) => intermediates(c.name))];
        expect([name, keys.length > 5, keys.filter((k) => foreign.includes(k)).length]).toEqual([name, true, 0]);
      }
      const files = fs.readdirSync(app, { recursive: true, encoding: 'utf8' }).filter((f) => !f.startsWith('node_modules')).map((f) => path.join(app, f));
      expect(files.filter((f) => fs.statSync(f).isFile() && fs.readFileSync(f, 'utf8').includes('PRIVATE KEY'))).toEqual([]);
      expect(fs.readdirSync(rootCa(), { recursive: true, encoding: 'utf8' }).sort()).toEqual(['root-2', 'root-2/root-ca-key.pem', 'root-2/root-ca.pem', 'root-ca-key.pem', 'root-ca.pem']);
    });
  });
});

describeWithTools(`${GUIDE}, "${NAMESPACES_SECTION}", on two real API servers with the real cert-manager`, [...CONTROL_PLANE_TOOLS, 'tls-peer'], () => {
  const planes = new Map<string, ControlPlane>();
  let work: string;
  let app: string;
  let env: NodeJS.ProcessEnv;
  const ran: Ran[] = [];
  const blocks = readmeBlocks(fs.readFileSync(path.join(ROOT, GUIDE), 'utf8'), GUIDE).filter((b) => b.section === NAMESPACES_SECTION);
  const namespaceOf = (name: string) => SITES.find((c) => c.name === name)!.namespace!;

  /** A cluster's plan, from its output, and its Secrets, from its own namespace on its API server. */
  const site = (name: string) => {
    const plan: TlsPlan = JSON.parse(fs.readFileSync(path.join(app, name, 'cluster-tls', namespaceOf(name), 'orders', 'tls-plan.json'), 'utf8'));
    return { plan, secrets: planes.get(name)!.tlsSecrets(namespaceOf(name)), domain: SITES.find((c) => c.name === name)!.clusterDomain };
  };

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-span-sites-'));
    for (const { name } of CLUSTERS) {
      const plane = await ControlPlane.start();
      planes.set(name, plane);
      await plane.startCertManager();
    }
    ({ app, env } = guideWorkspace(work, planes));
    const scratch = path.join(work, 'blocks');
    fs.mkdirSync(scratch);
    let cwd = app;
    for (const block of blocks) {
      if (block.file !== undefined) {
        fs.writeFileSync(path.join(cwd, block.file), block.text);
        continue;
      }
      const marker = fs.readFileSync(path.join(ROOT, GUIDE), 'utf8').split('\n')[block.line - 2];
      expect(`${GUIDE}:${block.line} ${marker}`).toBe(`${GUIDE}:${block.line} ${RUN_MARKER}`);
      // ROOT_CA is exported by the first block for the next ones, as the reader's shell keeps it.
      const done = await runBlock({ ...block, text: `${ran.length > 0 ? 'export ROOT_CA="$HOME/orders-root-ca"\n' : ''}${block.text}` }, cwd, env, scratch);
      ran.push(done);
      if (done.status !== 0) {
        throw new Error(`${GUIDE}:${block.line} (${block.section}) exited ${done.status}:\n${block.text}--- output:\n${done.output}`);
      }
      cwd = done.cwd;
    }
  }, 1_200_000);

  afterAll(() => stopGuide(planes, work));

  test('every command block of the section ran as written, and cluster-tls verify took the two namespaces\' outputs as one database cluster, every Secret passing across', () => {
    expect(blocks.map((b) => b.file ?? b.lang)).toEqual(['clusters.ts', 'main.ts', 'sh', 'sh', 'sh']);
    expect(ran).toHaveLength(3);
    expect(ran[0].output).toContain('synthesized 1 manifest (');
    expect(ran[0].output).toContain(`created Secret orders-east/orders-east-intermediate-ca-secret`);
    expect(ran[1].output).toContain(`created Secret orders-west/orders-west-intermediate-ca-secret`);
    const across = ran[2].output;
    expect(across.match(/^\d+ secrets checked: .*$/gm)).toEqual(['10 secrets checked: 10 passed, 0 failed']);
    expect(across).toMatch(/orders-store-cluster-secret +orders-west\/orders in west +server: store +PASS/);
    expect(across).not.toContain('not checked');
  });

  test('west\'s DatabaseCluster, as its API server holds it, joins orders in orders-east of east.example.com, and east\'s coordinator, dialed by that name, accepts west\'s client certificate', async () => {
    const got = planes.get('west')!.kubectl(['get', 'databasecluster', 'orders', '-n', 'orders-west', '-o', 'json']);
    expect(got.stderr).toBe('');
    const { spec } = JSON.parse(got.stdout);
    expect([spec.acrossK8s, spec.clusterDomain, spec.cluster]).toEqual([true, 'west.example.com', { name: 'orders', namespace: 'orders-east', clusterDomain: 'east.example.com' }]);
    // The coordinator's service in the cluster it joins, by its fully qualified name (the operator's form, as the catalog names it).
    const joined = `${names.serviceHost(spec.cluster.name, 'coordinator', spec.cluster.namespace)}.${spec.cluster.clusterDomain}`;
    expect(joined).toBe('orders-coordinator.orders-east.svc.east.example.com');
    const [east, west] = [site('east'), site('west')];
    const coordinator = east.plan.secrets.find((x) => x.component === 'coordinator')!;
    expect(coordinator.dnsNames).toContain(joined);
    const material = (pem: SecretPem) => ({ cert: pem['tls.crt'], key: pem['tls.key'], ca: pem['ca.crt'] });
    const client = west.plan.secrets.find((x) => x.role === 'client')!;
    const outcome = await mutualHandshake(material(east.secrets.get(coordinator.name)!), material(west.secrets.get(client.name)!), { name: joined });
    expect([outcome.ok, describeOutcome(outcome)]).toEqual([true, describeOutcome(outcome)]);
  });

  test('OpenSSL and Go\'s crypto/tls: every server Secret of each cluster accepts every Secret of the other, dialed by its own domain\'s names in its own namespace', async () => {
    const tries = [...crossTries(site('east'), site('west')), ...crossTries(site('west'), site('east'))];
    expect(tries.length).toBeGreaterThanOrEqual(2 * 3 * 5 * 2);
    expect(tries.every((t) => t.name.includes(`.${namespaceOf(t.name.includes('.east.') ? 'east' : 'west')}.svc.`))).toBe(true);
    expect(await nodeRejections(tries)).toEqual([]);
    expect(goRejections(tries)).toEqual([]);
  });

  test('each cluster\'s Secrets are in its own namespace alone, the intermediate\'s in each signed by the one root', () => {
    const root = new crypto.X509Certificate(fs.readFileSync(path.join(env.HOME!, 'orders-root-ca', 'root-ca.pem'), 'utf8'));
    for (const { name } of CLUSTERS) {
      const { plan, secrets } = site(name);
      expect([name, plan.namespace]).toEqual([name, namespaceOf(name)]);
      const intermediate = certificatesOf(secrets.get(`orders-${name}-intermediate-ca-secret`)!['tls.crt'])[0];
      expect([name, intermediate.verify(root.publicKey)]).toEqual([name, true]);
      // Nothing of the span in the other cluster's namespace, nor in orders.
      for (const other of ['orders', namespaceOf(CLUSTERS.find((c) => c.name !== name)!.name)]) {
        expect([name, other, planes.get(name)!.kubectl(['get', 'namespace', other]).status]).toEqual([name, other, 1]);
      }
    }
  });
});
