/**
 * Which Secrets a pod loads when it starts, read from its pod spec: the one definition the
 * rotation runbook (which workloads to restart) and `cluster-tls verify` (which pods must have
 * restarted since a Secret was written) share.
 */

/**
 * The Secrets a pod spec loads: volumes (`secret`, and `projected` sources), and the containers'
 * and init containers' `env` (`secretKeyRef`) and `envFrom` (`secretRef`). Entries of another
 * shape are passed over: a caller that must refuse them checks the shape first.
 */
export function secretsOfPodSpec(spec: any): Set<string> {
  const found = new Set<string>();
  const add = (name: unknown) => {
    if (typeof name === 'string') {
      found.add(name);
    }
  };
  for (const volume of list(spec?.volumes)) {
    add(volume?.secret?.secretName);
    list(volume?.projected?.sources).forEach((s) => add(s?.secret?.name));
  }
  for (const container of [...list(spec?.containers), ...list(spec?.initContainers)]) {
    list(container?.env).forEach((e) => add(e?.valueFrom?.secretKeyRef?.name));
    list(container?.envFrom).forEach((e) => add(e?.secretRef?.name));
  }
  return found;
}

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}
