/**
 * The workloads of an app that load a cluster's Secrets: the ones a rotation must restart after
 * the operator's components, by name, with the command that restarts each. Pure functions over
 * rendered Kubernetes objects, so that any workload counts, whoever made it (a cdk8s-plus
 * `Deployment` given `clientSecret()`, an `ApiObject` written by hand).
 */
import { secretsOfPodSpec } from '../model/pod-secrets';

/** A workload that loads one or more of the Secrets asked about. */
export interface SecretConsumer {
  /** `Deployment`, `StatefulSet`, `DaemonSet`, `Job`, `CronJob` or `Pod`. */
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  /** The Secrets it loads, of those asked about. */
  readonly secrets: readonly string[];
}

/** Where each workload kind keeps its pod spec. */
const POD_SPEC_PATHS: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
  Pod: ['spec'],
};

/** The kinds `kubectl rollout restart` restarts in place, one pod at a time. */
export const ROLLING_KINDS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** Whether an object is a workload whose pods could load a Secret. */
export function isWorkload(kind: string): boolean {
  return kind in POD_SPEC_PATHS;
}

/** A rendered workload's pod spec, where its kind keeps it; undefined for an object that is no workload. */
export function podSpecOf(object: any): any {
  const path = POD_SPEC_PATHS[object?.kind];
  return path === undefined ? undefined : path.reduce((at: any, key) => at?.[key], object);
}

/**
 * The workloads among `objects` (rendered manifests) that load one of `secretNames` in
 * `namespace`, in the order given.
 */
export function secretConsumers(objects: readonly any[], namespace: string, secretNames: readonly string[]): SecretConsumer[] {
  const wanted = new Set(secretNames);
  const out: SecretConsumer[] = [];
  for (const o of objects) {
    const spec = podSpecOf(o);
    if (spec === undefined || o.metadata?.namespace !== namespace) {
      continue;
    }
    const secrets = [...secretsOfPodSpec(spec)].filter((s) => wanted.has(s));
    if (secrets.length > 0) {
      out.push({ kind: o.kind, name: o.metadata.name, namespace, secrets });
    }
  }
  return out;
}
