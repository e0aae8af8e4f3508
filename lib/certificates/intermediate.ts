/**
 * Trust across Kubernetes clusters without a shared CA key: one root CA signs one intermediate CA
 * per Kubernetes cluster, and each cluster's cert-manager issues the leaves there from its own
 * intermediate alone. The user keeps the root offline and the script signs with cfssl, or one
 * cluster's cert-manager keeps it (`span.rootCluster`) and the script has its CA Issuer sign each
 * intermediate through a CertificateRequest there; the intermediate's key is made where the script
 * runs either way, and written only into its own cluster's Secret.
 *
 * What cert-manager does with it (read in its v1.21.2 code): the CA issuer loads the intermediate
 * Secret's `tls.crt` and appends its `ca.crt` (`kube.SecretTLSKeyPairAndCA`), then builds the chain
 * of every leaf it signs from them (`pki.SignCSRTemplate`, `ParseSingleCertificateChain`): the
 * leaf's `tls.crt` is the leaf and the intermediate, and its `ca.crt` the self-signed root, which
 * the chain leaves out. So each component sends its intermediate and trusts the root alone, and
 * verifies the members of every other Kubernetes cluster. The Secret the script writes has the
 * shape cert-manager itself gives an intermediate it issues: `tls.crt` the intermediate alone,
 * `ca.crt` the root. Signing a CertificateRequest, the same issuer writes the intermediate alone
 * into `status.certificate` (a self-signed root is left out of the chain) and the root into
 * `status.ca`: the script writes them into the same shape.
 *
 * Pure functions and the declarations of the files; the script runs where the user keeps the root.
 */
import { Construct } from 'constructs';
import { Issuer } from '../../imports/issuers-cert-manager.io';
import { ClusterKind, SECRET_KEYS } from '../model/catalog';
import type { CertificateSettings } from './certificate-options';
import { KeyAlgorithm } from './certificate-options';
import { parseDuration } from '../model/duration';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import type { KubernetesClusterSpec, ResolvedSpan } from '../model/span';
import type { RunbookStep } from '../documents/runbook';
import { OutputFile } from '../synth/output-file';
import { cfsslKey, json } from './cfssl';
import {
  Block, FIELD_MANAGER, GET_KEY_FUNCTION, ISSUE_TIMEOUT_SECONDS, KUBECTL_CHECK, NEED_FUNCTION, SECRET_EXISTS_FUNCTION, WAIT_VARIABLES, failFunction, joinBlocks, kubectlVariables, sh,
} from './script-blocks';
import { DistinguishedName, caSubject } from './subjects';
import { IssuingMethod } from './certificate-options';
import { RotationKind, newestCaObject, signingCaObject } from './rotation';
import type { IConstruct } from 'constructs';

/** The script that makes the span's root (once) and signs the current Kubernetes cluster's intermediate. */
const INTERMEDIATE_SCRIPT = 'issue-intermediate.sh';
/** The request of the span's root CA. */
const ROOT_CSR = 'root-ca-csr.json';
/** The request of the current Kubernetes cluster's intermediate CA. */
const INTERMEDIATE_CSR = 'intermediate-ca-csr.json';
/** The signing configuration of the intermediate: a CA that signs leaves only. */
const INTERMEDIATE_CONFIG = 'intermediate-ca-config.json';
/** The cfssl profile that signs an intermediate. */
const INTERMEDIATE_PROFILE = 'intermediate';
/** The root's files, by the bare name cfssljson writes them with, in the folder the user keeps it in. */
const ROOT_BARE = 'root-ca';

/**
 * The root's validity is twice `caDuration`, each intermediate's `caDuration`: the script signs an
 * intermediate only from a root that outlives it, so the first half of the root's life leaves room
 * to add Kubernetes clusters.
 */
const ROOT_DURATION_FACTOR = 2;

/** The validity of the span's root, as a Go duration in hours, which cfssl and cert-manager both read. */
export function rootDuration(settings: CertificateSettings): string {
  return hours(settings.caDuration, ROOT_DURATION_FACTOR);
}

/** The subject of the span's root: the CA subject a single cluster's CA has, the Common Name alone. */
export function rootSubject(settings: CertificateSettings): DistinguishedName {
  return caSubject(settings, IssuingMethod.CERT_MANAGER);
}

/** The subject of a Kubernetes cluster's intermediate: the Kubernetes cluster's name as OU, and the Common Name. */
function intermediateSubject(settings: CertificateSettings, kubernetesCluster: string): DistinguishedName {
  return [{ type: 'OU', value: kubernetesCluster }, { type: 'CN', value: settings.commonName }];
}

/**
 * Refuses what a span cannot be issued with: another method than cert-manager, an issuer of the
 * user's, a key cfssl cannot make for the root and intermediates, and a `clusterDomain` of its
 * own. A CA replacement replaces the root (and every intermediate with it); a leaf renewal keeps
 * them. The three subjects always differ: the root's is the Common Name alone, an
 * intermediate's adds the Kubernetes cluster as OU, and a leaf's always carries an organization.
 */
export function requireSpanSettings(scope: IConstruct, span: ResolvedSpan, settings: CertificateSettings,
  props: {
    readonly method: IssuingMethod; readonly clusterDomain?: string; readonly issuerRef?: unknown;
    readonly caKeyRotationPolicy?: string; readonly caRenewBefore?: unknown;
  }): void {
  const replaced = settings.rotation?.history.findIndex((h) => h.kind !== RotationKind.LEAF_RENEWAL) ?? -1;
  if (span.root !== undefined && replaced >= 0) {
    inputError(scope, `rotations[${replaced}].kind`, settings.rotation!.history[replaced].kind,
      `"${RotationKind.LEAF_RENEWAL}" with span.rootCluster: replacing a root that cert-manager keeps is not supported yet; keep the root offline (no rootCluster) to replace it in phases`);
  }
  if (props.method !== IssuingMethod.CERT_MANAGER) {
    inputError(scope, 'method', props.method, `"${IssuingMethod.CERT_MANAGER}" with span: each Kubernetes cluster's cert-manager issues its leaves from its own intermediate CA`);
  }
  if (props.issuerRef !== undefined) {
    inputError(scope, 'issuerRef', props.issuerRef, 'no issuerRef with span: the leaves are signed by each Kubernetes cluster\'s intermediate CA, which the span\'s root signs');
  }
  for (const [field, value] of [['caKeyRotationPolicy', props.caKeyRotationPolicy], ['caRenewBefore', props.caRenewBefore]] as const) {
    if (value !== undefined) {
      inputError(scope, field, value, `no ${field} with span: cert-manager renews no CA of a span; the script signs each intermediate for caDuration`);
    }
  }
  if (props.clusterDomain !== undefined) {
    inputError(scope, 'clusterDomain', props.clusterDomain, `no clusterDomain with span: each Kubernetes cluster's domain is its span.clusters[].clusterDomain ("${span.current.clusterDomain}" here)`);
  }
  if (settings.caPrivateKey.algorithm === KeyAlgorithm.ED25519) {
    inputError(scope, 'privateKey.algorithm', settings.caPrivateKey.algorithm, 'RSA or ECDSA with span: cfssl makes the root and the intermediates, and makes no Ed25519 keys');
  }
}

/** A distinguished name as a cfssl request's `CN` and `names`. */
function csrName(name: DistinguishedName): { CN: string; names?: { OU: string }[] } {
  const ou = name.find((a) => a.type === 'OU')?.value;
  return { CN: name.find((a) => a.type === 'CN')!.value, ...(ou === undefined ? {} : { names: [{ OU: ou }] }) };
}

/** A duration in hours, as cfssl reads an expiry. */
function hours(duration: string, factor = 1): string {
  return `${Math.ceil((parseDuration(duration)! * factor) / 3_600_000)}h`;
}

/**
 * Declares the files of the intermediate (the requests, the signing configuration and the script)
 * in the cluster's cfssl folder, and returns the signer of the cert-manager method: one CA Issuer
 * per cluster kind, on the current Kubernetes cluster's intermediate Secret.
 */
export function declareIntermediate(scope: Construct, settings: CertificateSettings, span: ResolvedSpan, labels: { readonly [key: string]: string }) {
  const { clusterName, namespace } = settings;
  const root = new Construct(scope, 'Intermediate');
  const file = (id: string, name: string, text: string, executable = false) =>
    new OutputFile(root, id, { path: layout.cfsslPath(namespace, clusterName, name), content: { render: () => text }, executable });
  const key = cfsslKey(settings.caPrivateKey);
  if (span.root === undefined) {
    file('RootCsr', ROOT_CSR, json({ ...csrName(rootSubject(settings)), CA: { expiry: rootDuration(settings) }, key }));
  }
  file('IntermediateCsr', INTERMEDIATE_CSR, json({ ...csrName(intermediateSubject(settings, span.current.name)), key }));
  if (span.root === undefined) {
    file('IntermediateConfig', INTERMEDIATE_CONFIG, json({
    signing: {
      profiles: {
        [INTERMEDIATE_PROFILE]: {
          expiry: hours(settings.caDuration),
          usages: ['cert sign', 'crl sign'],
          ca_constraint: { is_ca: true, max_path_len: 0, max_path_len_zero: true },
          },
        },
      },
    }));
  }
  file('Script', INTERMEDIATE_SCRIPT, span.root === undefined ? intermediateScript(settings, span) : keptRootScript(settings, span, span.root), true);
  const secretName = names.intermediateSecretName(clusterName, span.current.name, signingCaObject(settings.rotation));
  return (kind: ClusterKind) => new Issuer(scope, `Issuer-${kind}`, {
    metadata: { name: names.caIssuerName(clusterName, kind), namespace, labels },
    spec: { ca: { secretName } },
  });
}

/**
 * The runbook step that issues the current Kubernetes cluster's intermediate, before cert-manager
 * issues any leaf from it. `manifest` is the output's manifest file, whose root objects the
 * cluster that keeps the root applies first.
 */
export function intermediateStep(settings: CertificateSettings, span: ResolvedSpan, manifest: string): RunbookStep {
  const generation = newestCaObject(settings.rotation);
  const secret = names.intermediateSecretName(settings.clusterName, span.current.name, generation);
  const title = `Issue the intermediate CA${generation === names.INITIAL_GENERATION ? '' : ` of rotation ${generation}`} of Kubernetes cluster ${span.current.name}`;
  if (span.root !== undefined) {
    return { title, ...keptRootStep(settings, span, span.root, secret, manifest) };
  }
  const first = span.current.name === span.first.name;
  const rotated = generation === names.INITIAL_GENERATION ? '' : ` of rotation ${generation}`;
  return {
    title,
    text: [
      `Every Kubernetes cluster of this database cluster issues its certificates from an intermediate CA of its own, signed by one root CA that no cluster holds. `
        + `Run the script on the machine that keeps the root, with kubectl pointing at Kubernetes cluster \`${span.current.name}\` and \`ROOT_CA\` naming the folder that holds the root `
        + `(outside the output and the files folder, readable by you alone${rotated === '' ? '' : `; the root${rotated} is in its folder \`${generation}\` there`}). It signs this cluster's intermediate and creates its Secret `
        + `\`${secret}\`; the intermediate's key is then only in that Secret. `
        + (first ? `\`--new-root\` makes the root${rotated} the first time, for \`${span.first.name}\`, the first Kubernetes cluster; keep that folder for every other cluster. `
          : `The root${rotated} was made for \`${span.first.name}\`, the first Kubernetes cluster: run this step there first, and use the same folder. `)
        + 'Run again, the script keeps a Secret that exists.',
    ],
    commands: [intermediateCommand(settings, span)],
  };
}

/** The text and commands of the intermediate's step when cert-manager keeps the root in `root`. */
function keptRootStep(settings: CertificateSettings, span: ResolvedSpan, root: KubernetesClusterSpec, secret: string, manifest: string): Omit<RunbookStep, 'title'> {
  const { clusterName, namespace } = settings;
  const signs = `The script makes this cluster's intermediate key and request, has the root's Issuer \`${names.rootIssuerName(clusterName)}\` sign it through a CertificateRequest in \`${root.name}\`, `
    + `and creates Secret \`${secret}\` with them; the intermediate's key is then only in that Secret, and the root's never leaves \`${root.name}\`. Run again, the script keeps a Secret that exists.`;
  if (span.current.name === root.name) {
    return {
      text: [
        `Every Kubernetes cluster of this database cluster issues its certificates from an intermediate CA of its own, signed by one root CA that cert-manager keeps in this Kubernetes cluster, \`${root.name}\`. `
          + `Apply the root and wait until cert-manager has issued it, then run the script with kubectl pointing at \`${root.name}\`. ${signs}`,
      ],
      commands: [
        `kubectl apply -f ${manifest} -l ${names.ROOT_CA_LABEL}=${clusterName}`,
        `kubectl wait --for=condition=Ready certificate/${names.rootCaName(clusterName)} -n ${namespace} --timeout=5m`,
        intermediateCommand(settings, span),
      ],
    };
  }
  return {
    text: [
      `Every Kubernetes cluster of this database cluster issues its certificates from an intermediate CA of its own, signed by one root CA that cert-manager keeps in Kubernetes cluster \`${root.name}\`, `
        + `whose output applied it. Run the script with kubectl pointing at \`${span.current.name}\` and \`ROOT_KUBECTL\` at \`${root.name}\` (here its context is named \`${root.name}\`). ${signs}`,
    ],
    commands: [intermediateCommand(settings, span)],
  };
}

/** What to do when the newest intermediate's Secret is missing, as the rotation script says it. */
export function intermediateMissingHint(settings: CertificateSettings, span: ResolvedSpan): string {
  return `sign it first: run ${intermediateCommand(settings, span)} from the output folder${span.root === undefined ? ', with ROOT_CA naming the folder that keeps the root' : ''}`;
}

/**
 * The command that signs the current Kubernetes cluster's intermediate, run from the output
 * folder: with the root offline, `--new-root` in the first one; with cert-manager keeping it,
 * `ROOT_KUBECTL` naming the context of the cluster that does, in every other one.
 */
function intermediateCommand(settings: CertificateSettings, span: ResolvedSpan): string {
  const script = layout.fromOutputFolder(layout.cfsslPath(settings.namespace, settings.clusterName, INTERMEDIATE_SCRIPT));
  if (span.root !== undefined) {
    return span.root.name === span.current.name ? script : `ROOT_KUBECTL="kubectl --context=${span.root.name}" ${script}`;
  }
  return `${script}${span.current.name === span.first.name ? ' --new-root' : ''} "$ROOT_CA"`;
}

/** The intermediate's script: makes the root with `--new-root`, then signs the intermediate and creates its Secret, keeping one that exists. */
function intermediateScript(settings: CertificateSettings, span: ResolvedSpan): string {
  const { clusterName, namespace } = settings;
  const generation = newestCaObject(settings.rotation);
  const secret = names.intermediateSecretName(clusterName, span.current.name, generation);
  const rotated = generation !== names.INITIAL_GENERATION;
  const blocks: Block[] = [
    [
      '#!/usr/bin/env bash',
      `# Signs the intermediate CA of Kubernetes cluster ${span.current.name} for cluster ${clusterName} in namespace`,
      `# ${namespace} with the span's root CA, and creates Secret ${secret} there, from which that`,
      '# cluster\'s cert-manager issues every certificate. Generated by cdk8s-cluster-tls: change the',
      '# construct, not this file.',
      '#',
      `# Usage: ${INTERMEDIATE_SCRIPT} [--new-root | --renew] ROOT_FOLDER`,
      `#   ROOT_FOLDER  the folder that keeps the root (${ROOT_BARE}.pem and ${ROOT_BARE}-key.pem), outside any`,
      '#                synth output; keep it off every Kubernetes cluster',
      ...(rotated ? [`#                (rotation ${generation} replaces the root: this script uses the one in ROOT_FOLDER/${generation})`] : []),
      '#   --new-root   make the root there first (once, for the first Kubernetes cluster); refused when one exists',
      '#   --renew      sign a new intermediate with a new key and write it over the Secret, whose ca.crt',
      '#                (this root) stays as it is; cert-manager issues from it from then on',
      '#',
      '# Run it with kubectl pointing at that Kubernetes cluster. The intermediate\'s key is made in a',
      '# private scratch folder, written only into the Secret, and removed. A Secret that exists is',
      '# kept when its ca.crt is this root, and replaced only with --renew.',
      '#',
      '# Environment:',
      '#   KUBECTL  the kubectl command, split on spaces (default: kubectl),',
      `#            for example KUBECTL="kubectl --context=${span.current.name}"`,
      'set -euo pipefail',
      'umask 077',
    ],
    kubectlVariables(namespace),
    failFunction(INTERMEDIATE_SCRIPT),
    [
      '# The arguments, read before the script moves to its own folder: ROOT_FOLDER is taken from where',
      '# it was run.',
      'new_root=false',
      'renew=false',
      'case "${1:-}" in',
      HELP_CASE,
      '  --new-root) new_root=true; shift ;;',
      '  --renew) renew=true; shift ;;',
      'esac',
      `[ "$#" -eq 1 ] && [ -n "$1" ] && [ "\${1#-}" = "$1" ] || fail "usage: ${INTERMEDIATE_SCRIPT} [--new-root | --renew] ROOT_FOLDER (the folder that keeps the span's root CA)"`,
      'case "$1" in',
      '  /*) root="$1" ;;',
      '  *) root="$PWD/$1" ;;',
      'esac',
      ...(rotated ? [`# Rotation ${generation} replaces the root: its root has a folder of its own, beside the earlier ones' files.`, `root="$root/${generation}"`] : []),
      'cd "$(dirname "$0")"',
    ],
    NEED_FUNCTION,
    [
      'need cfssl \'install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)\'',
      'need cfssljson \'install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)\'',
      'need openssl \'install openssl\'',
      ...KUBECTL_CHECK,
    ],
    NAMESPACE_BLOCK,
    rootBlock(settings),
    SECRET_EXISTS_FUNCTION,
    GET_KEY_FUNCTION,
    SCRATCH_BLOCK,
    [
      ...keptBlock(secret, `"$root/${ROOT_BARE}.pem"`, 'the root in $root'),
      `! $root_existed || fail "$root already holds a root CA file (${ROOT_BARE}.pem or ${ROOT_BARE}-key.pem); run without --new-root to sign with it, or give a new folder"`,
    ],
    [
      `cfssl gencert -loglevel=3 -ca "$root/${ROOT_BARE}.pem" -ca-key "$root/${ROOT_BARE}-key.pem" -config ${INTERMEDIATE_CONFIG} -profile ${INTERMEDIATE_PROFILE} ${INTERMEDIATE_CSR} \\`,
      '  | cfssljson -bare "$work/intermediate"',
      ...writeSecretBlock(secret, `"$root/${ROOT_BARE}.pem"`, 'the root in $root'),
    ],
  ];
  return joinBlocks(blocks);
}

/**
 * The intermediate's script when cert-manager keeps the root in `root`: checks that the root's
 * Issuer is ready there and reads the root from its Secret's `ca.crt` (never its key), makes the
 * intermediate's key and request in the scratch folder, has the root's Issuer sign it through a
 * CertificateRequest in `root` (deleted on exit), checks what came back, and writes the Secret.
 */
function keptRootScript(settings: CertificateSettings, span: ResolvedSpan, root: KubernetesClusterSpec): string {
  const { clusterName, namespace } = settings;
  const secret = names.intermediateSecretName(clusterName, span.current.name, names.INITIAL_GENERATION);
  const issuer = names.rootIssuerName(clusterName);
  const here = span.current.name === root.name;
  const context = `kubectl --context=${root.name}`;
  const inRoot = `in Kubernetes cluster ${root.name}`;
  const blocks: Block[] = [
    [
      '#!/usr/bin/env bash',
      `# Signs the intermediate CA of Kubernetes cluster ${span.current.name} for cluster ${clusterName} in namespace`,
      `# ${namespace} with the span's root CA, which cert-manager keeps in Kubernetes cluster ${root.name}, and`,
      `# creates Secret ${secret}, from which this cluster's cert-manager issues every certificate.`,
      '# Generated by cdk8s-cluster-tls: change the construct, not this file.',
      '#',
      `# Usage: ${INTERMEDIATE_SCRIPT} [--renew]`,
      '#   --renew  sign a new intermediate with a new key and write it over the Secret, whose ca.crt',
      '#            (the root) stays as it is; cert-manager issues from it from then on',
      '#',
      `# The intermediate's key and request are made in a private scratch folder; Issuer ${issuer}`,
      `# signs the request through a CertificateRequest ${inRoot}, deleted once done. The key`,
      '# is written only into the Secret, and the root\'s key never leaves its Secret there. A Secret',
      '# that exists is kept when its ca.crt is the root, and replaced only with --renew.',
      '#',
      '# Environment:',
      '#   KUBECTL       the kubectl command of this Kubernetes cluster, split on spaces (default: kubectl)',
      `#   ROOT_KUBECTL  the kubectl command of Kubernetes cluster ${root.name}, which keeps the root,`,
      here ? '#                 split on spaces (default: KUBECTL)' : `#                 split on spaces (required), for example ROOT_KUBECTL="${context}"`,
      `#   TIMEOUT       seconds to wait for the root's Issuer to sign (default: ${ISSUE_TIMEOUT_SECONDS})`,
      'set -euo pipefail',
      'umask 077',
    ],
    kubectlVariables(namespace),
    failFunction(INTERMEDIATE_SCRIPT),
    [
      here ? 'ROOT_KUBECTL="${ROOT_KUBECTL:-$KUBECTL}"'
        : `[ -n "\${ROOT_KUBECTL:-}" ] || fail 'set ROOT_KUBECTL to the kubectl command of Kubernetes cluster ${root.name}, whose cert-manager keeps the root: for example ROOT_KUBECTL="${context}"'`,
      'read -r -a root_kubectl <<<"$ROOT_KUBECTL"',
      ...WAIT_VARIABLES,
      'renew=false',
      'case "${1:-}" in',
      HELP_CASE,
      '  --renew) renew=true; shift ;;',
      'esac',
      `[ "$#" -eq 0 ] || fail "usage: ${INTERMEDIATE_SCRIPT} [--renew] (cert-manager keeps the root ${inRoot}: ROOT_KUBECTL names it, not an argument)"`,
      `[[ "$TIMEOUT" =~ ^[0-9]+$ ]] || fail "TIMEOUT is $TIMEOUT; set it to whole seconds, such as ${ISSUE_TIMEOUT_SECONDS}"`,
      '[[ "$POLL" =~ ^[0-9]+([.][0-9]+)?$ ]] || fail "POLL is $POLL; set it to seconds, such as 2 or 0.5"',
      'cd "$(dirname "$0")"',
    ],
    NEED_FUNCTION,
    [
      'need cfssl \'install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)\'',
      'need cfssljson \'install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)\'',
      'need openssl \'install openssl\'',
      ...KUBECTL_CHECK,
      '[ "${#root_kubectl[@]}" -gt 0 ] || fail \'ROOT_KUBECTL is blank; set it to the kubectl command of the Kubernetes cluster that keeps the root\'',
      'need "${root_kubectl[0]}" \'install kubectl, or set ROOT_KUBECTL to the command to use\'',
    ],
    NAMESPACE_BLOCK,
    SECRET_EXISTS_FUNCTION,
    GET_KEY_FUNCTION,
    SCRATCH_BLOCK,
    [
      `# The root, from the ca.crt of its Secret ${inRoot}, once its Issuer is ready there.`,
      `if ! ready="$("\${root_kubectl[@]}" get issuer ${sh(issuer)} --namespace="$NAMESPACE" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>&1)"; then`,
      `  fail "kubectl (ROOT_KUBECTL) could not read Issuer $NAMESPACE/${issuer} ${inRoot}: $ready; apply that cluster's output first, and point ROOT_KUBECTL at it"`,
      'fi',
      `[ "$ready" = True ] || fail "Issuer $NAMESPACE/${issuer} ${inRoot} is not ready; wait until cert-manager has issued the root there: kubectl wait --for=condition=Ready certificate/${names.rootCaName(clusterName)} -n $NAMESPACE"`,
      `value="$("\${root_kubectl[@]}" get secret ${sh(names.rootCaSecretName(clusterName))} --namespace="$NAMESPACE" -o 'jsonpath={.data.ca\\.crt}')" \\`,
      `  || fail "kubectl (ROOT_KUBECTL) could not read the ca.crt of Secret $NAMESPACE/${names.rootCaSecretName(clusterName)} ${inRoot}"`,
      'printf %s "$value" | base64 -d >"$work/root.pem"',
      `fingerprint "$work/root.pem" >/dev/null || fail "the ca.crt of Secret $NAMESPACE/${names.rootCaSecretName(clusterName)} ${inRoot} is not a certificate"`,
      `openssl x509 -checkend ${Math.ceil(parseDuration(settings.caDuration)! / 1000)} -noout -in "$work/root.pem" >/dev/null \\`,
      `  || fail "the root CA ${inRoot} expires within ${settings.caDuration}, before an intermediate it signs now would; replace the root first"`,
    ],
    keptBlock(secret, '"$work/root.pem"', `the root ${inRoot}`),
    [
      '# The key and the request, then the CertificateRequest, named after the request, deleted on exit.',
      `cfssl genkey -loglevel=3 ${INTERMEDIATE_CSR} | cfssljson -bare "$work/intermediate"`,
      `request="${names.intermediateRequestPrefix(clusterName, span.current.name)}$(openssl dgst -sha256 -r "$work/intermediate.csr" | cut -c1-10)"`,
      'trap \'"${root_kubectl[@]}" delete certificaterequest "$request" --namespace="$NAMESPACE" --ignore-not-found >/dev/null 2>&1 || true; rm -rf -- "$work"\' EXIT',
      '"${root_kubectl[@]}" create -f - >/dev/null <<EOF',
      'apiVersion: cert-manager.io/v1',
      'kind: CertificateRequest',
      'metadata:',
      '  name: $request',
      '  namespace: $NAMESPACE',
      '  labels:',
      `    ${names.ROOT_CA_LABEL}: ${clusterName}`,
      'spec:',
      '  request: $(openssl base64 -A -in "$work/intermediate.csr")',
      '  isCA: true',
      `  duration: ${hours(settings.caDuration)}`,
      '  usages: [cert sign, crl sign]',
      '  issuerRef:',
      `    name: ${issuer}`,
      '    kind: Issuer',
      '    group: cert-manager.io',
      'EOF',
    ],
    [
      '# Signed once Ready; a denied or failed request stops the script with what cert-manager said.',
      'deadline=$((SECONDS + TIMEOUT))',
      'while :; do',
      '  state="$("${root_kubectl[@]}" get certificaterequest "$request" --namespace="$NAMESPACE" \\',
      '    -o \'jsonpath={.status.conditions[?(@.type=="Ready")].status}/{.status.conditions[?(@.type=="Ready")].reason}/{.status.conditions[?(@.type=="Denied")].status}\')" \\',
      `    || fail "kubectl (ROOT_KUBECTL) could not read CertificateRequest $NAMESPACE/$request ${inRoot}"`,
      '  IFS=/ read -r ready reason denied <<<"$state"',
      '  [ "$ready" != True ] || break',
      '  if [ "$denied" = True ] || [ "$reason" = Failed ] || [ "$reason" = InvalidRequest ] || [ "$reason" = Denied ]; then',
      '    message="$("${root_kubectl[@]}" get certificaterequest "$request" --namespace="$NAMESPACE" -o \'jsonpath={.status.conditions[*].message}\' 2>&1 || true)"',
      `    fail "cert-manager ${inRoot} did not sign CertificateRequest $NAMESPACE/$request (\${reason:-denied}): $message"`,
      '  fi',
      `  [ "$SECONDS" -lt "$deadline" ] || fail "cert-manager ${inRoot} has not signed CertificateRequest $NAMESPACE/$request within \${TIMEOUT}s (reason: \${reason:-none}); is cert-manager running there, and its approver?"`,
      '  sleep "$POLL"',
      'done',
      'value="$("${root_kubectl[@]}" get certificaterequest "$request" --namespace="$NAMESPACE" -o \'jsonpath={.status.certificate}\')"',
      'printf %s "$value" | base64 -d >"$work/signed.pem"',
      '# The first certificate is the intermediate: a CA, of this key, and verified by the root read above.',
      `openssl x509 -in "$work/signed.pem" -out "$work/intermediate.pem" 2>/dev/null || fail "CertificateRequest $NAMESPACE/$request ${inRoot} holds no certificate"`,
      'openssl x509 -noout -ext basicConstraints -in "$work/intermediate.pem" 2>/dev/null | grep -q \'CA:TRUE\' \\',
      `  || fail "cert-manager ${inRoot} signed CertificateRequest $NAMESPACE/$request as no CA, from which this cluster's cert-manager could issue nothing; check the policies that may change its isCA"`,
      '[ "$(openssl x509 -noout -pubkey -in "$work/intermediate.pem" | openssl sha256)" = "$(openssl pkey -pubout -in "$work/intermediate-key.pem" | openssl sha256)" ] \\',
      `  || fail "the certificate of CertificateRequest $NAMESPACE/$request ${inRoot} is not of the key made for it"`,
      'openssl verify -CAfile "$work/root.pem" "$work/intermediate.pem" >/dev/null 2>&1 \\',
      `  || fail "the certificate of CertificateRequest $NAMESPACE/$request does not verify against the root in Secret ${names.rootCaSecretName(clusterName)} ${inRoot}"`,
      ...writeSecretBlock(secret, '"$work/root.pem"', `the root ${inRoot}`),
    ],
  ];
  return joinBlocks(blocks);
}

/** The help option, the usage line of a script without options past `--renew`, and nothing else. */
const HELP_CASE = `  -h|--help) sed -n '2,/^set -euo/{/^#/s/^# \\{0,1\\}//p;}' "$0"; exit 0 ;;`;

/**
 * The namespace, read before anything is made: a run that stops for it leaves nothing to undo;
 * without the right to read namespaces, the Secret's creation says whether it exists.
 */
const NAMESPACE_BLOCK: Block = [
  '# The namespace, before anything is made: a run that stops for it leaves nothing to undo. Without the',
  '# right to read namespaces, the Secret\'s creation below says whether it exists.',
  'if ! out="$("${kubectl[@]}" get namespace "$NAMESPACE" -o name 2>&1)"; then',
  '  case "$out" in',
  '    *Forbidden*|*forbidden*) ;;',
  '    *NotFound*|*"not found"*) fail "namespace $NAMESPACE does not exist in this Kubernetes cluster; create it first: kubectl create namespace $NAMESPACE" ;;',
  '    *) fail "kubectl could not read namespace $NAMESPACE: $out" ;;',
  '  esac',
  'fi',
];

/** The private scratch folder the intermediate's key is made in, removed on exit, and `fingerprint FILE`. */
const SCRATCH_BLOCK: Block = [
  'work="$(mktemp -d)"',
  'trap \'rm -rf -- "$work"\' EXIT',
  '# fingerprint FILE: the SHA-256 fingerprint of the first certificate in FILE.',
  'fingerprint() {',
  '  openssl x509 -noout -fingerprint -sha256 -in "$1"',
  '}',
];

/**
 * Makes the root with `--new-root` (never over a root file), or checks that the folder holds it;
 * never below a synth output, which is checked before anything is made.
 */
function rootBlock(settings: CertificateSettings): Block {
  return [
    '# The root: made once, with --new-root, in a folder of its own; never below a synth output, which',
    '# the next synth replaces whole. The nearest folder that exists is checked before anything is made.',
    'dir="$root"',
    'while [ ! -d "$dir" ]; do',
    '  [ ! -e "$dir" ] || fail "$root is not a folder; give the folder that keeps the span\'s root CA"',
    '  dir="$(dirname "$dir")"',
    'done',
    'dir="$(cd -- "$dir" && pwd -P)"',
    'while :; do',
    `  [ ! -e "$dir/${layout.OUTPUT_MARKER_FILE}" ] || fail "$root is inside the synth output $dir, which the next synth replaces whole; keep the root in a folder of its own"`,
    '  [ "$dir" != / ] || break',
    '  dir="$(dirname "$dir")"',
    'done',
    '# --new-root over a root file is refused below, unless this run was done: the Secret exists, signed by it.',
    'root_existed=false',
    `if $new_root && { [ -e "$root/${ROOT_BARE}-key.pem" ] || [ -e "$root/${ROOT_BARE}.pem" ]; }; then`,
    '  root_existed=true',
    'elif $new_root; then',
    '  mkdir -p -- "$root"',
    `  cfssl gencert -loglevel=3 -initca ${ROOT_CSR} | cfssljson -bare "$root/${ROOT_BARE}"`,
    `  rm -f -- "$root/${ROOT_BARE}.csr"`,
    `  echo "made the root CA in $root: keep ${ROOT_BARE}-key.pem there, off every cluster"`,
    'fi',
    `for file in ${ROOT_BARE}.pem ${ROOT_BARE}-key.pem; do`,
    `  [ -s "$root/$file" ] || fail "$root holds no root CA ($file is missing or empty); give the folder the first Kubernetes cluster's run made it in, or add --new-root to make it there for the first Kubernetes cluster"`,
    'done',
    `openssl x509 -checkend ${Math.ceil(parseDuration(settings.caDuration)! / 1000)} -noout -in "$root/${ROOT_BARE}.pem" >/dev/null \\`,
    `  || fail "the root CA in $root expires within ${settings.caDuration}, before an intermediate it signs now would; replace the root first"`,
  ];
}

/**
 * Keeps a Secret that exists when its ca.crt is this root (in `rootFile`, a shell word; `where`
 * names it in messages), or goes on to replace it with `--renew`; stops when another root signed
 * it, and with `--renew` when there is none.
 */
function keptBlock(secret: string, rootFile: string, where: string): Block {
  return [
    `if secret_exists ${sh(secret)}; then`,
    `  get_key ${sh(secret)} ${SECRET_KEYS.ca} "$work/kept-ca.crt"`,
    `  kept="$(fingerprint "$work/kept-ca.crt")" || fail "the ca.crt of Secret $NAMESPACE/${secret} is not a certificate; delete the Secret or write it whole from the root"`,
    `  [ "$kept" = "$(fingerprint ${rootFile})" ] \\`,
    `    || fail "Secret $NAMESPACE/${secret} exists with another root in its ca.crt than ${where}: the clusters would not trust each other; give the root that signed it"`,
    '  if ! $renew; then',
    `    echo "Secret $NAMESPACE/${secret} exists, signed by ${where}: kept"`,
    '    exit 0',
    '  fi',
    'elif $renew; then',
    `  fail "Secret $NAMESPACE/${secret} does not exist, so there is no intermediate to renew; run without --renew to issue it"`,
    'fi',
  ];
}

/**
 * Writes the intermediate's Secret from the scratch folder's `intermediate.pem` and
 * `intermediate-key.pem` and the root in `rootFile`: created with `kubectl create`, which refuses
 * one that exists, or with `--renew` its three keys replaced by a server-side apply (no copy of the
 * key in an annotation).
 */
function writeSecretBlock(secret: string, rootFile: string, where: string): Block {
  const files = `--from-file=${SECRET_KEYS.certificate}="$work/intermediate.pem" --from-file=${SECRET_KEYS.privateKey}="$work/intermediate-key.pem" --from-file=${SECRET_KEYS.ca}=${rootFile}`;
  return [
    'if $renew; then',
    `  "\${kubectl[@]}" create secret generic ${sh(secret)} --namespace="$NAMESPACE" --type=kubernetes.io/tls ${files} --dry-run=client -o json \\`,
    `    | "\${kubectl[@]}" apply --server-side --field-manager=${FIELD_MANAGER} --force-conflicts -f - >/dev/null`,
    `  echo "renewed Secret $NAMESPACE/${secret}: a new intermediate CA, signed by ${where}; certificates issued before keep the previous one, which the root still verifies, until cert-manager renews them"`,
    'else',
    `  if ! out="$("\${kubectl[@]}" create secret generic ${sh(secret)} --namespace="$NAMESPACE" --type=kubernetes.io/tls ${files} 2>&1)"; then`,
    '    case "$out" in',
    '      *"namespaces \\"$NAMESPACE\\" not found"*) fail "namespace $NAMESPACE does not exist in this Kubernetes cluster; create it first: kubectl create namespace $NAMESPACE" ;;',
    '    esac',
    `    fail "kubectl could not create Secret $NAMESPACE/${secret}: $out"`,
    '  fi',
    `  echo "created Secret $NAMESPACE/${secret}: the intermediate CA of this Kubernetes cluster, signed by ${where}"`,
    'fi',
  ];
}
