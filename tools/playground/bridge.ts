/**
 * The playground's bridge between the specification's API and the real operator's. The library
 * writes a `DatabaseCluster` of `db.operator.io` whose components are the coordinator, the store,
 * the SQL server…, and plans their Secrets under those names (`orders-coordinator-cluster-secret`);
 * the operator's release 1.6.6 reads a `TidbCluster` of `pingcap.com` and mounts
 * `orders-pd-cluster-secret`. For each `DatabaseCluster` it finds, the bridge writes the
 * `TidbCluster` the tests hand the operator (operator-names.ts), and, for each of the cluster's
 * Secrets whose name the operator spells otherwise, a copy under that name with the same data. Each
 * is owned by what it comes from, so that the garbage collector deletes it with its source.
 *
 * It reads and writes through kubectl only, and applies nothing when nothing changed.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { operatorName, toOperator } from './operator-names';

/** What one kubectl run did. */
export interface KubectlRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs kubectl with these arguments and this standard input. */
export type Kubectl = (args: readonly string[], input?: string) => Promise<KubectlRun>;

/** The specification's API group and version, the library's default (crds/operator/). */
export const SPECIFICATION_VERSION = 'db.operator.io/v1alpha1';

/** The field manager of what the bridge writes. */
export const BRIDGE_MANAGER = 'cluster-tls-playground';
/** The label on each Secret the bridge copied, holding the name of the Secret it copied. */
export const COPY_OF_LABEL = 'cluster-tls-playground/copy-of';

/** Runs a program asynchronously, so that the bridge never blocks the process that serves the playground. */
export function kubectlAt(kubectl: string, kubeconfig: string, env: NodeJS.ProcessEnv): Kubectl {
  return (args, input) => new Promise((resolve) => {
    const child = spawn(kubectl, ['--kubeconfig', kubeconfig, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', (e) => resolve({ status: 127, stdout, stderr: `${stderr}${e.message}` }));
    child.on('close', (code) => resolve({ status: code ?? 1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** An owner reference to an object the API server returned. */
function ownedBy(owner: any): object {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, blockOwnerDeletion: true };
}

/** The real operator's `TidbCluster` for a `DatabaseCluster` as the API server holds it. */
export function operatorCluster(cluster: any): object {
  const mapped = toOperator({ apiVersion: cluster.apiVersion, kind: cluster.kind, spec: cluster.spec }, cluster.metadata.name);
  return {
    apiVersion: mapped.apiVersion,
    kind: mapped.kind,
    metadata: { name: cluster.metadata.name, namespace: cluster.metadata.namespace, ownerReferences: [{ ...ownedBy(cluster), controller: true }] },
    spec: mapped.spec,
  };
}

/** The copies, under the operator's names, of a cluster's Secrets whose names it spells otherwise. */
export function operatorSecrets(clusterName: string, secrets: readonly any[]): object[] {
  return secrets.filter((s) => s.metadata.labels?.[COPY_OF_LABEL] === undefined)
    .filter((s) => operatorName(s.metadata.name, clusterName) !== s.metadata.name)
    .map((s) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      type: s.type,
      metadata: {
        name: operatorName(s.metadata.name, clusterName),
        namespace: s.metadata.namespace,
        labels: { [COPY_OF_LABEL]: s.metadata.name },
        ownerReferences: [ownedBy({ ...s, apiVersion: 'v1', kind: 'Secret' })],
      },
      data: s.data,
    }));
}

/** The bridge: {@link sync} once brings the operator's objects up to what the API server holds. */
export class Bridge {
  private applied = '';

  constructor(private readonly kubectl: Kubectl) {}

  /**
   * Reads every `DatabaseCluster` of the library's default API group (none while its CRD is not installed) and the Secrets of their
   * namespaces, and applies what the operator needs of them when it changed since the last apply.
   * Returns kubectl's error when one failed, else undefined.
   */
  public async sync(): Promise<string | undefined> {
    // By the API's path, not kubectl's discovery, which may remember an API server without the CRD.
    const clusters = await this.kubectl(['get', '--raw', `/apis/${SPECIFICATION_VERSION}/databaseclusters`]);
    if (clusters.status !== 0) {
      return /NotFound|not found/.test(clusters.stderr) ? undefined : clusters.stderr;
    }
    const items: any[] = JSON.parse(clusters.stdout).items.map((c: any) => ({ apiVersion: SPECIFICATION_VERSION, kind: 'DatabaseCluster', ...c }));
    const objects: object[] = [];
    for (const namespace of [...new Set(items.map((c) => c.metadata.namespace as string))]) {
      const secrets = await this.kubectl(['get', 'secrets', '-n', namespace, '-o', 'json']);
      if (secrets.status !== 0) {
        return secrets.stderr;
      }
      const held: any[] = JSON.parse(secrets.stdout).items;
      for (const cluster of items.filter((c) => c.metadata.namespace === namespace && c.metadata.deletionTimestamp === undefined)) {
        objects.push(operatorCluster(cluster), ...operatorSecrets(cluster.metadata.name, held));
      }
    }
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
    const digest = createHash('sha256').update(list).digest('hex');
    if (objects.length === 0 || digest === this.applied) {
      return undefined;
    }
    const applied = await this.kubectl(['apply', '--server-side', `--field-manager=${BRIDGE_MANAGER}`, '--force-conflicts', '--validate=ignore', '-f', '-'], list);
    if (applied.status !== 0) {
      return applied.stderr;
    }
    this.applied = digest;
    return undefined;
  }
}
