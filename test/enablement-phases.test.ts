/**
 * What each phase of a TLS enablement writes (the reference app, as `CLUSTER_TLS_ENABLEMENT_PHASE`
 * selects it), the guard that keeps the phases in order against the record, the prop's refusals,
 * and `cluster-tls verify`'s check of a phase.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as YAML from 'yaml';
import { buildApp, referenceEnablement } from '../main';
import {
  ClusterTlsError, IssuingMethod, TlsDatabaseCluster, TlsEnablementPhase, TlsPlan, ClusterCertificates, loadPlans, parseSecrets, parseSecretsAndPods, renderApp, synthesize,
  verify,
} from '../lib';
import { readConfig } from '../lib/model/config-documents';
import { component } from '../lib/model/catalog';
import { expectValidAgainstCrds } from './_crds';
import { docBlocks } from './_readme';
import { execFileSync } from 'node:child_process';
import { TestPki } from './_pki';
import { outputFile } from './_output';

const PHASES = Object.values(TlsEnablementPhase);

function filesAt(phase: TlsEnablementPhase): Map<string, string> {
  return new Map(renderApp(buildApp(undefined, [], referenceEnablement(phase))).files.map((f) => [f.path, f.content]));
}

describe.each(PHASES)('the reference app at phase %s', (phase) => {
  const files = filesAt(phase);
  const manifests = YAML.parseAllDocuments(files.get('demo.k8s.yaml')!).map((d) => d.toJS());
  const cluster = manifests.find((m) => m.kind === 'DatabaseCluster');
  const tls = phase === TlsEnablementPhase.ENABLE || phase === TlsEnablementPhase.SCALE_OUT;

  test('fits the CRDs, leaves the migration cluster out, and writes the phase\'s runbook', () => {
    expectValidAgainstCrds([...manifests, ...YAML.parseAllDocuments(files.get('demo-cfssl.k8s.yaml')!).map((d) => d.toJS())]);
    expect(manifests.some((m) => m.kind === 'MigrationCluster')).toBe(false);
    expect(files.get('demo/basic/enablement-runbook.md')).toContain(`phase ${phase} (${PHASES.indexOf(phase) + 1} of 4)`);
    expect(JSON.parse(files.get('demo/basic/tls-plan.json')!).enablement).toEqual({
      phase, phases: PHASES, tls, coordinator: { member: 'basic-coordinator-0', peerUrl: 'https://basic-coordinator-0.basic-coordinator-peer.demo.svc:2380' },
    });
  });

  test('gives the allowed Common Names and the client Secret\'s mount only with TLS on', () => {
    expect(cluster.spec.tlsCluster).toEqual({ enabled: tls });
    expect((readConfig(component('coordinator'), cluster.spec.coordinator.config) as any)?.security?.['cert-allowed-cn']).toEqual(tls ? ['basic'] : undefined);
    expect((readConfig(component('store'), cluster.spec.store.config) as any)?.security?.['cert-allowed-cn']).toEqual(tls ? ['basic'] : undefined);
    expect(cluster.spec.coordinator.mountClusterClientSecret).toBe(tls ? true : undefined);
  });
});

describe('the walk through of docs/how-to/enable-tls.md', () => {
  test('synthesizes the reference app at phase issue into build/enablement/dist, as written, from the project folder', () => {
    const root = path.join(__dirname, '..');
    const block = docBlocks().find((b) => b.section === 'Turning TLS on for a cluster that already runs without it' && b.lang === 'sh')!;
    expect(block.text).toBe('CLUSTER_TLS_ENABLEMENT_PHASE=issue npm run synth\n');
    // The folder is the command's own output; an earlier walk through would hold a later phase.
    fs.rmSync(path.join(root, 'build', 'enablement'), { recursive: true, force: true });
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CLUSTER_TLS_') && k !== 'CDK8S_OUTDIR'));
    const marker = fs.readFileSync(path.join(root, 'dist', '.cluster-tls-output'), 'utf8');
    const filesMarker = fs.readFileSync(path.join(root, 'cluster-tls', '.cluster-tls-output'), 'utf8');
    execFileSync('bash', ['-euo', 'pipefail', '-c', block.text], { cwd: root, env, stdio: 'pipe' });
    const runbook = fs.readFileSync(path.join(root, 'build', 'enablement', 'cluster-tls', 'demo', 'basic', 'enablement-runbook.md'), 'utf8');
    expect(runbook).toContain('phase issue (1 of 4)');
    expect(JSON.parse(fs.readFileSync(path.join(root, 'build', 'enablement', 'cluster-tls.lock.json'), 'utf8')).enablements['demo/basic'].phase).toBe('issue');
    expect(fs.readFileSync(path.join(root, 'dist', '.cluster-tls-output'), 'utf8')).toBe(marker);
    expect(fs.readFileSync(path.join(root, 'cluster-tls', '.cluster-tls-output'), 'utf8')).toBe(filesMarker);
  }, 180_000);
});

describe('the issue phase\'s runbook', () => {
  test('issues the Secrets as each method does, before anything is applied', () => {
    const issue = filesAt(TlsEnablementPhase.ISSUE);
    expect(issue.get('demo-cfssl/basic/enablement-runbook.md')).toMatch(/## 1\. [^\n]*\n[\s\S]*issue-certificates\.sh[\s\S]*## \d\. Apply the manifests/);
    expect(issue.get('demo/basic/enablement-runbook.md')).toMatch(/## 1\. [^\n]*\n[\s\S]*kubectl apply -f demo\.k8s\.yaml -l [\s\S]*## \d\. Apply the manifests/);
    const app = new App();
    const chart = new Chart(app, 'own', { namespace: 'own' });
    const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', method: IssuingMethod.USER_PROVIDED });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates, enablement: { phase: TlsEnablementPhase.ISSUE } });
    const runbook = renderApp(app).files.find((f) => f.path === 'own/basic/enablement-runbook.md')!.content;
    expect(runbook).toMatch(/## 1\. Create the certificate Secrets\n\nCreate them with your own PKI as `\.\.\/cluster-tls\/own\/basic\/required-secrets\.md` describes/);
  });
});

describe('the enable phase\'s runbook', () => {
  const runbook = filesAt(TlsEnablementPhase.ENABLE).get('demo/basic/enablement-runbook.md')!;
  test('stores the member\'s https peer URL with etcdctl and the pod\'s own certificate files, then checks it', () => {
    const etcdctl = 'kubectl exec -n demo basic-coordinator-0 -- /tmp/etcdctl --endpoints https://127.0.0.1:2379 --cacert /var/lib/coordinator-tls/ca.crt '
      + '--cert /var/lib/coordinator-tls/tls.crt --key /var/lib/coordinator-tls/tls.key';
    expect(runbook).toContain(`${etcdctl} member update "$ID" --peer-urls=https://basic-coordinator-0.basic-coordinator-peer.demo.svc:2380`);
    expect(runbook).toContain(`${etcdctl} member list > ../cluster-tls-members.demo.basic.txt\n`
      + 'grep -F \'https://basic-coordinator-0.basic-coordinator-peer.demo.svc:2380\' ../cluster-tls-members.demo.basic.txt');
  });
  test('upgrades the drainer after the roll', () => {
    expect(runbook.indexOf('helm upgrade binlog binlog-charts/drainer --namespace=demo --version=1.1.5 -f ../cluster-tls/demo/basic/drainer-binlog-values.yaml'))
      .toBeGreaterThan(runbook.indexOf('Wait for the operator to restart every component'));
  });
});

/** A project folder with an output folder and its record. */
function project(): { outdir: string; record: string; report: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'enablement-'));
  return { outdir: path.join(dir, 'dist'), record: path.join(dir, 'cluster-tls.lock.json'), report: path.join(dir, 'cluster-tls-verify.demo.basic.json') };
}

/** One database cluster, `demo/basic`, at a phase (or with TLS from creation). */
function appAt(phase?: TlsEnablementPhase, coordinators = 3): App {
  const app = new App();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  new TlsDatabaseCluster(chart, 'db', {
    clusterName: 'basic', version: 'v4.0.5', coordinator: { replicas: coordinators },
    enablement: phase === undefined ? undefined : { phase },
  });
  return app;
}

const UNVERIFIED = { acknowledgeUnverifiedPhase: ['demo/basic'] };

/**
 * The verify report of the output folder's plan for good Secrets, and, when `mounting` is given,
 * the pods of the coordinator, store, sqlserver and pump, each mounting its Secret when `mounting`
 * says so and started after the Secrets were written.
 */
async function reportOf(outdir: string, mounting?: (component: string) => boolean): Promise<any> {
  const plan: TlsPlan = JSON.parse(fs.readFileSync(outputFile(outdir, 'demo/basic/tls-plan.json'), 'utf8'));
  const list = await (await TestPki.create(new Date())).secrets(plan);
  const pods = mounting === undefined ? [] : ['coordinator', 'store', 'sqlserver', 'pump'].map((t) => ({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `basic-${t}-0`, namespace: 'demo', labels: { 'app.kubernetes.io/instance': 'basic', 'app.kubernetes.io/component': t } },
    spec: { volumes: mounting(t) ? [{ name: 'tls', secret: { secretName: `basic-${t}-cluster-secret` } }] : [] },
    status: { phase: 'Running', containerStatuses: [{ name: 'main', ready: true, state: { running: { startedAt: new Date(Date.now() + 60_000).toISOString() } } }] },
  }));
  const written = list.items.map((s: any) => ({ ...s, metadata: { ...s.metadata, managedFields: [{ time: new Date().toISOString() }] } }));
  const input = parseSecretsAndPods(JSON.stringify({ ...list, items: [...written, ...pods] }));
  return verify(loadPlans(outdir), input.secrets, { namespace: 'demo', clusterName: 'basic', pods: input.pods });
}

describe('the guard, against the record', () => {
  test('walks the four phases forward, tlsCluster.enabled moving from false to true only from scale-in to enable', () => {
    const p = project();
    for (const phase of PHASES) {
      synthesize(appAt(phase), { outdir: p.outdir, recordFile: p.record, ...UNVERIFIED });
      const record = JSON.parse(fs.readFileSync(p.record, 'utf8'));
      expect(record.clusters['DatabaseCluster/demo/basic'].tlsClusterEnabled).toBe(phase === 'enable' || phase === 'scale-out');
      expect(record.enablements['demo/basic'].phase).toBe(phase);
    }
    expect(JSON.parse(fs.readFileSync(p.record, 'utf8')).enablements['demo/basic'].unverified).toEqual(['issue', 'scale-in', 'enable']);
    // Done: the enablement may stay or go; the record keeps it, with the phases left unverified.
    synthesize(appAt(), { outdir: p.outdir, recordFile: p.record });
    expect(JSON.parse(fs.readFileSync(p.record, 'utf8')).enablements['demo/basic']).toMatchObject({ phase: 'scale-out', unverified: ['issue', 'scale-in', 'enable'] });
    synthesize(appAt(TlsEnablementPhase.SCALE_OUT), { outdir: p.outdir, recordFile: p.record });
  });

  test('refuses a first phase other than issue, in one line', () => {
    const p = project();
    expect(() => synthesize(appAt(TlsEnablementPhase.ENABLE), { outdir: p.outdir, recordFile: p.record })).toThrow(new ClusterTlsError(
      `certificates demo/basic: enablement.phase: received "enable"; expected "issue", the first phase, since ${p.record} records no enablement of this cluster: `
      + 'each phase\'s commands assume the ones before were run; to override deliberately, set CLUSTER_TLS_RECREATE=enablement/demo/basic'));
  });

  test('refuses an enablement of a cluster recorded with TLS on', () => {
    const p = project();
    synthesize(appAt(), { outdir: p.outdir, recordFile: p.record });
    expect(() => synthesize(appAt(TlsEnablementPhase.ISSUE), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/^certificates demo\/basic: enablement\.phase: received "issue"; expected no enablement: the cluster runs with TLS on as recorded in .*; to override deliberately, set CLUSTER_TLS_RECREATE=enablement\/demo\/basic$/);
  });

  test('refuses a skipped phase, a step back, and an enablement dropped before its last phase', () => {
    const p = project();
    synthesize(appAt(TlsEnablementPhase.ISSUE), { outdir: p.outdir, recordFile: p.record });
    expect(() => synthesize(appAt(TlsEnablementPhase.ENABLE), { outdir: p.outdir, recordFile: p.record, ...UNVERIFIED }))
      .toThrow(/enablement\.phase: received "enable"; expected "issue" or "scale-in" as recorded in .*: an enablement moves one phase per synth, forward, and stays declared until its last phase/);
    expect(() => synthesize(appAt(), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/enablement\.phase: received no enablement; expected "issue" or "scale-in" as recorded/);
    synthesize(appAt(TlsEnablementPhase.SCALE_IN), { outdir: p.outdir, recordFile: p.record, ...UNVERIFIED });
    expect(() => synthesize(appAt(TlsEnablementPhase.ISSUE), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/received "issue"; expected "scale-in" or "enable"/);
  });

  test('refuses tlsCluster.enabled turned on outside the enablement, naming the enablement', () => {
    const p = project();
    synthesize(appAt(TlsEnablementPhase.ISSUE), { outdir: p.outdir, recordFile: p.record });
    expect(() => synthesize(appAt(), { outdir: p.outdir, recordFile: p.record, acknowledgeRecreation: ['enablement/demo/basic'] }))
      .toThrow(/tlsCluster\.enabled: received true; expected false as recorded in .*: the setting is fixed at creation .*; turn TLS on in place through the phases of the cluster's enablement prop, or to re-create/);
  });

  test('leaves a phase only with a verify report of it that shows every Secret passing', async () => {
    const p = project();
    synthesize(appAt(TlsEnablementPhase.ISSUE), { outdir: p.outdir, recordFile: p.record });
    expect(() => synthesize(appAt(TlsEnablementPhase.SCALE_IN), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/expected "issue" until cluster-tls verify shows every Secret of the cluster in it: no report at .*cluster-tls-verify\.demo\.basic\.json; run the check step of enablement-runbook\.md, or, to move on unverified, set CLUSTER_TLS_UNVERIFIED_PHASE=demo\/basic/);
    const plan: TlsPlan = JSON.parse(fs.readFileSync(outputFile(p.outdir, 'demo/basic/tls-plan.json'), 'utf8'));
    const pki = await TestPki.create(new Date());
    const write = async (omit: string[]) => {
      const secrets = parseSecrets(JSON.stringify(await pki.secrets(plan, { omit })));
      fs.writeFileSync(p.report, JSON.stringify(await verify(loadPlans(p.outdir), secrets, { namespace: 'demo', clusterName: 'basic' })));
    };
    fs.writeFileSync(p.report, JSON.stringify({ plans: [{ namespace: 'demo', clusterName: 'basic', enablement: { phase: 'issue' } }], secrets: [] }));
    expect(() => synthesize(appAt(TlsEnablementPhase.SCALE_IN), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/does not show Secret basic-cluster-client-secret there: it is not in the report;/);
    // A report that lists every Secret of the phase with no checks, or without the phase's own, shows nothing.
    const listed = plan.secrets.map((s) => ({ name: s.name, namespace: 'demo', clusterName: 'basic', ok: true, checks: [] as unknown[] }));
    fs.writeFileSync(p.report, JSON.stringify({ plans: [{ namespace: 'demo', clusterName: 'basic', enablement: { phase: 'issue' } }], secrets: listed, ok: true }));
    expect(() => synthesize(appAt(TlsEnablementPhase.SCALE_IN), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/does not show Secret \S+ there: its enablement was not checked \(the report holds no check for it\);/);
    listed.forEach((s) => { s.checks = [{ check: 'present', ok: true, expected: 'x', found: 'present' }]; });
    fs.writeFileSync(p.report, JSON.stringify({ plans: [{ namespace: 'demo', clusterName: 'basic', enablement: { phase: 'issue' } }], secrets: listed, ok: true }));
    expect(() => synthesize(appAt(TlsEnablementPhase.SCALE_IN), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/does not show Secret \S+ there: its enablement was not checked \(the report holds 1 other check for it\);/);
    await write(['basic-store-cluster-secret']);
    expect(() => synthesize(appAt(TlsEnablementPhase.SCALE_IN), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/does not show Secret basic-store-cluster-secret there: present: no Secret of that name in the input; finish the phase as enablement-runbook\.md says/);
    await write([]);
    synthesize(appAt(TlsEnablementPhase.SCALE_IN), { outdir: p.outdir, recordFile: p.record });
    // The report of issue is not one of scale-in.
    expect(() => synthesize(appAt(TlsEnablementPhase.ENABLE), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/is not a report of phase "scale-in"; run the check step of enablement-runbook\.md again/);
  });
});

describe('the scale-out, against the member list the runbook wrote', () => {
  const MEMBER = 'basic-coordinator-0';
  const HTTPS = 'https://basic-coordinator-0.basic-coordinator-peer.demo.svc:2380';
  function atEnable() {
    const p = project();
    for (const phase of [TlsEnablementPhase.ISSUE, TlsEnablementPhase.SCALE_IN, TlsEnablementPhase.ENABLE]) {
      synthesize(appAt(phase), { outdir: p.outdir, recordFile: p.record, ...UNVERIFIED });
    }
    return { ...p, members: path.join(path.dirname(p.outdir), 'cluster-tls-members.demo.basic.txt') };
  }
  const scaleOut = (p: ReturnType<typeof atEnable>) => synthesize(appAt(TlsEnablementPhase.SCALE_OUT), { outdir: p.outdir, recordFile: p.record, acknowledgeRecreation: [], acknowledgeUnverifiedPhase: [] });
  const report = async (p: ReturnType<typeof atEnable>) => fs.writeFileSync(p.report, JSON.stringify(await reportOf(p.outdir, () => true)));

  test('is refused without the list, with the member still on http, and allowed once it shows the https URL', async () => {
    const p = atEnable();
    await report(p);
    expect(() => scaleOut(p)).toThrow(new RegExp(`expected "enable" until the coordinator member ${MEMBER} is stored with peer URL ${HTTPS}: no member list at .*cluster-tls-members\\.demo\\.basic\\.txt; run the peer-URL step of enablement-runbook\\.md`));
    fs.writeFileSync(p.members, `8e9e05c52164694d, started, ${MEMBER}, http://basic-coordinator-0.basic-coordinator-peer.demo.svc:2380, https://127.0.0.1:2379, false\n`);
    expect(() => scaleOut(p)).toThrow(/shows peer URL http:\/\/basic-coordinator-0\.basic-coordinator-peer\.demo\.svc:2380; run the peer-URL step of enablement-runbook\.md again/);
    fs.writeFileSync(p.members, `8e9e05c52164694d, started, basic-coordinator-1, ${HTTPS}, https://127.0.0.1:2379, false\n`);
    expect(() => scaleOut(p)).toThrow(/shows no such member/);
    fs.rmSync(p.members);
    fs.mkdirSync(p.members);
    expect(() => scaleOut(p)).toThrow(/: a folder, not a regular file, reading .*cluster-tls-members\.demo\.basic\.txt; run the peer-URL step of enablement-runbook\.md/);
    fs.rmdirSync(p.members);
    fs.writeFileSync(p.members, `8e9e05c52164694d, started, ${MEMBER}, ${HTTPS}, https://127.0.0.1:2379, false\n`);
    scaleOut(p);
    expect(JSON.parse(fs.readFileSync(p.record, 'utf8')).enablements['demo/basic'].phase).toBe('scale-out');
  });
});

describe('cluster-tls verify knows the phase', () => {
  async function checksAt(phase: TlsEnablementPhase, edit?: (files: string) => void) {
    const p = project();
    synthesize(appAt(phase, 1), { outdir: p.outdir, recordFile: p.record, acknowledgeRecreation: ['enablement/demo/basic'] });
    edit?.(p.outdir);
    const plan: TlsPlan = JSON.parse(fs.readFileSync(outputFile(p.outdir, 'demo/basic/tls-plan.json'), 'utf8'));
    const secrets = parseSecrets(JSON.stringify(await (await TestPki.create(new Date())).secrets(plan)));
    const report = await verify(loadPlans(p.outdir), secrets, { namespace: 'demo', clusterName: 'basic' });
    return report.secrets.find((s) => s.name === 'basic-store-cluster-secret')!.checks.find((c) => c.check === 'enablement')!;
  }

  test('before the flip: Secrets in place and no allowed Common Name list yet', async () => {
    expect(await checksAt(TlsEnablementPhase.SCALE_IN)).toMatchObject({ ok: true, found: 'no allowed Common Name list' });
  });

  test('before the flip: a list the output configures already fails', async () => {
    const listed = await checksAt(TlsEnablementPhase.ISSUE, (dir) => {
      const file = path.join(dir, 'demo.k8s.yaml');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n {4}tlsCluster:\n {6}enabled: false\n/, '\n    tlsCluster:\n      enabled: false\n').replace(/( {2}store:\n)/, '$1    config:\n      security:\n        cert-allowed-cn:\n          - basic\n'));
    });
    expect(listed).toMatchObject({ ok: false });
    expect(listed.found).toMatch(/^allowed Common Name lists of store \(demo\.k8s\.yaml/);
  });

  test('after the flip: every component has its list, and a missing one fails', async () => {
    expect(await checksAt(TlsEnablementPhase.ENABLE)).toMatchObject({ ok: true, found: 'every component has its list' });
    const dropped = await checksAt(TlsEnablementPhase.ENABLE, (dir) => {
      const file = path.join(dir, 'demo.k8s.yaml');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n {4}config: \|\n {6}\[security\]\n {6}cert-allowed-cn = \[ "basic" \]\n/, '\n'));
    });
    expect(dropped).toMatchObject({ ok: false, found: 'no allowed Common Name list for coordinator' });
  });
});

describe('the record', () => {
  test('refuses an enablements entry no synth wrote', () => {
    const p = project();
    synthesize(appAt(TlsEnablementPhase.ISSUE), { outdir: p.outdir, recordFile: p.record });
    const record = JSON.parse(fs.readFileSync(p.record, 'utf8'));
    delete record.enablements['demo/basic'].coordinator;
    fs.writeFileSync(p.record, JSON.stringify(record));
    expect(() => synthesize(appAt(TlsEnablementPhase.ISSUE), { outdir: p.outdir, recordFile: p.record }))
      .toThrow(/cluster-tls\.lock\.json: the record of settings fixed at creation: received an enablements entry that is not one an earlier synth wrote; expected the file an earlier synth wrote: restore it from version control$/);
  });
});

describe('cluster-tls verify\'s rolled check, once TLS is on', () => {
  /** The report of phase `phase` for pods that mount their Secrets, or not. */
  async function rolled(phase: TlsEnablementPhase, mounting: (component: string) => boolean) {
    const p = project();
    synthesize(appAt(phase, 1), { outdir: p.outdir, recordFile: p.record, acknowledgeRecreation: ['enablement/demo/basic'] });
    return reportOf(p.outdir, mounting);
  }
  const check = (report: any, secret: string) => report.secrets.find((s: any) => s.name === secret).checks.find((c: any) => c.check === 'rolled');

  test('passes when every pod of the component mounts its Secret, and names a pod still in plain text', async () => {
    const half = await rolled(TlsEnablementPhase.ENABLE, (t) => t !== 'sqlserver');
    expect(check(half, 'basic-store-cluster-secret')).toMatchObject({ ok: true, found: 'basic-store-0 mounts it' });
    expect(check(half, 'basic-sqlserver-cluster-secret')).toMatchObject({ ok: false, found: 'basic-sqlserver-0 does not mount it: started before the flip, still in plain text; wait for the operator\'s roll' });
    expect(check(half, 'basic-cluster-client-secret')).toBeUndefined();
  });

  test('is not run before the flip, when no pod mounts anything yet', async () => {
    expect(check(await rolled(TlsEnablementPhase.SCALE_IN, () => false), 'basic-store-cluster-secret')).toBeUndefined();
  });

  test('the synth leaves enable only with a report that lists the pods', async () => {
    const p = project();
    for (const phase of [TlsEnablementPhase.ISSUE, TlsEnablementPhase.SCALE_IN, TlsEnablementPhase.ENABLE]) {
      synthesize(appAt(phase), { outdir: p.outdir, recordFile: p.record, ...UNVERIFIED });
    }
    fs.writeFileSync(path.join(path.dirname(p.outdir), 'cluster-tls-members.demo.basic.txt'), '1, started, basic-coordinator-0, https://basic-coordinator-0.basic-coordinator-peer.demo.svc:2380, https://127.0.0.1:2379, false\n');
    fs.writeFileSync(p.report, JSON.stringify(await reportOf(p.outdir)));
    expect(() => synthesize(appAt(TlsEnablementPhase.SCALE_OUT), { outdir: p.outdir, recordFile: p.record, acknowledgeUnverifiedPhase: [] }))
      .toThrow(/until cluster-tls verify shows every Secret of the cluster in it and every pod of it restarted with TLS: the report lists no pods, so it cannot show them \(check rolled\); list them as the check step of enablement-runbook\.md does/);
  });
});

describe('the prop', () => {
  test('refuses an enablement that is not an object', () => {
    const chart = new Chart(new App(), 'demo', { namespace: 'demo' });
    expect(() => new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', enablement: 'issue' as never }))
      .toThrow('demo/db: enablement: received "issue"; expected an object { phase, evictLeaderTimeout? }');
  });

  test('refuses a phase that is not one, an eviction timeout that is not a duration, and rotations before the last phase', () => {
    const chart = () => new Chart(new App(), 'demo', { namespace: 'demo' });
    expect(() => new TlsDatabaseCluster(chart(), 'db', { clusterName: 'basic', version: 'v4.0.5', enablement: { phase: 'flip' as TlsEnablementPhase } }))
      .toThrow('demo/db: enablement.phase: received "flip"; expected one of "issue", "scale-in", "enable", "scale-out"');
    expect(() => new TlsDatabaseCluster(chart(), 'db', { clusterName: 'basic', version: 'v4.0.5', enablement: { phase: TlsEnablementPhase.ISSUE, evictLeaderTimeout: '3 minutes' } }))
      .toThrow('demo/db: enablement.evictLeaderTimeout: received "3 minutes"; expected a positive Go duration such as "8760h" or "1h30m" (units h, m, s, ms)');
    expect(() => new TlsDatabaseCluster(chart(), 'db', { clusterName: 'basic', version: 'v4.0.5', enablement: { phase: TlsEnablementPhase.ISSUE, evictLeaderTimeout: '25h' } }))
      .toThrow('demo/db: enablement.evictLeaderTimeout: received "25h"; expected a duration shorter than the operator\'s own 1500m: each store waits it out during the roll, since the count it waits for cannot be read');
    expect(() => new TlsDatabaseCluster(chart(), 'db', { clusterName: 'basic', version: 'v4.0.5', coordinator: { replicas: 0 }, enablement: { phase: TlsEnablementPhase.SCALE_IN } }))
      .toThrow('demo/db: coordinator.replicas: received 0; expected a whole number from 1 to 2147483647 (an int32 of the operator)');
    const c = chart();
    const certificates = new ClusterCertificates(c, 'certs', { clusterName: 'basic', rotations: [{ id: '2026-11' }] });
    expect(() => new TlsDatabaseCluster(c, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates, enablement: { phase: TlsEnablementPhase.ENABLE } }))
      .toThrow('demo/db: enablement.phase: received "enable"; expected "scale-out" while the certificates declare rotations: finish turning TLS on before rotating the certificates');
  });

  test('refuses two clusters of one set of certificates at different phases', () => {
    const c = new Chart(new App(), 'demo', { namespace: 'demo' });
    const certificates = new ClusterCertificates(c, 'certs', { clusterName: 'basic' });
    const db = new TlsDatabaseCluster(c, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates, enablement: { phase: TlsEnablementPhase.ISSUE } });
    expect(() => certificates.declareEnablement(db, TlsEnablementPhase.ENABLE))
      .toThrow('demo/db: enablement.phase: received "enable"; expected "issue", the phase another cluster of these certificates declares');
  });
});
