/**
 * The bounds of `lib/model/limits.ts`, each held where its kind of value is taken: a document
 * within what its consumer holds, a path within PATH_MAX, the sources of a migration within what
 * the migration tool's master writes in one transaction. Every refusal is one line naming the
 * construct, the field, the size received and the bound.
 */
import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { DrainerRelease } from '../lib/clusters/drainer-release';
import { TlsMigrationCluster, TlsMigrationClusterProps } from '../lib/clusters/tls-migration-cluster';
import { CONFIG_MAP_DATA_MAX, FILE_MAX, MIGRATION_SOURCES_MAX, PATH_MAX, TEXT_LIMITS } from '../lib/model/limits';
import { OutputFile } from '../lib/app/output-file';
import { renderApp } from '../lib/synth/synthesize';
import { refusal } from './_refusal';

const chart = () => new Chart(Testing.app(), 'demo', { namespace: 'demo' });

describe('the bounds, by kind', () => {
  test('each kind has the number of its source', () => {
    expect(CONFIG_MAP_DATA_MAX).toBe(1_048_576);
    expect(TEXT_LIMITS.configMapData).toMatchObject({ max: 1_048_576, unit: 'bytes' });
    expect(TEXT_LIMITS.path).toMatchObject({ max: PATH_MAX - 1, unit: 'bytes' });
    expect(TEXT_LIMITS.file).toMatchObject({ max: 64 * 1024 * 1024, unit: 'bytes' });
    expect(TEXT_LIMITS.text).toMatchObject({ max: 4096, unit: 'characters' });
    expect(TEXT_LIMITS.text.max).toBe(4096);
  });
});

describe('a document is held to what its consumer holds', () => {
  test('a file\'s content of 4,097 characters is taken: a file is no name', () => {
    const scope = chart();
    expect(() => new OutputFile(scope, 'Task', { path: 'demo/task.yaml', content: 'x'.repeat(TEXT_LIMITS.text.max + 1) })).not.toThrow();
  });

  test('a file\'s content over the file bound is refused by its size in bytes, given or rendered', () => {
    const big = 'x'.repeat(FILE_MAX + 1);
    expect(refusal(() => new OutputFile(chart(), 'Task', { path: 'demo/task.yaml', content: big })))
      .toBe(`demo/Task: content: received a document of ${FILE_MAX + 1} bytes; expected at most ${FILE_MAX} bytes of UTF-8, the largest file of the files folder the library reads back (64 MiB)`);
    const scope = chart();
    new OutputFile(scope, 'Runbook', { path: 'demo/runbook.md', content: { render: () => big } });
    expect(refusal(() => renderApp(scope.node.root as any)))
      .toBe(`demo/Runbook: content: received a document of ${FILE_MAX + 1} bytes; expected at most ${FILE_MAX} bytes of UTF-8, the largest file of the files folder the library reads back (64 MiB)`);
  });

  test('the drainer\'s configuration is held to a ConfigMap\'s 1 MiB, counted in bytes of UTF-8', () => {
    const scope = Testing.chart();
    const cluster = new TlsDatabaseCluster(scope, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5' });
    // 'é' is two bytes of UTF-8: half a MiB of it and one more character is one byte over, in fewer characters than the bound.
    const config = `#${'é'.repeat(CONFIG_MAP_DATA_MAX / 2)}`;
    expect(Buffer.byteLength(config)).toBe(CONFIG_MAP_DATA_MAX + 1);
    expect(refusal(() => new DrainerRelease(new Construct(scope, 'early'), 'drainer', { cluster, releaseName: 'binlog', chart: { version: '1.1.0' }, config })))
      .toBe(`test/early/drainer: config: received a document of ${CONFIG_MAP_DATA_MAX + 1} bytes; expected at most ${CONFIG_MAP_DATA_MAX} bytes of UTF-8, what the data of a ConfigMap or Secret holds in total (1 MiB)`);
  });
});

describe('a path is held to PATH_MAX', () => {
  test('a file\'s path of PATH_MAX bytes is refused; one byte less is taken', () => {
    const path = (bytes: number) => `demo/${'p'.repeat(bytes - 'demo/'.length)}`;
    expect(() => new OutputFile(chart(), 'File', { path: path(PATH_MAX - 1), content: '' })).not.toThrow();
    expect(refusal(() => new OutputFile(chart(), 'File', { path: path(PATH_MAX), content: '' })))
      .toBe(`demo/File: path: received a path of ${PATH_MAX} bytes; expected at most ${PATH_MAX - 1} bytes of UTF-8 (Linux's PATH_MAX, ${PATH_MAX} bytes with the terminating NUL)`);
  });
});

describe('a list is held to what the operator or the tool accepts', () => {
  const props = (count: number): TlsMigrationClusterProps => ({
    clusterName: 'basic',
    version: 'v8.1.0',
    sources: Array.from({ length: count }, (_, i) => ({ sourceId: `shard-${i}`, host: `mysql-${i}.example.com`, user: 'root', tlsSecretName: 'shards-tls' })),
    target: { host: 'tidb.example.com', user: 'root', tlsSecretName: 'target-tls' },
    task: { name: 'merge', isSharding: true },
  });

  test(`a migration of ${MIGRATION_SOURCES_MAX} sources is taken, one more is refused`, () => {
    expect(() => new TlsMigrationCluster(chart(), 'mig', props(MIGRATION_SOURCES_MAX))).not.toThrow();
    expect(refusal(() => new TlsMigrationCluster(chart(), 'mig', props(MIGRATION_SOURCES_MAX + 1))))
      .toBe(`demo/mig: sources: received a list of ${MIGRATION_SOURCES_MAX + 1} items; expected at most ${MIGRATION_SOURCES_MAX} items: `
        + 'the migration tool\'s master writes three keys per source in one etcd transaction of at most 2048 (max-txn-ops)');
  });
});
