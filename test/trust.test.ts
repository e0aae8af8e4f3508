/**
 * Who may hold which trust (lib/model/trust.ts, lib/app/trust-rule.ts), generated from the model
 * itself: for every trust-bearing object the model lists for a deployment's clusters (every owner
 * class, from deployments that have them all: cert-manager with TLS for MySQL clients, a reload
 * user, sinks and a migration; a span whose cluster keeps the root; cfssl; Secrets the user
 * provides), every way an object can obtain it, from a holder of a kind the library does not know
 * (a custom resource with a pod template) or the objects each way takes, is refused in one line
 * naming the holder, the Secret or issuer and who may hold it; and an allowed holder of each class
 * passes. The test prints how much of the model × ways it covered.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Chart, JsonPatch, Testing, ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-27';
import { BackupRestore, COMPONENTS as CATALOG, ClusterCertificates, IssuingMethod, TlsDatabaseCluster, TlsMigrationCluster, renderApp } from '../lib';
import { TRUST_CLASSES, TRUST_ROLES, TrustClass, TrustedObject } from '../lib/model/trust';
import { clusterTrust } from '../lib/model/trust-objects';
import { objectNamespace, trustReferences } from '../lib/model/trust-references';
import { refusal } from './_refusal';
import { ROOT, readmeBlocks } from './_readme';

/** A deployment the cases are generated over: its app, and the certificates whose model they walk. */
interface Deployment {
  readonly name: string;
  readonly app: App;
  readonly chart: Chart;
  readonly certificates: ClusterCertificates;
  readonly database: TlsDatabaseCluster;
}

const REGISTRY = 'registry.example.com/db';
/** How many components the catalog has, each with a server Secret. */
const COMPONENT_COUNT = CATALOG.length;
const COMPONENTS = {
  coordinator: { baseImage: `${REGISTRY}/coordinator`, storage: '10Gi' },
  store: { baseImage: `${REGISTRY}/store`, storage: '10Gi' },
  sqlserver: { baseImage: `${REGISTRY}/sqlserver` },
};

/** cert-manager with every Secret of TLS for MySQL clients, the discovery server's, a sink and a migration's source and target. */
function certManager(): Deployment {
  const app = Testing.app();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: 'basic' });
  const database = new TlsDatabaseCluster(chart, 'db', {
    clusterName: 'basic', version: 'v8.5.0', operatorVersion: 'v1.6.6', certificates, ...COMPONENTS, enableDiscoveryMTLS: true,
    changefeed: { baseImage: `${REGISTRY}/changefeed`, sinkTlsSecretNames: ['basic-sink-tls'] },
    tlsClient: { reloadUser: 'reloader' },
  });
  database.addSqlClient('orders', { namespace: 'shop' });
  new TlsMigrationCluster(chart, 'migration', {
    clusterName: 'basic', version: 'v8.5.0', certificates,
    sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'reader', tlsSecretName: 'basic-source1-tls' }],
    target: { database, user: 'migrator' }, task: { name: 'copy' },
  });
  return { name: 'cert-manager', app, chart, certificates, database };
}

/** A span's first Kubernetes cluster, whose cert-manager keeps the root. */
function keptRoot(): Deployment {
  const app = Testing.app();
  const chart = new Chart(app, 'orders', { namespace: 'orders' });
  const certificates = new ClusterCertificates(chart, 'certificates', {
    clusterName: 'orders',
    span: { clusters: [{ name: 'east', clusterDomain: 'east.example.com' }, { name: 'west', clusterDomain: 'west.example.com' }], current: 'east', rootCluster: 'east' },
  });
  const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'orders', version: 'v8.5.0', operatorVersion: 'v1.6.6', certificates, ...COMPONENTS });
  return { name: 'span, root kept', app, chart, certificates, database };
}

/** cfssl, and the user-provided method, whose Secrets an object of the app may declare. */
function method(m: IssuingMethod): Deployment {
  const app = Testing.app();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: 'basic', method: m });
  const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v8.5.0', certificates, ...COMPONENTS, tlsClient: {} });
  return { name: m, app, chart, certificates, database };
}

const DEPLOYMENTS: (() => Deployment)[] = [certManager, keptRoot, () => method(IssuingMethod.CFSSL), () => method(IssuingMethod.USER_PROVIDED)];

/** A way to obtain a trusted object: the pod spec that does, or the object that does, and where the message finds the reference. */
interface Way {
  readonly name: string;
  /** The kind of trusted object it reaches. */
  readonly reaches: 'Secret' | 'issuer';
  /** A pod spec that obtains it; the holder is a custom resource with a pod template, or the cluster's resource through an escape hatch. */
  readonly pod?: (t: TrustedObject) => any;
  /** An object that obtains it, in a namespace. */
  readonly object?: (t: TrustedObject, namespace: string) => any;
  /** The verb and field the refusal names, for a holder whose pod spec is at `at`. */
  readonly said: (at: string) => string;
}

const csiIssuer = (t: TrustedObject) => ({ 'csi.cert-manager.io/issuer-name': t.name, 'csi.cert-manager.io/issuer-kind': t.kind });

const WAYS: readonly Way[] = [
  { name: 'volume', reaches: 'Secret', pod: (t) => ({ volumes: [{ name: 'v', secret: { secretName: t.name } }] }), said: (at) => `loads it (${at}.volumes[0].secret.secretName)` },
  { name: 'projected volume', reaches: 'Secret', pod: (t) => ({ volumes: [{ name: 'v', projected: { sources: [{ secret: { name: t.name } }] } }] }), said: (at) => `loads it (${at}.volumes[0].projected.sources[0].secret.name)` },
  {
    name: 'env', reaches: 'Secret', pod: (t) => ({ containers: [{ name: 'c', image: 'registry.example.com/c:1', env: [{ name: 'K', valueFrom: { secretKeyRef: { name: t.name, key: 'tls.key' } } }] }] }),
    said: (at) => `loads it (${at}.containers[0].env[0].valueFrom.secretKeyRef.name)`,
  },
  { name: 'envFrom', reaches: 'Secret', pod: (t) => ({ containers: [{ name: 'c', image: 'registry.example.com/c:1', envFrom: [{ secretRef: { name: t.name } }] }] }), said: (at) => `loads it (${at}.containers[0].envFrom[0].secretRef.name)` },
  {
    name: 'CSI volume', reaches: 'Secret', pod: (t) => ({ volumes: [{ name: 'v', csi: { driver: 'secrets-store.csi.k8s.io', nodePublishSecretRef: { name: t.name } } }] }),
    said: (at) => `has its CSI driver read it (${at}.volumes[0].csi.nodePublishSecretRef.name)`,
  },
  { name: 'image pull', reaches: 'Secret', pod: (t) => ({ imagePullSecrets: [{ name: t.name }] }), said: (at) => `pulls images with it (${at}.imagePullSecrets[0].name)` },
  {
    name: 'Ingress TLS', reaches: 'Secret', object: (t, ns) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: ns }, spec: { tls: [{ hosts: ['web.example.com'], secretName: t.name }] } }),
    said: () => 'serves it (spec.tls[0].secretName)',
  },
  {
    name: 'RBAC by name', reaches: 'Secret', object: (t, ns) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader', namespace: ns }, rules: [{ apiGroups: [''], resources: ['secrets'], resourceNames: [t.name], verbs: ['get'] }] }),
    said: () => 'grants access to it (rules[0].resourceNames[0])',
  },
  {
    name: 'Gateway certificateRefs', reaches: 'Secret',
    object: (t, ns) => ({
      apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'edge', namespace: ns },
      spec: { gatewayClassName: 'edge', listeners: [{ name: 'https', port: 443, protocol: 'HTTPS', tls: { certificateRefs: [{ kind: 'Secret', name: t.name }] } }] },
    }),
    said: () => 'serves it (spec.listeners[0].tls.certificateRefs[0].name)',
  },
  {
    name: 'Flux valuesFrom', reaches: 'Secret',
    object: (t, ns) => ({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'app', namespace: ns }, spec: { chart: { spec: { chart: 'app' } }, valuesFrom: [{ kind: 'Secret', name: t.name }] } }),
    said: () => 'names it (spec.valuesFrom[0].name)',
  },
  {
    name: 'Istio credentialName', reaches: 'Secret',
    object: (t, ns) => ({ apiVersion: 'networking.istio.io/v1', kind: 'Gateway', metadata: { name: 'mesh', namespace: ns }, spec: { servers: [{ port: { number: 443, name: 'https', protocol: 'HTTPS' }, tls: { mode: 'SIMPLE', credentialName: t.name } }] } }),
    said: () => 'serves it (spec.servers[0].tls.credentialName)',
  },
  {
    name: 'csi-driver', reaches: 'issuer', pod: (t) => ({ volumes: [{ name: 'v', csi: { driver: 'csi.cert-manager.io', volumeAttributes: csiIssuer(t) } }] }),
    said: (at) => `requests a certificate from it (${at}.volumes[0].csi.volumeAttributes["csi.cert-manager.io/issuer-name"])`,
  },
  {
    name: 'Certificate issuerRef', reaches: 'issuer',
    object: (t, ns) => ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'app', namespace: ns }, spec: { secretName: 'app-tls', commonName: 'basic', issuerRef: { name: t.name, kind: t.kind, group: 'cert-manager.io' } } }),
    said: () => 'requests a certificate from it (spec.issuerRef)',
  },
  {
    name: 'CertificateRequest issuerRef', reaches: 'issuer',
    object: (t, ns) => ({ apiVersion: 'cert-manager.io/v1', kind: 'CertificateRequest', metadata: { name: 'app', namespace: ns }, spec: { request: 'LS0t', issuerRef: { name: t.name, kind: t.kind } } }),
    said: () => 'requests a certificate from it (spec.issuerRef)',
  },
  {
    name: 'Ingress annotation', reaches: 'issuer',
    object: (t, ns) => ({
      apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: ns, annotations: { [t.kind === 'ClusterIssuer' ? 'cert-manager.io/cluster-issuer' : 'cert-manager.io/issuer']: t.name } },
      spec: { tls: [{ hosts: ['web.example.com'], secretName: 'web-tls' }] },
    }),
    said: () => 'requests a certificate from it (metadata.annotations["cert-manager.io/{kind}"])',
  },
  {
    name: 'CertificateSigningRequest', reaches: 'issuer',
    object: (t) => ({
      apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'app' },
      spec: { request: 'LS0t', usages: ['client auth'], signerName: t.kind === 'ClusterIssuer' ? `clusterissuers.cert-manager.io/${t.name}` : `issuers.cert-manager.io/${t.namespace}.${t.name}` },
    }),
    said: () => 'requests a certificate from it (spec.signerName)',
  },
];

/** The holders' texts a refusal names for a trusted object. */
function holdersOf(t: TrustedObject): string {
  const roles = TRUST_CLASSES[t.trust].holders.filter((h) => h !== 'provider' || t.provided).map((h) => TRUST_ROLES[h].text);
  return roles.length === 1 ? roles[0] : `${roles.slice(0, -1).join(', ')} and ${roles[roles.length - 1]}`;
}

/** A custom resource, of a kind the library does not know, whose pod template holds `pod`. */
function widget(scope: Chart, namespace: string | undefined, pod: any): ApiObject {
  return new ApiObject(scope, 'widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'widget', ...(namespace ? { namespace } : {}) }, spec: { template: { spec: pod } } });
}

/** A chart of the deployment's app in a namespace (the cluster's chart for its own). */
function chartIn(d: Deployment, namespace: string | undefined): Chart {
  if (namespace === d.chart.namespace) {
    return d.chart;
  }
  const id = `in-${namespace ?? 'none'}`;
  return (d.app.node.tryFindChild(id) as Chart | undefined) ?? new Chart(d.app, id, namespace === undefined ? {} : { namespace });
}

/** The namespace a holder of a trusted object stands in to reach it: its own, or the cluster's for a ClusterIssuer. */
function holderNamespace(d: Deployment, t: TrustedObject): string {
  return t.namespace ?? d.chart.namespace!;
}

/** Gives the cluster's own resource the pod spec through escape hatches, where the operator takes a pod's volumes, containers and image pull Secrets. */
function patchClusterResource(d: Deployment, pod: any): void {
  const at = (key: string, value: unknown) => d.database.resource.addJsonPatch(JsonPatch.add(`/spec/coordinator/${key}`, value));
  if (pod.volumes) {
    at('additionalVolumes', pod.volumes);
  }
  if (pod.containers) {
    at('additionalContainers', pod.containers);
  }
  if (pod.imagePullSecrets) {
    d.database.resource.addJsonPatch(JsonPatch.add('/spec/imagePullSecrets', pod.imagePullSecrets));
  }
}

/** Where a refusal finds the pod spec of the cluster's resource, by the part the escape hatch set. */
function clusterResourceField(way: Way): string {
  return way.said('spec.coordinator').replace('spec.coordinator.volumes', 'spec.coordinator.additionalVolumes')
    .replace('spec.coordinator.containers', 'spec.coordinator.additionalContainers').replace('spec.coordinator.imagePullSecrets', 'spec.imagePullSecrets');
}

/** Every trusted object of each deployment, with the deployment that makes it. */
const CASES = DEPLOYMENTS.flatMap((make) => make().certificates._trustedObjects().map((t) => ({ make, t })));

describe('the trust model, every owner class × every way to obtain trust', () => {
  const covered = new Map<TrustClass, Set<string>>();
  const cover = (t: TrustedObject, way: string) => covered.set(t.trust, (covered.get(t.trust) ?? new Set()).add(way));
  afterAll(() => {
    const lines = [...covered].map(([c, ways]) => `  ${c}: ${[...ways].join(', ')}`);
    const pairs = [...covered.values()].reduce((n, w) => n + w.size, 0);
    process.stdout.write(`trust model: ${covered.size} of ${Object.keys(TRUST_CLASSES).length} owner classes, ${pairs} class × way pairs, ${CASES.length} trusted objects\n${lines.join('\n')}\n`);
  });

  test('the deployments hold every owner class', () => {
    expect(new Set(CASES.map((c) => c.t.trust))).toEqual(new Set(Object.keys(TRUST_CLASSES)));
  });

  test.each(WAYS.map((w) => [w.name, w] as const))('%s: refused in one line for every trusted object it reaches, from a holder the class does not allow', (_, way) => {
    for (const { make, t } of CASES.filter((c) => (c.t.kind === 'Secret') === (way.reaches === 'Secret'))) {
      const d = make();
      const allowsApplications = TRUST_CLASSES[t.trust].holders.includes('application');
      const namespace = holderNamespace(d, t);
      let holder: string;
      let said: string;
      if (allowsApplications) {
        // Any workload of its namespace may; the cluster's components may not, through an escape hatch, unless
        // the cluster loads it (a sink). A Secret of another namespace is no pod's of the cluster's.
        if (way.pod === undefined || t.namespace !== d.chart.namespace || d.database.sinkTlsSecretNames.includes(t.name)) {
          continue;
        }
        patchClusterResource(d, way.pod(t));
        holder = `${d.database.node.path}: `;
        said = `received a DatabaseCluster that ${clusterResourceField(way)}`;
      } else if (way.pod !== undefined) {
        widget(chartIn(d, namespace), namespace, way.pod(t));
        holder = `${namespace === d.chart.namespace ? d.chart.node.path : `in-${namespace}`}/widget: `;
        said = `received a Widget that ${way.said('spec.template.spec')}`;
      } else {
        const object = way.object!(t, namespace);
        new ApiObject(chartIn(d, object.metadata.namespace), 'holder', object);
        holder = `${object.metadata.namespace === d.chart.namespace ? d.chart.node.path : object.metadata.namespace === undefined ? 'in-none' : `in-${namespace}`}/holder: `;
        said = `received ${/^[AEIOU]/.test(object.kind) ? 'an' : 'a'} ${object.kind} that ${way.said('').replace('{kind}', t.kind === 'ClusterIssuer' ? 'cluster-issuer' : 'issuer')}`;
      }
      const message = refusal(() => renderApp(d.app));
      const where = t.namespace === undefined ? '' : ` in namespace "${t.namespace}"`;
      expect({ t: t.name, message }).toEqual({ t: t.name, message: expect.stringContaining(`${holder}${t.kind} "${t.name}"${where} (${t.holds}, of cluster ${t.clusterKey}): ${said}; expected it held only by ${holdersOf(t)}: `) });
      expect(message).not.toContain('\n');
      cover(t, way.name);
    }
  });

  test('an allowed holder of each class passes: a workload of its namespace, a tool allowWorkload allows, the cluster\'s components, the declaration of a Secret the user provides', () => {
    const tried = new Map<TrustClass, string>();
    for (const { make, t } of CASES.filter((c) => c.t.kind === 'Secret')) {
      const holders = TRUST_CLASSES[t.trust].holders;
      const d = make();
      const pod = WAYS[0].pod!(t);
      if (holders.includes('application')) {
        widget(chartIn(d, t.namespace), t.namespace, pod);
        tried.set(t.trust, 'a workload of its namespace');
      } else if (holders.includes('tool')) {
        d.certificates.allowWorkload(widget(chartIn(d, t.namespace), t.namespace, pod));
        expect(() => renderApp(d.app)).not.toThrow();
        // The cluster's own components, through an escape hatch, hold them too.
        const again = make();
        patchClusterResource(again, pod);
        expect(() => renderApp(again.app)).not.toThrow();
        if (t.provided) {
          const declared = make();
          new kplus.Secret(chartIn(declared, t.namespace), 'provided', { metadata: { name: t.name } });
          expect(() => renderApp(declared.app)).not.toThrow();
        }
        tried.set(t.trust, 'a tool, the components, and a declaration when provided');
      }
      expect(() => renderApp(d.app)).not.toThrow();
    }
    // Every other class is held by the library's own objects alone (its Certificates, issuers and
    // requests): each deployment, which makes them, passes as it is.
    for (const make of DEPLOYMENTS) {
      expect(() => renderApp(make().app)).not.toThrow();
    }
    const byLibraryAlone = Object.entries(TRUST_CLASSES).filter(([, e]) => !e.holders.some((h) => ['application', 'tool'].includes(h))).map(([c]) => c);
    expect(new Set([...tried.keys(), ...byLibraryAlone])).toEqual(new Set(Object.keys(TRUST_CLASSES)));
    expect(tried.size).toBeGreaterThan(0);
  });
});

describe('references found by shape', () => {
  test('a pod template at any depth of any kind; an object that names no namespace may land in any, as kubectl applies it wherever its context or -n points', () => {
    const cronLike = { apiVersion: 'example.com/v1', kind: 'Nightly', metadata: { name: 'n' }, spec: { jobTemplate: { spec: { template: { spec: { volumes: [{ secret: { secretName: 's' } }] } } } } } };
    expect(objectNamespace(cronLike)).toBe('*');
    expect(trustReferences(cronLike, '*')).toEqual([{ target: { kind: 'Secret', namespace: '*', name: 's' }, way: 'loads', field: 'spec.jobTemplate.spec.template.spec.volumes[0].secret.secretName' }]);
    expect(objectNamespace({ kind: 'ClusterIssuer', metadata: { name: 'x' } })).toBeUndefined();
    // A ClusterIssuer reads its Secret where cert-manager keeps cluster resources; a ClusterRole's names reach every namespace.
    expect(trustReferences({ kind: 'ClusterIssuer', spec: { ca: { secretName: 'k' } } }, undefined, ['cert-manager']).map((r) => [r.target.namespace, r.way])).toEqual([['cert-manager', 'signs with']]);
    expect(trustReferences({ kind: 'ClusterRole', rules: [{ resources: ['secrets'], resourceNames: ['k'] }] }, undefined).map((r) => r.target.namespace)).toEqual(['*']);
    // An issuer of another group is not cert-manager's; a label named secret is no reference.
    expect(trustReferences({ kind: 'Certificate', spec: { issuerRef: { name: 'i', group: 'awspca.cert-manager.io' } } }, 'demo')).toEqual([]);
    expect(trustReferences({ kind: 'PrometheusRule', metadata: { labels: { secret: 'basic-ca-secret' } } }, 'demo')).toEqual([]);
    // A trust bundle projection names a signer to read its public CA certificates: no request of a certificate.
    expect(trustReferences({ kind: 'Pod', spec: { volumes: [{ projected: { sources: [{ clusterTrustBundle: { signerName: 'clusterissuers.cert-manager.io/demo-basic-sql-ca', path: 'ca.crt' } }] } }] } }, 'demo')).toEqual([]);
    // A typed reference of another kind is no Secret's.
    expect(trustReferences({ kind: 'Gateway', spec: { listeners: [{ tls: { certificateRefs: [{ kind: 'ConfigMap', name: 'basic-ca-secret' }] } }] } }, 'demo')).toEqual([]);
  });

  test('an application reads its own certificate and no more: writing it (a Certificate of its own) or declaring it (a Secret) is refused, as overwriting what the library issues', () => {
    const d = certManager();
    new ApiObject(chartIn(d, 'shop'), 'mine', { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'mine' }, spec: { secretName: 'orders-demo-basic-sql-client', commonName: 'orders', issuerRef: { name: 'mine' } } });
    expect(refusal(() => renderApp(d.app))).toContain('in-shop/mine: Secret "orders-demo-basic-sql-client" in namespace "shop" (application orders\'s certificate and key for MySQL clients, of cluster demo/basic): received a Certificate that writes it (spec.secretName)');
    const e = certManager();
    new kplus.Secret(chartIn(e, 'shop'), 'mine', { metadata: { name: 'orders-demo-basic-sql-client' } });
    expect(refusal(() => renderApp(e.app))).toContain('in-shop/mine: Secret "orders-demo-basic-sql-client" in namespace "shop" (application orders\'s certificate and key for MySQL clients, of cluster demo/basic): received a Secret that declares it (metadata.name)');
  });

  test('an object that names no namespace is judged in every namespace: a Certificate that would overwrite a component\'s Secret wherever it lands, a workload reading an application\'s certificate', () => {
    const d = certManager();
    new ApiObject(chartIn(d, undefined), 'cert', {
      apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'store' }, spec: { secretName: 'basic-store-cluster-secret', commonName: 'basic', issuerRef: { name: 'mine' } },
    });
    expect(refusal(() => renderApp(d.app))).toContain('in-none/cert: Secret "basic-store-cluster-secret" in namespace "demo" (the store\'s server certificate and key, of cluster demo/basic): received a Certificate that writes it (spec.secretName)');
    const e = certManager();
    widget(chartIn(e, undefined), undefined, { volumes: [{ name: 'v', secret: { secretName: 'orders-demo-basic-sql-client' } }] });
    expect(refusal(() => renderApp(e.app))).toContain('in-none/widget: Secret "orders-demo-basic-sql-client" in namespace "shop"');
  });
});

describe('what the model lists', () => {
  test('a cluster\'s trusted objects by name: every generation\'s CA, every leaf and its staging copy for every rotation, the issuers, with what each holds', () => {
    const trusted = clusterTrust({
      clusterName: 'basic', namespace: 'demo', certificates: 'demo/certs', libraryCa: true, certManager: true, libraryLeaves: true, rotationIds: ['r1', 'r2'], external: [],
    });
    const held = (name: string) => trusted.find((t) => t.name === name);
    expect(held('basic-ca-secret')).toMatchObject({ kind: 'Secret', namespace: 'demo', trust: 'ca-key', holds: 'the CA and its private key', clusterKey: 'demo/basic' });
    expect(held('basic-ca-r2-secret')?.holds).toBe('the CA of rotation r2 and its private key');
    expect(held('basic-store-cluster-secret')).toMatchObject({ trust: 'component-certificate', holds: 'the store\'s server certificate and key' });
    expect(held('basic-mig-client-secret-r1')?.holds).toBe('the migration cluster\'s client certificate and key issued by rotation r1, staged before it is copied to basic-mig-client-secret');
    expect(held('basic-db-issuer')).toMatchObject({ kind: 'Issuer', trust: 'cluster-issuer' });
    expect(held('basic-selfsigned-ca-issuer')).toMatchObject({ kind: 'Issuer', trust: 'self-signed-issuer' });
    // Each component's server Secret and both client Secrets, once and once staged per rotation, three CAs, three issuers.
    expect(trusted).toHaveLength(COMPONENT_COUNT * 3 + 2 * 3 + 3 + 3);
    expect(trusted.some((t) => t.name === 'basic-store-cluster-secret-r3')).toBe(false);
  });

  test.each(DEPLOYMENTS.map((make) => [make().name, make] as const))('%s: every Secret and issuer its output writes, names or plans is a trusted object', (_, make) => {
    const d = make();
    const rendered = renderApp(d.app);
    const trusted = new Set(d.certificates._trustedObjects().map((t) => `${t.kind}/${t.namespace ?? ''}/${t.name}`));
    const written: string[] = [];
    for (const { manifest: o } of rendered.objects) {
      const ns = o.metadata?.namespace ?? '';
      if (o.kind === 'Certificate') {
        written.push(`Secret/${ns}/${o.spec.secretName}`);
      }
      if (o.kind === 'Issuer' || o.kind === 'ClusterIssuer') {
        written.push(`${o.kind}/${ns}/${o.metadata.name}`);
        if (o.spec.ca?.secretName !== undefined) {
          written.push(`Secret/${o.kind === 'ClusterIssuer' ? 'cert-manager' : ns}/${o.spec.ca.secretName}`);
        }
      }
    }
    const plan = JSON.parse(rendered.files.find((f) => f.path.endsWith('/tls-plan.json'))!.content);
    written.push(...plan.secrets.map((s: any) => `Secret/${plan.namespace}/${s.name}`), ...(plan.sqlTls?.secrets ?? []).map((s: any) => `Secret/${s.namespace}/${s.name}`),
      ...(plan.userSecrets ?? []).map((s: any) => `Secret/${plan.namespace}/${s.name}`));
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((w) => !trusted.has(w))).toEqual([]);
  });
});

describe('an application\'s own Secret', () => {
  test('is held by a workload of its namespace alone: named with its namespace from another, it is refused', () => {
    const d = certManager();
    widget(chartIn(d, 'other'), 'other', { volumes: [{ name: 'v', csi: { driver: 'secrets-store.csi.k8s.io', nodePublishSecretRef: { name: 'orders-demo-basic-sql-client', namespace: 'shop' } } }] });
    expect(refusal(() => renderApp(d.app))).toContain('in-other/widget: Secret "orders-demo-basic-sql-client" in namespace "shop" (application orders\'s certificate and key for MySQL clients, of cluster demo/basic): '
      + 'received a Widget that has its CSI driver read it (spec.template.spec.volumes[0].csi.nodePublishSecretRef.name); expected it held only by the cert-manager Certificate that writes it, a workload of its namespace (reading it) and the cluster resource that loads it');
    const ok = certManager();
    widget(chartIn(ok, 'shop'), 'shop', { volumes: [{ name: 'v', secret: { secretName: 'orders-demo-basic-sql-client' } }] });
    expect(() => renderApp(ok.app)).not.toThrow();
  });
});

/** A Deployment object written by hand, with a pod spec. */
function workload(scope: Chart, kind: string, namespace: string | undefined, pod: any, apiVersion = 'apps/v1'): ApiObject {
  return new ApiObject(scope, kind.toLowerCase(), { apiVersion, kind, metadata: { name: 'app', ...(namespace ? { namespace } : {}) }, spec: { template: { spec: pod } } });
}

describe('what the red team got through, each refused in one line', () => {
  const mounts = (secretName: string) => ({ containers: [{ name: 'app', image: 'registry.example.com/app:1' }], volumes: [{ name: 'tls', secret: { secretName } }] });

  test('an app\'s Certificate that names the cluster\'s CA Issuer, with the cluster\'s Common Name, would get a certificate every component trusts', () => {
    const d = certManager();
    new ApiObject(d.chart, 'app-cert', {
      apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'app' },
      spec: { secretName: 'app-tls', commonName: 'basic', issuerRef: { name: 'basic-db-issuer', kind: 'Issuer', group: 'cert-manager.io' } },
    });
    expect(refusal(() => renderApp(d.app))).toMatch(/^demo\/app-cert: Issuer "basic-db-issuer" in namespace "demo" \(the CA issuer of the database cluster's certificates, of cluster demo\/basic\): received a Certificate that requests a certificate from it \(spec.issuerRef\); expected it held only by the library's own Certificates of the cluster: every component trusts what it signs/);
  });

  test('a Deployment with a csi-driver volume naming the cluster\'s Issuer', () => {
    const d = certManager();
    workload(d.chart, 'Deployment', undefined, {
      containers: [{ name: 'app', image: 'registry.example.com/app:1' }],
      volumes: [{ name: 'tls', csi: { driver: 'csi.cert-manager.io', readOnly: true, volumeAttributes: { 'csi.cert-manager.io/issuer-name': 'basic-db-issuer', 'csi.cert-manager.io/common-name': 'basic' } } }],
    });
    expect(refusal(() => renderApp(d.app))).toMatch(/^demo\/deployment: Issuer "basic-db-issuer" in namespace "demo" .*: received a Deployment that requests a certificate from it \(spec.template.spec.volumes\[0\].csi.volumeAttributes\["csi.cert-manager.io\/issuer-name"\]\)/);
  });

  test.each(['ReplicaSet', 'ReplicationController'])('a %s that mounts the cluster\'s client Secret', (kind) => {
    const d = certManager();
    workload(d.chart, kind, 'demo', mounts('basic-cluster-client-secret'), kind === 'ReplicaSet' ? 'apps/v1' : 'v1');
    expect(refusal(() => renderApp(d.app))).toMatch(new RegExp(`^demo/${kind.toLowerCase()}: Secret "basic-cluster-client-secret" in namespace "demo" .*: received a ${kind} that loads it`));
  });

  test('a workload of a chart with no namespace, beside a cluster in "default", where kubectl applies it', () => {
    const app = Testing.app();
    new TlsDatabaseCluster(new Chart(app, 'db', { namespace: 'default' }), 'db', { clusterName: 'basic', version: 'v8.5.0', ...COMPONENTS });
    workload(new Chart(app, 'apps'), 'Deployment', undefined, mounts('basic-cluster-client-secret'));
    expect(refusal(() => renderApp(app))).toMatch(/^apps\/deployment: Secret "basic-cluster-client-secret" in namespace "default" .*: received a Deployment that loads it/);
  });

  test('the SQL CA\'s key mounted by a Deployment in cert-manager\'s namespace', () => {
    const d = certManager();
    workload(chartIn(d, 'cert-manager'), 'Deployment', 'cert-manager', mounts('demo-basic-sql-ca'));
    expect(refusal(() => renderApp(d.app))).toMatch(/^in-cert-manager\/deployment: Secret "demo-basic-sql-ca" in namespace "cert-manager" \(the SQL CA and its private key, of cluster demo\/basic\): received a Deployment that loads it .*expected it held only by the cert-manager Certificate that writes it and the CA issuer that signs with it: /);
  });

  test('the span root\'s key mounted in the output of the Kubernetes cluster that keeps it', () => {
    const d = keptRoot();
    workload(d.chart, 'Deployment', 'orders', mounts('orders-root-ca-secret'));
    expect(refusal(() => renderApp(d.app))).toMatch(/^orders\/deployment: Secret "orders-root-ca-secret" in namespace "orders" \(the span's root CA and its private key, of cluster orders\/orders\): received a Deployment that loads it/);
  });

  test('the reload user\'s Secret (a user granted SUPER), mounted by an application or named as a migration target\'s tlsSecretName', () => {
    const d = certManager();
    workload(d.chart, 'Deployment', 'demo', mounts('reloader-demo-basic-sql-client'));
    expect(refusal(() => renderApp(d.app))).toMatch(/^demo\/deployment: Secret "reloader-demo-basic-sql-client" in namespace "demo" \(the reload user reloader's certificate and key for MySQL clients \(a user granted SUPER\), of cluster demo\/basic\): received a Deployment that loads it .*expected it held only by the cert-manager Certificate that writes it: /);
    const app = Testing.app();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v8.5.0', ...COMPONENTS, tlsClient: { reloadUser: 'reloader' } });
    expect(() => new TlsMigrationCluster(chart, 'migration', {
      clusterName: 'basic', version: 'v8.5.0', certificates: database.certificates,
      sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'reader', tlsSecretName: 'basic-source1-tls' }],
      target: { database, user: 'reloader', tlsSecretName: 'reloader-demo-basic-sql-client' }, task: { name: 'copy' },
    })).toThrow('demo/migration: target.tlsSecretName: received "reloader-demo-basic-sql-client"; expected a Secret you create, not one the library writes '
      + '(reloader-demo-basic-sql-client holds the reload user reloader\'s certificate and key for MySQL clients (a user granted SUPER))');
  });

  test('a database user the runbook would tie to a certificate is never one the SQL server has built in: root, mysql', () => {
    const expected = (field: string, user: string) => `${field}: received "${user}"; expected a database user of its own, not "root" or "mysql", which the SQL server has built in: `
      + 'the runbook ties the user to its certificate (ALTER USER … REQUIRE SUBJECT), which would lock every password login of that account out';
    for (const user of ['root', 'mysql']) {
      const chart = () => new Chart(Testing.app(), 'demo', { namespace: 'demo' });
      expect(() => new TlsDatabaseCluster(chart(), 'db', { clusterName: 'basic', version: 'v8.5.0', ...COMPONENTS, tlsClient: { reloadUser: user } }))
        .toThrow(expected('demo/db: tlsClient.reloadUser', user));
      const database = new TlsDatabaseCluster(chart(), 'db', { clusterName: 'basic', version: 'v8.5.0', ...COMPONENTS, tlsClient: {} });
      expect(() => database.addSqlClient(user)).toThrow(expected('demo/db: addSqlClient.name', user));
      expect(() => new TlsMigrationCluster(database.node.scope as Chart, 'migration', {
        clusterName: 'basic', version: 'v8.5.0', certificates: database.certificates,
        sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'root', tlsSecretName: 'basic-source1-tls' }],
        target: { database, user }, task: { name: 'copy' },
      })).toThrow(expected('demo/migration: target.user', user));
    }
  });

  test('an escape hatch that turns on what a prop issues for: the discovery server\'s mutual TLS, a component the props leave out', () => {
    const d = method(IssuingMethod.CERT_MANAGER);
    d.database.resource.addJsonPatch(JsonPatch.add('/spec/tlsCluster/enableDiscoveryMTLS', true));
    expect(refusal(() => renderApp(d.app))).toBe('demo/db/Resource: spec.tlsCluster.enableDiscoveryMTLS: received true; expected it set by the construct\'s prop enableDiscoveryMTLS, '
      + 'which issues what it has the operator mount: Secret "basic-discovery-cluster-secret", which the certificates of cluster demo/basic do not issue, and without which the pods do not start');
    const e = method(IssuingMethod.CERT_MANAGER);
    e.database.resource.addJsonPatch(JsonPatch.add('/spec/columnar', { baseImage: `${REGISTRY}/columnar`, replicas: 1 }));
    expect(refusal(() => renderApp(e.app))).toContain('demo/db/Resource: spec.columnar: received an object; expected it set by the construct\'s prop columnar, which issues what it has the operator mount: Secret "basic-columnar-cluster-secret"');
    const f = method(IssuingMethod.CERT_MANAGER);
    const plain = new TlsDatabaseCluster(new Chart(f.app, 'plain', { namespace: 'plain' }), 'db', { clusterName: 'plain', version: 'v8.5.0', ...COMPONENTS });
    plain.resource.addJsonPatch(JsonPatch.add('/spec/sqlserver/tlsClient', { enabled: true }));
    expect(refusal(() => renderApp(f.app))).toContain('plain/db/Resource: spec.sqlserver.tlsClient.enabled: received true; expected it set by the construct\'s prop tlsClient');
  });

  test('a BackupRestore of one app given the database of another', () => {
    const other = certManager();
    const app = Testing.app();
    expect(() => new BackupRestore(new Chart(app, 'ops', { namespace: 'demo' }), 'backup', {
      cluster: other.database, backup: {}, s3: { provider: 'aws', region: 'us-west-2', bucket: 'b', secretName: 's3-keys' }, credentialsSecretName: 'backup-password', user: 'backup',
    })).toThrow('ops/backup: cluster: received demo/db of another app; expected a TlsDatabaseCluster of this app (an ITlsDatabaseCluster), in the app that holds ops/backup: '
      + 'what the two add for each other would go to two outputs, neither of them whole; declare both in one app');
  });

  test('a cdk8s-plus Secret declared in another namespace\'s chart, given as a changefeed sink', () => {
    const app = Testing.app();
    const sink = new kplus.Secret(new Chart(app, 'other', { namespace: 'other' }), 'sink', { metadata: { name: 'kafka-tls' } });
    expect(() => new TlsDatabaseCluster(new Chart(app, 'demo', { namespace: 'demo' }), 'db', {
      clusterName: 'basic', version: 'v8.5.0', ...COMPONENTS, changefeed: { baseImage: `${REGISTRY}/changefeed`, sinkTlsSecretNames: [sink] },
    })).toThrow('demo/db: changefeed.sinkTlsSecretNames[0]: received the Secret "kafka-tls" that other/sink declares in namespace "other"; '
      + 'expected a Secret of namespace "demo" in this app, where the pods that load it read it: declare it in a chart of that namespace, or refer to it by name');
  });
});

describe('docs/explanation/trust.md', () => {
  const text = fs.readFileSync(path.join(ROOT, 'docs/explanation/trust.md'), 'utf8');

  test('its table of owner classes is the model\'s: every class, and for each every party that may hold it', () => {
    const table = text.split('<!-- trust classes -->\n')[1].split('\n\n')[0].split('\n').slice(2);
    const rows = new Map(table.map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |`| \|$/g, ''))).map(([name, , holders]) => [name, holders]));
    expect([...rows.keys()].sort()).toEqual(Object.keys(TRUST_CLASSES).sort());
    for (const [name, entry] of Object.entries(TRUST_CLASSES)) {
      for (const role of entry.holders) {
        expect({ name, holders: rows.get(name) }).toEqual({ name, holders: expect.stringContaining(TRUST_ROLES[role].text.replace(/`/g, '')) });
      }
      // A party the class does not allow is not named for it.
      for (const role of (Object.keys(TRUST_ROLES) as (keyof typeof TRUST_ROLES)[]).filter((r) => !entry.holders.includes(r))) {
        expect({ name, holders: rows.get(name) }).not.toEqual({ name, holders: expect.stringContaining(TRUST_ROLES[role].text) });
      }
    }
  });

  test('its example refusal is the one synth writes', () => {
    const example = readmeBlocks(text, 'docs/explanation/trust.md').find((b) => b.section === 'Every object, every way' && b.lang === 'text')!;
    const app = Testing.app();
    const shop = new Chart(app, 'shop', { namespace: 'shop' });
    new TlsDatabaseCluster(shop, 'orders', { clusterName: 'orders', version: 'v8.5.0', ...COMPONENTS });
    const web = new Chart(app, 'web', { namespace: 'shop' });
    new ApiObject(web, 'report', {
      apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'report' },
      spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'r', image: 'registry.example.com/report:1' }], volumes: [{ name: 'ca', secret: { secretName: 'orders-ca-secret' } }] } } } } },
    });
    expect(`${refusal(() => renderApp(app))}\n`).toBe(example.text);
  });
});
