import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, JsonPatch } from 'cdk8s';
import { ClusterTlsError, OutputFile, TlsDatabaseCluster, synthesize } from '../lib';
import { checkSecretClaims } from '../lib/_guards';

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

describe('settings fixed at creation', () => {
  test('a first synth, with no earlier output, is not an error', () => {
    const dir = outdir();
    expect(() => synthesize(app(dir, disableTls))).not.toThrow();
  });

  test('flipping tlsCluster.enabled against the committed output fails and leaves it untouched', () => {
    const dir = outdir();
    synthesize(app(dir));
    const before = snapshot(dir);
    expect(() => synthesize(app(dir, disableTls), { acknowledgeRecreation: [] })).toThrow(
      'demo/db/Resource: DatabaseCluster "basic" tlsCluster.enabled: received false; expected true as in the committed demo.k8s.yaml: '
      + 'the setting is fixed at creation and changing it makes the cluster fail to upgrade; '
      + 'to re-create the cluster deliberately, set CLUSTER_TLS_RECREATE=DatabaseCluster/demo/basic');
    expect(snapshot(dir)).toEqual(before);
  });

  test('turning TLS on for a cluster created without it is refused too', () => {
    const dir = outdir();
    synthesize(app(dir, disableTls));
    expect(() => synthesize(app(dir), { acknowledgeRecreation: [] })).toThrow(/tlsCluster\.enabled: received true; expected false/);
  });

  test('a deliberate re-creation can be acknowledged, by option or environment', () => {
    const dir = outdir();
    synthesize(app(dir));
    expect(() => synthesize(app(dir, disableTls), { acknowledgeRecreation: ['DatabaseCluster/demo/basic'] })).not.toThrow();
    process.env.CLUSTER_TLS_RECREATE = 'other, DatabaseCluster/demo/basic';
    try {
      expect(() => synthesize(app(dir))).not.toThrow();
    } finally {
      delete process.env.CLUSTER_TLS_RECREATE;
    }
  });

  test('renaming a drainer against the committed output is refused', () => {
    const dir = outdir();
    const values = (name: string) => (db: TlsDatabaseCluster) => new OutputFile(db, 'values', { path: 'demo/basic/drainer-binlog-values.yaml', content: `drainerName: ${name}\n` });
    synthesize(app(dir, values('basic-binlog-drainer')));
    expect(() => synthesize(app(dir, values('renamed')), { acknowledgeRecreation: [] })).toThrow(
      'demo/basic/drainer-binlog-values.yaml: drainerName: received "renamed"; expected "basic-binlog-drainer" as in the committed output: '
      + 'renaming a running drainer is unsupported; to re-create the drainer deliberately, set CLUSTER_TLS_RECREATE=drainer/demo/basic/drainer-binlog-values.yaml');
    expect(() => synthesize(app(dir, values('renamed')), { acknowledgeRecreation: ['drainer/demo/basic/drainer-binlog-values.yaml'] })).not.toThrow();
  });

  test('a drainer without drainerName is compared by the chart\'s default name', () => {
    const dir = outdir();
    const values = (content: string) => (db: TlsDatabaseCluster) => new OutputFile(db, 'values', { path: 'demo/basic/drainer-binlog-values.yaml', content });
    synthesize(app(dir, values('clusterName: basic\n')));
    expect(() => synthesize(app(dir, values('clusterName: basic\ndrainerName: basic-binlog-drainer\n')), { acknowledgeRecreation: [] })).not.toThrow();
    expect(() => synthesize(app(dir, values('clusterName: basic\ndrainerName: other\n')), { acknowledgeRecreation: [] }))
      .toThrow('demo/basic/drainer-binlog-values.yaml: drainerName: received "other"; expected "basic-binlog-drainer" as in the committed output');
  });

  test('a committed output that is not YAML is reported, not overwritten', () => {
    const dir = outdir();
    synthesize(app(dir));
    fs.writeFileSync(path.join(dir, 'demo.k8s.yaml'), 'a: [unclosed');
    expect(() => synthesize(app(dir))).toThrow(/^demo\.k8s\.yaml: the committed output: received a file that is not valid YAML .*; expected the output of an earlier synth: restore it from version control$/);
    expect(fs.readFileSync(path.join(dir, 'demo.k8s.yaml'), 'utf8')).toBe('a: [unclosed');
  });
});

describe('keys in the output folder', () => {
  test('a synth that would delete keys the cfssl script left in the output folder is refused, and they stay', () => {
    const dir = outdir();
    synthesize(app(dir));
    fs.mkdirSync(path.join(dir, 'demo', 'basic', 'cfssl'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'demo', 'basic', 'cfssl', 'ca-key.pem'), 'KEY');
    fs.writeFileSync(path.join(dir, 'demo', 'basic', 'cfssl', 'ca.pem'), 'CERT');
    expect(() => synthesize(app(dir))).toThrow(`${dir}: received keys or certificates that synth did not write (demo/basic/cfssl/ca-key.pem, demo/basic/cfssl/ca.pem); `
      + 'expected an output folder of synthesized files only: move them out before synthesizing, or the swap would delete them');
    expect(fs.readFileSync(path.join(dir, 'demo', 'basic', 'cfssl', 'ca-key.pem'), 'utf8')).toBe('KEY');
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
    expect(() => checkSecretClaims([
      { namespace: 'demo', name: 'basic-store-cluster-secret', owner: 'demo/a' },
      { namespace: 'other', name: 'basic-store-cluster-secret', owner: 'other/a' },
      { namespace: 'demo', name: 'basic-store-cluster-secret', owner: 'demo/b' },
    ])).toThrow('demo/b: Secret "basic-store-cluster-secret" in namespace "demo": received a second claim (demo/a claims it too); expected each Secret issued by one construct: pass the same ClusterCertificates to every cluster of that name');
  });

  test('two database clusters of the same name in one namespace', () => {
    const a = new App({ outdir: outdir() });
    new TlsDatabaseCluster(new Chart(a, 'one', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5' });
    new TlsDatabaseCluster(new Chart(a, 'two', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5' });
    expect(() => synthesize(a)).toThrow('two/db/Resource: DatabaseCluster "basic" in namespace "demo": received it twice (one/db/Resource in one.k8s.yaml declares it too); expected each object once: share one construct instead of declaring it twice');
  });
});
