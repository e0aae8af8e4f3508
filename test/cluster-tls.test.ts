/**
 * The entry points as Python, Java and Go see them: `ClusterTls`'s static methods, `app.synth()`
 * reached through the app's class (as the jsii kernel calls it), and the text of a refusal.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import { ClusterCertificates, ClusterTls, ClusterTlsError, renderApp, synthesize } from '../lib';

function tmpdir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-entry-'));
}

function withCertificates<A extends App>(app: A): A {
  new ClusterCertificates(new Chart(app, 'demo', { namespace: 'demo' }), 'certs', { clusterName: 'basic', components: ['store'] });
  return app;
}

/** Every file below a folder, with its content. */
function contents(dir: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), fs.readFileSync(path.join(e.parentPath, e.name), 'utf8')]));
}

describe('ClusterTls', () => {
  test('synthesize writes what synthesize() writes, and says so alike', () => {
    const [a, b] = [tmpdir(), tmpdir()];
    const viaClass = ClusterTls.synthesize(withCertificates(new App()), { outdir: path.join(a, 'dist') });
    const viaFunction = synthesize(withCertificates(new App()), { outdir: path.join(b, 'dist') });
    expect(viaClass.files).toEqual(viaFunction.files);
    expect(viaClass.otherFiles).toEqual(viaFunction.otherFiles);
    expect(contents(a)).toEqual(contents(b));
    expect(Object.keys(contents(a))).toEqual(expect.arrayContaining(['cluster-tls.lock.json', path.join('cluster-tls', 'demo', 'basic', 'tls-plan.json')]));
  });

  test('render writes nothing and renders what renderApp renders', () => {
    const dir = tmpdir();
    const rendered = ClusterTls.render(withCertificates(new App({ outdir: path.join(dir, 'dist') })));
    expect(rendered).toEqual(renderApp(withCertificates(new App({ outdir: path.join(dir, 'dist') }))));
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('app.synth() through the app\'s class, as the jsii kernel calls it', () => {
  test('the method the class of an app holding the library\'s constructs answers for synth is the library\'s', () => {
    const dir = tmpdir();
    const app = withCertificates(new App({ outdir: path.join(dir, 'dist') }));
    // The jsii kernel calls `instance.constructor.prototype[method]`, never the object's own property.
    const synth = (app.constructor as { prototype: App }).prototype.synth;
    synth.call(app);
    expect(fs.readdirSync(dir).sort()).toEqual(['cluster-tls', 'cluster-tls.lock.json', 'dist']);
    expect(Object.prototype.hasOwnProperty.call(app, 'synth')).toBe(false);
  });

  test('an app stays an instance of its class, with its own members, and two apps each write their own output', () => {
    class ShopApp extends App {
      public readonly team = 'shop';
      public describe(): string {
        return `${this.team} in ${path.basename(this.outdir)}`;
      }
    }
    const [a, b] = [tmpdir(), tmpdir()];
    const shop = withCertificates(new ShopApp({ outdir: path.join(a, 'dist') }));
    const plain = withCertificates(new App({ outdir: path.join(b, 'dist') }));
    expect(shop).toBeInstanceOf(ShopApp);
    expect(shop).toBeInstanceOf(App);
    expect(shop.describe()).toBe('shop in dist');
    shop.synth();
    plain.synth();
    expect(fs.existsSync(path.join(a, 'cluster-tls.lock.json'))).toBe(true);
    expect(fs.existsSync(path.join(b, 'cluster-tls.lock.json'))).toBe(true);
    // The other app's class is untouched: a plain App without the library's constructs is stock.
    const stock = new App({ outdir: path.join(tmpdir(), 'dist') });
    expect(Object.getPrototypeOf(stock)).toBe(App.prototype);
  });
});

describe('a refusal\'s text', () => {
  test('String() of a ClusterTlsError is its message alone: the text the jsii kernel hands other languages', () => {
    const error = new ClusterTlsError('demo/certs: clusterName: received "Basic"; expected a DNS label');
    expect(String(error)).toBe('demo/certs: clusterName: received "Basic"; expected a DNS label');
    expect(`${error}`).toBe(error.message);
    expect(error.name).toBe('ClusterTlsError');
  });
});
