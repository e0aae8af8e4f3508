/**
 * The rules that span constructs, checked as one validation of the app (`node.addValidation` on
 * its root), so that every way of rendering it runs them: the library's `synthesize` and
 * `renderApp`, and stock cdk8s (`app.synth()`, `Chart.toJson()`, `Testing.synth()`).
 *
 * Stock `app.synth()` of an app that holds the library's constructs would write the manifests
 * alone, the plans, runbooks, chart values and migration files silently missing: on such an app it
 * does what the library's `synthesize` does instead, unless the app asks for its manifests alone.
 */
import { ApiObject, App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CLUSTER_RESOURCE_KINDS as CLUSTER_RESOURCES, OPERATOR_MOUNTS } from '../model/catalog';
import * as names from '../model/names';
import { clusterKey } from '../model/trust';
import { allowedCommonNameLists } from '../model/allowed-common-names';
import { ClusterTlsError, Description, describeValue, inputErrorMessage } from '../model/errors';
import { AppFacts, TrustFacts, appFacts } from './app-facts';
import { trustBoundary } from './trust-rule';
import type { MigrationRecreationPhase } from '../model/recreation';

/**
 * Context key that lets stock cdk8s synthesize an app holding the library's constructs. Set it to
 * `true` on the app (`app.node.setContext(MANIFESTS_ONLY_CONTEXT, true)`, before adding charts) to
 * write the manifests alone, without the library's plans, runbooks, chart values and files.
 */
export const MANIFESTS_ONLY_CONTEXT = 'cdk8s-cluster-tls/manifests-only';

/** What the rules need to know about a `ClusterCertificates`. */
export interface CertificatesFacts extends TrustFacts {
  readonly node: IConstruct['node'];
  readonly namespace: string;
  readonly clusterName: string;
  readonly commonName: string;
  /** Every Secret the certificates issue or require. */
  secretNames(): string[];
  /** Every Secret of the plan in the cluster's namespace, TLS for MySQL clients' included (see `ClusterCertificates._plannedSecrets`). */
  _plannedSecrets(): string[];
  /** The objects named by a joined name or cluster-wide (see `ClusterCertificates._joinedNameClaims`). */
  _joinedNameClaims(): { readonly what: string; readonly namespace?: string; readonly name: string }[];
  /** The issuer `issuerRef` names, and the ClusterIssuer of the SQL CA (see `ClusterCertificates._issuers`). */
  _issuers(): { readonly issuerRef?: { readonly name: string; readonly kind: string; readonly group: string }; readonly sqlIssuer?: string };
  /** The Kubernetes clusters the cluster spans, when it spans several (see `ClusterCertificates.span`). */
  readonly span?: {
    readonly clusters: readonly { readonly name: string; readonly clusterDomain: string; readonly namespace: string }[];
    readonly current: { readonly name: string };
    readonly root?: { readonly name: string };
  };
  /** The rotation declared last, with every one before it (see `ClusterCertificates.rotation`). */
  readonly rotation?: { readonly phase: string; readonly history: readonly { readonly id: string; readonly kind: string }[] };
}

/** What the rules need to know about a `DrainerRelease`. */
export interface DrainerFacts {
  readonly node: IConstruct['node'];
  readonly namespace: string;
  readonly releaseName: string;
  readonly drainerName: string;
}

/** What the record needs to know about a migration cluster's re-creation with TLS. */
export interface RecreationFacts {
  readonly node: IConstruct['node'];
  readonly namespace: string;
  readonly clusterName: string;
  /** The phase declared, if any. */
  readonly recreationPhase?: MigrationRecreationPhase;
}

/** The library's constructs of one app, as they were added. */
interface AppState {
  readonly certificates: CertificatesFacts[];
  readonly drainers: DrainerFacts[];
  readonly recreations: RecreationFacts[];
}

const STATE = Symbol.for('cdk8s-cluster-tls.app-rules');

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
    root.node.addValidation({ validate: () => firstRuleFailure(root, created) });
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
        // Loaded here: the synthesis module loads this one.
        const { synthesize }: typeof import('./synthesize') = require('./synthesize');
        synthesize(this);
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

/** The app's validation: the first failure of the rules, as one line; one mistake is one line. */
function firstRuleFailure(root: IConstruct, state: AppState): string[] {
  const facts = appFacts(root, state.certificates);
  const objects = facts.objects.map((o) => o.object);
  const failure = uniqueObjects(objects) ?? secretClaims(state.certificates) ?? joinedNames(state.certificates) ?? issuerRefs(facts, state.certificates)
    ?? drainerReleases(state.drainers) ?? operatorMounts(facts, state.certificates) ?? commonNames(facts, state.certificates) ?? trustBoundary(facts);
  return failure === undefined ? [] : [failure];
}

/** Two objects of the same kind, namespace and name would overwrite each other in the cluster. */
export function uniqueObjects(objects: readonly ApiObject[]): string | undefined {
  const seen = new Map<string, string>();
  // Cluster resources first, so that two clusters of one name are reported as such.
  const isCluster = (o: ApiObject) => CLUSTER_RESOURCES.has(o.kind);
  for (const o of [...objects.filter(isCluster), ...objects.filter((x) => !isCluster(x))]) {
    const group = o.apiVersion.slice(0, Math.max(o.apiVersion.lastIndexOf('/'), 0));
    const namespace = o.metadata.namespace ?? '';
    const key = `${group}/${o.kind}/${namespace}/${o.name}`;
    const other = seen.get(key);
    if (other !== undefined) {
      return `${o.node.path}: ${o.kind} "${o.name}" in namespace "${namespace}": received it twice (${other} declares it too); `
        + 'expected each object once: share one construct instead of declaring it twice';
    }
    seen.set(key, o.node.path);
  }
  return undefined;
}

/** Two constructs that issue or require the same Secret in one namespace. */
export function secretClaims(certificates: readonly CertificatesFacts[]): string | undefined {
  const seen = new Map<string, string>();
  for (const c of certificates) {
    for (const name of new Set(c.secretNames())) {
      const key = `${c.namespace}/${name}`;
      const first = seen.get(key);
      if (first !== undefined) {
        return `${c.node.path}: Secret "${name}" in namespace "${c.namespace}": received a second claim (${first} claims it too); `
          + 'expected each Secret issued by one construct: pass the same ClusterCertificates to every cluster of that name';
      }
      seen.set(key, c.node.path);
    }
  }
  return undefined;
}

/**
 * Objects two clusters name alike because their names join to the same text (`x`/`y-z` and
 * `x-y`/`z`): an application's Secret in one namespace, the exporter's cluster-wide objects. The
 * second install would fail in the cluster, or take over the first one's.
 */
export function joinedNames(certificates: readonly CertificatesFacts[]): string | undefined {
  const seen = new Map<string, string>();
  for (const c of certificates) {
    for (const claim of c._joinedNameClaims()) {
      const key = `${claim.what}/${claim.namespace ?? ''}/${claim.name}`;
      const first = seen.get(key);
      if (first !== undefined && first !== c.node.path) {
        const where = claim.namespace === undefined ? 'in the whole cluster' : `in namespace "${claim.namespace}"`;
        return `${c.node.path}: ${claim.what} "${claim.name}" ${where}: received a second claim (${first} names it so too); `
          + `expected a name of one cluster: namespace "${c.namespace}" and cluster "${c.clusterName}" join to the same text as the other's; rename either cluster`;
      }
      seen.set(key, c.node.path);
    }
  }
  return undefined;
}

/**
 * What `issuerRef` may not name, when the app declares it: a self-signed issuer (each leaf would
 * be its own CA, and no component could check another's), or the SQL CA of a cluster, whose
 * certificates go to application teams (it would sign a cluster's components too).
 */
export function issuerRefs(facts: AppFacts, certificates: readonly CertificatesFacts[]): string | undefined {
  const sqlIssuers = new Map(certificates.flatMap((c) => {
    const sql = c._issuers().sqlIssuer;
    return sql === undefined ? [] : [[sql, c] as const];
  }));
  for (const c of certificates) {
    const ref = c._issuers().issuerRef;
    if (ref === undefined || ref.group !== 'cert-manager.io') {
      continue;
    }
    const sql = ref.kind === 'ClusterIssuer' ? sqlIssuers.get(ref.name) : undefined;
    if (sql !== undefined) {
      return `${c.node.path}: issuerRef: received the ClusterIssuer "${ref.name}", the SQL CA of cluster ${sql.namespace}/${sql.clusterName}; `
        + 'expected an issuer of a CA for cluster components: the SQL CA signs the certificates application teams hold, and must sign nothing else';
    }
    const issuer = facts.objects.find(({ object: o }) => o.kind === ref.kind && o.name === ref.name && o.apiVersion.startsWith('cert-manager.io/')
      && (ref.kind === 'ClusterIssuer' || o.metadata.namespace === c.namespace));
    if (issuer !== undefined && issuer.rendered.spec?.selfSigned !== undefined) {
      return `${c.node.path}: issuerRef: received the self-signed ${ref.kind} "${ref.name}" (${issuer.object.node.path}); `
        + 'expected an issuer of a CA: with a self-signed issuer each certificate is its own CA, and no component can check another\'s';
    }
  }
  return undefined;
}

/**
 * Drainer releases of one namespace: Helm refuses a second release of the same name, and two
 * drainers of one name would share a StatefulSet and a service.
 */
export function drainerReleases(drainers: readonly DrainerFacts[]): string | undefined {
  const releases = new Map<string, string>();
  const names = new Map<string, string>();
  for (const d of drainers) {
    const release = releases.get(`${d.namespace}/${d.releaseName}`);
    const name = names.get(`${d.namespace}/${d.drainerName}`);
    if (release !== undefined) {
      return `${d.node.path}: releaseName: received ${describeValue(d.releaseName)}; expected a release name no other drainer of namespace `
        + `"${d.namespace}" uses (${release} installs a release of that name, and helm install refuses a second one)`;
    }
    if (name !== undefined) {
      return `${d.node.path}: drainerName: received ${describeValue(d.drainerName)}; expected a drainer name no other drainer of namespace `
        + `"${d.namespace}" uses (${name} names its drainer so)`;
    }
    releases.set(`${d.namespace}/${d.releaseName}`, d.node.path);
    names.set(`${d.namespace}/${d.drainerName}`, d.node.path);
  }
  return undefined;
}

/**
 * The allowed Common Name lists of every cluster resource, as rendered (escape hatches applied),
 * against the Common Name of its cluster's certificates: each list holds it, and the
 * single-value lists (coordinator, migration master) hold exactly it. A cluster resource with TLS
 * off (a TLS enablement before its flip) has no lists yet, and is skipped.
 */
export function commonNames(facts: AppFacts, certificates: readonly CertificatesFacts[]): string | undefined {
  const byCluster = new Map(certificates.map((c) => [clusterKey(c.namespace, c.clusterName), c.commonName]));
  for (const { object: o, rendered } of facts.objects) {
    if (!CLUSTER_RESOURCES.has(o.kind)) {
      continue;
    }
    const cn = byCluster.get(clusterKey(o.metadata.namespace ?? '', o.name));
    if (cn === undefined || rendered.spec?.tlsCluster?.enabled === false) {
      continue;
    }
    for (const { entry, path, value: list, optional } of allowedCommonNameLists(rendered)) {
      const field = path.join('.');
      if (optional && list === undefined) {
        continue;
      }
      if (entry.commonNameCheck!.singleValue && !(Array.isArray(list) && list.length === 1 && list[0] === cn)) {
        return `${o.node.path}: ${field}: received ${describeValue(list)}; expected exactly ["${cn}"], the certificates' Common Name (only one value is allowed)`;
      }
      if (!Array.isArray(list) || !list.includes(cn)) {
        return `${o.node.path}: ${field}: received ${describeValue(list)}; expected a list that holds "${cn}", the certificates' Common Name`;
      }
    }
  }
  return undefined;
}

/**
 * The fields of every cluster resource with TLS on that have the operator mount a Secret
 * (`OPERATOR_MOUNTS`), as rendered (escape hatches applied), against what the cluster's
 * certificates plan: a field set by a patch rather than by its prop would have the operator mount
 * a Secret nothing issues, and the pods would not start.
 */
export function operatorMounts(facts: AppFacts, certificates: readonly CertificatesFacts[]): string | undefined {
  const byCluster = new Map(certificates.map((c) => [clusterKey(c.namespace, c.clusterName), c]));
  for (const { object: o, rendered } of facts.objects) {
    const c = byCluster.get(clusterKey(rendered.metadata?.namespace, rendered.metadata?.name));
    if (!CLUSTER_RESOURCES.has(o.kind) || c === undefined || rendered.spec?.tlsCluster?.enabled !== true) {
      continue;
    }
    const planned = new Set(c._plannedSecrets());
    for (const mount of OPERATOR_MOUNTS.filter((m) => m.resourceKind === o.kind)) {
      const value = mount.path.reduce((at: any, key) => at?.[key], rendered);
      const on = mount.value === undefined ? value !== undefined : value === mount.value;
      const secret = 'component' in mount.secret ? names.serverSecretName(c.clusterName, mount.secret.component) : names.sqlServerSecretName(c.clusterName);
      if (on && !planned.has(secret)) {
        const received = typeof value === 'object' && value !== null ? new Description('an object') : value;
        return `${o.node.path}: ${mount.path.join('.')}: received ${describeValue(received)}; expected it set by the construct's prop ${mount.prop}, which issues what it has `
          + `the operator mount: Secret "${secret}", which the certificates of cluster ${c.namespace}/${c.clusterName} do not issue, and without which the pods do not start`;
      }
    }
  }
  return undefined;
}
