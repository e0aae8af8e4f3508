/**
 * One case of each class of hostile input that fell before the generated suite
 * (`hostile-api.test.ts`) covered the class: each refused in one line naming the construct and the
 * field, with no stack trace, no credential and nothing written, or written as its reader reads it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, Duration } from 'cdk8s';
import {
  ClusterCertificates, ClusterTlsError, IssuingMethod, TlsDatabaseCluster, inputErrorMessage, synthesize,
} from '../lib';
import { readManifests } from '../lib/validation/plugin';
import { checkManifests } from '../lib/validation/rules';

/** A fresh app with one chart of namespace `demo`, writing into a folder of its own. */
function setUp(): { app: App; chart: Chart; folder: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-classes-'));
  const app = new App({ outdir: path.join(folder, 'dist') });
  return { app, chart: new Chart(app, 'demo', { namespace: 'demo' }), folder };
}

/** The one line a build refuses with, checked to be one line of the library's. */
function refusal(build: () => unknown): string {
  try {
    build();
  } catch (e) {
    expect(e).toBeInstanceOf(ClusterTlsError);
    const message = (e as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a refusal');
}

describe('numbers that are not finite or past what the consumer parses', () => {
  test.each([
    ['NaN hours', () => Duration.hours(NaN)],
    ['Infinity hours', () => Duration.hours(Infinity)],
    ['half a millisecond', () => Duration.millis(0.5)],
    ['more than Go\'s longest duration', () => Duration.hours(2562048)],
  ])('a Duration of %s is refused naming the field', (_label, make) => {
    const { chart } = setUp();
    expect(refusal(() => new ClusterCertificates(chart, 'certs', { clusterName: 'basic', caDuration: make() })))
      .toMatch(/^demo\/certs: caDuration: received .*; expected a Go duration .*at most 2562047h$/);
  });

  test('a duration string past Go\'s longest is refused; the longest is taken', () => {
    const { chart } = setUp();
    expect(refusal(() => new ClusterCertificates(chart, 'a', { clusterName: 'a', caDuration: '9999999999h' }))).toMatch(/^demo\/a: caDuration: received "9999999999h"/);
    expect(() => new TlsDatabaseCluster(chart, 'b', { clusterName: 'b', version: 'v4.0.5', enablement: { phase: 'issue' as never, evictLeaderTimeout: '2562048h' } }))
      .toThrow(/enablement\.evictLeaderTimeout: received "2562048h"/);
  });

  test('a replica count past the operator\'s int32 is refused', () => {
    const { chart } = setUp();
    expect(refusal(() => new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', store: { replicas: 2 ** 31 } })))
      .toBe('demo/db: store.replicas: received 2147483648; expected a whole number from 1 to 2147483647 (an int32 of the operator)');
  });
});

describe('holes and odd keys', () => {
  test('a list with a hole is refused at the hole', () => {
    const { chart } = setUp();
    const names: string[] = [];
    names[1] = 'db.example.com';
    expect(refusal(() => new ClusterCertificates(chart, 'certs', { clusterName: 'basic', extraNames: { store: { extraDnsNames: names } } })))
      .toMatch(/^demo\/certs: extraNames\.store\.extraDnsNames: received a list with a hole \(an index with nothing at it\); expected plain data/);
  });

  test('an own __proto__ key of a configuration is refused, not dropped', () => {
    const { chart } = setUp();
    expect(refusal(() => new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', store: { config: JSON.parse('{"__proto__": {"a": 1}}') } })))
      .toMatch(/^demo\/db: store\.config: received the key "__proto__", which JavaScript readers take for the prototype of the object, not a key; expected plain data/);
  });
});

describe('names two clusters join alike', () => {
  /** Two database clusters, x/y-z and x-y/z, each with what `add` gives it. */
  function twoClusters(method: IssuingMethod, add: (certs: ClusterCertificates, db: TlsDatabaseCluster) => void): string {
    const { app, folder } = setUp();
    for (const [namespace, name] of [['x', 'y-z'], ['x-y', 'z']]) {
      const chart = new Chart(app, `${namespace}_${name}`, { namespace });
      const certs = new ClusterCertificates(chart, 'certs', { clusterName: name, method });
      add(certs, new TlsDatabaseCluster(chart, 'db', { clusterName: name, version: 'v4.0.5', certificates: certs, tlsClient: {} }));
    }
    const message = refusal(() => synthesize(app));
    expect(fs.readdirSync(folder)).toEqual([]);
    return message;
  }

  test('an application\'s Secret, issued by cfssl in one namespace', () => {
    expect(twoClusters(IssuingMethod.CFSSL, (_c, db) => db.addSqlClient('a', { namespace: 'apps' })))
      .toBe('x-y_z/certs: Secret "a-x-y-z-sql-client" in namespace "apps": received a second claim (x_y-z/certs names it so too); '
        + 'expected a name of one cluster: namespace "x-y" and cluster "z" join to the same text as the other\'s; rename either cluster');
  });

  test('the exporter\'s cluster-wide objects', () => {
    expect(twoClusters(IssuingMethod.CFSSL, (certs) => certs.watchExpiry()))
      .toMatch(/^x-y_z\/certs: x509-certificate-exporter's cluster-wide objects "x-y-z-cert-expiry" in the whole cluster: received a second claim/);
  });
});

describe('references that trust too much', () => {
  test('issuerRef naming the app\'s own self-signed issuer', () => {
    const { app, chart } = setUp();
    new ClusterCertificates(chart, 'ca', { clusterName: 'ca' });
    new TlsDatabaseCluster(chart, 'db', {
      clusterName: 'basic', version: 'v4.0.5',
      certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic', issuerRef: { name: 'ca-selfsigned-ca-issuer', kind: 'Issuer' } }),
    });
    expect(refusal(() => synthesize(app))).toMatch(/^demo\/certs: issuerRef: received the self-signed Issuer "ca-selfsigned-ca-issuer" \(demo\/ca\/SelfSignedIssuer\); expected an issuer of a CA/);
  });

  test('issuerRef naming another cluster\'s SQL CA', () => {
    const { app, chart } = setUp();
    new TlsDatabaseCluster(chart, 'orders', { clusterName: 'orders', version: 'v4.0.5', tlsClient: {} });
    new TlsDatabaseCluster(chart, 'db', {
      clusterName: 'basic', version: 'v4.0.5',
      certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic', issuerRef: { name: 'demo-orders-sql-ca' } }),
    });
    expect(refusal(() => synthesize(app))).toMatch(/^demo\/certs: issuerRef: received the ClusterIssuer "demo-orders-sql-ca", the SQL CA of cluster demo\/orders; expected an issuer of a CA for cluster components/);
  });

  test('an application\'s Secret in the namespace of the SQL CA\'s key', () => {
    const { chart } = setUp();
    const db = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', tlsClient: {} });
    expect(refusal(() => db.addSqlClient('app', { namespace: 'cert-manager' })))
      .toMatch(/^demo\/db: addSqlClient\("app"\)\.options\.namespace: received "cert-manager"; expected a namespace other than "cert-manager", where the SQL CA's key is/);
  });
});

describe('text that becomes code downstream, and one line whatever the text', () => {
  test('an alert label with template syntax is refused: Prometheus would expand it', () => {
    const { chart } = setUp();
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic' });
    expect(refusal(() => certs.watchExpiry({ alertLabels: { team: '{{ $labels.secret }}' } })))
      .toMatch(/^demo\/certs\/ExpiryWatch: alertLabels\.team: received "\{\{ \$labels\.secret \}\}"; expected a label value without "\{\{" or "\}\}"/);
  });

  test('a line break in a field built from a name stays one line, escaped', () => {
    // Fields are built from what the app names (`addSqlClient("<name>")`, a map's keys): the one
    // place every message is made escapes them.
    const { chart } = setUp();
    expect(inputErrorMessage(chart, 'addSqlClient("a\nb").options', 'x', 'y')).toBe('demo: addSqlClient("a\\nb").options: received "x"; expected y');
  });

  test('a value of 5,000,000 characters is refused by its length alone; one of 3,000 is shown cut at 200', () => {
    const { chart } = setUp();
    expect(refusal(() => new ClusterCertificates(chart, 'a', { clusterName: 'a'.repeat(5_000_000) })))
      .toBe('demo/a: clusterName: received a string of 5000000 characters; expected at most 4096 characters');
    const message = refusal(() => new ClusterCertificates(chart, 'b', { clusterName: 'b'.repeat(3000) }));
    expect(message.length).toBeLessThan(1000);
    expect(message).toContain('… (3002 characters in all)');
  });
});

describe('stock synth paths: a refusal is one line and exit code 1, however the app is run', () => {
  const ROOT = path.join(__dirname, '..');
  /** Runs a script of an app with the library as `lib` and cdk8s as `cdk8s` (the compiled build), in a folder of its own. */
  const run = (script: string) => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'stock-synth-'));
    const prelude = `const lib = require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))}); const cdk8s = require(${JSON.stringify(require.resolve('cdk8s'))});\n`;
    const result = spawnSync(process.execPath, ['-e', prelude + script], { cwd: folder, encoding: 'utf8' });
    return { status: result.status, stderr: result.stderr, written: fs.readdirSync(folder) };
  };
  const BAD = "new lib.ClusterCertificates(new cdk8s.Chart(app, 'demo', { namespace: 'demo' }), 'certs', { clusterName: 'Bad' });";

  test('a refusal after an await of an async main', () => {
    expect(run(`async function main() { await new Promise((r) => setTimeout(r, 5)); const app = new cdk8s.App({ outdir: 'dist' }); ${BAD} app.synth(); } main();`))
      .toEqual({ status: 1, stderr: expect.stringMatching(/^error: demo\/certs: clusterName: received "Bad"; expected [^\n]*\n$/), written: [] });
  });

  test('an App subclass with a synth() of its own is refused, not passed over', () => {
    const good = "new lib.ClusterCertificates(new cdk8s.Chart(app, 'demo', { namespace: 'demo' }), 'certs', { clusterName: 'basic' });";
    expect(run(`class MyApp extends cdk8s.App { synth() { super.synth(); } } const app = new MyApp({ outdir: 'dist' }); ${good} app.synth();`))
      .toEqual({ status: 1, stderr: expect.stringMatching(/^error: app: synth: received an app of class MyApp, which has a synth\(\) of its own; expected [^\n]*ClusterTls\.synthesize\(this\)[^\n]*\n$/), written: [] });
  });

  test.each([
    ['returns nothing', '() => undefined', /received a function that returned a value of type undefined; expected a function that returns the app it built/],
    ['returns a Promise', 'async () => new cdk8s.App()', /received a function that returned a Promise \(an async function\); expected a function that returns the app itself/],
  ])('a synthesizeOrExit build that %s', (_label, build, message) => {
    expect(run(`lib.synthesizeOrExit(${build});`)).toEqual({ status: 1, stderr: expect.stringMatching(new RegExp(`^error: synthesizeOrExit: build: ${message.source}[^\\n]*\\n$`)), written: [] });
  });

  test('clientSecret() given something that is no cdk8s-plus package', () => {
    expect(run(`const app = new cdk8s.App({ outdir: 'dist' }); const db = new lib.TlsDatabaseCluster(new cdk8s.Chart(app, 'demo', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5' }); db.clientSecret({ Secret: {} });`))
      .toEqual({ status: 1, stderr: expect.stringMatching(/^error: demo\/db\/Certificates: plus: received a value of type object; expected a cdk8s-plus package[^\n]*\n$/), written: [] });
  });
});

describe('the validation plugin reads manifests as kubectl and judges durations as cert-manager\'s webhook', () => {
  /** The violations of one manifest file of this text, as `cdk8s synth` hands it to the plugin. */
  const violations = (text: string, whole = false) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-')), 'app.k8s.yaml');
    fs.writeFileSync(file, text);
    return checkManifests(readManifests([file])).map((v) => (whole ? JSON.stringify({ ...v, manifestPath: undefined }) : `${v.rule} ${v.field ?? ''}`.trim()));
  };
  /** A database cluster whose coordinator, which takes exactly one Common Name, is given `coordinator`. */
  const cluster = (tls: string, coordinator: string, before = '') => `${before}apiVersion: db.operator.io/v1alpha1
kind: DatabaseCluster
metadata: { name: basic, namespace: demo }
spec:
  tlsCluster: { enabled: ${tls} }
  version: v4.0.5
  coordinator: ${coordinator}
`;
  const TWO = '{ config: { security: { cert-allowed-cn: [basic, other] } } }';

  test('a cluster whose TLS is on in YAML 1.1 (enabled: yes) is judged as TLS-enabled', () => {
    // Read as YAML 1.2, "yes" is a string and TLS off, and the coordinator's second Common Name went unseen.
    expect(violations(cluster('yes', TWO))).toEqual([expect.stringMatching(/coordinator\.config\.security\.cert-allowed-cn/)]);
  });

  test('a merge key is merged, as kubectl merges it: the same violation as the list written out', () => {
    const merged = violations(cluster('true', '{ <<: *two }', `x-defaults: &two ${TWO}\n`), true);
    expect(merged).toHaveLength(1);
    expect(merged).toEqual(violations(cluster('true', TWO), true));
  });

  test('an alias bomb is refused in one line', () => {
    const bomb = 'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n';
    expect(() => violations(bomb)).toThrow(/app\.k8s\.yaml: received YAML whose aliases expand past 100 \(.*\); expected Kubernetes manifests$/);
  });

  test.each([['.5h', /duration/], ['90d', /duration/]])('a Certificate of duration %s is refused, as the webhook refuses it', (duration, rule) => {
    const certificate = `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: { name: c, namespace: demo }
spec: { secretName: c, duration: ${duration}, issuerRef: { name: i, kind: Issuer } }
`;
    expect(violations(certificate)).toEqual([expect.stringMatching(rule)]);
  });
});
