import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart, YamlOutputType } from 'cdk8s';
import * as fc from 'fast-check';
import {
  OutputPath, cfsslFolder, databaseRunbookPath, defaultMembersFile, defaultRecordFile, drainerValuesPath, enablementRunbookPath, membersFileFromOutputFolder,
  expiryExporterValuesPath, migrationRunbookPath, migrationSourcePath, migrationTaskPath, mountClientSecretPatchPath, operationPath, parseOutputPath, requiredSecretsPath, tlsPlanPath,
} from '../lib/model/output-layout';
import { renderApp, synthesize } from '../lib/synth/synthesize';
import { ClusterTlsError, TlsDatabaseCluster } from '../lib';
import { buildApp } from '../main';

describe('the output layout', () => {
  test('spells every path as the README lists it', () => {
    expect({
      plan: tlsPlanPath('demo', 'basic'),
      required: requiredSecretsPath('demo', 'basic'),
      cfssl: cfsslFolder('demo', 'basic'),
      runbook: databaseRunbookPath('demo', 'basic'),
      patch: mountClientSecretPatchPath('demo', 'basic'),
      values: drainerValuesPath('demo', 'basic', 'binlog'),
      source: migrationSourcePath('demo', 'basic', 'source1'),
      task: migrationTaskPath('demo', 'basic'),
      migrationRunbook: migrationRunbookPath('demo', 'basic'),
      enablementRunbook: enablementRunbookPath('demo', 'basic'),
      members: membersFileFromOutputFolder('demo', 'basic'),
      membersBeside: defaultMembersFile('/work/app/dist', 'demo', 'basic'),
      record: defaultRecordFile('/work/app/dist'),
    }).toEqual({
      plan: 'demo/basic/tls-plan.json',
      required: 'demo/basic/required-secrets.md',
      cfssl: 'demo/basic/cfssl',
      runbook: 'demo/basic/database-runbook.md',
      patch: 'demo/basic/mount-client-secret.patch.yaml',
      values: 'demo/basic/drainer-binlog-values.yaml',
      source: 'demo/basic/migration/source1.yaml',
      task: 'demo/basic/migration/task.yaml',
      migrationRunbook: 'demo/basic/migration-runbook.md',
      enablementRunbook: 'demo/basic/enablement-runbook.md',
      members: '../cluster-tls-members.demo.basic.txt',
      membersBeside: '/work/app/cluster-tls-members.demo.basic.txt',
      record: '/work/app/cluster-tls.lock.json',
    });
  });

  test('reads back what each builder writes, for any names', () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,30}[a-z0-9]$/);
    fc.assert(fc.property(label, label, label, (ns, cluster, name) => {
      const at = { namespace: ns, clusterName: cluster };
      const cases: [string, OutputPath][] = [
        [tlsPlanPath(ns, cluster), { file: 'tls-plan', ...at }],
        [requiredSecretsPath(ns, cluster), { file: 'required-secrets', ...at }],
        [`${cfsslFolder(ns, cluster)}/ca-csr.json`, { file: 'cfssl', ...at, name: 'ca-csr.json' }],
        [databaseRunbookPath(ns, cluster), { file: 'database-runbook', ...at }],
        [mountClientSecretPatchPath(ns, cluster), { file: 'mount-client-secret-patch', ...at }],
        [drainerValuesPath(ns, cluster, name), { file: 'drainer-values', ...at, releaseName: name }],
        [migrationTaskPath(ns, cluster), { file: 'migration-task', ...at }],
        [migrationRunbookPath(ns, cluster), { file: 'migration-runbook', ...at }],
        [enablementRunbookPath(ns, cluster), { file: 'enablement-runbook', ...at }],
        [expiryExporterValuesPath(ns, cluster), { file: 'expiry-exporter-values', ...at }],
        [operationPath(ns, cluster, name), { file: 'operation', ...at, name }],
      ];
      if (name !== 'task') {
        cases.push([migrationSourcePath(ns, cluster, name), { file: 'migration-source', ...at, sourceId: name }]);
      }
      for (const [path, expected] of cases) {
        expect({ path, is: parseOutputPath(path) }).toEqual({ path, is: expected });
      }
    }), { numRuns: 200 });
  });

  test('every file the reference app writes is a path of the layout', () => {
    const unknown = renderApp(buildApp()).files.filter((f) => parseOutputPath(f.path) === undefined).map((f) => f.path);
    expect(unknown).toEqual([]);
  });

  test('manifests are recognised at the root and one folder down, with the app\'s extension, and nothing else is', () => {
    for (const yamlOutputType of [YamlOutputType.FILE_PER_RESOURCE, YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE]) {
      const app = new App({ yamlOutputType, outputFileExtension: '.yaml' });
      const chart = new Chart(app, 'demo');
      new ApiObject(chart, 'config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
      const paths = renderApp(app).files.map((f) => f.path);
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.filter((p) => parseOutputPath(p, '.yaml')?.file !== 'manifest')).toEqual([]);
    }
    expect(parseOutputPath('0000-demo/DatabaseCluster.basic.k8s.yaml')).toEqual({ file: 'manifest' });
    expect(parseOutputPath('demo/basic/drainer-binlog-values.yaml', '.yaml')).toEqual({ file: 'drainer-values', namespace: 'demo', clusterName: 'basic', releaseName: 'binlog' });
    expect(parseOutputPath('.cluster-tls-output')).toEqual({ file: 'marker' });
    expect(parseOutputPath('.cluster-tls-output.json')).toBeUndefined();
    expect(parseOutputPath('construct-metadata.json')).toEqual({ file: 'construct-metadata' });
    for (const other of ['notes.md', 'demo/basic/notes.md', 'demo/basic/migration/readme.md', 'demo/basic/cfssl/x/y.json', 'demo/values.yaml']) {
      expect({ other, is: parseOutputPath(other) }).toEqual({ other, is: undefined });
    }
  });
});

describe('a chart named after a file the output writes', () => {
  const build = (dir: string, recordConstructMetadata: boolean, chartId: string) => {
    const app = new App({ outdir: dir, outputFileExtension: '.json', recordConstructMetadata });
    const chart = new Chart(app, chartId, { namespace: 'demo' });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v7.5.0' });
    return app;
  };
  const files = (dir: string) => Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));

  test.each([true, false])('is refused in one line before anything is written, the construct metadata recorded: %s', (recorded) => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-reserved-')), 'dist');
    synthesize(build(dir, recorded, 'demo'));
    const before = files(dir);
    expect(() => synthesize(build(dir, recorded, 'construct-metadata'))).toThrow(new ClusterTlsError(
      'construct-metadata: manifest file: received "construct-metadata.json", the name of the construct metadata the app may record; '
      + 'expected a name of its own: give the chart or object another name, or choose another outputFileExtension'));
    expect(files(dir)).toEqual(before);
  });
});
