/**
 * The reload model: which components a phase restarts, from the catalog's `leafReload` and the
 * release each construct declares, and the restart annotation each component is left with. What
 * the restarts do to handshakes is proven by the rotation simulator (test/rotation.test.ts,
 * test/rotation-runbooks.test.ts); that the SQL server's release behaves as its row says, by the
 * real tidb-server (test/sql-tls-tidb.test.ts).
 */
import { Chart, Testing } from 'cdk8s';
import * as semver from 'semver';
import {
  CertificateRotation, ClusterCertificates, DrainerRelease, RotationKind, RotationPhase, TlsDatabaseCluster, TlsMigrationCluster, renderApp,
} from '../lib';
import { changesCa, componentReload, componentRestartValue, newestCaObject, resolveRotations } from '../lib/plan/rotation';
import { COMPONENTS, ComponentToken } from '../lib/model/catalog';

/** A database cluster, a migration cluster and a drainer at the given releases, with the given rotations. */
function build(rotations: CertificateRotation[], releases: { database: string; migration: string; drainer?: string }) {
  const app = Testing.app();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', rotations });
  const database = new TlsDatabaseCluster(chart, 'db', {
    clusterName: 'basic', version: releases.database, certificates, columnar: {}, changefeed: {},
  });
  new TlsMigrationCluster(chart, 'mig', {
    clusterName: 'basic', version: releases.migration, certificates,
    sources: [{ sourceId: 'a', host: 'mysql.example.com', port: 3306, user: 'copier', tlsSecretName: 'basic-a-tls' }],
    target: { database, user: 'copier', tlsSecretName: 'basic-target-tls' }, task: { name: 'copy' },
  });
  new DrainerRelease(chart, 'drainer', { cluster: database, releaseName: 'binlog', chart: { version: '1.1.5' }, version: releases.drainer });
  const manifests = Testing.synth(chart);
  const annotations = (kind: string, key: string) => manifests.find((m) => m.kind === kind).spec[key].annotations;
  return { certificates, plan: certificates.plan(), annotations };
}

const CURRENT = { database: 'v8.5.0', migration: 'v8.5.0' };
const REFERENCE = { database: 'v4.0.5', migration: 'v2.0.7' };

describe('the catalog\'s reload column', () => {
  test('every row that says a component re-reads its certificate gives a valid range of releases and a source', () => {
    const rows = COMPONENTS.filter((c) => c.leafReload !== undefined);
    expect(rows.map((c) => c.token).sort()).toEqual(['changefeed', 'columnar', 'coordinator', 'drainer', 'mig-master', 'mig-worker', 'pump', 'sqlserver', 'store']);
    for (const c of rows) {
      expect([c.token, semver.validRange(c.leafReload!.versions) !== null, c.leafReload!.source.length > 0]).toEqual([c.token, true, true]);
    }
  });

  test.each([
    ['store', 'v6.0.0', false], ['store', 'v5.4.2', true], ['store', 'v5.4.1', false], ['store', 'v6.1.0', true],
    ['columnar', 'v6.5.9', false], ['columnar', 'v6.6.0', true], ['changefeed', 'v6.6.0', false], ['changefeed', 'v7.1.0', true],
    ['mig-worker', 'v8.1.0', false], ['mig-master', 'v8.2.0', true], ['coordinator', 'v4.0.0', true], ['discovery', 'v1.6.6', false],
  ] as const)('%s at %s re-reads its certificate: %s', (token, version, reloads) => {
    expect(componentReload(token as ComponentToken, version, { sqlPort: false }).reloadsLeaf).toBe(reloads);
  });

  test('the SQL server with TLS for MySQL clients restarts at any release without a reload user: its MySQL port keeps its certificate; an undeclared release restarts', () => {
    expect(componentReload('sqlserver', 'v8.5.0', { sqlPort: true })).toEqual({ reloadsLeaf: false, reason: expect.stringContaining('tlsClient.reloadUser') });
    expect(componentReload('store', undefined, { sqlPort: false })).toEqual({ reloadsLeaf: false, reason: expect.stringContaining('no construct declares its release') });
  });
});

describe('the SQL server\'s MySQL port reloaded with the statement (tlsClient.reloadUser)', () => {
  test('a release whose cluster side re-reads its certificate and takes the statement reloads; an older one, or one of unknown release, restarts', () => {
    expect(componentReload('sqlserver', 'v7.5.0', { sqlPort: true, reloadUser: 'tls-reloader' })).toEqual({
      reloadsLeaf: true, reason: expect.stringContaining('as `tls-reloader` (tidb#14749)'), statement: { sql: 'ALTER INSTANCE RELOAD TLS', user: 'tls-reloader' },
    });
    expect(componentReload('sqlserver', 'v3.0.20', { sqlPort: true, reloadUser: 'tls-reloader' })).toEqual({ reloadsLeaf: false, reason: expect.stringContaining('its cluster side does not re-read its own') });
    expect(componentReload('sqlserver', undefined, { sqlPort: true, reloadUser: 'tls-reloader' }).reloadsLeaf).toBe(false);
  });

  /** A database cluster with TLS for MySQL clients at `version`, with or without a reload user, and the rotation runbook of the declared phase. */
  const sqlCluster = (rotations: CertificateRotation[], reloadUser?: string, version = 'v8.5.0') => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', rotations });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version, certificates, tlsClient: reloadUser === undefined ? {} : { reloadUser } });
    const files = renderApp(app).files;
    const file = (name: string) => files.find((f) => f.path === `demo/basic/${name}`)?.content ?? '';
    return { plan: certificates.plan(), runbook: file('rotation-runbook.md'), database: file('database-runbook.md') };
  };

  test('a leaf renewal of current releases restarts nothing, and its runbook reloads the MySQL port as the reload user; without one the SQL server restarts', () => {
    const reloaded = sqlCluster([{ id: 'l1', kind: RotationKind.LEAF_RENEWAL }], 'tls-reloader');
    expect(reloaded.plan.rotation!.restartOrder).toEqual([]);
    expect(reloaded.runbook).toContain('## 4. Reload the SQL server\'s MySQL port');
    expect(reloaded.runbook).toContain("--user=tls-reloader --ssl-ca=\"$RELOAD/ca.crt\"");
    expect(reloaded.runbook).toContain("kubectl get secret tls-reloader-demo-basic-sql-client -n demo -o jsonpath='{.data.tls\\.key}' | base64 -d > \"$RELOAD/tls.key\"");
    const restarted = sqlCluster([{ id: 'l1', kind: RotationKind.LEAF_RENEWAL }]);
    expect(restarted.plan.rotation!.restartOrder).toEqual(['sqlserver']);
    expect(restarted.runbook).not.toContain('Reload the SQL server\'s MySQL port');
  });

  test('a CA replacement restarts the SQL server where ca.crt changes, and reloads its MySQL port in switch-leaves only', () => {
    const phases = [RotationPhase.TRUST_BOTH, RotationPhase.SWITCH_LEAVES, RotationPhase.DROP_OLD].map((phase) => sqlCluster([{ id: 'c1', phase }], 'tls-reloader'));
    expect(phases.map((p) => [p.plan.rotation!.restartOrder.includes('sqlserver'), p.runbook.includes('Reload the SQL server\'s MySQL port')]))
      .toEqual([[true, false], [false, true], [true, false]]);
  });

  test('the database runbook ties the reload user to its certificate and grants it SUPER, and no other user', () => {
    const { database } = sqlCluster([], 'tls-reloader');
    expect(database).toContain("CREATE USER IF NOT EXISTS 'tls-reloader'@'%';\nALTER USER 'tls-reloader'@'%' REQUIRE SUBJECT '/CN=tls-reloader';\nGRANT SUPER ON *.* TO 'tls-reloader'@'%';\n");
    expect(database.match(/GRANT SUPER/g)).toHaveLength(1);
  });

  test('refused in one line: a name that is no database user, a user the SQL server could never authenticate, a release without the statement, an application of the same name', () => {
    const make = (tlsClient: object, version = 'v8.5.0') => new TlsDatabaseCluster(Testing.chart(), 'db', { clusterName: 'basic', version, namespace: 'demo', tlsClient });
    expect(() => make({ reloadUser: 'Reload_User' })).toThrow('test/db: tlsClient.reloadUser: received "Reload_User"; expected a DNS label of at most 32 characters');
    expect(() => make({ reloadUser: 'tls-reloader', disableClientAuthn: true }))
      .toThrow('test/db: tlsClient.reloadUser: received "tls-reloader"; expected nothing with tlsClient.disableClientAuthn');
    expect(() => make({ reloadUser: 'tls-reloader' }, 'v3.0.20'))
      .toThrow('test/db: tlsClient.reloadUser: received "tls-reloader"; expected nothing at version v3.0.20: releases >=4.0.0 take ALTER INSTANCE RELOAD TLS (tidb#14749)');
    expect(() => make({ reloadUser: 'tls-reloader' }).addSqlClient('tls-reloader'))
      .toThrow('test/db: addSqlClient.name: received "tls-reloader"; expected a name other than tlsClient.reloadUser\'s: that user is granted SUPER, and an application must not log in as it');
  });
});

describe('which phase restarts what', () => {
  test('only the phases that change ca.crt restart every component', () => {
    expect([
      changesCa(RotationKind.CA_REPLACEMENT, RotationPhase.TRUST_BOTH), changesCa(RotationKind.CA_REPLACEMENT, RotationPhase.SWITCH_LEAVES),
      changesCa(RotationKind.CA_REPLACEMENT, RotationPhase.DROP_OLD), changesCa(RotationKind.LEAF_RENEWAL, RotationPhase.RENEW), changesCa(RotationKind.CA_RENEWAL, RotationPhase.RENEW),
    ]).toEqual([true, false, true, false, true]);
  });

  test('the newest CA object: a CA replacement\'s own from its first phase, the one before through a leaf renewal, the initial one without rotations', () => {
    const newest = (rotations: CertificateRotation[]) => newestCaObject(resolveRotations(Testing.chart(), rotations));
    expect(newest([])).toBe('initial');
    expect(newest([{ id: 'c1', phase: RotationPhase.TRUST_BOTH }])).toBe('c1');
    expect(newest([{ id: 'c1' }, { id: 'l1', kind: RotationKind.LEAF_RENEWAL }])).toBe('c1');
    expect(newest([{ id: 'l1', kind: RotationKind.LEAF_RENEWAL }])).toBe('initial');
  });

  test('a component that re-reads its certificate keeps the annotation of the last phase that restarted it; one that does not takes every phase\'s', () => {
    const at = (rotations: CertificateRotation[], reloads: boolean) => componentRestartValue(resolveRotations(Testing.chart(), rotations)!, reloads);
    expect(at([{ id: 'l1', kind: RotationKind.LEAF_RENEWAL }], true)).toBeUndefined();
    expect(at([{ id: 'l1', kind: RotationKind.LEAF_RENEWAL }], false)).toBe('rotation-l1-renew');
    expect(at([{ id: 'c1', phase: RotationPhase.SWITCH_LEAVES }], true)).toBe('rotation-c1-trust-both');
    expect(at([{ id: 'c1' }, { id: 'l1', kind: RotationKind.LEAF_RENEWAL }, { id: 'l2', kind: RotationKind.LEAF_RENEWAL }], true)).toBe('rotation-c1-drop-old');
    expect(at([{ id: 'c1' }, { id: 'r1', kind: RotationKind.CA_RENEWAL }, { id: 'l1', kind: RotationKind.LEAF_RENEWAL }], true)).toBe('rotation-r1-renew');
  });

  test('current releases: a leaf renewal restarts no component and changes no annotation from the synth before it', () => {
    const before = build([{ id: 'c1', phase: RotationPhase.DROP_OLD }], CURRENT);
    const after = build([{ id: 'c1' }, { id: 'l1', kind: RotationKind.LEAF_RENEWAL }], CURRENT);
    expect(after.plan.rotation!.restartOrder).toEqual([]);
    expect(after.plan.rotation!.reloading).toEqual(['coordinator', 'columnar', 'store', 'pump', 'sqlserver', 'changefeed', 'mig-master', 'mig-worker', 'drainer']);
    for (const [kind, key] of [['DatabaseCluster', 'coordinator'], ['DatabaseCluster', 'store'], ['DatabaseCluster', 'changefeed'], ['MigrationCluster', 'worker']]) {
      expect([key, after.annotations(kind, key)]).toEqual([key, before.annotations(kind, key)]);
      expect(after.annotations(kind, key)).toEqual({ 'db.operator.io/restartedAt': 'rotation-c1-drop-old' });
    }
  });

  test('reference releases: a leaf renewal restarts what does not re-read its certificate, the drainer at its own release', () => {
    const { plan } = build([{ id: 'l1', kind: RotationKind.LEAF_RENEWAL }], REFERENCE);
    expect(plan.rotation!.restartOrder).toEqual(['columnar', 'store', 'changefeed', 'mig-master', 'mig-worker']);
    const olderDrainer = build([{ id: 'l1', kind: RotationKind.LEAF_RENEWAL }], { ...REFERENCE, drainer: 'v3.0.12' });
    expect(olderDrainer.plan.rotation!.restartOrder).toContain('drainer');
    expect(plan.secrets.filter((s) => s.role === 'server').map((s) => [s.component, s.reloadsLeaf])).toEqual(expect.arrayContaining([
      ['coordinator', true], ['store', false], ['pump', true], ['drainer', true], ['mig-master', false],
    ]));
  });

  test('two constructs declaring two releases of one component are refused in one line', () => {
    const certificates = new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo' });
    certificates._declareVersion(certificates, 'store', 'v8.5.0');
    expect(() => certificates._declareVersion(certificates, 'store', 'v7.5.0'))
      .toThrow('test/certs: version: received "v7.5.0"; expected "v8.5.0", the version of the store another construct of these certificates declares: give both the same version');
    expect(() => certificates._declareVersion(certificates, 'store', '8.5')).toThrow(/version: received "8.5"; expected a release version of the form v<major>\.<minor>\.<patch>/);
  });
});
