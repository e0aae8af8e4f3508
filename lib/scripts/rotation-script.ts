/**
 * The actions of a rotation phase, as bash: the blocks the cfssl issuing script runs in place of
 * its issuing steps while a rotation is declared, and the whole rotation script of the
 * cert-manager method. Both write each Secret whole with `kubectl apply` and never delete one.
 * Pure functions: the scripts are declared as files by `cfssl.ts` and `cert-manager.ts`.
 *
 * With cfssl, each generation of certificates has a folder of its own beside the request files,
 * named by the rotation's id, holding a complete set (`ca.pem`, `ca-key.pem` and every leaf); the
 * initial generation is the folder itself. The certificates for MySQL clients, under the SQL CA,
 * keep their generations the same way in `sql/` (`sql/<id>/`). What a generation shares with the
 * one before (the CA of a leaf renewal, the key and leaves of a CA renewal) is a relative symbolic
 * link, so no key is ever copied. Old generations stay until you remove them.
 */
import { ClusterKind } from '../model/catalog';
import { CFSSL_PROFILES, SECRET_KEYS } from '../model/catalog-certificates';
import * as layout from '../model/output-layout';
import type { ServerCertificatePlan, TlsPlanSqlTls } from '../plan/certificate-options';
import * as names from '../model/names';
import type { NamespacedName } from '../model/names';
import { CA_BARE, CA_CSR, CLIENT_BARE, serverBare, sqlBare, sqlProfile } from './cfssl-files';
import { ResolvedRotation, RotationKind, RotationPhase, caObjectOf, caObjectsInUse, newestCaObject } from '../plan/rotation';
import {
  Block, GET_KEY_FUNCTION, KUBECTL_CHECK, NEED_FUNCTION, ISSUE_TIMEOUT_SECONDS, PUT_SECRET_FUNCTION, SECRET_EXISTS_FUNCTION, WAIT_ISSUED_FUNCTION, WAIT_VARIABLES, failFunction, joinBlocks,
  kubectlVariables, sh,
} from './script-blocks';

/** A certificate the rotation issues or moves, and the Secrets made from it. */
interface Leaf {
  readonly bare: string;
  /** Its request file, relative to the cfssl folder. */
  readonly request: string;
  readonly profile: string;
  /** Each Secret, in the cluster's namespace unless it names another. */
  readonly secrets: readonly { readonly name: string; readonly namespace?: string }[];
}

/**
 * A set of certificates that rotate together under one CA, in a folder of its own: the cluster's
 * (the cfssl folder itself) or those for MySQL clients (its `sql/`, under the SQL CA).
 */
export interface CfsslDomain {
  /** The folder of the initial generation, relative to the cfssl folder; every other generation is a folder in it. */
  readonly root: string;
  /** The CA, as the script's messages name it. */
  readonly ca: string;
  readonly leaves: readonly Leaf[];
}

/** The cluster's certificates: one per server certificate, and the client certificate shared by every client Secret. */
export function clusterDomain(clusterName: string, servers: readonly ServerCertificatePlan[], kinds: readonly ClusterKind[]): CfsslDomain {
  const leaves: Leaf[] = [
    ...servers.map((s) => ({ bare: serverBare(s), request: `${serverBare(s)}.json`, profile: CFSSL_PROFILES.server, secrets: [{ name: s.secretName }] })),
    ...(kinds.length > 0
      ? [{ bare: CLIENT_BARE, request: `${CLIENT_BARE}.json`, profile: CFSSL_PROFILES.client, secrets: kinds.map((k) => ({ name: names.clientSecretName(clusterName, k) })) }]
      : []),
  ];
  return { root: '.', ca: 'the CA', leaves };
}

/** The certificates for MySQL clients, in the `sql` folder under the SQL CA, each Secret in its namespace. */
export function sqlDomain(sql: TlsPlanSqlTls): CfsslDomain {
  const root = layout.CFSSL_SQL_FOLDER;
  return {
    root,
    ca: 'the SQL CA',
    leaves: sql.secrets.map((s) => ({ bare: sqlBare(s), request: `${root}/${sqlBare(s)}.json`, profile: sqlProfile(s), secrets: [{ name: s.name, namespace: s.namespace }] })),
  };
}

/** The folder of a generation of a domain, relative to the cfssl folder. */
export function generationFolder(domain: Pick<CfsslDomain, 'root'>, generation: string): string {
  if (generation === names.INITIAL_GENERATION) {
    return domain.root;
  }
  return domain.root === '.' ? generation : `${domain.root}/${generation}`;
}

/** The request file of a domain's CA, relative to the cfssl folder. */
export function caRequest(domain: Pick<CfsslDomain, 'root'>): string {
  return domain.root === '.' ? CA_CSR : `${domain.root}/${CA_CSR}`;
}

/** `link_from DIR FILE FROM`: links DIR/FILE to the same file of the folder FROM, unless it exists. */
export const LINK_FUNCTION: Block = [
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

/**
 * The cfssl blocks of a rotation phase for one domain: the files of the next generation, then
 * every Secret written whole. `fresh` names a shell variable that holds `true` when the domain's
 * CA was first made in this run (TLS for MySQL clients turned on while a rotation is declared):
 * from the second phase of a CA replacement on, the next CA is then made too, as the first phase
 * would have.
 */
export function cfsslRotationBlocks(rotation: ResolvedRotation, domain: CfsslDomain, fresh?: string): Block[] {
  const prev = generationFolder(domain, rotation.previous);
  const next = generationFolder(domain, rotation.id);
  const makesNextCa = fresh !== undefined && rotation.kind === RotationKind.CA_REPLACEMENT && rotation.phase !== RotationPhase.TRUST_BOTH;
  const start: Block = [
    `# Rotation ${rotation.id} (${rotation.kind}), phase ${rotation.phase}, of ${domain.ca}'s certificates: generation ${rotation.previous} is in ${prev}, generation ${rotation.id} in ${next}/.`,
    `prev=${sh(prev)}`,
    `next=${sh(next)}`,
    `[ -e "$prev/${CA_BARE}.pem" ] && [ -e "$prev/${CA_BARE}-key.pem" ] \\`,
    `  || fail "${domain.ca} of generation ${rotation.previous} is not in $prev; run the script from the folder that holds every earlier generation"`,
    'mkdir -p -- "$next"',
    ...(makesNextCa ? [`if [ "$${fresh}" = true ]; then`, `  issue_into "$next" ${sh(CA_BARE)} ${sh(caRequest(domain))}`, 'fi'] : []),
  ];
  return [start, filesOfPhase(rotation, domain), secretsOfPhase(rotation, domain)];
}

/** Makes the files the phase's Secrets are written from, keeping any that exist. */
function filesOfPhase(rotation: ResolvedRotation, domain: CfsslDomain): Block {
  const { leaves } = domain;
  const issueAll = (dir: string) => leaves.map((l) => `issue_into ${dir} ${sh(l.bare)} ${sh(l.request)} ${sh(l.profile)}`);
  const bundle = [
    `cat -- "$next/${CA_BARE}.pem" "$prev/${CA_BARE}.pem" >"$work/${CA_BARE}-bundle.pem"`,
    `mv -- "$work/${CA_BARE}-bundle.pem" "$next/${CA_BARE}-bundle.pem"`,
  ];
  const requireNextCa = `[ -e "$next/${CA_BARE}.pem" ] || fail "${domain.ca} of generation ${rotation.id} is not in $next; run phase ${RotationPhase.TRUST_BOTH} first"`;
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
        return ['# The next CA beside the previous one, and the bundle of both.', `issue_into "$next" ${sh(CA_BARE)} ${sh(caRequest(domain))}`, ...bundle, ...issueAll('"$prev"')];
      }
      return [
        `# The leaves of generation ${rotation.id}, signed by its CA.`, requireNextCa,
        ...(rotation.content.caCertificates.length === 2 ? bundle : []), ...issueAll('"$next"'),
      ];
  }
}

/** The files each Secret is written from in the phase. */
function secretsOfPhase(rotation: ResolvedRotation, domain: CfsslDomain): Block {
  const { content } = rotation;
  const leafDir = content.leafGeneration === rotation.id ? '$next' : '$prev';
  const ca = content.caCertificates.length === 2 ? `"$next/${CA_BARE}-bundle.pem"` : `"${content.caCertificates[0] === rotation.id ? '$next' : '$prev'}/${CA_BARE}.pem"`;
  return [
    `# Every Secret written whole: tls.crt and tls.key of generation ${content.leafGeneration}, ca.crt with ${domain.ca} of ${content.caCertificates.join(' and ')}.`,
    ...domain.leaves.flatMap((l) => l.secrets.map((x) => `${x.namespace === undefined ? '' : `NAMESPACE=${sh(x.namespace)} `}put_secret ${sh(x.name)} "${leafDir}/${l.bare}.pem" "${leafDir}/${l.bare}-key.pem" ${ca}`)),
  ];
}

/**
 * A set of certificates that rotate together under one CA with cert-manager: the cluster's, or
 * those for MySQL clients (their CA in cert-manager's namespace, their Secrets in theirs).
 */
export interface ManagedDomain {
  /** The CA, as the script's comments name it. */
  readonly ca: string;
  /** The namespace of the CA's Certificate and Secret. */
  readonly caNamespace: string;
  /**
   * The CA Certificate of a generation's CA object.
   * @default - none: the CA Secrets are the user's (a span's intermediates, which its script signs)
   */
  readonly caCertificate?: (generation: string) => string;
  /** The Secret of a generation's CA object. */
  readonly caSecret: (generation: string) => string;
  /**
   * The key of the CA Secret that holds the CA certificate every `ca.crt` trusts: `tls.crt`, or
   * `ca.crt` for a span's intermediate, whose root is what the leaves trust.
   */
  readonly caKey: string;
  /**
   * What to do when the newest generation's CA Secret is missing, for the script's message.
   * @default - nothing checked: cert-manager makes it from its Certificate, which the script waits for
   */
  readonly caMissingHint?: string;
  /** Every leaf Secret, in order, each in its namespace (its Certificate has its name). */
  readonly secrets: readonly NamespacedName[];
}

/** What the cert-manager rotation script needs to know. */
export interface CertManagerRotationInput {
  readonly rotation: ResolvedRotation;
  readonly clusterName: string;
  readonly namespace: string;
  /** Every Secret of the cluster's plan, in order. */
  readonly secretNames: readonly string[];
  /**
   * TLS for MySQL clients, which rotates with the cluster's certificates.
   * @default - none
   */
  readonly sql?: ManagedDomain;
  /**
   * A cluster across Kubernetes clusters, whose CA objects are the current Kubernetes cluster's
   * intermediate CA Secrets.
   * @default - none: the cluster's own CA Certificates and Secrets
   */
  readonly span?: RotationSpan;
}

/** What the rotation script of a cluster across Kubernetes clusters needs to know. */
export interface RotationSpan {
  /** The current Kubernetes cluster, which names its intermediate CA Secrets. */
  readonly kubernetesCluster: string;
  /** What to do when the newest intermediate's Secret is missing, as the script's message says it. */
  readonly caMissingHint: string;
}

/** TLS for MySQL clients of a cluster, as a rotation with cert-manager moves it: the SQL CA's objects in cert-manager's namespace. */
export function sqlManagedDomain(namespace: string, clusterName: string, sql: TlsPlanSqlTls): ManagedDomain & Required<Pick<ManagedDomain, 'caCertificate'>> {
  const name = (g: string) => names.sqlCaName(namespace, clusterName, g);
  return { ca: 'the SQL CA', caNamespace: sql.ca.secretNamespace!, caCertificate: name, caSecret: name, caKey: SECRET_KEYS.certificate, secrets: sql.secrets };
}

/** The domains of a rotation: the cluster's, then TLS for MySQL clients when it is on. */
function managedDomains(input: CertManagerRotationInput): ManagedDomain[] {
  const { span } = input;
  // A span's CA objects are its intermediates' Secrets, which the user's script signs: no
  // Certificate to wait for, and the root each ca.crt trusts is in their own ca.crt.
  const cluster: ManagedDomain = {
    ca: 'the CA',
    caNamespace: input.namespace,
    caCertificate: span === undefined ? (g) => names.caCertificateName(input.clusterName, g) : undefined,
    caSecret: (g) => names.signingSecretName(input.clusterName, g, span?.kubernetesCluster),
    caKey: span === undefined ? SECRET_KEYS.certificate : SECRET_KEYS.ca,
    caMissingHint: span?.caMissingHint,
    secrets: input.secretNames.map((name) => ({ namespace: input.namespace, name })),
  };
  return input.sql === undefined ? [cluster] : [cluster, input.sql];
}

/** A Secret or Certificate as the scripts' loops name it: `namespace/name`. */
function entry(n: NamespacedName): string {
  return sh(`${n.namespace}/${n.name}`);
}

/**
 * The cert-manager blocks of a CA replacement phase: wait for what cert-manager issues this phase,
 * take the leaves out of its hands (first phase), then write every Secret whole from the CA
 * Secrets and the current or staged leaves, domain by domain.
 */
export function certManagerRotationBlocks(input: CertManagerRotationInput): Block[] {
  const { rotation } = input;
  const domains = managedDomains(input);
  const cas = rotation.content.caCertificates;
  const staged = rotation.phase === RotationPhase.SWITCH_LEAVES;
  const returned = rotation.phase === RotationPhase.DROP_OLD;
  // The next CA first, as each ca.crt lists them.
  const caObjects = [...caObjectsInUse(rotation)].reverse();
  const caCertificates = domains.flatMap((d) => (d.caCertificate === undefined ? [] : caObjects.map((g) => ({ namespace: d.caNamespace, name: d.caCertificate!(g) }))));
  const awaited = [
    ...caCertificates,
    ...domains.flatMap((d) => [...(staged ? d.secrets.map((x) => ({ ...x, name: names.stagingSecretName(x.name, rotation.id) })) : []), ...(returned ? d.secrets : [])]),
  ];
  const leaves = staged ? 'the leaves it issues into the staging Secrets' : returned ? 'the leaves it takes back (it may issue them anew)' : undefined;
  const waitIssued: Block[] = awaited.length === 0 ? [] : [[
    `# What cert-manager does with the objects just applied, done before anything is read or written: ${
      [caCertificates.length > 0 ? (returned ? 'the CA' : 'the CAs') : undefined, leaves].filter((x) => x !== undefined).join(', and ')}.`,
    `for entry in ${awaited.map(entry).join(' ')}; do`,
    '  NAMESPACE="${entry%%/*}" wait_issued "${entry#*/}"',
    'done',
  ]];
  const blocks = domains.flatMap((d, i) => {
    const bundle = `"$work/ca-${i}.crt"`;
    const caFile = (g: string) => `"$work/ca-${i}-${g}.pem"`;
    const readCas: Block = [
      `# The CA certificates every ca.crt of ${d.ca}'s Secrets holds in this phase: ${cas.join(', then ')}${d.caKey === SECRET_KEYS.ca ? ', each the ca.crt of its intermediate\'s Secret' : ''}.`,
      ...cas.map((g) => `NAMESPACE=${sh(d.caNamespace)} get_key ${sh(d.caSecret(caObjectOf(rotation, g)))} ${d.caKey} ${caFile(g)}`),
      `cat -- ${cas.map(caFile).join(' ')} >${bundle}`,
    ];
    const writeAll: Block = [
      staged
        ? `# Every Secret of ${d.ca} written whole: tls.crt and tls.key from its staging Secret (generation ${rotation.id}), ca.crt as above.`
        : `# Every Secret of ${d.ca} written whole: its own tls.crt and tls.key, ca.crt as above.`,
      'for entry in \\',
      ...d.secrets.map((x) => `  ${entry(x)} \\`),
      '  ; do',
      '  namespace="${entry%%/*}" name="${entry#*/}"',
      `  from="${staged ? names.stagingSecretName('$name', rotation.id) : '$name'}"`,
      '  NAMESPACE="$namespace" get_key "$from" tls.crt "$work/tls.crt"',
      '  NAMESPACE="$namespace" get_key "$from" tls.key "$work/tls.key"',
      `  NAMESPACE="$namespace" put_secret "$name" "$work/tls.crt" "$work/tls.key" ${bundle}`,
      'done',
    ];
    return [readCas, writeAll];
  });
  // The newest CA's Secret, when a step of the user's makes it (a span's intermediate), is checked before anything is changed.
  const missing: Block[] = domains.filter((d) => d.caMissingHint !== undefined).map((d) => {
    const newest = d.caSecret(newestCaObject(rotation));
    return [
      `# ${d.ca}'s newest Secret, made by a step of the runbook before this script: checked before anything is changed.`,
      `NAMESPACE=${sh(d.caNamespace)} secret_exists ${sh(newest)} || fail "Secret ${d.caNamespace}/${newest} does not exist; "${sh(d.caMissingHint!)}`,
    ];
  });
  const release = rotation.phase === RotationPhase.TRUST_BOTH ? [releaseLeaves(domains.flatMap((d) => d.secrets))] : [];
  return [...missing, ...waitIssued, ...release, ...blocks];
}

/**
 * The cert-manager blocks of a leaf renewal: the revision of every leaf Certificate, cmctl renew
 * of exactly those, namespace by namespace (never a CA Certificate, which would get a new
 * certificate, or with another key policy a new key, in the same step), then a wait until each is
 * issued at a higher revision.
 */
export function certManagerRenewalBlocks(leaves: readonly NamespacedName[]): Block[] {
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
    names.byNamespace(leaves).map(([n, ofNamespace]) => `"\${cmctl[@]}" renew --namespace=${sh(n)} ${ofNamespace.map((l) => sh(l.name)).join(' ')}`),
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
 * deletes the leaf Certificates (never their Secrets), namespace by namespace, so that
 * cert-manager leaves the Secrets as the rotation writes them. The last phase declares the
 * Certificates again.
 */
function releaseLeaves(leaves: readonly NamespacedName[]): Block {
  return [
    '# Take the leaves out of cert-manager\'s hands: delete their Certificate objects, never their Secrets.',
    '# A Secret owned by its Certificate (cert-manager\'s --enable-certificate-owner-ref) would go with it.',
    `for entry in ${leaves.map(entry).join(' ')}; do`,
    '  owners="$("${kubectl[@]}" get secret "${entry#*/}" --namespace="${entry%%/*}" -o "jsonpath={.metadata.ownerReferences}")" \\',
    '    || fail "kubectl could not read Secret $entry"',
    '  [ -z "$owners" ] || fail "Secret $entry is owned by $owners and would be deleted with its Certificate; remove its ownerReferences first (cert-manager runs with --enable-certificate-owner-ref)"',
    'done',
    ...names.byNamespace(leaves).map(([n, ofNamespace]) => `"\${kubectl[@]}" delete certificate --namespace=${sh(n)} --ignore-not-found ${ofNamespace.map((l) => sh(l.name)).join(' ')}`),
  ];
}

/**
 * The whole cert-manager rotation script of a phase: a CA replacement's phase, or a leaf renewal
 * (the one rotation with cert-manager that needs no other phases).
 */
export function certManagerRotationScript(input: CertManagerRotationInput): string {
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
        : [`# in namespace ${namespace} (and those for MySQL clients in theirs): writes every Secret whole, with kubectl apply, as`,
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
    ...(renewal ? [] : [['work="$(mktemp -d)"', 'trap \'rm -rf -- "$work"\' EXIT'], GET_KEY_FUNCTION, PUT_SECRET_FUNCTION, ...(input.span === undefined ? [] : [SECRET_EXISTS_FUNCTION])]),
    WAIT_ISSUED_FUNCTION,
    ...(renewal
      ? certManagerRenewalBlocks(managedDomains(input).flatMap((d) => d.secrets))
      : certManagerRotationBlocks(input)),
    [`echo "phase ${rotation.phase} of rotation ${rotation.id}: ${renewal ? 'cert-manager has issued' : 'this script has written'} the Secrets of cluster ${clusterName}; restart the components as ${layout.ROTATION_RUNBOOK_FILE} says"`],
  ]);
}
