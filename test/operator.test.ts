/**
 * The library's output, judged by the real operator: tidb-operator v1.6.6's controller manager,
 * built from its Go module, renders the cluster resources the library writes (mapped to the
 * operator's names by `_operator-names.ts`) into StatefulSets and ConfigMaps on a real API server
 * with the release's own CRDs (see `_operator-run.ts`). For every component of the plan, the test
 * reads what the operator made of it: the component's server Secret mounted where it reads it and
 * named by its configuration, the Common Names the library allows in the component's own
 * configuration, the client, sink and source Secrets mounted where the library's files say.
 * It does so for the reference deployment and for random deployments drawn from the props
 * (components present or not, replicas, extra Common Names, user configuration, client Secret
 * mounts, sinks, migration sources, names); `OPERATOR_SEED` replays a draw.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import * as TOML from 'smol-toml';
import * as YAML from 'yaml';
import { IssuingMethod } from '../lib/plan/certificate-options';
import { allowedCommonNameLists } from '../lib/model/allowed-common-names';
import { ComponentToken, component } from '../lib/model/catalog';
import { MOUNT_PATHS } from '../lib/model/catalog-pods';
import * as names from '../lib/model/names';
import { synthesize } from '../lib/synth/synthesize';
import { ClusterCertificates, TlsDatabaseCluster, TlsMigrationCluster } from '../lib';
import { addDeployment } from '../main';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { describeWithTools } from './_control-plane';
import type { SecretPem } from './_handshakes';
import { COMPONENT_NAMES, SPEC_KEYS, operatorName, toOperator } from './_operator-names';
import { OperatorInput, Rendered, canIsolate, renderWithOperator } from './_operator-run';

/** A deployment for the operator: the namespace and the name of its clusters, and how the app builds it. */
interface Deployment {
  readonly title: string;
  readonly namespace: string;
  readonly cluster: string;
  readonly build: (app: App) => void;
  /** The user configuration each component was given, by component token, to find in what the operator writes. */
  readonly userConfig: Partial<Record<ComponentToken, Record<string, unknown>>>;
}

/** The library's output of one deployment: its manifests' objects, its plan, and the folders its migration files read TLS files from. */
function synthesized(d: Deployment): { objects: any[]; plan: any; migrationTlsFolders: string[] } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'operator-app-'));
  try {
    const outdir = path.join(root, 'dist');
    const app = new App({ outdir });
    d.build(app);
    synthesize(app, { outdir });
    const objects = fs.readdirSync(outdir).filter((f) => f.endsWith('.k8s.yaml'))
      .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(outdir, f), 'utf8')).map((doc) => doc.toJS()).filter(Boolean));
    const plan = JSON.parse(fs.readFileSync(path.join(root, 'cluster-tls', d.namespace, d.cluster, 'tls-plan.json'), 'utf8'));
    // Every folder the migration files name a CA in (the upstream databases' and the target's): where the members must find the Secrets.
    const migrationFolder = path.join(root, 'cluster-tls', d.namespace, d.cluster, 'migration');
    const migrationTlsFolders = !fs.existsSync(migrationFolder) ? [] : fs.readdirSync(migrationFolder).filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => [...fs.readFileSync(path.join(migrationFolder, f), 'utf8').matchAll(/ssl-ca: "?([^"\n]+)\/ca\.crt"?/g)].map((m) => m[1]));
    return { objects, plan, migrationTlsFolders };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The operator's input for a deployment: its cluster resources and Secrets in the operator's names, the stand-ins and the names they answer on. */
async function operatorInput(d: Deployment, objects: readonly any[]): Promise<OperatorInput> {
  const { namespace, cluster } = d;
  const mapped = objects.map((o) => toOperator(o, cluster));
  const issued = (await CertManagerIssuer.issueAll(mapped)).secrets;
  const secrets = new Map<string, SecretPem>([...issued].filter(([key]) => key.startsWith(`${namespace}/`)).map(([key, pem]) => [key.slice(namespace.length + 1), pem]));
  const clusters = mapped.filter((o) => o.kind === 'TidbCluster' || o.kind === 'DMCluster');
  // The Secrets the user makes (an upstream database's, a sink's): any certificate does for the operator, which only mounts them.
  const external = clusters.flatMap((c) => [...(c.spec.tlsClientSecretNames ?? []), ...(c.spec.ticdc?.tlsClientSecretNames ?? [])]);
  external.filter((n: string) => !secrets.has(n)).forEach((n: string) => secrets.set(n, secrets.get(`${cluster}-cluster-client-secret`)!));
  const tidb = clusters.find((c) => c.kind === 'TidbCluster');
  const serverSecret = (real: string) => secrets.get(`${cluster}-${real}-cluster-secret`)!;
  const pods = (real: string, count: number) => Array.from({ length: count }, (_x, i) => `${cluster}-${real}-${i}.${cluster}-${real}-peer.${namespace}`).flatMap((n) => [n, `${n}.svc`]);
  const service = (real: string) => [`${cluster}-${real}`, `${cluster}-${real}.${namespace}`, `${cluster}-${real}.${namespace}.svc`];
  const dm = clusters.some((c) => c.kind === 'DMCluster');
  return {
    namespace, clusterName: cluster, objects: clusters, secrets,
    standIns: [
      { api: 'pd', port: 2379, secret: serverSecret('pd') },
      { api: 'tidb', port: 10080, secret: serverSecret('tidb') },
      ...(tidb?.spec.ticdc ? [{ api: 'ticdc' as const, port: 8301, secret: serverSecret('ticdc') }] : []),
      ...(dm ? [{ api: 'dm-master' as const, port: 8261, secret: serverSecret('dm-master') }] : []),
    ],
    hostNames: [...service('pd'), ...pods('tidb', tidb?.spec.tidb?.replicas ?? 1), ...pods('ticdc', tidb?.spec.ticdc?.replicas ?? 1), ...service('dm-master')],
    statefulSets: clusters.flatMap((c) => (c.kind === 'TidbCluster' ? Object.values(SPEC_KEYS.DatabaseCluster).filter((k) => c.spec[k] !== undefined)
      : ['dm-master', 'dm-worker']).map((real) => `${cluster}-${real}`)),
  };
}

/** The Secret volumes of a StatefulSet's pods: mount path → Secret name, over every container. */
function secretMounts(statefulSet: any): Map<string, string> {
  const pod = statefulSet.spec.template.spec;
  const volumes = new Map<string, string>(pod.volumes.filter((v: any) => v.secret).map((v: any) => [v.name, v.secret.secretName]));
  return new Map([...pod.containers, ...(pod.initContainers ?? [])].flatMap((c: any) => (c.volumeMounts ?? [])
    .filter((m: any) => volumes.has(m.name)).map((m: any) => [m.mountPath, volumes.get(m.name)!] as const)));
}

/** The ConfigMaps a StatefulSet's pods mount. */
function configMapsOf(rendered: Rendered, statefulSet: string): any[] {
  const sts = rendered.statefulSets.get(statefulSet);
  return (sts.spec.template.spec.volumes as any[]).filter((v) => v.configMap).map((v) => rendered.configMaps.get(v.configMap.name));
}

/** Every text of a component's ConfigMap and its containers' commands, where file paths are named. */
function componentText(rendered: Rendered, statefulSet: string): string {
  const commands = (rendered.statefulSets.get(statefulSet).spec.template.spec.containers as any[]).map((c) => [...(c.command ?? []), ...(c.args ?? [])].join(' '));
  return [...configMapsOf(rendered, statefulSet).flatMap((cm) => Object.values(cm?.data ?? {})), ...commands].join('\n');
}

/** The TOML documents of a component's ConfigMap (its startup scripts left out). */
function configDocuments(rendered: Rendered, statefulSet: string): Record<string, any>[] {
  return configMapsOf(rendered, statefulSet).flatMap((cm) => Object.entries(cm?.data ?? {})).filter(([key]) => !/script/.test(key)).flatMap(([, text]) => {
    try {
      return [TOML.parse(text as string)];
    } catch {
      return [];
    }
  });
}

/** The value at a path of the first document that has it. */
function inDocuments(documents: readonly Record<string, any>[], keys: readonly string[]): unknown {
  for (const doc of documents) {
    const value = keys.reduce((node: any, k) => (node !== null && typeof node === 'object' ? node[k] : undefined), doc);
    if (value !== undefined) {
      return value;
    }
  }
  return undefined;
}

const isolation = canIsolate();
const describeIsolated = isolation === undefined || process.env.CI === 'true' ? describe : describe.skip;
if (isolation !== undefined && process.env.CI !== 'true') {
  // eslint-disable-next-line no-console
  console.log(`skipping the real operator's tests: ${isolation}; under CI=true they run and fail instead`);
}

/** A random deployment's choices. */
interface Draw {
  readonly namespace: string;
  readonly cluster: string;
  readonly replicas: number;
  readonly pump: boolean;
  readonly sinks: number;
  readonly columnar: boolean;
  readonly extraNames: boolean;
  readonly userConfig: boolean;
  readonly mountClient: boolean;
  readonly sqlTls: boolean;
  readonly discoveryMTLS: boolean;
  readonly sources: number;
  readonly commonName?: string;
}

const DRAW: fc.Arbitrary<Draw> = fc.record({
  namespace: fc.constantFrom('demo', 'shop-prod'),
  cluster: fc.constantFrom('basic', 'orders', 'db7'),
  replicas: fc.integer({ min: 1, max: 3 }),
  pump: fc.boolean(),
  // No changefeed, or one with this many sinks.
  sinks: fc.integer({ min: -1, max: 2 }),
  columnar: fc.boolean(),
  extraNames: fc.boolean(),
  userConfig: fc.boolean(),
  mountClient: fc.boolean(),
  sqlTls: fc.boolean(),
  discoveryMTLS: fc.boolean(),
  // No migration cluster, or one with this many sources.
  sources: fc.integer({ min: 0, max: 3 }),
  commonName: fc.option(fc.constantFrom('tls-peer', 'members.internal'), { nil: undefined }),
}, { requiredKeys: ['namespace', 'cluster', 'replicas', 'pump', 'sinks', 'columnar', 'extraNames', 'userConfig', 'mountClient', 'sqlTls', 'discoveryMTLS', 'sources'] });

/** The deployment a draw describes, built with the library's constructs as a user would. */
function randomDeployment(given: Draw, index: number): Deployment {
  // The first draw always turns on mutual TLS for the discovery server, so that every run proves it.
  const draw = index === 0 ? { ...given, discoveryMTLS: true } : given;
  const { namespace, cluster } = draw;
  const image = (c: string) => `registry.example.com/db/${c}`;
  const extra = (c: string) => (draw.extraNames ? { extraAllowedCommonNames: [`${c}-auditor`, `${c}.tools.example.com`] } : {});
  const userConfig: Deployment['userConfig'] = draw.userConfig
    ? {
      coordinator: { log: { level: 'warn' } }, store: { log: { level: 'warn' } }, sqlserver: { log: { level: 'warn' } },
      ...(draw.sinks >= 0 ? { changefeed: { 'log-level': 'warn' } } : {}),
      // Columnar's two documents: the engine's and its storage proxy's.
      ...(draw.columnar ? { columnar: { config: { logger: { level: 'warn' } }, proxy: { 'log-level': 'warn' } } } : {}),
    }
    : {};
  const config = (token: ComponentToken) => (userConfig[token] ? { config: userConfig[token] } : {});
  return {
    title: `random deployment ${index + 1}: ${JSON.stringify(draw)}`,
    namespace, cluster, userConfig,
    build: (app) => {
      const chart = new Chart(app, namespace, { namespace });
      const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: cluster, method: IssuingMethod.CERT_MANAGER, commonName: draw.commonName });
      const database = new TlsDatabaseCluster(chart, 'database', {
        clusterName: cluster, version: 'v7.5.0', operatorVersion: 'v1.6.6', certificates,
        mountClusterClientSecret: draw.mountClient,
        enableDiscoveryMTLS: draw.discoveryMTLS,
        coordinator: { baseImage: image('pd'), replicas: draw.replicas, ...config('coordinator') },
        store: { baseImage: image('tikv'), replicas: draw.replicas, ...extra('store'), ...config('store') },
        sqlserver: { baseImage: image('tidb'), replicas: draw.replicas, ...extra('sqlserver'), ...config('sqlserver') },
        ...(draw.pump ? { pump: { baseImage: image('pump'), ...extra('pump') } } : {}),
        ...(draw.sinks >= 0 ? {
          changefeed: {
            baseImage: image('ticdc'), replicas: draw.replicas, ...extra('changefeed'), ...config('changefeed'),
            ...(draw.sinks > 0 ? { sinkTlsSecretNames: Array.from({ length: draw.sinks }, (_x, i) => `${cluster}-sink${i}-tls`) } : {}),
          },
        } : {}),
        ...(draw.columnar ? { columnar: { baseImage: image('tiflash'), ...extra('columnar'), ...config('columnar') } } : {}),
        ...(draw.sqlTls ? { tlsClient: {} } : {}),
      });
      if (draw.sources > 0) {
        new TlsMigrationCluster(chart, 'migration', {
          clusterName: cluster, version: 'v7.5.0', operatorVersion: 'v1.6.6', certificates,
          master: { baseImage: image('dm'), replicas: draw.replicas },
          worker: { baseImage: image('dm'), replicas: draw.replicas, ...extra('mig-worker') },
          sources: Array.from({ length: draw.sources }, (_x, i) => ({
            sourceId: `source${i}`, host: `mysql${i}.example.com`, port: 3306, user: 'root', tlsSecretName: `${cluster}-source${i}-tls`,
          })),
          target: { database, user: 'migration', tlsSecretName: draw.sqlTls ? database.addSqlClient('migration').secretName : `${cluster}-target-tls` },
          task: { name: 'migration' },
        });
      }
    },
  };
}

const SEED = process.env.OPERATOR_SEED !== undefined ? Number(process.env.OPERATOR_SEED) : Date.now() % 2 ** 31;
const DEPLOYMENTS: Deployment[] = [
  { title: 'the reference deployment, with cert-manager', namespace: 'demo', cluster: 'basic', userConfig: {}, build: (app) => addDeployment(app, 'demo', IssuingMethod.CERT_MANAGER) },
  ...fc.sample(DRAW, { seed: SEED, numRuns: 3 }).map(randomDeployment),
];

describeWithTools('the real operator renders the library\'s clusters', ['launcher', 'kubectl', 'etcd', 'kube-apiserver', 'tidb-controller-manager', 'operator-peers'], () => describeIsolated(`deployments (OPERATOR_SEED=${SEED})`, () => {
  describe.each(DEPLOYMENTS.map((d) => [d.title, d] as const))('%s', (_title, d) => {
    const { cluster } = d;
    let plan: any;
    let library: any[];
    let migrationTlsFolders: string[];
    let rendered: Rendered;

    beforeAll(async () => {
      ({ objects: library, plan, migrationTlsFolders } = synthesized(d));
      rendered = renderWithOperator(await operatorInput(d, library));
    }, 600_000);

    /** The components of the plan the operator deploys, with their server Secrets and their StatefulSets. */
    const deployed = () => (plan.secrets as any[]).filter((s) => s.component !== undefined && component(s.component).specKey !== undefined)
      .map((s) => ({ token: s.component as ComponentToken, secret: s.name as string, real: COMPONENT_NAMES[s.component as ComponentToken], sts: `${cluster}-${COMPONENT_NAMES[s.component as ComponentToken]}` }));
    const database = () => library.find((o) => o.kind === 'DatabaseCluster');
    const migration = () => library.find((o) => o.kind === 'MigrationCluster');

    test('the discovery server mounts its own Secret and serves mutual TLS exactly when the library turns it on', () => {
      const on = database().spec.tlsCluster.enableDiscoveryMTLS === true;
      const discovery = rendered.deployments.get(`${cluster}-discovery`);
      expect(discovery).toBeDefined();
      const pod = discovery.spec.template.spec;
      const mounted = ((pod.volumes ?? []) as any[]).filter((v) => v.secret).map((v) => v.secret.secretName);
      const env = ((pod.containers[0].env ?? []) as any[]).find((e) => e.name === 'DISCOVERY_MTLS_ENABLED')?.value;
      const planned = (plan.secrets as any[]).find((s) => s.component === 'discovery')?.name;
      const secret = `${cluster}-discovery-cluster-secret`;
      expect({ mounted: mounted.includes(secret), env, planned }).toEqual(on ? { mounted: true, env: 'true', planned: secret } : { mounted: false, env: undefined, planned: undefined });
    });

    test('every component of the plan the operator deploys gets its StatefulSet', () => {
      const wanted = deployed().map((c) => c.sts).sort();
      const spec = database().spec;
      const present = Object.keys(SPEC_KEYS.DatabaseCluster).filter((k) => spec[k] !== undefined).length
        + (migration() ? 2 : 0);
      expect(wanted).toHaveLength(present);
      expect([...rendered.statefulSets.keys()].filter((n) => wanted.includes(n)).sort()).toEqual(wanted);
    });

    test('each server Secret of the plan is mounted in its component, whose configuration names its three files', () => {
      for (const { secret, real, sts } of deployed()) {
        const mounts = secretMounts(rendered.statefulSets.get(sts));
        const at = [...mounts].find(([, name]) => name === operatorName(secret, cluster))?.[0];
        expect({ secret, mountedAt: at }).toEqual({ secret, mountedAt: `/var/lib/${real}-tls` });
        const text = componentText(rendered, sts);
        for (const file of ['ca.crt', 'tls.crt', 'tls.key']) {
          expect({ secret, names: text.includes(`${at}/${file}`) ? file : `no ${file}` }).toEqual({ secret, names: file });
        }
      }
    });

    test('each allowed Common Name list the library writes reaches its component\'s configuration as the operator writes it', () => {
      const lists = library.filter((o) => o.kind === 'DatabaseCluster' || o.kind === 'MigrationCluster').flatMap((o) => allowedCommonNameLists(o));
      expect(lists.length).toBeGreaterThanOrEqual(deployed().filter((c) => c.token !== 'mig-master').length);
      for (const { entry, path: at, value } of lists) {
        // spec.<key>.config.<document…>.<key>: in the operator's files, the path below the configuration (and below the document, for the columnar's two).
        const below = entry.token === 'columnar' ? at.slice(4) : at.slice(3);
        const found = inDocuments(configDocuments(rendered, `${cluster}-${COMPONENT_NAMES[entry.token]}`), below);
        expect({ list: at.join('.'), found }).toEqual({ list: at.join('.'), found: value });
      }
    });

    test('the user\'s own configuration is kept beside the library\'s settings', () => {
      for (const [token, config] of Object.entries(d.userConfig) as [ComponentToken, Record<string, unknown>][]) {
        const documents = configDocuments(rendered, `${cluster}-${COMPONENT_NAMES[token]}`);
        // Columnar's configuration is two documents, each of its own keys.
        const given = token === 'columnar' ? Object.values(config).flatMap((document) => Object.entries(document as object)) : Object.entries(config);
        for (const [key, value] of given) {
          // The operator adds defaults of its own beside the user's (the SQL server's log.file.max-backups).
          expect({ token, key, found: inDocuments(documents, [key]) }).toMatchObject({ token, key, found: value });
        }
      }
    });

    test('the coordinator and the store mount the cluster\'s client Secret where the runbook\'s client tools read it, unless told not to', () => {
      const mounted = database().spec.coordinator.mountClusterClientSecret !== false;
      for (const real of ['pd', 'tikv']) {
        const at = secretMounts(rendered.statefulSets.get(`${cluster}-${real}`)).get(MOUNT_PATHS.clusterClientTls);
        expect({ real, at }).toEqual({ real, at: mounted ? names.clientSecretName(cluster, 'database' as never) : undefined });
      }
    });

    test('the changefeed mounts each sink Secret where sinkTlsFiles says; the migration members each upstream and target Secret where the migration files say', () => {
      const sinks: string[] = database().spec.changefeed?.tlsClientSecretNames ?? [];
      if (sinks.length > 0) {
        const ticdc = secretMounts(rendered.statefulSets.get(`${cluster}-ticdc`));
        for (const sink of sinks) {
          expect(ticdc.get(`${MOUNT_PATHS.sinkTls}/${sink}`)).toBe(sink);
        }
      }
      // The folders the migration files read from are the Secrets the resource lists, one each.
      const external: string[] = migration()?.spec.tlsClientSecretNames ?? [];
      expect([...new Set(migrationTlsFolders)].sort()).toEqual(external.map((name) => `${MOUNT_PATHS.externalTls}/${name}`).sort());
      for (const real of migration() ? ['dm-master', 'dm-worker'] : []) {
        const mounts = secretMounts(rendered.statefulSets.get(`${cluster}-${real}`));
        for (const folder of migrationTlsFolders) {
          expect({ real, folder, mounts: mounts.get(folder) }).toEqual({ real, folder, mounts: path.basename(folder) });
        }
      }
    });

    test('the SQL server serves its MySQL port with the SQL server Secret the plan names, when applications use TLS', () => {
      const secret = operatorName(names.sqlServerSecretName(cluster), cluster);
      const mounts = secretMounts(rendered.statefulSets.get(`${cluster}-tidb`));
      const at = [...mounts].find(([, n]) => n === secret)?.[0];
      const security = inDocuments(configDocuments(rendered, `${cluster}-tidb`), ['security']) as Record<string, string>;
      if (database().spec.sqlserver.tlsClient?.enabled) {
        expect(at).toBeDefined();
        expect({ 'ssl-cert': security['ssl-cert'], 'ssl-key': security['ssl-key'] }).toEqual({ 'ssl-cert': `${at}/tls.crt`, 'ssl-key': `${at}/tls.key` });
      } else {
        expect({ at, 'ssl-cert': security?.['ssl-cert'] }).toEqual({ at: undefined, 'ssl-cert': undefined });
      }
    });
  });
}));
