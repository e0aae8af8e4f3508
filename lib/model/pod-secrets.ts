/**
 * Which Secrets a pod loads when it starts, read from its pod spec: the one definition the
 * rotation runbook (which workloads to restart), `cluster-tls verify` (which pods must have
 * restarted since a Secret was written) and the trust rule share (`trust-references.ts`, whose
 * `loads` references these are).
 */
import { trustReferences } from './trust-references';

/**
 * The Secrets a pod spec loads: volumes (`secret`, and `projected` sources), and the containers'
 * and init containers' `env` (`secretKeyRef`) and `envFrom` (`secretRef`). A CSI driver's
 * `nodePublishSecretRef` and an image pull Secret are read by the node, not loaded into the pod.
 */
export function secretsOfPodSpec(spec: any): Set<string> {
  return new Set(trustReferences({ spec }, '*').filter((r) => r.way === 'loads').map((r) => r.target.name));
}
