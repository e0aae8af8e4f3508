import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as semver from 'semver';
import { ApiObject, App, AppProps, Chart, YamlOutputType } from 'cdk8s';
import { Construct } from 'constructs';
import { LONG_TENANT, buildDeployments, buildTenant, tenantNamespace } from '../bench/deployment';
import { compileTemplate, makeTemplate } from '../bench/floor';
import { manifestFileName } from '../lib/model/output-layout';
import { renderApp } from '../lib/synth/synthesize';
import { MANIFESTS_ONLY_CONTEXT } from '../lib/app/registry';
import { expectValidAgainstCrds } from './_crds';
import { findObject } from './_find';

/** An app that stock `app.synth()` writes (the library's synthesis takes its place otherwise). */
function manifestsOnlyApp(props: AppProps = {}): App {
  const app = new App(props);
  app.node.setContext(MANIFESTS_ONLY_CONTEXT, true);
  return app;
}

/** Every file stock cdk8s writes for an app, by path below its output folder. */
function stockFiles(build: (outdir: string) => App): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-stock-'));
  build(dir).synth();
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
  return Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

/** The files renderApp renders for an app that stock cdk8s writes too, by path. */
function renderedManifests(app: App): Record<string, string> {
  const { files, manifestFiles } = renderApp(app);
  return Object.fromEntries(files.slice(0, manifestFiles).map((f) => [f.path, f.content]));
}

/** Builds the same app twice, renders one and synthesizes the other with stock cdk8s, and compares. */
function expectSameAsStock(build: (outdir?: string) => App): Record<string, string> {
  const ours = renderedManifests(build());
  const stock = stockFiles(build);
  expect(Object.keys(ours).sort()).toEqual(Object.keys(stock));
  for (const [file, content] of Object.entries(stock)) {
    expect(`${file}:\n${ours[file]}`).toBe(`${file}:\n${content}`);
  }
  return ours;
}

const object = (scope: Construct, id: string) => new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id } });

describe('many charts render as stock cdk8s synthesizes them', () => {
  test('three complete tenant deployments: same files, same bytes, same order', () => {
    const manifests = expectSameAsStock((outdir) => buildDeployments(3, outdir, {}, true));
    expect(Object.keys(manifests)).toEqual(['0', '1', '2'].map((i) => `tenant-${i}.k8s.yaml`));
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
      const app = manifestsOnlyApp({ outdir });
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
      const app = manifestsOnlyApp({ outdir });
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
      const app = manifestsOnlyApp({ outdir });
      const outer = new Chart(app, 'outer');
      object(new Chart(outer, 'inner'), 'x');
      object(outer, 'y');
      return app;
    });
    const numeric = (outdir?: string) => {
      const app = manifestsOnlyApp({ outdir });
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

  test('a cycle reached from an object outside it is reported as stock cdk8s reports it', () => {
    const build = () => {
      const app = manifestsOnlyApp();
      const chart = new Chart(app, 'demo');
      const a = object(chart, 'a');
      const b = object(chart, 'b');
      object(chart, 'root').node.addDependency(a);
      a.node.addDependency(b);
      b.node.addDependency(a);
      return app;
    };
    let stock: unknown;
    try {
      build().synth();
    } catch (e) {
      stock = e;
    }
    expect(stock).toBeInstanceOf(Error);
    expect(() => renderApp(build())).toThrow((stock as Error).message);
  });
});

describe('the cdk8s this equivalence proves', () => {
  test('is pinned to one minor version, and the installed one is in it', () => {
    // The renderer re-creates App.synth()'s layout, order and a private field: a new cdk8s minor
    // version must be proven by these tests, then pinned here and in package.json (the peer
    // dependency a consumer's app must satisfy, and the development dependency these tests run).
    const { peerDependencies, devDependencies } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
    const range: string = peerDependencies.cdk8s;
    expect(devDependencies.cdk8s).toBe(range);
    const installed: string = JSON.parse(fs.readFileSync(require.resolve('cdk8s/package.json'), 'utf8')).version;
    expect({ range, pinsOneMinor: semver.validRange(range) === semver.validRange(`~${semver.minVersion(range)}`) }).toEqual({ range, pinsOneMinor: true });
    expect({ installed, inRange: semver.satisfies(installed, range) }).toEqual({ installed, inRange: true });
  });
});

describe('every App option a user can set renders as stock cdk8s writes it, byte for byte', () => {
  const TYPES = [YamlOutputType.FILE_PER_CHART, YamlOutputType.FILE_PER_APP, YamlOutputType.FILE_PER_RESOURCE, YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE];
  /** A tenant, and optionally two charts that depend on each other, which makes stock cdk8s index chart files and folders. */
  const tenant = (props: AppProps, dependent: boolean) => (outdir?: string) => {
    const app = buildDeployments(1, outdir, props, true);
    if (dependent) {
      const second = new Chart(app, 'second');
      const first = new Chart(app, 'first');
      object(second, 'user').node.addDependency(object(first, 'base'));
    }
    return app;
  };
  for (const yamlOutputType of TYPES) {
    for (const outputFileExtension of ['.k8s.yaml', '.yaml']) {
      for (const recordConstructMetadata of [false, true]) {
        for (const dependent of [false, true]) {
          const name = `${YamlOutputType[yamlOutputType]}, ${outputFileExtension}, ${recordConstructMetadata ? 'with' : 'without'} construct metadata`
            + `${dependent ? ', charts that depend on each other' : ''}`;
          test(name, () => {
            const files = expectSameAsStock(tenant({ yamlOutputType, outputFileExtension, recordConstructMetadata }, dependent));
            expect(Object.keys(files).length).toBeGreaterThan(recordConstructMetadata ? 1 : 0);
          });
        }
      }
    }
  }

  test('the construct metadata follows CDK8S_RECORD_CONSTRUCT_METADATA, which the cdk8s CLI sets', () => {
    process.env.CDK8S_RECORD_CONSTRUCT_METADATA = 'true';
    try {
      expect(Object.keys(expectSameAsStock(tenant({}, false)))).toContain('construct-metadata.json');
    } finally {
      delete process.env.CDK8S_RECORD_CONSTRUCT_METADATA;
    }
  });

  test('two objects that stock cdk8s would write to one file, the second silently replacing the first, are refused', () => {
    const app = buildDeployments(2, undefined, { yamlOutputType: YamlOutputType.FILE_PER_RESOURCE });
    expect(() => renderApp(app)).toThrow(/^tenant-1\/basic-certificates\/\S+: manifest file: received "[^"]+\.k8s\.yaml" a second time \(tenant-0\/basic-certificates\/\S+ is written there too, and stock cdk8s would keep only the last\); expected one file per path: give the charts or objects distinct names, or choose another yamlOutputType$/);
  });

  test('an output type cdk8s does not have is refused with one line', () => {
    const app = new App({ yamlOutputType: 7 as YamlOutputType });
    object(new Chart(app, 'demo'), 'x');
    expect(() => renderApp(app)).toThrow('app: yamlOutputType: received 7; expected one of cdk8s\'s YamlOutputType values (FILE_PER_APP, FILE_PER_CHART, FILE_PER_RESOURCE, FOLDER_PER_CHART_FILE_PER_RESOURCE)');
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
