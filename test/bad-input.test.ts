/**
 * Bad input, as a new user or a configuration file gives it: each mistake is refused at synth with
 * one line (construct path, field, value received, what is expected), the output folder and its
 * record are left byte-identical, and no message repeats a value of a field that can hold a
 * credential.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import {
  BackupRestore, ClusterCertificates, ClusterTlsError, DrainerRelease, TlsDatabaseCluster, TlsMigrationCluster, renderApp, synthesize,
} from '../lib';
import { crdErrors } from './_crds';
import { filesBelow, propResolver } from './_prop-trees';

/** Planted in every field that can hold a credential; no error message may contain it. */
const MARKER = 'M4RK3R\u2603hunter2';

/** The props of a complete deployment, by construct; `$db` and `$certs` stand for the constructs. */
type Tree = Record<'certs' | 'db' | 'monitor' | 'mig' | 'drainer' | 'backup', Record<string, any>>;

function validTree(): Tree {
  return {
    certs: { clusterName: 'basic', method: 'cfssl', subject: { organization: 'demo', country: 'US' }, extraNames: { store: { extraDnsNames: ['db.example.com'], extraIpAddresses: ['10.0.0.5'] } } },
    db: {
      clusterName: 'basic', version: 'v4.0.5', operatorVersion: 'v1.2.0', certificates: '$certs', timezone: 'UTC',
      store: { baseImage: 'registry.example.com/db/store', storage: '100Gi', config: { log: { password: MARKER } } },
      sqlserver: { serviceType: 'ClusterIP', extraAllowedCommonNames: ['partner'] },
      changefeed: { sinkTlsSecretNames: ['sink-tls'] },
      columnar: { storageClaims: [{ storage: '10Gi' }] },
    },
    monitor: { initializer: { baseImage: 'registry.example.com/db/monitor-initializer', version: 'v4.0.5' }, reloader: { baseImage: 'registry.example.com/db/reloader', version: 'v1.0.1' } },
    mig: {
      clusterName: 'basic', version: 'v2.0.7', certificates: '$certs', discovery: { token: MARKER },
      sources: [{ sourceId: 'source1', host: 'mysql.example.com', port: 3306, user: 'root', password: MARKER, tlsSecretName: 'source1-tls' }],
      target: { database: '$db', user: 'root', password: MARKER, tlsSecretName: 'target-tls' },
      task: { name: 'nightly' },
    },
    drainer: {
      cluster: '$db', releaseName: 'binlog', chart: { version: '1.1.5' }, config: `[syncer.to]\npassword = "${MARKER}"\n`,
      extraValues: { downstream: { password: MARKER }, nodeSelector: { disk: 'ssd' } },
    },
    backup: {
      cluster: '$db', backup: {}, user: 'backup', credentialsSecretName: 'backup-credentials',
      s3: { provider: 'aws', region: 'us-west-2', bucket: 'backups', secretName: 's3-credentials' },
    },
  };
}

/** Builds the deployment of a tree of props. */
function build(tree: Tree, outdir?: string): App {
  const app = new App({ outdir });
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const refs: Record<string, unknown> = {};
  // A copy with `$certs` and `$db` replaced; values that are not plain data pass on as they are.
  const resolve = propResolver(refs, { dropUndefined: true });
  refs.$certs = new ClusterCertificates(chart, 'certs', resolve(tree.certs));
  const db = new TlsDatabaseCluster(chart, 'db', resolve(tree.db));
  refs.$db = db;
  db.addMonitor(resolve(tree.monitor));
  new TlsMigrationCluster(chart, 'mig', resolve(tree.mig));
  new DrainerRelease(chart, 'drainer', resolve(tree.drainer));
  new BackupRestore(new Chart(app, 'demo-backup', { namespace: 'demo' }), 'backup', resolve(tree.backup));
  return app;
}

/** A folder holding the output of the valid tree and its record. */
function committed(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-bad-'));
  synthesize(build(validTree()), { outdir: path.join(parent, 'dist'), acknowledgeRecreation: [] });
  return parent;
}

/** Builds and synthesizes a changed tree over the committed output; returns the error, if any. */
function attempt(parent: string, edit: (tree: Tree) => void): unknown {
  const tree = validTree();
  edit(tree);
  try {
    synthesize(build(tree), { outdir: path.join(parent, 'dist'), acknowledgeRecreation: [] });
    return undefined;
  } catch (e) {
    return e;
  }
}

describe('each bad input of the report is refused with its one line, the output untouched', () => {
  const parent = committed();
  const before = filesBelow(parent);
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

  const cases: [string, (t: Tree) => void, string][] = [
    ['a migration source reaching its database with the CA Secret', (t) => { t.mig.sources[0].tlsSecretName = 'basic-ca-secret'; },
      'demo/mig: sources[0].tlsSecretName: received "basic-ca-secret"; expected a Secret you create, not one the library writes (basic-ca-secret holds the CA and its private key)'],
    ['a drainer named as another component\'s service', (t) => { t.drainer.drainerName = 'basic-sqlserver'; },
      'demo/drainer: drainerName: received "basic-sqlserver"; expected a drainer name other than "basic-sqlserver", the service of the cluster\'s sqlserver, which the drainer\'s service would clash with'],
    ['a Common Name with a newline', (t) => { t.certs.commonName = 'basic\nO=evil'; },
      'demo/certs: commonName: received "basic\\nO=evil"; expected a single line of 1 to 64 printable characters, without leading or trailing spaces'],
    ['a Common Name one character too long, which says its length', (t) => { t.certs.commonName = 'c'.repeat(65); },
      `demo/certs: commonName: received "${'c'.repeat(65)}" (65 characters); expected a single line of 1 to 64 printable characters, without leading or trailing spaces`],
    ['a country that is not two letters', (t) => { t.certs.subject.country = 'United States'; },
      'demo/certs: subject.country: received "United States"; expected a two-letter ISO 3166 country code in capitals, such as "US" (X.509 allows two characters)'],
    ['an empty organization', (t) => { t.certs.subject.organization = ''; },
      'demo/certs: subject.organization: received ""; expected a single line of 1 to 64 printable characters, without leading or trailing spaces'],
    ['a service type Kubernetes does not have', (t) => { t.db.sqlserver.serviceType = 'Ingress'; },
      'demo/db: sqlserver.serviceType: received "Ingress"; expected one of "ClusterIP", "NodePort", "LoadBalancer"'],
    ['a time zone IANA does not have', (t) => { t.db.timezone = 'Mars/Olympus Mons'; },
      'demo/db: timezone: received "Mars/Olympus Mons"; expected an IANA time zone name, spelled exactly, such as "UTC" or "Asia/Shanghai"'],
    ['no storage', (t) => { t.db.store.storage = '0Gi'; },
      'demo/db: store.storage: received "0Gi"; expected a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes'],
    ['an image that is not a valid reference', (t) => { t.db.store.baseImage = 'Registry.example.com/Store'; },
      'demo/db: store.baseImage: received "Registry.example.com/Store"; expected an image repository without a tag or digest, in lowercase after the registry, such as "registry.example.com/db/store": the operator appends the version as the tag'],
    // Refused where the app calls addMonitor, by the image's rule in the options' shape.
    ['a monitor image with a tag, like a cluster image with one', (t) => { t.monitor.reloader.baseImage = 'registry.example.com/db/reloader:v1'; },
      'demo/db: addMonitor.options.reloader.baseImage: received "registry.example.com/db/reloader:v1"; expected an image repository without a tag or digest, in lowercase after the registry, such as "registry.example.com/db/store": the operator appends the version as the tag'],
    ['a private key given as a word', (t) => { t.certs.privateKey = 'RSA'; }, 'demo/certs: privateKey: received "RSA"; expected an object'],
    ['a subject given as a string', (t) => { t.certs.subject = 'O=demo'; },
      'demo/certs: subject: received "O=demo"; expected an object with organization, organizationalUnit, country, state and locality, each optional'],
    ['a component set to null', (t) => { t.db.store = null; }, 'demo/db: store: received null; expected an object'],
    ['a drainer without its cluster', (t) => { delete t.drainer.cluster; }, 'demo/drainer: cluster: received nothing; expected a TlsDatabaseCluster of this app (an ITlsDatabaseCluster)'],
    ['a backup given a plain object as its cluster', (t) => { t.backup.cluster = { clusterName: 'basic', namespace: 'demo' }; },
      'demo-backup/backup: cluster: received a value of type object; expected a TlsDatabaseCluster of this app (an ITlsDatabaseCluster)'],
    ['extra IP addresses given as a string', (t) => { t.certs.extraNames.store.extraIpAddresses = '10.0.0.1'; },
      'demo/certs: extraNames.store.extraIpAddresses: received "10.0.0.1"; expected a list of strings'],
    ['a drainer name that is not a DNS label, blamed on the drainer', (t) => { t.drainer.drainerName = 'Bad_Name'; },
      'demo/drainer: drainerName: received "Bad_Name"; expected a DNS-1123 label: lowercase letters, digits and \'-\', starting and ending with a letter or digit, at most 63 characters'],
    ['a release name too long for the drainer\'s name, blamed on the drainer', (t) => { t.drainer.releaseName = 'r'.repeat(50); },
      `demo/drainer: releaseName: received "${'r'.repeat(50)}"; expected at most 49 characters, so that the derived name "basic-${'r'.repeat(50)}-drainer" (64 characters) stays a DNS-1123 label of at most 63`],
    ['a component config that is a list, named as such', (t) => { t.db.store.config = ['a']; },
      'demo/db: store.config: received a value of type array; expected an object: the component\'s configuration'],
    ['a drainer config of the wrong type, by its type alone', (t) => { t.drainer.config = { text: MARKER }; },
      'demo/drainer: config: received a value of type object; expected a TOML document as a string (the chart value config is text)'],
    ['chart values that set the config the construct sets, without showing them', (t) => { t.drainer.extraValues = { config: `password = "${MARKER}"` }; },
      'demo/drainer: extraValues.config: received a value, not shown since chart values may hold credentials; expected nothing: the construct sets "config"; use the prop of that name (chart values it sets: clusterName, drainerName, clusterVersion, storage, storageClassName, tlsCluster, tlsSyncer, config)'],
  ];

  test.each(cases)('%s', (_name, edit, message) => {
    const error = attempt(parent, edit);
    expect(error).toBeInstanceOf(ClusterTlsError);
    const received = (error as Error).message;
    expect(received).toBe(message);
    expect(received.split('\n')).toHaveLength(1);
    expect(received).not.toContain(MARKER);
    expect(filesBelow(parent)).toEqual(before);
  });

  test('the API group setting must be an API group, not any text', () => {
    const app = new App({ outdir: path.join(parent, 'dist') });
    app.node.setContext('cdk8s-cluster-tls:apiGroup', 'Not A Group!');
    expect(() => new TlsDatabaseCluster(new Chart(app, 'demo', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5' }))
      .toThrow(new ClusterTlsError('demo/db: context cdk8s-cluster-tls:apiGroup: received "Not A Group!"; expected an API group: a DNS subdomain with at least one dot, such as "example.org"'));
  });
});

describe('the input rules of issue 28: each refused in one line that repeats no credential, the output untouched', () => {
  const parent = committed();
  const before = filesBelow(parent);
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));
  /** A function whose source holds the marker: refused by its type, its source never printed. */
  const fn = new Function(`return "${MARKER}";`);
  const cyclic: Record<string, unknown> = { token: MARKER };
  cyclic.self = cyclic;
  const rotated = (t: Tree) => { t.certs.rotations = [{ id: '2026-11', kind: 'ca-replacement', phase: 'trust-both' }]; };
  const data = 'plain data all the way down: objects, lists, strings, finite numbers, true, false and null, as JSON and YAML hold them';
  const url = 'a value with a user name or password in it (not repeated here)';

  const cases: [string, (t: Tree) => void, string][] = [
    ['the backup\'s S3 Secret is the CA Secret', (t) => { t.backup.s3.secretName = 'basic-ca-secret'; },
      'demo-backup/backup: s3.secretName: received "basic-ca-secret"; expected a Secret you create, not one the library writes (basic-ca-secret holds the CA and its private key)'],
    ['the backup\'s password Secret is a server Secret', (t) => { t.backup.credentialsSecretName = 'basic-sqlserver-cluster-secret'; },
      'demo-backup/backup: credentialsSecretName: received "basic-sqlserver-cluster-secret"; expected a Secret you create, not one the library writes (basic-sqlserver-cluster-secret holds the sqlserver\'s server certificate and key)'],
    ['a changefeed sink Secret is a rotation\'s staging Secret', (t) => { rotated(t); t.db.changefeed.sinkTlsSecretNames = ['basic-store-cluster-secret-2026-11']; },
      'demo/db: changefeed.sinkTlsSecretNames[0]: received "basic-store-cluster-secret-2026-11"; expected a Secret you create, not one the library writes '
        + '(basic-store-cluster-secret-2026-11 holds the store\'s server certificate and key issued by rotation 2026-11, staged before it is copied to basic-store-cluster-secret)'],
    ['a changefeed sink Secret is the next CA\'s Secret', (t) => { rotated(t); t.db.changefeed.sinkTlsSecretNames = ['sink-tls', 'basic-ca-2026-11-secret']; },
      'demo/db: changefeed.sinkTlsSecretNames[1]: received "basic-ca-2026-11-secret"; expected a Secret you create, not one the library writes (basic-ca-2026-11-secret holds the CA of rotation 2026-11 and its private key)'],
    ['a drainer checkpoint Secret is the previous CA\'s Secret during a rotation', (t) => { rotated(t); t.drainer.downstreamTls = { secretName: 'down-tls', checkpointSecretName: 'basic-ca-secret' }; },
      'demo/drainer: downstreamTls.checkpointSecretName: received "basic-ca-secret"; expected a Secret you create, not one the library writes (basic-ca-secret holds the CA and its private key)'],
    ['a migration target Secret is the client Secret\'s staging copy', (t) => { rotated(t); t.mig.target.tlsSecretName = 'basic-mig-client-secret-2026-11'; },
      'demo/mig: target.tlsSecretName: received "basic-mig-client-secret-2026-11"; expected a Secret you create, not one the library writes '
        + '(basic-mig-client-secret-2026-11 holds the migration cluster\'s client certificate and key issued by rotation 2026-11, staged before it is copied to basic-mig-client-secret)'],
    ['a function in extraValues', (t) => { t.drainer.extraValues = { nodeSelector: { disk: fn } }; },
      `demo/drainer: extraValues.nodeSelector.disk: received a value of type function; expected ${data}`],
    ['a cycle in discovery', (t) => { t.mig.discovery = cyclic; }, `demo/mig: discovery.self: received an object that contains itself; expected ${data}`],
    ['a symbol in a component config', (t) => { t.db.store.config = { log: { level: Symbol(MARKER) } }; },
      `demo/db: store.config.log.level: received a value of type symbol; expected ${data}`],
    ['a BigInt in a component config', (t) => { t.db.store.config = { raft: { capacity: BigInt(10) } }; },
      `demo/db: store.config.raft.capacity: received a value of type bigint; expected ${data}`],
    ['a class instance in extraValues', (t) => { t.drainer.extraValues = { startedAt: new Date(0) }; },
      `demo/drainer: extraValues.startedAt: received an object of a class (a Date, a Map, a construct, …), not a plain object; expected ${data}`],
    ['a BigInt where a string is expected', (t) => { t.backup.user = BigInt(1); },
      'demo-backup/backup: user: received a value of type bigint; expected a database user name without spaces or quotes: a dedicated account with only the privileges backup and restore need'],
    ['a cluster domain with a label of 70 characters', (t) => { t.certs.clusterDomain = `${'a'.repeat(70)}.local`; },
      `demo/certs: clusterDomain: received "${'a'.repeat(70)}.local"; expected a DNS name: lowercase letters, digits, '-' and '.', labels of at most 63 characters, at most 253 in all`],
    ['a cluster domain that makes a host name longer than 253 characters', (t) => { t.certs.clusterDomain = Array(4).fill('d'.repeat(55)).join('.'); },
      // A received value over 200 characters is cut, its length said.
      `demo/certs: clusterDomain: received ${JSON.stringify(Array(4).fill('d'.repeat(55)).join('.')).slice(0, 160)}… (225 characters in all); expected a domain short enough that every host name on the certificates stays within 253 characters: `
        + `with clusterName "basic" and namespace "demo" it makes the coordinator's name "*.basic-coordinator-peer.demo.svc.${Array(4).fill('d'.repeat(55)).join('.')}" (257 characters); shorten the domain, the namespace or the name`],
    ['an extra DNS name with a label of 64 characters', (t) => { t.certs.extraNames.store.extraDnsNames = [`${'x'.repeat(64)}.example.com`]; },
      `demo/certs: extraNames.store.extraDnsNames[0]: received "${'x'.repeat(64)}.example.com"; expected a DNS name: lowercase letters, digits, '-' and '.', labels of at most 63 characters, at most 253 in all, optionally starting with "*."`],
    ['a chart repository whose user name has a space', (t) => { t.drainer.chart.repository = `https://ci bot:${MARKER}@charts.example.com`; },
      `demo/drainer: chart.repository: received ${url}; expected a URL or host without credentials: give them in the Secret the construct's documentation names`],
    ['an S3 endpoint with credentials a URL parser finds without slashes', (t) => { t.backup.s3.endpoint = `https:key:${MARKER}@s3.example.com`; },
      `demo-backup/backup: s3.endpoint: received ${url}; expected a URL or host without credentials: give them in the Secret the construct's documentation names`],
    ['an S3 endpoint with a token in its query', (t) => { t.backup.s3.endpoint = `https://s3.example.com/?X-Amz-Security-Token=${MARKER}`; },
      'demo-backup/backup: s3.endpoint: received a URL with a query or fragment (not repeated here: it may hold a token); expected the storage service\'s URL, such as "https://s3.example.com" (a port after the host, as in "https://s3.example.com:9000"), without a query or fragment'],
    ['a chart given as an OCI reference with credentials', (t) => { t.drainer.chart.name = `oci://robot:${MARKER}@registry.example.com/drainer`; },
      `demo/drainer: chart.name: received ${url}; expected a URL or host without credentials: give them in the Secret the construct's documentation names`],
    ['a migration host that is a host and port', (t) => { t.mig.sources[0].host = 'mysql.example.com:3306'; },
      'demo/mig: sources[0].host: received "mysql.example.com:3306"; expected a host name or IP address, without a port (give it in the port field): labels of letters, digits and \'-\' of at most 63 characters, at most 253 in all'],
  ];

  test.each(cases)('%s', (_name, edit, message) => {
    const error = attempt(parent, edit);
    expect(error).toBeInstanceOf(ClusterTlsError);
    const received = (error as Error).message;
    expect(received).toBe(message);
    expect(received).not.toContain(MARKER);
    expect(filesBelow(parent)).toEqual(before);
  });
});

describe('time zones', () => {
  const timezone = (tz: string) => () => new TlsDatabaseCluster(new Chart(new App(), 'demo', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5', timezone: tz });

  test.each(['UTC', 'GMT', 'Asia/Shanghai', 'Asia/Kolkata', 'Europe/Kyiv', 'America/Nuuk', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires'])('%s, an IANA name, is accepted', (tz) => {
    expect(timezone(tz)).not.toThrow();
  });

  test.each(['asia/shanghai', 'Mars/Olympus Mons', 'UTC+8', '', 'Europe/Atlantis'])('%j is refused', (tz) => {
    expect(timezone(tz)).toThrow(new ClusterTlsError(`demo/db: timezone: received ${JSON.stringify(tz)}; expected an IANA time zone name, spelled exactly, such as "UTC" or "Asia/Shanghai"`));
  });
});

describe('the runbook and an operator too old for the client-Secret patch', () => {
  const runbook = (operatorVersion: string) => {
    const app = new App();
    const db = new TlsDatabaseCluster(new Chart(app, 'demo', { namespace: 'demo' }), 'db', {
      clusterName: 'basic', version: 'v4.0.5', operatorVersion, mountClusterClientSecret: false,
    });
    return db.runbook.render();
  };

  test('below v1.1.5 it says to upgrade the operator first; from v1.1.5 it does not', () => {
    expect(runbook('v1.1.0')).toContain('The patch needs operator v1.1.5 or later and this cluster is declared for v1.1.0: upgrade the operator');
    expect(runbook('v1.1.5')).not.toContain('The patch needs operator');
  });
});

/** Every path of a tree of props, to an object, a list or a value. */
function paths(node: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(node)) {
    return [at, ...node.flatMap((v, i) => paths(v, [...at, i]))];
  }
  if (typeof node === 'object' && node !== null) {
    return [at, ...Object.entries(node).flatMap(([k, v]) => paths(v, [...at, k])), [...at, 'unknownProp']];
  }
  return [at];
}

const CREDENTIAL_PATH = /(^|\.)(password|config|extraValues|discovery)(\.|$)/;

/** Sets a value at a path of a tree (the path's last key may be new); nothing when an earlier change removed the path. */
function setAt(tree: any, at: (string | number)[], value: unknown): void {
  const parent = at.slice(0, -1).reduce((n, k) => (typeof n === 'object' && n !== null ? n[k] : undefined), tree);
  if (typeof parent === 'object' && parent !== null) {
    parent[at[at.length - 1]] = value;
  }
}

describe('every construct, fed random wrong-typed and out-of-range props', () => {
  const tree = validTree();
  const all = (Object.keys(tree) as (keyof Tree)[]).flatMap((c) => paths(tree[c]).filter((p) => p.length > 0).map((p) => [c, ...p]));
  const wrong = fc.oneof(
    fc.constant(null), fc.constant(undefined), fc.integer({ min: -5, max: 5 }), fc.double(), fc.boolean(), fc.constant(''), fc.string({ maxLength: 8 }),
    fc.constant('0Gi'), fc.constant('v0.0.1'), fc.constant('x'.repeat(300)), fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }), fc.constant(['a', 1, null]),
  );
  /** What a credential field is given: the marker, as text or inside an object or a list. */
  const withMarker = fc.oneof(fc.constant(MARKER), fc.constant({ nested: MARKER }), fc.constant([MARKER]), fc.constant(`[a]\nb = "${MARKER}"`), fc.constant(42));
  const change = fc.constantFrom(...all).chain((at) => fc.record({
    at: fc.constant(at),
    value: CREDENTIAL_PATH.test(at.join('.')) ? withMarker : wrong,
  }));

  test('a synth that validates against crds/, or exactly one ClusterTlsError line that shows no credential, and an unchanged output folder', () => {
    const parent = committed();
    const before = filesBelow(parent);
    try {
      fc.assert(fc.property(fc.array(change, { minLength: 1, maxLength: 3 }), (changes) => {
        const t = validTree();
        for (const { at, value } of changes) {
          setAt(t, at, value);
        }
        const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-bad-run-'));
        fs.cpSync(parent, work, { recursive: true });
        try {
          let rendered;
          try {
            rendered = synthesize(build(t), { outdir: path.join(work, 'dist'), acknowledgeRecreation: [] });
          } catch (e) {
            expect(e).toBeInstanceOf(ClusterTlsError);
            const message = (e as Error).message;
            expect(message.split('\n')).toHaveLength(1);
            expect(message).not.toContain(MARKER);
            expect(filesBelow(work)).toEqual(before);
            return;
          }
          // The manifests as written, read back.
          const manifests = rendered.files.slice(0, rendered.manifestFiles)
            .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(rendered.outdir, f), 'utf8'), { version: '1.1' }).map((d) => d.toJS()));
          expect(manifests.length).toBeGreaterThan(0);
          expect(manifests.flatMap((m) => crdErrors(m))).toEqual([]);
        } finally {
          fs.rmSync(work, { recursive: true, force: true });
        }
      }), { numRuns: 150 });
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('every YAML file the library writes reads back the same for YAML 1.1 readers (Helm, the migration tool, kubectl)', () => {
  const hostile = fc.oneof(
    fc.constantFrom('yes', 'no', 'on', 'off', 'y', 'n', 'Y', 'N', 'true', 'False', '~', 'null', '0777', '0x1F', '1_000', '12:30', '1e3', '.inf', '-.nan',
      '*a', '&a', '!tag', '- a', '? a', ': a', '#c', '"q"', "'q'", '', ' lead', 'trail ', 'a: b', 'multi\nline', 'ünïcødé', '2001-01-01'),
    fc.string({ maxLength: 6 }),
  );

  test('users, passwords, hosts and chart values come back as the same strings', () => {
    let written = 0;
    fc.assert(fc.property(hostile, hostile, hostile, (user, password, value) => {
      const t = validTree();
      t.mig.sources[0].user = user;
      t.mig.sources[0].password = password;
      t.mig.target.user = user;
      t.drainer.extraValues = { nodeSelector: { disk: value } };
      let files;
      try {
        files = renderApp(build(t)).files;
      } catch (e) {
        // A value the library refuses (a user with a quote, say) is not written at all.
        expect(e).toBeInstanceOf(ClusterTlsError);
        return;
      }
      const yamlFiles = files.filter((f) => f.path.endsWith('.yaml'));
      expect(yamlFiles.length).toBeGreaterThan(3);
      for (const f of yamlFiles) {
        const as11 = YAML.parseAllDocuments(f.content, { version: '1.1' }).map((d) => d.toJS());
        const as12 = YAML.parseAllDocuments(f.content).map((d) => d.toJS());
        expect({ file: f.path, docs: as11 }).toEqual({ file: f.path, docs: as12 });
      }
      const source = YAML.parse(files.find((f) => f.path === 'demo/basic/migration/source1.yaml')!.content, { version: '1.1' });
      expect(JSON.stringify(source)).toContain(JSON.stringify(user));
      const values = YAML.parse(files.find((f) => f.path === 'demo/basic/drainer-binlog-values.yaml')!.content, { version: '1.1' });
      expect(values.nodeSelector).toEqual({ disk: value });
      written++;
    }), { numRuns: 200 });
    // Most runs must write their files, or the property would hold without testing anything.
    expect(written).toBeGreaterThan(100);
  });
});
