/**
 * End to end: the synthesized issuing script, run with the real cfssl and cfssljson and a
 * recording stand-in for kubectl; every certificate it issues is checked with node:crypto.
 *
 * Skipped, with the reason printed, only where cfssl is missing outside CI. Under CI (CI=true)
 * a missing cfssl fails the test: `.ci/run` installs it (Debian package golang-cfssl).
 */
import { SpawnSyncReturns, spawnSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import { ClusterKind, ComponentToken } from '../lib/model/catalog';
import { filesFolderOf } from '../lib/model/output-layout';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { IssuingMethod } from '../lib/plan/certificate-options';
import * as names from '../lib/model/names';
import { synthesize } from '../lib/synth/synthesize';
import { describeWithCfssl, missingCfssl, requireCfssl } from './_cfssl-available';
import { describeWithTools, tool } from './_programs';
import { FakeKubectl, createFakeKubectl } from './_fake-kubectl';
import { docBlocks } from './_readme';

const describeCfssl = describeWithCfssl('the cfssl end-to-end test');

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const HOUR = 3_600_000;
/** cfssl backdates notBefore by a few minutes; the validity is counted from there. */
const SLACK = 10 * 60_000;
const SUBJECT = { organization: 'acme', organizationalUnit: 'databases', country: 'DE', state: 'Berlin', locality: 'Berlin' };
const COMPONENTS: ComponentToken[] = ['coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar', 'importer', 'lightning', 'mig-master', 'mig-worker'];
const EXTRA = { extraDnsNames: ['db.example.com'], extraIpAddresses: ['10.0.0.5'] };

/** Writes IPv4 as is and IPv6 as eight groups without leading zeros, as node prints them. */
function canonicalIp(ip: string): string {
  if (!ip.includes(':')) {
    return ip;
  }
  const [head, tail] = ip.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const zeros = tail === undefined ? [] : new Array(8 - groups(head).length - groups(tail).length).fill('0');
  return [...groups(head), ...zeros, ...groups(tail)].map((g) => parseInt(g, 16).toString(16)).join(':');
}

/** The subject alternative names of a certificate, as `DNS:<name>` and `IP:<address>`. */
function sans(cert: X509Certificate): string[] {
  return (cert.subjectAltName ?? '').split(', ').filter((s) => s !== '')
    .map((s) => (s.startsWith('IP Address:') ? `IP:${canonicalIp(s.slice('IP Address:'.length))}` : s));
}

function validityHours(cert: X509Certificate): number {
  return (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / HOUR;
}

/** Every file of a folder with its content and modification time. */
function snapshot(dir: string): Record<string, { content: string; mtimeMs: number; mode: number }> {
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => {
    const stat = fs.statSync(path.join(dir, f));
    return [f, { content: fs.readFileSync(path.join(dir, f), 'latin1'), mtimeMs: stat.mtimeMs, mode: stat.mode & 0o777 }];
  }));
}

describeCfssl('issue-certificates.sh with the real cfssl', () => {
  let root: string;
  let folder: string;
  let kubectl: FakeKubectl;
  let certs: ClusterCertificates;
  let first: SpawnSyncReturns<string>;
  let refused: SpawnSyncReturns<string>;
  let refusedLeft: string[];

  const run = () => spawnSync(path.join(folder, 'issue-certificates.sh'), [], {
    cwd: root, // not the script's folder: it must find its own
    encoding: 'utf8',
    env: { ...process.env, KUBECTL: kubectl.command },
  });
  const cert = (bare: string) => new X509Certificate(fs.readFileSync(path.join(folder, `${bare}.pem`)));
  const keyOf = (bare: string) => createPrivateKey(fs.readFileSync(path.join(folder, `${bare}-key.pem`)));

  beforeAll(() => {
    requireCfssl();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-cfssl-e2e-'));
    const outdir = path.join(root, 'dist');
    const app = new App({ outdir });
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    certs = new ClusterCertificates(chart, 'certs', {
      clusterName: 'basic', method: IssuingMethod.CFSSL, subject: SUBJECT, components: COMPONENTS,
      extraNames: { sqlserver: EXTRA },
    });
    certs.addComponent('drainer', { releaseName: 'binlog' });
    synthesize(app, { outdir });
    kubectl = createFakeKubectl(path.join(root, 'kubectl'));
    // Inside the synth output the script refuses to run, and makes nothing there.
    const synthesized = path.join(filesFolderOf(outdir), 'demo', 'basic', 'cfssl');
    refused = spawnSync(path.join(synthesized, 'issue-certificates.sh'), [], { cwd: root, encoding: 'utf8', env: { ...process.env, KUBECTL: kubectl.command } });
    refusedLeft = fs.readdirSync(synthesized).sort();
    // As the runbook says: a copy of the folder, out of the synth output.
    folder = path.join(root, 'pki');
    fs.cpSync(synthesized, folder, { recursive: true });
    first = run();
  }, 300_000);

  test('inside the synth output, the script refuses to run and makes no key there', () => {
    const real = fs.realpathSync(path.join(root, 'cluster-tls'));
    expect({ status: refused.status, stderr: refused.stderr }).toEqual({
      status: 1,
      stderr: `issue-certificates.sh: ${real}/demo/basic/cfssl is inside the synth output ${real}, which the next synth replaces whole, keys included; `
        + `copy this folder out and run the copy, for example: mkdir -p ~/pki-demo-basic && cp -r '${real}/demo/basic/cfssl'/. ~/pki-demo-basic/ && ~/pki-demo-basic/issue-certificates.sh\n`,
    });
    expect(refusedLeft.filter((f) => !f.endsWith('.json') && f !== 'issue-certificates.sh' && f !== '.gitignore')).toEqual([]);
  });

  test('the copy command the refusal prints runs as written, twice, from the project folder: the second copy goes over the first', () => {
    // Beside the test's project folder, whose entries another test lists.
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cfssl-copy-home-'));
    const copyKubectl = createFakeKubectl(path.join(home, '.kubectl'));
    const command = refused.stderr.slice(refused.stderr.indexOf('for example: ') + 'for example: '.length).trimEnd();
    const env = { ...process.env, HOME: home, KUBECTL: copyKubectl.command };
    const once = spawnSync('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', command], { cwd: root, encoding: 'utf8', env });
    expect({ status: once.status, error: once.status === 0 ? '' : once.stderr }).toEqual({ status: 0, error: '' });
    const caKey = fs.readFileSync(path.join(home, 'pki-demo-basic', 'ca-key.pem'), 'utf8');
    const twice = spawnSync('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', command], { cwd: root, encoding: 'utf8', env });
    expect({ status: twice.status, error: twice.status === 0 ? '' : twice.stderr }).toEqual({ status: 0, error: '' });
    expect(fs.existsSync(path.join(home, 'pki-demo-basic', 'cfssl'))).toBe(false);
    expect(fs.readFileSync(path.join(home, 'pki-demo-basic', 'ca-key.pem'), 'utf8')).toBe(caKey);
    expect(copyKubectl.secrets().map((s) => s.name)).toContain(names.clientSecretName('basic', ClusterKind.DATABASE));
  });

  test('the commands of docs/how-to/issuing-methods.md run as written from the project folder, with kubectl on the search path and with another kubectl command', () => {
    const block = docBlocks().find((b) => b.section === 'cfssl' && b.lang === 'sh')!;
    expect(block.text).toMatch(/^mkdir -p ~\/pki-demo-cfssl-basic && cp -r cluster-tls\/demo-cfssl\/basic\/cfssl\/\. /);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cfssl-readme-home-'));
    const readmeKubectl = createFakeKubectl(path.join(home, '.kubectl'));
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: `${readmeKubectl.dir}:${process.env.PATH}` };
    delete env.KUBECTL;
    const ran = spawnSync('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', block.text], { cwd: path.join(__dirname, '..'), encoding: 'utf8', env });
    expect({ status: ran.status, error: ran.status === 0 ? '' : ran.stderr }).toEqual({ status: 0, error: '' });
    // The second line's kubectl, with its context, was the one called by the second run.
    expect(readmeKubectl.calls().some((c) => c.includes('--context=staging'))).toBe(true);
    expect(readmeKubectl.secrets().map((s) => s.namespace)).toContain('demo-cfssl');
  });

  test('cfssl and cfssljson are installed', () => {
    expect(missingCfssl).toEqual([]);
  });

  test('the first run succeeds and leaves its files only in its own folder', () => {
    expect({ status: first.status, stderr: first.status === 0 ? '' : first.stderr }).toEqual({ status: 0, stderr: '' });
    expect(fs.readdirSync(root).sort()).toEqual(['cluster-tls', 'cluster-tls.lock.json', 'dist', 'kubectl', 'pki']);
    expect(fs.readdirSync(folder).filter((f) => f.startsWith('.issuing'))).toEqual([]);
  });

  test('the CA: self-signed, a CA, 87600h, RSA 2048 matching its key, the subject of the props', () => {
    const ca = cert('ca');
    expect(ca.ca).toBe(true);
    expect(ca.checkIssued(ca)).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(Math.abs(validityHours(ca) - 87600) * HOUR).toBeLessThanOrEqual(SLACK);
    expect(ca.publicKey.asymmetricKeyType).toBe('rsa');
    expect(ca.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(ca.checkPrivateKey(keyOf('ca'))).toBe(true);
    expect(ca.subject.split('\n').sort()).toEqual(['C=DE', 'CN=basic', 'L=Berlin', 'O=acme', 'OU=databases', 'ST=Berlin']);
  });

  test.each([...COMPONENTS, 'drainer' as const])('%s: chains to the CA, covers the table, server and client auth, 8760h, RSA 2048', (token) => {
    const ca = cert('ca');
    const server = cert(`${token}-server`);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.subject).toBe('CN=basic'); // the Common Name alone: the CA's names are not repeated

    const table = names.hostNames(token, { clusterName: 'basic', namespace: 'demo', releaseName: token === 'drainer' ? 'binlog' : undefined });
    const extra = token === 'sqlserver' ? [...EXTRA.extraDnsNames.map((n) => `DNS:${n}`), ...EXTRA.extraIpAddresses.map((ip) => `IP:${ip}`)] : [];
    expect(sans(server).sort()).toEqual([...table.map((n) => `DNS:${n}`), 'IP:127.0.0.1', `IP:${canonicalIp('::1')}`, ...extra].sort());

    expect([...(server.keyUsage ?? [])].sort()).toEqual([SERVER_AUTH, CLIENT_AUTH]);
    expect(Math.abs(validityHours(server) - 8760) * HOUR).toBeLessThanOrEqual(SLACK);
    expect(Date.parse(server.validFrom)).toBeLessThanOrEqual(Date.now());
    expect(server.publicKey.asymmetricKeyType).toBe('rsa');
    expect(server.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(server.checkPrivateKey(keyOf(`${token}-server`))).toBe(true);
  });

  test('the table itself, spelled out for one component: store', () => {
    expect(sans(cert('store-server')).sort()).toEqual([
      'DNS:basic-store', 'DNS:basic-store.demo', 'DNS:basic-store.demo.svc',
      'DNS:basic-store-peer', 'DNS:basic-store-peer.demo', 'DNS:basic-store-peer.demo.svc',
      'DNS:*.basic-store-peer', 'DNS:*.basic-store-peer.demo', 'DNS:*.basic-store-peer.demo.svc',
      'IP:127.0.0.1', 'IP:0:0:0:0:0:0:0:1',
    ].sort());
  });

  test('the client certificate: chains to the CA, client auth only, no names, 8760h, RSA 2048', () => {
    const ca = cert('ca');
    const client = cert('client');
    expect(client.checkIssued(ca)).toBe(true);
    expect(client.verify(ca.publicKey)).toBe(true);
    expect(client.subject.split('\n')).toContain('CN=basic');
    expect([...(client.keyUsage ?? [])]).toEqual([CLIENT_AUTH]);
    expect(sans(client)).toEqual([]);
    expect(Math.abs(validityHours(client) - 8760) * HOUR).toBeLessThanOrEqual(SLACK);
    expect(client.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(client.checkPrivateKey(keyOf('client'))).toBe(true);
  });

  test('private keys, and everything else the script writes, are readable by their owner only', () => {
    const keys = fs.readdirSync(folder).filter((f) => f.endsWith('-key.pem'));
    expect(keys).toHaveLength(COMPONENTS.length + 3); // the servers, the drainer, the client and the CA
    const written = fs.readdirSync(folder).filter((f) => f.endsWith('.pem') || f.endsWith('.csr'));
    expect(written).toHaveLength(3 * keys.length);
    for (const file of written) {
      expect({ file, mode: (fs.statSync(path.join(folder, file)).mode & 0o777).toString(8) }).toEqual({ file, mode: '600' });
    }
  });

  test('one Secret per server component and one per client kind, named, namespaced and keyed as the spec says', () => {
    const servers = [...COMPONENTS, 'drainer' as const].map((t) => [names.serverSecretName('basic', t), `${t}-server`]);
    const clients = [ClusterKind.DATABASE, ClusterKind.MIGRATION].map((k) => [names.clientSecretName('basic', k), 'client']);
    const secrets = kubectl.secrets();
    expect(secrets.map((s) => s.name).sort()).toEqual([...servers, ...clients].map(([name]) => name).sort());
    for (const [name, bare] of [...servers, ...clients]) {
      const secret = secrets.find((s) => s.name === name)!;
      expect(secret.namespace).toBe('demo');
      const decoded = Object.fromEntries(Object.entries(secret.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
      expect(decoded).toEqual({
        'tls.crt': fs.readFileSync(path.join(folder, `${bare}.pem`), 'utf8'),
        'tls.key': fs.readFileSync(path.join(folder, `${bare}-key.pem`), 'utf8'),
        'ca.crt': fs.readFileSync(path.join(folder, 'ca.pem'), 'utf8'),
      });
    }
    expect(certs.serverSecretName('store')).toBe('basic-store-cluster-secret');
  });

  test('kubectl is called as in section A: get, then create with the three --from-file keys', () => {
    const calls = kubectl.calls();
    expect(calls).toContainEqual(['get', 'secret', 'basic-store-cluster-secret', '--namespace=demo']);
    expect(calls).toContainEqual(['create', 'secret', 'generic', 'basic-store-cluster-secret', '--namespace=demo',
      '--from-file=tls.crt=store-server.pem', '--from-file=tls.key=store-server-key.pem', '--from-file=ca.crt=ca.pem']);
    expect(calls).toContainEqual(['create', 'secret', 'generic', 'basic-mig-client-secret', '--namespace=demo',
      '--from-file=tls.crt=client.pem', '--from-file=tls.key=client-key.pem', '--from-file=ca.crt=ca.pem']);
    expect(calls.filter((c) => c[0] === 'create')).toHaveLength(COMPONENTS.length + 3);
  });

  test('the stand-in lists the Secrets as `kubectl get secrets -o json` does', () => {
    const list = kubectl.secretList('demo');
    expect(list.kind).toBe('List');
    expect(list.items).toHaveLength(COMPONENTS.length + 3);
    const store = list.items.find((i) => i.metadata.name === 'basic-store-cluster-secret')!;
    expect(store).toMatchObject({ kind: 'Secret', metadata: { name: 'basic-store-cluster-secret', namespace: 'demo' } });
    expect(Object.keys(store.data).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
    expect(kubectl.secretList('elsewhere').items).toEqual([]);
  });

  test('a second run regenerates nothing and replaces no Secret', () => {
    const before = snapshot(folder);
    const secretsBefore = kubectl.secrets();
    const callsBefore = kubectl.calls().length;
    const second = run();
    expect({ status: second.status, stderr: second.stderr }).toEqual({ status: 0, stderr: '' });
    expect(snapshot(folder)).toEqual(before);
    expect(kubectl.secrets()).toEqual(secretsBefore);
    const calls = kubectl.calls().slice(callsBefore);
    expect(calls.map((c) => c[0])).toEqual(new Array(COMPONENTS.length + 3).fill('get'));
    expect(second.stdout).toContain('kept ca.pem and ca-key.pem: they exist (only a declared rotation makes new ones)');
    expect(second.stdout).toContain('kept Secret demo/basic-store-cluster-secret: it exists (replacing it is the separate renewal procedure)');
  }, 120_000);

  test('a certificate without its key stops the run; nothing is issued in its place', () => {
    const key = path.join(folder, 'store-server-key.pem');
    const saved = fs.readFileSync(key);
    fs.rmSync(key);
    try {
      const result = run();
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('found only one of store-server.pem and store-server-key.pem');
      expect(fs.existsSync(key)).toBe(false);
    } finally {
      fs.writeFileSync(key, saved, { mode: 0o600 });
    }
  }, 120_000);

  test('certificates without their CA stop the run before a new CA is made', () => {
    const before = snapshot(folder);
    for (const f of ['ca.pem', 'ca-key.pem']) {
      fs.renameSync(path.join(folder, f), path.join(root, f));
    }
    try {
      const result = run();
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('found coordinator-server.pem but not the CA that signed it; restore ca.pem and ca-key.pem');
      expect(fs.existsSync(path.join(folder, 'ca.pem'))).toBe(false);
    } finally {
      for (const f of ['ca.pem', 'ca-key.pem']) {
        fs.renameSync(path.join(root, f), path.join(folder, f));
      }
    }
    expect(snapshot(folder)).toEqual(before);
  }, 120_000);

  test('a fresh copy of the folder does not make a second CA while the cluster holds Secrets of the first', () => {
    const copy = path.join(root, 'fresh');
    fs.mkdirSync(copy);
    for (const f of fs.readdirSync(folder).filter((f) => f.endsWith('.json') || f.endsWith('.sh'))) {
      fs.copyFileSync(path.join(folder, f), path.join(copy, f));
    }
    const result = spawnSync(path.join(copy, 'issue-certificates.sh'), [], { encoding: 'utf8', env: { ...process.env, KUBECTL: kubectl.command } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Secret demo/basic-coordinator-cluster-secret exists but the CA that signed it is not in this folder; run the script from the folder that holds ca.pem and ca-key.pem');
    expect(fs.readdirSync(copy).filter((f) => f.endsWith('.pem'))).toEqual([]);
  }, 120_000);

  test('a kubectl error other than NotFound stops the run instead of reading as a missing Secret', () => {
    const broken = path.join(root, 'broken-kubectl');
    fs.writeFileSync(broken, '#!/bin/sh\necho "error: You must be logged in to the server (Unauthorized)" >&2\nexit 1\n', { mode: 0o755 });
    const before = kubectl.calls().length;
    const result = spawnSync(path.join(folder, 'issue-certificates.sh'), [], { encoding: 'utf8', env: { ...process.env, KUBECTL: broken } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('kubectl could not tell whether Secret demo/basic-coordinator-cluster-secret exists: error: You must be logged in to the server (Unauthorized)');
    expect(kubectl.calls().length).toBe(before);
  }, 120_000);

  // The real kubectl: skipped, with its reason, until scripts/build-control-plane.sh has built it (CI fails instead).
  describeWithTools('with the real kubectl', ['kubectl'], () => {
    test('a kubectl that cannot reach its server stops the run with one line: the last of kubectl\'s output, which names the error, not its retries', () => {
      // The real kubectl, at a port nothing listens on: it prints a line per discovery retry, then the error.
      const unreachable = `${tool('kubectl')} --server=https://127.0.0.1:1 --token=none`;
      const result = spawnSync(path.join(folder, 'issue-certificates.sh'), [], {
        encoding: 'utf8', env: { ...process.env, KUBECTL: unreachable, KUBECONFIG: path.join(root, 'no-kubeconfig') },
      });
      expect([result.status, result.stderr]).toEqual([1, 'issue-certificates.sh: kubectl could not tell whether Secret demo/basic-coordinator-cluster-secret exists: '
        + 'The connection to the server 127.0.0.1:1 was refused - did you specify the right host or port?\n']);
    }, 120_000);
  });
});
