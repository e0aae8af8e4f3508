/**
 * Leaves issued by an issuer the user runs (`issuerRef` of `ClusterCertificates`): an
 * organisation's `ClusterIssuer` backed by Vault or an enterprise CA, say. The library then owns
 * no CA: it declares the server and client Certificates alone, each naming that issuer.
 */
import { Construct } from 'constructs';
import { IssuingMethod, ResolvedIssuerReference } from './certificate-options';
import { inputError } from '../model/errors';
import { objectOf } from '../model/props';
import { requireDnsName, requireDnsSubdomain } from '../model/validate';

/** The group of cert-manager's issuers, as `issuerRef.group` names it. */
export const CERT_MANAGER_GROUP = 'cert-manager.io';

/** The kind of a cert-manager issuer. */
export enum IssuerKind {
  /** A `ClusterIssuer`, which signs in every namespace. */
  CLUSTER_ISSUER = 'ClusterIssuer',
  /** An `Issuer`, which signs in its own namespace: the cluster's. */
  ISSUER = 'Issuer',
}

/**
 * An issuer of cert-manager's that you run, named as a Certificate's `issuerRef` names it. It must
 * sign for the cluster's internal host names (`*.svc`), with the client and server usages, and
 * write the CA that signed each certificate to the Secret's `ca.crt`, as cert-manager's CA and Vault
 * issuers do: the components trust their peers through `ca.crt`. An ACME issuer does none of this.
 * A component accepts any peer that chains to that CA and carries the cluster's Common Name, so an
 * issuer that anyone may request certificates from in any namespace widens who can pose as a peer:
 * an issuer for this cluster alone (an `Issuer` of its namespace) keeps it as narrow as the
 * library's own CA.
 */
export interface IssuerReference {
  /** The issuer's name. */
  readonly name: string;
  /**
   * The issuer's kind: {@link IssuerKind.CLUSTER_ISSUER} or {@link IssuerKind.ISSUER} (which must be in
   * the cluster's namespace) in cert-manager's group, or an external issuer's own kind in its group,
   * such as `AWSPCAClusterIssuer`.
   * @default IssuerKind.CLUSTER_ISSUER
   */
  readonly kind?: string;
  /**
   * The issuer's API group, for an external issuer (such as `awspca.cert-manager.io`); its kind is
   * then the external issuer's own.
   * @default 'cert-manager.io'
   */
  readonly group?: string;
}

/** The shape of the `issuerRef` prop. */
export const ISSUER_REF_SHAPE = objectOf({ name: { type: 'string', example: 'org-ca' }, kind: 'string?', group: 'string?' }, true, 'an object with name, and kind and group, each optional');

/** The props that say something of the library's own CA, which an issuer of the user's replaces. */
const CA_PROPS = ['caDuration', 'caRenewBefore', 'caKeyRotationPolicy', 'rotations'] as const;

/**
 * Resolves the `issuerRef` prop: cert-manager only, a valid name, kind and group, and none of the
 * props of the library's own CA (the issuer's CA is the user's, and so are its lifetime and its
 * rotation).
 */
export function resolveIssuerRef(scope: Construct, props: {
  readonly issuerRef?: IssuerReference;
  readonly method?: IssuingMethod;
} & { readonly [prop in typeof CA_PROPS[number]]?: unknown }): ResolvedIssuerReference | undefined {
  const ref = props.issuerRef;
  if (ref === undefined) {
    return undefined;
  }
  const method = props.method ?? IssuingMethod.CERT_MANAGER;
  if (method !== IssuingMethod.CERT_MANAGER) {
    inputError(scope, 'issuerRef', ref, `no issuerRef with method "${method}": issuerRef names an issuer of cert-manager's, which goes with method "${IssuingMethod.CERT_MANAGER}"`);
  }
  requireDnsSubdomain(scope, 'issuerRef.name', ref.name);
  const group = ref.group ?? CERT_MANAGER_GROUP;
  requireDnsName(scope, 'issuerRef.group', group);
  const kind: string = ref.kind ?? IssuerKind.CLUSTER_ISSUER;
  if (group === CERT_MANAGER_GROUP && !Object.values<string>(IssuerKind).includes(kind)) {
    inputError(scope, 'issuerRef.kind', kind, `${Object.values(IssuerKind).map((k) => `"${k}"`).join(' or ')}, the kinds of cert-manager's issuers`);
  }
  if (!/^[A-Z][A-Za-z0-9]*$/.test(kind)) {
    inputError(scope, 'issuerRef.kind', kind, 'a Kubernetes kind, such as "AWSPCAClusterIssuer": a capital letter, then letters and digits');
  }
  for (const prop of CA_PROPS) {
    if (props[prop] !== undefined) {
      inputError(scope, prop, props[prop], `no ${prop} with issuerRef: the issuer's CA is yours, and so are its lifetime, its key and its rotation `
        + '(cert-manager renews each certificate from the issuer before it expires)');
    }
  }
  return { name: ref.name, kind, group };
}
