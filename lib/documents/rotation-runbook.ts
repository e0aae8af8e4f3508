/**
 * The runbook of one rotation phase (`rotation-runbook.md`), rendered from plain values: what the
 * phase changes in every Secret, the commands that write them, the restarts in the operator's
 * order, what to check before the next commit, and what that commit is.
 */
import { SECRET_KEYS } from '../model/catalog-certificates';
import { KUBELET_PROJECTION_SECONDS } from '../model/catalog-pods';
import { NamespacedName, byNamespace } from '../model/names';
import { Runbook, RunbookStep, outputFolderRunIn, renderRunbook } from './runbook';

/** How the Secrets of a phase are written, by method. */
export type RotationWriter =
  | { readonly method: 'cfssl'; readonly folder: string; readonly copy: string; readonly script: string }
  | {
    readonly method: 'cert-manager';
    readonly selector: string;
    /** The phase's script, relative to the output folder. */
    readonly script: string;
    /** A leaf renewal: the script has cert-manager renew the leaves; nothing is applied first. */
    readonly renewal: boolean;
  }
  | { readonly method: 'user-provided'; readonly requiredSecrets: string };

/** A workload of the app that loads one of the cluster's Secrets, restarted after the components. */
export interface RotationConsumer {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly secrets: readonly string[];
  /** Whether `kubectl rollout restart` restarts it (Deployment, StatefulSet, DaemonSet). */
  readonly rolling: boolean;
}

/** What the rotation runbook of a cluster across Kubernetes clusters says of the span. */
export interface RunbookSpan {
  /** The Kubernetes cluster this output is for. */
  readonly current: string;
  /** Every Kubernetes cluster of the span, in order. */
  readonly clusters: readonly string[];
  /**
   * The step that signs the current Kubernetes cluster's intermediate of the next root, before
   * anything is applied.
   * @default - none: only the first phase of a root replacement has it
   */
  readonly intermediate?: RunbookStep;
}

/** Everything the runbook of a phase says, resolved. */
export interface RotationRunbookInput {
  readonly clusterName: string;
  readonly namespace: string;
  readonly id: string;
  readonly kind: string;
  readonly phase: string;
  readonly phases: readonly string[];
  readonly leafGeneration: string;
  readonly caCertificates: readonly string[];
  readonly writer: RotationWriter;
  /** The manifest file holding the cluster resources and the certificate objects. */
  readonly manifestFile: string;
  readonly restartAnnotation: { readonly key: string; readonly value: string };
  /** The components the operator restarts in this phase, by cluster resource kind, each in the operator's order. */
  readonly rollOrder: readonly { readonly resourceKind: string; readonly components: readonly string[] }[];
  /** Every planned component in restart order: whether this phase restarts it, and why or why not. */
  readonly components: readonly { readonly token: string; readonly restarts: boolean; readonly reason: string }[];
  /** Where the operator's order comes from. */
  readonly rollOrderSource: string;
  /** The drainer's StatefulSet, when the cluster has a drainer. */
  readonly drainerName?: string;
  /** The discovery server's Deployment, when it speaks mutual TLS (`enableDiscoveryMTLS`). */
  readonly discoveryName?: string;
  readonly clientSecretNames: readonly string[];
  /** The Secrets of TLS for MySQL clients, each in its namespace, which rotate with the cluster's; empty when it is off. */
  readonly sqlSecrets: readonly (NamespacedName & { readonly server: boolean })[];
  /**
   * The SQL server's MySQL port, when this phase changes its certificate without restarting it:
   * the statement that has it load the new one, the user that runs it with the certificate of
   * `clientSecret` (in the cluster's namespace), the server's Secret, its pods and its port.
   * @default - the SQL server restarts, or TLS for MySQL clients is off
   */
  readonly sqlReload?: {
    readonly statement: string;
    readonly user: string;
    readonly clientSecret: string;
    readonly serverSecret: string;
    readonly podSelector: string;
    readonly port: number;
  };
  /** The app's workloads that load a Secret of the cluster (those of TLS for MySQL clients too, in their namespaces). */
  readonly consumers: readonly RotationConsumer[];
  /** The verify report, relative to the output folder (beside it). */
  readonly verifyReport: string;
  /**
   * A cluster across Kubernetes clusters, whose Kubernetes clusters do each phase in turn.
   * @default - one Kubernetes cluster
   */
  readonly span?: RunbookSpan;
  /** cert-manager, after the last phase of a CA replacement: objects left behind to delete. */
  readonly leftBehind?: {
    /** The previous CA Secrets (the SQL CA's too), to keep a copy of. */
    readonly caSecrets: readonly NamespacedName[];
    readonly certificates: readonly NamespacedName[];
    readonly secrets: readonly NamespacedName[];
  };
}

/** The rotation runbook of a phase, as Markdown. */
export function rotationRunbook(input: RotationRunbookInput): string {
  const { id, kind, phase, phases, clusterName, namespace } = input;
  const at = phases.indexOf(phase);
  const runbook: Runbook = {
    title: `Rotation ${id} of cluster ${clusterName} in namespace ${namespace}: phase ${phase} (${at + 1} of ${phases.length})`,
    intro: [
      `A ${kind}, phases ${phases.map((p) => `\`${p}\``).join(', ')}. Once this phase is done, every Secret of the cluster holds the certificate and key of generation \`${input.leafGeneration}\`, and \`ca.crt\` holds the CA certificate of ${input.caCertificates.map((g) => `\`${g}\``).join(' followed by ')}${[input.leafGeneration, ...input.caCertificates].includes('initial') ? ' (a generation is named by the rotation that made it; `initial` is the one made with the cluster)' : ''}. ${restartSummary(input)} At every moment each pair of pods that talk trusts the CA of the other's certificate.`,
      ...(input.sqlSecrets.length > 0
        ? [`TLS for MySQL clients rotates with them, the SQL CA in place of the cluster's CA, phase for phase: ${input.sqlSecrets.map(secretIn).join(', ')}. ${
          input.sqlReload ? `The SQL server's MySQL port loads its new certificate with \`${input.sqlReload.statement}\`, without a restart; every application that mounts one of them restarts once.` : 'The SQL server and every application that mounts one of them restart once.'}`]
        : []),
      ...(input.span ? [spanIntro(input.span)] : []),
      `Run every command block from ${outputFolderRunIn(input.manifestFile)}, in order; each block's first line says so.`,
    ],
    runIn: outputFolderRunIn(input.manifestFile),
    steps: [...(input.span?.intermediate ? [input.span.intermediate] : []), ...writeSteps(input), ...restartSteps(input), ...sqlReloadSteps(input), ...checkSteps(input)],
  };
  return renderRunbook(runbook);
}

/** Why a span's Kubernetes clusters move phase by phase together. */
function spanIntro(span: RunbookSpan): string {
  const others = span.clusters.filter((c) => c !== span.current);
  return `This is Kubernetes cluster \`${span.current}\` of ${span.clusters.length}: ${listed(span.clusters)}. The members of ${listed(others)} talk to the members here, so every Kubernetes cluster does this phase, and passes its check, before any of them commits the next phase: `
    + 'a cluster that presented certificates of the next root before every other one trusted it would be rejected by them.';
}

/** What the cert-manager rotation script does with the leaf Certificates, by phase index of a CA replacement. */
const CUSTODY = [
  'This phase it first deletes the server and client Certificate objects (not their Secrets), so that cert-manager leaves the Secrets as the rotation writes them.',
  'This phase it copies each certificate from its staging Secret, where cert-manager issued it with the new CA.',
  'This phase declares the server and client Certificates again: cert-manager takes the Secrets back.',
];

/** The steps that write every Secret whole, by method. */
function writeSteps(input: RotationRunbookInput): RunbookStep[] {
  const { writer, manifestFile } = input;
  switch (writer.method) {
    case 'cfssl':
      return [{
        title: 'Write the Secrets with the issuing script',
        text: [`Copy the new request files and script over your copy of \`${writer.folder}\` (it keeps the keys and every earlier generation), and run the script (it works in its own folder, wherever it is called from). It makes the files of generation \`${input.id}\` that this phase needs, keeping any that exist, and writes every Secret whole with \`kubectl apply\`; it never deletes one.`],
        commands: [`cp -r ${writer.folder}/. ${writer.copy}/`, `${writer.copy}/${writer.script}`],
      }];
    case 'cert-manager':
      if (writer.renewal) {
        return [{
          title: 'Have cert-manager renew the leaves, and wait for it',
          text: [`\`${writer.script}\` has cert-manager issue every server and client certificate anew with the same CA${input.sqlSecrets.length > 0 ? ' (those for MySQL clients too, each in its namespace)' : ''} (\`cmctl renew\` of exactly those Certificates, by name: no CA Certificate is renewed), then waits until each one is issued at a higher revision and Ready for its current spec. Restart nothing before it ends: a pod restarted earlier keeps its old key.`],
          commands: [writer.script],
        }];
      }
      return [{
        title: 'Apply the certificate objects, then write the Secrets',
        text: [`Apply the issuers and certificates of this phase. Then run \`${writer.script}\`: it waits until cert-manager has issued what this phase reads (Ready for the spec just applied), then writes every Secret of the cluster${input.sqlSecrets.length > 0 ? ' (and those for MySQL clients, each in its namespace)' : ''} whole with \`kubectl apply\` and never deletes one. ${CUSTODY[input.phases.indexOf(input.phase)] ?? ''}`.trim()],
        commands: [`kubectl apply -f ${manifestFile} -l ${writer.selector}`, writer.script],
      }];
    default:
      return [{
        title: 'Write the Secrets',
        text: [`Write every Secret whole (\`kubectl apply\`, never delete one) with what \`${writer.requiredSecrets}\` says this phase needs.`],
      }];
  }
}

/** What the phase restarts, for the runbook's introduction. */
function restartSummary(input: RotationRunbookInput): string {
  const kept = input.components.filter((c) => !c.restarts);
  if (kept.length === 0) {
    return 'Every component\'s pods restart once, one at a time, after its Secret is written: a component loads what this phase changes only when it starts.';
  }
  const restarted = input.components.filter((c) => c.restarts);
  return `${restarted.length > 0 ? `The pods of ${listed(restarted.map((c) => c.token))} restart once, one at a time, after their Secrets are written; those` : 'No component restarts: the pods'} of ${listed(kept.map((c) => c.token))} take the new certificate while they run, at their next connection once the kubelet has written it into them.`;
}

/** The restarts, in the operator's order, after the Secrets are written, with the reason each component restarts or does not. */
function restartSteps(input: RotationRunbookInput): RunbookStep[] {
  const { key, value } = input.restartAnnotation;
  const orders = input.rollOrder.filter((o) => o.components.length > 0)
    .map((o) => `the ${o.resourceKind}'s ${o.components.join(', then ')}`);
  const restarted = input.components.filter((c) => c.restarts);
  const kept = input.components.filter((c) => !c.restarts);
  const operatorRestarts = orders.length > 0
    ? `Apply the manifests. The annotation \`${key}\` of ${listed(input.rollOrder.flatMap((o) => o.components))} is now \`${value}\`, so the operator restarts the pods of each of them one at a time, from the highest ordinal down, and each component waits for the one before it: ${orders.join('; and at the same time, ')} (${input.rollOrderSource}). Wait until every one of those pods has restarted: the check below names any pod that started before its Secret was written.`
    : 'Apply the manifests. No restart annotation changes in this phase, so the operator restarts no pod.';
  return [
    {
      title: 'Restart the cluster components that must restart',
      text: [
        operatorRestarts,
        ...(kept.length > 0 ? [`The kubelet writes the new files into the running pods of the others within its sync period (a minute by default; the check below allows ${KUBELET_PROJECTION_SECONDS} s); they present them from their next connection.`] : []),
        table(['Component', 'Restarts in this phase', 'Why'], [...restarted, ...kept].map((c) => [`\`${c.token}\``, c.restarts ? 'yes' : 'no', c.reason])),
      ],
      commands: [`kubectl apply -f ${input.manifestFile}`],
    },
    ...(input.drainerName && input.components.some((c) => c.token === 'drainer' && c.restarts) ? [{
      title: 'Restart the drainer',
      commands: [`kubectl rollout restart statefulset/${input.drainerName} -n ${input.namespace}`, `kubectl rollout status statefulset/${input.drainerName} -n ${input.namespace}`],
    }] : []),
    ...(input.discoveryName && input.components.some((c) => c.token === 'discovery' && c.restarts) ? [{
      title: 'Restart the discovery server',
      text: ['The discovery server loads its certificate and CA once, when it starts, and a component that starts calls it with its own certificate. The operator keeps the Deployment\'s pod-template annotations it did not set, so the restart below stays.'],
      commands: [`kubectl rollout restart deployment/${input.discoveryName} -n ${input.namespace}`, `kubectl rollout status deployment/${input.discoveryName} -n ${input.namespace}`],
    }] : []),
    clientsStep(input),
  ];
}

/** The local port the runbook forwards each SQL server pod's MySQL port to. */
const SQL_RELOAD_LOCAL_PORT = 14000;
/** How long the runbook waits between two runs of the statement on a pod. */
const SQL_RELOAD_INTERVAL_SECONDS = 5;
/** How many times the runbook runs the statement on a pod before it gives up: over twice the kubelet's projection delay. */
const SQL_RELOAD_ATTEMPTS = Math.ceil((2 * KUBELET_PROJECTION_SECONDS) / SQL_RELOAD_INTERVAL_SECONDS);

/**
 * Step: each SQL server pod's MySQL port loads the new certificate with the statement, run as the
 * reload user through `kubectl port-forward`, again every five seconds until the port presents the
 * certificate of the server's Secret (the kubelet writes it into the pod within its sync period).
 * The user's certificate goes to a private temporary folder, removed at the end.
 */
function sqlReloadSteps(input: RotationRunbookInput): RunbookStep[] {
  const r = input.sqlReload;
  if (r === undefined) {
    return [];
  }
  const ns = input.namespace;
  const local = SQL_RELOAD_LOCAL_PORT;
  const secretFile = (secret: string, key: string) => `kubectl get secret ${secret} -n ${ns} -o jsonpath='{.data.${key.replace(/\./g, '\\.')}}' | base64 -d`;
  return [{
    title: 'Reload the SQL server\'s MySQL port',
    text: [
      `The SQL server's MySQL port keeps the certificate it started with until \`${r.statement}\`, which reads its files again. For each SQL server pod, the commands forward its MySQL port to \`127.0.0.1:${local}\`, log in as \`${r.user}\` with the certificate of Secret \`${r.clientSecret}\` (kept in a private temporary folder meanwhile), run the statement, and compare the certificate the port presents with the one in Secret \`${r.serverSecret}\`. `
        + `Until the kubelet has written the new files into the pod, the port presents the old one: the commands run the statement again every ${SQL_RELOAD_INTERVAL_SECONDS} s, ${SQL_RELOAD_ATTEMPTS} times at most, and at the end name any pod that still presents another certificate (or where the statement failed, with the SQL server's error above), and fail when no SQL server pod matches. Connections made before keep theirs. `
        + `The user must exist with its grant first: the statements of the database runbook's step "Tie each application's database user to its certificate" make it. The commands need \`mysql\` (MySQL's or MariaDB's client), \`openssl\` 1.1.1 or later (\`-starttls mysql\`), and local port ${local} free; each pod's forward ends with its part.`,
    ],
    commands: [
      'RELOAD="$(umask 077 && mktemp -d)"',
      ...[SECRET_KEYS.certificate, SECRET_KEYS.privateKey, SECRET_KEYS.ca].map((key) => `${secretFile(r.clientSecret, key)} > "$RELOAD/${key}"`),
      `${secretFile(r.serverSecret, SECRET_KEYS.certificate)} | openssl x509 -noout -fingerprint -sha256 > "$RELOAD/wanted" || true`,
      '# MariaDB\'s client checks the server\'s name with --ssl-verify-server-cert, MySQL\'s (8.0 and later) with --ssl-mode=VERIFY_IDENTITY.',
      'case "$(mysql --version)" in *MariaDB*) VERIFY=--ssl-verify-server-cert ;; *) VERIFY=--ssl-mode=VERIFY_IDENTITY ;; esac',
      `PODS="$(kubectl get pods -n ${ns} -l '${r.podSelector}' -o name)"`,
      `[ -n "$PODS" ] || echo "no SQL server pod matches ${r.podSelector} in namespace ${ns}" >> "$RELOAD/failed"`,
      `[ -s "$RELOAD/wanted" ] || echo "the certificate of Secret ${r.serverSecret} could not be read" >> "$RELOAD/failed"`,
      'for pod in $PODS; do',
      '  [ -s "$RELOAD/wanted" ] || break',
      '  (',
      '    rm -f "$RELOAD/served"',
      `    kubectl port-forward -n ${ns} "$pod" ${local}:${r.port} >/dev/null 2>&1 & FORWARD=$!`,
      '    trap \'STATUS=$?; kill "$FORWARD" 2>/dev/null || true; wait "$FORWARD" 2>/dev/null || true; exit "$STATUS"\' EXIT',
      `    for wait in $(seq 30); do kill -0 "$FORWARD" 2>/dev/null && (: <>/dev/tcp/127.0.0.1/${local}) 2>/dev/null && break; sleep 1; done`,
      `    for attempt in $(seq ${SQL_RELOAD_ATTEMPTS}); do`,
      `      mysql --host=127.0.0.1 --port=${local} --user=${r.user} --ssl-ca="$RELOAD/${SECRET_KEYS.ca}" --ssl-cert="$RELOAD/${SECRET_KEYS.certificate}" --ssl-key="$RELOAD/${SECRET_KEYS.privateKey}" "$VERIFY" --execute='${r.statement}' || break`,
      `      openssl s_client -starttls mysql -connect 127.0.0.1:${local} </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256 > "$RELOAD/served" || true`,
      '      [ -s "$RELOAD/served" ] && cmp -s "$RELOAD/served" "$RELOAD/wanted" && break',
      `      sleep ${SQL_RELOAD_INTERVAL_SECONDS}`,
      '    done',
      '    [ -s "$RELOAD/served" ] && cmp -s "$RELOAD/served" "$RELOAD/wanted"',
      `  ) || echo "$pod does not present the certificate of Secret ${r.serverSecret}" >> "$RELOAD/failed"`,
      'done',
      'FAILED="$(cat "$RELOAD/failed" 2>/dev/null || true)"; rm -rf "$RELOAD"',
      '[ -z "$FAILED" ] || { echo "$FAILED" >&2; false; }',
    ],
  }];
}

/** A Markdown table of the runbook's own text (no line breaks), with each `|` in a cell escaped. */
function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`).join('\n');
}

/** Names in backquotes, joined with commas. */
function listed(tokens: readonly string[]): string {
  return tokens.map((t) => `\`${t}\``).join(', ');
}

/** The app's workloads that load the Secrets, each restarted with its own commands, one at a time. */
function clientsStep(input: RotationRunbookInput): RunbookStep {
  const rolling = input.consumers.filter((c) => c.rolling);
  const others = input.consumers.filter((c) => !c.rolling);
  const secrets = [...input.clientSecretNames.map((n) => `\`${n}\``), ...input.sqlSecrets.filter((x) => !x.server).map(secretIn)].join(' or ');
  return {
    title: 'Restart the clients',
    text: [
      rolling.length > 0
        ? `These workloads of the app load the Secrets (${rolling.map((c) => `${c.kind} \`${c.name}\`: ${c.secrets.map((s) => `\`${s}\``).join(', ')}`).join('; ')}). Restart each in turn and wait for it.`
        : `No workload of the app that wrote this runbook loads ${secrets}.`,
      ...(others.length > 0 ? [`${others.map((c) => `${c.kind} \`${c.name}\``).join(', ')} load${others.length === 1 ? 's' : ''} them too and ${others.length === 1 ? 'picks' : 'pick'} them up at ${others.length === 1 ? 'its' : 'their'} next start: re-run or re-create ${others.length === 1 ? 'it' : 'them'} once this phase is done.`] : []),
      `Restart any workload outside this app that mounts ${secrets} too, one at a time, waiting for each.`,
    ],
    commands: rolling.flatMap((c) => {
      const target = `${c.kind.toLowerCase()}/${c.name}`;
      return [`kubectl rollout restart ${target} -n ${c.namespace}`, `kubectl rollout status ${target} -n ${c.namespace}`];
    }),
  };
}

/** What to check before the next commit, and what that commit is; after the last phase, what to delete. */
function checkSteps(input: RotationRunbookInput): RunbookStep[] {
  const next = input.phases[input.phases.indexOf(input.phase) + 1];
  const left = input.leftBehind;
  // The namespaces of applications' Secrets: listed beside the cluster's, so that the report shows them and their pods.
  const others = byNamespace(input.sqlSecrets).map(([n]) => n).filter((n) => n !== input.namespace);
  const cleanup: RunbookStep[] = left && (left.certificates.length > 0 || left.secrets.length > 0) ? [{
    title: 'Once the check passes, delete what the rotation left behind',
    text: [`First keep a copy of the previous CA Secret${left.caSecrets.length > 1 ? 's' : ''} outside the cluster, stored as your other key material (${
      left.caSecrets.map((c) => `\`kubectl get secret -n ${c.namespace} ${c.name} -o yaml\``).join(', ')}). Then delete the previous CA's Certificate and the staging Certificates, and their Secrets: nothing loads them any more.`],
    commands: [...deletions('certificate', left.certificates), ...deletions('secret', left.secrets)],
  }] : [];
  return [{
    title: next ? `Check, then commit phase ${next}` : 'Check: the rotation is done',
    text: [
      `Check every Secret against this phase, and every pod against its Secret: \`cluster-tls verify\` reads the phase from \`tls-plan.json\`, checks which CAs each \`ca.crt\` holds and which one signed each certificate, and (from the pods in the same list) that every pod that mounts a Secret started after the Secret was last written${
        input.components.some((c) => !c.restarts) ? `; for a component this phase does not restart, that its pods run ${KUBELET_PROJECTION_SECONDS} s after the write, by when the kubelet has written the new files into them` : ''}. It exits 1 while anything is not where this phase leaves it, and then prints its report on standard error too; ${
        input.components.some((c) => c.restarts) ? 'wait for the restarts and run it again' : `run it again from the time it names (${KUBELET_PROJECTION_SECONDS} s after the write)`}. Its JSON report goes beside the output folder, \`${input.verifyReport}\`.${
        others.length > 0 ? ` The applications' namespaces (${others.map((n) => `\`${n}\``).join(', ')}) are listed beside the cluster's, so that the report shows their Secrets and pods too.` : ''}`,
      next
        ? `Then${input.span ? ` once every Kubernetes cluster of the span (${listed(input.span.clusters)}) has passed its own check of this phase,` : ''} set the rotation's \`phase\` to \`${next}\` in the app, synthesize, review and commit. The synth reads the report from beside the output folder and refuses to move on unless it shows every Secret of this phase in place and no pod still holding what it loaded before.`
        : 'Keep the rotation declared in `rotations`: it names the certificates in use. The synth of the next rotation reads this report too.',
    ],
    commands: [`${listOf(input.namespace)} | npx cluster-tls verify --dist . --namespace ${input.namespace} --cluster ${input.clusterName} --secrets -${
      others.map((n) => ` --secrets <(${listOf(n)})`).join('')} --json > ${input.verifyReport}`],
  }, ...cleanup];
}

/** `kubectl delete` of objects of one kind, a command per namespace. */
function deletions(kind: string, objects: readonly NamespacedName[]): string[] {
  return byNamespace(objects).map(([n, ofNamespace]) => `kubectl delete ${kind} -n ${n} --ignore-not-found ${ofNamespace.map((o) => o.name).join(' ')}`);
}

/** The Secrets and pods of a namespace, as `cluster-tls verify` reads them. */
function listOf(namespace: string): string {
  return `kubectl get secrets,pods -n ${namespace} -o json --show-managed-fields`;
}

/** A Secret in its namespace, for the text. */
function secretIn(secret: NamespacedName): string {
  return `\`${secret.name}\` (namespace \`${secret.namespace}\`)`;
}
