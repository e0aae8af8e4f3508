/**
 * The drainer's chart values as the real chart reads them: the operator's tidb-drainer chart of
 * the release the library follows (its module, as the Go module proxy serves it) rendered by the
 * real helm (scripts/build-control-plane.sh builds both into the cache) with the values file the
 * library writes, and the drainer's configuration file parsed as TOML, the way the drainer reads it.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'cdk8s';
import * as TOML from 'smol-toml';
import * as YAML from 'yaml';
import { DrainerRelease } from '../lib/clusters/drainer-release';
import { helmCommand, helmRepoAddCommands } from '../lib/clusters/drainer-chart';
import { DrainerReleaseProps, GitOpsEngine } from '../lib/clusters/drainer-props';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import * as names from '../lib/model/names';
import { renderApp } from '../lib/synth/synthesize';
import { buildApp } from '../main';
import { TOOLS_BIN, describeWithTools, tool } from './_programs';

/** Where the build script puts the chart. */
const CHART = path.join(TOOLS_BIN, '..', 'charts', 'tidb-drainer');

/** The objects `helm template` renders from a values file's text, in namespace `demo`. */
function rendered(valuesText: string, release = 'binlog', ...before: string[]): any[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drainer-chart-'));
  try {
    const file = path.join(dir, 'values.yaml');
    fs.writeFileSync(file, valuesText);
    // Values documents merged before the file's, as Flux merges a HelmRelease's valuesFrom before its values.
    const earlier = before.map((text, i) => {
      const f = path.join(dir, `before-${i}.yaml`);
      fs.writeFileSync(f, text);
      return ['-f', f];
    }).flat();
    const out = execFileSync(tool('helm'), ['template', release, CHART, '--namespace', 'demo', ...earlier, '-f', file], { encoding: 'utf8' });
    return YAML.parseAllDocuments(out).map((d) => d.toJS()).filter((o) => o);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The drainer's configuration file, parsed as TOML. */
function drainerConfig(objects: readonly any[]): any {
  const map = objects.find((o) => o.kind === 'ConfigMap');
  return TOML.parse(map.data['config-file']);
}

/** The Secret of each volume of the drainer's pods, by mount path. */
function mountedSecrets(objects: readonly any[]): Record<string, string> {
  const set = objects.find((o) => o.kind === 'StatefulSet');
  const spec = set.spec.template.spec;
  const volumes = new Map<string, string>(spec.volumes.filter((v: any) => v.secret).map((v: any) => [v.name, v.secret.secretName]));
  return Object.fromEntries(spec.containers[0].volumeMounts.filter((m: any) => volumes.has(m.name)).map((m: any) => [m.mountPath, volumes.get(m.name)!]));
}

/** A database cluster and its drainer with the given props, and the values file the library writes. */
function valuesOf(props: Partial<DrainerReleaseProps>): string {
  const chart = Testing.chart();
  const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5' });
  return new DrainerRelease(chart, 'drainer', { cluster, releaseName: 'binlog', chart: { version: '1.1.0' }, ...props }).valuesFile.render();
}

describeWithTools('the real drainer chart with the values the library writes', ['helm'], () => {
  beforeAll(() => {
    expect({ chart: fs.existsSync(path.join(CHART, 'Chart.yaml')) ? CHART : 'missing: run scripts/build-control-plane.sh' }).toEqual({ chart: CHART });
  });

  test('the reference app: TLS to the cluster with its Secret and its Common Name list, under the StatefulSet name the runbooks restart', () => {
    const files = renderApp(buildApp()).files;
    const values = files.find((f) => f.path === 'demo/basic/drainer-binlog-values.yaml')!.content;
    const objects = rendered(values);
    const config = drainerConfig(objects);
    expect(config.security).toEqual({
      'ssl-ca': '/var/lib/drainer-tls/ca.crt', 'ssl-cert': '/var/lib/drainer-tls/tls.crt', 'ssl-key': '/var/lib/drainer-tls/tls.key',
      'cert-allowed-cn': YAML.parse(values).tlsCluster.certAllowedCN,
    });
    expect(mountedSecrets(objects)['/var/lib/drainer-tls']).toBe(names.serverSecretName('basic', 'drainer'));
    const set = objects.find((o) => o.kind === 'StatefulSet');
    expect(set.metadata.name).toBe(names.drainerName('basic', 'binlog'));
    // The rotation runbook restarts it by that name: the reference app's runbooks name it.
    expect(files.find((f) => f.path === 'demo/basic/database-runbook.md')!.content).toContain(set.metadata.name);
  });

  test('with Flux and configSecret, the Secret the runbook\'s command makes and the HelmRelease\'s values give the drainer its credentials and TLS, the manifests no credential', () => {
    const chart = Testing.chart();
    const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5' });
    const drainer = new DrainerRelease(chart, 'drainer', {
      cluster, releaseName: 'binlog', chart: { version: '1.1.0', repository: 'https://charts.example.com/stable' }, gitOps: GitOpsEngine.FLUX, configSecret: 'binlog-drainer-config',
    });
    const manifests = Testing.synth(chart);
    const release = manifests.find((o) => o.kind === 'HelmRelease');
    // The chart's own default list has commas, which Helm's --set syntax (a valuesFrom targetPath) would split; a backslash and a blank line too.
    const toml = '[syncer]\ndb-type = "mysql"\nignore-schemas = "INFORMATION_SCHEMA,PERFORMANCE_SCHEMA,mysql"\n\n[syncer.to]\nhost = "downstream.example.com"\n'
      + 'user = "drainer"\npassword = "s3cr3t-Pa55\\\\,x"\nport = 3306\n';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drainer-secret-'));
    try {
      fs.writeFileSync(path.join(dir, 'drainer.toml'), toml);
      // The runbook's command as written, made a client-side dry run that prints the Secret.
      const command = /`(\{ echo 'config: \|'[^`]*)`/.exec(cluster.runbook.render())![1];
      const secret = JSON.parse(execFileSync('bash', ['-c', `${command} --dry-run=client -o json`], { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${TOOLS_BIN}:${process.env.PATH}` } }));
      const valuesFromSecret = Buffer.from(secret.data[release.spec.valuesFrom[0].valuesKey], 'base64').toString('utf8');
      const config = drainerConfig(rendered(YAML.stringify(release.spec.values), 'binlog', valuesFromSecret));
      expect(config.syncer['ignore-schemas']).toBe('INFORMATION_SCHEMA,PERFORMANCE_SCHEMA,mysql');
      expect(config.syncer.to).toMatchObject({ host: 'downstream.example.com', user: 'drainer', password: 's3cr3t-Pa55\\,x' });
      expect(config.security['cert-allowed-cn']).toEqual(['basic']);
      expect(drainer.configSecretName).toBe('binlog-drainer-config');
      expect(JSON.stringify(manifests)).not.toContain('s3cr3t');
      // What a targetPath would have done: Flux's helm-controller sets it as Helm's --set does, which refuses the text at its first comma.
      expect(() => execFileSync(tool('helm'), ['template', 'binlog', CHART, '--namespace', 'demo', '--set', `config=${toml}`], { encoding: 'utf8', stdio: 'pipe' }))
        .toThrow(/has no value/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('downstream TLS with a checkpoint database: each section of the drainer\'s file with its Secret and its own Common Name list', () => {
    const objects = rendered(valuesOf({
      downstreamTls: {
        secretName: 'downstream-tls', allowedCommonNames: ['downstream-db'],
        checkpointSecretName: 'checkpoint-tls', checkpointAllowedCommonNames: ['checkpoint-db'],
      },
    }));
    const config = drainerConfig(objects);
    expect(config.syncer.to.security).toEqual({
      'ssl-ca': '/var/lib/drainer-syncer-tls/ca.crt', 'ssl-cert': '/var/lib/drainer-syncer-tls/tls.crt', 'ssl-key': '/var/lib/drainer-syncer-tls/tls.key',
      'cert-allowed-cn': ['downstream-db'],
    });
    expect(config.syncer.to.checkpoint.security).toEqual({
      'ssl-ca': '/var/lib/drainer-syncer-checkpoint-tls/ca.crt', 'ssl-cert': '/var/lib/drainer-syncer-checkpoint-tls/tls.crt',
      'ssl-key': '/var/lib/drainer-syncer-checkpoint-tls/tls.key', 'cert-allowed-cn': ['checkpoint-db'],
    });
    expect(mountedSecrets(objects)).toEqual({
      '/var/lib/drainer-tls': names.serverSecretName('basic', 'drainer'),
      '/var/lib/drainer-syncer-tls': 'downstream-tls',
      '/var/lib/drainer-syncer-checkpoint-tls': 'checkpoint-tls',
    });
  });

  test('why a checkpoint list needs a checkpoint Secret: without one the chart puts the list in the downstream\'s section', () => {
    // The values the library refuses to write, written by hand: the chart renders them, but the
    // drainer would check the downstream database against the checkpoint's names.
    const values = YAML.parse(valuesOf({ downstreamTls: { secretName: 'downstream-tls' } }));
    values.tlsSyncer.checkpoint = { certAllowedCN: ['checkpoint-db'] };
    const config = drainerConfig(rendered(YAML.stringify(values)));
    expect(config.syncer.to.security['cert-allowed-cn']).toEqual(['checkpoint-db']);
    expect(config.syncer.to.checkpoint).toBeUndefined();
    expect(() => valuesOf({ downstreamTls: { secretName: 'downstream-tls', checkpointAllowedCommonNames: ['checkpoint-db'] } })).toThrow(
      'downstreamTls.checkpointAllowedCommonNames: received ["checkpoint-db"]; expected nothing without downstreamTls.checkpointSecretName');
  });
});

describe('the helm commands of a release', () => {
  test('a classic repository is added under the release\'s repository name, the one the chart is installed from', () => {
    const chart = { name: 'drainer', repository: 'https://charts.example.com/stable', version: '1.1.0' };
    expect(helmRepoAddCommands('binlog', chart)).toEqual([`helm repo add ${names.drainerChartRepositoryName('binlog')} https://charts.example.com/stable`]);
    expect(helmCommand('install', 'binlog', chart, 'demo', 'values.yaml')).toContain(` ${names.drainerChartRepositoryName('binlog')}/drainer `);
  });

  test('an OCI registry or a chart reference helm resolves itself adds no repository', () => {
    expect(helmRepoAddCommands('binlog', { name: 'drainer', repository: 'oci://registry.example.com/charts', version: '1.1.0' })).toEqual([]);
    expect(helmRepoAddCommands('binlog', { name: 'myrepo/drainer', version: '1.1.0' })).toEqual([]);
  });
});
