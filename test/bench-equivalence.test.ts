import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import * as YAML from 'yaml';
import { LONG_TENANT, buildDeployments, buildTenant, tenantNamespace } from '../bench/deployment';
import { compileTemplate, makeTemplate } from '../bench/floor';
import { manifestFileName, renderApp, synthesize } from '../lib/synthesize';
import { TlsDatabaseCluster } from '../lib/tls-database-cluster';
import { expectValidAgainstCrds } from './_crds';
import { findObject } from './_find';

// The library's yaml, with parseAllDocuments observable (cdk8s serializes with a copy of its own).
jest.mock('yaml', () => {
  const actual = jest.requireActual('yaml');
  return { ...actual, parseAllDocuments: jest.fn(actual.parseAllDocuments) };
});

/** The manifest files stock cdk8s writes for an app, by file name. */
function stockManifests(build: (outdir: string) => App): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-stock-'));
  build(dir).synth();
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

/** The manifest files renderApp renders for an app, by file name. */
function renderedManifests(app: App): Record<string, string> {
  return Object.fromEntries(renderApp(app).files.filter((f) => f.path.endsWith('.k8s.yaml')).map((f) => [f.path, f.content]));
}

/** Builds the same app twice, renders one and synthesizes the other with stock cdk8s, and compares. */
function expectSameAsStock(build: (outdir?: string) => App): Record<string, string> {
  const ours = renderedManifests(build());
  const stock = stockManifests(build);
  expect(Object.keys(ours).sort()).toEqual(Object.keys(stock));
  for (const [file, content] of Object.entries(stock)) {
    expect(`${file}:\n${ours[file]}`).toBe(`${file}:\n${content}`);
  }
  return ours;
}

const object = (scope: Construct, id: string) => new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id } });

describe('many charts render as stock cdk8s synthesizes them', () => {
  test('three complete tenant deployments: same files, same bytes, same order', () => {
    const manifests = expectSameAsStock((outdir) => buildDeployments(3, outdir));
    expect(Object.keys(manifests)).toEqual(['0', '1', '2'].flatMap((i) => [`tenant-${i}.k8s.yaml`, `tenant-${i}-backup.k8s.yaml`, `tenant-${i}-restore.k8s.yaml`]));
  });

  test('every object of a deployment is valid against the CRDs', () => {
    const rendered = renderApp(buildDeployments(2));
    const manifests = rendered.objects.map((o) => o.manifest);
    expectValidAgainstCrds(manifests.filter((m) => m.apiVersion.startsWith('cert-manager.io') || m.apiVersion.startsWith('db.operator.io')));
    expect(findObject(manifests.filter((m) => m.metadata.namespace === 'tenant-1'), 'DatabaseCluster', 'basic').spec.tlsCluster.enabled).toBe(true);
    expect(rendered.files.map((f) => f.path)).toContain('tenant-1/basic/drainer-binlog-values.yaml');
  });

  test('objects come after what they depend on, even when declared first', () => {
    expectSameAsStock((outdir) => {
      const app = new App({ outdir });
      const chart = new Chart(app, 'demo');
      const late = object(chart, 'late');
      const middle = object(chart, 'middle');
      const early = object(chart, 'early');
      late.node.addDependency(middle);
      middle.node.addDependency(early);
      const group = new Construct(chart, 'group');
      object(group, 'a');
      object(group, 'b');
      early.node.addDependency(group);
      return app;
    });
  });

  test('charts that depend on each other get indexed file names in dependency order', () => {
    const manifests = expectSameAsStock((outdir) => {
      const app = new App({ outdir });
      const second = new Chart(app, 'second');
      const first = new Chart(app, 'first');
      object(second, 'user').node.addDependency(object(first, 'base'));
      new Chart(app, 'alone');
      return app;
    });
    expect(Object.keys(manifests).sort()).toEqual(['0000-first.k8s.yaml', '0001-second.k8s.yaml', '0002-alone.k8s.yaml']);
  });

  test('nested charts and charts with numeric ids keep the stock order', () => {
    expectSameAsStock((outdir) => {
      const app = new App({ outdir });
      const outer = new Chart(app, 'outer');
      object(new Chart(outer, 'inner'), 'x');
      object(outer, 'y');
      return app;
    });
    const numeric = (outdir?: string) => {
      const app = new App({ outdir });
      for (const id of ['b', '10', 'a', '2']) {
        object(new Chart(app, id), `obj${id}`);
      }
      object(new Chart(new Construct(app, '7'), 'x'), 'objx');
      return app;
    };
    const manifests = expectSameAsStock(numeric);
    expect(Object.keys(manifests)).toEqual(numeric().charts.map(manifestFileName));
  });

  test('a dependency cycle is reported as stock cdk8s reports it', () => {
    const app = new App();
    object(new Chart(app, 'first'), 'fine');
    const chart = new Chart(app, 'demo');
    const a = object(chart, 'a');
    const b = object(chart, 'b');
    const c = object(chart, 'c');
    a.node.addDependency(b);
    b.node.addDependency(a);
    c.node.addDependency(c);
    expect(() => renderApp(app)).toThrow('Dependency cycle detected: demo/a => demo/b => demo/a');
  });
});

describe('the benchmark floor', () => {
  test('writes exactly the files the library writes, for every tenant', () => {
    const sample = (i: number) => ({ rendered: renderApp(buildTenant(i)), namespace: tenantNamespace(i) });
    const template = makeTemplate([sample(0), sample(LONG_TENANT)]);
    const tenant = compileTemplate(template);
    const floor = [0, 1, 2, 3].flatMap((i) => tenant(tenantNamespace(i)));
    const library = renderApp(buildDeployments(4)).files;
    const byPath = (files: typeof library) => Object.fromEntries(files.map((f) => [f.path, f]));
    expect(byPath(floor)).toEqual(byPath(library));
    expect(template.files.map((f) => f.kind)).toContain('yaml');
  });
});

describe('re-synthesizing over the committed output', () => {
  const outdir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-resynth-')), 'dist');

  test('manifests that did not change are not parsed again', () => {
    const dir = outdir();
    synthesize(buildDeployments(2, dir));
    const parse = jest.mocked(YAML.parseAllDocuments);
    parse.mockClear();
    synthesize(buildDeployments(2, dir));
    // Only the two drainer values files, whose drainerName is compared.
    expect(parse.mock.calls.map(([text]) => String(text).split('\n')[0])).toEqual([
      expect.stringMatching(/^# Values of the drainer chart/),
      expect.stringMatching(/^# Values of the drainer chart/),
    ]);
  });

  test('a manifest that changed is still read and checked', () => {
    const dir = outdir();
    const app = (enabled: boolean) => {
      const a = new App({ outdir: dir });
      const db = new TlsDatabaseCluster(new Chart(a, 'demo', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5' });
      if (!enabled) {
        db.resource.addJsonPatch(JsonPatch.replace('/spec/tlsCluster/enabled', false));
      }
      return a;
    };
    synthesize(app(true));
    expect(() => synthesize(app(false), { acknowledgeRecreation: [] })).toThrow(/tlsCluster\.enabled: received false; expected true as in the committed demo\.k8s\.yaml/);
  });
});
