/**
 * The certificate-manager issuing method (specification, section B): renders a certificate plan
 * as cert-manager Issuer and Certificate objects.
 */
import { Chart } from 'cdk8s';
import { certManagerObject } from './cert-manager-object';
import { Construct } from 'constructs';
import {
  Certificate, CertificateSpecPrivateKey, CertificateSpecPrivateKeyAlgorithm, CertificateSpecPrivateKeyRotationPolicy,
  CertificateSpecSubject, CertificateSpecUsages,
} from '../../imports/certificates-cert-manager.io';
import { Issuer } from '../../imports/issuers-cert-manager.io';
import { ClusterKind, clusterKind, component } from '../model/catalog';
import { USAGES } from '../model/catalog-certificates';
import type { CertificateSettings, ResolvedPrivateKey, ServerCertificatePlan, TlsPlanSqlTls } from '../plan/certificate-options';
import { IssuingMethod } from '../plan/certificate-options';
import { parseDuration } from '../model/duration';
import type { CertificateTrust, ManagedCertificate } from '../model/expiry';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import { OutputFile } from '../app/output-file';
import { certManagerRotationScript, sqlManagedDomain } from '../scripts/rotation-script';
import { DistinguishedName, caSubject, leafSubject } from '../plan/subjects';
import type { CertificateRenderer } from './renderer';
import { caObjectsInUse, leafCustody, signingCaObject } from '../plan/rotation';
import { CERT_MANAGER_GROUP } from '../plan/issuer-ref';
import { declareIntermediate, intermediateMissingHint, intermediateStep, rootDuration, rootSubject } from './intermediate';

/** What every client and server Certificate of a cluster shares, resolved once before any object is made. */
interface LeafFields {
  readonly settings: CertificateSettings;
  readonly labels: { readonly [key: string]: string };
  /** The subject and Common Name. */
  readonly name: { subject?: CertificateSpecSubject; commonName?: string };
  readonly privateKey: CertificateSpecPrivateKey;
}

/** What signs the leaves of a cluster kind: the Certificates' `issuerRef`, and the object to apply before them. */
interface Signer {
  readonly issuerRef: { readonly name: string; readonly kind: string; readonly group: string };
  readonly after?: Construct;
}

/**
 * Creates, under `scope`, the self-signed Issuer and the CA Certificate (or, with `issuerRef`,
 * nothing: the user's issuer signs), and returns the functions that add each kind's client
 * Certificate, after its CA-type Issuer, and each server Certificate. `sql` gives the certificates
 * of TLS for MySQL clients, which every rotation's script moves too.
 */
export function renderCertManager(scope: Construct, settings: CertificateSettings, sql: () => TlsPlanSqlTls | undefined = () => undefined): CertificateRenderer {
  const { clusterName, namespace } = settings;
  const privateKey = privateKeySpec(settings.privateKey);
  const leafName = subjectFields(leafSubject(settings, IssuingMethod.CERT_MANAGER));
  const labels = { [names.CERTIFICATES_LABEL]: clusterName };
  const leaf: LeafFields = { settings, labels, name: leafName, privateKey };

  // What the expiry watch reads: every Certificate declared, with its Secret and validity.
  const managed: ManagedCertificate[] = [];
  const manage = (certificate: Certificate, secretName: string, ca: boolean) => {
    managed.push(managedCertificate(settings, { certificate: certificate.name, namespace, secret: secretName, ca, trust: 'cluster' }));
    return certificate;
  };
  const user = settings.issuer;
  const span = settings.span;
  if (span?.root !== undefined && span.root.name === span.current.name) {
    declareKeptRoot(scope, settings, manage);
  }
  const signerOf = user !== undefined ? (): Signer => ({ issuerRef: { ...user } })
    : span !== undefined ? issuerSigner(declareIntermediate(scope, settings, span, labels))
      : declareLibraryCa(scope, settings, labels, manage);
  const signers = new Map<ClusterKind, Signer>();
  const custody = leafCustody(settings.rotation);
  // During a CA replacement the leaves are out of cert-manager's hands (the rotation script writes
  // the Secrets the operator loads), or issued into staging Secrets the script copies from.
  const addLeaf = (id: string, signer: Signer, secretName: string, usages: readonly string[], plan?: ServerCertificatePlan) => {
    if (custody === 'managed') {
      manage(declareLeaf(scope, leaf, id, signer, secretName, usages, plan), secretName, false);
    } else if (custody === 'staged') {
      const staging = names.stagingSecretName(secretName, settings.rotation!.id);
      manage(declareLeaf(scope, leaf, `Staged${id}`, signer, staging, usages, plan), staging, false);
    }
  };

  const secretNames: string[] = [];
  // A CA replacement's phase writes the Secrets with a script; a leaf renewal's script has
  // cert-manager renew the leaves, by name, and waits for it; TLS for MySQL clients rotates with them.
  if (settings.rotation !== undefined) {
    const rotation = settings.rotation;
    new OutputFile(scope, 'RotationScript', {
      path: layout.rotationScriptPath(namespace, clusterName),
      content: { render: () => {
        const sqlTls = sql();
        return certManagerRotationScript({
          rotation, clusterName, namespace, secretNames, sql: sqlTls === undefined ? undefined : sqlManagedDomain(namespace, clusterName, sqlTls),
          span: span === undefined ? undefined : { kubernetesCluster: span.current.name, caMissingHint: intermediateMissingHint(settings, span) },
        });
      } },
      executable: true,
    });
  }

  return {
    addKind(kind) {
      secretNames.push(names.clientSecretName(clusterName, kind));
      const signer = signerOf(kind);
      signers.set(clusterKind(kind).kind, signer);
      addLeaf(`Client-${kind}`, signer, names.clientSecretName(clusterName, kind), USAGES.client);
    },
    addServer(plan) {
      secretNames.push(plan.secretName);
      addLeaf(`Server-${plan.token}`, signers.get(component(plan.token).cluster)!, plan.secretName, USAGES.server, plan);
    },
    issuanceSteps() {
      const selector = names.certificatesSelector(clusterName);
      return [...(span !== undefined ? [intermediateStep(settings, span, layout.manifestFileName(Chart.of(scope)))] : []), {
        title: 'Issue the certificates with cert-manager',
        text: [
          user !== undefined
            ? `cert-manager must run in the cluster, and your ${user.kind} \`${user.name}\` (${user.group}) must be ready to sign for this cluster's host names, `
              + 'with the client and server usages, keeping each certificate\'s Common Name and writing its CA to the Secret\'s `ca.crt`: every certificate names it. '
              + 'Apply the certificates of this cluster first, and wait until cert-manager has written their Secrets:'
            : 'cert-manager must run in the cluster. Apply the issuers and certificates of this cluster first, and wait until cert-manager has written their Secrets:',
        ],
        commands: [
          `kubectl apply -f ${layout.manifestFileName(Chart.of(scope))} -l ${selector}`,
          `kubectl wait --for=condition=Ready certificate -l ${selector} -n ${namespace} --timeout=5m`,
        ],
      }];
    },
    managedCertificates: () => [...managed],
  };
}

/** What the expiry watch reads of a declared Certificate: its names, its Secret and its lifetimes in seconds. */
export function managedCertificate(settings: CertificateSettings,
  c: { readonly certificate: string; readonly namespace: string; readonly secret: string; readonly ca: boolean; readonly trust: CertificateTrust }): ManagedCertificate {
  const seconds = (duration: string) => parseDuration(duration)! / 1000;
  return {
    certificateName: c.certificate, namespace: c.namespace, secretName: c.secret, ca: c.ca, trust: c.trust,
    durationSeconds: seconds(c.ca ? settings.caDuration : settings.duration), renewBeforeSeconds: seconds(c.ca ? settings.caRenewBefore : settings.renewBefore),
  };
}

/**
 * Declares the library's CA: the self-signed Issuer and the CA Certificate of each generation in
 * use; returns the function that declares a cluster kind's CA-type Issuer, on the signing CA.
 */
function declareLibraryCa(scope: Construct, settings: CertificateSettings, labels: LeafFields['labels'],
  manage: (certificate: Certificate, secretName: string, ca: boolean) => Certificate): (kind: ClusterKind) => Signer {
  const { clusterName, namespace } = settings;
  const selfSigned = certManagerObject(Issuer, scope, 'SelfSignedIssuer', {
    metadata: { name: names.selfSignedIssuerName(clusterName), namespace, labels },
    spec: { selfSigned: {} },
  });
  const signing = signingCaObject(settings.rotation);
  const cas = new Map(caObjectsInUse(settings.rotation)
    .map((g) => [g, manage(declareCa(scope, settings, labels, selfSigned, g), names.caSecretName(clusterName, g), true)]));
  return issuerSigner((kind) => {
    const issuer = certManagerObject(Issuer, scope, `Issuer-${kind}`, {
      metadata: { name: names.caIssuerName(clusterName, kind), namespace, labels },
      spec: { ca: { secretName: names.caSecretName(clusterName, signing) } },
    });
    issuer.node.addDependency(cas.get(signing)!);
    return issuer;
  });
}

/**
 * Declares the span's root where this Kubernetes cluster's cert-manager keeps it
 * (`span.rootCluster`): a self-signed Certificate valid twice `caDuration` whose key cert-manager
 * never rotates, and the CA Issuer on its Secret, which signs the intermediates' CertificateRequests.
 * They carry the root's label and not the leaves', so that they are applied before any intermediate
 * is signed and no command on the leaves' label touches them.
 */
function declareKeptRoot(scope: Construct, settings: CertificateSettings,
  manage: (certificate: Certificate, secretName: string, ca: boolean) => Certificate): void {
  const { clusterName, namespace } = settings;
  // The root's label alone: `cmctl renew -l <certificates label>` renews the leaves, not the root.
  const rootLabels = { [names.ROOT_CA_LABEL]: clusterName };
  const selfSigned = certManagerObject(Issuer, scope, 'RootSelfSignedIssuer', {
    metadata: { name: names.selfSignedIssuerName(clusterName), namespace, labels: rootLabels },
    spec: { selfSigned: {} },
  });
  const secretName = names.rootCaSecretName(clusterName);
  const root = manage(declareCaCertificate(scope, settings, selfSigned, names.INITIAL_GENERATION, {
    id: 'RootCa',
    metadata: { name: names.rootCaName(clusterName), namespace, labels: rootLabels },
    secretName,
    subject: subjectFields(rootSubject(settings)),
    duration: rootDuration(settings),
  }), secretName, true);
  certManagerObject(Issuer, scope, 'RootIssuer', {
    metadata: { name: names.rootIssuerName(clusterName), namespace, labels: rootLabels },
    spec: { ca: { secretName } },
  }).node.addDependency(root);
}

/** The signer of a cluster kind's CA Issuer, which its Certificates are applied after. */
function issuerSigner(declare: (kind: ClusterKind) => Issuer): (kind: ClusterKind) => Signer {
  return (kind) => {
    const issuer = declare(kind);
    return { issuerRef: { name: issuer.name, kind: Issuer.GVK.kind, group: CERT_MANAGER_GROUP }, after: issuer };
  };
}

/** Declares the CA Certificate of a generation, issued by the self-signed Issuer. */
function declareCa(scope: Construct, settings: CertificateSettings, labels: LeafFields['labels'], selfSigned: Issuer, generation: string): Certificate {
  const { clusterName, namespace } = settings;
  return declareCaCertificate(scope, settings, selfSigned, generation, {
    metadata: { name: names.caCertificateName(clusterName, generation), namespace, labels },
    secretName: names.caSecretName(clusterName, generation),
    subject: subjectFields(caSubject(settings, IssuingMethod.CERT_MANAGER)),
  });
}

/**
 * Declares a CA Certificate of a generation (id `Ca`, or `Ca-<generation>`), with the settings'
 * CA lifetimes and key, issued by a self-signed Issuer: the cluster's CA, or the SQL CA.
 * `ca.issuerGroup` says whether `issuerRef` names the group (the SQL CA's does; the cluster's never has).
 */
export function declareCaCertificate(scope: Construct, settings: CertificateSettings, selfSigned: Issuer, generation: string, ca: {
  readonly metadata: { readonly name: string; readonly namespace: string; readonly labels: LeafFields['labels'] };
  readonly secretName: string;
  readonly subject: { subject?: CertificateSpecSubject; commonName?: string };
  readonly issuerGroup?: boolean;
  /** The construct id, by default `Ca` or `Ca-<generation>`. */
  readonly id?: string;
  /** The validity, by default `caDuration`. */
  readonly duration?: string;
}): Certificate {
  const certificate = certManagerObject(Certificate, scope, ca.id ?? (generation === names.INITIAL_GENERATION ? 'Ca' : `Ca-${generation}`), {
    metadata: { ...ca.metadata, labels: { ...ca.metadata.labels } },
    spec: {
      secretName: ca.secretName,
      ...ca.subject,
      isCa: true,
      duration: ca.duration ?? settings.caDuration,
      renewBefore: settings.caRenewBefore,
      privateKey: privateKeySpec(settings.caPrivateKey),
      issuerRef: { name: selfSigned.name, kind: Issuer.GVK.kind, ...(ca.issuerGroup ? { group: CERT_MANAGER_GROUP } : {}) },
    },
  });
  certificate.node.addDependency(selfSigned);
  return certificate;
}

/** Declares a client or server Certificate (a server one with its plan's host names and addresses), after its Issuer. */
function declareLeaf(
  scope: Construct, leaf: LeafFields, id: string, signer: Signer, secretName: string, usages: readonly string[], plan?: ServerCertificatePlan,
): Certificate {
  const { settings, labels } = leaf;
  const cert = certManagerObject(Certificate, scope, id, {
    metadata: { name: secretName, namespace: settings.namespace, labels },
    spec: {
      secretName,
      duration: settings.duration,
      renewBefore: settings.renewBefore,
      ...leaf.name,
      usages: usages.map(toUsage),
      dnsNames: plan ? [...plan.dnsNames] : undefined,
      ipAddresses: plan ? [...plan.ipAddresses] : undefined,
      privateKey: leaf.privateKey,
      issuerRef: { ...signer.issuerRef },
    },
  });
  if (signer.after !== undefined) {
    cert.node.addDependency(signer.after);
  }
  return cert;
}

/** A key usage as cert-manager's enum value. */
export function toUsage(usage: string): CertificateSpecUsages {
  const found = Object.values(CertificateSpecUsages).find((u) => u === usage);
  if (!found) {
    throw new Error(`cert-manager has no key usage "${usage}"`);
  }
  return found;
}

/** A distinguished name as a Certificate's `subject` (left out when empty) and `commonName`. */
function subjectFields(name: DistinguishedName): { subject?: CertificateSpecSubject; commonName?: string } {
  const list = (type: string) => {
    const values = name.filter((a) => a.type === type).map((a) => a.value);
    return values.length > 0 ? values : undefined;
  };
  const subject: CertificateSpecSubject = {
    organizations: list('O'), organizationalUnits: list('OU'), countries: list('C'), provinces: list('ST'), localities: list('L'),
  };
  const set = Object.values(subject).some((v) => v !== undefined);
  return { ...(set ? { subject } : {}), commonName: name.find((a) => a.type === 'CN')?.value };
}

/** A resolved private key as a Certificate's `privateKey`. */
export function privateKeySpec(key: ResolvedPrivateKey): CertificateSpecPrivateKey {
  return {
    algorithm: key.algorithm as string as CertificateSpecPrivateKeyAlgorithm,
    size: key.size,
    rotationPolicy: key.rotationPolicy as string as CertificateSpecPrivateKeyRotationPolicy,
  };
}
