/**
 * An organisation's issuer, as its platform team would run it for `issuerRef`: a CA of the
 * organisation's own subject, its Secret in cert-manager's namespace (where a ClusterIssuer reads
 * it), behind a CA-type ClusterIssuer. The CA is made by a self-signed Issuer of that namespace.
 */

/** The ClusterIssuer's name. */
export const ORG_ISSUER = 'org-ca';
/** The Secret of the organisation's CA, in cert-manager's namespace. */
export const ORG_CA_SECRET = 'org-root-ca';

/** The objects of the organisation's issuer. */
export function organisationIssuer(namespace = 'cert-manager'): any[] {
  return [
    { apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'org-root', namespace }, spec: { selfSigned: {} } },
    {
      apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: ORG_CA_SECRET, namespace },
      spec: {
        secretName: ORG_CA_SECRET, isCA: true, commonName: 'Example Corp Issuing CA', subject: { organizations: ['Example Corp'] },
        duration: '87600h', privateKey: { algorithm: 'RSA', size: 2048 }, issuerRef: { name: 'org-root', kind: 'Issuer', group: 'cert-manager.io' },
      },
    },
    { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: ORG_ISSUER }, spec: { ca: { secretName: ORG_CA_SECRET } } },
  ];
}
