/**
 * The actions of a rotation phase, as bash: the blocks the cfssl issuing script runs in place of
 * its issuing steps while a rotation is declared, and the whole rotation script of the
 * cert-manager method. Both write each Secret whole with `kubectl apply` and never delete one.
 * Pure functions: the scripts are declared as files by `cfssl.ts` and `cert-manager.ts`.
 *
 * With cfssl, each generation of certificates has a folder of its own beside the request files,
 * named by the rotation's id, holding a complete set (`ca.pem`, `ca-key.pem` and every leaf); the
 * initial generation is the folder itself. What a generation shares with the one before (the CA
 * of a leaf renewal, the key and leaves of a CA renewal) is a relative symbolic link, so no key is
 * ever copied. Old generations stay until you remove them.
 */
import { CFSSL_PROFILES, ClusterKind } from '../model/catalog';
import * as layout from '../model/output-layout';
import type { ServerCertificatePlan } from './certificate-options';
import * as names from '../model/names';
import { CA_BARE, CA_CSR, CLIENT_BARE, serverBare } from './cfssl-files';
import { ResolvedRotation, RotationKind, RotationPhase, caObjectOf } from './rotation';
import {
  Block, GET_KEY_FUNCTION, KUBECTL_CHECK, NEED_FUNCTION, ISSUE_TIMEOUT_SECONDS, PUT_SECRET_FUNCTION, WAIT_ISSUED_FUNCTION, WAIT_VARIABLES, failFunction, joinBlocks,
  kubectlVariables, sh,
} from './script-blocks';

/** A certificate the rotation issues or moves, and the Secrets made from it. */
interface Leaf {
  readonly bare: string;
  readonly request: string;
  readonly profile: string;
  readonly secretNames: readonly string[];
}

/** The leaves of a cluster: one per server certificate, and the client certificate shared by every client Secret. */
function leavesOf(clusterName: string, servers: readonly ServerCertificatePlan[], kinds: readonly ClusterKind[]): Leaf[] {
  return [
    ...servers.map((s) => ({ bare: serverBare(s), request: `${serverBare(s)}.json`, profile: CFSSL_PROFILES.server, secretNames: [s.secretName] })),
    ...(kinds.length > 0
      ? [{ bare: CLIENT_BARE, request: `${CLIENT_BARE}.json`, profile: CFSSL_PROFILES.client, secretNames: kinds.map((k) => names.clientSecretName(clusterName, k)) }]
      : []),
  ];
}

/** The folder of a generation, relative to the cfssl folder. */
function generationFolder(generation: string): string {
  return generation === names.INITIAL_GENERATION ? '.' : generation;
}

/** `link_from DIR FILE FROM`: links DIR/FILE to the same file of the folder FROM, unless it exists. */
const LINK_FUNCTION: Block = [
  '# link_from DIR FILE FROM: makes DIR/FILE a relative link to FROM/FILE (a generation sharing a file',
  '# with the one before), unless DIR/FILE exists. FROM is the folder that holds DIR, or a folder beside it.',
  'link_from() {',
  '  local dir="$1" file="$2" from="$3" parent rel',
  '  [ -e "$from/$file" ] || fail "$from/$file is missing; run the script from the folder that holds every earlier generation"',
  '  parent="$(dirname -- "$dir")"',
  '  rel="${from#"$parent"/}"',
  '  [ "$from" != "$parent" ] || rel=.',
  '  [ -e "$dir/$file" ] || ln -s -- "../$rel/$file" "$dir/$file"',
  '}',
];

/** The cfssl blocks of a rotation phase: the files of the next generation, then every Secret written whole. */
export function cfsslRotationBlocks(rotation: ResolvedRotation, clusterName: string, servers: readonly ServerCertificatePlan[],
  kinds: readonly ClusterKind[]): Block[] {
  const leaves = leavesOf(clusterName, servers, kinds);
  const prev = generationFolder(rotation.previous);
  const next = generationFolder(rotation.id);
  const start: Block = [
    `# Rotation ${rotation.id} (${rotation.kind}), phase ${rotation.phase}: generation ${rotation.previous} is in ${prev}, generation ${rotation.id} in ${next}/.`,
    `prev=${sh(prev)}`,
    `next=${sh(next)}`,
    `[ -e "$prev/${CA_BARE}.pem" ] && [ -e "$prev/${CA_BARE}-key.pem" ] \\`,
    `  || fail "the CA of generation ${rotation.previous} is not in $prev; run the script from the folder that holds every earlier generation"`,
    'mkdir -p -- "$next"',
  ];
  return [LINK_FUNCTION, start, filesOfPhase(rotation, leaves), secretsOfPhase(rotation, leaves)];
}

/** Makes the files the phase's Secrets are written from, keeping any that exist. */
function filesOfPhase(rotation: ResolvedRotation, leaves: readonly Leaf[]): Block {
  const issueAll = (dir: string) => leaves.map((l) => `issue_into ${dir} ${sh(l.bare)} ${sh(l.request)} ${sh(l.profile)}`);
  const bundle = [
    `cat -- "$next/${CA_BARE}.pem" "$prev/${CA_BARE}.pem" >"$work/${CA_BARE}-bundle.pem"`,
    `mv -- "$work/${CA_BARE}-bundle.pem" "$next/${CA_BARE}-bundle.pem"`,
  ];
  const requireNextCa = `[ -e "$next/${CA_BARE}.pem" ] || fail "the CA of generation ${rotation.id} is not in $next; run phase ${RotationPhase.TRUST_BOTH} first"`;
  switch (rotation.kind) {
    case RotationKind.LEAF_RENEWAL:
      return ['# The same CA, new leaves.', ...['.pem', '-key.pem'].map((f) => `link_from "$next" ${sh(`${CA_BARE}${f}`)} "$prev"`), ...issueAll('"$next"')];
    case RotationKind.CA_RENEWAL:
      return [
        '# A new CA certificate with the same key and subject; the same leaves.',
        `if [ ! -e "$next/${CA_BARE}.pem" ]; then`,
        `  cfssl gencert -renewca -ca="$prev/${CA_BARE}.pem" -ca-key="$prev/${CA_BARE}-key.pem" | cfssljson -bare "$work/${CA_BARE}"`,
        `  mv -- "$work/${CA_BARE}.pem" "$next/${CA_BARE}.pem"`,
        'fi',
        `link_from "$next" ${sh(`${CA_BARE}-key.pem`)} "$prev"`,
        ...leaves.flatMap((l) => ['.pem', '-key.pem'].map((f) => `link_from "$next" ${sh(`${l.bare}${f}`)} "$prev"`)),
      ];
    default:
      if (rotation.phase === RotationPhase.TRUST_BOTH) {
        return ['# The next CA beside the previous one, and the bundle of both.', `issue_into "$next" ${sh(CA_BARE)} ${sh(CA_CSR)}`, ...bundle, ...issueAll('"$prev"')];
      }
      return [
        `# The leaves of generation ${rotation.id}, signed by its CA.`, requireNextCa,
        ...(rotation.content.caCertificates.length === 2 ? bundle : []), ...issueAll('"$next"'),
      ];
  }
}

/** The files each Secret is written from in the phase. */
function secretsOfPhase(rotation: ResolvedRotation, leaves: readonly Leaf[]): Block {
  const { content } = rotation;
  const leafDir = content.leafGeneration === rotation.id ? '$next' : '$prev';
  const ca = content.caCertificates.length === 2 ? `"$next/${CA_BARE}-bundle.pem"` : `"${content.caCertificates[0] === rotation.id ? '$next' : '$prev'}/${CA_BARE}.pem"`;
  return [
    `# Every Secret written whole: tls.crt and tls.key of generation ${content.leafGeneration}, ca.crt with the CA of ${content.caCertificates.join(' and ')}.`,
    ...leaves.flatMap((l) => l.secretNames.map((n) => `put_secret ${sh(n)} "${leafDir}/${l.bare}.pem" "${leafDir}/${l.bare}-key.pem" ${ca}`)),
  ];
}

/** What the cert-manager rotation script needs to know. */
export interface CertManagerRotationInput {
  readonly rotation: ResolvedRotation;
  readonly clusterName: string;
  /** Every Secret the operator loads, in plan order. */
  readonly secretNames: readonly string[];
  /**
   * The Secrets of TLS for MySQL clients, each in its namespace, which a leaf renewal renews with
   * the cluster's ({@link renewsSqlLeaves}).
   * @default - none
   */
  readonly sqlSecrets?: readonly NamespacedName[];
}

/**
 * The cert-manager blocks of a CA replacement phase: wait for what cert-manager issues this phase,
 * take the leaves out of its hands (first phase), then write every Secret whole from the CA
 * Secrets and the current or staged leaves.
 */
export function certManagerRotationBlocks(input: CertManagerRotationInput): Block[] {
  const { rotation, clusterName, secretNames } = input;
  const caFile = (g: string) => `"$work/ca-${g}.pem"`;
  const cas = rotation.content.caCertificates;
  const staged = rotation.phase === RotationPhase.SWITCH_LEAVES;
  const returned = rotation.phase === RotationPhase.DROP_OLD;
  const awaited = [
    ...[...new Set(cas.map((g) => caObjectOf(rotation, g)))].map((g) => names.caCertificateName(clusterName, g)),
    ...(staged ? secretNames.map((n) => names.stagingSecretName(n, rotation.id)) : []),
    ...(returned ? secretNames : []),
  ];
  const waitIssued: Block = [
    `# What cert-manager does with the objects just applied, done before anything is read or written: ${
      staged ? 'the CAs, and the leaves it issues into the staging Secrets' : returned ? 'the CA, and the leaves it takes back (it may issue them anew)' : 'the CAs'}.`,
    ...awaited.map((n) => `wait_issued ${sh(n)}`),
  ];
  const readCas: Block = [
    `# The CA certificates every ca.crt holds in this phase: ${cas.join(', then ')}.`,
    ...cas.map((g) => `get_key ${sh(names.caSecretName(clusterName, caObjectOf(rotation, g)))} tls.crt ${caFile(g)}`),
    `cat -- ${cas.map(caFile).join(' ')} >"$work/ca.crt"`,
  ];
  const writeAll: Block = [
    staged
      ? `# Every Secret written whole: tls.crt and tls.key from its staging Secret (generation ${rotation.id}), ca.crt as above.`
      : '# Every Secret written whole: its own tls.crt and tls.key, ca.crt as above.',
    'for name in \\',
    ...secretNames.map((n) => `  ${sh(n)} \\`),
    '  ; do',
    `  from="${staged ? names.stagingSecretName('$name', rotation.id) : '$name'}"`,
    '  get_key "$from" tls.crt "$work/tls.crt"',
    '  get_key "$from" tls.key "$work/tls.key"',
    '  put_secret "$name" "$work/tls.crt" "$work/tls.key" "$work/ca.crt"',
    'done',
  ];
  return rotation.phase === RotationPhase.TRUST_BOTH ? [waitIssued, releaseLeaves(secretNames), readCas, writeAll] : [waitIssued, readCas, writeAll];
}

/** A Certificate (and its Secret, of the same name) in its namespace. */
export interface NamespacedName {
  readonly namespace: string;
  readonly name: string;
}

/**
 * The cert-manager blocks of a leaf renewal: the revision of every leaf Certificate, cmctl renew
 * of exactly those, namespace by namespace (never a CA Certificate, which would get a new
 * certificate, or with another key policy a new key, in the same step), then a wait until each is
 * issued at a higher revision.
 */
export function certManagerRenewalBlocks(leaves: readonly NamespacedName[]): Block[] {
  const namespaces = [...new Set(leaves.map((l) => l.namespace))];
  return [
    [
      '# The leaf Certificates, as namespace/name: no CA Certificate is renewed.',
      'certificates=(',
      ...leaves.map((l) => `  ${sh(`${l.namespace}/${l.name}`)}`),
      ')',
      '# The revision of each before the renewal, by index (bash 3 has no associative arrays): cert-manager',
      '# raises it with every issuance; a Certificate that took over a Secret it did not issue has none yet (0).',
      'before=()',
      'for entry in "${certificates[@]}"; do',
      '  revision="$("${kubectl[@]}" get certificate "${entry#*/}" --namespace="${entry%%/*}" -o \'jsonpath={.status.revision}\')" \\',
      '    || fail "kubectl could not read Certificate $entry"',
      '  before+=("${revision:-0}")',
      'done',
    ],
    namespaces.map((n) => `"\${cmctl[@]}" renew --namespace=${sh(n)} ${leaves.filter((l) => l.namespace === n).map((l) => sh(l.name)).join(' ')}`),
    [
      '# Done only when every one is issued anew: a pod restarted before would keep its old key.',
      'for i in "${!certificates[@]}"; do',
      '  NAMESPACE="${certificates[$i]%%/*}" wait_issued "${certificates[$i]#*/}" "${before[$i]}"',
      '  echo "Certificate ${certificates[$i]} issued anew"',
      'done',
    ],
  ];
}

/**
 * First phase only: refuses Secrets that cert-manager would delete with their Certificate, then
 * deletes the leaf Certificates (never their Secrets), so that cert-manager leaves the Secrets as
 * the rotation writes them. The last phase declares the Certificates again.
 */
function releaseLeaves(secretNames: readonly string[]): Block {
  return [
    '# Take the leaves out of cert-manager\'s hands: delete their Certificate objects, never their Secrets.',
    '# A Secret owned by its Certificate (cert-manager\'s --enable-certificate-owner-ref) would go with it.',
    `for name in ${secretNames.map(sh).join(' ')}; do`,
    '  owners="$("${kubectl[@]}" get secret "$name" --namespace="$NAMESPACE" -o "jsonpath={.metadata.ownerReferences}")" \\',
    '    || fail "kubectl could not read Secret $NAMESPACE/$name"',
    '  [ -z "$owners" ] || fail "Secret $NAMESPACE/$name is owned by $owners and would be deleted with its Certificate; remove its ownerReferences first (cert-manager runs with --enable-certificate-owner-ref)"',
    'done',
    `"\${kubectl[@]}" delete certificate --namespace="$NAMESPACE" --ignore-not-found ${secretNames.map(sh).join(' ')}`,
  ];
}


/**
 * The whole cert-manager rotation script of a phase: a CA replacement's phase, or a leaf renewal
 * (the one rotation with cert-manager that needs no other phases).
 */
export function certManagerRotationScript(input: CertManagerRotationInput & { readonly namespace: string }): string {
  const { rotation, clusterName, namespace } = input;
  const renewal = rotation.kind === RotationKind.LEAF_RENEWAL;
  return joinBlocks([
    [
      '#!/usr/bin/env bash',
      `# Phase ${rotation.phase} of rotation ${rotation.id} (${rotation.kind}) of the certificates of cluster ${clusterName}`,
      ...(renewal
        ? [`# in namespace ${namespace}: has cert-manager issue every server and client certificate anew (with TLS`,
          '# for MySQL clients, theirs too, each in its namespace), and waits until it has. Running it again',
          '# renews them again.']
        : [`# in namespace ${namespace}: writes every Secret the operator loads whole, with kubectl apply, as`,
          `# ${layout.ROTATION_RUNBOOK_FILE} says this phase needs. Running it again writes the same Secrets. It never`,
          '# deletes a Secret; keys pass through a private temporary folder that is removed on exit.']),
      `# Generated by cdk8s-cluster-tls: change the construct, not this file. It runs from any folder.`,
      '#',
      '# Environment:',
      '#   KUBECTL  the kubectl command, split on spaces (default: kubectl)',
      ...(renewal ? ['#   CMCTL    the cert-manager command-line tool, split on spaces (default: cmctl)'] : []),
      `#   TIMEOUT  whole seconds to wait for cert-manager to issue one Certificate (default: ${ISSUE_TIMEOUT_SECONDS})`,
      '#   POLL     seconds between two looks at a Certificate (default: 2)',
      'set -euo pipefail',
      'umask 077',
    ],
    kubectlVariables(namespace),
    [...WAIT_VARIABLES, ...(renewal ? ['CMCTL="${CMCTL:-cmctl}"', 'read -r -a cmctl <<<"$CMCTL"'] : [])],
    failFunction(layout.ROTATION_SCRIPT_FILE),
    NEED_FUNCTION,
    [...KUBECTL_CHECK, ...(renewal ? ['need "${cmctl[0]}" \'install cmctl (the cert-manager command-line tool), or set CMCTL to the command to use\''] : ['need base64 \'install coreutils\''])],
    ...(renewal ? [] : [['work="$(mktemp -d)"', 'trap \'rm -rf -- "$work"\' EXIT'], GET_KEY_FUNCTION, PUT_SECRET_FUNCTION]),
    WAIT_ISSUED_FUNCTION,
    ...(renewal
      ? certManagerRenewalBlocks([...input.secretNames.map((name) => ({ namespace, name })), ...(input.sqlSecrets ?? [])])
      : certManagerRotationBlocks(input)),
    [`echo "phase ${rotation.phase} of rotation ${rotation.id}: ${renewal ? 'cert-manager has issued' : 'this script has written'} the Secrets of cluster ${clusterName}; restart the components as ${layout.ROTATION_RUNBOOK_FILE} says"`],
  ]);
}
