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
 * Pure functions and the declarations of the files; the offline script runs where the user keeps
 * the root, the other (kept-root-script.ts) wherever kubectl reaches both clusters.
 */
import { Construct } from 'constructs';
import { Issuer } from '../../imports/issuers-cert-manager.io';
import { certManagerObject } from './cert-manager-object';
import { ClusterKind } from '../model/catalog';
import type { CertificateSettings } from '../plan/certificate-options';
import { KeyAlgorithm } from '../plan/certificate-options';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import type { ResolvedKubernetesCluster, ResolvedSpan } from '../model/span';
import type { RunbookStep } from '../documents/runbook';
import { OutputFile } from '../app/output-file';
import { cfsslKey, json } from './cfssl';
import { Block, GET_KEY_FUNCTION, NEED_FUNCTION, SECRET_EXISTS_FUNCTION, failFunction, joinBlocks, kubectlVariables } from '../scripts/script-blocks';
import {
  HELP_CASE, INTERMEDIATE_CSR, INTERMEDIATE_SCRIPT, NAMESPACE_BLOCK, SCRATCH_BLOCK, TOOLS_BLOCK, hours, keptBlock, rootExpiryBlock, writeSecretBlock,
} from '../scripts/intermediate-blocks';
import { keptRootScript } from '../scripts/kept-root-script';
import { DistinguishedName, caSubject } from '../plan/subjects';
import { IssuingMethod } from '../plan/certificate-options';
import { RotationKind, newestCaObject, signingCaObject } from '../plan/rotation';
import type { IConstruct } from 'constructs';

/** The request of the span's root CA, made offline. */
const ROOT_CSR = 'root-ca-csr.json';
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
      inputError(scope, field, value, `no ${field} with span: the script signs each intermediate for caDuration, and cert-manager renews none of them`);
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
  return (kind: ClusterKind) => certManagerObject(Issuer, scope, `Issuer-${kind}`, {
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
  const rotated = generation === names.INITIAL_GENERATION ? '' : ` of rotation ${generation}`;
  const title = `Issue the intermediate CA${rotated} of Kubernetes cluster ${span.current.name}`;
  if (span.root !== undefined) {
    return { title, ...keptRootStep(settings, span, span.root, secret, manifest) };
  }
  const first = span.current.name === span.first.name;
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
function keptRootStep(settings: CertificateSettings, span: ResolvedSpan, root: ResolvedKubernetesCluster, secret: string, manifest: string): Omit<RunbookStep, 'title'> {
  const { clusterName, namespace } = settings;
  const where = root.namespace === namespace ? '' : ` (namespace \`${root.namespace}\`)`;
  const signs = `The script makes this cluster's intermediate key and request, has the root's Issuer \`${names.rootIssuerName(clusterName)}\` sign it through a CertificateRequest in \`${root.name}\`${where}, `
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
    TOOLS_BLOCK,
    NAMESPACE_BLOCK,
    rootBlock(settings),
    SECRET_EXISTS_FUNCTION,
    GET_KEY_FUNCTION,
    SCRATCH_BLOCK,
    [
      ...keptBlock(secret, `"$root/${ROOT_BARE}.pem"`, 'the root in $root', 'give the root that signed it'),
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
    ...rootExpiryBlock(`"$root/${ROOT_BARE}.pem"`, settings.caDuration, 'in $root', 'replace the root first'),
  ];
}
