/**
 * Hostile input, as an attacker or a careless hand would give it: URLs carrying a password, hosts
 * with ports, labels and domains too long for a certificate, functions, cycles, symbols, BigInts
 * and class instances in free-form values, Secrets of the cluster's own named as external ones,
 * every way of rewriting the history of rotations an earlier synth recorded, and hostile values in
 * the environment variables synth reads. Every run synthesizes over a folder that holds the output
 * and record of a good synth: it either writes valid output, or fails with exactly one
 * `ClusterTlsError` line leaving the folder byte-identical; and the credential marker is never in
 * the message, on stdout or stderr, or in a written file.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import {
  BackupRestore, ClusterCertificates, DrainerRelease, TlsDatabaseCluster, TlsMigrationCluster, synthesize, synthesizeOrExit,
} from '../lib';
import { crdErrors } from './_crds';
import { filesBelow, propResolver } from './_prop-trees';

/** The credential every hostile value carries; nothing the library prints or writes may hold it. */
const MARKER = 'Cr3dM4rk\u2603s3cr3t';

/** The rotations of the good synth: a leaf renewal done, then a CA replacement at its first phase. */
const ROTATIONS = [{ id: 'r1', kind: 'leaf-renewal' }, { id: 'r2', kind: 'ca-replacement', phase: 'trust-both' }];

type Tree = Record<'certs' | 'db' | 'mig' | 'drainer' | 'backup', Record<string, any>>;

function validTree(): Tree {
  return {
    certs: { clusterName: 'basic', clusterDomain: 'cluster.local', rotations: structuredClone(ROTATIONS), extraNames: { store: { extraDnsNames: ['db.example.com'] } } },
    db: {
      clusterName: 'basic', version: 'v4.0.5', certificates: '$certs',
      store: { config: { log: { level: 'info' } } }, changefeed: { sinkTlsSecretNames: ['sink-tls'] },
    },
    mig: {
      clusterName: 'basic', version: 'v2.0.7', certificates: '$certs', discovery: { address: 'discovery.example.com' },
      sources: [{ sourceId: 'source1', host: 'mysql.example.com', port: 3306, user: 'root', tlsSecretName: 'source1-tls' }],
      target: { host: 'tidb.example.com', port: 4000, user: 'root', tlsSecretName: 'target-tls' },
      task: { name: 'nightly' },
    },
    drainer: {
      cluster: '$db', releaseName: 'binlog', chart: { version: '1.1.5', repository: 'https://charts.example.com' },
      downstreamTls: { secretName: 'down-tls', checkpointSecretName: 'checkpoint-tls' }, extraValues: { nodeSelector: { disk: 'ssd' } },
    },
    backup: {
      cluster: '$db', backup: {}, user: 'backup', credentialsSecretName: 'backup-credentials',
      s3: { provider: 'aws', region: 'us-west-2', bucket: 'backups', secretName: 's3-credentials', endpoint: 'https://s3.example.com' },
    },
  };
}

/** Builds the app of a tree, passing values that are not plain data on as they are. */
function build(tree: Tree): App {
  const app = new App();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const refs: Record<string, unknown> = {};
  const resolve = propResolver(refs);
  refs.$certs = new ClusterCertificates(chart, 'certs', resolve(tree.certs));
  refs.$db = new TlsDatabaseCluster(chart, 'db', resolve(tree.db));
  new TlsMigrationCluster(chart, 'mig', resolve(tree.mig));
  new DrainerRelease(chart, 'drainer', resolve(tree.drainer));
  new BackupRestore(new Chart(app, 'demo-backup', { namespace: 'demo' }), 'backup', resolve(tree.backup));
  return app;
}

/** Sets a value at a path of a tree; nothing when the path is gone. */
function setAt(tree: any, at: readonly (string | number)[], value: unknown): void {
  const parent = at.slice(0, -1).reduce((n, k) => (typeof n === 'object' && n !== null ? n[k] : undefined), tree);
  if (typeof parent === 'object' && parent !== null) {
    parent[at[at.length - 1]] = value;
  }
}

/** URLs and hosts whose user information carries the marker, in the spellings parsers accept. */
const withUserinfo = fc.constantFrom(
  `https://ci:${MARKER}@charts.example.com`, `https:ci:${MARKER}@s3.example.com`, `oci://robot:${MARKER}@registry.example.com`,
  `HTTPS://${MARKER}@s3.example.com:9000`, `https://ci bot:${MARKER}@s3.example.com`, `root:${MARKER}@mysql.example.com:3306`,
  `https:\\\\u:${MARKER}@s3.example.com`, `mysql://root:${MARKER}@mysql.example.com/db`, `${MARKER}@mysql.example.com`,
);

/** Hosts that are not host names: a port, a space, a label or a name too long. */
const badHost = fc.constantFrom('mysql.example.com:3306', 'mysql example.com', `${'a'.repeat(64)}.example.com`, Array(5).fill('b'.repeat(60)).join('.'), '[::1]:3306', '');

/** Makes a hostile value when a run sets it, so that fast-check never prints or walks it (a getter that throws, say). */
class Make {
  constructor(public readonly what: string, public readonly make: () => unknown) {}
  public toString(): string {
    return this.what;
  }
}

/** The marker in values that are not plain data. */
const notData = fc.constantFrom<() => unknown>(
  () => new Function(`return "${MARKER}";`),
  () => { const o: any = { secret: MARKER }; o.self = { back: o }; return o; },
  () => Symbol(MARKER),
  () => BigInt(7),
  () => new Date(0),
  () => new Map([[MARKER, MARKER]]),
  () => Object.defineProperty({}, 'token', { enumerable: true, get: () => { throw new Error(MARKER); } }),
  () => ({ [Symbol(MARKER)]: 1 }),
  () => Number.NaN,
).map((make) => new Make(`a value made by ${make.toString().slice(0, 60)}`, make));

/** Every Secret the library writes for cluster basic with rotations r1 and r2 (and a renamed one). */
const ownedSecret = fc.constantFrom(
  'basic-ca-secret', 'basic-ca-r1-secret', 'basic-ca-r2-secret', 'basic-store-cluster-secret', 'basic-drainer-cluster-secret',
  'basic-cluster-client-secret', 'basic-mig-client-secret', 'basic-store-cluster-secret-r2', 'basic-cluster-client-secret-r1', 'basic-importer-cluster-secret',
);

const EXTERNAL_SECRETS = [
  ['backup', 's3', 'secretName'], ['backup', 'credentialsSecretName'], ['db', 'changefeed', 'sinkTlsSecretNames', 0],
  ['drainer', 'downstreamTls', 'secretName'], ['drainer', 'downstreamTls', 'checkpointSecretName'],
  ['mig', 'sources', 0, 'tlsSecretName'], ['mig', 'target', 'tlsSecretName'],
] as const;
const URLS = [['backup', 's3', 'endpoint'], ['drainer', 'chart', 'repository'], ['drainer', 'chart', 'name']] as const;
const HOSTS = [['mig', 'sources', 0, 'host'], ['mig', 'target', 'host']] as const;
const FREE_FORM = [['drainer', 'extraValues'], ['drainer', 'extraValues', 'nodeSelector', 'disk'], ['mig', 'discovery'], ['mig', 'discovery', 'address'],
  ['db', 'store', 'config'], ['db', 'store', 'config', 'log', 'level'], ['certs', 'extraNames', 'store']] as const;
/** Fields that take names, paths and words, where a URL with a password has no business either. */
const NAMES = [
  ['certs', 'clusterName'], ['certs', 'namespace'], ['db', 'timezone'], ['mig', 'sources', 0, 'sourceId'], ['mig', 'sources', 0, 'relayDir'],
  ['mig', 'task', 'name'], ['mig', 'task', 'loaderDir'], ['drainer', 'releaseName'], ['drainer', 'drainerName'], ['drainer', 'storageClassName'],
  ['backup', 's3', 'bucket'], ['backup', 's3', 'region'], ['backup', 's3', 'prefix'], ['backup', 'backupType'],
] as const;

/** One hostile change of the tree. */
const change = fc.oneof(
  fc.record({ at: fc.constantFrom(...URLS, ...HOSTS, ...NAMES), value: withUserinfo }),
  fc.record({ at: fc.constantFrom(...HOSTS), value: badHost }),
  fc.record({ at: fc.constantFrom(...EXTERNAL_SECRETS), value: ownedSecret }),
  fc.record({ at: fc.constantFrom(...FREE_FORM), value: notData }),
  fc.record({ at: fc.constant(['certs', 'clusterDomain'] as const), value: fc.constantFrom(`${'c'.repeat(64)}.local`, Array(4).fill('d'.repeat(55)).join('.'), 'cluster.local:53') }),
  fc.record({ at: fc.constant(['certs', 'extraNames', 'store', 'extraDnsNames', 0] as const), value: fc.constantFrom(`${'e'.repeat(64)}.example.com`, `*.${'f'.repeat(63)}.${'g'.repeat(63)}.${'h'.repeat(63)}.${'i'.repeat(63)}`, 'db.example.com:443') }),
);

/** Every way of rewriting the recorded history of rotations, and the legitimate next phase. */
const HISTORY: Record<string, readonly object[]> = {
  kept: ROTATIONS,
  drop: [ROTATIONS[1]],
  rename: [{ ...ROTATIONS[0], id: 'r1b' }, ROTATIONS[1]],
  reorder: [{ ...ROTATIONS[1], phase: 'drop-old' }, { ...ROTATIONS[0] }],
  skip: [ROTATIONS[0], { ...ROTATIONS[1], phase: 'drop-old' }],
  invent: [ROTATIONS[0], { id: 'r9', kind: 'leaf-renewal' }, ROTATIONS[1]],
  inventAhead: [...ROTATIONS.map((r) => ({ ...r, phase: undefined })), { id: 'r3', kind: 'leaf-renewal' }],
  retype: [{ ...ROTATIONS[0], kind: 'ca-replacement' }, ROTATIONS[1]],
  next: [ROTATIONS[0], { ...ROTATIONS[1], phase: 'switch-leaves' }],
  none: [],
};

/** Values of the environment variables synth reads; `report:` values name a file the run writes first. */
const environment = fc.record({
  CLUSTER_TLS_RECREATE: fc.constantFrom(undefined, '', 'rotation/demo/basic', `rotation/demo/basic,https://u:${MARKER}@x`, `${MARKER},,\n`),
  CLUSTER_TLS_VERIFY_REPORT: fc.constantFrom(undefined, 'report:garbage', 'report:marker', 'report:empty', 'missing', `https://u:${MARKER}@reports.example.com/r.json`, 'folder'),
  CLUSTER_TLS_UNVERIFIED_PHASE: fc.constantFrom(undefined, 'demo/basic', `demo/basic,${MARKER}`, `https://u:${MARKER}@x`),
});

/** The text of a report file the environment names. */
const REPORTS: Record<string, string> = {
  garbage: `{"plans": [}${MARKER}`,
  marker: JSON.stringify({ plans: [{ namespace: 'demo', clusterName: 'basic', rotation: { id: MARKER, phase: MARKER } }], secrets: [] }),
  empty: JSON.stringify({ plans: [{ namespace: 'demo', clusterName: 'basic', rotation: { id: 'r2', phase: 'trust-both' } }], secrets: [] }),
};

describe('every construct and the environment, fed hostile values', () => {
  const ENV_NAMES = ['CLUSTER_TLS_RECREATE', 'CLUSTER_TLS_VERIFY_REPORT', 'CLUSTER_TLS_UNVERIFIED_PHASE'] as const;
  const saved = Object.fromEntries(ENV_NAMES.map((n) => [n, process.env[n]]));
  afterEach(() => ENV_NAMES.forEach((n) => (saved[n] === undefined ? delete process.env[n] : (process.env[n] = saved[n]))));

  test('valid output, or one ClusterTlsError line with the folder and record unchanged; the marker nowhere', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-hostile-'));
    ENV_NAMES.forEach((n) => delete process.env[n]);
    synthesize(build(validTree()), { outdir: path.join(parent, 'dist') });
    const before = filesBelow(parent);
    const outcomes = { written: 0, refused: 0 };
    // Captured, not printed: synthesizeOrExit writes a refusal to standard error, as a command would.
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      fc.assert(fc.property(fc.array(change, { maxLength: 2 }), fc.constantFrom(...Object.keys(HISTORY)), environment, (changes, history, env) => {
        const tree = validTree();
        tree.certs.rotations = structuredClone(HISTORY[history]);
        changes.forEach(({ at, value }) => setAt(tree, at, value instanceof Make ? value.make() : value));
        const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-hostile-run-'));
        fs.cpSync(parent, work, { recursive: true });
        stdout.mockClear();
        stderr.mockClear();
        try {
          for (const n of ENV_NAMES) {
            const v = env[n];
            if (v === undefined) {
              delete process.env[n];
            } else if (v.startsWith('report:')) {
              process.env[n] = path.join(work, 'report.json');
              fs.writeFileSync(process.env[n]!, REPORTS[v.slice('report:'.length)]);
            } else {
              process.env[n] = v === 'folder' ? work : v === 'missing' ? path.join(work, 'none.json') : v;
            }
          }
          const extra = fs.existsSync(path.join(work, 'report.json')) ? ['report.json'] : [];
          // As a command runs it: a refusal is printed and sets the exit code, a fault is thrown.
          const exitCode = process.exitCode;
          process.exitCode = undefined;
          let fault: unknown;
          try {
            synthesizeOrExit(() => build(tree), { outdir: path.join(work, 'dist') });
          } catch (e) {
            fault = e;
          }
          const refused = process.exitCode === 1;
          process.exitCode = exitCode;
          if (fault !== undefined) {
            throw new Error(`a fault, not a refusal (${history}, ${JSON.stringify(changes.map((c) => c.at))}): ${String((fault as Error)?.stack ?? fault).slice(0, 2000)}`);
          }
          const printed = [...stdout.mock.calls, ...stderr.mock.calls].map((c) => String(c[0])).join('');
          expect(printed).not.toContain(MARKER);
          if (refused) {
            expect(stdout.mock.calls).toEqual([]);
            expect(printed).toMatch(/^error: [^\n]*\n$/);
            const after = filesBelow(work);
            extra.forEach((f) => delete after[f]);
            expect(after).toEqual(before);
            outcomes.refused++;
            return;
          }
          // A synth that succeeds says in one line what it wrote, and where.
          expect(stdout.mock.calls.map((c) => String(c[0])).join('')).toMatch(/^synthesized \d+ manifests? \(\d+ objects\) into [^\n]+ and \d+ other files? into [^\n]+\n$/);
          const files = { ...filesBelow(path.join(work, 'dist')), ...filesBelow(path.join(work, 'cluster-tls')) };
          for (const [name, text] of Object.entries(files)) {
            expect({ name, holdsMarker: text.includes(MARKER) || Buffer.from(text, 'latin1').toString('utf8').includes(MARKER) }).toEqual({ name, holdsMarker: false });
          }
          expect(fs.readFileSync(path.join(work, 'cluster-tls.lock.json'), 'utf8')).not.toContain(MARKER);
          const manifests = Object.entries(files).filter(([name]) => name.endsWith('.k8s.yaml'))
            .flatMap(([, text]) => YAML.parseAllDocuments(Buffer.from(text, 'latin1').toString('utf8'), { version: '1.1' }).map((d) => d.toJS()));
          expect(manifests.length).toBeGreaterThan(0);
          expect(manifests.flatMap((m) => crdErrors(m))).toEqual([]);
          outcomes.written++;
        } finally {
          fs.rmSync(work, { recursive: true, force: true });
        }
      }), { numRuns: 150 });
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
      fs.rmSync(parent, { recursive: true, force: true });
    }
    // Both ways out are taken, or the property would hold without testing one of them.
    expect(outcomes.written).toBeGreaterThan(5);
    expect(outcomes.refused).toBeGreaterThan(50);
  });
});
