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
  CertificateRotation, ClusterCertificates, DrainerRelease, RotationKind, RotationPhase, TlsDatabaseCluster, TlsMigrationCluster,
} from '../lib';
import { changesCa, componentReload, componentRestartValue, resolveRotations } from '../lib/certificates/rotation';
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

  test('the SQL server with TLS for MySQL clients restarts at any release: its MySQL port keeps its certificate; an undeclared release restarts', () => {
    expect(componentReload('sqlserver', 'v8.5.0', { sqlPort: true })).toEqual({ reloadsLeaf: false, reason: expect.stringContaining('ALTER INSTANCE RELOAD TLS') });
    expect(componentReload('store', undefined, { sqlPort: false })).toEqual({ reloadsLeaf: false, reason: expect.stringContaining('no construct declares its release') });
  });
});

describe('which phase restarts what', () => {
  test('only the phases that change ca.crt restart every component', () => {
    expect([
      changesCa(RotationKind.CA_REPLACEMENT, RotationPhase.TRUST_BOTH), changesCa(RotationKind.CA_REPLACEMENT, RotationPhase.SWITCH_LEAVES),
      changesCa(RotationKind.CA_REPLACEMENT, RotationPhase.DROP_OLD), changesCa(RotationKind.LEAF_RENEWAL, RotationPhase.RENEW), changesCa(RotationKind.CA_RENEWAL, RotationPhase.RENEW),
    ]).toEqual([true, false, true, false, true]);
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
