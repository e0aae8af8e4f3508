/**
 * Storage sizes and durations in the forms Kubernetes and cdk8s give them. A storage size is held
 * to Kubernetes' own parser (k8s.io/apimachinery's `resource.ParseQuantity`, which the API server
 * and the operator read a size with, built as the `quantity` program): on thousands of strings of
 * the quantity grammar and around it, the library takes exactly those the parser reads as a size
 * greater than zero. cdk8s's `Size` and `Duration` give the output their string would.
 */
import { spawnSync } from 'node:child_process';
import { App, Chart, Duration, Size, SizeRoundingBehavior, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { DrainerRelease } from '../lib/clusters/drainer-release';
import { GitOpsEngine } from '../lib/clusters/drainer-props';
import { TlsDatabaseCluster, TlsDatabaseClusterProps } from '../lib/clusters/tls-database-cluster';
import { TlsMigrationCluster } from '../lib/clusters/tls-migration-cluster';
import { TlsEnablementPhase } from '../lib/model/enablement';
import { MAX_QUANTITY_EXPONENT, isStorageQuantity, sizeQuantity } from '../lib/model/quantity';
import { renderApp } from '../lib/synth/synthesize';
import { describeWithTools, tool } from './_programs';

/** What `resource.ParseQuantity` makes of each string. */
interface Parsed {
  readonly valid: boolean;
  readonly positive: boolean;
  readonly decimal?: string;
}

/** Asks the real parser about every string at once. */
function parse(texts: readonly string[]): Parsed[] {
  const run = spawnSync(tool('quantity'), [], { input: JSON.stringify(texts), encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) {
    throw new Error(`quantity failed (${run.status ?? run.signal}): ${run.stderr}`);
  }
  return JSON.parse(run.stdout);
}

/** The exponent a string's decimal-exponent suffix names, or undefined. */
function exponentOf(text: string): number | undefined {
  const match = /\d\.?[eE]([+-]?\d+)$|^[+-]?\.\d*[eE]([+-]?\d+)$/.exec(text);
  return match ? Number(match[1] ?? match[2]) : undefined;
}

const SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E',
  'K', 'ki', 'GiB', 'i', 'mi', 'Ki+', 'e', 'E', 'e+', ' ', 'x'];

/** Strings of the grammar (a sign, a number, a suffix or an exponent), with its near misses. */
const grammatical = fc.tuple(
  fc.constantFrom('', '', '+', '-'),
  fc.oneof(
    fc.tuple(fc.stringMatching(/^\d{1,4}$/), fc.constantFrom('', '.'), fc.stringMatching(/^\d{0,3}$/)).map(([a, dot, b]) => `${a}${dot}${b}`),
    fc.stringMatching(/^\.\d{0,3}$/),
    fc.constantFrom('', '.', '0', '00', '0.0'),
  ),
  fc.oneof(
    fc.constantFrom(...SUFFIXES),
    fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 200 }), fc.boolean())
      .map(([e, sign, n, padded]) => `${e}${sign}${padded ? String(n).padStart(4, '0') : n}`),
  ),
).map(([sign, number, suffix]) => `${sign}${number}${suffix}`);

/** Any short string over the grammar's characters and a few others. */
const scrambled = fc.string({ maxLength: 8, unit: fc.constantFrom('0', '1', '5', '9', '.', '+', '-', 'e', 'E', 'K', 'i', 'M', 'G', 'm', 'n', 'u', 'k', ' ', 'x') });

describeWithTools('storage sizes, held to Kubernetes\' quantity parser', ['quantity'], () => {
  test('the library takes exactly the quantities Kubernetes reads as a size greater than zero', () => {
    const seed = Date.now();
    const texts = [...new Set([
      '10Gi', '.5Gi', '1e3', '1E3', '5.', '+2M', '1.5e3', '1e+3', '1e-3', '0.5m', '1500m', '1n', '1u', '00001', '1.Gi', '+.5',
      '0', '-1Gi', '-.5', '.', '.e3', '+', 'e3', '0e5', '0.0', '1.5.5', '1K', '1GiB', '1e', '1e+', ' 1Ki', '1Ki ', '1_000', '',
      ...fc.sample(grammatical, { numRuns: 3000, seed }),
      ...fc.sample(scrambled, { numRuns: 2000, seed: seed + 1 }),
    ])];
    // Kubernetes reads a larger exponent too (and stops answering near 2^31); the library refuses it.
    const inRange = texts.filter((t) => Math.abs(exponentOf(t) ?? 0) <= MAX_QUANTITY_EXPONENT);
    const parsed = parse(inRange);
    const disagreements = inRange
      .map((text, i) => ({ text, kubernetes: parsed[i].valid && parsed[i].positive, library: isStorageQuantity(text) }))
      .filter((d) => d.kubernetes !== d.library);
    expect({ seed, disagreements }).toEqual({ seed, disagreements: [] });
    // Both sides of the line were asked about, many times each.
    expect(parsed.filter((p) => p.valid && p.positive).length).toBeGreaterThan(500);
    expect(parsed.filter((p) => !(p.valid && p.positive)).length).toBeGreaterThan(500);

    const beyond = texts.filter((t) => Math.abs(exponentOf(t) ?? 0) > MAX_QUANTITY_EXPONENT);
    expect(beyond.length).toBeGreaterThan(10);
    expect(beyond.filter(isStorageQuantity)).toEqual([]);
  });

  test('a cdk8s Size is written as the quantity of the same number of bytes', () => {
    const sizes = [Size.gibibytes(100), Size.mebibytes(1536), Size.kibibytes(1), Size.tebibytes(3), Size.pebibyte(2), Size.gibibytes(0.5), Size.kibibytes(3 * 1024 * 1024 + 1)];
    const written = sizes.map((s) => sizeQuantity(s)!);
    expect(written).toEqual(['100Gi', '1536Mi', '1Ki', '3Ti', '2Pi', '512Mi', '3145729Ki']);
    // The same number of bytes, by Kubernetes' own reading of the quantity.
    const bytes = parse(written).map((p) => p.valid && p.positive && p.decimal!.replace(/\.0*$/, ''));
    expect(bytes).toEqual(sizes.map((s) => String(s.toKibibytes({ rounding: SizeRoundingBehavior.NONE }) * 1024)));
    expect(sizeQuantity(Size.kibibytes(0.5))).toBeUndefined();
  });
});

/** A database cluster in `demo`, with the given props. */
function database(props: Partial<TlsDatabaseClusterProps> = {}) {
  const chart = Testing.chart();
  const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5', ...props });
  return { chart, cluster, spec: Testing.synth(chart).find((o) => o.kind === 'DatabaseCluster').spec };
}

describe('storage size props', () => {
  test('take every quantity form, written as given, and a YAML reader reads each back as a string', () => {
    const { chart, spec } = database({
      store: { storage: '.5Gi' }, coordinator: { storage: '1e3' }, pump: { storage: Size.mebibytes(1536) },
      columnar: { storageClaims: [{ storage: Size.gibibytes(100) }, { storage: '+2Ti' }] },
    });
    expect([spec.store.requests.storage, spec.coordinator.requests.storage, spec.pump.requests.storage]).toEqual(['.5Gi', '1e3', '1536Mi']);
    expect(spec.columnar.storageClaims.map((c: any) => c.resources.requests.storage)).toEqual(['100Gi', '+2Ti']);
    // kubectl's YAML reader takes a plain 1e3 for a number, which the CRD's string field refuses:
    // the manifest quotes it.
    const manifest = renderApp(chart.node.root as App).files.find((f) => f.path.endsWith('.k8s.yaml'))!.content;
    const cluster = YAML.parseAllDocuments(manifest).map((d) => d.toJS({})).find((o) => o.kind === 'DatabaseCluster');
    expect(typeof cluster.spec.coordinator.requests.storage).toBe('string');
    expect(manifest).toContain('storage: "1e3"');
  });

  test('the migration cluster and the drainer take them too', () => {
    const { chart, cluster } = database();
    const migration = new TlsMigrationCluster(chart, 'migration', {
      clusterName: 'basic', version: 'v2.0.7', certificates: cluster.certificates, task: { name: 'task' },
      master: { storageSize: Size.gibibytes(20) },
      sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'root', tlsSecretName: 'source1-tls' }],
      target: { database: cluster, user: 'root', tlsSecretName: 'target-tls' },
    });
    const drainer = new DrainerRelease(chart, 'drainer', { cluster, releaseName: 'binlog', chart: { version: '1.1.0' }, storage: Size.gibibytes(50) });
    const objects = Testing.synth(chart);
    expect(objects.find((o) => o.kind === 'MigrationCluster').spec.master.storageSize).toBe('20Gi');
    expect(drainer.values.storage).toBe('50Gi');
    expect(migration.clusterName).toBe('basic');
  });

  test.each([
    ['0', 'received "0"'],
    ['-1Gi', 'received "-1Gi"'],
    ['1e100', 'received "1e100"'],
    ['10 Gi', 'received "10 Gi"'],
    [Size.kibibytes(0.5), 'received a Size of 0.5 KiB'],
    [10 as any, 'received 10'],
  ])('refuse %s, saying what they take', (storage, received) => {
    expect(() => database({ store: { storage } }))
      .toThrow(`test/db: store.storage: ${received}; expected a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes`);
  });
});

describe('duration props', () => {
  /** Everything an app writes with the given durations: the certificates, expiry watch, drainer and enablement of one cluster. */
  function output(d: { caDuration: any; duration: any; renewBefore: any; leafThreshold: any; gitOpsInterval: any; evictLeaderTimeout: any }) {
    const app = new App({ outdir: 'unused' });
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', caDuration: d.caDuration, duration: d.duration, renewBefore: d.renewBefore });
    const cluster = new TlsDatabaseCluster(chart, 'db', {
      clusterName: 'basic', version: 'v4.0.5', certificates: certs,
      enablement: { phase: TlsEnablementPhase.ISSUE, evictLeaderTimeout: d.evictLeaderTimeout },
    });
    certs.watchExpiry({ leafThreshold: d.leafThreshold });
    new DrainerRelease(chart, 'drainer', { cluster, releaseName: 'binlog', chart: { repository: 'https://charts.example.com/stable', version: '1.1.0' }, gitOps: GitOpsEngine.FLUX, gitOpsInterval: d.gitOpsInterval });
    return renderApp(app).files.map((f) => [f.path, f.content]);
  }

  test('take a cdk8s Duration, with the output of the same Go duration string', () => {
    const strings = output({ caDuration: '87600h', duration: '4380h', renewBefore: '1h30m', leafThreshold: '504h', gitOpsInterval: '10m', evictLeaderTimeout: '3m' });
    const durations = output({
      caDuration: Duration.days(3650), duration: Duration.hours(4380), renewBefore: Duration.minutes(90),
      leafThreshold: Duration.days(21), gitOpsInterval: Duration.seconds(600), evictLeaderTimeout: Duration.minutes(3),
    });
    expect(durations).toEqual(strings);
    expect(strings.map(([, content]) => content).join('\n')).toContain('1h30m');
  });

  test('refuse a value of neither form, and check a Duration with the field\'s own rule', () => {
    expect(() => new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo', duration: 8760 as any }))
      .toThrow('test/certs: duration: received 8760; expected a Go duration such as "8760h" or "1h30m" (units h, m, s, ms), or a cdk8s Duration');
    expect(() => new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo', duration: Duration.days(3650) }))
      .toThrow('test/certs: duration: received "87600h"; expected a validity shorter than the CA\'s (87600h)');
  });
});
