import * as TOML from 'smol-toml';
import { App, Chart, JsonPatch, Testing } from 'cdk8s';
import {
  API_GROUP_CONTEXT, ClusterCertificates, OutputFile, PvReclaimPolicy, SqlServiceType, TlsDatabaseCluster, TlsDatabaseClusterProps, TlsEnablementPhase, TlsMigrationCluster,
} from '../lib';
import { ClusterKind, COMPONENTS } from '../lib/model/catalog';
import { readConfig } from '../lib/model/config-documents';
import { expectValidAgainstCrds } from './_crds';
import { findObject, namesOf } from './_find';

function synth(props: Partial<TlsDatabaseClusterProps> = {}, setup?: (c: TlsDatabaseCluster) => void) {
  const chart = Testing.chart();
  const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5', ...props });
  setup?.(cluster);
  const objects = Testing.synth(chart);
  const raw = findObject(objects, 'DatabaseCluster', cluster.clusterName);
  return { cluster, objects, raw, resource: withConfigsRead(raw) };
}

/** A cluster resource with each component's configuration read as a map, from whichever form it is written in. */
function withConfigsRead(resource: any): any {
  const spec = Object.fromEntries(Object.entries(resource.spec).map(([key, part]: [string, any]) => {
    const entry = COMPONENTS.find((c) => c.specKey === key && c.cluster === ClusterKind.DATABASE);
    return [key, entry && part?.config !== undefined ? { ...part, config: readConfig(entry, part.config) } : part];
  }));
  return { ...resource, spec };
}

function file(cluster: TlsDatabaseCluster, suffix: string): string {
  const found = cluster.node.findAll().filter(OutputFile.isOutputFile).find((f) => f.path.endsWith(suffix));
  if (!found) {
    throw new Error(`no output file ending with ${suffix}`);
  }
  return found.render();
}

/** The monitor images the operator requires. */
const MONITOR = {
  initializer: { baseImage: 'registry.example.com/monitor-initializer', version: 'v4.0.5' },
  reloader: { baseImage: 'registry.example.com/monitor-reloader', version: 'v1.0.1' },
};

describe('DatabaseCluster', () => {
  const all = synth({ changefeed: {}, columnar: {} });

  test('TLS on, and every top-level field of the spec\'s table', () => {
    expect(all.resource.apiVersion).toBe('db.operator.io/v1alpha1');
    expect(all.resource.metadata).toEqual({ name: 'basic', namespace: 'demo' });
    expect(all.resource.spec).toMatchObject({
      tlsCluster: { enabled: true }, version: 'v4.0.5', timezone: 'UTC', pvReclaimPolicy: 'Retain',
    });
  });

  test('components with the spec\'s values: replicas 1, maxFailoverCount 0, storage requests, sqlserver ClusterIP', () => {
    const { spec } = all.resource;
    for (const token of ['coordinator', 'store', 'sqlserver']) {
      expect(spec[token]).toMatchObject({ maxFailoverCount: 0, replicas: 1 });
    }
    expect(spec.coordinator.requests).toEqual({ storage: '10Gi' });
    expect(spec.store.requests).toEqual({ storage: '100Gi' });
    expect(spec.pump).toMatchObject({ replicas: 1, requests: { storage: '20Gi' } });
    expect(spec.pump.maxFailoverCount).toBeUndefined();
    expect(spec.sqlserver.service).toEqual({ type: 'ClusterIP' });
    expect(spec.columnar.storageClaims).toEqual([{ resources: { requests: { storage: '100Gi' } } }]);
  });

  test('coordinator accepts exactly one common name, the certificates\'', () => {
    expect(all.resource.spec.coordinator.config.security['cert-allowed-cn']).toEqual(['basic']);
  });

  test('store, pump, changefeed and columnar set cert-allowed-cn; sqlserver sets cluster-verify-cn', () => {
    const { spec } = all.resource;
    for (const token of ['store', 'pump']) {
      expect(spec[token].config.security).toEqual({ 'cert-allowed-cn': ['basic'] });
    }
    expect(spec.changefeed.config.security).toEqual({ 'cert-allowed-cn': ['basic'] });
    expect(spec.sqlserver.config.security).toEqual({ 'cluster-verify-cn': ['basic'] });
  });

  test('every configuration but the pump\'s is written as the TOML documents the operator keeps whole', () => {
    // The operator's release 1.6 reads a map into the component's deprecated struct and drops every key it lacks.
    const { spec } = all.raw;
    for (const token of ['coordinator', 'store', 'sqlserver', 'changefeed']) {
      expect({ token, form: typeof spec[token].config }).toEqual({ token, form: 'string' });
    }
    expect(TOML.parse(spec.store.config)).toEqual({ security: { 'cert-allowed-cn': ['basic'] } });
    expect(Object.values(spec.columnar.config).map((d) => typeof d)).toEqual(['string', 'string']);
    expect(spec.pump.config).toEqual({ security: { 'cert-allowed-cn': ['basic'] } });
  });

  test('an escape hatch patches a configuration as a map, and the document carries the patch', () => {
    const { raw } = synth({}, (c) => c.resource.addJsonPatch(JsonPatch.add('/spec/store/config/log', { level: 'warn' })));
    expect(TOML.parse(raw.spec.store.config)).toEqual({ log: { level: 'warn' }, security: { 'cert-allowed-cn': ['basic'] } });
  });

  test('a null an escape hatch puts in a configuration is refused in one line naming the field, never the content', () => {
    expect(() => synth({}, (c) => c.resource.addJsonPatch(JsonPatch.add('/spec/store/config/password', null))))
      .toThrow('test/db: spec.store.config.password: received null; expected a TOML value (a string, number, boolean, list or table): TOML has no null, '
        + 'and the operator keeps the component\'s configuration as a TOML document; leave the key out (with an escape hatch, JsonPatch.remove) instead of setting it to null');
    // Given in the props, it is refused where it is, before anything is written.
    expect(() => synth({ sqlserver: { config: { security: { 'ssl-ca': null } } } }))
      .toThrow(/^test\/db: sqlserver\.config\.security\.ssl-ca: received null; expected a TOML value .* instead of setting it to null$/);
  });

  test('columnar: two documents, the engine\'s list spelled with underscores and the storage proxy\'s with dashes, nothing else at the top', () => {
    const { config } = all.resource.spec.columnar;
    expect(config).toEqual({
      config: { security: { cert_allowed_cn: ['basic'] } },
      proxy: { security: { 'cert-allowed-cn': ['basic'] } },
    });
    expect(config.security).toBeUndefined();
  });

  test('columnar: the user\'s engine and proxy settings are kept, the lists added to both', () => {
    const { resource } = synth({ columnar: {
      extraAllowedCommonNames: ['analyst'],
      config: { config: { logger: { level: 'debug' } }, proxy: { server: { 'status-addr': '0.0.0.0:20292' } } },
    } });
    expect(resource.spec.columnar.config).toEqual({
      config: { logger: { level: 'debug' }, security: { cert_allowed_cn: ['basic', 'analyst'] } },
      proxy: { server: { 'status-addr': '0.0.0.0:20292' }, security: { 'cert-allowed-cn': ['basic', 'analyst'] } },
    });
  });

  test('a config that is not a map is refused by its type, never its content', () => {
    expect(() => synth({ store: { config: 'password = "hunter2"' as any } }))
      .toThrow('test/db: store.config: received a value of type string; expected an object: the component\'s configuration');
  });

  test('columnar: a key beside config and proxy, or a list set by hand, is refused', () => {
    expect(() => synth({ columnar: { config: { security: {} } as any } }))
      .toThrow('test/db: columnar.config: received ["security"]; expected only the keys "config" and "proxy", one per configuration document');
    expect(() => synth({ columnar: { config: { proxy: { security: { 'cert-allowed-cn': ['x'] } } } } }))
      .toThrow('test/db: columnar.config.proxy.security.cert-allowed-cn: received ["x"]; expected nothing: the construct sets it');
  });

  test('changefeed: no maxFailoverCount (the operator has none for it); sink Secrets listed in tlsClientSecretNames', () => {
    const { resource, cluster: db } = synth({ changefeed: { sinkTlsSecretNames: ['kafka-tls', 'mysql-tls', 'kafka-tls'] } });
    const { changefeed } = resource.spec;
    expect(changefeed.maxFailoverCount).toBeUndefined();
    expect(changefeed.tlsClientSecretNames).toEqual(['kafka-tls', 'mysql-tls']);
    expect(db.sinkTlsFiles('kafka-tls')).toEqual({
      ca: '/var/lib/sink-tls/kafka-tls/ca.crt', certificate: '/var/lib/sink-tls/kafka-tls/tls.crt', privateKey: '/var/lib/sink-tls/kafka-tls/tls.key',
    });
    expect(() => db.sinkTlsFiles('other')).toThrow('test/db: sinkTlsFiles.secret: received "other"; expected one of changefeed.sinkTlsSecretNames: kafka-tls, mysql-tls');
    expect(synth({ changefeed: {} }).resource.spec.changefeed.tlsClientSecretNames).toBeUndefined();
  });

  test('changefeed: a sink Secret is never one of the cluster\'s own', () => {
    expect(() => synth({ changefeed: { sinkTlsSecretNames: ['basic-ca-secret'] } }))
      .toThrow('test/db: changefeed.sinkTlsSecretNames[0]: received "basic-ca-secret"; expected a Secret you create, not one the library writes (basic-ca-secret holds the CA and its private key)');
    // One rule, told once: a name that is no Secret name at all, or a Secret name too long for a label, gets the label's rule.
    for (const name of ['Kafka TLS', 'x'.repeat(300), 'y'.repeat(64)]) {
      expect(() => synth({ changefeed: { sinkTlsSecretNames: [name] } }))
        .toThrow(/^test\/db: changefeed\.sinkTlsSecretNames\[0\]: received "[^;]+; expected a Secret name that is a DNS-1123 label \(lowercase letters, digits and '-', at most 63 characters\): /);
    }
    // The operator names the changefeed pods' volume after each sink Secret: a '.' is refused there.
    expect(() => synth({ changefeed: { sinkTlsSecretNames: ['kafka.tls'] } }))
      .toThrow('test/db: changefeed.sinkTlsSecretNames[0]: received "kafka.tls"; expected a Secret name that is a DNS-1123 label (lowercase letters, digits and \'-\', at most 63 characters): '
        + 'the operator names the pod volume that mounts it after it, and Kubernetes refuses a volume name with \'.\' or of more than 63 characters');
  });

  test('every component object has replicas', () => {
    for (const token of ['coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar']) {
      expect(all.resource.spec[token].replicas).toBe(1);
    }
  });

  test('clusterDomain: the cluster resource carries the domain of its certificates, and none without it', () => {
    const chart = Testing.chart();
    const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'demo', clusterDomain: 'cluster.local' });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates });
    const objects = Testing.synth(chart);
    expect(findObject(objects, 'DatabaseCluster', 'basic').spec.clusterDomain).toBe('cluster.local');
    expect(findObject(objects, 'Certificate', 'basic-store-cluster-secret').spec.dnsNames).toContain('basic-store.demo.svc.cluster.local');
    expectValidAgainstCrds(objects);
    expect(all.resource.spec.clusterDomain).toBeUndefined();
  });

  test('mountClusterClientSecret on coordinator and store by default, and can be turned off', () => {
    expect(all.resource.spec.coordinator.mountClusterClientSecret).toBe(true);
    expect(all.resource.spec.store.mountClusterClientSecret).toBe(true);
    expect(all.resource.spec.sqlserver.mountClusterClientSecret).toBeUndefined();
    const off = synth({ mountClusterClientSecret: false }).resource.spec;
    expect(off.coordinator.mountClusterClientSecret).toBe(false);
    expect(off.store.mountClusterClientSecret).toBe(false);
  });

  test('validates against the CRDs, with the certificates', () => {
    expectValidAgainstCrds(all.objects);
  });

  test('is applied after its certificates', () => {
    const order = all.objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(order.indexOf('DatabaseCluster/basic')).toBe(order.length - 1);
  });

  test('settings pass through: images, replicas, failover, storage, service type, reclaim policy, time zone, config', () => {
    const { resource, objects } = synth({
      timezone: 'Europe/Berlin',
      pvReclaimPolicy: PvReclaimPolicy.DELETE,
      coordinator: { baseImage: 'registry/coordinator', replicas: 3, maxFailoverCount: 2, storage: '5Gi', config: { log: { level: 'info' }, security: { 'other-key': 1 } } },
      sqlserver: { serviceType: SqlServiceType.NODE_PORT, extraAllowedCommonNames: ['app-client'] },
      columnar: { storageClaims: [{ storage: '1Ti', storageClassName: 'fast' }, { storage: '2Ti' }] },
    });
    const { spec } = resource;
    expect(spec).toMatchObject({ timezone: 'Europe/Berlin', pvReclaimPolicy: 'Delete' });
    expect(spec.coordinator).toEqual({
      baseImage: 'registry/coordinator', replicas: 3, maxFailoverCount: 2, requests: { storage: '5Gi' }, mountClusterClientSecret: true,
      config: { log: { level: 'info' }, security: { 'other-key': 1, 'cert-allowed-cn': ['basic'] } },
    });
    expect(spec.sqlserver.service.type).toBe('NodePort');
    expect(spec.sqlserver.config.security['cluster-verify-cn']).toEqual(['basic', 'app-client']);
    expect(spec.columnar.storageClaims).toEqual([
      { storageClassName: 'fast', resources: { requests: { storage: '1Ti' } } },
      { resources: { requests: { storage: '2Ti' } } },
    ]);
    expectValidAgainstCrds(objects);
  });

  test('the API group is a setting', () => {
    const app = new App();
    app.node.setContext(API_GROUP_CONTEXT, 'acme.io');
    const chart = new Chart(app, 'c', { namespace: 'demo' });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5' });
    expect(findObject(chart.toJson(), 'DatabaseCluster', 'basic').apiVersion).toBe('acme.io/v1alpha1');
  });
});

describe('certificates follow the components', () => {
  test('without optional components: coordinator, store, sqlserver, pump and the client', () => {
    const { objects } = synth();
    expect(namesOf(objects, 'Certificate')).toEqual([
      'basic-ca', 'basic-cluster-client-secret', 'basic-coordinator-cluster-secret', 'basic-pump-cluster-secret',
      'basic-sqlserver-cluster-secret', 'basic-store-cluster-secret',
    ]);
  });

  test('changefeed and columnar get their certificates when enabled', () => {
    const { objects, cluster } = synth({ changefeed: {}, columnar: {} });
    expect(namesOf(objects, 'Certificate')).toContain('basic-changefeed-cluster-secret');
    expect(namesOf(objects, 'Certificate')).toContain('basic-columnar-cluster-secret');
    expect(cluster.components).toEqual(['coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar']);
  });

  test('components is a copy: pushing to it changes nothing of the cluster', () => {
    const { cluster } = synth({});
    cluster.components.push('changefeed');
    expect(cluster.components).toEqual(['coordinator', 'store', 'sqlserver', 'pump']);
  });

  test('shared certificates are extended, not duplicated', () => {
    const chart = Testing.chart();
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'demo', commonName: 'shared-cn', components: ['mig-master'] });
    const db = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates: certs });
    const objects = Testing.synth(chart);
    expect(db.commonName).toBe('shared-cn');
    expect(db.namespace).toBe('demo');
    expect(namesOf(objects, 'Issuer')).toEqual(['basic-db-issuer', 'basic-mig-issuer', 'basic-selfsigned-ca-issuer']);
    expect(withConfigsRead(findObject(objects, 'DatabaseCluster', 'basic')).spec.coordinator.config.security['cert-allowed-cn']).toEqual(['shared-cn']);
  });

  test('exposes the names the next construct wires to', () => {
    const { cluster } = synth();
    expect(cluster.clientSecretName).toBe('basic-cluster-client-secret');
    expect(cluster.serverSecretName('store')).toBe('basic-store-cluster-secret');
    expect(cluster.sqlHost).toBe('basic-sqlserver.demo.svc');
    expect(cluster.sqlPort).toBe(4000);
  });
});

describe('mutual TLS for the discovery server (enableDiscoveryMTLS)', () => {
  test('turns it on in the resource, and adds the discovery server\'s certificate as the operator loads it', () => {
    const { objects, raw, cluster } = synth({ enableDiscoveryMTLS: true, operatorVersion: 'v1.6.6' });
    expect(raw.spec.tlsCluster).toEqual({ enabled: true, enableDiscoveryMTLS: true });
    expect(cluster.discoveryMTLS).toBe(true);
    const certificate = findObject(objects, 'Certificate', 'basic-discovery-cluster-secret');
    expect(certificate.spec).toMatchObject({
      secretName: 'basic-discovery-cluster-secret',
      commonName: 'basic',
      usages: ['server auth', 'client auth'],
      dnsNames: ['basic-discovery', 'basic-discovery.demo', 'basic-discovery.demo.svc'],
      ipAddresses: ['127.0.0.1', '::1'],
      issuerRef: { name: 'basic-db-issuer', kind: 'Issuer', group: 'cert-manager.io' },
    });
    expect(cluster.serverSecretName('discovery')).toBe('basic-discovery-cluster-secret');
    expect(cluster.certificates.plan().secrets.map((x) => x.name)).toContain('basic-discovery-cluster-secret');
    expectValidAgainstCrds(objects);
  });

  test('off by default: no field, no certificate', () => {
    const { objects, raw, cluster } = synth();
    expect(raw.spec.tlsCluster).toEqual({ enabled: true });
    expect(namesOf(objects, 'Certificate')).not.toContain('basic-discovery-cluster-secret');
    expect(cluster.discoveryMTLS).toBe(false);
  });

  test('refused for an operator before v1.6.6, and while TLS is being turned on in place', () => {
    expect(() => synth({ enableDiscoveryMTLS: true, operatorVersion: 'v1.6.5' })).toThrow(
      'test/db: operatorVersion: received "v1.6.5"; expected v1.6.6 or later: enableDiscoveryMTLS (mutual TLS for the discovery server) needs it');
    expect(() => synth({ enableDiscoveryMTLS: true, enablement: { phase: TlsEnablementPhase.ISSUE } })).toThrow(
      'test/db: enableDiscoveryMTLS: received true; expected false while a TLS enablement is declared: turn on mutual TLS for the discovery server once the enablement\'s last phase is done and it is removed');
    expect(() => synth({ enableDiscoveryMTLS: 'yes' as any })).toThrow('test/db: enableDiscoveryMTLS: received "yes"; expected true or false');
  });
});

describe('DatabaseMonitor', () => {
  test('every field of the table, in the cluster\'s namespace', () => {
    const { objects } = synth({}, (c) => c.addMonitor({
      initializer: { baseImage: 'init', version: 'v4.0.5' },
      reloader: { baseImage: 'reload', version: 'v1.0.1' },
    }));
    const monitor = findObject(objects, 'DatabaseMonitor', 'basic-monitor');
    expect(monitor.metadata.namespace).toBe('demo');
    expect(monitor.spec).toEqual({
      clusters: [{ name: 'basic' }],
      prometheus: { baseImage: 'prom/prometheus', version: 'v2.53.1' },
      grafana: { baseImage: 'grafana/grafana', version: '10.4.5' },
      initializer: { baseImage: 'init', version: 'v4.0.5' },
      reloader: { baseImage: 'reload', version: 'v1.0.1' },
      imagePullPolicy: 'IfNotPresent',
    });
    expectValidAgainstCrds(objects);
  });

  test('addMonitor twice is one monitor', () => {
    const { objects } = synth({}, (c) => {
      expect(c.addMonitor(MONITOR)).toBe(c.addMonitor(MONITOR));
    });
    expect(namesOf(objects, 'DatabaseMonitor')).toEqual(['basic-monitor']);
  });

  test('an image pinned to latest is refused', () => {
    expect(() => synth({}, (c) => c.addMonitor({ ...MONITOR, grafana: { baseImage: 'grafana/grafana', version: 'latest' } })))
      .toThrow('test/db: addMonitor.options.grafana: received {"baseImage":"grafana/grafana","version":"latest"}; expected a baseImage and a pinned version other than "latest"');
  });
});

describe('version rules', () => {
  test('columnar needs component version 4.0.5', () => {
    expect(() => synth({ version: 'v4.0.4', columnar: {} }))
      .toThrow('test/db: version: received "v4.0.4"; expected v4.0.5 or later: tls for the columnar component needs it');
    expect(() => synth({ version: 'v4.0.4' })).not.toThrow();
  });

  test('changefeed needs component version 4.0.3', () => {
    expect(() => synth({ version: 'v4.0.2', changefeed: {} }))
      .toThrow('test/db: version: received "v4.0.2"; expected v4.0.3 or later: tls for the changefeed component needs it');
    expect(() => synth({ version: 'v4.0.3', changefeed: {} })).not.toThrow();
  });

  test('operator v1.1 for TLS between database components', () => {
    expect(() => synth({ operatorVersion: 'v1.0.9', mountClusterClientSecret: false }))
      .toThrow('test/db: operatorVersion: received "v1.0.9"; expected v1.1.0 or later: tls between database cluster components needs it');
  });

  test('operator v1.1.4 for columnar, v1.1.3 for changefeed', () => {
    expect(() => synth({ operatorVersion: 'v1.1.3', columnar: {}, mountClusterClientSecret: false }))
      .toThrow('test/db: operatorVersion: received "v1.1.3"; expected v1.1.4 or later: tls for the columnar component needs it');
    expect(() => synth({ operatorVersion: 'v1.1.2', changefeed: {}, mountClusterClientSecret: false }))
      .toThrow('test/db: operatorVersion: received "v1.1.2"; expected v1.1.3 or later: tls for the changefeed component needs it');
  });

  test('operator v1.1.5 for mountClusterClientSecret', () => {
    expect(() => synth({ operatorVersion: 'v1.1.4' }))
      .toThrow('test/db: operatorVersion: received "v1.1.4"; expected v1.1.5 or later: mountClusterClientSecret (set it to false for an older operator) needs it');
    expect(() => synth({ operatorVersion: 'v1.1.4', mountClusterClientSecret: false })).not.toThrow();
  });

  test('versions are parsed, not compared as strings', () => {
    expect(() => synth({ version: 'v4.0.10', columnar: {} })).not.toThrow();
    expect(() => synth({ version: '4.0.5' })).toThrow('test/db: version: received "4.0.5"; expected a release version of the form v<major>.<minor>.<patch>, such as "v4.0.5"');
  });
});

describe('input errors', () => {
  test('the coordinator takes no extra common names', () => {
    expect(() => synth({ coordinator: { extraAllowedCommonNames: ['other'] } as any }))
      .toThrow('test/db: coordinator.extraAllowedCommonNames: received ["other"]; expected nothing: the coordinator accepts exactly one Common Name, the certificates\'');
  });

  test('config may not set the allowed common names itself', () => {
    expect(() => synth({ store: { config: { security: { 'cert-allowed-cn': ['x'] } } } }))
      .toThrow('test/db: store.config.security.cert-allowed-cn: received ["x"]; expected nothing: the construct sets it to the certificates\' Common Name; add names with extraAllowedCommonNames');
    expect(() => synth({ coordinator: { config: { security: { 'cert-allowed-cn': ['x', 'y'] } } } }))
      .toThrow('test/db: coordinator.config.security.cert-allowed-cn: received ["x","y"]; expected nothing: the construct sets it to the certificates\' Common Name');
  });

  test('certificates of another cluster are refused', () => {
    const chart = Testing.chart();
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'other', namespace: 'demo' });
    expect(() => new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates: certs }))
      .toThrow('test/db: certificates: received "demo/other"; expected the certificates of cluster demo/basic: Secret names are derived from the cluster name');
  });

  test('replicas, failover counts and storage quantities', () => {
    expect(() => synth({ store: { replicas: 0 } })).toThrow('test/db: store.replicas: received 0; expected a whole number from 1 to 2147483647 (an int32 of the operator)');
    expect(() => synth({ sqlserver: { maxFailoverCount: -1 } })).toThrow('test/db: sqlserver.maxFailoverCount: received -1; expected a whole number from 0 to 2147483647 (an int32 of the operator)');
    expect(() => synth({ pump: { storage: '20 GB' } })).toThrow('test/db: pump.storage: received "20 GB"; expected a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes');
  });

  test('a config section that is not an object is named by its own path', () => {
    expect(() => synth({ store: { config: { security: 'x' } } }))
      .toThrow('test/db: store.config.security: received "x"; expected an object');
  });

  test('a cluster construct that makes certificates of its own where others already exist for that cluster names the certificates prop', () => {
    const expected = (by: string) => `test/db: certificates: received nothing; expected the certificates of cluster demo/basic, which ${by} already makes: `
      + 'pass them as certificates, so that one set of Issuers and Secrets serves the cluster';
    const apart = Testing.chart();
    new ClusterCertificates(apart, 'certs', { clusterName: 'basic', namespace: 'demo' });
    expect(() => new TlsDatabaseCluster(apart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5' })).toThrow(expected('test/certs'));
    const migration = Testing.chart();
    const db = new TlsDatabaseCluster(migration, 'mig-db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5' });
    expect(() => new TlsMigrationCluster(migration, 'db', {
      clusterName: 'basic', namespace: 'demo', version: 'v2.0.7', master: {}, worker: {}, sources: [{ sourceId: 's1', host: 'h', user: 'u', tlsSecretName: 's1-tls' }],
      target: { database: db, user: 'u', tlsSecretName: 'target-tls' }, task: { name: 't' },
    })).toThrow(expected('test/mig-db/Certificates'));
  });

  test('extra allowed common names are checked and listed once, after the certificates\'', () => {
    expect(() => synth({ store: { extraAllowedCommonNames: [''] } }))
      .toThrow('test/db: store.extraAllowedCommonNames[0]: received ""; expected a single line of 1 to 64 printable characters, without leading or trailing spaces');
    const { resource } = synth({ sqlserver: { extraAllowedCommonNames: ['app', 'basic', 'app'] } });
    expect(resource.spec.sqlserver.config.security['cluster-verify-cn']).toEqual(['basic', 'app']);
  });

  test('columnar needs at least one storage claim, each with a quantity', () => {
    expect(() => synth({ columnar: { storageClaims: [] } })).toThrow('test/db: columnar.storageClaims: received []; expected at least one storage claim');
    expect(() => synth({ columnar: { storageClaims: [{ storage: 'lots' }] } }))
      .toThrow('test/db: columnar.storageClaims[0].storage: received "lots"; expected a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes');
  });

  test('a base image is a name without tag: the operator appends the version', () => {
    expect(() => synth({ store: { baseImage: 'registry/store:v4.0.5' } }))
      .toThrow('test/db: store.baseImage: received "registry/store:v4.0.5"; expected an image repository without a tag or digest');
    expect(() => synth({ store: { baseImage: 'registry:5000/store' } })).not.toThrow();
  });

  test('cluster name and namespace are DNS labels', () => {
    expect(() => synth({ clusterName: 'Basic' })).toThrow('test/db: clusterName: received "Basic"; expected a DNS-1123 label');
    expect(() => synth({ namespace: 'demo_ns' })).toThrow('test/db: namespace: received "demo_ns"; expected a DNS-1123 label');
  });
});

describe('runbook (section D)', () => {
  const { cluster } = synth({ changefeed: {} });
  const runbook = file(cluster, 'demo/basic/database-runbook.md');

  test('the merge patch that mounts the client certificate set, inline and as a file', () => {
    expect(runbook).toContain('kubectl patch databasecluster basic -n demo --type merge --patch-file ../cluster-tls/demo/basic/mount-client-secret.patch.yaml');
    expect(runbook).toContain(`-p '{"spec":{"coordinator":{"mountClusterClientSecret":true},"store":{"mountClusterClientSecret":true}}}'`);
    expect(file(cluster, 'demo/basic/mount-client-secret.patch.yaml'))
      .toBe('spec:\n  coordinator:\n    mountClusterClientSecret: true\n  store:\n    mountClusterClientSecret: true\n');
  });

  test('coordctl and storectl with the certificate flags, in the mounted folder of the first pods, each one command that runs from any folder', () => {
    expect(runbook).toContain('kubectl exec basic-coordinator-0 -n demo -- sh -c \'cd /var/lib/cluster-client-tls && coordctl --cacert=ca.crt --cert=tls.crt --key=tls.key -u https://127.0.0.1:2379 member\'\n');
    expect(runbook).toContain('kubectl exec basic-store-0 -n demo -- sh -c \'cd /var/lib/cluster-client-tls && storectl --ca-path=ca.crt --cert-path=tls.crt --key-path=tls.key --host 127.0.0.1:20160 cluster\'\n');
  });

  test('every command block opens with the folder it runs in', () => {
    const blocks = [...runbook.matchAll(/```bash\n([^\n]*)\n/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThan(3);
    blocks.forEach((first) => expect(first).toBe('# run in the output folder (the one that holds test.k8s.yaml)'));
  });

  test('makes the namespace, issues the certificates, then checks the Secrets, then deploys: the Secrets exist before the cluster', () => {
    const order = ['## 1. The cluster\'s namespace', 'kubectl create namespace demo --dry-run=client -o json | kubectl apply --server-side -f -\n',
      '## 2. Issue the certificates with cert-manager', 'kubectl wait --for=condition=Ready certificate', '## 3. Check the certificate Secrets', '## 4. Deploy the cluster']
      .map((marker) => runbook.indexOf(marker));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('lists the Secrets the cluster loads and how to apply it', () => {
    expect(runbook).toContain('kubectl get secret basic-coordinator-cluster-secret basic-store-cluster-secret basic-sqlserver-cluster-secret basic-pump-cluster-secret basic-changefeed-cluster-secret basic-cluster-client-secret -n demo');
    expect(runbook).toContain('kubectl apply -f test.k8s.yaml');
  });

  test('a renamed cluster leaves no stale name', () => {
    const renamed = file(synth({ clusterName: 'prod', namespace: 'live' }).cluster, 'live/prod/database-runbook.md');
    expect(renamed).not.toMatch(/basic|demo/);
    expect(renamed).toContain('kubectl exec prod-store-0 -n live -- sh -c ');
  });

  test('other constructs add steps at the end', () => {
    const { cluster: c } = synth({}, (db) => db.addRunbookStep({ title: 'Install the drainer', commands: ['helm install x'] }));
    expect(file(c, 'database-runbook.md')).toMatch(/## 8\. Install the drainer\n\n```bash\n# run in the output folder \(the one that holds test\.k8s\.yaml\)\nhelm install x\n```\n$/);
  });
});
