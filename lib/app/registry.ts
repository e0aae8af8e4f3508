/**
 * The library's constructs of an app, as they register: `ClusterCertificates`, the drainer
 * releases and the migration clusters, each read later by the app's rules (`app-rules.ts`), added
 * as the app's validation when its first construct registers, and by the synthesis (the record,
 * the span's agreement). A construct registers through this module and never imports the synthesis.
 *
 * Stock `app.synth()` of an app that holds the library's constructs would write the manifests
 * alone, the plans, runbooks, chart values and migration files silently missing: on such an app it
 * does what the library's `synthesize` does instead, unless the app asks for its manifests alone.
 * The synthesis stands above the constructs, so it hands itself to this module when it loads
 * (`useLibrarySynthesis`); the package's entry point loads it.
 */
import { App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { ClusterTlsError, Description, inputErrorMessage } from '../model/errors';
import type { CertificatesFacts, DrainerFacts, RecreationFacts } from './app-facts';
import { firstRuleFailure } from './app-rules';

/**
 * Context key that lets stock cdk8s synthesize an app holding the library's constructs. Set it to
 * `true` on the app (`app.node.setContext(MANIFESTS_ONLY_CONTEXT, true)`, before adding charts) to
 * write the manifests alone, without the library's plans, runbooks, chart values and files.
 */
export const MANIFESTS_ONLY_CONTEXT = 'cdk8s-cluster-tls/manifests-only';

/** The library's constructs of one app, as they were added. */
interface AppState {
  readonly certificates: CertificatesFacts[];
  readonly drainers: DrainerFacts[];
  readonly recreations: RecreationFacts[];
}

const STATE = Symbol.for('cdk8s-cluster-tls.registry');

/** The state of an app that holds any of the library's constructs. */
function existingState(app: IConstruct): AppState | undefined {
  return (app.node.root as IConstruct & { [STATE]?: AppState })[STATE];
}

/** The state of the app that holds `scope`, created (with the app's validation) on first use. */
function stateOf(scope: IConstruct): AppState {
  const root = scope.node.root;
  let state = existingState(root);
  if (state === undefined) {
    const created: AppState = { certificates: [], drainers: [], recreations: [] };
    Object.defineProperty(root, STATE, { value: created });
    root.node.addValidation({ validate: () => firstRuleFailure(root, created.certificates, created.drainers) });
    if (root instanceof App) {
      synthesizeOnStockSynth(root);
    }
    state = created;
  }
  return state;
}

/** Records a `ClusterCertificates` for the rules of its app. */
export function registerCertificates(certificates: CertificatesFacts & IConstruct): void {
  stateOf(certificates).certificates.push(certificates);
}

/** Records a `DrainerRelease` for the rules of its app. */
export function registerDrainer(drainer: DrainerFacts & IConstruct): void {
  stateOf(drainer).drainers.push(drainer);
}

/** Records a migration cluster, with the phase of its re-creation with TLS if one is declared, for the record of its app. */
export function registerRecreation(cluster: RecreationFacts & IConstruct): void {
  stateOf(cluster).recreations.push(cluster);
}

/** The migration clusters of an app, each with the phase of its re-creation with TLS if one is declared, in the order they were added. */
export function registeredRecreations(app: App): readonly RecreationFacts[] {
  return existingState(app)?.recreations ?? [];
}

/** The `ClusterCertificates` of an app, in the order they were added. */
export function registeredCertificates(app: App): readonly CertificatesFacts[] {
  return existingState(app)?.certificates ?? [];
}

/** The drainer releases of an app, in the order they were added. */
export function registeredDrainers(app: App): readonly DrainerFacts[] {
  return existingState(app)?.drainers ?? [];
}

/**
 * Makes `app.synth()` of this app do what the library's `synthesize(app)` does, into `app.outdir`:
 * every file, with every guard, the atomic swap and the record; a refusal is thrown as a
 * {@link ClusterTlsError}, as cdk8s throws its own validation errors, before anything is written.
 * With {@link MANIFESTS_ONLY_CONTEXT} set, stock cdk8s writes the manifests alone. Only this app
 * object changes; `Chart.toJson()` and `Testing.synth()`, which write nothing, work as they do.
 *
 * The app's prototype is swapped for a subclass of its own class rather than `synth` set on the
 * object: an app of Python, Java or Go calls `synth` through the jsii kernel, which looks the method
 * up on the object's class, never on the object.
 */
function synthesizeOnStockSynth(app: App): void {
  const own = Object.getPrototypeOf(app) as App;
  if (Object.prototype.hasOwnProperty.call(own, LIBRARY_SYNTH)) {
    return;
  }
  let library = librarySynthClasses.get(own);
  if (library === undefined) {
    const base = own.constructor as new (...args: never[]) => App;
    const overridden = ownSynthClass(own);
    library = class LibraryApp extends base {
      public synth(): void {
        if (this.node.tryGetContext(MANIFESTS_ONLY_CONTEXT) === true) {
          super.synth();
          return;
        }
        if (overridden !== undefined) {
          // Its synth() would be passed over, whatever it does: say so rather than run without it.
          throw new ClusterTlsError(inputErrorMessage('app', 'synth', new Description(`an app of class ${overridden}, which has a synth() of its own`),
            'an app whose synth() the library runs: it writes the manifests, the files folder and the record in one step; do your work before or after app.synth(), '
            + 'or call ClusterTls.synthesize(this) from your synth() instead of super.synth()'));
        }
        librarySynthesis()(this);
      }
    };
    Object.defineProperty(library.prototype, LIBRARY_SYNTH, { value: true });
    librarySynthClasses.set(own, library);
  }
  Object.setPrototypeOf(app, library.prototype);
}

/** The name of the app's class that has a `synth()` of its own, below cdk8s's `App`; undefined for an app of no such class. */
function ownSynthClass(proto: object): string | undefined {
  for (let p: object | null = proto; p !== null && p !== App.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.prototype.hasOwnProperty.call(p, 'synth')) {
      return (p as { constructor?: { name?: string } }).constructor?.name || 'an anonymous class';
    }
  }
  return undefined;
}

/** Marks the prototype that runs the library's synthesis. */
const LIBRARY_SYNTH = Symbol.for('cdk8s-cluster-tls.library-synth');

/** The subclass that runs the library's synthesis, for each app class it was put under. */
const librarySynthClasses = new WeakMap<object, new (...args: never[]) => App>();

/** Where the library's `synthesize` is kept once handed over: on the global object, so every copy of the package finds it. */
const SYNTHESIS = Symbol.for('cdk8s-cluster-tls.synthesis');

/**
 * Hands this module the library's synthesis, which `app.synth()` of an app holding the library's
 * constructs runs. Called by `synth/synthesize.ts` as it loads; the first synthesis handed over is
 * kept, so loading a second copy of the package changes nothing.
 */
export function useLibrarySynthesis(synthesize: (app: App) => void): void {
  const global = globalThis as { [SYNTHESIS]?: (app: App) => void };
  global[SYNTHESIS] ??= synthesize;
}

/** The library's synthesis; a fault when the synthesis module was never loaded, which the package's entry point does. */
function librarySynthesis(): (app: App) => void {
  const synthesis = (globalThis as { [SYNTHESIS]?: (app: App) => void })[SYNTHESIS];
  if (synthesis === undefined) {
    throw new Error('cdk8s-cluster-tls: the library\'s synthesis is not loaded: import the library from its package (\'cdk8s-cluster-tls\'), whose entry point loads it');
  }
  return synthesis;
}
