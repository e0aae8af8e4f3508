/**
 * The app's objects, each rendered once per synth: the facts every rule, the rotation runbook's
 * list of workloads and the manifests read. A pure function renders them (`toJson`, escape hatches
 * applied) with the namespace each lands in and every reference it makes to a Secret or an issuer;
 * while a synth holds its pass over the app open ({@link openRenderPass}), the first reader
 * renders them and every later one gets the same facts, kept in a `WeakMap` keyed by the app's
 * root. Outside a pass (stock `Chart.toJson()`, `Testing.synth()`, a document rendered on its own)
 * each reader renders the app afresh, as escape hatches may have changed it since. What several
 * readers derive alike from one construct (a cluster's plan, an expiry watch's rule group) is kept
 * for the pass the same way ({@link oncePerPass}).
 *
 * Here, below the constructs, so that a construct (`ClusterCertificates`, whose rotation runbook
 * lists the workloads that load its Secrets) reads the facts the rules read without importing the
 * synthesis.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { TrustReference, objectNamespace, trustReferences } from '../model/trust-references';

/**
 * One API object of the app, rendered.
 * @jsii ignore
 */
export interface AppObject {
  /** The object. */
  readonly object: ApiObject;
  /** Its manifest, escape hatches applied. */
  readonly rendered: any;
  /** The namespace it lands in (its own, or the one kubectl gives it); nothing for a kind outside namespaces. */
  readonly namespace?: string;
  /**
   * Every reference it makes to a Secret or an issuer. A ClusterIssuer's Secrets are read where
   * cert-manager reads them, which the app's certificates know: here a ClusterIssuer outside
   * namespaces refers to none (see {@link readsClusterResourceNamespaces}).
   */
  readonly references: readonly TrustReference[];
}

/** An open pass over one app: how many hold it, the facts once a reader asked for them, and the values of {@link oncePerPass}. */
interface RenderPass {
  holders: number;
  objects?: readonly AppObject[];
  /** Values computed in this pass, by construct and by what they are. */
  readonly values: Map<IConstruct, Map<symbol, unknown>>;
}

/** The open pass of each app, by its root. */
const passes = new WeakMap<IConstruct, RenderPass>();

/**
 * Opens a pass over the app that holds `scope`, until the function returned is called: the
 * objects are rendered at most once in between. A synth opens it once its app is built and closes
 * it when its files are rendered; passes nest (the pass ends when its last holder closes it).
 */
export function openRenderPass(scope: IConstruct): () => void {
  const root = scope.node.root;
  const pass = passes.get(root) ?? { holders: 0, values: new Map() };
  pass.holders++;
  passes.set(root, pass);
  let closed = false;
  return () => {
    if (!closed) {
      closed = true;
      if (--pass.holders === 0) {
        passes.delete(root);
      }
    }
  };
}

/** Every API object of the app that holds `scope`, in the order of the construct tree: rendered once per pass, afresh outside one. */
export function appObjects(scope: IConstruct): readonly AppObject[] {
  const pass = passes.get(scope.node.root);
  if (pass === undefined) {
    return renderAppObjects(scope.node.root);
  }
  pass.objects ??= renderAppObjects(scope.node.root);
  return pass.objects;
}

/**
 * The value `compute` gives for `what` of `construct`: while a pass over its app is open, computed
 * once and handed to every later reader of the pass (the app is complete once its synth begins, as
 * for the rendered objects); outside a pass, computed afresh for each reader. For what several
 * readers of one synth derive alike from a construct, such as a cluster's certificate plan; the
 * value is shared, so readers must not change it.
 */
export function oncePerPass<T>(construct: IConstruct, what: symbol, compute: () => T): T {
  const pass = passes.get(construct.node.root);
  if (pass === undefined) {
    return compute();
  }
  let values = pass.values.get(construct);
  if (values === undefined) {
    values = new Map();
    pass.values.set(construct, values);
  }
  if (!values.has(what)) {
    values.set(what, compute());
  }
  return values.get(what) as T;
}

/** Renders every API object under `root` once, with its namespace and references: a pure function of the tree. */
function renderAppObjects(root: IConstruct): AppObject[] {
  return root.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((object): AppObject => {
    const rendered = object.toJson();
    const namespace = objectNamespace(rendered);
    return { object, rendered, namespace, references: trustReferences(rendered, namespace) };
  });
}

/**
 * Whether an object's references depend on the namespaces cert-manager reads a ClusterIssuer's
 * Secrets from: a ClusterIssuer outside namespaces. Its references are read again with them.
 */
export function readsClusterResourceNamespaces(o: AppObject): boolean {
  return o.namespace === undefined && o.rendered?.kind === 'ClusterIssuer';
}
