import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { ClusterTlsError, TlsDatabaseCluster, hostNames, renderApp, synthesize } from '../lib';
import { crdErrors } from './_crds';

const label = (min: number, max: number) => fc.stringMatching(new RegExp(`^[a-z]([a-z0-9-]{${min - 2},${max - 2}})[a-z0-9]$`));
/** Cluster names short enough for every derived name ("-coordinator-peer" adds 17 characters). */
const clusterName = label(2, 46);
const namespace = label(2, 63);
const optional = fc.record({ changefeed: fc.boolean(), columnar: fc.boolean() });
const version = fc.tuple(fc.integer({ min: 4, max: 9 }), fc.nat(20), fc.integer({ min: 5, max: 30 })).map(([a, b, c]) => `v${a}.${b}.${c}`);

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
      const servers = manifests.filter((m) => m.kind === 'Certificate' && m.spec.usages?.includes('server auth'));
      expect(servers.length).toBe(4 + Number(opts.changefeed) + Number(opts.columnar));
      for (const cert of servers) {
        const token = cert.metadata.name.slice(name.length + 1, -'-cluster-secret'.length);
        expect(cert.spec.dnsNames).toEqual(hostNames(token, { clusterName: name, namespace: ns }));
      }
    }), { numRuns: 60 });
  });
});

describe('every invalid input', () => {
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
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-prop-')), 'dist');
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
