import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, JsonPatch } from 'cdk8s';
import { ClusterTlsError, DrainerRelease, TlsDatabaseCluster, synthesize } from '../lib';
import { secretClaims } from '../lib/app/app-rules';
import { outputFile } from './_output';
import { filesFolderOf } from '../lib/model/output-layout';

function outdir(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-guards-')), 'dist');
}

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), fs.readFileSync(path.join(e.parentPath, e.name), 'utf8')]));
}

/** The reference shape: one database cluster; `edit` may change the synthesized object. */
function app(dir: string, edit?: (db: TlsDatabaseCluster, chart: Chart) => void): App {
  const a = new App({ outdir: dir });
  const chart = new Chart(a, 'demo', { namespace: 'demo' });
  const db = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5' });
  edit?.(db, chart);
  return a;
}

const disableTls = (db: TlsDatabaseCluster) => db.resource.addJsonPatch(JsonPatch.replace('/spec/tlsCluster/enabled', false));

const recordOf = (dir: string) => path.join(path.dirname(dir), 'cluster-tls.lock.json');

describe('settings fixed at creation, compared with the record beside the output folder', () => {
  test('a first synth, with no record, is not an error and writes the record', () => {
    const dir = outdir();
    expect(() => synthesize(app(dir, disableTls))).not.toThrow();
    expect(JSON.parse(fs.readFileSync(recordOf(dir), 'utf8')).clusters).toEqual({ 'DatabaseCluster/demo/basic': { tlsClusterEnabled: false } });
  });

  test('flipping tlsCluster.enabled against the record fails and leaves the output and the record untouched', () => {
    const dir = outdir();
    synthesize(app(dir));
    const before = snapshot(dir);
    const record = fs.readFileSync(recordOf(dir), 'utf8');
    expect(() => synthesize(app(dir, disableTls), { acknowledgeRecreation: [] })).toThrow(
      `demo/db/Resource: DatabaseCluster "basic" tlsCluster.enabled: received false; expected true as recorded in ${recordOf(dir)}: `
      + 'the setting is fixed at creation and changing it makes the cluster fail to upgrade; '
      + 'to re-create the cluster deliberately, set CLUSTER_TLS_RECREATE=DatabaseCluster/demo/basic');
    expect(snapshot(dir)).toEqual(before);
    expect(fs.readFileSync(recordOf(dir), 'utf8')).toBe(record);
  });

  test('the guard holds when the output folder is gone, as after the cdk8s CLI deleted it', () => {
    const dir = outdir();
    synthesize(app(dir));
    fs.rmSync(dir, { recursive: true });
    expect(() => synthesize(app(dir, disableTls), { acknowledgeRecreation: [] })).toThrow(/tlsCluster\.enabled: received false; expected true as recorded in /);
    expect(fs.existsSync(dir)).toBe(false);
  });

  test('turning TLS on for a cluster created without it is refused too', () => {
    const dir = outdir();
    synthesize(app(dir, disableTls));
    expect(() => synthesize(app(dir), { acknowledgeRecreation: [] })).toThrow(/tlsCluster\.enabled: received true; expected false/);
  });

  test('a deliberate re-creation can be acknowledged, by option or environment, and is then recorded', () => {
    const dir = outdir();
    synthesize(app(dir));
    expect(() => synthesize(app(dir, disableTls), { acknowledgeRecreation: ['DatabaseCluster/demo/basic'] })).not.toThrow();
    expect(JSON.parse(fs.readFileSync(recordOf(dir), 'utf8')).clusters['DatabaseCluster/demo/basic']).toEqual({ tlsClusterEnabled: false });
    process.env.CLUSTER_TLS_RECREATE = 'other, DatabaseCluster/demo/basic';
    try {
      expect(() => synthesize(app(dir))).not.toThrow();
    } finally {
      delete process.env.CLUSTER_TLS_RECREATE;
    }
  });

  test('a record given elsewhere is the one compared and written', () => {
    const dir = outdir();
    const recordFile = path.join(path.dirname(dir), 'records', 'prod.json');
    fs.mkdirSync(path.dirname(recordFile));
    synthesize(app(dir), { recordFile });
    expect(fs.existsSync(recordOf(dir))).toBe(false);
    expect(() => synthesize(app(dir, disableTls), { recordFile, acknowledgeRecreation: [] })).toThrow(`expected true as recorded in ${recordFile}:`);
  });

  test('a record that is not one is reported, not overwritten', () => {
    const dir = outdir();
    synthesize(app(dir));
    fs.writeFileSync(recordOf(dir), '{"clusters": [');
    expect(() => synthesize(app(dir))).toThrow(`${recordOf(dir)}: the record of settings fixed at creation: received a file that is not a version 1 record; `
      + 'expected the file an earlier synth wrote: restore it from version control');
    expect(fs.readFileSync(recordOf(dir), 'utf8')).toBe('{"clusters": [');
  });
});

describe('a drainer\'s name, fixed at creation', () => {
  const withDrainer = (dir: string, props: { releaseName: string; drainerName?: string }) => {
    const a = new App({ outdir: dir });
    const chart = new Chart(a, 'demo', { namespace: 'demo' });
    const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5' });
    new DrainerRelease(chart, 'drainer', { cluster, chart: { version: '1.1.0' }, ...props });
    return a;
  };

  test('renaming it with drainerName is refused', () => {
    const dir = outdir();
    synthesize(withDrainer(dir, { releaseName: 'binlog' }));
    expect(() => synthesize(withDrainer(dir, { releaseName: 'binlog', drainerName: 'renamed' }), { acknowledgeRecreation: [] })).toThrow(
      `demo/drainer: drainerName: received "renamed" from drainerName; expected "basic-binlog-drainer" as recorded in ${recordOf(dir)}: `
      + 'renaming a running drainer is unsupported; to re-create the drainer deliberately, set CLUSTER_TLS_RECREATE=drainer/demo/drainer');
  });

  test('renaming it through the release name it derives from is refused alike, and the values file stays', () => {
    const dir = outdir();
    synthesize(withDrainer(dir, { releaseName: 'binlog' }));
    expect(() => synthesize(withDrainer(dir, { releaseName: 'other' }), { acknowledgeRecreation: [] })).toThrow(
      'demo/drainer: drainerName: received "basic-other-drainer" from releaseName "other" (was "binlog"); expected "basic-binlog-drainer" as recorded in ');
    expect(fs.existsSync(outputFile(dir, 'demo/basic/drainer-binlog-values.yaml'))).toBe(true);
    expect(() => synthesize(withDrainer(dir, { releaseName: 'other' }), { acknowledgeRecreation: ['drainer/demo/drainer'] })).not.toThrow();
  });

  test('a new release name that keeps the drainer\'s name is not a rename', () => {
    const dir = outdir();
    synthesize(withDrainer(dir, { releaseName: 'binlog', drainerName: 'basic-drainer' }));
    expect(() => synthesize(withDrainer(dir, { releaseName: 'other', drainerName: 'basic-drainer' }), { acknowledgeRecreation: [] })).not.toThrow();
  });
});

describe('keys in the output folder', () => {
  test('a synth that would delete keys the cfssl script left in the output folder is refused, and they stay', () => {
    const dir = outdir();
    synthesize(app(dir));
    // The cfssl folder sits in the files folder beside the output folder: a script run there leaves its keys there.
    const files = filesFolderOf(dir);
    fs.mkdirSync(path.join(files, 'demo', 'basic', 'cfssl'), { recursive: true });
    fs.writeFileSync(path.join(files, 'demo', 'basic', 'cfssl', 'ca-key.pem'), 'KEY');
    fs.writeFileSync(path.join(files, 'demo', 'basic', 'cfssl', 'ca.pem'), 'CERT');
    expect(() => synthesize(app(dir), { takeOver: true })).toThrow(`${files}: received keys or certificates that synth did not write (demo/basic/cfssl/ca-key.pem, demo/basic/cfssl/ca.pem); `
      + 'expected an output folder of synthesized files only: move them out before synthesizing, or the swap would delete them');
    expect(fs.readFileSync(path.join(files, 'demo', 'basic', 'cfssl', 'ca-key.pem'), 'utf8')).toBe('KEY');
    // In the output folder too.
    fs.rmSync(path.join(files, 'demo', 'basic', 'cfssl'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'ca-key.pem'), 'KEY');
    expect(() => synthesize(app(dir), { takeOver: true })).toThrow(`${dir}: received keys or certificates that synth did not write (ca-key.pem); `);
    expect(fs.readFileSync(path.join(dir, 'ca-key.pem'), 'utf8')).toBe('KEY');
  });
});

describe('one Common Name', () => {
  test('a second allowed Common Name on the coordinator, through an escape hatch, is refused', () => {
    const dir = outdir();
    const a = app(dir, (db) => db.resource.addJsonPatch(JsonPatch.add('/spec/coordinator/config/security/cert-allowed-cn/-', 'intruder')));
    expect(() => synthesize(a)).toThrow(ClusterTlsError);
    expect(() => synthesize(a)).toThrow('demo/db/Resource: spec.coordinator.config.security.cert-allowed-cn: received ["basic","intruder"]; expected exactly ["basic"], the certificates\' Common Name (only one value is allowed)');
    expect(fs.existsSync(dir)).toBe(false);
  });

  test('columnar\'s lists are checked where the operator reads them; the proxy\'s may be left to the operator', () => {
    const withColumnar = (edit: (db: TlsDatabaseCluster) => void) => {
      const a = new App({ outdir: outdir() });
      const db = new TlsDatabaseCluster(new Chart(a, 'demo', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5', columnar: {} });
      edit(db);
      return a;
    };
    expect(() => synthesize(withColumnar((db) => db.resource.addJsonPatch(JsonPatch.replace('/spec/columnar/config/config/security/cert_allowed_cn', ['other'])))))
      .toThrow('demo/db/Resource: spec.columnar.config.config.security.cert_allowed_cn: received ["other"]; expected a list that holds "basic", the certificates\' Common Name');
    expect(() => synthesize(withColumnar((db) => db.resource.addJsonPatch(JsonPatch.replace('/spec/columnar/config/proxy/security/cert-allowed-cn', ['other'])))))
      .toThrow('demo/db/Resource: spec.columnar.config.proxy.security.cert-allowed-cn: received ["other"]; expected a list that holds "basic"');
    expect(() => synthesize(withColumnar((db) => db.resource.addJsonPatch(JsonPatch.remove('/spec/columnar/config/proxy'))))).not.toThrow();
  });

  test('a list without the certificates\' Common Name is refused', () => {
    const a = app(outdir(), (db) => db.resource.addJsonPatch(JsonPatch.replace('/spec/store/config/security/cert-allowed-cn', ['other'])));
    expect(() => synthesize(a)).toThrow('demo/db/Resource: spec.store.config.security.cert-allowed-cn: received ["other"]; expected a list that holds "basic", the certificates\' Common Name');
  });
});

describe('duplicates', () => {
  test('two constructs claiming one Secret', () => {
    const facts = (at: string, namespace: string) => ({
      node: { path: at } as any, namespace, clusterName: 'basic', commonName: 'basic', secretNames: () => ['basic-store-cluster-secret'],
      _joinedNameClaims: () => [], _issuers: () => ({}), _plannedSecrets: () => [], _trustedObjects: () => [], _clusterResourceNamespaces: () => [],
    });
    expect(secretClaims([facts('demo/a', 'demo'), facts('other/a', 'other')])).toBeUndefined();
    expect(secretClaims([facts('demo/a', 'demo'), facts('other/a', 'other'), facts('demo/b', 'demo')])).toBe('demo/b: Secret "basic-store-cluster-secret" in namespace "demo": '
      + 'received a second claim (demo/a claims it too); expected each Secret issued by one construct: pass the same ClusterCertificates to every cluster of that name');
  });

  test('two database clusters of the same name in one namespace', () => {
    const a = new App({ outdir: outdir() });
    new TlsDatabaseCluster(new Chart(a, 'one', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5' });
    new TlsDatabaseCluster(new Chart(a, 'two', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5' });
    expect(() => synthesize(a)).toThrow('two/db/Resource: DatabaseCluster "basic" in namespace "demo": received it twice (one/db/Resource declares it too); expected each object once: share one construct instead of declaring it twice');
  });

  test('two drainer releases of one name in a namespace, for two clusters', () => {
    const a = new App({ outdir: outdir() });
    const chart = new Chart(a, 'demo', { namespace: 'demo' });
    const one = new TlsDatabaseCluster(chart, 'one', { clusterName: 'one', version: 'v4.0.5' });
    const two = new TlsDatabaseCluster(chart, 'two', { clusterName: 'two', version: 'v4.0.5' });
    new DrainerRelease(chart, 'd1', { cluster: one, releaseName: 'binlog', chart: { version: '1.1.0' } });
    new DrainerRelease(chart, 'd2', { cluster: two, releaseName: 'binlog', chart: { version: '1.1.0' } });
    expect(() => synthesize(a)).toThrow(new ClusterTlsError('demo/d2: releaseName: received "binlog"; expected a release name no other drainer of namespace "demo" uses '
      + '(demo/d1 installs a release of that name, and helm install refuses a second one)'));
  });

  test('two drainers of one name in a namespace, for two clusters', () => {
    const a = new App({ outdir: outdir() });
    const chart = new Chart(a, 'demo', { namespace: 'demo' });
    const one = new TlsDatabaseCluster(chart, 'one', { clusterName: 'one', version: 'v4.0.5' });
    const two = new TlsDatabaseCluster(chart, 'two', { clusterName: 'two', version: 'v4.0.5' });
    new DrainerRelease(chart, 'd1', { cluster: one, releaseName: 'a', drainerName: 'shared', chart: { version: '1.1.0' } });
    new DrainerRelease(chart, 'd2', { cluster: two, releaseName: 'b', drainerName: 'shared', chart: { version: '1.1.0' } });
    expect(() => synthesize(a)).toThrow(new ClusterTlsError('demo/d2: drainerName: received "shared"; expected a drainer name no other drainer of namespace "demo" uses (demo/d1 names its drainer so)'));
  });
});

describe('a record edited by hand, in every shape its entries can take', () => {
  const withDrainer = (dir: string) => {
    const a = app(dir);
    const chart = a.node.findChild('demo') as Chart;
    new DrainerRelease(chart, 'drainer', { cluster: chart.node.findChild('db') as TlsDatabaseCluster, chart: { version: '1.1.0' }, releaseName: 'binlog' });
    return a;
  };

  /** Every place of a JSON value, as the keys that lead to it. */
  const places = (v: unknown, at: string[] = []): string[][] =>
    [at, ...(v !== null && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => places(x, [...at, k])) : [])];
  const put = (root: any, at: string[], value: unknown): any => {
    if (at.length === 0) {
      return value;
    }
    const copy = Array.isArray(root) ? [...root] : { ...root };
    if (value === DELETE && at.length === 1) {
      delete copy[at[0]];
    } else {
      copy[at[0]] = put(root[at[0]], at.slice(1), value);
    }
    return copy;
  };
  const DELETE = Symbol('delete');
  const shapes: unknown[] = [null, 0, -1.5, '', 'x', true, false, [], [null], {}, { tlsClusterEnabled: 1 }, DELETE];

  test('each is taken, or refused in one line of ClusterTlsError that names the record; never a crash, and the output stays', () => {
    const dir = outdir();
    synthesize(withDrainer(dir));
    const good = JSON.parse(fs.readFileSync(recordOf(dir), 'utf8'));
    const before = snapshot(dir);
    const crashes: string[] = [];
    let refused = 0;
    for (const at of places(good)) {
      for (const shape of shapes) {
        // The whole record deleted is an empty file.
        fs.writeFileSync(recordOf(dir), at.length === 0 && shape === DELETE ? '' : JSON.stringify(put(good, at, shape)));
        try {
          synthesize(withDrainer(dir));
        } catch (e) {
          refused += 1;
          const message = (e as Error).message;
          if (!(e instanceof ClusterTlsError) || message.includes('\n') || !message.includes(recordOf(dir))) {
            crashes.push(`${at.join('/') || '(the record)'} = ${JSON.stringify(shape) ?? 'deleted'}: ${(e as Error).name}: ${message.split('\n')[0]}`);
          }
          expect(snapshot(dir)).toEqual(before);
        }
      }
    }
    expect(crashes).toEqual([]);
    // The cluster's and the drainer's entries are among the places, each refused when it is no entry.
    expect(refused).toBeGreaterThan(40);
  });

  test.each([
    ['a cluster entry that is null', (r: any) => ({ ...r, clusters: { 'DatabaseCluster/demo/basic': null } }), 'received a clusters entry "DatabaseCluster/demo/basic" that is not one an earlier synth wrote'],
    ['a drainer entry that is a string', (r: any) => ({ ...r, drainers: { 'demo/drainer': 'basic-binlog-drainer' } }), 'received a drainers entry "demo/drainer" that is not one an earlier synth wrote'],
    ['a drainer entry without its name', (r: any) => ({ ...r, drainers: { 'demo/drainer': { namespace: 'demo', releaseName: 'binlog' } } }), 'received a drainers entry "demo/drainer" that is not one'],
  ])('%s is refused as a corrupt record', (_title, edit, expected) => {
    const dir = outdir();
    synthesize(withDrainer(dir));
    const good = JSON.parse(fs.readFileSync(recordOf(dir), 'utf8'));
    fs.writeFileSync(recordOf(dir), JSON.stringify(edit(good)));
    expect(() => synthesize(withDrainer(dir))).toThrow(`${recordOf(dir)}: the record of settings fixed at creation: ${expected}`);
  });
});
