/**
 * How each issuing method renders TLS for MySQL clients (the `SqlTls` construct): cert-manager
 * objects (the SQL CA in cert-manager's namespace, a ClusterIssuer, a Certificate per Secret in its
 * namespace), cfssl request files in the issuing folder's `sql/` (the cluster's issuing script
 * issues them), or nothing beyond the list of Secrets to create.
 */
import { JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { Certificate } from '../../imports/certificates-cert-manager.io';
import { ClusterIssuer } from '../../imports/clusterissuers-cert-manager.io';
import { Issuer } from '../../imports/issuers-cert-manager.io';
import type { ManagedCertificate } from '../model/expiry';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import { OutputFile } from '../app/output-file';
import type { RunbookStep } from '../documents/runbook';
import { CertificateSettings, IssuingMethod, TlsPlanSqlSecret } from '../plan/certificate-options';
import { certManagerObject } from './cert-manager-object';
import { CERT_MANAGER_GROUP } from '../plan/issuer-ref';
import { declareCaCertificate, managedCertificate, privateKeySpec, toUsage } from './cert-manager';
import { cfsslKey, json } from './cfssl';
import { caObjectsInUse, leafCustody, signingCaObject } from '../plan/rotation';
import { sqlBare } from '../scripts/cfssl-files';

/** What each issuing method does for TLS for MySQL clients. */
export interface SqlRenderer {
  /** Called once per Secret, in the order of the plan, with the id of its objects. */
  addSecret(id: string, secret: TlsPlanSqlSecret): void;
  /** The runbook steps that issue them. */
  issuanceSteps(secrets: readonly TlsPlanSqlSecret[]): RunbookStep[];
  /** The Certificates cert-manager issues and renews for them: none but with cert-manager. */
  managedCertificates(): ManagedCertificate[];
}

/** The renderer of a method. */
export function sqlRenderer(scope: Construct, method: IssuingMethod, settings: CertificateSettings, certManagerNamespace: string): SqlRenderer {
  switch (method) {
    case IssuingMethod.CERT_MANAGER:
      return renderSqlCertManager(scope, settings, certManagerNamespace);
    case IssuingMethod.CFSSL:
      return renderSqlCfssl(scope, settings);
    default:
      return { addSecret() {}, issuanceSteps: () => [], managedCertificates: () => [] };
  }
}

/**
 * cert-manager: the SQL CA in cert-manager's namespace (a self-signed Issuer there signs it), a
 * ClusterIssuer of that CA, and each Secret's Certificate in its own namespace, issued through the
 * ClusterIssuer, so that the CA's key stays in cert-manager's namespace. A rotation moves them with
 * the cluster's, as `cert-manager.ts` moves those: a CA object per generation in use, the
 * ClusterIssuer signing with the phase's, and the leaves managed, released to the rotation
 * script, or staged, by phase.
 */
function renderSqlCertManager(scope: Construct, settings: CertificateSettings, certManagerNamespace: string): SqlRenderer {
  const { clusterName, namespace, rotation } = settings;
  const labels = { [names.CERTIFICATES_LABEL]: clusterName };
  const selfSigned = certManagerObject(Issuer, scope, 'SelfSignedIssuer', {
    metadata: { name: names.sqlCaSelfSignedIssuerName(namespace, clusterName), namespace: certManagerNamespace, labels },
    spec: { selfSigned: {} },
  });
  const managed: ManagedCertificate[] = [];
  const cas = new Map(caObjectsInUse(rotation).map((g) => {
    const caName = names.sqlCaName(namespace, clusterName, g);
    const ca = declareCaCertificate(scope, settings, selfSigned, g, {
      metadata: { name: caName, namespace: certManagerNamespace, labels },
      secretName: caName,
      subject: { commonName: names.sqlCaCommonName(clusterName), subject: { organizations: [settings.subject.organization] } },
      issuerGroup: true,
    });
    managed.push(managedCertificate(settings, { certificate: ca.name, namespace: certManagerNamespace, secret: caName, ca: true, trust: 'sql' }));
    return [g, ca] as const;
  }));
  // One ClusterIssuer, of the CA that signs in this phase (as the cluster's Issuers).
  const signing = names.sqlCaName(namespace, clusterName, signingCaObject(rotation));
  const issuer = certManagerObject(ClusterIssuer, scope, 'Issuer', {
    metadata: { name: names.sqlClusterIssuerName(namespace, clusterName), labels },
    spec: { ca: { secretName: signing } },
  }, [certManagerNamespace]);
  // Cluster-wide: the namespace cdk8s gives every object of a chart does not belong on it.
  issuer.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  issuer.node.addDependency(cas.get(signingCaObject(rotation))!);
  const custody = leafCustody(rotation);
  return {
    addSecret(id, secret) {
      // During a CA replacement the rotation script writes the Secrets, or copies them from staging Secrets.
      if (custody === 'released') {
        return;
      }
      const secretName = custody === 'staged' ? names.stagingSecretName(secret.name, rotation!.id) : secret.name;
      const leaf = certManagerObject(Certificate, scope, custody === 'staged' ? `Staged${id}` : id, {
        metadata: { name: secretName, namespace: secret.namespace, labels },
        spec: {
          secretName,
          commonName: secret.commonName,
          duration: settings.duration,
          renewBefore: settings.renewBefore,
          usages: secret.usages.map(toUsage),
          dnsNames: secret.dnsNames,
          ipAddresses: secret.ipAddresses,
          privateKey: privateKeySpec(settings.privateKey),
          issuerRef: { name: issuer.name, kind: ClusterIssuer.GVK.kind, group: CERT_MANAGER_GROUP },
        },
      });
      leaf.node.addDependency(issuer);
      managed.push(managedCertificate(settings, { certificate: leaf.name, namespace: secret.namespace, secret: secretName, ca: false, trust: 'sql' }));
    },
    issuanceSteps(secrets) {
      // The cluster's own step applies these objects (they carry its label) and waits in its namespace.
      const selector = names.certificatesSelector(clusterName);
      // While a CA replacement holds the leaves out of cert-manager's hands, only the SQL CAs have Certificates to wait for.
      const leaves = custody === 'released' ? [] : secrets.map((s) => s.namespace);
      const elsewhere = [...new Set([certManagerNamespace, ...leaves])].filter((n) => n !== namespace);
      return [{
        title: 'Wait for the certificates for MySQL clients',
        text: [
          `The SQL CA and its key live in namespace \`${certManagerNamespace}\`, where cert-manager reads the Secrets of ClusterIssuers; every other certificate for MySQL clients is signed through the ClusterIssuer \`${issuer.name}\`, each in its own namespace, which must exist before the step above applies it. Wait for those outside \`${namespace}\`:`,
        ],
        commands: elsewhere.map((n) => `kubectl wait --for=condition=Ready certificate -l ${selector} -n ${n} --timeout=5m`),
      }];
    },
    managedCertificates: () => [...managed],
  };
}

/**
 * cfssl: the requests of the SQL CA and of each certificate, in the `sql` folder beside the
 * cluster's requests; the issuing script issues them there and writes each Secret in its namespace.
 */
function renderSqlCfssl(scope: Construct, settings: CertificateSettings): SqlRenderer {
  const file = (id: string, name: string, content: unknown) =>
    new OutputFile(scope, id, { path: layout.cfsslSqlPath(settings.namespace, settings.clusterName, name), content: json(content) });
  file('CaCsr', 'ca-csr.json', {
    CN: names.sqlCaCommonName(settings.clusterName), CA: { expiry: settings.caDuration }, key: cfsslKey(settings.caPrivateKey), names: [{ O: settings.subject.organization }],
  });
  return {
    addSecret(id, secret) {
      file(`Csr-${id}`, `${sqlBare(secret)}.json`, {
        CN: secret.commonName,
        hosts: [...(secret.ipAddresses ?? []), ...(secret.dnsNames ?? [])],
        key: cfsslKey(settings.privateKey),
      });
    },
    // The cluster's issuing script issues them: see cfssl-script.ts.
    issuanceSteps: () => [],
    managedCertificates: () => [],
  };
}
