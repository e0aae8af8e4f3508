/**
 * The options and the plan of a cluster's certificates: what `ClusterCertificates` takes and what
 * every issuing method renders.
 */
import { ClusterKind, ComponentToken } from '../model/catalog';
import type { ResolvedRotation, RotationKind, RotationPhase } from './rotation';
import type { TlsPlanEnablement } from '../model/enablement';
import type { ResolvedSpan } from '../model/span';

/** How the certificates of a cluster are issued; the cluster constructs work the same with each. */
export enum IssuingMethod {
  /**
   * cert-manager, installed in the cluster, issues them from the Issuer and Certificate objects
   * the library synthesizes (specification, section B) and keeps renewing them.
   */
  CERT_MANAGER = 'cert-manager',
  /**
   * cfssl on your machine: the library writes the cfssl request files and a script that issues the
   * certificates and creates the Secrets (specification, section A) to
   * `<namespace>/<cluster>/cfssl/`; you run the script once, before the cluster is created.
   */
  CFSSL = 'cfssl',
  /**
   * You create the Secrets by other means (your own PKI, a secrets manager). The library only
   * refers to their names and writes `<namespace>/<cluster>/required-secrets.md`, the list of
   * Secrets with the keys and names each must hold.
   */
  USER_PROVIDED = 'user-provided',
}

/**
 * The names of the Secrets you created, with {@link IssuingMethod.USER_PROVIDED}. The operator
 * loads Secrets by fixed names only; stating yours here turns a misnamed Secret into an error at
 * synth instead of a failed deployment.
 */
export interface ProvidedSecretNames {
  /**
   * Server Secrets, by component token.
   * @default - none stated
   * @property __type.mig-master - The `mig-master` server Secret's name, which must be `${cluster_name}-mig-master-cluster-secret`.
   * @property __type.mig-worker - The `mig-worker` server Secret's name, which must be `${cluster_name}-mig-worker-cluster-secret`.
   * @property __type.coordinator - The `coordinator` server Secret's name, which must be `${cluster_name}-coordinator-cluster-secret`.
   * @property __type.store - The `store` server Secret's name, which must be `${cluster_name}-store-cluster-secret`.
   * @property __type.sqlserver - The `sqlserver` server Secret's name, which must be `${cluster_name}-sqlserver-cluster-secret`.
   * @property __type.pump - The `pump` server Secret's name, which must be `${cluster_name}-pump-cluster-secret`.
   * @property __type.drainer - The `drainer` server Secret's name, which must be `${cluster_name}-drainer-cluster-secret`.
   * @property __type.changefeed - The `changefeed` server Secret's name, which must be `${cluster_name}-changefeed-cluster-secret`.
   * @property __type.columnar - The `columnar` server Secret's name, which must be `${cluster_name}-columnar-cluster-secret`.
   * @property __type.importer - The `importer` server Secret's name, which must be `${cluster_name}-importer-cluster-secret`.
   * @property __type.lightning - The `lightning` server Secret's name, which must be `${cluster_name}-lightning-cluster-secret`.
   */
  readonly servers?: { readonly [token: string]: string };
  /**
   * Shared client Secrets, by cluster kind (`database`, `migration`).
   * @default - none stated
   * @property __type.database - The database cluster's client Secret's name, which must be `${cluster_name}-cluster-client-secret`.
   * @property __type.migration - The migration cluster's client Secret's name, which must be `${cluster_name}-mig-client-secret`.
   */
  readonly clients?: { readonly [kind: string]: string };
}

/** The algorithm of the private keys. */
export enum KeyAlgorithm {
  /** RSA; the specification's CA key is RSA 2048. */
  RSA = 'RSA',
  /** ECDSA on a NIST curve (256, 384 or 521 bits). */
  ECDSA = 'ECDSA',
  /** Ed25519 (cert-manager method only; cfssl cannot make Ed25519 keys). */
  ED25519 = 'Ed25519',
}

/** Whether cert-manager makes a new private key when it renews a certificate. */
export enum KeyRotationPolicy {
  /** A new key at every renewal. */
  ALWAYS = 'Always',
  /** Keep the key across renewals. */
  NEVER = 'Never',
}

/** The private keys of the CA and of every certificate. */
export interface PrivateKeyOptions {
  /**
   * Key algorithm.
   * @default KeyAlgorithm.RSA
   */
  readonly algorithm?: KeyAlgorithm;
  /**
   * Key size in bits: 2048 to 8192 for RSA, 256, 384 or 521 for ECDSA; not used for Ed25519.
   * @default 2048 for RSA, 256 for ECDSA
   */
  readonly size?: number;
  /**
   * Key rotation when cert-manager renews a server or client certificate (the other methods do not
   * renew). The CA's key has its own setting, `caKeyRotationPolicy` of `ClusterCertificates`.
   * @default KeyRotationPolicy.ALWAYS
   */
  readonly rotationPolicy?: KeyRotationPolicy;
}

/** The subject of the CA and of every certificate. */
export interface CertificateSubject {
  /**
   * Organization (`O`; cert-manager `subject.organizations`).
   * @default - the cluster name
   */
  readonly organization?: string;
  /**
   * Organizational unit (`OU`).
   * @default - none
   */
  readonly organizationalUnit?: string;
  /**
   * Country (`C`).
   * @default - none
   */
  readonly country?: string;
  /**
   * State or province (`ST`).
   * @default - none
   */
  readonly state?: string;
  /**
   * Locality (`L`).
   * @default - none
   */
  readonly locality?: string;
}

/** Extra names on one component's server certificate. */
export interface ExtraNames {
  /**
   * DNS names added after the names of the specification's host-name table.
   * @default - none
   */
  readonly extraDnsNames?: string[];
  /**
   * IP addresses added after `127.0.0.1` and `::1`.
   * @default - none
   */
  readonly extraIpAddresses?: string[];
}

/** Extra names on one component's server certificate, and the drainer's chart names. */
export interface ServerCertificateOptions extends ExtraNames {
  /**
   * The drainer chart's release name. Required for the drainer unless `drainerName` is set.
   * @default - none
   */
  readonly releaseName?: string;
  /**
   * The drainer chart's `drainerName`.
   * @default `${cluster_name}-${release_name}-drainer`
   */
  readonly drainerName?: string;
}

/**
 * A planned server certificate, as every issuing method needs it.
 */
export interface ServerCertificatePlan {
  /** The component. */
  readonly token: ComponentToken;
  /** The Secret (and cert-manager Certificate) name. */
  readonly secretName: string;
  /** DNS names, in order. */
  readonly dnsNames: string[];
  /** IP addresses, in order. */
  readonly ipAddresses: string[];
}

/**
 * One Secret of a {@link TlsPlan}.
 * @jsii ignore
 */
export interface TlsPlanSecret {
  /** The Secret name. */
  readonly name: string;
  /** A component's server certificate, or a cluster kind's shared client certificate. */
  readonly role: 'server' | 'client';
  /** The cluster kind. */
  readonly cluster: ClusterKind;
  /** The component, for server certificates. */
  readonly component?: ComponentToken;
  /** Extended key usages (cert-manager spelling). */
  readonly usages: string[];
  /** DNS names the certificate must cover (server certificates). */
  readonly dnsNames?: string[];
  /** IP addresses the certificate must cover (server certificates). */
  readonly ipAddresses?: string[];
  /**
   * Server certificates: whether the component, at the release its cluster declares, re-reads
   * `tls.crt` and `tls.key` for each new connection (so a new certificate needs no restart).
   */
  readonly reloadsLeaf?: boolean;
}

/**
 * A TLS Secret you create that a cluster loads, in the plan's namespace.
 * @jsii ignore
 */
export interface TlsPlanUserSecret {
  /** The Secret name. */
  readonly name: string;
  /** The kind of the cluster resource that loads it. */
  readonly cluster: ClusterKind;
  /** What loads it: `migration source <id>`, `the migration's target`, `the changefeed's sink`. */
  readonly usedBy: string;
}

/**
 * The algorithm and size of a planned key.
 * @jsii ignore
 */
export interface PlannedKey {
  /** The key algorithm, a {@link KeyAlgorithm} value: `RSA`, `ECDSA` or `Ed25519`. */
  readonly algorithm: string;
  /** The key size in bits; absent for Ed25519. */
  readonly size?: number;
}

/**
 * The version of {@link TlsPlan} this library writes and `cluster-tls verify` reads. It changes
 * whenever a field is added, removed or changes meaning; `tls-plan.schema.json` describes it.
 */
export const TLS_PLAN_VERSION = 8;

/**
 * What the certificates of one cluster must be, whichever method issues them. Written as
 * `tls-plan.json`; the package publishes its JSON Schema as `cdk8s-cluster-tls/tls-plan.schema.json`.
 * @jsii ignore
 */
export interface TlsPlan {
  /** {@link TLS_PLAN_VERSION}. */
  readonly version: typeof TLS_PLAN_VERSION;
  /** The cluster name. */
  readonly clusterName: string;
  /** The namespace of the cluster and of every Secret of `secrets`. */
  readonly namespace: string;
  /** How the Secrets are made. */
  readonly method: IssuingMethod;
  /** The Common Name shared by every certificate. */
  readonly commonName: string;
  /** The organization (`O`) of the subject: the `subject.organization` prop, or the cluster name. */
  readonly organization: string;
  /** The key of the server and client certificates. */
  readonly privateKey: PlannedKey;
  /**
   * The library's CA, absent when an issuer of the user's signs the certificates (`issuer`).
   * `secretName` is the Secret cert-manager keeps it in; with the other methods no such Secret
   * exists and `ca.crt` of every Secret holds the CA.
   */
  readonly ca?: {
    /** The name of the Secret that holds the CA that signs new certificates. */
    readonly secretName: string;
    /** The CA's validity, as a Go duration such as `87600h`. */
    readonly duration: string;
    /** How long before the CA expires it is renewed, as a Go duration such as `720h`. */
    readonly renewBefore: string;
    /** The CA's key; when absent, the CA's key is as `privateKey`. */
    readonly privateKey?: PlannedKey;
  };
  /**
   * The issuer of the user's that signs every certificate (`issuerRef`), instead of a CA of the
   * library's: the CA every Secret's `ca.crt` holds is that issuer's.
   */
  readonly issuer?: {
    /** The issuer's name. */
    readonly name: string;
    /** The issuer's kind, such as `ClusterIssuer`. */
    readonly kind: string;
    /** The issuer's API group, such as `cert-manager.io`. */
    readonly group: string;
  };
  /** The validity of the server and client certificates, as a Go duration such as `8760h`. */
  readonly duration: string;
  /** How long before a server or client certificate expires it is renewed, as a Go duration such as `360h`. */
  readonly renewBefore: string;
  /** The client Secret of each cluster kind, then the server Secret of each component. */
  readonly secrets: TlsPlanSecret[];
  /**
   * The TLS Secrets you create that the cluster loads (a migration source's or target's client
   * certificate, a changefeed sink's), each in the plan's namespace, when there are any: the
   * library issues none of them, and knows neither their CA nor their Common Name.
   */
  readonly userSecrets?: TlsPlanUserSecret[];
  /** The rotation declared, when one is: its phase and what every Secret must hold in it. */
  readonly rotation?: TlsPlanRotation;
  /** The TLS enablement of the database cluster, when one is declared: its phase, and whether TLS is on in it. */
  readonly enablement?: TlsPlanEnablement;
  /** TLS between the SQL server and its MySQL clients, when the database cluster turns it on. */
  readonly sqlTls?: TlsPlanSqlTls;
  /**
   * With `span`: the Kubernetes cluster this output is for, so that `cluster-tls verify` given the
   * outputs of several checks their Secrets against each other.
   */
  readonly span?: TlsPlanSpan;
}

/**
 * The span of a plan: which Kubernetes cluster's output it is, that cluster's domain, and the whole
 * declaration, so that `cluster-tls verify` given some of a span's outputs can tell them apart from
 * another span's and name the Kubernetes clusters whose outputs it was not given. Adding a
 * Kubernetes cluster therefore changes every output's plan, and nothing else of the others' outputs.
 * @jsii ignore
 */
export interface TlsPlanSpan {
  /** The Kubernetes cluster this output is for. */
  readonly kubernetesCluster: string;
  /** Its cluster DNS domain: the members of the other Kubernetes clusters dial its servers by their names in it. */
  readonly clusterDomain: string;
  /** Every Kubernetes cluster of the span, in the order they join, each with its domain and the namespace of the database cluster there. */
  readonly clusters: TlsPlanSpanCluster[];
}

/**
 * A Kubernetes cluster of a plan's span.
 * @jsii ignore
 */
export interface TlsPlanSpanCluster {
  /** The Kubernetes cluster's name in the span. */
  readonly name: string;
  /** Its cluster DNS domain. */
  readonly clusterDomain: string;
  /** The namespace of the database cluster there. */
  readonly namespace: string;
}

/**
 * TLS for MySQL clients: a CA of its own (not the cluster's), and the Secrets it signs, each in its
 * namespace. Every Secret's `ca.crt` holds the SQL CA.
 * @jsii ignore
 */
export interface TlsPlanSqlTls {
  /**
   * The SQL CA: its name (Certificate, Secret and ClusterIssuer with cert-manager) and, with
   * cert-manager, the namespace of its Secret (cert-manager's own).
   */
  readonly ca: {
    /** The SQL CA's name: `<namespace>-${cluster_name}-sql-ca`. */
    readonly name: string;
    /** With cert-manager, the namespace of the SQL CA's Secret; absent with the other methods. */
    readonly secretNamespace?: string;
  };
  /** The operator's `disableClientAuthn`: the server asks for no client certificate. */
  readonly disableClientAuthn: boolean;
  /** The operator's `skipInternalClientCA`: the operator's clients do not check the server. */
  readonly skipInternalClientCA: boolean;
  /** The server's Secret, the operator's client Secret, then each application's. */
  readonly secrets: TlsPlanSqlSecret[];
}

/**
 * One Secret of TLS for MySQL clients.
 * @jsii ignore
 */
export interface TlsPlanSqlSecret {
  /** The Secret name. */
  readonly name: string;
  /** The Secret's namespace: the cluster's, or an application's own. */
  readonly namespace: string;
  /** The SQL server's certificate, the operator's client certificate, or an application's. */
  readonly role: 'server' | 'operator-client' | 'application';
  /** The application, for an application's Secret. */
  readonly application?: string;
  /** The certificate's Common Name, its whole subject. */
  readonly commonName: string;
  /** Extended key usages (cert-manager spelling). */
  readonly usages: string[];
  /** DNS names the server's certificate must cover. */
  readonly dnsNames?: string[];
  /** IP addresses the server's certificate must cover. */
  readonly ipAddresses?: string[];
}

/**
 * The rotation of a plan: what every Secret of `secrets` must hold in the declared phase.
 * @jsii ignore
 */
export interface TlsPlanRotation {
  /** The rotation's id, which names the generation it makes. */
  readonly id: string;
  /** What the rotation replaces. */
  readonly kind: RotationKind;
  /** The phase this commit declares. */
  readonly phase: RotationPhase;
  /** The phases of the kind, in order. */
  readonly phases: RotationPhase[];
  /** The generation in use before the rotation (`initial`, or the id of the rotation before). */
  readonly previous: string;
  /** The generations of the CA certificates every `ca.crt` holds, in order. */
  readonly caCertificates: string[];
  /** The generation of every `tls.crt` and `tls.key`. */
  readonly leafGeneration: string;
  /** The generation of the CA certificate that signed every `tls.crt`. */
  readonly signedBy: string;
  /** cert-manager: the Secret of each generation's CA in this phase, by generation. */
  readonly caSecrets?: Record<string, string>;
  /**
   * The components this phase restarts, each cluster kind in the operator's order (the two kinds
   * roll at the same time), then the drainer and the discovery server; the clients of the client
   * Secrets restart after them.
   */
  readonly restartOrder: ComponentToken[];
  /**
   * The components this phase does not restart: it leaves their `ca.crt` as it was, and their
   * release re-reads `tls.crt` and `tls.key` for each new connection.
   */
  readonly reloading: ComponentToken[];
  /** Every rotation declared, in order, this one last: the record keeps it, so none can be dropped or renamed later. */
  readonly history: {
    /** The rotation's id. */
    readonly id: string;
    /** What the rotation replaced, or replaces for the last one. */
    readonly kind: RotationKind;
  }[];
}

/**
 * A private key's settings with every default applied (a named struct, as every language's binding can show it).
 * @jsii ignore
 */
export interface ResolvedPrivateKey {
  /** The key algorithm. */
  readonly algorithm: KeyAlgorithm;
  /** The key size in bits: the given size or its algorithm's default; absent for Ed25519. */
  readonly size?: number;
  /** Whether cert-manager makes a new key when it renews the certificate. */
  readonly rotationPolicy: KeyRotationPolicy;
}

/**
 * The subject fields of the `subject` prop, checked, with the organization defaulted.
 * @jsii ignore
 */
export interface ResolvedSubject extends CertificateSubject {
  /** The organization (`O`): the `subject.organization` prop, or the cluster name. */
  readonly organization: string;
}

/**
 * Fully resolved settings shared by every certificate of the cluster.
 * @jsii ignore
 */
export interface CertificateSettings {
  /** The cluster name. */
  readonly clusterName: string;
  /** The namespace of the cluster and of every certificate. */
  readonly namespace: string;
  /** The Common Name shared by every certificate. */
  readonly commonName: string;
  /** The subject fields of the `subject` prop, checked. */
  readonly subject: ResolvedSubject;
  /** The keys of the server and client certificates. */
  readonly privateKey: ResolvedPrivateKey;
  /**
   * The CA's key: the same algorithm and size as the others with cert-manager, kept across renewals
   * unless `caKeyRotationPolicy` says otherwise; RSA 2048 with cfssl (the specification's limit).
   */
  readonly caPrivateKey: ResolvedPrivateKey;
  /** The CA's validity, as a Go duration: the `caDuration` prop, by default `87600h`. */
  readonly caDuration: string;
  /** How long before the CA expires it is renewed, as a Go duration: the `caRenewBefore` prop, by default `720h`. */
  readonly caRenewBefore: string;
  /** The validity of the server and client certificates, as a Go duration: the `duration` prop, by default `8760h`. */
  readonly duration: string;
  /** How long before a server or client certificate expires it is renewed, as a Go duration: the `renewBefore` prop, by default `360h`. */
  readonly renewBefore: string;
  /** The rotation under way or last done, when `rotations` declares one. */
  readonly rotation?: ResolvedRotation;
  /** The issuer of the user's that signs every certificate, when `issuerRef` names one: the library then makes no CA. */
  readonly issuer?: ResolvedIssuerReference;
  /** The Kubernetes clusters the cluster spans, when `span` declares them: its CA is then this Kubernetes cluster's intermediate. */
  readonly span?: ResolvedSpan;
}

/**
 * An issuer reference with its defaults applied, as the plan records it and each Certificate names it.
 * @jsii ignore
 */
export interface ResolvedIssuerReference {
  /** The issuer's name. */
  readonly name: string;
  /** The issuer's kind. */
  readonly kind: string;
  /** The issuer's API group. */
  readonly group: string;
}

