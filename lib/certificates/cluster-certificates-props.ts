/**
 * The props of `ClusterCertificates`, and their shape, which its constructor checks; the `subject`
 * prop's shape, which the cluster constructs share.
 */
import { ComponentToken } from '../model/catalog';
import { DurationValue, durationSpec } from '../model/duration';
import { KubernetesSpan, SPAN_SHAPE } from '../model/span';
import { PropShape, ShapeOf, declareShape, listOf, objectOf, oneOf } from '../model/props';
import {
  CertificateSubject, ExtraNames, IssuingMethod, KeyAlgorithm, KeyRotationPolicy, PrivateKeyOptions, ProvidedSecretNames,
} from '../plan/certificate-options';
import { ISSUER_REF_SHAPE, IssuerReference } from '../plan/issuer-ref';
import { CertificateRotation, ROTATION_SHAPE } from '../plan/rotation';

/** Props of {@link ClusterCertificates}. */
export interface ClusterCertificatesProps {
  /** The name of the cluster (both the `DatabaseCluster` and the `MigrationCluster` of that name). */
  readonly clusterName: string;
  /**
   * The namespace the cluster runs in.
   * @default - the namespace of the enclosing chart
   */
  readonly namespace?: string;
  /**
   * The Common Name shared by every certificate; the components' allowed Common Name lists hold it.
   * @default - the cluster name
   */
  readonly commonName?: string;
  /**
   * The subject fields of the certificates. With cert-manager they go on the server and client
   * certificates, whose subject is these fields and the Common Name, while the CA's subject is its
   * Common Name alone; with cfssl they go on the CA (`names` of `ca-csr.json`), while the server and
   * client certificates carry the Common Name alone. Either way no certificate carries the subject
   * of the CA that signs it, which OpenSSL would reject as self-signed.
   * @default - organization set to the cluster name
   */
  readonly subject?: CertificateSubject;
  /**
   * Server components to issue certificates for. Cluster constructs add the components they run
   * with {@link ClusterCertificates.addComponent}.
   * @default - none
   */
  readonly components?: ComponentToken[];
  /**
   * Extra DNS names and IP addresses per component, applied whenever the component is added.
   * @default - none
   */
  readonly extraNames?: { readonly [token: string]: ExtraNames };
  /**
   * A cluster DNS domain such as `cluster.local`. When set, every `.svc` host name is also issued
   * in its fully qualified form (`….svc.<domain>`), and the `DatabaseCluster` of these certificates
   * carries the same `spec.clusterDomain`, so that the names the operator gives its components are
   * the names on their certificates. The operator's `MigrationCluster` has no such field (release
   * 1.6): its members keep dialing the `.svc` names.
   * @default - only the names of the specification's table
   */
  readonly clusterDomain?: string;
  /**
   * Private key algorithm, size and rotation of the server and client certificates, and algorithm
   * and size of the CA's key with cert-manager. With cfssl the CA key is always RSA 2048, the
   * specification's limit.
   * @default - RSA 2048, rotated at every renewal
   */
  readonly privateKey?: PrivateKeyOptions;
  /**
   * Whether cert-manager makes a new CA key when it renews the CA (720h before it expires, by
   * default). Only `Never` is accepted: with a new key, the certificates issued before the renewal
   * no longer chain to the `ca.crt` of certificates issued after it (cert-manager writes only the
   * signing CA into `ca.crt` and does not re-issue the others), and components that restart in
   * between reject their peers. With the same key and subject, old and new certificates verify
   * against either CA certificate. A new CA key is a declared rotation of kind `ca-replacement`.
   * @default KeyRotationPolicy.NEVER
   */
  readonly caKeyRotationPolicy?: KeyRotationPolicy;
  /**
   * How the certificates are issued.
   * @default IssuingMethod.CERT_MANAGER
   */
  readonly method?: IssuingMethod;
  /**
   * With {@link IssuingMethod.USER_PROVIDED}: the names of the Secrets you created, checked
   * against the names the operator loads.
   * @default - no names stated; `required-secrets.md` lists the names to use
   */
  readonly secretNames?: ProvidedSecretNames;
  /**
   * CA validity.
   * @default '87600h'
   */
  readonly caDuration?: DurationValue;
  /**
   * How long before the CA expires it is renewed (cert-manager method).
   * @default '720h'
   */
  readonly caRenewBefore?: DurationValue;
  /**
   * Server and client certificate validity; must be shorter than the CA's.
   * @default '8760h'
   */
  readonly duration?: DurationValue;
  /**
   * How long before a server or client certificate expires it is renewed (cert-manager method).
   * @default '360h'
   */
  readonly renewBefore?: DurationValue;
  /**
   * The rotations of the certificates, oldest first: the last one is under way (or the last one
   * done). Each phase of a rotation is one commit of the app: the output then holds what that
   * phase needs (the issuing script's or the rotation script's actions, the objects, the restart
   * annotations of every component and `rotation-runbook.md`). Keep finished rotations declared:
   * they name the certificates in use.
   * @default - none: the certificates made at creation
   */
  readonly rotations?: CertificateRotation[];
  /**
   * An issuer of cert-manager's that you run (a `ClusterIssuer` backed by Vault or by your
   * enterprise CA, say) to sign the server and client certificates instead of a CA of the library's:
   * no CA Certificate and no Issuer is declared, and every Certificate names this issuer. It must
   * sign for the cluster's internal host names with client and server usages, and write its CA to
   * each Secret's `ca.crt`. cert-manager method only; `caDuration`, `caRenewBefore`,
   * `caKeyRotationPolicy` and `rotations` are refused with it, since the CA is yours.
   * @default - a CA of the library's for the cluster, with its self-signed Issuer and one CA Issuer per cluster kind
   */
  readonly issuerRef?: IssuerReference;
  /**
   * One database cluster across several Kubernetes clusters: the Kubernetes clusters it spans, each
   * with its cluster DNS domain, and the one this app's output is for. Synthesize one app per
   * Kubernetes cluster, each naming its own as `current`, into an output folder of its own. Every
   * server certificate then names its fully qualified host names in its own cluster's domain, the
   * names the members of the other clusters reach it by, and trust runs through
   * one root CA that no cluster holds: the output's `issue-intermediate.sh` signs this Kubernetes
   * cluster's intermediate CA with it and creates its Secret, and cert-manager issues every
   * certificate here from that intermediate. The `DatabaseCluster` carries this cluster's domain,
   * `acrossK8s` and, outside the first Kubernetes cluster, the first one's cluster to join, in the
   * first one's namespace (each Kubernetes cluster may give the cluster a namespace of its own). A CA
   * replacement in `rotations` replaces the root, phase by phase in every Kubernetes cluster
   * (synthesize the outputs together with `synthesizeAll`). cert-manager method only;
   * `clusterDomain`, `issuerRef`, `caRenewBefore` and `caKeyRotationPolicy` are refused with it.
   * @default - one Kubernetes cluster, with a CA of its own
   */
  readonly span?: KubernetesSpan;
}

/** The props of a certificate subject. */
const SUBJECT_FIELDS: PropShape = { organization: 'string?', organizationalUnit: 'string?', country: 'string?', state: 'string?', locality: 'string?' };

/**
 * The `subject` prop, for every construct that takes one.
 * @internal
 */
export const SUBJECT_PROP = objectOf(SUBJECT_FIELDS, true,
  `an object with ${Object.keys(SUBJECT_FIELDS).slice(0, -1).join(', ')} and ${Object.keys(SUBJECT_FIELDS).at(-1)}, each optional`);

/**
 * A lifetime prop: a Go duration. Without a default in the shape: `issuerRef` and `span` refuse
 * some of them when given, so that the props must still say whether they were.
 */
const LIFETIME = { ...durationSpec(), rule: 'goDuration' } as const;

/**
 * The shape of {@link ClusterCertificatesProps}, which the constructor checks: the cluster name a
 * DNS label, the namespace one when given, the domain a DNS name, the Common Name one (the cluster
 * name when left out), the lifetimes Go durations, the method cert-manager when left out.
 */
export const CLUSTER_CERTIFICATES_SHAPE = declareShape('ClusterCertificates', {
  clusterName: { type: 'string', rule: 'dnsLabel', example: 'orders' },
  namespace: { type: 'string', optional: true, rule: 'dnsLabel' },
  commonName: { type: 'string', optional: true, rule: 'commonName', default: (props: ClusterCertificatesProps) => props.clusterName },
  subject: SUBJECT_PROP,
  components: 'strings?',
  extraNames: 'object?',
  clusterDomain: { type: 'string', optional: true, rule: 'dnsName' },
  privateKey: objectOf({ algorithm: oneOf(Object.values(KeyAlgorithm)), size: 'number?', rotationPolicy: oneOf(Object.values(KeyRotationPolicy)) }),
  caKeyRotationPolicy: oneOf(Object.values(KeyRotationPolicy)),
  method: { ...oneOf(Object.values(IssuingMethod)), default: IssuingMethod.CERT_MANAGER },
  secretNames: objectOf({ servers: 'object?', clients: 'object?' }),
  caDuration: LIFETIME,
  caRenewBefore: LIFETIME,
  duration: LIFETIME,
  renewBefore: LIFETIME,
  rotations: listOf(ROTATION_SHAPE, true, 'a list of rotations, each { id, kind?, phase? }'),
  issuerRef: ISSUER_REF_SHAPE,
  span: SPAN_SHAPE,
} satisfies ShapeOf<ClusterCertificatesProps>);
