/**
 * What each phase of the reference app's rotation writes (synthesized from main.ts, as
 * `CLUSTER_TLS_ROTATION_PHASE` selects it), the guards that keep phases in order, and
 * `cluster-tls verify`'s check of a phase.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'cdk8s';
import * as YAML from 'yaml';
import { addDeployment, buildApp, referenceRotations } from '../main';
import {
  CertificateRotation, IssuingMethod, RotationKind, RotationPhase, ClusterTlsError, SynthesizeOptions, loadPlans, parseSecrets, renderApp, synthesize, verify,
} from '../lib';
import { COMPONENTS } from '../lib/model/catalog';
import { expectValidAgainstCrds } from './_crds';
import { LINK_FUNCTION, certManagerRenewalBlocks } from '../lib/scripts/rotation-script';
import { recordedSecret, recordedSecretRef } from '../lib/synth/phase-report';
import { spawnSync } from 'node:child_process';

const PHASES = [RotationPhase.TRUST_BOTH, RotationPhase.SWITCH_LEAVES, RotationPhase.DROP_OLD];

function manifestsOf(files: Map<string, string>, name: string): any[] {
  return YAML.parseAllDocuments(files.get(name)!).map((d) => d.toJS());
}

describe.each(PHASES)('the reference app at phase %s', (phase) => {
  const files = new Map(renderApp(buildApp(undefined, referenceRotations(phase))).files.map((f) => [f.path, f.content]));
  const certManager = manifestsOf(files, 'demo.k8s.yaml');
  const cfssl = manifestsOf(files, 'demo-cfssl.k8s.yaml');
  // The cluster's Certificates; those of TLS for MySQL clients (their CA in cert-manager's namespace, the rest through its ClusterIssuer) apart.
  const isSql = (m: any) => m.metadata.namespace === 'cert-manager' || m.spec.issuerRef.kind === 'ClusterIssuer';
  const certificates = certManager.filter((m) => m.kind === 'Certificate' && !isSql(m));
  const sqlCertificates = certManager.filter((m) => m.kind === 'Certificate' && isSql(m));
  const caSecretOfIssuer = certManager.find((m) => m.kind === 'Issuer' && m.metadata.name === 'basic-db-issuer').spec.ca.secretName;

  test('every component the phase restarts carries its restart annotation, the others the one of the phase that last restarted them, and the objects fit the CRDs', () => {
    for (const namespace of ['demo', 'demo-cfssl']) {
      const plan = JSON.parse(files.get(`${namespace}/basic/tls-plan.json`)!);
      // At v4.0.5 the coordinator, the pump and the drainer re-read their certificate: switch-leaves, which keeps ca.crt, leaves them running.
      expect([namespace, plan.rotation.reloading]).toEqual([namespace, phase === 'switch-leaves' ? ['coordinator', 'pump', 'drainer'] : []]);
      for (const m of manifestsOf(files, `${namespace}.k8s.yaml`).filter((o) => o.kind === 'DatabaseCluster' || o.kind === 'MigrationCluster')) {
        const parts = COMPONENTS.filter((c) => c.specKey !== undefined && m.spec[c.specKey]?.replicas !== undefined);
        expect(parts.length).toBeGreaterThanOrEqual(m.kind === 'DatabaseCluster' ? 6 : 2);
        for (const c of parts) {
          const at = plan.rotation.restartOrder.includes(c.token) ? phase : 'trust-both';
          expect([c.token, m.spec[c.specKey!].annotations]).toEqual([c.token, { 'db.operator.io/restartedAt': `rotation-2026-11-${at}` }]);
        }
      }
    }
    expectValidAgainstCrds([...certManager, ...cfssl]);
  });

  test('cert-manager: the CAs, the issuers and the custody of the leaves of the phase', () => {
    const cas = certificates.filter((c) => c.spec.isCA).map((c) => c.metadata.name);
    const leaves = certificates.filter((c) => !c.spec.isCA).map((c) => c.metadata.name);
    const expected = {
      [RotationPhase.TRUST_BOTH]: { cas: ['basic-ca', 'basic-ca-2026-11'], issuerCa: 'basic-ca-secret', leaves: [] as string[] },
      [RotationPhase.SWITCH_LEAVES]: { cas: ['basic-ca', 'basic-ca-2026-11'], issuerCa: 'basic-ca-2026-11-secret', leaves: ['basic-coordinator-cluster-secret-2026-11'] },
      [RotationPhase.DROP_OLD]: { cas: ['basic-ca-2026-11'], issuerCa: 'basic-ca-2026-11-secret', leaves: ['basic-coordinator-cluster-secret'] },
    }[phase as string]!;
    expect(cas).toEqual(expected.cas);
    expect(caSecretOfIssuer).toBe(expected.issuerCa);
    expected.leaves.forEach((l) => expect(leaves).toContain(l));
    expect(leaves.length).toBe(expected.leaves.length === 0 ? 0 : 13);
    expect(files.has('demo/basic/rotate-certificates.sh')).toBe(true);
    // The SQL CA is replaced with the cluster's, phase for phase: its CA objects, the ClusterIssuer's CA and the custody of its leaves.
    const sqlLeaves = ['basic-sqlserver-server-secret', 'basic-sqlserver-client-secret', 'basic-migration-demo-basic-sql-client'];
    const sqlExpected = {
      [RotationPhase.TRUST_BOTH]: { cas: ['demo-basic-sql-ca', 'demo-basic-sql-ca-2026-11'], issuerCa: 'demo-basic-sql-ca', leaves: [] as string[] },
      [RotationPhase.SWITCH_LEAVES]: { cas: ['demo-basic-sql-ca', 'demo-basic-sql-ca-2026-11'], issuerCa: 'demo-basic-sql-ca-2026-11', leaves: sqlLeaves.map((l) => `${l}-2026-11`) },
      [RotationPhase.DROP_OLD]: { cas: ['demo-basic-sql-ca-2026-11'], issuerCa: 'demo-basic-sql-ca-2026-11', leaves: sqlLeaves },
    }[phase as string]!;
    expect(sqlCertificates.filter((c) => c.spec.isCA).map((c) => [c.metadata.namespace, c.metadata.name])).toEqual(sqlExpected.cas.map((n) => ['cert-manager', n]));
    expect(sqlCertificates.filter((c) => !c.spec.isCA).map((c) => [c.metadata.namespace, c.metadata.name, c.spec.secretName])).toEqual(sqlExpected.leaves.map((n) => ['demo', n, n]));
    expect(certManager.filter((m) => m.kind === 'ClusterIssuer').map((m) => [m.metadata.name, m.spec.ca.secretName])).toEqual([['demo-basic-sql-ca', sqlExpected.issuerCa]]);
  });

  test('cfssl: the script writes every Secret whole from the phase\'s files and keeps the earlier generation', () => {
    const script = files.get('demo-cfssl/basic/cfssl/issue-certificates.sh')!;
    const ca = phase === RotationPhase.DROP_OLD ? '"$next/ca.pem"' : '"$next/ca-bundle.pem"';
    const leaf = phase === RotationPhase.TRUST_BOTH ? '$prev' : '$next';
    expect(script).toContain(`put_secret 'basic-store-cluster-secret' "${leaf}/store-server.pem" "${leaf}/store-server-key.pem" ${ca}`);
    // The SQL CA in its folder, the same phase: its own generations in sql/, each Secret in its namespace.
    expect(script).toContain("prev='sql'\nnext='sql/2026-11'");
    expect(script).toContain(`NAMESPACE='demo-cfssl' put_secret 'basic-sqlserver-server-secret' "${leaf}/server.pem" "${leaf}/server-key.pem" ${ca}`);
    expect(script).not.toMatch(/\brm\b(?! -rf -- "\$work")|kubectl[^\n]*delete/);
    expect(files.get('demo-cfssl/basic/rotation-runbook.md')).toContain(`phase ${phase} (${PHASES.indexOf(phase) + 1} of 3)`);
  });
});

describe('the scripts a rotation writes', () => {
  test('run with bash 3.2 (macOS): no associative arrays, mapfile or case conversion', () => {
    const scripts = [...PHASES.map((p) => referenceRotations(p)), [{ id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }]].flatMap((rotations) => {
      const files = renderApp(buildApp(undefined, rotations)).files;
      return files.filter((f) => f.path.endsWith('.sh')).map((f) => f.content);
    });
    expect(scripts.length).toBe(8);
    scripts.forEach((script) => expect(script).not.toMatch(/declare -A|typeset -A|\bmapfile\b|\breadarray\b|\$\{[A-Za-z_]+(,,|\^\^)\}|&>>|\bcoproc\b/));
  });
});

describe('a leaf renewal of the reference app renews the certificates for MySQL clients too', () => {
  const files = new Map(renderApp(buildApp(undefined, [{ id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }])).files.map((f) => [f.path, f.content]));
  const sqlLeaves = ['basic-sqlserver-server-secret', 'basic-sqlserver-client-secret', 'basic-migration-demo-basic-sql-client'];

  test('cert-manager: cmctl renew names them with the cluster\'s leaves, never a CA Certificate', () => {
    const script = files.get('demo/basic/rotate-certificates.sh')!;
    const renew = script.split('\n').filter((l) => l.includes('renew --namespace='));
    expect(renew).toHaveLength(1);
    sqlLeaves.forEach((name) => expect(renew[0]).toContain(` '${name}'`));
    expect(renew[0]).not.toMatch(/-ca'/);
    sqlLeaves.forEach((name) => expect(script).toContain(`  'demo/${name}'`));
  });

  test('cfssl: the script issues them in sql/leaves-1/ from the SQL CA in sql/ and writes each Secret whole in its namespace', () => {
    const script = files.get('demo-cfssl/basic/cfssl/issue-certificates.sh')!;
    expect(script).toContain("prev='sql'\nnext='sql/leaves-1'");
    expect(script).toContain('link_from "$next" \'ca-key.pem\' "$prev"');
    expect(script).toContain('NAMESPACE=\'demo-cfssl\' put_secret \'basic-migration-demo-cfssl-basic-sql-client\' "$next/app-basic-migration.pem" "$next/app-basic-migration-key.pem" "$prev/ca.pem"');
  });

  test('the runbook says so', () => {
    expect(files.get('demo/basic/rotation-runbook.md')).toContain('TLS for MySQL clients rotates with them, the SQL CA in place of the cluster\'s CA, phase for phase: `basic-sqlserver-server-secret` (namespace `demo`)');
  });
});

describe('guards: one phase per synth, forward', () => {
  function synth(root: string, phase: RotationPhase | undefined, options: Partial<SynthesizeOptions> = {}): void {
    const app = new App();
    addDeployment(app, 'demo', IssuingMethod.USER_PROVIDED, phase ? [{ id: '2026-11', phase }] : []);
    synthesize(app, { outdir: path.join(root, 'dist'), acknowledgeRecreation: [], acknowledgeUnverifiedPhase: [], ...options });
  }
  const record = (root: string) => JSON.parse(fs.readFileSync(path.join(root, 'cluster-tls.lock.json'), 'utf8'));
  const unverified = { acknowledgeUnverifiedPhase: ['demo/basic'] };

  test('skipping a phase, going back and dropping an unfinished rotation are refused; the next phase passes', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-guard-'));
    synth(root, undefined);
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES)).toThrow(/rotations: received 2026-11 at "switch-leaves"; expected no rotation or a new rotation at/);
    synth(root, RotationPhase.TRUST_BOTH);
    expect(() => synth(root, RotationPhase.DROP_OLD, unverified)).toThrow(/expected 2026-11 at "trust-both" or 2026-11 at "switch-leaves"/);
    synth(root, RotationPhase.SWITCH_LEAVES, unverified);
    expect(() => synth(root, RotationPhase.TRUST_BOTH)).toThrow(ClusterTlsError);
    expect(() => synth(root, undefined)).toThrow(/received no rotation/);
    synth(root, RotationPhase.DROP_OLD, unverified);
    synth(root, RotationPhase.DROP_OLD);
    // Each phase left without a report stays in the record, for review.
    expect(record(root).rotations['demo/basic']).toMatchObject({ id: '2026-11', phase: 'drop-old', unverified: ['2026-11 trust-both', '2026-11 switch-leaves'] });
  });

  test('rotations done stay as recorded: dropping, renaming, changing the kind of or inventing a rotation is refused; one new rotation after them passes', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-history-'));
    const synthAll = (rotations: CertificateRotation[]) => {
      const app = new App();
      addDeployment(app, 'demo', IssuingMethod.USER_PROVIDED, rotations);
      synthesize(app, { outdir: path.join(root, 'dist'), acknowledgeRecreation: [], acknowledgeUnverifiedPhase: ['demo/basic'] });
    };
    synthAll([]);
    // A rotation the record never saw cannot be declared done, ahead of a new one.
    expect(() => synthAll([{ id: 'old', kind: RotationKind.LEAF_RENEWAL }, { id: 'leaves-2', kind: RotationKind.LEAF_RENEWAL }])).toThrow(
      /^certificates demo\/basic: rotations: received \[old \(leaf-renewal\), leaves-2 \(leaf-renewal\)\]; expected one new rotation as recorded in .*cluster-tls.lock.json: a rotation stays declared as it was once recorded, since it names the certificates in use, and one the record never saw cannot be declared done; to override deliberately, set CLUSTER_TLS_RECREATE=rotation\/demo\/basic$/);
    for (const phase of PHASES) {
      synthAll([{ id: '2026-11', phase }]);
    }
    expect(record(root).rotations['demo/basic'].history).toEqual(['2026-11 (ca-replacement)']);
    const next = { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL };
    for (const [rotations, got] of [
      [[next], '[leaves-1 (leaf-renewal)]'],
      [[{ id: '2026-12' }, next], '[2026-12 (ca-replacement), leaves-1 (leaf-renewal)]'],
      [[{ id: '2026-11', kind: RotationKind.LEAF_RENEWAL }, next], '[2026-11 (leaf-renewal), leaves-1 (leaf-renewal)]'],
      [[{ id: '2026-11' }, { id: 'invented', kind: RotationKind.LEAF_RENEWAL }, next], '[2026-11 (ca-replacement), invented (leaf-renewal), leaves-1 (leaf-renewal)]'],
    ] as const) {
      expect(() => synthAll([...rotations])).toThrow(`rotations: received ${got}; expected [2026-11 (ca-replacement)], then at most one new rotation, as recorded in`);
    }
    synthAll([{ id: '2026-11' }, next]);
    expect(record(root).rotations['demo/basic']).toMatchObject({
      id: 'leaves-1', history: ['2026-11 (ca-replacement)', 'leaves-1 (leaf-renewal)'],
      unverified: ['2026-11 trust-both', '2026-11 switch-leaves', '2026-11 drop-old'],
    });
  });

  test('the next phase needs the report of the phase in place, beside the output folder, naming the way to move on unverified', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-noreport-'));
    synth(root, undefined);
    synth(root, RotationPhase.TRUST_BOTH);
    // The cluster's 13 Secrets and the 3 of TLS for MySQL clients, which rotate with them.
    expect(record(root).rotations['demo/basic'].secrets).toHaveLength(16);
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES)).toThrow(new RegExp(
      '^certificates demo/basic: rotations: received 2026-11 at "switch-leaves"; expected 2026-11 at "trust-both" until cluster-tls verify shows every Secret of the cluster in it and every pod restarted since: '
      + `no report at ${root}/cluster-tls-verify.demo.basic.json; run the check step of rotation-runbook.md, or, to move on unverified and risk pods that trust a CA `
      + `their peers no longer present, set CLUSTER_TLS_UNVERIFIED_PHASE=demo/basic \\(kept in ${root}/cluster-tls.lock.json\\)$`));
    expect(record(root).rotations['demo/basic'].phase).toBe('trust-both');
  });

  test('a report that cannot be read, and a record of an earlier release that lists no Secrets of the phase, are each refused in one line', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-unreadable-'));
    synth(root, undefined);
    synth(root, RotationPhase.TRUST_BOTH);
    const folder = path.join(root, 'report-folder');
    fs.mkdirSync(folder);
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: folder })).toThrow(
      /^verifyReport: received ".*report-folder", which cannot be read \(a folder, not a regular file\); expected the JSON report of cluster-tls verify --json$/);
    const file = path.join(root, 'cluster-tls.lock.json');
    const written = record(root);
    delete written.rotations['demo/basic'].secrets;
    fs.writeFileSync(file, JSON.stringify(written));
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES)).toThrow(new RegExp(
      '^certificates demo/basic: rotations: received 2026-11 at "switch-leaves"; expected 2026-11 at "trust-both" until cluster-tls verify shows every Secret of the cluster in it and every pod restarted since: '
      + `${file} does not list the Secrets of phase "trust-both" \\(an earlier release wrote it\\): synthesize phase "trust-both" once more, then verify$`));
    expect(record(root).rotations['demo/basic'].phase).toBe('trust-both');
  });

  test('a report moves the phase on only when it covers every Secret the record names, in the phase in place', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-report-'));
    synth(root, undefined);
    synth(root, RotationPhase.TRUST_BOTH);
    const plans = loadPlans(path.join(root, 'dist'));
    // No Secret written yet: verify reports every one as not in the phase.
    const report = await verify(plans, parseSecrets('{"apiVersion":"v1","kind":"List","items":[]}'));
    const file = path.join(root, 'report.json');
    fs.writeFileSync(file, JSON.stringify(report));
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file }))
      .toThrow(/rotations: received 2026-11 at "switch-leaves"; expected 2026-11 at "trust-both" until cluster-tls verify shows every Secret of the cluster in it and every pod restarted since, and .*report.json does not show Secret basic-cluster-client-secret there: its rotation was not checked \(present: no Secret of that name in the input\);/);
    fs.writeFileSync(file, JSON.stringify({ ...report, plans: report.plans.map((p) => ({ ...p, rotation: { id: '2026-11', phase: 'switch-leaves' } })) }));
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file })).toThrow(/is not a report of phase "trust-both"/);
    // A report that passes for the Secrets it lists but leaves one out does not move the phase.
    // A report of the Secrets alone (no pods listed) cannot show what the pods loaded.
    const secretsOnly = { ...report, secrets: report.secrets.map((s) => ({ ...s, checks: [{ check: 'rotation', ok: true, found: 'in phase' }] })) };
    fs.writeFileSync(file, JSON.stringify(secretsOnly));
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file }))
      .toThrow(/does not show Secret basic-cluster-client-secret there: the report lists no pods, so it cannot show what they loaded \(check loaded\)/);
    const passing = { ...report, secrets: report.secrets.map((s) => ({ ...s, checks: [{ check: 'rotation', ok: true, found: 'in phase' }, { check: 'loaded', ok: true, found: 'no pod in the input mounts it' }] })) };
    fs.writeFileSync(file, JSON.stringify({ ...passing, secrets: passing.secrets.filter((s) => s.name !== 'basic-store-cluster-secret') }));
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file })).toThrow(/does not show Secret basic-store-cluster-secret there: it is not in the report;/);
    fs.writeFileSync(file, JSON.stringify({ ...passing, secrets: passing.secrets.map((s) => ({ ...s, checks: [s.checks[0], { check: 'loaded', ok: s.name !== 'basic-pump-cluster-secret', found: 'pod basic-pump-0 started before the Secret was written' }] })) }));
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file })).toThrow(/does not show Secret basic-pump-cluster-secret there: loaded: pod basic-pump-0 started before the Secret was written;/);
    fs.writeFileSync(file, '{"plans": [], "secrets": [{"name": 1}]}');
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file })).toThrow(/^verifyReport: received ".*report.json", which is not a report of cluster-tls verify --json; expected the JSON report of the phase in place$/);
    fs.writeFileSync(file, JSON.stringify(passing));
    synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file });
    expect(record(root).rotations['demo/basic']).not.toHaveProperty('unverified');
    // Leaving the last phase for a new rotation needs the last phase's report too.
    synth(root, RotationPhase.DROP_OLD, unverified);
    const app = new App();
    addDeployment(app, 'demo', IssuingMethod.USER_PROVIDED, [{ id: '2026-11' }, { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }]);
    expect(() => synthesize(app, { outdir: path.join(root, 'dist'), acknowledgeRecreation: [], acknowledgeUnverifiedPhase: [], verifyReport: file }))
      .toThrow(/rotations: received leaves-1 at "renew"; expected 2026-11 at "drop-old" until .* is not a report of phase "drop-old" of rotation 2026-11/);
  });
});

describe('the pieces a rotation of TLS for MySQL clients adds', () => {
  test('the record names a Secret by its name in the cluster\'s namespace and as namespace/name in another, and reads both back', () => {
    const inCluster = { namespace: 'demo', name: 'basic-sqlserver-server-secret' };
    const elsewhere = { namespace: 'orders', name: 'orders-api-demo-basic-sql-client' };
    expect([recordedSecret('demo', inCluster), recordedSecret('demo', elsewhere)]).toEqual(['basic-sqlserver-server-secret', 'orders/orders-api-demo-basic-sql-client']);
    expect([recordedSecretRef('demo', 'basic-sqlserver-server-secret'), recordedSecretRef('demo', 'orders/orders-api-demo-basic-sql-client')]).toEqual([inCluster, elsewhere]);
  });

  test('link_from makes each generation\'s link relative to its own folder, in the cfssl folder and in sql/', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'link-from-'));
    try {
      for (const folder of ['g1', 'g2', 'sql/g1', 'sql/g2']) {
        fs.mkdirSync(path.join(dir, folder), { recursive: true });
      }
      fs.writeFileSync(path.join(dir, 'ca.pem'), 'initial');
      fs.writeFileSync(path.join(dir, 'g1', 'leaf.pem'), 'g1');
      fs.writeFileSync(path.join(dir, 'sql', 'ca.pem'), 'sql initial');
      fs.writeFileSync(path.join(dir, 'sql', 'g1', 'leaf.pem'), 'sql g1');
      const script = [...LINK_FUNCTION, 'fail() { echo "$*" >&2; exit 1; }',
        'link_from g1 ca.pem .', 'link_from g2 leaf.pem g1', 'link_from sql/g1 ca.pem sql', 'link_from sql/g2 leaf.pem sql/g1'].join('\n');
      expect(spawnSync('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], { cwd: dir, encoding: 'utf8' }).stderr).toBe('');
      const read = (f: string) => [fs.readlinkSync(path.join(dir, f)), fs.readFileSync(path.join(dir, f), 'utf8')];
      expect([read('g1/ca.pem'), read('g2/leaf.pem'), read('sql/g1/ca.pem'), read('sql/g2/leaf.pem')]).toEqual([
        ['.././ca.pem', 'initial'], ['../g1/leaf.pem', 'g1'], ['.././ca.pem', 'sql initial'], ['../g1/leaf.pem', 'sql g1'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a leaf renewal renews the Certificates of each namespace with one cmctl renew there', () => {
    const blocks = certManagerRenewalBlocks([
      { namespace: 'demo', name: 'basic-store-cluster-secret' }, { namespace: 'orders', name: 'orders-api-demo-basic-sql-client' },
      { namespace: 'demo', name: 'basic-sqlserver-server-secret' },
    ]);
    expect(blocks[1]).toEqual([
      '"${cmctl[@]}" renew --namespace=\'demo\' \'basic-store-cluster-secret\' \'basic-sqlserver-server-secret\'',
      '"${cmctl[@]}" renew --namespace=\'orders\' \'orders-api-demo-basic-sql-client\'',
    ]);
  });
});
