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
 * Pure functions and the declarations of the files; the offline script (`scripts/intermediate-script.ts`)
 * runs where the user keeps the root, the other (`scripts/kept-root-script.ts`) wherever kubectl
 * reaches both clusters.
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
import { INTERMEDIATE_CONFIG, INTERMEDIATE_CSR, INTERMEDIATE_PROFILE, INTERMEDIATE_SCRIPT, ROOT_CSR, hours } from '../scripts/intermediate-blocks';
import { keptRootScript } from '../scripts/kept-root-script';
import { intermediateScript } from '../scripts/intermediate-script';
import { DistinguishedName, caSubject } from '../plan/subjects';
import { IssuingMethod } from '../plan/certificate-options';
import { RotationKind, newestCaObject, signingCaObject } from '../plan/rotation';
import type { IConstruct } from 'constructs';

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
