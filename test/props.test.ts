/**
 * model/props.ts: free-form data as it arrives from TypeScript and from the jsii runtime of
 * Python, Java and Go, and the one order the library writes its maps in, whatever order they came in.
 */
import { App, Chart } from 'cdk8s';
import * as TOML from 'smol-toml';
import * as YAML from 'yaml';
import { ClusterTls, DrainerRelease, TlsDatabaseCluster } from '../lib';
import { canonicalData, notPlainData } from '../lib/model/props';

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
