/**
 * The real operator (tidb-operator's controller manager, built from its Go module) rendering
 * cluster resources on a real API server with its own CRDs, with no kubelet: `operator-peers`
 * stands in for the APIs of the coordinator (PD, and the etcd it serves), the SQL server's status
 * port, the changefeed and the migration master, over mutual TLS with the certificates under test,
 * each on the name the operator dials; and the StatefulSets the operator waits on (coordinator,
 * store, migration master) are reported ready, as a kubelet would report them.
 *
 * It all runs in a network and mount namespace of its own (`unshare`, as root): the operator
 * listens on every address of its own, and the names it dials resolve, through a hosts file of the
 * namespace, to loopback, so that nothing leaves the machine. The rendered StatefulSets and
 * ConfigMaps come back as JSON.
 *
 * @live starts the real operator on a real API server (test/_tiers.js)
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { OPERATOR_CRDS } from '../tools/playground/programs';
import { TOOLS_BIN, tool } from './_control-plane';
import type { SecretPem } from './_handshakes';

/** The CRDs of the operator release the tests run. */
export { OPERATOR_CRDS } from '../tools/playground/programs';

/** Whether the operator tests can run here: as root, with `unshare` and `ip`. */
export function canIsolate(): string | undefined {
  if (process.getuid?.() !== 0) {
    return 'not root: the operator runs in a network namespace of its own';
  }
  const missing = ['unshare', 'ip', 'mount'].filter((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0);
  return missing.length > 0 ? `${missing.join(', ')} not found on PATH` : undefined;
}

/** A stand-in of one API, with the certificate it presents (a server Secret under test) and the client CA it checks. */
export interface StandIn {
  /** The flag of operator-peers that turns the API on: `pd`, `tidb`, `ticdc` or `dm-master`. */
  readonly api: 'pd' | 'tidb' | 'ticdc' | 'dm-master';
  /** Its port on loopback. */
  readonly port: number;
  readonly secret: SecretPem;
}

/** What the operator is given. */
export interface OperatorInput {
  /** The namespace of the clusters. */
  readonly namespace: string;
  /** The cluster name of the TidbCluster and the DMCluster. */
  readonly clusterName: string;
  /** The objects to apply, in the operator's words. */
  readonly objects: readonly object[];
  /** The Secrets to create first, by name, in the namespace. */
  readonly secrets: ReadonlyMap<string, SecretPem>;
  /** The stand-ins, one per API. */
  readonly standIns: readonly StandIn[];
  /** The names the operator dials, which the namespace's hosts file resolves to loopback. */
  readonly hostNames: readonly string[];
  /** The StatefulSets to wait for. */
  readonly statefulSets: readonly string[];
}

/** What the operator rendered. */
export interface Rendered {
  /** The StatefulSets, by name. */
  readonly statefulSets: ReadonlyMap<string, any>;
  /** The ConfigMaps, by name. */
  readonly configMaps: ReadonlyMap<string, any>;
  /** The Deployments (the discovery server's), by name. */
  readonly deployments: ReadonlyMap<string, any>;
  /** The cluster resources as the API server holds them once the operator has run, by `<kind>/<name>`. */
  readonly clusters: ReadonlyMap<string, any>;
  /** The operator's log, for a failure's message. */
  readonly log: string;
}

/** Runs the operator on the input; throws with the logs when the StatefulSets do not all appear within the time. */
export function renderWithOperator(input: OperatorInput, timeoutSeconds = 180): Rendered {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-operator-'));
  try {
    const file = (name: string, content: string) => {
      fs.writeFileSync(path.join(work, name), content, { mode: 0o600 });
      return path.join(work, name);
    };
    file('hosts', `127.0.0.1 localhost\n::1 localhost\n127.0.0.1 ${input.hostNames.join(' ')}\n`);
    file('resolv.conf', 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n');
    const secrets = [...input.secrets].map(([name, pem]) => ({
      apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name, namespace: input.namespace },
      data: Object.fromEntries(Object.entries(pem).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
    }));
    file('setup.yaml', [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: input.namespace } }, ...secrets].map((o) => YAML.stringify(o)).join('---\n'));
    file('clusters.yaml', input.objects.map((o) => YAML.stringify(o)).join('---\n'));
    // As many PD members and DM-masters as the specs ask for: the operator waits for a majority of them before it makes the other components.
    const replicas = (kind: string, read: (spec: any) => unknown) => Number(read((input.objects as any[]).find((o) => o.kind === kind)?.spec ?? {}) ?? 1) || 1;
    const members = `-pd-members ${replicas('TidbCluster', (s) => s.pd?.replicas)} -dm-masters ${replicas('DMCluster', (s) => s.master?.replicas)}`;
    const peers = input.standIns.map((s, i) => {
      file(`peer-${i}.crt`, s.secret['tls.crt']);
      file(`peer-${i}.key`, s.secret['tls.key']);
      file(`peer-${i}-ca.crt`, s.secret['ca.crt']);
      return `start_peer ${i} -${s.api} 127.0.0.1:${s.port} -cert peer-${i}.crt -key peer-${i}.key -ca peer-${i}-ca.crt `
        + `-cluster ${input.clusterName} -namespace ${input.namespace} ${members}`;
    });
    file('run.sh', `set -euo pipefail
cd ${JSON.stringify(work)}
ip link set lo up
ip addr add 192.0.2.1/32 dev lo
ip route add default dev lo
mount --bind hosts /etc/hosts
mount --bind resolv.conf /etc/resolv.conf
K() { ${JSON.stringify(tool('kubectl'))} --kubeconfig kubeconfig "$@"; }
# The launcher and the stand-ins stop when their standard input (a FIFO held open here) closes,
# which stops etcd and kube-apiserver too; whatever is left ends with this namespace's first process.
pids=()
fds=()
cleanup() { set +e; for p in "\${pids[@]}"; do kill "$p" 2>/dev/null; done; for fd in "\${fds[@]}"; do eval "exec $fd>&-"; done; wait 2>/dev/null; }
trap cleanup EXIT
# fed <name> <command...>: runs the command in the background, its output in <name>.out and <name>.log, reading a
# FIFO <name>.in that is then held open here; the FIFOs held before are closed for it, so that closing them ends theirs
fed() {
  local name="$1"; shift; mkfifo "$name.in"
  ( for fd in "\${fds[@]}"; do eval "exec $fd>&-"; done; exec "$@" < "$name.in" > "$name.out" 2> "$name.log" ) &
  exec {fd}<>"$name.in"; fds+=("$fd")
}
# started <file> <text>: waits until the file holds the text
started() { for _ in $(seq 600); do grep -q "$2" "$1" && return 0; sleep 0.1; done; echo "$1 never said $2" >&2; cat "$1" >&2; exit 1; }
fed launcher ${JSON.stringify(tool('launcher'))} --assets ${JSON.stringify(TOOLS_BIN)} --crds ${JSON.stringify(OPERATOR_CRDS)} --kubeconfig-out kubeconfig
started launcher.out '^ready'
K apply -f setup.yaml > /dev/null
start_peer() { local n="$1"; shift; fed "peer-$n" ${JSON.stringify(tool('operator-peers'))} "$@"; started "peer-$n.out" '^ready'; }
${peers.join('\n')}
KUBECONFIG=kubeconfig NAMESPACE=default ${JSON.stringify(tool('tidb-controller-manager'))} > operator.log 2>&1 &
pids+=($!)
# What a kubelet and the StatefulSet controller would report of the StatefulSets the operator waits on.
(while :; do
  K -n ${input.namespace} get sts -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.generation} {.spec.replicas} {.status.observedGeneration}{"\\n"}{end}' 2>/dev/null |
  while read -r name generation replicas observed; do
    case "$name" in ${input.clusterName}-pd|${input.clusterName}-tikv|${input.clusterName}-dm-master) ;; *) continue ;; esac
    [ "$generation" = "$observed" ] && continue
    K -n ${input.namespace} patch sts "$name" --subresource=status --type=merge -p "{\\"status\\":{\\"observedGeneration\\":$generation,\\"replicas\\":$replicas,\\"readyReplicas\\":$replicas,\\"availableReplicas\\":$replicas,\\"currentReplicas\\":$replicas,\\"updatedReplicas\\":$replicas,\\"currentRevision\\":\\"$name-r1\\",\\"updateRevision\\":\\"$name-r1\\"}}" > /dev/null || true
  done
  sleep 0.5
done) &
pids+=($!)
K apply -f clusters.yaml > /dev/null
# Until every StatefulSet is there, or the time is up.
deadline=$(( $(date +%s) + ${timeoutSeconds} ))
wanted=" ${input.statefulSets.map((s) => `statefulset.apps/${s}`).join(' ')} "
while :; do
  present=" $(K -n ${input.namespace} get sts -o name | tr '\\n' ' ')"
  missing=$(for s in $wanted; do case "$present" in *" $s "*) ;; *) printf '%s ' "$s" ;; esac; done)
  [ -z "$missing" ] && break
  if [ "$(date +%s)" -ge "$deadline" ]; then echo "after ${timeoutSeconds} s, no $missing" >&2; exit 3; fi
  sleep 0.5
done
# A moment for the ConfigMaps of the last ones, then what is there.
sleep 3
K -n ${input.namespace} get sts -o json > statefulsets.json
K -n ${input.namespace} get cm -o json > configmaps.json
K -n ${input.namespace} get deploy -o json > deployments.json
K -n ${input.namespace} get tidbclusters,dmclusters -o json > clusters.json
`);
    const run = spawnSync('unshare', ['--net', '--mount', '--pid', '--fork', '--kill-child', '--propagation', 'private', 'bash', path.join(work, 'run.sh')],
      { encoding: 'utf8', timeout: (timeoutSeconds + 120) * 1000, maxBuffer: 64 * 1024 * 1024 });
    const log = ['operator.log', 'launcher.log', 'launcher.out', ...input.standIns.map((_s, i) => `peer-${i}.log`)]
      .map((f) => `--- ${f}\n${fs.existsSync(path.join(work, f)) ? fs.readFileSync(path.join(work, f), 'utf8').slice(-3000) : ''}`).join('\n');
    if (run.status !== 0) {
      throw new Error(`the operator's run failed (${run.status ?? run.signal}): ${run.stderr.slice(-3000)}\n${log}`);
    }
    const items = (f: string) => new Map<string, any>(JSON.parse(fs.readFileSync(path.join(work, f), 'utf8')).items.map((o: any) => [o.metadata.name, o]));
    const clusters = new Map<string, any>(JSON.parse(fs.readFileSync(path.join(work, 'clusters.json'), 'utf8')).items.map((o: any) => [`${o.kind}/${o.metadata.name}`, o]));
    return { statefulSets: items('statefulsets.json'), configMaps: items('configmaps.json'), deployments: items('deployments.json'), clusters, log };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
