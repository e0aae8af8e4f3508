/**
 * Proven on a real Kubernetes API server with the real cert-manager: etcd and kube-apiserver
 * (Kubernetes 1.36.3) and cert-manager's webhook and controllers (v1.21.2), all built from their
 * Go modules by scripts/build-control-plane.sh, started for this file and stopped after it. The
 * manifests are
 * applied as a user applies them (`kubectl apply --server-side`, strict field validation), read
 * back field by field, issued by the real controller, checked by `cluster-tls verify` on the live
 * Secrets, and handshaken by OpenSSL (node:tls) and Go's crypto/tls; random valid apps are applied
 * and issued too; the in-test re-creation of cert-manager is compared with the real one field by
 * field.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import * as crypto from 'node:crypto';
import { ApiObject, App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import { ClusterCertificates, IssuingMethod, TlsDatabaseCluster, TlsEnablementPhase, renderApp, synthesize } from '../lib';
import { filesFolderOf } from '../lib/model/output-layout';
import { ENABLEMENT_STATES } from '../lib/model/enablement';
import { component } from '../lib/model/catalog';
import { readConfig } from '../lib/model/config-documents';
import { addDeployment } from '../main';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { secretObject, userTlsSecret } from './_pki';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { CONTROL_PLANE_TOOLS, ControlPlane, TOOLS_BIN, describeWithTools, until } from './_control-plane';
import { bash, shellBlocks } from './_runbooks';
import { SecretPem, formatRejections, goHandshakeMatrix, handshakeMatrix } from './_handshakes';
import { MariaDb, connectNode, mariaDbTest, sqlBlocks } from './_mariadb';
import { ORG_CA_SECRET, ORG_ISSUER, organisationIssuer } from './_org-issuer';
import { goRejections, nodeRejections } from './_span-guide';

const x509: typeof X509 = require('@peculiar/x509');
x509.cryptoProvider.set(webcrypto as any);

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const CLI = path.join(ROOT, 'build', 'bin', 'cluster-tls.js');
/** The groups whose objects come from CRDs: read back, they must hold exactly what was written. */
const CUSTOM_GROUPS = /^(db\.operator\.io|cert-manager\.io)\//;

let plane: ControlPlane | undefined;
let work: string;

function kubectl(args: readonly string[], input?: string) {
  return plane!.kubectl(args, input);
}

/** Every object of a manifest file. */
function objectsOf(file: string): any[] {
  return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJSON()).filter((o) => o);
}

/** The manifest files of the reference output. */
const manifests = () => fs.readdirSync(DIST).filter((f) => f.endsWith('.k8s.yaml')).map((f) => path.join(DIST, f));

/** Where `written` differs from `read` (every written field must be read back as it was), as paths. */
function notReadBack(written: unknown, read: unknown, at = ''): string[] {
  if (written !== null && typeof written === 'object') {
    if (read === null || typeof read !== 'object' || Array.isArray(written) !== Array.isArray(read)) {
      return [`${at}: written ${JSON.stringify(written).slice(0, 80)}, read ${JSON.stringify(read)?.slice(0, 80)}`];
    }
    if (Array.isArray(written) && written.length !== (read as unknown[]).length) {
      return [`${at}: written ${written.length} items, read ${(read as unknown[]).length}`];
    }
    return Object.entries(written).flatMap(([k, v]) => notReadBack(v, (read as Record<string, unknown>)[k], `${at}.${k}`));
  }
  return written === read ? [] : [`${at}: written ${JSON.stringify(written)}, read ${JSON.stringify(read)}`];
}

/** Fields the server added below `spec` that were not written: a default the library meant to leave out. */
function addedBelow(written: unknown, read: unknown, at: string): string[] {
  if (read === null || typeof read !== 'object' || Array.isArray(read)) {
    return [];
  }
  if (written === null || typeof written !== 'object') {
    return [];
  }
  return Object.entries(read).flatMap(([k, v]) => (!(k in (written as object)) ? [`${at}.${k}`]
    : Array.isArray(v) ? v.flatMap((item, i) => addedBelow((written as any)[k]?.[i], item, `${at}.${k}[${i}]`)) : addedBelow((written as any)[k], v, `${at}.${k}`)));
}

/** Reads an object back from the server, by kind and API group (none for the core group's, such as a ConfigMap). */
function readBack(o: any): any {
  const resource = o.apiVersion.includes('/') ? `${o.kind}.${o.apiVersion.split('/')[0]}` : o.kind;
  const got = kubectl(['get', resource, o.metadata.name, ...(o.metadata.namespace ? ['-n', o.metadata.namespace] : []), '-o', 'json']);
  if (got.status !== 0) {
    throw new Error(`kubectl get ${o.kind} ${o.metadata.name}: ${got.stderr}`);
  }
  return JSON.parse(got.stdout);
}

/** The bash block of a runbook's step, by its title (`## <n>. <title>`). */
function runbookStepBlock(runbook: string, title: string): string {
  const sections = runbook.split(/^(?=## \d+\. )/m);
  const section = sections.find((x) => x.split('\n')[0].replace(/^## \d+\. /, '') === title);
  if (section === undefined) {
    throw new Error(`no step "${title}" in the runbook`);
  }
  return shellBlocks(section)[0];
}

/** Applies a manifest server-side, as the runbook tells users to, with unknown fields refused rather than dropped. */
function apply(file: string) {
  return kubectl(['apply', '--server-side', '--field-manager=cdk8s-cluster-tls', '--validate=strict', '-f', file]);
}

/** What a certificate is, as a field-by-field record: what a peer or the operator reads of it. */
function describeCertificate(pem: string): Record<string, unknown> {
  const cert = new x509.X509Certificate(pem.trim().split(/(?=-----BEGIN)/)[0]);
  const ext = <T>(type: any) => cert.getExtension(type) as T | null;
  const san = ext<X509.SubjectAlternativeNameExtension>(x509.SubjectAlternativeNameExtension);
  const ku = ext<X509.KeyUsagesExtension>(x509.KeyUsagesExtension);
  const eku = ext<X509.ExtendedKeyUsageExtension>(x509.ExtendedKeyUsageExtension);
  const bc = ext<X509.BasicConstraintsExtension>(x509.BasicConstraintsExtension);
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    dnsNames: (san?.names.items ?? []).filter((n) => n.type === 'dns').map((n) => n.value).sort(),
    ipAddresses: (san?.names.items ?? []).filter((n) => n.type === 'ip').map((n) => n.value).sort(),
    uris: (san?.names.items ?? []).filter((n) => n.type === 'url').map((n) => n.value).sort(),
    keyUsages: ku ? { usages: ku.usages, critical: ku.critical } : null,
    extendedKeyUsages: eku ? [...eku.usages].map(String).sort() : null,
    basicConstraints: bc ? { ca: bc.ca, pathLength: bc.pathLength ?? null, critical: bc.critical } : null,
    subjectKeyIdentifier: cert.getExtension('2.5.29.14') !== null,
    authorityKeyIdentifier: cert.getExtension('2.5.29.35') !== null,
    extensions: cert.extensions.map((e) => e.type).sort(),
    signatureAlgorithm: JSON.stringify(cert.signatureAlgorithm),
    publicKey: JSON.stringify(cert.publicKey.algorithm),
  };
}

// For the whole file (a describe body's call would apply file-wide anyway): an API server on a loaded machine is slow.
jest.setTimeout(300_000);

describeWithTools('on a real API server with the real cert-manager', [...CONTROL_PLANE_TOOLS, 'tls-peer'], () => {

  beforeAll(async () => {
    // cluster-tls verify runs compiled: build it from the sources under test, or fail here.
    expect(spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'synth.js'), '--build-only'], { cwd: ROOT }).status).toBe(0);
    plane = await ControlPlane.start();
    work = plane.work;
    for (const namespace of ['demo', 'demo-cfssl']) {
      expect(kubectl(['create', 'namespace', namespace]).status).toBe(0);
    }
    await plane.startCertManager();
  }, 180_000);

  afterAll(async () => {
    await plane?.stop();
  }, 60_000);

  test('kubectl apply -f dist/, as a user or a GitOps tool points at the folder, reads the manifests alone: every object of every manifest and nothing else', () => {
    const objects = manifests().flatMap(objectsOf).map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(objects.length).toBeGreaterThan(20);
    for (const dryRun of ['client', 'server']) {
      for (const recursive of [[], ['-R']]) {
        const read = kubectl(['apply', `--dry-run=${dryRun}`, ...recursive, '-f', DIST, '-o', 'name']);
        // First in the file: nothing is on the server yet, so kubectl has nothing to warn of either.
        expect({ dryRun, recursive, status: read.status, stderr: read.stderr }).toEqual({ dryRun, recursive, status: 0, stderr: '' });
        // -o name prints <resource>.<group>/<name>: the kind is compared by resource, since several groups are read.
        const names = read.stdout.trim().split('\n').map((line) => line.replace(/^[^/]*\//, '')).sort();
        expect(names).toEqual(objects.map((o) => o.replace(/^[^/]*\//, '')).sort());
      }
    }
    // The layout of earlier releases, the other files below the manifests: kubectl refuses the folder.
    const earlier = path.join(work, 'earlier-layout');
    fs.cpSync(DIST, earlier, { recursive: true });
    fs.cpSync(filesFolderOf(DIST), earlier, { recursive: true });
    fs.renameSync(path.join(earlier, '.cluster-tls-output'), path.join(earlier, '.cluster-tls-output.json'));
    const flat = kubectl(['apply', '--dry-run=client', '-f', earlier, '-o', 'name']);
    expect(flat.status).not.toBe(0);
    expect(flat.stderr).toMatch(/\.cluster-tls-output\.json/);
    const deep = kubectl(['apply', '--dry-run=client', '-R', '-f', earlier, '-o', 'name']);
    expect(deep.status).not.toBe(0);
    expect(deep.stderr).toMatch(/tls-plan\.json|values\.yaml|task\.yaml|source1\.yaml|\.cluster-tls-output\.json/);
  });

  test('every manifest of the reference output applies server-side with strict validation, and reads back field by field', () => {
    const pruned: string[] = [];
    const defaulted: string[] = [];
    let count = 0;
    for (const file of manifests()) {
      const applied = apply(file);
      expect({ file: path.basename(file), status: applied.status, stderr: applied.stderr }).toEqual({ file: path.basename(file), status: 0, stderr: '' });
      for (const o of objectsOf(file)) {
        count++;
        const read = readBack(o);
        const what = `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`;
        pruned.push(...notReadBack(o, read).map((d) => `${what} ${d}`));
        if (CUSTOM_GROUPS.test(o.apiVersion)) {
          defaulted.push(...addedBelow(o.spec, read.spec, 'spec').map((d) => `${what} ${d}`));
        }
      }
    }
    expect(count).toBeGreaterThan(20);
    expect(pruned).toEqual([]);
    expect(defaulted).toEqual([]);
  });

  test('kubectl apply -f dist/ whole starts no one-off operation; each runbook\'s backup and restore steps, run as written, make each once', async () => {
    const oneOff = () => kubectl(['get', 'backups.db.operator.io,restores.db.operator.io', '-A', '-o', 'custom-columns=KIND:.kind,NS:.metadata.namespace,NAME:.metadata.name', '--no-headers']);
    const whole = kubectl(['apply', '--server-side', '--field-manager=cdk8s-cluster-tls', '--validate=strict', '-f', DIST]);
    expect({ status: whole.status, stderr: whole.stderr }).toEqual({ status: 0, stderr: '' });
    // A second sync, as a GitOps tool repeats it: still nothing started.
    expect(kubectl(['apply', '--server-side', '--field-manager=cdk8s-cluster-tls', '--validate=strict', '-f', DIST]).status).toBe(0);
    expect(oneOff()).toMatchObject({ status: 0, stdout: '' });
    const env = { ...process.env, PATH: `${TOOLS_BIN}:${process.env.PATH}`, KUBECONFIG: plane!.kubeconfig };
    const steps = ['Back up cluster basic', 'Restore cluster basic from the backup'];
    const files: string[] = [];
    try {
      for (const namespace of ['demo', 'demo-cfssl']) {
        const runbook = fs.readFileSync(path.join(filesFolderOf(DIST), namespace, 'basic', 'database-runbook.md'), 'utf8');
        // The Secrets the steps check: cert-manager's once Ready; the user's (and, with cfssl, the issuing script's) made here.
        if (namespace === 'demo') {
          expect(kubectl(['wait', '--for=condition=Ready', 'certificates', '--all', '-n', namespace, '--timeout=180s']).status).toBe(0);
        }
        for (const step of steps) {
          const block = runbookStepBlock(runbook, step);
          const checked = /^kubectl get secret (.*) -n \S+$/m.exec(block)![1].split(' ');
          for (const name of checked.filter((n) => kubectl(['get', 'secret', n, '-n', namespace]).status !== 0)) {
            expect(kubectl(['create', 'secret', 'generic', name, '-n', namespace, '--from-literal=stand-in=1']).status).toBe(0);
          }
          await bash(block, DIST, env);
          files.push(path.resolve(DIST, /^kubectl create -f (.*)$/m.exec(block)![1]));
        }
      }
      expect(oneOff().stdout.trim().split('\n').map((line) => line.split(/\s+/).join(' ')).sort()).toEqual([
        'Backup demo basic-backup', 'Backup demo-cfssl basic-backup', 'Restore demo basic-restore', 'Restore demo-cfssl basic-restore',
      ]);
      for (const o of files.flatMap(objectsOf)) {
        expect([o.kind, o.metadata.namespace, notReadBack(o, readBack(o))]).toEqual([o.kind, o.metadata.namespace, []]);
      }
      // create, not apply: run again, it refuses rather than leaving an older finished operation in place.
      const again = kubectl(['create', '-f', files[0]]);
      expect(again.status).not.toBe(0);
      expect(again.stderr).toMatch(/AlreadyExists|already exists/);
    } finally {
      for (const file of files) {
        kubectl(['delete', '--ignore-not-found', '-f', file]);
      }
    }
  });

  test('every phase of a TLS enablement applies over the one before, server-side with strict validation, and reads back field by field', () => {
    const namespace = 'enabling';
    expect(kubectl(['create', 'namespace', namespace]).status).toBe(0);
    const outdir = fs.mkdtempSync(path.join(work, 'enablement-'));
    const problems: string[] = [];
    for (const phase of Object.values(TlsEnablementPhase)) {
      const app = new App();
      addDeployment(app, namespace, IssuingMethod.CERT_MANAGER, [], { phase });
      synthesize(app, { outdir: path.join(outdir, 'dist'), acknowledgeRecreation: [], acknowledgeUnverifiedPhase: [`${namespace}/basic`] });
      const file = path.join(outdir, 'dist', `${namespace}.k8s.yaml`);
      const applied = apply(file);
      expect({ phase, status: applied.status, stderr: applied.stderr }).toEqual({ phase, status: 0, stderr: '' });
      const cluster = objectsOf(file).find((o) => o.kind === 'DatabaseCluster');
      const read = readBack(cluster);
      problems.push(...notReadBack(cluster, read).map((d) => `${phase}: ${d}`));
      // What a phase leaves out is gone from the server too (a field the server kept would still act).
      expect({ phase, evict: read.spec.store.evictLeaderTimeout ?? null, replicas: read.spec.coordinator.replicas, tls: read.spec.tlsCluster.enabled })
        .toEqual({ phase, evict: cluster.spec.store.evictLeaderTimeout ?? null, replicas: cluster.spec.coordinator.replicas, tls: cluster.spec.tlsCluster.enabled });
      // The coordinator's list, read from its TOML document as the operator reads it: there from the flip on, as written.
      const list = (o: any) => (readConfig(component('coordinator'), o.spec.coordinator.config) as any)?.security?.['cert-allowed-cn'] ?? null;
      expect({ phase, list: list(read) }).toEqual({ phase, list: list(cluster) });
      expect({ phase, listed: list(cluster) !== null }).toEqual({ phase, listed: ENABLEMENT_STATES[phase].tls });
    }
    expect(problems).toEqual([]);
  });

  test('the API server refuses a pod whose volume is named after a Secret with a \'.\', as the operator names the volumes of tlsClientSecretNames: why the library takes only labels there', () => {
    const pod = (volume: string) => ({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'mig-master-0', namespace: 'demo' },
      spec: {
        containers: [{ name: 'master', image: 'registry.example.com/db/mig:v1.2.0', volumeMounts: [{ name: volume, readOnly: true, mountPath: `/var/lib/source-tls/${volume}` }] }],
        volumes: [{ name: volume, secret: { secretName: volume } }],
      },
    });
    const tryPod = (volume: string) => kubectl(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(pod(volume)));
    expect(tryPod('legacy-tls')).toMatchObject({ status: 0 });
    const dotted = tryPod('legacy.tls');
    expect(dotted.status).not.toBe(0);
    expect(dotted.stderr).toMatch(/spec\.volumes\[0\]\.name: Invalid value: "legacy\.tls"/);
    const long = tryPod(`t${'x'.repeat(63)}`);
    expect(long.status).not.toBe(0);
    expect(long.stderr).toMatch(/must be no more than 63 characters/);
  });

  test('the server rejects what a schema forbids, so the test above would see it: an unknown field, a wrong type', () => {
    const cluster = objectsOf(path.join(DIST, 'demo.k8s.yaml')).find((o) => o.kind === 'DatabaseCluster');
    for (const [what, broken, message] of [
      ['unknown field', { ...cluster, spec: { ...cluster.spec, tlsClusterr: { enabled: true } } }, /\.spec\.tlsClusterr: field not declared in schema/],
      ['wrong type', { ...cluster, spec: { ...cluster.spec, version: 5 } }, /spec\.version/],
    ] as const) {
      const file = path.join(work, `broken-${what.replace(' ', '-')}.yaml`);
      fs.writeFileSync(file, YAML.stringify(broken));
      const applied = apply(file);
      expect(applied.status).not.toBe(0);
      expect(applied.stderr).toMatch(message);
    }
    // A plain create without validation has the server drop the unknown field in silence: the read-back comparison names it.
    const file = path.join(work, 'pruned.yaml');
    const pruned = { ...cluster, metadata: { ...cluster.metadata, name: 'pruned' }, spec: { ...cluster.spec, tlsClusterr: { enabled: true } } };
    fs.writeFileSync(file, YAML.stringify(pruned));
    expect(kubectl(['create', '--validate=false', '-f', file]).status).toBe(0);
    expect(notReadBack(pruned, readBack(pruned))).toEqual(['.spec.tlsClusterr: written {"enabled":true}, read undefined']);
  });

  test('cert-manager\'s real webhook refuses a Certificate its validation forbids, so every Certificate applied above passed it', () => {
    const leaf = objectsOf(path.join(DIST, 'demo.k8s.yaml')).find((o) => o.kind === 'Certificate' && !o.spec.isCA);
    for (const [what, spec, message] of [
      ['a duration under an hour', { duration: '30m', renewBefore: '10m' }, /spec\.duration: Invalid value: .*certificate duration must be greater than 1h0m0s/],
      ['renewBefore not below duration', { duration: '2h', renewBefore: '2h' }, /spec\.renewBefore: Invalid value: .*must be greater than renewBefore/],
    ] as const) {
      const file = path.join(work, `refused-${what.replace(/ /g, '-')}.yaml`);
      fs.writeFileSync(file, YAML.stringify({ ...leaf, metadata: { ...leaf.metadata, name: 'refused' }, spec: { ...leaf.spec, ...spec, secretName: 'refused' } }));
      const applied = apply(file);
      expect({ what, status: applied.status }).toEqual({ what, status: 1 });
      expect(applied.stderr).toMatch(/admission webhook "webhook\.cert-manager\.io" denied the request/);
      expect(applied.stderr).toMatch(message);
    }
  });

  test('the library refuses exactly the durations cert-manager\'s real webhook refuses, at the boundaries of its minimums', () => {
    const leaf = objectsOf(path.join(DIST, 'demo.k8s.yaml')).find((o) => o.kind === 'Certificate' && !o.spec.isCA);
    // A namespace without an Issuer: the webhook judges each Certificate, and no controller issues
    // one, so no Secret of these trials can join the demo namespace's Secrets checked below.
    const namespace = 'webhook-edges';
    expect(kubectl(['create', 'namespace', namespace]).status).toBe(0);
    const differ: string[] = [];
    for (const [duration, renewBefore] of [['59m', '10m'], ['1h', '10m'], ['1h', '4m59s'], ['1h', '5m'], ['2h', '2h'], ['2h', '1h59m'], ['90m', '30m']]) {
      let library = true;
      try {
        new ClusterCertificates(new Chart(new App(), 'c', { namespace: 'demo' }), 'certs', { clusterName: 'edge', duration, renewBefore });
      } catch {
        library = false;
      }
      const file = path.join(work, `edge-${duration}-${renewBefore}.yaml`);
      fs.writeFileSync(file, YAML.stringify({ ...leaf, metadata: { ...leaf.metadata, name: 'edge', namespace }, spec: { ...leaf.spec, duration, renewBefore, secretName: 'edge' } }));
      const applied = apply(file);
      const webhook = applied.status === 0;
      if (!webhook) {
        expect(applied.stderr).toMatch(/admission webhook "webhook\.cert-manager\.io" denied the request/);
      }
      kubectl(['delete', '-f', file, '--ignore-not-found']);
      if (library !== webhook) {
        differ.push(`duration ${duration}, renewBefore ${renewBefore}: the library ${library ? 'accepts' : 'refuses'}, the webhook ${webhook ? 'accepts' : 'refuses'}`);
      }
    }
    expect(differ).toEqual([]);
  });

  describe('issued by the real cert-manager', () => {
    let secrets: Map<string, SecretPem>;
    let plan: TlsPlan;

    beforeAll(() => {
      const wait = kubectl(['wait', '--for=condition=Ready', 'certificate', '--all', '-n', 'demo', '--timeout=120s']);
      expect({ status: wait.status, stderr: wait.stderr }).toEqual({ status: 0, stderr: '' });
      secrets = plane!.tlsSecrets('demo');
      plan = JSON.parse(fs.readFileSync(path.join(filesFolderOf(DIST), 'demo', 'basic', 'tls-plan.json'), 'utf8'));
    }, 180_000);

    test('every Certificate is Ready and cluster-tls verify passes on the live Secrets, read through kubectl, once the Secrets you create exist', async () => {
      const sqlInDemo = plan.sqlTls!.secrets.filter((s) => s.namespace === 'demo');
      expect(sqlInDemo).toHaveLength(3);
      expect(secrets.size).toBe(plan.secrets.length + sqlInDemo.length + 1); // and the CA's
      const run = () => spawnSync(process.execPath, [CLI, 'verify', '--dist', DIST, '--secrets', '-', '--namespace', 'demo', '--cluster', 'basic'],
        { input: kubectl(['get', 'secrets', '-n', 'demo', '-o', 'json']).stdout, encoding: 'utf8' });
      // The sink's and the migration source's Secrets are the user's: without them, verify fails naming them.
      const yours = plan.userSecrets!.map((s) => s.name);
      expect(yours).toEqual(['basic-sink-tls', 'basic-source1-tls']);
      const without = run();
      expect({ status: without.status, stderr: without.stderr }).toEqual({ status: 1, stderr: '' });
      expect(without.stdout).toMatch(/16 passed, 2 failed; missing Secrets you create: basic-sink-tls in namespace demo \(for the changefeed's sink\), basic-source1-tls in namespace demo \(for migration source source1\)\n$/);
      const pem = await userTlsSecret();
      try {
        for (const name of yours) {
          expect(kubectl(['create', '-f', '-'], JSON.stringify(secretObject(name, 'demo', { ...pem }))).status).toBe(0);
        }
        const verify = run();
        expect({ status: verify.status, stderr: verify.stderr }).toEqual({ status: 0, stderr: '' });
        expect(verify.stdout).toMatch(/18 secrets checked: 18 passed, 0 failed/);
      } finally {
        kubectl(['delete', 'secret', '--ignore-not-found', '-n', 'demo', ...yours]);
      }
    });

    mariaDbTest('TLS for MySQL clients through the real ClusterIssuer: the SQL CA\'s key stays in cert-manager\'s namespace, and a real MariaDB with the issued server Secret lets the migration in with its own certificate, verifying the server\'s name', async () => {
      const ca = plan.sqlTls!.ca;
      const holders = JSON.parse(kubectl(['get', 'secrets', '-A', '-o', 'json']).stdout).items.filter((x: any) => x.metadata.name === ca.name);
      expect(holders.map((x: any) => x.metadata.namespace)).toEqual(['cert-manager']);
      expect(Object.keys(holders[0].data).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
      const db = await MariaDb.start(secrets.get('basic-sqlserver-server-secret')!);
      try {
        db.sql(sqlBlocks(fs.readFileSync(path.join(filesFolderOf(DIST), 'demo', 'basic', 'database-runbook.md'), 'utf8')).join(''));
        const migration = secrets.get('basic-migration-demo-basic-sql-client')!;
        expect(await connectNode(db.port, 'basic-sqlserver.demo.svc', 'basic-migration', migration)).toEqual({ ok: true, user: 'basic-migration@%' });
        // The cluster's own client certificate is refused: it is not the SQL CA's.
        const component = secrets.get('basic-cluster-client-secret')!;
        expect((await connectNode(db.port, 'basic-sqlserver.demo.svc', 'basic-migration', { ...component, 'ca.crt': migration['ca.crt'] })).ok).toBe(false);
      } finally {
        await db.stop();
      }
    }, 120_000);

    test('every CertificateRequest went through the webhook\'s mutation: it names the user whose request created it', () => {
      const requests = JSON.parse(kubectl(['get', 'certificaterequests', '-n', 'demo', '-o', 'json']).stdout).items as any[];
      expect(requests.length).toBeGreaterThanOrEqual(plan.secrets.length);
      // cert-manager's controllers run as the launcher's admin user; only the webhook writes spec.username.
      expect(requests.filter((r) => r.spec.username !== 'cluster-tls-tests').map((r) => r.metadata.name)).toEqual([]);
    });

    test('OpenSSL (node:tls) and Go\'s crypto/tls accept every pair, for every name', async () => {
      const openssl = await handshakeMatrix(plan, secrets);
      expect(formatRejections(openssl.rejections)).toBe('');
      const go = goHandshakeMatrix(plan, secrets);
      expect(formatRejections(go.rejections)).toBe('');
      expect(go.handshakes).toBe(openssl.handshakes);
    });

    test('leaves from a user-named issuer: the organisation\'s CA ClusterIssuer signs them, verify passes them and every handshake completes (OpenSSL and Go)', async () => {
      const namespace = 'org-issued';
      expect(kubectl(['create', 'namespace', namespace]).status).toBe(0);
      const org = path.join(work, 'organisation.yaml');
      fs.writeFileSync(org, organisationIssuer().map((o) => YAML.stringify(o)).join('---\n'));
      expect(apply(org)).toMatchObject({ status: 0, stderr: '' });
      expect(kubectl(['wait', '--for=condition=Ready', 'certificate', ORG_CA_SECRET, '-n', 'cert-manager', '--timeout=120s']).status).toBe(0);
      const outdir = path.join(work, 'org', 'dist');
      const app = new App();
      const chart = new Chart(app, namespace, { namespace });
      const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', issuerRef: { name: ORG_ISSUER } });
      new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates });
      synthesize(app, { outdir });
      // The runbook's commands: the certificates alone, then the wait for their Secrets.
      const manifest = path.join(outdir, `${namespace}.k8s.yaml`);
      const applied = kubectl(['apply', '--server-side', '--field-manager=cdk8s-cluster-tls', '--validate=strict', '-f', manifest, '-l', 'cdk8s-cluster-tls/certificates=basic']);
      expect({ status: applied.status, stderr: applied.stderr }).toEqual({ status: 0, stderr: '' });
      const wait = kubectl(['wait', '--for=condition=Ready', 'certificate', '-l', 'cdk8s-cluster-tls/certificates=basic', '-n', namespace, '--timeout=120s']);
      expect({ status: wait.status, stderr: wait.stderr }).toEqual({ status: 0, stderr: '' });
      const issued = plane!.tlsSecrets(namespace);
      const orgPlan: TlsPlan = JSON.parse(fs.readFileSync(path.join(filesFolderOf(outdir), namespace, 'basic', 'tls-plan.json'), 'utf8'));
      expect([...issued.keys()].sort()).toEqual(orgPlan.secrets.map((s) => s.name).sort());
      const orgCa = plane!.tlsSecrets('cert-manager').get(ORG_CA_SECRET)!['tls.crt'];
      expect(new Set([...issued.values()].map((s) => s['ca.crt']))).toEqual(new Set([orgCa]));
      const live = kubectl(['get', 'secrets', '-n', namespace, '-o', 'json']);
      const verified = spawnSync(process.execPath, [CLI, 'verify', '--dist', outdir, '--secrets', '-'], { input: live.stdout, encoding: 'utf8' });
      expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 0, stderr: '' });
      expect(verified.stdout).toContain(`${orgPlan.secrets.length} secrets checked: ${orgPlan.secrets.length} passed, 0 failed`);
      const openssl = await handshakeMatrix(orgPlan, issued);
      expect(formatRejections(openssl.rejections)).toBe('');
      const go = goHandshakeMatrix(orgPlan, issued);
      expect(formatRejections(go.rejections)).toBe('');
      expect(go.handshakes).toBe(openssl.handshakes);
      expect(openssl.handshakes).toBeGreaterThan(0);
    });

    test('the in-test re-creation of cert-manager writes the certificates the real one writes, field by field', async () => {
      const objects = objectsOf(path.join(DIST, 'demo.k8s.yaml'));
      const recreated = await CertManagerIssuer.issueAll(objects);
      const byName = new Map([...recreated.secrets].map(([key, s]) => [key.split('/')[1], s]));
      const differences: string[] = [];
      for (const [name, real] of secrets) {
        const model = byName.get(name);
        if (!model) {
          differences.push(`${name}: not issued by the re-creation`);
          continue;
        }
        for (const key of ['tls.crt', 'ca.crt'] as const) {
          const a = describeCertificate(real[key]);
          const b = describeCertificate(model[key]);
          for (const field of Object.keys(a)) {
            if (JSON.stringify(a[field]) !== JSON.stringify(b[field])) {
              differences.push(`${name} ${key} ${field}: real ${JSON.stringify(a[field])}, re-created ${JSON.stringify(b[field])}`);
            }
          }
        }
      }
      expect(differences).toEqual([]);
    });
  });

  test('the ways to an issuer that the trust model refuses are real: the real cert-manager signs a Certificate, a CertificateRequest and an Ingress\'s annotations that name the cluster\'s Issuer, the store accepts each as a component (OpenSSL and Go), and synth refuses each', async () => {
    const issuerRef = { name: 'basic-db-issuer', kind: 'Issuer', group: 'cert-manager.io' };
    const certificate = { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'intruder', namespace: 'demo' }, spec: { secretName: 'intruder', commonName: 'basic', subject: { organizations: ['intruder'] }, usages: ['client auth'], issuerRef } };
    const ingress = {
      apiVersion: 'networking.k8s.io/v1', kind: 'Ingress',
      metadata: { name: 'intruder-web', namespace: 'demo', annotations: { 'cert-manager.io/issuer': issuerRef.name, 'cert-manager.io/common-name': 'basic', 'cert-manager.io/subject-organizations': 'intruder' } },
      spec: { defaultBackend: { service: { name: 'web', port: { number: 443 } } }, tls: [{ hosts: ['intruder.example.com'], secretName: 'intruder-web' }] },
    };
    const key = path.join(work, 'intruder.key');
    const csr = spawnSync('openssl', ['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-subj', '/O=intruder/CN=basic', '-keyout', key, '-out', '-'], { encoding: 'utf8' });
    expect(csr.status).toBe(0);
    const request = {
      apiVersion: 'cert-manager.io/v1', kind: 'CertificateRequest', metadata: { name: 'intruder-request', namespace: 'demo' },
      spec: { request: Buffer.from(csr.stdout).toString('base64'), usages: ['client auth'], issuerRef },
    };
    const file = path.join(work, 'intruders.yaml');
    fs.writeFileSync(file, [certificate, ingress, request].map((o) => YAML.stringify(o)).join('---\n'));
    expect(apply(file)).toMatchObject({ status: 0, stderr: '' });
    for (const name of ['intruder', 'intruder-web']) {
      // The Ingress's Certificate is made by cert-manager's ingress-shim, a moment after the Ingress.
      await until(() => kubectl(['get', 'certificate', name, '-n', 'demo']).status === 0, () => `no Certificate ${name}: cert-manager's ingress-shim made none`, 60_000, 500);
      expect(kubectl(['wait', '--for=condition=Ready', `certificate/${name}`, '-n', 'demo', '--timeout=120s']).status).toBe(0);
    }
    expect(kubectl(['wait', '--for=condition=Ready', 'certificaterequest/intruder-request', '-n', 'demo', '--timeout=120s']).status).toBe(0);
    const signed = JSON.parse(kubectl(['get', 'certificaterequest', 'intruder-request', '-n', 'demo', '-o', 'json']).stdout).status;
    const live = plane!.tlsSecrets('demo');
    const intruders: [string, SecretPem][] = [
      ['Certificate', live.get('intruder')!], ['Ingress annotation', live.get('intruder-web')!],
      ['CertificateRequest', { 'tls.crt': Buffer.from(signed.certificate, 'base64').toString(), 'tls.key': fs.readFileSync(key, 'utf8'), 'ca.crt': Buffer.from(signed.ca, 'base64').toString() }],
    ];
    const store = live.get('basic-store-cluster-secret')!;
    const tries = intruders.map(([way, secret]) => ({ server: 'basic-store-cluster-secret', client: way, name: 'basic-store.demo.svc', serverSecret: store, clientSecret: secret }));
    // Each is taken for a component: its Common Name is the allowed one (its organisation keeps its subject apart from the CA's), and the store's CA signed it.
    expect(intruders.map(([way, s]) => [way, new crypto.X509Certificate(s['tls.crt']).subject])).toEqual(intruders.map(([way]) => [way, 'O=intruder\nCN=basic']));
    expect(await nodeRejections(tries)).toEqual([]);
    expect(goRejections(tries)).toEqual([]);
    // Broken as an outsider is: a certificate of another CA is rejected, so the handshakes above could fail.
    const outsider = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=basic', '-days', '1', '-keyout', '-', '-out', '-'], { encoding: 'utf8' }).stdout;
    const pem = (kind: string) => outsider.match(new RegExp(`-----BEGIN ${kind}-----[\\s\\S]+?-----END ${kind}-----\\n`))![0];
    const stranger = { 'tls.crt': pem('CERTIFICATE'), 'tls.key': pem('PRIVATE KEY'), 'ca.crt': store['ca.crt'] };
    expect(await nodeRejections([{ ...tries[0], client: 'outsider', clientSecret: stranger }])).toHaveLength(1);
    // The library refuses each in the app, naming the Issuer.
    for (const [object, received] of [[certificate, 'a Certificate'], [ingress, 'an Ingress'], [request, 'a CertificateRequest']] as const) {
      const app = new App();
      addDeployment(app, 'demo', IssuingMethod.CERT_MANAGER);
      new ApiObject(new Chart(app, 'intruders', { namespace: 'demo' }), 'intruder', object);
      expect(() => renderApp(app)).toThrow(`intruders/intruder: Issuer "basic-db-issuer" in namespace "demo" (the CA issuer of the database cluster's certificates, of cluster demo/basic): received ${received} that requests a certificate from it`);
    }
    kubectl(['delete', '-f', file, '--ignore-not-found']);
  });

  test('random valid apps apply server-side, read back field by field, and the real cert-manager makes every Certificate Ready', async () => {
    const label = (min: number, max: number) => fc.stringMatching(new RegExp(`^[a-z]([a-z0-9-]{${min - 2},${max - 2}})[a-z0-9]$`));
    const inputs = fc.record({
      clusterName: label(2, 30), namespace: label(2, 40), changefeed: fc.boolean(), columnar: fc.boolean(),
      version: fc.tuple(fc.integer({ min: 5, max: 9 }), fc.nat(20), fc.nat(30)).map(([a, b, c]) => `v${a}.${b}.${c}`),
    });
    const seen = new Set<string>(['demo', 'demo-cfssl']);
    await fc.assert(fc.asyncProperty(inputs, async (i) => {
      fc.pre(!seen.has(i.namespace));
      seen.add(i.namespace);
      const app = new App();
      const chart = new Chart(app, 'c', { namespace: i.namespace });
      const certificates = new ClusterCertificates(chart, 'certs', { clusterName: i.clusterName });
      new TlsDatabaseCluster(chart, 'db', {
        clusterName: i.clusterName, version: i.version, certificates, changefeed: i.changefeed ? {} : undefined, columnar: i.columnar ? {} : undefined,
      });
      // Each output folder in a folder of its own, with its files folder and record beside it.
      const dist = path.join(work, `random-${i.namespace}`, 'dist');
      synthesize(app, { outdir: dist });
      expect(kubectl(['create', 'namespace', i.namespace]).status).toBe(0);
      const problems: string[] = [];
      for (const file of fs.readdirSync(dist).filter((f) => f.endsWith('.k8s.yaml')).map((f) => path.join(dist, f))) {
        const applied = apply(file);
        if (applied.status !== 0) {
          problems.push(`${path.basename(file)}: ${applied.stderr}`);
          continue;
        }
        for (const o of objectsOf(file)) {
          const read = readBack(o);
          problems.push(...notReadBack(o, read), ...(CUSTOM_GROUPS.test(o.apiVersion) ? addedBelow(o.spec, read.spec, 'spec') : []));
        }
      }
      expect(problems).toEqual([]);
      const wait = kubectl(['wait', '--for=condition=Ready', 'certificate', '--all', '-n', i.namespace, '--timeout=60s']);
      expect({ status: wait.status, stderr: wait.stderr }).toEqual({ status: 0, stderr: '' });
    }), { numRuns: 6 });
  });

  test('a Certificate the real cert-manager cannot issue never becomes Ready, and the wait says so', () => {
    const ca = objectsOf(path.join(DIST, 'demo.k8s.yaml')).find((o) => o.kind === 'Certificate' && !o.spec.isCA);
    const orphan = { ...ca, metadata: { ...ca.metadata, name: 'orphan' }, spec: { ...ca.spec, secretName: 'orphan-secret', issuerRef: { ...ca.spec.issuerRef, name: 'no-such-issuer' } } };
    const file = path.join(work, 'orphan.yaml');
    fs.writeFileSync(file, YAML.stringify(orphan));
    expect(apply(file).status).toBe(0);
    const wait = kubectl(['wait', '--for=condition=Ready', 'certificate/orphan', '-n', 'demo', '--timeout=10s']);
    expect(wait.status).not.toBe(0);
    expect(wait.stderr).toMatch(/timed out waiting for the condition/);
  });
});
