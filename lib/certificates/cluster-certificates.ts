/**
 * The `ClusterCertificates` construct: one CA per cluster name and namespace, the server
 * certificates the cluster constructs add, the plan (`tls-plan.json`), and the renderer of the
 * chosen issuing method.
 */
import { isDeepStrictEqual } from 'node:util';
import type * as kplus from 'cdk8s-plus-27';
import type { CdkPlusPackage } from '../model/secret-ref';
import { Construct, IConstruct } from 'constructs';
import { TlsEnablementPhase, nextEnablementPhase } from '../model/enablement';
import { COMPONENT_TOKENS, ClusterKind, ComponentToken, clusterKind, component, isComponentToken } from '../model/catalog';
import { SERVER_IP_ADDRESSES } from '../model/catalog-certificates';
import { CertificateSettings, IssuingMethod, ResolvedIssuerReference, ServerCertificateOptions, ServerCertificatePlan, TlsPlan } from '../plan/certificate-options';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import { OutputFile } from '../app/output-file';
import { SERVER_OPTIONS_SHAPE, checkExtraNames, checkSecretNames, resolveKeys, resolveSubject, resolveValidity } from '../plan/certificate-settings';
import { EXPIRY_WATCH_OPTIONS_SHAPE, ExpiryWatch, ExpiryWatchOptions, IWatchedCertificates } from './expiry-watch';
import { ResolvedSqlTlsOptions, SqlTls } from './sql-tls';
import type { ExternalTlsSecret, ManagedCertificate } from '../model/expiry';
import type { CertificateRenderer } from './renderer';
import { issuingRenderer } from './issuing-method';
import type { RunbookStep } from '../documents/runbook';
import { rotationRunbook } from '../documents/rotation-runbook';
import { CLUSTER_CERTIFICATES_SHAPE, ClusterCertificatesProps } from './cluster-certificates-props';
import { importedSecret } from './imported-secret';
import { rotationRunbookInput } from './rotation-plan';
import { clusterPlan } from './cluster-plan';
import { registerCertificates } from '../app/registry';
import { checkArguments, checkProps, constructOf, isConstruct, objectOf, oneOf } from '../model/props';
import { resolveIssuerRef } from '../plan/issuer-ref';
import {
  ComponentReload, ResolvedRotation, RotationKind, componentReload, componentRestartValue, caObjectsInUse, resolveRotations, signingCaObject,
} from '../plan/rotation';
import { requireRelease } from '../model/versions';
import { requireDistinctSubjects } from '../plan/subjects';
import { ResolvedSpan, resolveSpan } from '../model/span';
import { requireSpanSettings } from './intermediate';
import { TrustedObject, clusterKey, loadableByCluster } from '../model/trust';
import { clusterTrust } from '../model/trust-objects';
import { grantClusterTrust } from '../model/trust-grants';
import { DNS_SUBDOMAIN_MAX } from '../model/limits';
import { claimCluster } from '../app/cluster-claims';
import { oncePerPass } from '../app/app-objects';
import { requireDerivedLabels, requireDnsLabel, resolveNamespace } from '../model/validate';

/** A component token, as a method's argument. */
const TOKEN = oneOf(COMPONENT_TOKENS, false);

/** A cluster kind, as a method's argument. */
const KIND = oneOf(Object.values(ClusterKind), false);

/** What {@link ClusterCertificates.plan} keeps for a synth's pass. */
const PLAN = Symbol('plan');

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
    const namespace = resolveNamespace(this, props.namespace);
    // The shape's defaults: the cluster name, cert-manager.
    const commonName = props.commonName!;

    this.clusterName = props.clusterName;
    this.namespace = namespace;
    claimCluster(this, namespace, props.clusterName);
    this.commonName = commonName;
    this.method = props.method!;
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
    this.renderer = issuingRenderer(this, this.method, { settings: this.settings, sqlPlan: () => this.sql?.plan(), plan: () => this.plan() });
    new OutputFile(this, 'Plan', { path: layout.tlsPlanPath(namespace, props.clusterName), content: { render: () => `${JSON.stringify(this.plan(), undefined, 2)}\n` } });
    for (const token of props.components ?? []) {
      this.addComponent(token);
    }
    if (this.rotation !== undefined) {
      new OutputFile(this, 'RotationRunbook', {
        path: layout.rotationRunbookPath(namespace, props.clusterName),
        content: { render: () => rotationRunbook(rotationRunbookInput(this, this.rotation!, this.drainerName())) },
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
    // Read by the plan's file, the rules, the runbooks and the expiry watch: made once per synth.
    return oncePerPass(this, PLAN, () => clusterPlan(this));
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

  /** The phase of the TLS enablement declared by the database cluster, when one is (see {@link declareEnablement}). */
  public get enablement(): TlsEnablementPhase | undefined {
    return this.enablementPhase;
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

  /** The drainer's name, when the drainer's certificate is planned. */
  private drainerName(): string | undefined {
    const drainer = this.servers.get('drainer');
    return drainer && names.drainerName(this.clusterName, drainer.options.releaseName!, drainer.options.drainerName);
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
