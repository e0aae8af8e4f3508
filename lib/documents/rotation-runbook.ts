/**
 * The runbook of one rotation phase (`rotation-runbook.md`), rendered from plain values: what the
 * phase changes in every Secret, the commands that write them, the restarts in the operator's
 * order, what to check before the next commit, and what that commit is.
 */
import { Runbook, RunbookStep, renderRunbook } from './runbook';

/** How the Secrets of a phase are written, by method. */
export type RotationWriter =
  | { readonly method: 'cfssl'; readonly folder: string; readonly copy: string; readonly script: string }
  | { readonly method: 'cert-manager'; readonly selector: string; readonly script?: string }
  | { readonly method: 'user-provided'; readonly requiredSecrets: string };

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
  /** Components with a restart annotation, in restart order. */
  readonly restartOrder: readonly string[];
  /** The drainer's StatefulSet, when the cluster has a drainer. */
  readonly drainerName?: string;
  readonly clientSecretNames: readonly string[];
  /** cert-manager, after the last phase of a CA replacement: objects left behind to delete. */
  readonly leftBehind?: { readonly caSecret: string; readonly certificates: readonly string[]; readonly secrets: readonly string[] };
}

/** The rotation runbook of a phase, as Markdown. */
export function rotationRunbook(input: RotationRunbookInput): string {
  const { id, kind, phase, phases, clusterName, namespace } = input;
  const at = phases.indexOf(phase);
  const runbook: Runbook = {
    title: `Rotation ${id} of cluster ${clusterName} in namespace ${namespace}: phase ${phase} (${at + 1} of ${phases.length})`,
    intro: [
      `A ${kind}, phases ${phases.map((p) => `\`${p}\``).join(', ')}. Once this phase is done, every Secret of the cluster holds the certificate and key of generation \`${input.leafGeneration}\`, and \`ca.crt\` holds the CA certificate of ${input.caCertificates.map((g) => `\`${g}\``).join(' followed by ')}. Components load \`ca.crt\` only when they start, so every pod restarts once, one at a time, after its Secret is written: at every moment each pair of pods that talk trusts the CA of the other's certificate.`,
    ],
    steps: [...writeSteps(input), ...restartSteps(input), ...checkSteps(input)],
  };
  return renderRunbook(runbook);
}

/** What the cert-manager rotation script does with the leaf Certificates, by phase index of a CA replacement. */
const CUSTODY = [
  'This phase it first deletes the server and client Certificate objects (not their Secrets), so that cert-manager leaves the Secrets as the rotation writes them.',
  'This phase it copies each certificate from its staging Secret, where cert-manager issued it with the new CA.',
  'This phase declares the server and client Certificates again: cert-manager takes the Secrets back.',
];

/** The steps that write every Secret whole, by method. */
function writeSteps(input: RotationRunbookInput): RunbookStep[] {
  const { writer, manifestFile, namespace } = input;
  switch (writer.method) {
    case 'cfssl':
      return [{
        title: 'Write the Secrets with the issuing script',
        text: [`Copy the new request files and script over your copy of \`${writer.folder}\` (it keeps the keys and every earlier generation), and run the script there. It makes the files of generation \`${input.id}\` that this phase needs, keeping any that exist, and writes every Secret whole with \`kubectl apply\`; it never deletes one.`],
        commands: [`cp -r ${writer.folder}/. ${writer.copy}/`, `${writer.copy}/${writer.script}`],
      }];
    case 'cert-manager':
      return [{
        title: 'Apply the certificate objects, then write the Secrets',
        text: [writer.script
          ? `Apply the issuers and certificates of this phase first, and wait until cert-manager has issued them. Then run \`${writer.script}\`: it writes every Secret the operator loads whole with \`kubectl apply\` and never deletes one. ${CUSTODY[input.phases.indexOf(input.phase)] ?? ''}`.trim()
          : 'Apply the issuers and certificates, and have cert-manager issue every server and client certificate anew now, with the same CA (cert-manager\'s command-line tool, `cmctl renew`).'],
        commands: [
          `kubectl apply -f ${manifestFile} -l ${writer.selector}`,
          `kubectl wait --for=condition=Ready certificate -l ${writer.selector} -n ${namespace} --timeout=5m`,
          ...(writer.script ? [`./${writer.script}`] : [`cmctl renew --namespace ${namespace} -l ${writer.selector}`]),
        ],
      }];
    default:
      return [{
        title: 'Write the Secrets',
        text: [`Write every Secret whole (\`kubectl apply\`, never delete one) with what \`${writer.requiredSecrets}\` says this phase needs.`],
      }];
  }
}

/** The restarts, in the operator's order, after the Secrets are written. */
function restartSteps(input: RotationRunbookInput): RunbookStep[] {
  const { key, value } = input.restartAnnotation;
  return [
    {
      title: 'Restart the cluster components',
      text: [`Apply the manifests. Every component's annotation \`${key}\` is now \`${value}\`, so the operator restarts each component's pods one at a time, in this order: ${input.restartOrder.filter((t) => t !== 'drainer').join(', ')}. Wait until every pod has restarted.`],
      commands: [`kubectl apply -f ${input.manifestFile}`],
    },
    ...(input.drainerName ? [{
      title: 'Restart the drainer',
      commands: [`kubectl rollout restart statefulset/${input.drainerName} -n ${input.namespace}`, `kubectl rollout status statefulset/${input.drainerName} -n ${input.namespace}`],
    }] : []),
    {
      title: 'Restart the clients',
      text: [`Restart every workload that mounts ${input.clientSecretNames.map((n) => `\`${n}\``).join(' or ')} (the monitor, the tools), one at a time.`],
    },
  ];
}

/** What to check before the next commit, and what that commit is. */
function checkSteps(input: RotationRunbookInput): RunbookStep[] {
  const next = input.phases[input.phases.indexOf(input.phase) + 1];
  const cleanup = input.leftBehind && (input.leftBehind.certificates.length > 0 || input.leftBehind.secrets.length > 0)
    ? [`Then keep a copy of the previous CA Secret outside the cluster (\`kubectl get secret -n ${input.namespace} ${input.leftBehind.caSecret} -o yaml\`, stored as your other key material), and delete what the rotation left behind: \`kubectl delete certificate -n ${input.namespace} ${input.leftBehind.certificates.join(' ')}\` and \`kubectl delete secret -n ${input.namespace} ${input.leftBehind.secrets.join(' ')}\`.`]
    : [];
  return [{
    title: next ? `Check, then commit phase ${next}` : 'Check: the rotation is done',
    text: [
      `Check every Secret against this phase: \`cluster-tls verify\` reads the phase from \`tls-plan.json\` and checks which CAs each \`ca.crt\` holds and which one signed each certificate. Save its JSON report: the synth of the next phase reads it (\`CLUSTER_TLS_VERIFY_REPORT\`) and refuses to go on while a Secret is not where this phase leaves it.`,
      next
        ? `Then set the rotation's \`phase\` to \`${next}\` in the app, synthesize, review and commit.`
        : `Keep the rotation declared in \`rotations\`: it names the certificates in use. ${cleanup.join(' ')}`.trim(),
    ],
    commands: [`kubectl get secrets -n ${input.namespace} -o json | npx cluster-tls verify --dist <output folder> --secrets - --json > verify-${input.id}-${input.phase}.json`],
  }];
}
