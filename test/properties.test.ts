import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { ClusterCertificates, ClusterTlsError, ComponentToken, IssuingMethod, TlsDatabaseCluster, renderApp, synthesize } from '../lib';
import { crdErrors } from './_crds';

const label = (min: number, max: number) => fc.stringMatching(new RegExp(`^[a-z]([a-z0-9-]{${min - 2},${max - 2}})[a-z0-9]$`));
/** Cluster names short enough for every derived name ("-coordinator-peer" adds 17 characters). */
const clusterName = label(2, 46);
const namespace = label(2, 63);
const optional = fc.record({ changefeed: fc.boolean(), columnar: fc.boolean() });
const version = fc.tuple(fc.integer({ min: 4, max: 9 }), fc.nat(20), fc.integer({ min: 5, max: 30 })).map(([a, b, c]) => `v${a}.${b}.${c}`);
/**
 * How the drainer chart is named: by `drainerName`, by the release name alone, or by both (then
 * `drainerName` wins). Release names stay short enough for `<cluster>-<release>-drainer` (63).
 */
const drainerNaming = fc.oneof(
  fc.record({ drainerName: label(2, 63) }),
  fc.record({ releaseName: label(2, 8) }),
  fc.record({ releaseName: label(2, 8), drainerName: label(2, 63) }),
);

/** Where a certificate's names come from; `drainerName` and `releaseName` matter to the drainer only. */
interface At {
  readonly cluster: string;
  readonly ns: string;
  readonly drainerName?: string;
  readonly releaseName?: string;
}

/** The row of the components with a service and a peer service: nine names, three of them wildcards. */
const withPeer = (c: string) => ({ cluster, ns }: At) => [
  `${cluster}-${c}`, `${cluster}-${c}.${ns}`, `${cluster}-${c}.${ns}.svc`,
  `${cluster}-${c}-peer`, `${cluster}-${c}-peer.${ns}`, `${cluster}-${c}-peer.${ns}.svc`,
  `*.${cluster}-${c}-peer`, `*.${cluster}-${c}-peer.${ns}`, `*.${cluster}-${c}-peer.${ns}.svc`,
];

/**
 * The specification's host-name table ("Host names on server certificates"), one row per
 * component, spelled out here rather than taken from the library, in the order the table lists
 * the names. The specification asks for the names, not an order; the library promises the
 * table's order (`hostNames`), and this test holds it to that.
 */
const HOST_NAME_TABLE: { readonly [token in ComponentToken]: (at: At) => string[] } = {
  'mig-master': withPeer('mig-master'),
  'mig-worker': withPeer('mig-worker'),
  'coordinator': withPeer('coordinator'),
  'store': withPeer('store'),
  'sqlserver': withPeer('sqlserver'),
  'changefeed': withPeer('changefeed'),
  'columnar': withPeer('columnar'),
  'pump': ({ cluster, ns }) => [`*.${cluster}-pump`, `*.${cluster}-pump.${ns}`, `*.${cluster}-pump.${ns}.svc`],
  'drainer': ({ cluster, ns, drainerName, releaseName }) => (drainerName !== undefined
    ? [`*.${drainerName}`, `*.${drainerName}.${ns}`, `*.${drainerName}.${ns}.svc`]
    : [`*.${cluster}-${releaseName}-drainer`, `*.${cluster}-${releaseName}-drainer.${ns}`, `*.${cluster}-${releaseName}-drainer.${ns}.svc`]),
  'importer': ({ cluster, ns }) => [
    `${cluster}-importer`, `${cluster}-importer.${ns}`, `${cluster}-importer.${ns}.svc`,
    `*.${cluster}-importer`, `*.${cluster}-importer.${ns}`, `*.${cluster}-importer.${ns}.svc`,
  ],
  'lightning': ({ cluster, ns }) => [`${cluster}-lightning`, `${cluster}-lightning.${ns}`, `${cluster}-lightning.${ns}.svc`],
  // The operator's own e2e certificate of the discovery server names these three (v1.6.6, tests/e2e/tidbcluster).
  'discovery': ({ cluster, ns }) => [`${cluster}-discovery`, `${cluster}-discovery.${ns}`, `${cluster}-discovery.${ns}.svc`],
};

/** IP addresses on every server certificate; the command-line method puts them first in `hosts`. */
const IP_ADDRESSES = ['127.0.0.1', '::1'];

function build(name: string, ns: string, opts: { changefeed: boolean; columnar: boolean }, v: string): App {
  const app = new App({ outdir: 'unused' });
  const chart = new Chart(app, 'c', { namespace: ns });
  new TlsDatabaseCluster(chart, 'db', {
    clusterName: name, version: v, changefeed: opts.changefeed ? {} : undefined, columnar: opts.columnar ? {} : undefined,
  });
  return app;
}

describe('every valid input', () => {
  test('yields objects that validate against crds/ and certificates that match the host-name table', () => {
    fc.assert(fc.property(clusterName, namespace, optional, version, (name, ns, opts, v) => {
      const { objects } = renderApp(build(name, ns, opts, v));
      const manifests = objects.map((o) => o.manifest);
      expect(manifests.flatMap((m) => crdErrors(m))).toEqual([]);
      const tokens: ComponentToken[] = ['coordinator', 'store', 'sqlserver', 'pump',
        ...(opts.changefeed ? ['changefeed' as const] : []), ...(opts.columnar ? ['columnar' as const] : [])];
      const servers = manifests.filter((m) => m.kind === 'Certificate' && m.spec.usages?.includes('server auth'));
      expect(servers.map((m) => m.metadata.name).sort()).toEqual(tokens.map((t) => `${name}-${t}-cluster-secret`).sort());
      for (const token of tokens) {
        const cert = servers.find((m) => m.metadata.name === `${name}-${token}-cluster-secret`);
        expect(cert.spec.dnsNames).toEqual(HOST_NAME_TABLE[token]({ cluster: name, ns }));
        expect(cert.spec.ipAddresses).toEqual(IP_ADDRESSES);
      }
    }), { numRuns: 60 });
  });

  test('every component, by either issuing method, gets the names of its row of the host-name table', () => {
    const all: ComponentToken[] = ['mig-master', 'mig-worker', 'coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar', 'importer', 'lightning'];
    const method = fc.constantFrom(IssuingMethod.CERT_MANAGER, IssuingMethod.CFSSL);
    fc.assert(fc.property(clusterName, namespace, drainerNaming, method, (name, ns, drainer, how) => {
      const app = new App({ outdir: 'unused' });
      const certs = new ClusterCertificates(new Chart(app, 'c', { namespace: ns }), 'certs', { clusterName: name, method: how, components: all });
      certs.addComponent('drainer', drainer);
      const { objects, files } = renderApp(app);
      for (const token of [...all, 'drainer' as const]) {
        const names = HOST_NAME_TABLE[token]({ cluster: name, ns, ...drainer });
        if (how === IssuingMethod.CERT_MANAGER) {
          const cert = objects.map((o) => o.manifest).find((m) => m.kind === 'Certificate' && m.metadata.name === `${name}-${token}-cluster-secret`);
          expect(cert?.spec.dnsNames).toEqual(names);
          expect(cert?.spec.ipAddresses).toEqual(IP_ADDRESSES);
        } else {
          const csr = files.filter((f) => f.path.endsWith(`/cfssl/${token}-server.json`));
          expect(csr).toHaveLength(1);
          expect(JSON.parse(csr[0].content).hosts).toEqual([...IP_ADDRESSES, ...names]);
        }
      }
    }), { numRuns: 40 });
  });
});

describe('every invalid input', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-prop-'));
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));
  const malformed = [
    fc.constant(''),
    fc.stringMatching(/^[A-Z][a-z]{1,10}$/),
    fc.stringMatching(/^[a-z]{1,10}_[a-z]{1,10}$/),
    fc.stringMatching(/^-[a-z]{1,10}$/),
  ];
  /** Too long once "-coordinator-peer" (17 characters) is appended. */
  const badName = fc.oneof(...malformed, fc.stringMatching(/^[a-z]{47,70}$/));
  const badNamespace = fc.oneof(...malformed, fc.stringMatching(/^[a-z]{64,80}$/));
  const badVersion = fc.oneof(
    fc.stringMatching(/^[0-9]\.[0-9]\.[0-9]$/),
    fc.stringMatching(/^v[0-9]{1,2}\.[0-9]{1,2}$/),
    fc.constant('latest'),
    fc.constant('v4.0.4'),
  );

  test('yields a one-line ClusterTlsError and leaves the committed output untouched', () => {
    const dir = path.join(parent, 'dist');
    synthesize(build('basic', 'demo', { changefeed: true, columnar: true }, 'v4.0.5'), { outdir: dir });
    const before = fs.readFileSync(path.join(dir, 'c.k8s.yaml'), 'utf8');
    const cases = fc.oneof(
      fc.tuple(badName, fc.constant('demo'), fc.constant('v4.0.5')),
      fc.tuple(fc.constant('basic'), badNamespace, fc.constant('v4.0.5')),
      fc.tuple(fc.constant('basic'), fc.constant('demo'), badVersion),
    );
    fc.assert(fc.property(cases, ([name, ns, v]) => {
      let error: unknown;
      try {
        synthesize(build(name, ns, { changefeed: true, columnar: true }, v), { outdir: dir });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ClusterTlsError);
      expect((error as Error).message).toMatch(/^c\/db(\/Certificates)?: (clusterName|namespace|version): received .*; expected .+$/);
      expect((error as Error).message).not.toContain('\n');
      expect(fs.readFileSync(path.join(dir, 'c.k8s.yaml'), 'utf8')).toBe(before);
    }), { numRuns: 80 });
  });
});
