/**
 * Every enablement runbook run as written, phase after phase: the reference deployment with cfssl
 * (namespace demo-cfssl) and with cert-manager (namespace demo, the in-test cert-manager issuing
 * what the runbook applies) synthesized at each phase, each synth reading the report and the member
 * list the runbook before it wrote, and every command block of `enablement-runbook.md` run with
 * bash from the output folder. cfssl is the real one, `npx cluster-tls` is this package's command,
 * kubectl and helm are the stand-ins (test/_fake-kubectl.ts), and the coordinator is a real etcd
 * member of the same release (built by scripts/build-control-plane.sh): created in plain text with
 * an http peer URL, restarted with the Secret's certificate when the flip is applied, as the
 * operator restarts it. The commands the runbook runs in the coordinator pod (`kubectl exec`) run
 * against it, the pod's folders and loopback mapped to the test's: the real etcdctl, copied in
 * through the runbook's own `cat`, stores the https peer URL in the real member.
 *
 * @live it starts a real etcd member and runs every enablement runbook of both methods as written,
 * 30 to 45 CPU-seconds, as the rotation runbooks' suite runs theirs
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { App } from 'cdk8s';
import { IssuingMethod, TlsEnablementPhase, synthesize } from '../lib';
import { ETCDCTL_IN_POD } from '../lib/documents/enablement-runbook';
import * as YAML from 'yaml';
import * as names from '../lib/model/names';
import { databaseRunbookPath, defaultMembersFile, enablementRunbookPath, tlsPlanPath, filesFolderOf } from '../lib/model/output-layout';
import { userTlsSecret } from './_pki';
import { addDeployment } from '../main';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { FakeCluster } from './_fake-cluster';
import { RotationSimulator } from './_rotation-simulator';
import { describeWithCfssl, requireCfssl } from './_cfssl-available';
import { describeWithTools, tool } from './_programs';
import { FakeKubectl, clockTime, createFakeHelm, createFakeKubectl, tlsSecretsOf } from './_fake-kubectl';
import { bash, buildCommand, failures, projectFolder, runRunbook, runbookEnv, shellBlocks, verifyReport } from './_runbooks';

const CLUSTER = 'basic';
const MEMBER = 'basic-coordinator-0';
/** The reference deployment's namespace of each method. */
const NAMESPACES: Partial<Record<IssuingMethod, string>> = { [IssuingMethod.CFSSL]: 'demo-cfssl', [IssuingMethod.CERT_MANAGER]: 'demo' };
const httpPeer = (ns: string) => `http://${MEMBER}.basic-coordinator-peer.${ns}.svc:2380`;
const httpsPeer = (ns: string) => `https://${MEMBER}.basic-coordinator-peer.${ns}.svc:2380`;
/** The components of the reference deployment, each one pod, and the drainer. */
const PODS = ['coordinator', 'columnar', 'store', 'pump', 'sqlserver', 'changefeed'] as const;
/** The drainer's StatefulSet: release `binlog` of the reference deployment. */
const DRAINER = names.drainerName(CLUSTER, 'binlog');

jest.setTimeout(300_000);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The coordinator pod: a real etcd member named as the pod, its data kept across restarts, and
 * the pod's root folder (`/tmp`, `/var/lib/coordinator-tls`) under the test's folder.
 */
class CoordinatorPod {
  public readonly root: string;
  private process?: ChildProcess;
  private constructor(private readonly dir: string, private readonly ns: string, public readonly clientPort: number, private readonly peerPort: number) {
    this.root = path.join(dir, 'pod');
    fs.mkdirSync(path.join(this.root, 'tmp'), { recursive: true });
  }

  public static async create(dir: string, ns: string): Promise<CoordinatorPod> {
    return new CoordinatorPod(dir, ns, await freePort(), await freePort());
  }

  /** Starts the member in plain text, or with the certificate set mounted where the operator mounts it. */
  public async start(tls?: { 'tls.crt': string; 'tls.key': string; 'ca.crt': string }): Promise<void> {
    const scheme = tls ? 'https' : 'http';
    const args = [
      '--name', MEMBER, '--data-dir', path.join(this.dir, 'data'), '--log-level', 'error',
      '--listen-client-urls', `${scheme}://127.0.0.1:${this.clientPort}`, '--advertise-client-urls', `${scheme}://127.0.0.1:${this.clientPort}`,
      '--listen-peer-urls', `${scheme}://127.0.0.1:${this.peerPort}`,
    ];
    if (tls) {
      const folder = path.join(this.root, 'var/lib/coordinator-tls');
      fs.rmSync(path.join(this.root, 'tmp'), { recursive: true, force: true });
      fs.mkdirSync(path.join(this.root, 'tmp'));
      fs.mkdirSync(folder, { recursive: true });
      for (const key of ['tls.crt', 'tls.key', 'ca.crt'] as const) {
        fs.writeFileSync(path.join(folder, key), tls[key], { mode: 0o600 });
      }
      const [cert, key, ca] = ['tls.crt', 'tls.key', 'ca.crt'].map((k) => path.join(folder, k));
      args.push('--cert-file', cert, '--key-file', key, '--trusted-ca-file', ca, '--client-cert-auth',
        '--peer-cert-file', cert, '--peer-key-file', key, '--peer-trusted-ca-file', ca, '--peer-client-cert-auth');
    } else {
      // Created with its http peer URL; restarted later on the same data, it is not announced again.
      args.push('--initial-advertise-peer-urls', httpPeer(this.ns), '--initial-cluster', `${MEMBER}=${httpPeer(this.ns)}`, '--initial-cluster-state', 'new');
    }
    this.process = spawn(tool('etcd'), args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    this.process.stderr!.on('data', (d) => { stderr += d; });
    for (let i = 0; ; i++) {
      const up = await new Promise<boolean>((resolve) => net.connect(this.clientPort, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).on('error', () => resolve(false)));
      if (up) {
        return;
      }
      if (i > 200 || this.process.exitCode !== null) {
        throw new Error(`etcd did not start: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  public async stop(): Promise<void> {
    const child = this.process;
    if (child && child.exitCode === null) {
      await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
    }
    this.process = undefined;
  }

  /** The members as the real etcdctl lists them, with the certificate set when the member speaks TLS. */
  public members(tls: boolean): string {
    const folder = path.join(this.root, 'var/lib/coordinator-tls');
    const auth = tls ? ['--cacert', `${folder}/ca.crt`, '--cert', `${folder}/tls.crt`, '--key', `${folder}/tls.key`] : [];
    return execFileSync(tool('etcdctl'), ['--endpoints', `${tls ? 'https' : 'http'}://127.0.0.1:${this.clientPort}`, ...auth, 'member', 'list'], { encoding: 'utf8' });
  }

  /**
   * The program that runs `kubectl exec`'s command as this pod would: the pod's folders and its
   * loopback port mapped to the test's; `coordctl … member` lists the members through the real
   * etcdctl with the same URL and certificate files.
   */
  public execHook(dir: string): string {
    const hook = path.join(dir, 'pod-exec');
    fs.writeFileSync(hook, `#!${process.execPath}
'use strict';
const { spawnSync } = require('child_process');
const [ns, pod, ...command] = process.argv.slice(2);
if (ns !== ${JSON.stringify(this.ns)} || pod !== ${JSON.stringify(MEMBER)}) { process.stderr.write('pod-exec: only ' + ${JSON.stringify(MEMBER)} + ' is played\\n'); process.exit(2); }
const inPod = ${JSON.stringify({ '/var/lib/coordinator-tls/': `${this.root}/var/lib/coordinator-tls/`, '/tmp/': `${this.root}/tmp/`, '127.0.0.1:2379': `127.0.0.1:${this.clientPort}` })};
const pattern = new RegExp(Object.keys(inPod).map((k) => k.replace(/[.]/g, '[.]')).join('|'), 'g');
const map = (a) => a.replace(pattern, (m) => inPod[m]);
let [program, ...args] = command.map(map);
if (program === 'coordctl') {
  const flags = {};
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const m = /^--(cacert|cert|key)=(.*)$/.exec(args[i]);
    if (m) flags[m[1]] = m[2]; else if (args[i] === '-u') flags.u = args[++i]; else rest.push(args[i]);
  }
  if (rest.join(' ') !== 'member' || !flags.u) { process.stderr.write('pod-exec: coordctl takes -u <url> member\\n'); process.exit(2); }
  program = ${JSON.stringify(tool('etcdctl'))};
  args = ['--endpoints', flags.u, ...['cacert', 'cert', 'key'].filter((k) => flags[k]).flatMap((k) => ['--' + k, flags[k]]), 'member', 'list'];
}
const run = spawnSync(program, args, { stdio: 'inherit' });
process.exit(run.status === null ? 1 : run.status);
`, { mode: 0o755 });
    return hook;
  }
}

/** The pods of the deployment in the stand-in's state, started at the clock's next tick, TLS ones mounting their Secrets. */
function startPods(kubectl: FakeKubectl, ns: string, tls: boolean): void {
  kubectl.update((s) => {
    s.clock = (s.clock ?? 0) + 1;
    const pod = (name: string, component: string, workload: string, secret: string) => ({
      apiVersion: 'v1', kind: 'Pod', workload,
      metadata: { name, namespace: ns, labels: { 'app.kubernetes.io/instance': CLUSTER, 'app.kubernetes.io/component': component } },
      spec: { containers: [{ name: 'main' }], volumes: tls ? [{ name: 'tls', secret: { secretName: secret } }] : [] },
      status: {
        phase: 'Running', startTime: clockTime(s.clock!), conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ name: 'main', ready: true, state: { running: { startedAt: clockTime(s.clock!) } } }],
      },
    });
    s.pods = [
      ...PODS.map((t) => pod(names.podName(CLUSTER, t, 0), t, `StatefulSet/${names.serviceName(CLUSTER, t)}`, names.serverSecretName(CLUSTER, t))),
      pod(`${DRAINER}-0`, 'drainer', `StatefulSet/${DRAINER}`, names.serverSecretName(CLUSTER, 'drainer')),
      // The migration cluster of the same name: its pods share the instance label and never mount a Secret of the database cluster.
      ...(['mig-master', 'mig-worker'] as const).map((t) => ({ ...pod(names.podName(CLUSTER, t, 0), t, `StatefulSet/${names.serviceName(CLUSTER, t)}`, ''), spec: { containers: [{ name: 'main' }], volumes: [] } })),
    ];
  });
}

function synth(outdir: string, method: IssuingMethod, phase: TlsEnablementPhase, unverified: string[] = []): void {
  const app = new App();
  addDeployment(app, NAMESPACES[method]!, method, [], { phase });
  synthesize(app, { outdir, acknowledgeRecreation: [], acknowledgeUnverifiedPhase: unverified });
}

/** cert-manager's controllers for the cert-manager method, issuing what the runbook applies; none for cfssl, whose script writes the Secrets. */
async function certManagerOf(kubectl: FakeKubectl, method: IssuingMethod, outdir: string): Promise<FakeCluster | undefined> {
  if (method !== IssuingMethod.CERT_MANAGER) {
    return undefined;
  }
  const ns = NAMESPACES[method]!;
  const plan = JSON.parse(fs.readFileSync(path.join(filesFolderOf(outdir), tlsPlanPath(ns, CLUSTER)), 'utf8'));
  const manifests = YAML.parseAllDocuments(fs.readFileSync(path.join(outdir, `${ns}.k8s.yaml`), 'utf8')).map((d) => d.toJS());
  const cluster = new FakeCluster(kubectl, new RotationSimulator(plan, manifests), {
    namespace: ns, clusterName: CLUSTER, issuer: await CertManagerIssuer.issueAll([]), clients: new Map(), issueDelayMs: 50,
  });
  cluster.startControllers();
  return cluster;
}

beforeAll(() => {
  // `npx cluster-tls` runs the built command: build it from the sources under test.
  buildCommand();
}, 120_000);

describeWithCfssl('enablement runbooks')('enablement runbooks', () => {
  describeWithTools('run as written against a real etcd coordinator', ['etcd', 'etcdctl'], () => {
    test.each([IssuingMethod.CFSSL, IssuingMethod.CERT_MANAGER])('%s: issue, scale-in, enable, scale-out: every block passes, and the member ends stored with its https peer URL', async (method) => {
      requireCfssl();
      const ns = NAMESPACES[method]!;
      const { dir, outdir, home } = projectFolder('enablement-project-');
      const kubectl = createFakeKubectl(path.join(dir, 'tools'));
      createFakeHelm(kubectl);
      const coordinator = await CoordinatorPod.create(dir, ns);
      const env = runbookEnv(home, {
        PATH: `${kubectl.dir}:${process.env.PATH}`, FAKE_KUBECTL_EXEC: coordinator.execHook(dir), ETCDCTL: tool('etcdctl'), POLL: '0.05', TIMEOUT: '60',
      });
      const site = { outdir, env, namespace: ns, clusterName: CLUSTER, manifest: `${ns}.k8s.yaml` };
      let certManager: FakeCluster | undefined;
      try {
        // The cluster as it ran before: plain text, the drainer installed from its chart.
        await coordinator.start();
        startPods(kubectl, ns, false);
        synth(outdir, method, TlsEnablementPhase.ISSUE);
        // The Secrets the user created for it before (the changefeed's sink's), as the plan lists them.
        for (const secret of JSON.parse(fs.readFileSync(path.join(filesFolderOf(outdir), tlsPlanPath(ns, CLUSTER)), 'utf8')).userSecrets ?? []) {
          kubectl.writeSecret(ns, secret.name, { ...await userTlsSecret() });
        }
        certManager = await certManagerOf(kubectl, method, outdir);
        execFileSync('helm', ['repo', 'add', 'binlog-charts', 'https://charts.example.com/stable'], { cwd: outdir, env });
        execFileSync('helm', ['install', 'binlog', 'binlog-charts/drainer', `--namespace=${ns}`, '--version=1.1.5', '-f', `../cluster-tls/${ns}/${CLUSTER}/drainer-binlog-values.yaml`], { cwd: outdir, env });
        expect(coordinator.members(false)).toContain(httpPeer(ns));

        const plain = { afterApply: async () => certManager?.idle(), describe: () => coordinator.members(false) };
        for (const phase of Object.values(TlsEnablementPhase)) {
          synth(outdir, method, phase);
          await runRunbook(site, enablementRunbookPath(ns, CLUSTER), phase !== TlsEnablementPhase.ENABLE ? plain : {
            // The operator restarts the coordinator with TLS at once, then every other pod.
            afterApply: async () => {
              await coordinator.stop();
              await coordinator.start(tlsSecretsOf(kubectl, ns).get(names.serverSecretName(CLUSTER, 'coordinator')));
              startPods(kubectl, ns, true);
            },
            describe: () => '',
          });
          expect(failures(verifyReport(site))).toEqual([]);
        }
        expect(coordinator.members(true)).toContain(`, ${MEMBER}, ${httpsPeer(ns)}, https://127.0.0.1:${coordinator.clientPort}`);
        expect(fs.readFileSync(defaultMembersFile(outdir, ns, CLUSTER), 'utf8')).toContain(httpsPeer(ns));
        const releases = JSON.parse(fs.readFileSync(path.join(kubectl.dir, 'helm-releases.json'), 'utf8'));
        expect(releases[`${ns}/binlog`].values[0]).toMatch(/tlsCluster:\n {2}enabled: true\n/);
      } finally {
        await certManager?.stop();
        await coordinator.stop();
      }
      expect(certManager?.errors ?? []).toEqual([]);
    });

    test('the peer-URL block fails against the real member when its check cannot hold, and when it dials plain text', async () => {
      const ns = NAMESPACES[IssuingMethod.CFSSL]!;
      const { dir, outdir, home } = projectFolder('enablement-fails-');
      const kubectl = createFakeKubectl(path.join(dir, 'tools'));
      const coordinator = await CoordinatorPod.create(dir, ns);
      const env = runbookEnv(home, { PATH: `${kubectl.dir}:${process.env.PATH}`, FAKE_KUBECTL_EXEC: coordinator.execHook(dir), ETCDCTL: tool('etcdctl') });
      try {
        await coordinator.start();
        startPods(kubectl, ns, false);
        for (const phase of [TlsEnablementPhase.ISSUE, TlsEnablementPhase.SCALE_IN, TlsEnablementPhase.ENABLE]) {
          synth(outdir, IssuingMethod.CFSSL, phase, [`${ns}/${CLUSTER}`]);
        }
        const blocks = shellBlocks(fs.readFileSync(path.join(filesFolderOf(outdir), enablementRunbookPath(ns, CLUSTER)), 'utf8'));
        // The database runbook's issuing block, as written: the Secrets the flip needs. Run twice, as
        // a user repeating a step does: the second copy goes over the first, keys kept, not inside it.
        const issuing = shellBlocks(fs.readFileSync(path.join(filesFolderOf(outdir), databaseRunbookPath(ns, CLUSTER)), 'utf8')).find((b) => b.includes('issue-certificates.sh'))!;
        await bash(issuing, outdir, env);
        const copy = path.join(home, `pki-${ns}-${CLUSTER}`);
        const caKey = fs.readFileSync(path.join(copy, 'ca-key.pem'), 'utf8');
        await bash(issuing, outdir, env);
        expect(fs.existsSync(path.join(copy, 'cfssl'))).toBe(false);
        expect(fs.readFileSync(path.join(copy, 'ca-key.pem'), 'utf8')).toBe(caKey);
        await coordinator.stop();
        await coordinator.start(tlsSecretsOf(kubectl, ns).get(names.serverSecretName(CLUSTER, 'coordinator')));
        const copyIn = blocks.find((b) => b.includes(`cat > ${ETCDCTL_IN_POD}`))!;
        const update = blocks.find((b) => b.includes('member update'))!;
        await bash(copyIn, outdir, env);
        // Its last two commands alone, before any update: the member still shows http, and grep fails.
        const check = update.split('\n').filter((l) => l.startsWith('#') || l.includes('member list >') || l.startsWith('grep')).join('\n');
        await expect(bash(check, outdir, env)).rejects.toThrow(/block exited 1/);
        await expect(bash(update.split('https://127.0.0.1').join('http://127.0.0.1'), outdir, env)).rejects.toThrow(/block exited/);
        expect(coordinator.members(true)).toContain(httpPeer(ns));
        await bash(update, outdir, env);
        expect(coordinator.members(true)).toContain(httpsPeer(ns));
      } finally {
        await coordinator.stop();
      }
    });
  });
});
