/**
 * The `ClusterCertificates` construct: one CA per cluster name and namespace, the server
 * certificates the cluster constructs add, the plan (`tls-plan.json`), and the renderer of the
 * chosen issuing method.
 */
import { isDeepStrictEqual } from 'node:util';
import { ApiObject, Chart } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-27';
import type { CdkPlusPackage } from '../model/secret-ref';
import { Construct, IConstruct } from 'constructs';
import { TlsEnablementPhase, nextEnablementPhase, planEnablement } from '../model/enablement';
import {
  COMPONENT_TOKENS, ClusterKind, ComponentToken, OPERATOR_ROLL_ORDER, OPERATOR_ROLL_ORDER_SOURCE, PORTS, SERVER_IP_ADDRESSES, USAGES, clusterKind, component, isComponentToken,
} from '../model/catalog';
import {
  CertificateSettings, CertificateSubject, ExtraNames, IssuingMethod, KeyAlgorithm, KeyRotationPolicy, PrivateKeyOptions, ProvidedSecretNames, ServerCertificateOptions,
  ServerCertificatePlan, TLS_PLAN_VERSION, TlsPlan, TlsPlanUserSecret, ResolvedIssuerReference,
} from '../plan/certificate-options';
import { DurationValue, durationSpec } from '../model/duration';
import { describeType, inputError } from '../model/errors';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import { OutputFile } from '../app/output-file';
import { renderCertManager } from './cert-manager';
import { sqlManagedDomain } from '../scripts/rotation-script';
import { SERVER_OPTIONS_SHAPE, checkExtraNames, checkSecretNames, resolveKeys, resolveSubject, resolveValidity } from '../plan/certificate-settings';
import { renderCfssl } from './cfssl';
import { EXPIRY_WATCH_OPTIONS_SHAPE, ExpiryWatch, ExpiryWatchOptions, IWatchedCertificates } from './expiry-watch';
import { ResolvedSqlTlsOptions, SqlTls } from './sql-tls';
import type { ExternalTlsSecret, ManagedCertificate } from '../model/expiry';
import type { CertificateRenderer } from './renderer';
import type { RunbookStep } from '../documents/runbook';
import { RotationConsumer, RotationRunbookInput, RotationWriter, rotationRunbook } from '../documents/rotation-runbook';
import { ROLLING_KINDS, secretConsumers } from './secret-consumers';
import { restartAnnotationKey } from '../model/settings';
import { ISSUE_SCRIPT, pkiCopyFolder } from '../scripts/cfssl-files';
import { renderUserProvided } from './user-provided';
import { registerCertificates } from '../app/registry';
import { PropShape, ShapeOf, checkArguments, checkProps, constructOf, isConstruct, listOf, objectOf, oneOf } from '../model/props';
import { ISSUER_REF_SHAPE, IssuerReference, resolveIssuerRef } from '../plan/issuer-ref';
import {
  CA_CHANGE_REASON, CertificateRotation, ComponentReload, ROTATION_SHAPE, ResolvedRotation, RotationKind, caObjectOf, changesCa, componentReload, componentRestartValue, isLastPhase,
  caObjectsInUse, resolveRotations, restartOrder, restartValue, restartsIn, signingCaObject,
} from '../plan/rotation';
import { requireRelease } from '../model/versions';
import type { NamespacedName } from '../model/names';
import { requireDistinctSubjects } from '../plan/subjects';
import { KubernetesSpan, ResolvedSpan, SPAN_SHAPE, resolveSpan } from '../model/span';
import { intermediateStep, requireSpanSettings } from './intermediate';
import { TrustedObject, clusterKey, loadableByCluster } from '../model/trust';
import { clusterTrust } from '../model/trust-objects';
import { grantClusterTrust } from '../model/trust-grants';
import { DNS_SUBDOMAIN_MAX, requireCommonName, requireDerivedLabels, requireDnsLabel, requireDnsName, resolveNamespace } from '../model/validate';


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

/** A component token, as a method's argument. */
const TOKEN = oneOf(COMPONENT_TOKENS, false);

/** A cluster kind, as a method's argument. */
const KIND = oneOf(Object.values(ClusterKind), false);

const CLUSTER_CERTIFICATES_SHAPE = {
  clusterName: 'string',
  namespace: 'string?',
  commonName: 'string?',
  subject: SUBJECT_PROP,
  components: 'strings?',
  extraNames: 'object?',
  clusterDomain: 'string?',
  privateKey: objectOf({ algorithm: oneOf(Object.values(KeyAlgorithm)), size: 'number?', rotationPolicy: oneOf(Object.values(KeyRotationPolicy)) }),
  caKeyRotationPolicy: oneOf(Object.values(KeyRotationPolicy)),
  method: oneOf(Object.values(IssuingMethod)),
  secretNames: objectOf({ servers: 'object?', clients: 'object?' }),
  caDuration: durationSpec(),
  caRenewBefore: durationSpec(),
  duration: durationSpec(),
  renewBefore: durationSpec(),
  rotations: listOf(ROTATION_SHAPE, true, 'a list of rotations, each { id, kind?, phase? }'),
  issuerRef: ISSUER_REF_SHAPE,
  span: SPAN_SHAPE,
} satisfies ShapeOf<ClusterCertificatesProps>;

/**
 * The certificates of one cluster name in one namespace: the CA, one server certificate per
 * component, and the shared client certificate of each cluster kind served, issued by the chosen
 * {@link IssuingMethod}. With cert-manager (the default) the CA gets a self-signed Issuer and
 * each kind a CA-type Issuer (`-db-issuer`, `-mig-issuer`); with cfssl the output holds the
 * request files and an issuing script; with user-provided Secrets, the list of Secrets to create.
 *
 * The database and the migration cluster of the same name share it: the CA is the same and each
 * kind gets its client Secret when its first component is added. Whatever the method, the Secret
 * names are the same, so the cluster constructs work unchanged.
 */
export class ClusterCertificates extends Construct implements IWatchedCertificates {
  /** The cluster name. */
  public readonly clusterName: string;
  /** The namespace of the cluster and of every certificate. */
  public readonly namespace: string;
  /** The Common Name shared by every certificate. */
  public readonly commonName: string;
  /**
   * The Secret that holds the CA that signs new certificates (cert-manager method without
   * `issuerRef`; the other methods have none). During a CA replacement, the previous CA's until the
   * leaves switch.
   */
  public readonly caSecretName: string;
  /**
   * The issuer of yours that signs every certificate, when `issuerRef` names one.
   * @jsii ignore
   */
  public readonly issuer?: ResolvedIssuerReference;
  /**
   * The rotation under way or last done, resolved, when `rotations` declares one.
   * @jsii ignore
   */
  public readonly rotation?: ResolvedRotation;
  private enablementPhase?: TlsEnablementPhase;
  /** How the certificates are issued. */
  public readonly method: IssuingMethod;
  /**
   * Resolved settings of every certificate.
   * @jsii ignore
   */
  public readonly settings: CertificateSettings;
  /** The cluster DNS domain whose fully qualified names the server certificates carry too, when set: with `span`, the current Kubernetes cluster's. */
  public readonly clusterDomain?: string;
  /**
   * The Kubernetes clusters the cluster spans, checked, when `span` declares them.
   * @jsii ignore
   */
  public readonly span?: ResolvedSpan;

  private readonly servers = new Map<ComponentToken, ServerCertificatePlan & { readonly options: ServerCertificateOptions }>();
  private readonly kinds = new Set<ClusterKind>();
  private readonly versions = new Map<ComponentToken, string>();
  private readonly externalSecrets = new Map<string, ExternalTlsSecret>();
  private readonly extraNames: NonNullable<ClusterCertificatesProps['extraNames']>;
  private readonly renderer: CertificateRenderer;
  private expiry?: ExpiryWatch;
  private expiryOptions?: ExpiryWatchOptions;
  private sql?: SqlTls;

  constructor(scope: Construct, id: string, props: ClusterCertificatesProps) {
    super(scope, id);
    props = checkProps(this, props, CLUSTER_CERTIFICATES_SHAPE);
    requireDnsLabel(this, 'clusterName', props.clusterName);
    const namespace = resolveNamespace(this, props.namespace);
    if (props.clusterDomain !== undefined) {
      requireDnsName(this, 'clusterDomain', props.clusterDomain);
    }
    const commonName = requireCommonName(this, 'commonName', props.commonName ?? props.clusterName);

    this.clusterName = props.clusterName;
    this.namespace = namespace;
    this.commonName = commonName;
    this.method = props.method ?? IssuingMethod.CERT_MANAGER;
    this.issuer = resolveIssuerRef(this, props);
    this.rotation = resolveRotations(this, props.rotations ?? []);
    if (this.rotation?.kind === RotationKind.CA_RENEWAL && this.method === IssuingMethod.CERT_MANAGER) {
      inputError(this, `rotations[${props.rotations!.length - 1}].kind`, this.rotation.kind,
        `"${RotationKind.CA_REPLACEMENT}" or "${RotationKind.LEAF_RENEWAL}" with cert-manager, which renews its CA itself with the same key (caKeyRotationPolicy Never)`);
    }
    this.span = resolveSpan(this, props.span, namespace);
    this.caSecretName = names.signingSecretName(props.clusterName, signingCaObject(this.rotation), this.span?.current.name);
    this.extraNames = props.extraNames ?? {};
    this.clusterDomain = this.span?.current.clusterDomain ?? props.clusterDomain;
    for (const [token, extra] of Object.entries(this.extraNames)) {
      if (!isComponentToken(token)) {
        inputError(this, 'extraNames', token, 'a component token');
      }
      checkExtraNames(this, `extraNames.${token}`, extra);
    }
    this.settings = {
      clusterName: this.clusterName,
      namespace,
      commonName,
      subject: resolveSubject(this, props.subject, props.clusterName),
      ...resolveKeys(this, this.method, props.privateKey, props.caKeyRotationPolicy),
      ...resolveValidity(this, props, this.method, this.issuer !== undefined),
      rotation: this.rotation,
      issuer: this.issuer,
      span: this.span,
    };
    if (this.span !== undefined) {
      requireSpanSettings(this, this.span, this.settings, { ...props, method: this.method });
      // The intermediate's Secrets are the user's, made by the script: the exporter watches the expiry of each one in use.
      for (const generation of caObjectsInUse(this.rotation)) {
        this._addExternalTlsSecret({
          name: names.intermediateSecretName(this.clusterName, this.span.current.name, generation), namespace, cluster: ClusterKind.DATABASE,
          usedBy: `cert-manager's CA Issuer of Kubernetes cluster ${this.span.current.name}${generation === names.INITIAL_GENERATION ? '' : ` (the root of rotation ${generation})`}`,
        });
      }
    }
    // An issuer's CA carries a subject of the user's, which the library cannot compare.
    if (this.issuer === undefined) {
      requireDistinctSubjects(this, this.settings, this.method);
    }
    checkSecretNames(this, this.method, props.secretNames);
    this.renderer = this.createRenderer();
    new OutputFile(this, 'Plan', { path: layout.tlsPlanPath(namespace, props.clusterName), content: { render: () => `${JSON.stringify(this.plan(), undefined, 2)}\n` } });
    for (const token of props.components ?? []) {
      this.addComponent(token);
    }
    if (this.rotation !== undefined) {
      new OutputFile(this, 'RotationRunbook', {
        path: layout.rotationRunbookPath(namespace, props.clusterName),
        content: { render: () => rotationRunbook(this.rotationRunbookInput(this.rotation!)) },
      });
    }
    registerCertificates(this);
  }

  /**
   * Adds the server certificate of a component (and, with the first component of a cluster kind,
   * that kind's CA-type Issuer and shared client certificate). Adding a component again with the
   * same options does nothing.
   * @returns the planned certificate
   */
  public addComponent(token: ComponentToken, options: ServerCertificateOptions = {}): ServerCertificatePlan {
    ({ token, options } = checkArguments(this, 'addComponent', { token, options }, { token: TOKEN, options: objectOf(SERVER_OPTIONS_SHAPE, false) }));
    const existing = this.servers.get(token);
    if (existing) {
      if (!isDeepStrictEqual(existing.options, options)) {
        inputError(this, 'addComponent.options', options, `the options ${token} was first added with, ${JSON.stringify(existing.options)}`);
      }
      return existing;
    }
    if (token === 'drainer' && options.releaseName === undefined && options.drainerName === undefined) {
      inputError(this, 'drainer releaseName', undefined, 'the drainer chart\'s release name (or its drainerName)');
    }
    const extra = this.extraNames[token] ?? {};
    checkExtraNames(this, token, options, SERVER_OPTIONS_SHAPE);
    const derived = names.hostNames(token, { clusterName: this.clusterName, namespace: this.namespace, ...options });
    const serviceLabels = derived.map((h) => h.replace(/^\*\./, '').split('.')[0]);
    if (token === 'drainer' && options.drainerName !== undefined) {
      requireDnsLabel(this, 'drainerName', options.drainerName);
    } else if (token === 'drainer') {
      requireDerivedLabels(this, 'releaseName', options.releaseName!, serviceLabels);
    } else {
      requireDerivedLabels(this, 'clusterName', this.clusterName, serviceLabels);
    }
    // With a span, the domain is this Kubernetes cluster's: the members of the others reach these by its fully qualified names.
    const computed = names.hostNames(token, { clusterName: this.clusterName, namespace: this.namespace, clusterDomain: this.clusterDomain, ...options });
    this.requireNamesFit(token, computed);
    const plan = {
      token,
      secretName: names.serverSecretName(this.clusterName, token),
      dnsNames: [...computed, ...(extra.extraDnsNames ?? []), ...(options.extraDnsNames ?? [])],
      ipAddresses: [...SERVER_IP_ADDRESSES, ...(extra.extraIpAddresses ?? []), ...(options.extraIpAddresses ?? [])],
      options,
    };
    const kind = component(token).cluster;
    this.addKind(kind);
    this.servers.set(token, plan);
    this.renderer.addServer(plan);
    return plan;
  }

  /**
   * Refuses host names of a component longer than a DNS name may be (253 characters): its labels
   * are checked one by one, but the namespace and the cluster domain add up. Only the cluster
   * domain can make them that long, so the message is about it, and names what else made them.
   */
  private requireNamesFit(token: ComponentToken, hostNames: readonly string[]): void {
    const longest = [...hostNames].sort((a, b) => b.length - a.length)[0];
    if (longest !== undefined && longest.length > DNS_SUBDOMAIN_MAX) {
      const service = token === 'drainer' ? 'the drainer\'s name' : `clusterName "${this.clusterName}"`;
      inputError(this, 'clusterDomain', this.clusterDomain,
        `a domain short enough that every host name on the certificates stays within ${DNS_SUBDOMAIN_MAX} characters: with ${service} and namespace `
        + `"${this.namespace}" it makes the ${token}'s name "${longest}" (${longest.length} characters); shorten the domain, the namespace or the name`);
    }
  }

  /** Whether a component's server certificate is planned. */
  public hasComponent(token: ComponentToken): boolean {
    checkArguments(this, 'hasComponent', { token }, { token: TOKEN });
    return this.servers.has(token);
  }

  /** The planned server certificates, in the order they were added. */
  public get serverCertificates(): ServerCertificatePlan[] {
    return [...this.servers.values()].map(({ options: _options, ...plan }) => plan);
  }

  /** The cluster kinds served, in the order their first component was added. */
  public get clusterKinds(): ClusterKind[] {
    return [...this.kinds];
  }

  /** The server Secret of a component; throws when the component was not added. */
  public serverSecretName(token: ComponentToken): string {
    return this.serverPlan('serverSecretName', token).secretName;
  }

  /** The plan of a component's server certificate; a refusal names the method asking. */
  private serverPlan(method: string, token: ComponentToken): ServerCertificatePlan {
    checkArguments(this, method, { token }, { token: TOKEN });
    const plan = this.servers.get(token);
    if (!plan) {
      inputError(this, `${method}.token`, token, `one of the components with a certificate: ${[...this.servers.keys()].join(', ') || 'none yet'}`);
    }
    return plan;
  }

  /** The shared client Secret of a cluster kind; throws when the kind is not served. */
  public clientSecretName(kind: ClusterKind): string {
    return this.servedKind('clientSecretName', kind) && names.clientSecretName(this.clusterName, kind);
  }

  /** Throws unless the certificates serve a cluster kind; a refusal names the method asking. */
  private servedKind(method: string, kind: ClusterKind): true {
    checkArguments(this, method, { kind }, { kind: KIND });
    if (!this.kinds.has(kind)) {
      inputError(this, `${method}.kind`, kind, `a kind with certificates: ${[...this.kinds].join(', ') || 'none yet'}`);
    }
    return true;
  }

  /**
   * The server Secret of a component as a cdk8s-plus `ISecret`; throws when the component was not
   * added. Nothing is written for it: the Secret is the one the issuing method makes.
   */
  public serverSecret(token: ComponentToken): kplus.ISecret;
  /** The server Secret of a component as an `ISecret` of the cdk8s-plus package given (any major from 27). */
  public serverSecret<S>(token: ComponentToken, plus: CdkPlusPackage<S>): S;
  public serverSecret<S>(token: ComponentToken, plus?: CdkPlusPackage<S>): kplus.ISecret | S {
    return importedSecret(this, this.serverPlan('serverSecret', token).secretName, plus);
  }

  /**
   * The shared client Secret of a cluster kind as a cdk8s-plus `ISecret`, for a workload that
   * connects to the cluster with the client certificate set: mount it with
   * `kplus.Volume.fromSecret(scope, id, certs.clientSecret(kind))`. Throws when the kind is not served.
   */
  public clientSecret(kind: ClusterKind): kplus.ISecret;
  /**
   * The shared client Secret of a cluster kind as an `ISecret` of the cdk8s-plus package given (any
   * major from 27): `kplus.Volume.fromSecret(scope, id, certs.clientSecret(kind, kplus))`.
   */
  public clientSecret<S>(kind: ClusterKind, plus: CdkPlusPackage<S>): S;
  public clientSecret<S>(kind: ClusterKind, plus?: CdkPlusPackage<S>): kplus.ISecret | S {
    return importedSecret(this, this.servedKind('clientSecret', kind) && names.clientSecretName(this.clusterName, kind), plus);
  }

  /**
   * What a Secret of this name in the cluster's namespace holds when the library writes it for this
   * cluster, or undefined: the CA Secret of every generation, any component's server Secret and
   * either kind's client Secret (planned or not), and their staging Secrets, for every rotation
   * declared; a span's intermediate and root; with TLS for MySQL clients, the SQL server's, the
   * operator's and the reload user's. Not an application's own, which is handed to whatever
   * connects as that application (a migration target, say).
   */
  public ownedSecret(name: string): string | undefined {
    checkArguments(this, 'ownedSecret', { name }, { name: 'string' });
    return this._trustedObjects().find((t) => t.kind === 'Secret' && t.namespace === this.namespace && t.name === name
      && !loadableByCluster(t.trust))?.holds;
  }

  /**
   * The objects the certificates name by a name joined from the namespace and the cluster name, or
   * one name in the whole cluster: the applications' Secrets of TLS for MySQL clients, each in its
   * namespace, and the expiry watch's exporter objects that are not namespaced. Two clusters whose
   * namespace and name join to the same text (`x`/`y-z` and `x-y`/`z`) would write the same.
   * @internal
   */
  public _joinedNameClaims(): { readonly what: string; readonly namespace?: string; readonly name: string }[] {
    const applications = (this.plan().sqlTls?.secrets ?? []).filter((s) => s.role === 'application')
      .map((s) => ({ what: 'Secret', namespace: s.namespace, name: s.name }));
    const fullname = this.expiry?._exporterFullname();
    return [...applications, ...(fullname === undefined ? [] : [{ what: 'x509-certificate-exporter\'s cluster-wide objects', name: fullname }])];
  }

  /**
   * The issuer `issuerRef` names, and the ClusterIssuer of the SQL CA with cert-manager, when there
   * are, for the app's rules on what an issuer may be.
   * @internal
   */
  public _issuers(): { readonly issuerRef?: ResolvedIssuerReference; readonly sqlIssuer?: string } {
    const sqlIssuer = this.sql !== undefined && this.method === IssuingMethod.CERT_MANAGER ? names.sqlClusterIssuerName(this.namespace, this.clusterName) : undefined;
    return { issuerRef: this.issuer, sqlIssuer };
  }

  /**
   * Lets a workload of the app load this cluster's own certificates: the shared client
   * certificate, or a component's server certificate. Every component trusts their CA, so whoever
   * holds one is taken for a component: give them only to a tool that acts as one (the
   * coordinator's command-line client, a job of the operator's kind). An application never needs
   * one: give it a certificate of its own (`TlsDatabaseCluster.addSqlClient`). No workload may hold
   * a CA's key, this call or not. Without this call, a workload of the app that loads one is
   * refused at synth.
   * @param workload the workload's construct (a cdk8s-plus `Deployment`, an `ApiObject`), or a construct that holds it
   */
  public allowWorkload(workload: IConstruct): void {
    checkArguments(this, 'allowWorkload', { workload }, { workload: constructOf(isConstruct, 'the construct of a workload of this app (a Deployment, a Job, an ApiObject)') });
    grantClusterTrust(workload, 'tool', clusterKey(this.namespace, this.clusterName), true);
  }

  /**
   * Every trust-bearing object of the cluster, with its owner class: what the app's trust rule
   * checks every object against.
   * @internal
   */
  public _trustedObjects(): TrustedObject[] {
    const sql = this.sql?.plan();
    return clusterTrust({
      clusterName: this.clusterName,
      namespace: this.namespace,
      certificates: this.node.path,
      libraryCa: this.issuer === undefined && this.span === undefined,
      certManager: this.method === IssuingMethod.CERT_MANAGER,
      libraryLeaves: this.method !== IssuingMethod.USER_PROVIDED,
      rotationIds: this.rotation?.history.map((h) => h.id) ?? [],
      span: this.span && { current: this.span.current.name, keepsRoot: this.span.root?.name === this.span.current.name },
      sql: sql && { caNamespace: sql.ca.secretNamespace, secrets: sql.secrets, reloadUser: this.sql!.options.reloadUser },
      external: this.externalTlsSecrets(),
    });
  }

  /**
   * Every Secret of the plan in the cluster's namespace, those of TLS for MySQL clients included:
   * what the operator may mount on the cluster's pods.
   * @internal
   */
  public _plannedSecrets(): string[] {
    const plan = this.plan();
    return [...plan.secrets.map((s) => s.name), ...(plan.sqlTls?.secrets ?? []).filter((s) => s.namespace === this.namespace).map((s) => s.name)];
  }

  /**
   * The namespaces cert-manager reads the Secrets of this cluster's ClusterIssuers from.
   * @internal
   */
  public _clusterResourceNamespaces(): string[] {
    const namespace = this.sql?.plan().ca.secretNamespace;
    return namespace === undefined ? [] : [namespace];
  }

  /** Every Secret the certificates issue or require: the CA Secret (cert-manager, without `issuerRef`) and those of the plan. */
  public secretNames(): string[] {
    return [...(this.issuer === undefined ? [this.caSecretName] : []), ...this.plan().secrets.map((s) => s.name)];
  }

  /** The name of the issuer that signs a cluster kind's certificates (cert-manager method): its CA-type Issuer, or the issuer `issuerRef` names. */
  public issuerName(kind: ClusterKind): string {
    checkArguments(this, 'issuerName', { kind }, { kind: KIND });
    return this.issuer?.name ?? names.caIssuerName(this.clusterName, kind);
  }

  /**
   * The certificate plan: every Secret this cluster needs, with what its certificate must hold.
   * Written to `<namespace>/<cluster>/tls-plan.json`; `cluster-tls verify` checks Secrets against it.
   * @jsii ignore
   */
  public plan(): TlsPlan {
    const { settings } = this;
    return {
      version: TLS_PLAN_VERSION,
      clusterName: this.clusterName,
      namespace: this.namespace,
      method: this.method,
      commonName: this.commonName,
      organization: settings.subject.organization,
      privateKey: { algorithm: settings.privateKey.algorithm, size: settings.privateKey.size },
      ...(this.issuer !== undefined ? { issuer: { ...this.issuer } } : {
        ca: {
          secretName: this.caSecretName, duration: settings.caDuration, renewBefore: settings.caRenewBefore,
          privateKey: { algorithm: settings.caPrivateKey.algorithm, size: settings.caPrivateKey.size },
        },
      }),
      duration: settings.duration,
      renewBefore: settings.renewBefore,
      secrets: [
        ...this.clusterKinds.map((kind) => ({
          name: this.clientSecretName(kind), role: 'client' as const, cluster: kind, usages: [...USAGES.client],
        })),
        ...this.serverCertificates.map((s) => ({
          name: s.secretName, role: 'server' as const, cluster: component(s.token).cluster, component: s.token,
          usages: [...USAGES.server], dnsNames: [...s.dnsNames], ipAddresses: [...s.ipAddresses], reloadsLeaf: this._componentReload(s.token).reloadsLeaf,
        })),
      ],
      userSecrets: this.planUserSecrets(),
      rotation: this.planRotation(),
      enablement: this.enablementPhase === undefined ? undefined : planEnablement(this.enablementPhase, {
        member: names.firstPodName(this.clusterName, 'coordinator'),
        peerUrl: names.coordinatorPeerUrl(this.clusterName, this.namespace, 0, this.clusterDomain),
      }),
      sqlTls: this.sql?.plan(),
      span: this.span && {
        kubernetesCluster: this.span.current.name, clusterDomain: this.span.current.clusterDomain, clusters: this.span.clusters.map((c) => ({ ...c })),
      },
    };
  }

  /**
   * Turns on TLS for the SQL server's MySQL clients (called by `TlsDatabaseCluster` for its
   * `tlsClient` prop): a CA of its own, the server's and the operator's client certificates, and
   * the applications' that {@link SqlTls.addClient} declares. Calling it again with the same
   * options (resolved by `resolveSqlTlsOptions`) returns the same {@link SqlTls}.
   * @jsii ignore
   */
  public enableSqlTls(scope: IConstruct, options: ResolvedSqlTlsOptions): SqlTls {
    if (this.issuer !== undefined) {
      // The SQL CA would be one of the library's beside a PKI of the user's, and could never be rotated or configured.
      inputError(scope, 'tlsClient', options, `no tlsClient while the certificates name an issuer of yours (issuerRef, ${this.issuer.kind} ${this.issuer.name}): `
        + 'TLS for MySQL clients rests on a CA of the library\'s, which issuerRef replaces; turn tlsClient on with the library\'s CA, or issue the SQL server\'s Secrets with your PKI');
    }
    if (this.sql === undefined) {
      this.sql = new SqlTls(this, 'SqlTls', { options, settings: this.settings, method: this.method, clusterDomain: this.clusterDomain });
    } else if (!isDeepStrictEqual(options, this.sql.options)) {
      inputError(scope, 'tlsClient', options, `the options another cluster of these certificates gives, ${JSON.stringify(this.sql.options)}`);
    }
    return this.sql;
  }

  /**
   * TLS for MySQL clients, when a database cluster of these certificates turns it on.
   * @jsii ignore
   */
  public get sqlTls(): SqlTls | undefined {
    return this.sql;
  }

  /**
   * Records that the database cluster loading these certificates turns TLS on in place, at
   * `phase`: the plan then says so, for `cluster-tls verify` and the record. Called by
   * `TlsDatabaseCluster`; a rotation cannot be under way at the same time.
   */
  public declareEnablement(scope: IConstruct, phase: TlsEnablementPhase): void {
    checkArguments(this, 'declareEnablement', { scope, phase }, {
      scope: constructOf(isConstruct, 'a construct'), phase: oneOf(Object.values(TlsEnablementPhase), false),
    });
    if (this.enablementPhase !== undefined && this.enablementPhase !== phase) {
      inputError(scope, 'enablement.phase', phase, `"${this.enablementPhase}", the phase another cluster of these certificates declares`);
    }
    if (this.rotation !== undefined && nextEnablementPhase(phase) !== undefined) {
      inputError(scope, 'enablement.phase', phase, `"${TlsEnablementPhase.SCALE_OUT}" while the certificates declare rotations: finish turning TLS on before rotating the certificates`);
    }
    this.enablementPhase = phase;
  }

  /**
   * Records the release a component of these certificates runs (called by `TlsDatabaseCluster`,
   * `TlsMigrationCluster` and `DrainerRelease` with their versions): a rotation restarts a
   * component only where its release cannot take the phase's certificates while it runs (the
   * catalog's `leafReload`). A component whose release is never declared restarts in every phase.
   * @internal
   */
  public _declareVersion(scope: IConstruct, token: ComponentToken, version: string): void {
    checkArguments(this, '_declareVersion', { scope, token, version }, { scope: constructOf(isConstruct, 'a construct'), token: TOKEN, version: 'string' });
    requireRelease(scope, 'version', version);
    const declared = this.versions.get(token);
    if (declared !== undefined && declared !== version) {
      inputError(scope, 'version', version, `"${declared}", the version of the ${token} another construct of these certificates declares: give both the same version`);
    }
    this.versions.set(token, version);
  }

  /**
   * Records a TLS Secret the user creates that a construct of the cluster loads (an upstream
   * database's client certificate, a changefeed sink's), for the expiry watch. Recording one again
   * keeps the first.
   * @internal
   */
  public _addExternalTlsSecret(secret: ExternalTlsSecret): void {
    const key = `${secret.namespace}/${secret.name}`;
    if (!this.externalSecrets.has(key)) {
      this.externalSecrets.set(key, { ...secret });
    }
  }

  /**
   * The TLS Secrets the user creates that the cluster loads, in the order the constructs recorded them.
   * @jsii ignore
   */
  public externalTlsSecrets(): ExternalTlsSecret[] {
    return [...this.externalSecrets.values()];
  }

  /**
   * The plan's `userSecrets`: the Secrets the user creates that the cluster loads, but those the
   * plan names already (a migration target handed the Secret of `addSqlClient`, in `sqlTls`; a
   * span's intermediate, the CA Secret of `ca` and `rotation.caSecrets`), so that none is checked
   * twice; undefined when none is left.
   */
  private planUserSecrets(): TlsPlanUserSecret[] | undefined {
    const named = new Set([
      ...this.clusterKinds.map((kind) => `${this.namespace}/${this.clientSecretName(kind)}`),
      ...this.serverCertificates.map((s) => `${this.namespace}/${s.secretName}`),
      ...(this.sql?.plan().secrets ?? []).map((s) => `${s.namespace}/${s.name}`),
      ...(this.issuer === undefined ? [`${this.namespace}/${this.caSecretName}`] : []),
      ...Object.values(this.planRotation()?.caSecrets ?? {}).map((name) => `${this.namespace}/${name}`),
    ]);
    const user = this.externalTlsSecrets().filter((s) => !named.has(`${s.namespace}/${s.name}`))
      .map((s) => ({ name: s.name, cluster: s.cluster, usedBy: s.usedBy }));
    return user.length > 0 ? user : undefined;
  }

  /**
   * How a component takes a new certificate at the version its cluster declares.
   * @internal
   */
  public _componentReload(token: ComponentToken): ComponentReload {
    return componentReload(token, this.versions.get(token), { sqlPort: this.sql !== undefined, reloadUser: this.sql?.options.reloadUser });
  }

  /**
   * The value of a component's restart annotation in the declared phase: that of the last phase
   * that restarted it, so that a phase it takes without a restart changes nothing; undefined
   * without a rotation, or when no phase has restarted it.
   * @internal
   */
  public _restartValue(token: ComponentToken): string | undefined {
    return this.rotation === undefined ? undefined : componentRestartValue(this.rotation, this._componentReload(token).reloadsLeaf);
  }

  /** The planned components the declared phase restarts, and those that take it while they run, with the reason for each. */
  private phaseRestarts(r: ResolvedRotation): { readonly token: ComponentToken; readonly restarts: boolean; readonly reason: string }[] {
    return restartOrder([...this.servers.keys()]).map((token) => {
      const reload = this._componentReload(token);
      return { token, restarts: restartsIn(r.kind, r.phase, reload.reloadsLeaf), reason: changesCa(r.kind, r.phase) ? CA_CHANGE_REASON : reload.reason };
    });
  }

  /** The phase of the TLS enablement declared by the database cluster, when one is (see {@link declareEnablement}). */
  public get enablement(): TlsEnablementPhase | undefined {
    return this.enablementPhase;
  }

  /** cert-manager: the CA Secret of each generation the Secrets trust in this phase, by generation. */
  private caSecretsByGeneration(): Record<string, string> {
    const r = this.rotation;
    return r === undefined ? {} : Object.fromEntries(r.content.caCertificates.map((g) => [g, names.signingSecretName(this.clusterName, caObjectOf(r, g), this.span?.current.name)]));
  }

  /** The plan's rotation section. */
  private planRotation(): TlsPlan['rotation'] {
    const r = this.rotation;
    if (r === undefined) {
      return undefined;
    }
    const restarts = this.phaseRestarts(r);
    return {
      id: r.id,
      kind: r.kind,
      phase: r.phase,
      phases: [...r.phases],
      previous: r.previous,
      caCertificates: [...r.content.caCertificates],
      leafGeneration: r.content.leafGeneration,
      signedBy: r.content.signedBy,
      caSecrets: this.method === IssuingMethod.CERT_MANAGER ? this.caSecretsByGeneration() : undefined,
      restartOrder: restarts.filter((c) => c.restarts).map((c) => c.token),
      reloading: restarts.filter((c) => !c.restarts).map((c) => c.token),
      history: r.history.map((h) => ({ id: h.id, kind: h.kind })),
    };
  }

  /** What the rotation runbook of the declared phase says, resolved at synth. */
  private rotationRunbookInput(r: ResolvedRotation): RotationRunbookInput {
    const drainer = this.servers.get('drainer');
    const components = this.phaseRestarts(r);
    const restarting = components.filter((c) => c.restarts).map((c) => c.token);
    const plan = this.plan();
    const sqlSecrets = plan.sqlTls?.secrets ?? [];
    return {
      clusterName: this.clusterName,
      namespace: this.namespace,
      id: r.id,
      kind: r.kind,
      phase: r.phase,
      phases: r.phases,
      leafGeneration: r.content.leafGeneration,
      caCertificates: r.content.caCertificates,
      writer: this.rotationWriter(r),
      manifestFile: layout.manifestFileName(Chart.of(this)),
      restartAnnotation: { key: restartAnnotationKey(this), value: restartValue(r) },
      rollOrder: this.clusterKinds.map((k) => ({
        resourceKind: clusterKind(k).resourceKind,
        components: OPERATOR_ROLL_ORDER[k].filter((t) => restarting.includes(t)),
      })),
      components,
      rollOrderSource: OPERATOR_ROLL_ORDER_SOURCE,
      drainerName: drainer ? names.drainerName(this.clusterName, drainer.options.releaseName!, drainer.options.drainerName) : undefined,
      discoveryName: this.servers.has('discovery') ? names.discoveryDeploymentName(this.clusterName) : undefined,
      clientSecretNames: this.clusterKinds.map((k) => names.clientSecretName(this.clusterName, k)),
      sqlSecrets: sqlSecrets.map((s) => ({ namespace: s.namespace, name: s.name, server: s.role === 'server' })),
      sqlReload: this.sqlReload(components),
      consumers: this.secretConsumers([...plan.secrets.map((s) => ({ namespace: this.namespace, name: s.name })), ...sqlSecrets]),
      verifyReport: layout.verifyReportFromOutputFolder(this.namespace, this.clusterName),
      leftBehind: this.leftBehind(r, plan),
      span: this.span === undefined ? undefined : {
        current: this.span.current.name,
        clusters: this.span.clusters.map((c) => c.name),
        // The first phase of a root replacement signs the intermediate of the next root before anything is applied.
        intermediate: r.kind === RotationKind.CA_REPLACEMENT && r.phase === r.phases[0] ? intermediateStep(this.settings, this.span, layout.manifestFileName(Chart.of(this))) : undefined,
      },
    };
  }

  /** The MySQL port's reload in a phase that does not restart the SQL server but changes its certificate: who runs the statement, on which pods. */
  private sqlReload(components: readonly { readonly token: ComponentToken; readonly restarts: boolean }[]): RotationRunbookInput['sqlReload'] {
    const statement = this._componentReload('sqlserver').statement;
    const client = this.sql?.reloadClient;
    if (statement === undefined || client === undefined || this.sql === undefined || components.some((c) => c.token === 'sqlserver' && c.restarts)) {
      return undefined;
    }
    return {
      statement: statement.sql,
      user: statement.user,
      clientSecret: client.secretName,
      serverSecret: this.sql.serverSecretName,
      podSelector: names.componentPodSelector(this.clusterName, 'sqlserver'),
      port: PORTS.sql,
    };
  }

  /** cert-manager, after a CA replacement's last phase: the previous CAs (the SQL CA too) and the staging certificates, to delete. */
  private leftBehind(r: ResolvedRotation, plan: TlsPlan): RotationRunbookInput['leftBehind'] {
    if (this.method !== IssuingMethod.CERT_MANAGER || r.kind !== RotationKind.CA_REPLACEMENT || !isLastPhase(r)) {
      return undefined;
    }
    const leaves = [...plan.secrets.map((s) => ({ namespace: this.namespace, name: s.name })), ...(plan.sqlTls?.secrets ?? [])];
    const staged = leaves.map((s) => ({ namespace: s.namespace, name: names.stagingSecretName(s.name, r.id) }));
    const sql = plan.sqlTls && sqlManagedDomain(this.namespace, this.clusterName, plan.sqlTls);
    // With a span, the previous CA is the previous intermediate's Secret, which no Certificate issued.
    const caCertificates = [
      ...(this.span === undefined ? [{ namespace: this.namespace, name: names.caCertificateName(this.clusterName, r.previousCa) }] : []),
      ...(sql ? [{ namespace: sql.caNamespace, name: sql.caCertificate(r.previousCa) }] : []),
    ];
    const caSecrets = [
      { namespace: this.namespace, name: names.signingSecretName(this.clusterName, r.previousCa, this.span?.current.name) },
      ...(sql ? [{ namespace: sql.caNamespace, name: sql.caSecret(r.previousCa) }] : []),
    ];
    return { caSecrets, certificates: [...caCertificates, ...staged], secrets: [...caSecrets, ...staged] };
  }

  /**
   * The workloads anywhere in the app that load one of `secrets`, each in its namespace (a
   * cdk8s-plus Deployment mounting `clientSecret()`, say), rendered to read their pod specs.
   */
  private secretConsumers(secrets: readonly NamespacedName[]): RotationConsumer[] {
    const workloads = this.node.root.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)).map((o) => o.toJson());
    return names.byNamespace(secrets).flatMap(([namespace, ofNamespace]) => secretConsumers(workloads, namespace, ofNamespace.map((s) => s.name)))
      .map((c) => ({ ...c, rolling: ROLLING_KINDS.has(c.kind) }));
  }

  /** How the declared phase writes the Secrets, by method. */
  private rotationWriter(r: ResolvedRotation): RotationWriter {
    switch (this.method) {
      case IssuingMethod.CFSSL:
        return { method: 'cfssl', folder: layout.fromOutputFolder(layout.cfsslFolder(this.namespace, this.clusterName)), copy: pkiCopyFolder(this.namespace, this.clusterName), script: ISSUE_SCRIPT };
      case IssuingMethod.CERT_MANAGER:
        return {
          method: 'cert-manager',
          selector: names.certificatesSelector(this.clusterName),
          script: layout.fromOutputFolder(layout.rotationScriptPath(this.namespace, this.clusterName)),
          renewal: r.kind === RotationKind.LEAF_RENEWAL,
        };
      default:
        return { method: 'user-provided', requiredSecrets: layout.REQUIRED_SECRETS_FILE };
    }
  }

  private createRenderer(): CertificateRenderer {
    switch (this.method) {
      case IssuingMethod.CERT_MANAGER:
        return renderCertManager(this, this.settings, () => this.sql?.plan());
      case IssuingMethod.CFSSL:
        return renderCfssl(this, this.settings, () => this.sql?.plan());
      case IssuingMethod.USER_PROVIDED:
        return renderUserProvided(this, this.settings, () => this.plan());
      default:
        return inputError(this, 'method', this.method, `one of ${Object.values(IssuingMethod).map((m) => `"${m}"`).join(', ')}`);
    }
  }

  /**
   * The runbook steps that bring this cluster's Secrets into being with the chosen method, before
   * any cluster that loads them is deployed (commands run from the output folder).
   * @jsii ignore
   */
  public issuanceSteps(): RunbookStep[] {
    return [...(this.sql?.preIssuanceSteps() ?? []), ...this.renderer.issuanceSteps(), ...(this.sql?.issuanceSteps() ?? []), ...(this.expiry?.runbookSteps() ?? [])];
  }

  /**
   * The Certificates cert-manager issues and renews for this cluster (none with cfssl or
   * user-provided Secrets), as declared so far: the cluster's, then those of TLS for MySQL clients.
   * @jsii ignore
   */
  public managedCertificates(): ManagedCertificate[] {
    return [...this.renderer.managedCertificates(), ...(this.sql?.managedCertificates() ?? [])];
  }

  /**
   * Watches the expiry of every certificate of the plan: a `PrometheusRule`
   * with, per certificate, an alert before it expires, one while cert-manager holds it not Ready,
   * and one while no series reports it; for the Secrets cert-manager does not manage, the values of
   * x509-certificate-exporter and its install step in the runbooks. Hand the watch to
   * `addMonitor({ expiryWatch })` to load the same rules into the operator's monitor. Calling it
   * again with the same options returns the same watch.
   */
  public watchExpiry(options: ExpiryWatchOptions = {}): ExpiryWatch {
    ({ options } = checkArguments(this, 'watchExpiry', { options }, { options: objectOf(EXPIRY_WATCH_OPTIONS_SHAPE, false) }));
    if (this.expiry === undefined) {
      this.expiry = new ExpiryWatch(this, 'ExpiryWatch', { ...options, certificates: this });
    } else if (!isDeepStrictEqual(options, this.expiryOptions)) {
      inputError(this, 'watchExpiry', options, `the options of its first call (${JSON.stringify(this.expiryOptions)}): a cluster's certificates have one expiry watch`);
    }
    this.expiryOptions = options;
    return this.expiry;
  }

  private addKind(kind: ClusterKind): void {
    if (this.kinds.has(kind)) {
      return;
    }
    clusterKind(kind);
    this.kinds.add(kind);
    this.renderer.addKind(kind);
  }
}

/** The Secrets handed out, per scope, per cdk8s-plus package given (`undefined`: the default), by name. */
const handedOut = new WeakMap<Construct, Map<CdkPlusPackage<unknown> | undefined, Map<string, unknown>>>();

/**
 * The Secret of the given name as an `ISecret` of the cdk8s-plus package given, or of
 * cdk8s-plus-27 (the design's default), made once per package and name under `scope` (a construct
 * of no output: it writes nothing). The default package's Secret has the id `Secret-<name>`
 * whatever was asked before it; each package given has a number by its first use. cdk8s-plus-27
 * is loaded here, on first use, so a synth that hands out no Secret does not pay for loading it.
 */
function importedSecret<S>(scope: Construct, name: string, plus?: CdkPlusPackage<S>): S {
  if (plus !== undefined && typeof (plus as Partial<CdkPlusPackage<S>>)?.Secret?.fromSecretName !== 'function') {
    inputError(scope, 'plus', describeType(plus), 'a cdk8s-plus package, any major from 27, as import * as kplus from \'cdk8s-plus-34\' gives it (with Secret.fromSecretName)');
  }
  const byPackage = handedOut.get(scope) ?? new Map<CdkPlusPackage<unknown> | undefined, Map<string, unknown>>();
  handedOut.set(scope, byPackage);
  const byName = byPackage.get(plus) ?? new Map<string, unknown>();
  byPackage.set(plus, byName);
  if (!byName.has(name)) {
    const pkg: CdkPlusPackage<unknown> = plus ?? require('cdk8s-plus-27');
    const given = [...byPackage.keys()].filter((p) => p !== undefined);
    const id = plus === undefined ? `Secret-${name}` : `Secret-${given.indexOf(plus) + 1}-${name}`;
    byName.set(name, pkg.Secret.fromSecretName(scope, id, name));
  }
  return byName.get(name) as S;
}
