/**
 * The workloads of an app that load a cluster's Secrets: the ones a rotation must restart after
 * the operator's components, by name, with the command that restarts each. Pure functions over
 * rendered Kubernetes objects, so that any workload counts, whoever made it and whatever its kind
 * (a cdk8s-plus `Deployment` given `clientSecret()`, an `ApiObject` written by hand, a custom
 * resource with a pod template): what it loads is found by shape, as the trust rule finds it.
 */
import { CLUSTER_RESOURCE_KINDS } from '../model/catalog';
import { TrustReference, objectNamespace, trustReferences } from '../model/trust-references';

/** A workload that loads one or more of the Secrets asked about. */
export interface SecretConsumer {
  /** Its kind: `Deployment`, `StatefulSet`, `DaemonSet`, `Job`, `CronJob`, `Pod`, or any other with a pod template. */
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  /** The Secrets it loads, of those asked about. */
  readonly secrets: readonly string[];
}

/** The kinds `kubectl rollout restart` restarts in place, one pod at a time. */
export const ROLLING_KINDS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/**
 * The objects among `objects` (rendered manifests) whose pods load one of `secretNames` in
 * `namespace`, in the order given: the cluster resources are left out, since the operator
 * restarts their pods itself.
 */
export function secretConsumers(objects: readonly any[], namespace: string, secretNames: readonly string[]): SecretConsumer[] {
  return consumersAmong(objects.map((rendered) => {
    const at = objectNamespace(rendered);
    return { rendered, namespace: at, get references() { return trustReferences(rendered, at); } };
  }), namespace, secretNames);
}

/** A rendered object with the namespace it lands in and its references, as `app/app-objects.ts` reads them once per synth. */
export interface ConsumerFacts {
  readonly rendered: any;
  readonly namespace?: string;
  readonly references: readonly TrustReference[];
}

/** {@link secretConsumers}, on objects whose namespace and references were read already (the app's facts). */
export function consumersAmong(objects: readonly ConsumerFacts[], namespace: string, secretNames: readonly string[]): SecretConsumer[] {
  const wanted = new Set(secretNames);
  const out: SecretConsumer[] = [];
  for (const o of objects) {
    if (CLUSTER_RESOURCE_KINDS.has(o.rendered?.kind) || o.namespace !== namespace) {
      continue;
    }
    const secrets = [...new Set(o.references
      .filter((r) => r.way === 'loads' && r.target.namespace === namespace && wanted.has(r.target.name))
      .map((r) => r.target.name))];
    if (secrets.length > 0) {
      out.push({ kind: o.rendered.kind, name: o.rendered.metadata.name, namespace, secrets });
    }
  }
  return out;
}
