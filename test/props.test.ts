/**
 * model/props.ts: free-form data as it arrives from TypeScript and from the jsii runtime of
 * Python, Java and Go, and the one order the library writes its maps in, whatever order they came in.
 */
import { App, Chart } from 'cdk8s';
import * as TOML from 'smol-toml';
import * as YAML from 'yaml';
import { Construct } from 'constructs';
import * as lib from '../lib';
import { ClusterTls, ClusterTlsError, DrainerRelease, TlsDatabaseCluster } from '../lib';
import { PropShape, PropSpec, RuleName, canonicalData, checkProps, declaredShapes, notPlainData, withRules } from '../lib/model/props';
import { VALUE_RULES } from '../lib/model/rules';

/** A map as the jsii runtime hands one over from Python, Java or Go: its mark, a read-only, non-enumerable symbol property. */
function fromJsii<T extends object>(map: T): T {
  Object.defineProperty(map, Symbol.for('$jsii$wireType$'), { value: '$jsii.map', enumerable: false, writable: false, configurable: false });
  return map;
}

describe('plain data', () => {
  test('a map the jsii runtime marks is plain data, at any depth and empty', () => {
    expect(notPlainData(fromJsii({}))).toBeUndefined();
    expect(notPlainData(fromJsii({ log: fromJsii({ level: 'info' }), list: [fromJsii({ a: 1 })] }))).toBeUndefined();
  });

  test.each([
    ['a symbol of its own', () => ({ [Symbol('x')]: 1 })],
    ['the runtime\'s symbol, enumerable', () => ({ [Symbol.for('$jsii$wireType$')]: '$jsii.map' })],
    ['the runtime\'s symbol with another value', () => {
      const o = {};
      Object.defineProperty(o, Symbol.for('$jsii$wireType$'), { value: 'other', enumerable: false });
      return o;
    }],
    ['the runtime\'s symbol, writable', () => {
      const o = {};
      Object.defineProperty(o, Symbol.for('$jsii$wireType$'), { value: '$jsii.map', enumerable: false, writable: true });
      return o;
    }],
  ])('a symbol key a user wrote is refused: %s', (_name, make) => {
    expect(notPlainData({ nested: make() })).toEqual({ at: '.nested', what: expect.objectContaining({ text: 'an object with a symbol key' }) });
  });
});

describe('the one order of free-form maps', () => {
  test('every object\'s keys are sorted, at any depth and inside lists; lists keep their order', () => {
    const data = canonicalData({ zeta: { b: 1, a: [{ y: 1, x: 2 }] }, alpha: ['b', 'a'], '10': 1, '2': 2 });
    expect(JSON.stringify(data)).toBe('{"2":2,"10":1,"alpha":["b","a"],"zeta":{"a":[{"x":2,"y":1}],"b":1}}');
  });

  test('the jsii runtime\'s mark is left behind, and an own __proto__ key stays a key', () => {
    const source = fromJsii(JSON.parse('{"__proto__": {"polluted": true}, "b": 1}'));
    const data = canonicalData(source) as Record<string, unknown>;
    expect(Object.getOwnPropertySymbols(data)).toEqual([]);
    expect(Object.keys(data)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('the input is not changed', () => {
    const source = { b: 1, a: 2 };
    canonicalData(source);
    expect(Object.keys(source)).toEqual(['b', 'a']);
  });

  /** The files of an app whose drainer values, component config and labels are given in one order or its reverse. */
  function files(reverse: boolean): Record<string, string> {
    const order = <T extends object>(o: T): T => (reverse ? Object.fromEntries(Object.entries(o).reverse()) as T : o);
    const app = new App({ outdir: '/nonexistent' });
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const database = new TlsDatabaseCluster(chart, 'db', {
      clusterName: 'basic', version: 'v4.0.5',
      store: { config: order({ raftstore: order({ 'sync-log': true, 'apply-pool-size': 2 }), log: { level: 'info' } }) },
    });
    database.certificates.watchExpiry({ alertLabels: order({ team: 'databases', oncall: 'db' }) });
    new DrainerRelease(chart, 'drainer', {
      cluster: database, releaseName: 'binlog', chart: { version: '1.1.5' },
      extraValues: order({ nodeSelector: order({ zone: 'a', disk: 'ssd' }), affinity: {} }),
    });
    return Object.fromEntries(ClusterTls.render(app).files.map((f) => [f.path, f.content]));
  }

  test('an app gives the same files whichever order its maps are in, each map sorted', () => {
    const forward = files(false);
    expect(files(true)).toEqual(forward);
    const values = YAML.parse(Object.entries(forward).find(([p]) => p.endsWith('/drainer-binlog-values.yaml'))![1]);
    expect(Object.keys(values.nodeSelector)).toEqual(['disk', 'zone']);
    const cluster = YAML.parseAllDocuments(forward['demo.k8s.yaml']).map((d) => d.toJS()).find((o) => o.kind === 'DatabaseCluster');
    expect(Object.keys(TOML.parse(cluster.spec.store.config).raftstore as object)).toEqual(['apply-pool-size', 'sync-log']);
  });
});

/**
 * The shapes every construct declares (`declareShape`), walked: every required prop, at any depth,
 * and every field that names a value rule. Cases come from the shapes, so a prop added later is
 * covered without a test written for it.
 */
describe('the declared shapes', () => {
  /** A field of a shape, at any depth, with the one-field shape that holds it alone. */
  interface Field { readonly path: string; readonly key: string; readonly spec: PropSpec; readonly full: Exclude<PropSpec, string> }

  /** Every field of a shape, nested shapes (objects, lists of objects) included; a short spec (`'string?'`) read as its type and whether it is optional. */
  function fieldsOf(shape: PropShape, at = ''): Field[] {
    return Object.entries(shape).flatMap(([key, spec]) => {
      const full = typeof spec === 'string' ? { type: 'value' as const, optional: spec.endsWith('?') } : spec;
      const nested = full.shape ? fieldsOf(full.shape, `${at}${key}${full.type === 'list' ? '[]' : ''}.`) : [];
      return [{ path: `${at}${key}`, key, spec, full }, ...nested];
    });
  }

  /** Every field of every declared shape, by construct. */
  function allFields(): [string, Field][] {
    return [...declaredShapes()].flatMap(([construct, shape]) => fieldsOf(shape).map((f): [string, Field] => [construct, f]));
  }

  /** Words that show a value's form: an example, a quoted literal, an object's fields in braces or a list's items in brackets. */
  const FORM = /such as|for example|"[^"]*"|\{[^}]*\}|\[[^\]]*\]/;

  test('every construct a user declares has its shape declared', () => {
    // SqlTls is made by ClusterCertificates.enableSqlTls from options its caller's shape checked.
    const constructs = Object.entries(lib).filter(([name, v]) => typeof v === 'function' && v.prototype instanceof Construct && name !== 'SqlTls').map(([name]) => name);
    expect(constructs.length).toBeGreaterThan(5);
    expect([...declaredShapes().keys()].filter((k) => !k.includes('.')).sort()).toEqual(constructs.sort());
  });

  test('the options of the methods that take them have their shapes declared, under the construct that has the method', () => {
    const methods = [...declaredShapes().keys()].filter((k) => k.includes('.'));
    // eslint-disable-next-line no-console
    console.log(`method options declared: ${methods.join(', ')}`);
    expect(methods).toEqual(expect.arrayContaining(['TlsDatabaseCluster.addMonitor', 'TlsDatabaseCluster.addSqlClient', 'ClusterCertificates.watchExpiry']));
    for (const method of methods) {
      const [construct, name] = method.split('.');
      expect([method, typeof (lib as Record<string, any>)[construct]?.prototype?.[name]]).toEqual([method, 'function']);
    }
  });

  test('a shape spread into another brings its rules across props, run before the other\'s own', () => {
    const seen: string[] = [];
    const base = withRules({ a: 'string?' }, [() => seen.push('base')]);
    checkProps('test', {}, withRules({ ...base, b: 'string?' }, [() => seen.push('own')]));
    expect(seen).toEqual(['base', 'own']);
    seen.length = 0;
    checkProps('test', {}, { ...base, c: 'string?' });
    expect(seen).toEqual(['base']);
    // Two shapes with rules spread into one: both keep theirs, in the order they were spread.
    seen.length = 0;
    const other = withRules({ d: 'string?' }, [() => seen.push('other')]);
    checkProps('test', {}, withRules({ ...base, ...other }, [() => seen.push('own')]));
    expect(seen).toEqual(['base', 'other', 'own']);
  });

  test('a required prop left out names the form it takes, with an example', () => {
    // A construct prop (`sameApp`) names the class it takes, which is its form.
    const required = allFields().filter(([, f]) => !f.full.optional && !f.full.sameApp);
    const missing = required.map(([construct, f]) => {
      try {
        checkProps('test', {}, { [f.key]: f.spec });
      } catch (error) {
        return [`${construct}.${f.path}`, (error as Error).message] as const;
      }
      return [`${construct}.${f.path}`, 'accepted'] as const;
    });
    // eslint-disable-next-line no-console
    console.log(`required props left out: ${required.length} across ${declaredShapes().size} shapes`);
    expect(required.length).toBeGreaterThan(10);
    const shape = new RegExp(`^test: \\w+: received nothing; expected .*(${FORM.source})`);
    expect(missing.filter(([, message]) => !shape.test(message))).toEqual([]);
  });

  /** A value of the right type that each rule refuses. */
  const BAD: { readonly [rule in RuleName]: unknown } = {
    dnsLabel: 'Not_A_Label', dnsSubdomain: 'Not_A_Subdomain', dnsName: 'no_dns.example', certificateDnsName: 'no_dns.example', ipAddress: '10.0.0.256',
    host: 'no host', goDuration: '90d', storageQuantity: '0Gi', image: 'Registry.example.com/Store:v1', timeZone: 'Mars/Olympus_Mons',
    release: '8.5', commonName: 'two\nlines', count: -1, positiveCount: 0, alertLabels: { severity: 'low' }, kubernetesLabels: { 'bad key!': 'x' },
    port: 65536, migrationSourceId: '-source', migrationTaskName: 'a task', folderPath: './relay log', taskMode: 'all modes', helmReleaseName: 'Binlog',
    chartRepository: 'http://charts.example.com', chartVersion: '^1.1.0', databaseUser: 'back up', backupType: 'Full', keyPrefix: '/backups',
    storageProvider: 'AWS', storageRegion: '-west', bucket: 'my bucket', storageEndpoint: 'ftp://s3.example.com',
  };

  test('every rule has a refused value that its example is not', () => {
    for (const [name, rule] of Object.entries(VALUE_RULES)) {
      expect(() => rule.check('test', name, BAD[name as RuleName])).toThrow(ClusterTlsError);
      if (rule.example !== undefined) {
        expect(() => rule.check('test', name, rule.example)).not.toThrow();
      }
    }
  });

  test('every field that names a rule is refused by the walker with the rule\'s one-line error', () => {
    const ruled = allFields().filter(([, f]) => f.full.rule !== undefined);
    // eslint-disable-next-line no-console
    console.log(`fields with a value rule: ${ruled.length} across ${declaredShapes().size} shapes`);
    expect(ruled.length).toBeGreaterThan(20);
    for (const [construct, f] of ruled) {
      const bad = BAD[f.full.rule!];
      const list = f.full.type === 'list';
      const field = list ? `${f.key}[0]` : f.key;
      let expected = '';
      try {
        VALUE_RULES[f.full.rule!].check('test', field, bad);
      } catch (error) {
        expected = (error as Error).message;
      }
      let received = 'accepted';
      try {
        checkProps('test', { [f.key]: list ? [bad] : bad }, { [f.key]: f.spec });
      } catch (error) {
        received = (error as Error).message;
      }
      expect([`${construct}.${f.path}`, received]).toEqual([`${construct}.${f.path}`, expected]);
      expect(received.split('\n')).toHaveLength(1);
    }
  });

  test('a field\'s default comes back in the checked props, checked as a given value', () => {
    const shape = { zone: { type: 'string', optional: true, rule: 'timeZone', default: 'UTC' }, name: { type: 'string', optional: true, default: (p: { zone: string }) => `in-${p.zone}` } } as const;
    expect(checkProps('test', {}, shape)).toEqual({ zone: 'UTC', name: 'in-UTC' });
    expect(checkProps('test', { zone: 'Asia/Kolkata' }, shape)).toEqual({ zone: 'Asia/Kolkata', name: 'in-Asia/Kolkata' });
    expect(() => checkProps('test', {}, { zone: { ...shape.zone, default: 'Mars/Olympus_Mons' } })).toThrow('test: zone: received "Mars/Olympus_Mons"; expected an IANA time zone name');
  });

  test('a database cluster left without its version names the form of one (issue 62)', () => {
    const chart = new Chart(new App({ outdir: '/nonexistent' }), 'demo', { namespace: 'demo' });
    expect(() => new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic' } as any))
      .toThrow(new ClusterTlsError('demo/db: version: received nothing; expected a release version of the form v<major>.<minor>.<patch>, such as "v4.0.5"'));
    expect(() => new TlsDatabaseCluster(chart, 'db2', { version: 'v8.5.0' } as any)).toThrow(/^demo\/db2: clusterName: received nothing; expected a DNS-1123 label: .*, such as "orders"$/);
  });
});
