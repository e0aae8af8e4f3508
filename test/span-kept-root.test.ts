/**
 * A span whose root one Kubernetes cluster's cert-manager keeps (`span.rootCluster`). The props:
 * the root's objects in that cluster's output alone, the script's mode, the refusal of a root
 * replacement. Then docs/how-to/root-in-cert-manager.md, run as written on two real API servers,
 * each with the real cert-manager (test/_control-plane.ts): the root issued by east's cert-manager,
 * each intermediate signed there through a CertificateRequest, the leaves issued in each cluster
 * from its own intermediate, west's intermediate renewed; every handshake between the Secrets of
 * each cluster and those of the other, dialed by the server cluster's domain, with OpenSSL
 * (node:tls) and Go's crypto/tls; and the private keys each cluster holds.
 */
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Chart, Testing } from 'cdk8s';
import { ClusterCertificates, KubernetesClusterSpec, RotationKind, RotationPhase, TlsDatabaseCluster, synthesizeAll } from '../lib';
import * as names from '../lib/model/names';
import { OutputFile } from '../lib/app/output-file';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { CONTROL_PLANE_TOOLS, ControlPlane, describeWithTools } from './_control-plane';
import { expectValidAgainstCrds } from './_crds';
import { ROOT, readmeBlocks } from './_readme';
import { refusal } from './_refusal';
import { bash, shellBlocks } from './_runbooks';
import { Ran, certificatesOf, crossTries, goRejections, guideWorkspace, nodeRejections, publicKeyOf, runBlock, stopGuide } from './_span-guide';

const GUIDE = 'docs/how-to/root-in-cert-manager.md';
const RUN_MARKER = '<!-- run: test/span-kept-root.test.ts -->';
const CLUSTERS: KubernetesClusterSpec[] = [{ name: 'east', clusterDomain: 'east.example.com' }, { name: 'west', clusterDomain: 'west.example.com' }];
const RENEW_SECTION = '6. Renew an intermediate';
/** Run by its own test, after the others, which compares the root before and after it. */
const ROOT_RENEW_SECTION = 'Renew the root, and what is not supported';

/** One Kubernetes cluster's app of the guide, the root kept in east, with extra props for the certificates. */
function span(current: string, props: Record<string, unknown> = {}, clusters = CLUSTERS, rootCluster: string | null = 'east', namespace = 'orders') {
  const app = Testing.app();
  const chart = new Chart(app, 'orders', { namespace });
  const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: 'orders', span: { clusters, current, rootCluster: rootCluster ?? undefined }, ...props });
  new TlsDatabaseCluster(chart, 'database', {
    clusterName: 'orders', version: 'v8.5.0', operatorVersion: 'v1.6.6', certificates,
    coordinator: { baseImage: 'r/coordinator', storage: '10Gi' }, store: { baseImage: 'r/store', storage: '10Gi' }, sqlserver: { baseImage: 'r/sqlserver' },
  });
  const files = new Map(app.node.findAll().filter((c): c is OutputFile => c instanceof OutputFile).map((f) => [path.basename(f.path), f.render()]));
  return { app, objects: Testing.synth(chart), files };
}

describe('span.rootCluster, as props', () => {
  test('the cluster that keeps the root declares it, self-signed, twice caDuration, its key never rotated, and a CA Issuer on it; the others declare none', () => {
    const east = span('east').objects;
    const root = east.filter((o) => o.metadata.labels?.['cdk8s-cluster-tls/root-ca'] === 'orders');
    expect(root.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Issuer/orders-selfsigned-ca-issuer', 'Certificate/orders-root-ca', 'Issuer/orders-root-ca-issuer']);
    expect(root[1].spec).toMatchObject({ isCA: true, commonName: 'orders', duration: '175200h', secretName: 'orders-root-ca-secret', privateKey: { rotationPolicy: 'Never' } });
    expect(root[2].spec).toEqual({ ca: { secretName: 'orders-root-ca-secret' } });
    // The leaves are still signed by the cluster's own intermediate.
    expect(east.filter((o) => o.kind === 'Issuer' && !o.metadata.labels['cdk8s-cluster-tls/root-ca']).map((o) => o.spec)).toEqual([{ ca: { secretName: 'orders-east-intermediate-ca-secret' } }]);
    expectValidAgainstCrds(east);
    const west = span('west').objects;
    expect(west.filter((o) => o.metadata.labels?.['cdk8s-cluster-tls/root-ca'] !== undefined || (o.kind === 'Certificate' && o.spec.isCA))).toEqual([]);
  });

  test('no output holds a root request or cfssl\'s signing configuration; west\'s script needs ROOT_KUBECTL, east\'s defaults it to KUBECTL', () => {
    const east = span('east').files;
    const west = span('west').files;
    for (const files of [east, west]) {
      expect([...files.keys()].filter((f) => /root-ca-csr|intermediate-ca-config/.test(f))).toEqual([]);
      expect(files.get('issue-intermediate.sh')).toContain('# Usage: issue-intermediate.sh [--renew]\n');
    }
    expect(east.get('issue-intermediate.sh')).toContain('ROOT_KUBECTL="${ROOT_KUBECTL:-$KUBECTL}"');
    expect(west.get('issue-intermediate.sh')).toContain('[ -n "${ROOT_KUBECTL:-}" ] || fail');
    expect(west.get('database-runbook.md')).toContain('ROOT_KUBECTL="kubectl --context=east" ../cluster-tls/orders/orders/cfssl/issue-intermediate.sh\n');
  });

  test.each([
    ['a root replacement', { rotations: [{ id: 'root-2' }] }, 'orders/certificates: rotations[0].kind: received "ca-replacement"; expected "leaf-renewal" with span.rootCluster: replacing a root that cert-manager keeps is not supported yet'],
    ['a finished root replacement before a leaf renewal', { rotations: [{ id: 'root-2', phase: RotationPhase.DROP_OLD }, { id: 'leaf-2', kind: RotationKind.LEAF_RENEWAL }] },
      'orders/certificates: rotations[0].kind: received "ca-replacement"; expected "leaf-renewal" with span.rootCluster'],
  ])('refuses %s, which the root kept by cert-manager cannot take', (_what, props, message) => {
    expect(refusal(() => span('west', props))).toContain(message);
  });

  test('a Kubernetes cluster added at the end changes nothing in the others\' objects or files but the plan\'s list of the span\'s clusters, and its script has east\'s Issuer sign', () => {
    const north = [...CLUSTERS, { name: 'north', clusterDomain: 'north.example.com' }];
    for (const { name } of CLUSTERS) {
      const [was, is] = [span(name), span(name, {}, north)];
      expect(is.objects).toEqual(was.objects);
      const plan = (files: Map<string, string>) => JSON.parse(files.get('tls-plan.json')!);
      expect(plan(is.files)).toEqual({ ...plan(was.files), span: { ...plan(was.files).span, clusters: north.map((c) => ({ ...c, namespace: 'orders' })) } });
      expect(new Map([...is.files].filter(([f]) => f !== 'tls-plan.json'))).toEqual(new Map([...was.files].filter(([f]) => f !== 'tls-plan.json')));
    }
    expect(span('north', {}, north).files.get('issue-intermediate.sh')).toContain('orders-north-intermediate-ca-$(openssl dgst');
  });

  test.each([
    ['its own cluster in each app', 'west', '"west"'],
    ['none in one app', null, 'none (the root kept offline)'],
  ])('synthesizeAll refuses apps of one span that name another root (%s), before writing any', (_what, westRoot, received) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-kept-root-all-'));
    const targets = [span('east'), span('west', {}, CLUSTERS, westRoot)].map(({ app }, i) => ({ app, options: { outdir: path.join(dir, CLUSTERS[i].name, 'dist') } }));
    expect(refusal(() => synthesizeAll(targets))).toBe(`synthesizeAll.targets[1] (${path.join(dir, 'west', 'dist')}): orders/certificates: span.rootCluster: received ${received}; `
      + `expected "east", as targets[0] (${path.join(dir, 'east', 'dist')}) declares it for cluster orders: one root signs every intermediate of a span; declare rootCluster once, for every app of the span`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('each Kubernetes cluster in a namespace of its own: east keeps the root in orders-east; west\'s script asks there, and writes its Secret in orders-west', () => {
    const sites = CLUSTERS.map((c) => ({ ...c, namespace: `orders-${c.name}` }));
    const east = span('east', {}, sites, 'east', 'orders-east');
    expect(east.objects.filter((o) => o.metadata.labels?.['cdk8s-cluster-tls/root-ca'] === 'orders').map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`))
      .toEqual(['Issuer/orders-east/orders-selfsigned-ca-issuer', 'Certificate/orders-east/orders-root-ca', 'Issuer/orders-east/orders-root-ca-issuer']);
    const script = span('west', {}, sites, 'east', 'orders-west').files.get('issue-intermediate.sh')!;
    expect([script.match(/^NAMESPACE=.*$/m)?.[0], script.match(/^ROOT_NAMESPACE=.*$/m)?.[0]]).toEqual(['NAMESPACE=\'orders-west\'', 'ROOT_NAMESPACE=\'orders-east\'']);
    expect(script).toContain('# The rights it needs in namespace orders-east of east: get Issuers and Certificates; list, get,\n'
      + '# create and delete CertificateRequests. In this cluster: get Issuers in namespace orders-east (the root\'s\n'
      + '# Issuer not there tells this cluster from east); in namespace orders-west, get and create Secrets (and patch\n# them, with --renew).\n');
    // The request, and every read of the root's objects, in the root's namespace; the Secret in this one's.
    expect(script).toContain('  namespace: $ROOT_NAMESPACE\n');
    const lines = (namespace: string) => script.split('\n').filter((l) => l.includes(`--namespace="$${namespace}"`));
    expect(lines('NAMESPACE').length).toBeGreaterThan(1);
    expect(lines('NAMESPACE').filter((l) => !l.includes('"${kubectl[@]}"'))).toEqual([]);
    expect(lines('ROOT_NAMESPACE').length).toBeGreaterThan(5);
    // KUBECTL asks in the root's namespace only whether the root's Issuer is there (it must not be).
    expect(lines('ROOT_NAMESPACE').filter((l) => !l.includes('"${root_kubectl[@]}"'))).toEqual([expect.stringContaining('"${kubectl[@]}" get issuer \'orders-root-ca-issuer\' --namespace="$ROOT_NAMESPACE" --ignore-not-found')]);
  });

  test('a leaf renewal passes', () => {
    expect(() => span('west', { rotations: [{ id: 'leaf-2', kind: RotationKind.LEAF_RENEWAL }] })).not.toThrow();
  });

  test('refuses a rootCluster that is not one of the span\'s clusters', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'orders', { namespace: 'orders' });
    expect(refusal(() => new ClusterCertificates(chart, 'certificates', { clusterName: 'orders', span: { clusters: CLUSTERS, current: 'west', rootCluster: 'north' } })))
      .toBe('orders/certificates: span.rootCluster: received "north"; expected the name of one of the span\'s Kubernetes clusters: "east", "west"');
  });
});

// Two control planes with cert-manager, the app's compile and the issuance on a loaded 2-core machine.
jest.setTimeout(600_000);

describeWithTools(`${GUIDE} on two real API servers with the real cert-manager`, [...CONTROL_PLANE_TOOLS, 'tls-peer', 'cmctl'], () => {
  const planes = new Map<string, ControlPlane>();
  let work: string;
  let app: string;
  let env: NodeJS.ProcessEnv;
  const ran: Ran[] = [];
  /** West's Secrets before the renewal. */
  let beforeRenewal: Map<string, Record<string, string>>;
  const blocks = readmeBlocks(fs.readFileSync(path.join(ROOT, GUIDE), 'utf8'), GUIDE);

  const site = (name: string) => {
    const plan: TlsPlan = JSON.parse(fs.readFileSync(path.join(app, name, 'cluster-tls', 'orders', 'orders', 'tls-plan.json'), 'utf8'));
    return { plan, secrets: planes.get(name)!.tlsSecrets('orders'), domain: CLUSTERS.find((c) => c.name === name)!.clusterDomain };
  };
  const root = () => new crypto.X509Certificate(planes.get('east')!.tlsSecrets('orders').get('orders-root-ca-secret')!['ca.crt']);

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-kept-root-'));
    for (const { name } of CLUSTERS) {
      const plane = await ControlPlane.start();
      planes.set(name, plane);
      await plane.startCertManager();
    }
    ({ app, env } = guideWorkspace(work, planes));
    const scratch = path.join(work, 'blocks');
    fs.mkdirSync(scratch);
    let cwd = app;
    for (const block of blocks.filter((b) => b.section !== ROOT_RENEW_SECTION)) {
      if (block.file !== undefined) {
        fs.writeFileSync(path.join(cwd, block.file), block.text);
        continue;
      }
      if (block.lang !== 'sh') {
        continue;
      }
      const marker = fs.readFileSync(path.join(ROOT, GUIDE), 'utf8').split('\n')[block.line - 2];
      expect(`${GUIDE}:${block.line} ${marker}`).toBe(`${GUIDE}:${block.line} ${RUN_MARKER}`);
      if (block.section === RENEW_SECTION) {
        beforeRenewal = planes.get('west')!.tlsSecrets('orders');
      }
      const done = await runBlock(block, cwd, env, scratch);
      ran.push(done);
      if (done.status !== 0) {
        throw new Error(`${GUIDE}:${block.line} (${block.section}) exited ${done.status}:\n${block.text}--- output:\n${done.output}`);
      }
      cwd = done.cwd;
    }
    // cmctl renew has cert-manager re-issue west's leaves from the renewed intermediate.
    for (let i = 0; ; i++) {
      const s = site('west');
      const intermediate = certificatesOf(s.secrets.get('orders-west-intermediate-ca-secret')!['tls.crt'])[0].fingerprint256;
      if (s.plan.secrets.every((p) => certificatesOf(s.secrets.get(p.name)?.['tls.crt'] ?? '')[1]?.fingerprint256 === intermediate)) {
        break;
      }
      if (i === 120) {
        throw new Error('cert-manager did not re-issue west\'s certificates from its renewed intermediate within 120 s');
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }, 1_200_000);

  afterAll(() => stopGuide(planes, work));

  test('every command block of the guide ran as written: the intermediates created, then the check across the clusters passing', () => {
    expect(ran.map((r) => r.block.section)).toEqual([
      '2. Synthesize the two outputs', '3. The root, and the first cluster\'s intermediate', '4. Every other cluster, signed in the first',
      '5. Check that the clusters trust each other', RENEW_SECTION,
    ]);
    expect(ran[1].output).toContain('created Secret orders/orders-east-intermediate-ca-secret: the intermediate CA of this Kubernetes cluster, signed by the root in Kubernetes cluster east');
    expect(ran[2].output).toContain('created Secret orders/orders-west-intermediate-ca-secret');
    expect(ran[3].output.match(/^\d+ secrets checked: .*$/gm)).toEqual(['10 secrets checked: 10 passed, 0 failed']);
    expect(ran[4].output).toContain('renewed Secret orders/orders-west-intermediate-ca-secret');
  });

  test('each intermediate is a CA signed by the root east\'s cert-manager issued; each leaf\'s tls.crt is the leaf and its intermediate, its ca.crt the root', () => {
    const r = root();
    expect(r.subject).toBe('CN=orders');
    expect(r.checkIssued(r)).toBe(true);
    for (const { name } of CLUSTERS) {
      const s = site(name);
      const intermediate = certificatesOf(s.secrets.get(`orders-${name}-intermediate-ca-secret`)!['tls.crt']);
      expect(intermediate).toHaveLength(1);
      expect([name, intermediate[0].ca, intermediate[0].checkIssued(r) && intermediate[0].verify(r.publicKey), intermediate[0].subject]).toEqual([name, true, true, `OU=${name}\nCN=orders`]);
      for (const secret of s.plan.secrets) {
        const pem = s.secrets.get(secret.name)!;
        expect([secret.name, certificatesOf(pem['tls.crt'])[1]?.fingerprint256, certificatesOf(pem['ca.crt']).map((c) => c.fingerprint256)])
          .toEqual([secret.name, intermediate[0].fingerprint256, [r.fingerprint256]]);
      }
    }
  });

  test('OpenSSL and Go\'s crypto/tls: every server Secret of each cluster accepts every Secret of the other, dialed by its own domain\'s names, and across west\'s renewal', async () => {
    const old = { ...site('west'), secrets: beforeRenewal as any };
    const tries = [...crossTries(site('east'), site('west')), ...crossTries(site('west'), site('east')), ...crossTries(old, site('west')), ...crossTries(site('west'), old)];
    expect(tries.length).toBeGreaterThanOrEqual(4 * 3 * 5 * 2);
    expect(await nodeRejections(tries)).toEqual([]);
    expect(goRejections(tries)).toEqual([]);
  });

  test('the renewal wrote a new intermediate with a new key over west\'s Secret, the root kept as its ca.crt', () => {
    const was = beforeRenewal.get('orders-west-intermediate-ca-secret')!;
    const is = site('west').secrets.get('orders-west-intermediate-ca-secret')!;
    expect(publicKeyOf(is['tls.key'])).not.toBe(publicKeyOf(was['tls.key']));
    expect(publicKeyOf(is['tls.key'])).toBe(publicKeyOf(is['tls.crt']));
    expect(is['ca.crt']).toBe(was['ca.crt']);
  });

  test('the root\'s key is in east\'s root Secret alone; west holds no key of the root or of east\'s intermediate; no request is left, and no key in the app\'s folders', () => {
    const keysIn = (name: string) => {
      const got = planes.get(name)!.kubectl(['get', 'secrets', '--all-namespaces', '-o', 'json']);
      expect(got.status).toBe(0);
      return JSON.parse(got.stdout).items.flatMap((s: any) => Object.values<string>(s.data ?? {})
        .map((v) => Buffer.from(v, 'base64').toString('utf8')).filter((v) => v.includes('PRIVATE KEY')).map((k) => ({ secret: s.metadata.name, key: publicKeyOf(k) })));
    };
    const rootKey = publicKeyOf(root().toString());
    expect(keysIn('east').filter((k: any) => k.key === rootKey).map((k: any) => k.secret)).toEqual(['orders-root-ca-secret']);
    const eastIntermediate = publicKeyOf(site('east').secrets.get('orders-east-intermediate-ca-secret')!['tls.key']);
    expect(keysIn('west').filter((k: any) => [rootKey, eastIntermediate].includes(k.key))).toEqual([]);
    // The root's own request (cert-manager's, for Certificate orders-root-ca) stays; the script's are gone.
    const requests = planes.get('east')!.kubectl(['get', 'certificaterequests', '-n', 'orders', '-o', 'name']);
    expect(requests.status).toBe(0);
    expect(requests.stdout).toContain('certificaterequest.cert-manager.io/orders-root-ca-');
    expect(requests.stdout.split('\n').filter((r) => r.includes('intermediate-ca'))).toEqual([]);
    const files = fs.readdirSync(app, { recursive: true, encoding: 'utf8' }).filter((f) => !f.startsWith('node_modules')).map((f) => path.join(app, f));
    expect(files.filter((f) => fs.statSync(f).isFile() && fs.readFileSync(f, 'utf8').includes('PRIVATE KEY'))).toEqual([]);
  });

  test('each cluster\'s runbook step of its intermediate runs as written and keeps the Secret; in west, without ROOT_KUBECTL or with it at west, the script stops naming what to do and writes nothing', async () => {
    for (const { name } of CLUSTERS) {
      const runbook = fs.readFileSync(path.join(app, name, 'cluster-tls', 'orders', 'orders', 'database-runbook.md'), 'utf8');
      // Found by its title: the namespace's step comes first.
      const step = runbook.split(/^(?=## \d+\. )/m).find((x) => /^## \d+\. Issue the intermediate CA /.test(x))!;
      expect(step.split('\n')[0]).toBe(`## 2. Issue the intermediate CA of Kubernetes cluster ${name}`);
      const output = await bash(`kubectl config use-context ${name} >/dev/null\n${shellBlocks(step)[0]}`, path.join(app, name, 'dist'), env);
      expect(output).toContain(`Secret orders/orders-${name}-intermediate-ca-secret exists, signed by the root in Kubernetes cluster east: kept`);
    }
    const versionOf = () => planes.get('west')!.kubectl(['get', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders', '-o', 'jsonpath={.metadata.resourceVersion}']).stdout;
    const version = versionOf();
    const script = `kubectl config use-context west >/dev/null\n../cluster-tls/orders/orders/cfssl/issue-intermediate.sh --renew`;
    await expect(bash(script, path.join(app, 'west', 'dist'), env)).rejects.toThrow('issue-intermediate.sh: set ROOT_KUBECTL to the kubectl command of Kubernetes cluster east, whose cert-manager keeps the root');
    await expect(bash(script, path.join(app, 'west', 'dist'), { ...env, ROOT_KUBECTL: 'kubectl --context=west' }))
      .rejects.toThrow('issue-intermediate.sh: kubectl (ROOT_KUBECTL) could not read Issuer orders/orders-root-ca-issuer in Kubernetes cluster east');
    expect(versionOf()).toBe(version);
  });

  test('the script stops, one line naming what to do, on a stray argument, a blank ROOT_KUBECTL, a bad TIMEOUT, kubectl at no API server, at the root\'s cluster or unable to tell (a kubectl that only warns still answers), a root Issuer that is not ready, and two requests that say they issued the root', async () => {
    const stops = async (name: string, context: string, args: string, extra: NodeJS.ProcessEnv, line: string) => {
      const script = `kubectl config use-context ${context} >/dev/null\n../cluster-tls/orders/orders/cfssl/issue-intermediate.sh ${args}`;
      const error = await bash(script, path.join(app, name, 'dist'), { ...env, ROOT_KUBECTL: 'kubectl --context=east', ...extra }).then(() => undefined, (e: Error) => e.message);
      expect(error?.split('--- output:\n')[1]).toBe(`issue-intermediate.sh: ${line}\n`);
    };
    // Help needs no ROOT_KUBECTL.
    expect(await bash('../cluster-tls/orders/orders/cfssl/issue-intermediate.sh --help', path.join(app, 'west', 'dist'), env)).toContain('Usage: issue-intermediate.sh [--renew]\n');
    await stops('west', 'west', 'east', {}, 'usage: issue-intermediate.sh [--renew] (cert-manager keeps the root in Kubernetes cluster east: ROOT_KUBECTL names it, not an argument)');
    await stops('west', 'west', '', { ROOT_KUBECTL: ' ' }, 'ROOT_KUBECTL is blank; set it to the kubectl command of the Kubernetes cluster that keeps the root');
    await stops('west', 'west', '', { TIMEOUT: '5m' }, 'TIMEOUT is 5m; set it to whole seconds, such as 300');
    // West's script with kubectl still at east would write west's intermediate key into east.
    await stops('west', 'east', '', {}, 'KUBECTL reaches the cluster that keeps the root (Issuer orders/orders-root-ca-issuer is there), not this one; point kubectl at the Kubernetes cluster this output is for');
    // A kubectl that warns on its standard error while it answers (as it does when an aggregated API is down) still answers: west's script keeps its Secret.
    const warning = path.join(app, 'warning-kubectl');
    fs.writeFileSync(warning, '#!/bin/sh\necho "Warning: one API group could not be listed" >&2\nexec kubectl "$@"\n', { mode: 0o755 });
    try {
      expect(await bash('kubectl config use-context west >/dev/null\n../cluster-tls/orders/orders/cfssl/issue-intermediate.sh', path.join(app, 'west', 'dist'),
        { ...env, ROOT_KUBECTL: `${warning} --context=east`, KUBECTL: warning })).toContain('Secret orders/orders-west-intermediate-ca-secret exists, signed by the root in Kubernetes cluster east: kept\n');
    } finally {
      fs.rmSync(warning);
    }
    // A KUBECTL that reaches no API server: one line, the last of kubectl's output, not a line per retry.
    await stops('west', 'west', '', { KUBECTL: 'kubectl --server=https://127.0.0.1:1' },
      'kubectl could not read namespace orders: The connection to the server 127.0.0.1:1 was refused - did you specify the right host or port?');
    // A KUBECTL that may not read Issuers at west (the real API server's RBAC, through impersonation) cannot say it is not at east.
    await stops('west', 'west', '', { KUBECTL: 'kubectl --as=west-deployer' }, 'kubectl (KUBECTL) could not read Issuers in namespace orders, so cannot tell whether it reaches east: '
      + 'Error from server (Forbidden): issuers.cert-manager.io "orders-root-ca-issuer" is forbidden: User "west-deployer" cannot get resource "issuers" in API group "cert-manager.io" in the namespace "orders"; '
      + 'give it the right to get them, or install cert-manager in this Kubernetes cluster first');
    // East's script at west, where an Issuer of the root's name is on a Secret that is not there: cert-manager leaves it not ready.
    const issuer = { apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'orders-root-ca-issuer', namespace: 'orders' }, spec: { ca: { secretName: 'no-such-secret' } } };
    expect(planes.get('west')!.kubectl(['apply', '-f', '-'], JSON.stringify(issuer)).status).toBe(0);
    try {
      await stops('east', 'west', '', { ROOT_KUBECTL: '' }, 'Issuer orders/orders-root-ca-issuer in Kubernetes cluster east is not ready; wait until cert-manager has issued the root there: '
        + 'kubectl wait --for=condition=Ready certificate/orders-root-ca -n orders');
    } finally {
      planes.get('west')!.kubectl(['delete', 'issuer', 'orders-root-ca-issuer', '-n', 'orders']);
    }
    // A second request in east that says it issued the root's current revision: which one holds the root is then unknown.
    const east = planes.get('east')!;
    const revision = east.kubectl(['get', 'certificate', 'orders-root-ca', '-n', 'orders', '-o', 'jsonpath={.status.revision}']).stdout;
    const key = spawnSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', '/dev/null', '-subj', '/CN=not-the-root'], { encoding: 'utf8' });
    const impostor = { apiVersion: 'cert-manager.io/v1', kind: 'CertificateRequest',
      metadata: { name: 'impostor', namespace: 'orders', annotations: { 'cert-manager.io/certificate-name': 'orders-root-ca', 'cert-manager.io/certificate-revision': revision } },
      spec: { request: Buffer.from(key.stdout).toString('base64'), issuerRef: { name: 'no-such-issuer', kind: 'Issuer', group: 'cert-manager.io' } } };
    expect(east.kubectl(['create', '-f', '-'], JSON.stringify(impostor)).status).toBe(0);
    try {
      await stops('west', 'west', '', {}, `several CertificateRequests in Kubernetes cluster east say they issued revision ${revision} of Certificate orders/orders-root-ca; `
        + 'delete those cert-manager did not make: kubectl get certificaterequests -n orders');
    } finally {
      east.kubectl(['delete', 'certificaterequest', 'impostor', '-n', 'orders']);
    }
  });

  test('while nothing signs in east (its cert-manager controllers stopped), west\'s request stops on TIMEOUT; denied there with cmctl, it stops naming the denial; neither leaves a request, nor touches west\'s Secret', async () => {
    const east = planes.get('east')!;
    // West's intermediate requests in east (names.intermediateRequestPrefix), not cert-manager's own for the leaves there.
    const requests = () => east.kubectl(['get', 'certificaterequests', '-n', 'orders', '-o', 'name']).stdout.split('\n')
      .map((r) => r.replace(/^certificaterequest\.cert-manager\.io\//, '')).filter((r) => r.startsWith(names.intermediateRequestPrefix('orders', 'west'))).join(' ');
    const renew = (extra: NodeJS.ProcessEnv) => bash('kubectl config use-context west >/dev/null\n../cluster-tls/orders/orders/cfssl/issue-intermediate.sh --renew',
      path.join(app, 'west', 'dist'), { ...env, ROOT_KUBECTL: 'kubectl --context=east', ...extra }).then(() => 'signed', (e: Error) => e.message.split('--- output:\n')[1]);
    const version = () => planes.get('west')!.kubectl(['get', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders', '-o', 'jsonpath={.metadata.resourceVersion}']).stdout;
    const before = version();
    let waiting: Promise<string> | undefined;
    await east.stopCertManagerController();
    try {
      expect(await renew({ TIMEOUT: '3' })).toMatch(
        /^issue-intermediate\.sh: cert-manager in Kubernetes cluster east has not signed CertificateRequest orders\/[a-z0-9.-]+ within 3s \(reason: none\); is cert-manager running there, and its approver\?\n$/);
      expect(requests()).toBe('');
        waiting = renew({ TIMEOUT: '120', POLL: '0.2' });
      let request = '';
      for (let tries = 0; request === '' && tries < 300; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        request = requests();
      }
      expect(request).toMatch(/^orders-west-intermediate-ca-[0-9a-f]{10}$/);
      await bash(`cmctl deny ${request} --context=east --namespace=orders --reason=NotForWest --message='west signs no intermediate here'`, app, env);
      expect(await waiting).toBe(`issue-intermediate.sh: cert-manager in Kubernetes cluster east did not sign CertificateRequest orders/${request} (denied): west signs no intermediate here\n`);
      expect(requests()).toBe('');
    } finally {
      // The script must be done before anything signs again, or its --renew would write west's Secret after this test.
      await waiting?.catch(() => undefined);
      east.startCertManagerController();
    }
    expect(version()).toBe(before);
  });

  test('west\'s --renew runs with the rights its script lists and no others: in east none on any Secret, so whoever runs it cannot read the root\'s key', async () => {
    const user = 'intermediate-signer';
    const rights = (rules: object[]) => JSON.stringify({ kind: 'List', apiVersion: 'v1', items: [
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: user, namespace: 'orders' }, rules },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: user, namespace: 'orders' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: user }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }] },
    ] });
    const [east, west] = [planes.get('east')!, planes.get('west')!];
    const renew = () => bash('kubectl config use-context west >/dev/null\n../cluster-tls/orders/orders/cfssl/issue-intermediate.sh --renew', path.join(app, 'west', 'dist'),
      { ...env, KUBECTL: `kubectl --as=${user}`, ROOT_KUBECTL: `kubectl --context=east --as=${user}` });
    // As the script's header lists them: west's first, and the script stops at east's Issuer until east's are there too.
    expect(west.kubectl(['apply', '-f', '-'], rights([
      { apiGroups: ['cert-manager.io'], resources: ['issuers'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'create', 'patch'] },
    ])).status).toBe(0);
    expect((await renew().then(() => '', (e: Error) => e.message)).split('--- output:\n')[1]).toBe('issue-intermediate.sh: kubectl (ROOT_KUBECTL) could not read Issuer orders/orders-root-ca-issuer in Kubernetes cluster east: '
      + `Error from server (Forbidden): issuers.cert-manager.io "orders-root-ca-issuer" is forbidden: User "${user}" cannot get resource "issuers" in API group "cert-manager.io" in the namespace "orders"; `
      + 'check that ROOT_KUBECTL reaches that cluster and may get Issuers there, and that its output is applied there\n');
    const eastRights = (requests: string[]) => expect(east.kubectl(['apply', '-f', '-'], rights([
      { apiGroups: ['cert-manager.io'], resources: ['issuers', 'certificates'], verbs: ['get'] },
      { apiGroups: ['cert-manager.io'], resources: ['certificaterequests'], verbs: requests },
    ])).status).toBe(0);
    const header = fs.readFileSync(path.join(app, 'west', 'cluster-tls', 'orders', 'orders', 'cfssl', 'issue-intermediate.sh'), 'utf8');
    expect(header).toContain('# The rights it needs in namespace orders of east: get Issuers and Certificates; list, get,\n'
      + '# create and delete CertificateRequests. In this cluster: get Issuers and Secrets, create Secrets\n# (and patch them, with --renew).\n');
    try {
      expect(east.kubectl(['auth', 'can-i', 'get', 'secret/orders-root-ca-secret', '-n', 'orders', `--as=${user}`]).stdout.trim()).toBe('no');
      // Without the right to delete, the signed request is left in east, and the script says so.
      eastRights(['list', 'get', 'create']);
      const left = await renew();
      expect(left).toContain('renewed Secret orders/orders-west-intermediate-ca-secret: a new intermediate CA, signed by the root in Kubernetes cluster east;');
      const request = /could not delete CertificateRequest orders\/(orders-west-intermediate-ca-[0-9a-f]{10}) in Kubernetes cluster east: (.*); delete it there\n/.exec(left);
      expect(request?.[2]).toBe(`Error from server (Forbidden): certificaterequests.cert-manager.io "${request?.[1]}" is forbidden: `
        + `User "${user}" cannot delete resource "certificaterequests" in API group "cert-manager.io" in the namespace "orders"`);
      expect(east.kubectl(['delete', 'certificaterequest', request![1], '-n', 'orders']).status).toBe(0);
      // With every right listed, nothing is left.
      eastRights(['list', 'get', 'create', 'delete']);
      const output = await renew();
      expect(output).toContain('renewed Secret orders/orders-west-intermediate-ca-secret: a new intermediate CA, signed by the root in Kubernetes cluster east;');
      expect(output).not.toContain('could not delete');
    } finally {
      for (const plane of [east, west]) {
        plane.kubectl(['delete', 'rolebinding,role', user, '-n', 'orders']);
      }
    }
  });

  test('each Kubernetes cluster in a namespace of its own: east\'s cert-manager keeps the root in orders-east, west\'s runbook step has it sign there and writes west\'s intermediate in orders-west, the two outputs verify across; with kubectl at east, west\'s step stops before writing anything', async () => {
    const sites = CLUSTERS.map((c) => ({ ...c, namespace: `orders-${c.name}` }));
    const dir = path.join(work, 'sites');
    synthesizeAll(sites.map((c) => ({ app: span(c.name, {}, sites, 'east', c.namespace).app, options: { outdir: path.join(dir, c.name, 'dist') } })));
    const [east, west] = [planes.get('east')!, planes.get('west')!];
    for (const { name, namespace } of sites) {
      expect(planes.get(name)!.kubectl(['create', 'namespace', namespace]).status).toBe(0);
    }
    /** A cluster's runbook step of its intermediate, as written, with kubectl at `context`. */
    const step = (name: string, context: string) => {
      const runbook = fs.readFileSync(path.join(dir, name, 'cluster-tls', `orders-${name}`, 'orders', 'database-runbook.md'), 'utf8');
      const block = shellBlocks(runbook.split(/^(?=## \d+\. )/m).find((x) => /^## \d+\. Issue the intermediate CA /.test(x))!)[0];
      return bash(`kubectl config use-context ${context} >/dev/null\n${block}`, path.join(dir, name, 'dist'), env);
    };
    expect(await step('east', 'east')).toContain('created Secret orders-east/orders-east-intermediate-ca-secret: the intermediate CA of this Kubernetes cluster, signed by the root in Kubernetes cluster east');
    // West's step with kubectl still at east, where a namespace orders-west exists too: only the root's Issuer, in orders-east, tells the clusters apart.
    expect(east.kubectl(['create', 'namespace', 'orders-west']).status).toBe(0);
    const wrong = await step('west', 'east').then(() => 'ran', (e: Error) => e.message.split('--- output:\n')[1]);
    expect(wrong).toBe('issue-intermediate.sh: KUBECTL reaches the cluster that keeps the root (Issuer orders-east/orders-root-ca-issuer is there), not this one; '
      + 'point kubectl at the Kubernetes cluster this output is for\n');
    expect(east.kubectl(['get', 'secrets', '-n', 'orders-west', '-o', 'name']).stdout).not.toContain('intermediate');
    expect(await step('west', 'west')).toContain('created Secret orders-west/orders-west-intermediate-ca-secret: the intermediate CA of this Kubernetes cluster, signed by the root in Kubernetes cluster east');
    // Signed by the root east's cert-manager keeps in orders-east; the script's request there is gone.
    const root = new crypto.X509Certificate(east.tlsSecrets('orders-east').get('orders-root-ca-secret')!['ca.crt']);
    const intermediate = west.tlsSecrets('orders-west').get('orders-west-intermediate-ca-secret')!;
    expect([certificatesOf(intermediate['ca.crt'])[0].fingerprint256, certificatesOf(intermediate['tls.crt'])[0].verify(root.publicKey)]).toEqual([root.fingerprint256, true]);
    expect(east.kubectl(['get', 'certificaterequests', '-n', 'orders-east', '-o', 'name']).stdout.split('\n').filter((r) => r.includes('intermediate-ca'))).toEqual([]);
    // The leaves of each cluster, from its intermediate, checked across the two namespaces.
    const inputs: string[] = [];
    for (const { name, namespace } of sites) {
      const plane = planes.get(name)!;
      const manifest = path.join(dir, name, 'dist', 'orders.k8s.yaml');
      expect(plane.kubectl(['apply', '-f', manifest, '-l', 'cdk8s-cluster-tls/certificates=orders']).status).toBe(0);
      const waited = plane.kubectl(['wait', '--for=condition=Ready', 'certificate', '-l', 'cdk8s-cluster-tls/certificates=orders', '-n', namespace, '--timeout=5m']);
      expect([name, waited.stderr]).toEqual([name, '']);
      const secrets = path.join(dir, `${name}-secrets.json`);
      fs.writeFileSync(secrets, plane.kubectl(['get', 'secrets', '-n', namespace, '-o', 'json']).stdout);
      inputs.push('--dist', path.join(dir, name, 'dist'), '--secrets', secrets);
    }
    const verified = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'cluster-tls.js'), 'verify', ...inputs], { encoding: 'utf8' });
    expect([verified.status, verified.stdout.trim().split('\n').pop()]).toEqual([0, '10 secrets checked: 10 passed, 0 failed']);
  });

  test('the intermediates are CAs with no path length of their own: cert-manager writes none, unlike cfssl\'s profile', () => {
    for (const { name } of CLUSTERS) {
      const text = spawnSync('openssl', ['x509', '-noout', '-ext', 'basicConstraints'], { input: site(name).secrets.get(`orders-${name}-intermediate-ca-secret`)!['tls.crt'], encoding: 'utf8' }).stdout;
      expect([name, text.replace(/\s+/g, ' ').trim()]).toEqual([name, 'X509v3 Basic Constraints: critical CA:TRUE']);
    }
  });

  test('a root renewed with its key (cmctl renew) is the same root: west\'s Secret is kept, --renew signs from it, and east (the old root in ca.crt) and west (the renewed one) accept each other; a ca.crt of another CA is refused, and left as it was', async () => {
    const east = planes.get('east')!;
    const before = east.tlsSecrets('orders').get('orders-root-ca-secret')!;
    // The guide's block, as written, from the app's folder.
    const [block] = blocks.filter((b) => b.section === ROOT_RENEW_SECTION && b.lang === 'sh');
    expect(fs.readFileSync(path.join(ROOT, GUIDE), 'utf8').split('\n')[block.line - 2]).toBe(RUN_MARKER);
    await bash(block.text, app, env);
    let renewed = before;
    for (let i = 0; i < 60 && renewed['tls.crt'] === before['tls.crt']; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      renewed = east.tlsSecrets('orders').get('orders-root-ca-secret')!;
    }
    expect(renewed['tls.crt']).not.toBe(before['tls.crt']);
    expect(publicKeyOf(renewed['tls.key'])).toBe(publicKeyOf(before['tls.key']));
    const dist = path.join(app, 'west', 'dist');
    const script = 'kubectl config use-context west >/dev/null\n../cluster-tls/orders/orders/cfssl/issue-intermediate.sh';
    expect(await bash(script, dist, { ...env, ROOT_KUBECTL: 'kubectl --context=east' }))
      .toContain('Secret orders/orders-west-intermediate-ca-secret exists, signed by the root in Kubernetes cluster east: kept');
    // West's intermediate signed again, from the renewed root, and its leaves re-issued from it.
    await bash(`${script} --renew\ncmctl renew --namespace orders -l cdk8s-cluster-tls/certificates=orders`, dist, { ...env, ROOT_KUBECTL: 'kubectl --context=east' });
    const intermediate = () => certificatesOf(site('west').secrets.get('orders-west-intermediate-ca-secret')!['tls.crt'])[0].fingerprint256;
    for (let i = 0; i < 120 && !site('west').plan.secrets.every((p) => certificatesOf(site('west').secrets.get(p.name)!['tls.crt'])[1]?.fingerprint256 === intermediate()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const [e, w] = [site('east'), site('west')];
    expect(w.plan.secrets.map((p) => [p.name, w.secrets.get(p.name)!['ca.crt']])).toEqual(w.plan.secrets.map((p) => [p.name, renewed['ca.crt']]));
    expect(e.plan.secrets.map((p) => [p.name, e.secrets.get(p.name)!['ca.crt']])).toEqual(e.plan.secrets.map((p) => [p.name, before['ca.crt']]));
    const tries = [...crossTries(e, w), ...crossTries(w, e)];
    expect(await nodeRejections(tries)).toEqual([]);
    expect(goRejections(tries)).toEqual([]);
    // West's intermediate Secret with east's intermediate as its ca.crt: another CA than the root.
    const west = planes.get('west')!;
    const other = Buffer.from(site('east').secrets.get('orders-east-intermediate-ca-secret')!['tls.crt']).toString('base64');
    expect(west.kubectl(['patch', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders', '--type', 'merge', '-p', JSON.stringify({ data: { 'ca.crt': other } })]).status).toBe(0);
    const version = west.kubectl(['get', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders', '-o', 'jsonpath={.metadata.resourceVersion}']).stdout;
    const error = await bash(`${script} --renew`, dist, { ...env, ROOT_KUBECTL: 'kubectl --context=east' }).then(() => '', (e: Error) => e.message);
    expect(error.split('--- output:\n')[1]).toBe('issue-intermediate.sh: Secret orders/orders-west-intermediate-ca-secret exists with another root in its ca.crt than the root in Kubernetes cluster east: '
      + 'the clusters would not trust each other; check that ROOT_KUBECTL reaches the cluster that keeps this span\'s root, and that every app of the span names it as rootCluster\n');
    expect(west.kubectl(['get', 'secret', 'orders-west-intermediate-ca-secret', '-n', 'orders', '-o', 'jsonpath={.metadata.resourceVersion}']).stdout).toBe(version);
  });
});
