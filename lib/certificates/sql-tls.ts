/**
 * The `SqlTls` construct: TLS between the SQL server and its MySQL clients. A CA of its own, the
 * SQL server's certificate for the names applications dial, the client certificate of the
 * operator's own MySQL clients (backup, restore), and one client certificate per application,
 * delivered to the application's namespace. The plan's `sqlTls` section states them all; each
 * issuing method renders them (`sql-tls-renderers.ts`).
 */
import { isDeepStrictEqual } from 'node:util';
import { Construct, IConstruct } from 'constructs';
import { SERVER_IP_ADDRESSES, USAGES } from '../model/catalog-certificates';
import { SQL_PORT_RELOAD, SQL_TLS } from '../model/catalog-sql-tls';
import { inputError } from '../model/errors';
import type { ManagedCertificate } from '../model/expiry';
import * as names from '../model/names';
import { Checked, ShapeOf, checkProps, declareShape, flag, withRules } from '../model/props';
import { isDnsLabel, requireCommonName, requireDnsLabel } from '../model/validate';
import type { RunbookStep } from '../documents/runbook';
import { CertificateSettings, IssuingMethod, TlsPlanSqlSecret, TlsPlanSqlTls } from '../plan/certificate-options';
import { EXTRA_NAMES_SHAPE } from '../plan/certificate-settings';
import { SqlRenderer, sqlRenderer } from './sql-tls-renderers';

/** What TLS for MySQL clients takes (the `tlsClient` prop of `TlsDatabaseCluster`). */
export interface SqlTlsOptions {
  /**
   * DNS names added to the SQL server's certificate after its service's names, such as the name of
   * a load balancer in front of it.
   * @default - none
   */
  readonly extraDnsNames?: string[];
  /**
   * IP addresses added after `127.0.0.1` and `::1`.
   * @default - none
   */
  readonly extraIpAddresses?: string[];
  /**
   * The operator's `disableClientAuthn`: the SQL server no longer asks for client certificates
   * (it is configured without `ssl-ca`), so any client may connect over TLS with a password alone.
   * @default false
   */
  readonly disableClientAuthn?: boolean;
  /**
   * The operator's `skipInternalClientCA`: the operator's own clients (backup, restore, the
   * initializer) connect without checking the SQL server's certificate.
   * @default false
   */
  readonly skipInternalClientCA?: boolean;
  /**
   * With cert-manager: the namespace cert-manager reads the Secrets of ClusterIssuers from (its
   * `--cluster-resource-namespace`, the namespace its chart is installed in). The SQL CA and its key
   * live there, and only there: the applications' Certificates, in their own namespaces, are signed
   * through the ClusterIssuer.
   * @default 'cert-manager'
   */
  readonly certManagerNamespace?: string;
  /**
   * A database user the rotation runbook logs in as, with a client certificate the library issues
   * for it (as `addSqlClient(reloadUser)` in the cluster's namespace), to run `ALTER INSTANCE RELOAD
   * TLS` on each SQL server pod: its MySQL port then takes a renewed certificate without a restart
   * (releases from v4.0.0). The database runbook ties the user to that certificate and grants it
   * `SUPER`, which the statement requires; whoever can read the certificate's Secret can act as
   * that user, so it is left out unless asked for.
   * @default - none: the SQL server restarts in every phase that changes its certificate
   */
  readonly reloadUser?: string;
}

/** One application that connects to the SQL server with a certificate of its own. */
export interface SqlClientOptions {
  /**
   * The application's namespace, where its Secret is written.
   * @default - the cluster's namespace
   */
  readonly namespace?: string;
  /**
   * The Common Name of its certificate, which `REQUIRE SUBJECT` ties a database user to: letters,
   * digits, `.`, `-` and `_`, which every MySQL-protocol server compares as written.
   * @default - the application's name
   */
  readonly commonName?: string;
}

/** An application's client certificate, as the application and the database need it. */
export interface SqlClient {
  /** The application's name. */
  readonly name: string;
  /** The namespace of its Secret. */
  readonly namespace: string;
  /** The Common Name of its certificate. */
  readonly commonName: string;
  /** Its Secret: `tls.crt`, `tls.key`, and in `ca.crt` the SQL CA, the trust bundle. */
  readonly secretName: string;
  /** The subject as the SQL server compares it in `REQUIRE SUBJECT`: `/CN=<common name>`. */
  readonly subject: string;
  /** The database user the runbook ties to the certificate: the application's name. */
  readonly user: string;
}

/**
 * {@link SqlTlsOptions} with every default applied, checked.
 * @jsii ignore
 */
export interface ResolvedSqlTlsOptions {
  /** DNS names added to the SQL server's certificate after its service's names; empty by default. */
  readonly extraDnsNames: readonly string[];
  /** IP addresses added after `127.0.0.1` and `::1`; empty by default. */
  readonly extraIpAddresses: readonly string[];
  /** The operator's `disableClientAuthn`; `false` by default. */
  readonly disableClientAuthn: boolean;
  /** The operator's `skipInternalClientCA`; `false` by default. */
  readonly skipInternalClientCA: boolean;
  /** The namespace cert-manager reads the Secrets of ClusterIssuers from, a DNS label; `cert-manager` by default. */
  readonly certManagerNamespace: string;
  /** The database user that reloads the MySQL port's certificate in rotations; none by default. */
  readonly reloadUser?: string;
}

/**
 * Props of {@link SqlTls}.
 * @jsii ignore
 */
export interface SqlTlsProps {
  /**
   * The options, resolved by {@link resolveSqlTlsOptions}.
   * @jsii ignore
   */
  readonly options: ResolvedSqlTlsOptions;
  /**
   * The cluster's certificate settings: its name, namespace, subject, keys and lifetimes.
   * @jsii ignore
   */
  readonly settings: CertificateSettings;
  /** How the certificates are issued. */
  readonly method: IssuingMethod;
  /**
   * The cluster DNS domain, when the server's names are issued in their fully qualified form too.
   * @default - none
   */
  readonly clusterDomain?: string;
}

/**
 * The shape of the options, for the constructs that take them as a prop, with their defaults: the
 * extra names DNS names and IP addresses, cert-manager's namespace a DNS label; across them, the
 * reload user one of the cluster's own that can log in with a certificate.
 */
export const SQL_TLS_OPTIONS_SHAPE = withRules({
  ...EXTRA_NAMES_SHAPE,
  disableClientAuthn: flag(false),
  skipInternalClientCA: flag(false),
  certManagerNamespace: { type: 'string', optional: true, rule: 'dnsLabel', default: SQL_TLS.certManagerNamespace },
  reloadUser: 'string?',
} satisfies ShapeOf<SqlTlsOptions>, [reloadUserRule]);

/** Refuses a reload user the SQL server has built in, one that cannot name a client certificate, or one beside no client authentication. */
function reloadUserRule(scope: IConstruct | string, options: SqlTlsOptions, at: string): void {
  const field = `${at}reloadUser`;
  if (options.reloadUser === undefined) {
    return;
  }
  requireOwnSqlUser(scope, field, options.reloadUser);
  if (!isSqlClientName(options.reloadUser)) {
    inputError(scope, field, options.reloadUser, `a DNS label of at most ${SQL_TLS.userNameMax} characters: the database user the runbook ties to the certificate the library issues for it`);
  }
  if (options.disableClientAuthn) {
    inputError(scope, field, options.reloadUser, `nothing with ${at}disableClientAuthn: the SQL server then asks for no client certificate, and a user tied to one could never log in`);
  }
}

/** The shape of {@link SqlClientOptions}. */
export const SQL_CLIENT_SHAPE = declareShape('TlsDatabaseCluster.addSqlClient', { namespace: 'string?', commonName: 'string?' } satisfies ShapeOf<SqlClientOptions>);

/** What an application's Common Name may hold: what `REQUIRE SUBJECT` compares as written on every server. */
const SQL_COMMON_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Checks the `tlsClient` options and applies their defaults; errors name `scope` and `tlsClient.<field>`. */
export function resolveSqlTlsOptions(scope: IConstruct, options: SqlTlsOptions): ResolvedSqlTlsOptions {
  return sqlTlsOptionsOf(checkProps(scope, options, SQL_TLS_OPTIONS_SHAPE, 'tlsClient.'));
}

/** The `tlsClient` options that {@link SQL_TLS_OPTIONS_SHAPE} checked and gave their defaults, as the SQL server's certificates take them. */
export function sqlTlsOptionsOf(options: Checked<SqlTlsOptions, typeof SQL_TLS_OPTIONS_SHAPE>): ResolvedSqlTlsOptions {
  return {
    extraDnsNames: options.extraDnsNames ?? [],
    extraIpAddresses: options.extraIpAddresses ?? [],
    disableClientAuthn: options.disableClientAuthn,
    skipInternalClientCA: options.skipInternalClientCA,
    certManagerNamespace: options.certManagerNamespace,
    ...(options.reloadUser !== undefined ? { reloadUser: options.reloadUser } : {}),
  };
}

/**
 * Throws when `user` is an account the SQL server has built in ({@link SQL_TLS}.builtInUsers): the
 * runbook ties each user the library issues a certificate for to it, and a built-in account would
 * lose its password logins (`root`'s every one), with `SUPER` granted to the reload user besides.
 */
export function requireOwnSqlUser(scope: IConstruct | string, field: string, user: string): void {
  if ((SQL_TLS.builtInUsers as readonly string[]).includes(user)) {
    inputError(scope, field, user, `a database user of its own, not ${SQL_TLS.builtInUsers.map((u) => `"${u}"`).join(' or ')}, which the SQL server has built in: `
      + 'the runbook ties the user to its certificate (ALTER USER … REQUIRE SUBJECT), which would lock every password login of that account out');
  }
}

/**
 * Whether a name can name an application of TLS for MySQL clients: a DNS label (its Secret's and
 * Common Name's) of at most {@link SQL_TLS}.userNameMax characters (the database user it is tied to).
 */
export function isSqlClientName(name: string): boolean {
  return isDnsLabel(name) && name.length <= SQL_TLS.userNameMax;
}

/**
 * TLS for the SQL server's MySQL clients. A CA of its own signs the SQL server's certificate, the
 * operator's client certificate and every application's, so that no application certificate can
 * pass as a component of the cluster (the components trust the cluster CA only) and the cluster
 * CA never signs a certificate that leaves the cluster's namespace. The server checks clients
 * against this CA (`ca.crt` of its Secret); applications check the server against it.
 *
 * Made by `TlsDatabaseCluster`'s `tlsClient`, from settings Python, Java and Go cannot pass: TypeScript only.
 * @jsii ignore
 */
export class SqlTls extends Construct {
  /** The Secret the operator mounts on the SQL server pods. */
  public readonly serverSecretName: string;
  /** The Secret of the operator's own MySQL clients (backup, restore). */
  public readonly operatorClientSecretName: string;
  /** The names on the SQL server's certificate that applications dial. */
  public readonly hostNames: string[];
  /**
   * The options, resolved.
   * @jsii ignore
   */
  public readonly options: ResolvedSqlTlsOptions;
  private readonly props: SqlTlsProps;
  private readonly server: TlsPlanSqlSecret;
  private readonly operatorClient: TlsPlanSqlSecret;
  private readonly clients = new Map<string, { readonly client: SqlClient; readonly options: SqlClientOptions; readonly secret: TlsPlanSqlSecret }>();
  private readonly renderer: SqlRenderer;

  constructor(scope: Construct, id: string, props: SqlTlsProps) {
    super(scope, id);
    const { settings, options } = props;
    const { clusterName, namespace } = settings;
    this.props = props;
    this.options = options;
    this.serverSecretName = names.sqlServerSecretName(clusterName);
    this.operatorClientSecretName = names.sqlOperatorClientSecretName(clusterName);
    this.hostNames = [...names.sqlServerHostNames(clusterName, namespace, props.clusterDomain), ...options.extraDnsNames];
    this.server = {
      name: this.serverSecretName, namespace, role: 'server', commonName: names.serviceName(clusterName, 'sqlserver'),
      usages: [...USAGES.server], dnsNames: [...this.hostNames], ipAddresses: [...SERVER_IP_ADDRESSES, ...options.extraIpAddresses],
    };
    this.operatorClient = {
      name: this.operatorClientSecretName, namespace, role: 'operator-client', commonName: names.sqlOperatorClientCommonName(clusterName), usages: [...USAGES.client],
    };
    this.renderer = sqlRenderer(this, props.method, settings, options.certManagerNamespace);
    this.renderer.addSecret('Server', this.server);
    this.renderer.addSecret('OperatorClient', this.operatorClient);
  }

  /**
   * Declares an application's client certificate: a Secret in its namespace with its key, its
   * certificate and the trust bundle (`ca.crt`, the SQL CA), signed without the CA's key leaving
   * where it lives. Declaring the same application again with the same options returns it.
   * Errors name `scope`, the construct the application is declared on.
   */
  public addClient(scope: IConstruct, name: string, options: SqlClientOptions = {}): SqlClient {
    if (name === this.options.reloadUser) {
      inputError(scope, 'addSqlClient.name', name, `a name other than tlsClient.reloadUser's: that user is granted ${SQL_PORT_RELOAD.privilege}, and an application must not log in as it`);
    }
    return this.declareClient(scope, name, options);
  }

  /**
   * Declares the client certificate of `tlsClient.reloadUser`, in the cluster's namespace: the user
   * the rotation runbook reloads the MySQL port as. Nothing without a reload user.
   */
  public addReloadClient(scope: IConstruct): void {
    if (this.options.reloadUser !== undefined) {
      this.declareClient(scope, this.options.reloadUser, {});
    }
  }

  /** Declares a client certificate, an application's or the reload user's (see {@link addClient}). */
  private declareClient(scope: IConstruct, name: string, options: SqlClientOptions): SqlClient {
    const field = `addSqlClient("${name}")`;
    checkProps(scope, options, SQL_CLIENT_SHAPE, `${field}.options.`);
    requireDnsLabel(scope, 'addSqlClient.name', name);
    requireOwnSqlUser(scope, 'addSqlClient.name', name);
    if (name.length > SQL_TLS.userNameMax) {
      inputError(scope, 'addSqlClient.name', name, `at most ${SQL_TLS.userNameMax} characters: it is the database user the runbook ties to the certificate, and MySQL and the SQL server allow no longer user names`);
    }
    const existing = this.clients.get(name);
    if (existing !== undefined) {
      if (!isDeepStrictEqual(existing.options, options)) {
        inputError(scope, field, options, `the options it was first declared with, ${JSON.stringify(existing.options)}`);
      }
      return existing.client;
    }
    if (this.options.disableClientAuthn) {
      inputError(scope, field, name, 'no application certificate with tlsClient.disableClientAuthn: the SQL server then asks for none, and a user tied to one could never log in');
    }
    const commonName = requireCommonName(scope, `${field}.options.commonName`, options.commonName ?? name);
    if (!SQL_COMMON_NAME.test(commonName)) {
      inputError(scope, `${field}.options.commonName`, commonName, 'letters, digits, ".", "-" and "_", starting with a letter or digit: REQUIRE SUBJECT compares the subject as each server writes it');
    }
    const taken = this.secrets().find((s) => s.commonName === commonName);
    if (taken !== undefined) {
      inputError(scope, `${field}.options.commonName`, commonName,
        `a Common Name no other certificate of the SQL server carries (the Secret ${taken.namespace}/${taken.name} has it): REQUIRE SUBJECT could not tell them apart`);
    }
    const namespace = options.namespace ?? this.props.settings.namespace;
    requireDnsLabel(scope, `${field}.options.namespace`, namespace);
    if (this.props.method === IssuingMethod.CERT_MANAGER && namespace === this.options.certManagerNamespace) {
      inputError(scope, `${field}.options.namespace`, namespace, `a namespace other than "${namespace}", where the SQL CA's key is: `
        + 'whoever reads the application\'s Secret there can read the key that signs every application\'s certificate');
    }
    const { clusterName } = this.props.settings;
    const client: SqlClient = {
      name, namespace, commonName, user: name,
      secretName: names.sqlApplicationSecretName(this.props.settings.namespace, clusterName, name),
      subject: names.sqlSubject(commonName),
    };
    const secret: TlsPlanSqlSecret = {
      name: client.secretName, namespace, role: 'application', application: name, commonName, usages: [...USAGES.client],
    };
    this.clients.set(name, { client, options, secret });
    this.renderer.addSecret(`App-${name}`, secret);
    return client;
  }

  /** The client certificate of `reloadUser`, which the rotation runbook reloads the MySQL port with; undefined without one. */
  public get reloadClient(): SqlClient | undefined {
    return this.options.reloadUser === undefined ? undefined : this.clients.get(this.options.reloadUser)?.client;
  }

  /** The applications declared, in order. */
  public get applications(): SqlClient[] {
    return [...this.clients.values()].map((c) => c.client);
  }

  /**
   * The plan's `sqlTls` section.
   * @jsii ignore
   */
  public plan(): TlsPlanSqlTls {
    const { settings, method } = this.props;
    return {
      ca: {
        name: names.sqlCaName(settings.namespace, settings.clusterName),
        secretNamespace: method === IssuingMethod.CERT_MANAGER ? this.options.certManagerNamespace : undefined,
      },
      disableClientAuthn: this.options.disableClientAuthn,
      skipInternalClientCA: this.options.skipInternalClientCA,
      secrets: this.secrets(),
    };
  }

  /**
   * The runbook steps that come before the cluster's issuing steps: the applications' namespaces.
   * @jsii ignore
   */
  public preIssuanceSteps(): RunbookStep[] {
    const elsewhere = [...new Set(this.applications.map((a) => a.namespace))].filter((n) => n !== this.props.settings.namespace);
    return elsewhere.length === 0 ? [] : [{
      title: 'The applications\' namespaces',
      text: [`The certificates of the applications are issued into their own namespaces, which must exist first: ${elsewhere.map((n) => `\`${n}\``).join(', ')}. This makes any that does not exist yet:`],
      commands: elsewhere.map((n) => `kubectl create namespace ${n} --dry-run=client -o json | kubectl apply -f -`),
    }];
  }

  /**
   * The runbook steps that issue these certificates, after the cluster's own.
   * @jsii ignore
   */
  public issuanceSteps(): RunbookStep[] {
    return this.renderer.issuanceSteps(this.secrets());
  }

  /**
   * The Certificates cert-manager issues and renews for TLS for MySQL clients (none with the other methods), as declared so far.
   * @jsii ignore
   */
  public managedCertificates(): ManagedCertificate[] {
    return this.renderer.managedCertificates();
  }

  /** Every Secret of TLS for MySQL clients: the server's, the operator's client, then each application's. */
  private secrets(): TlsPlanSqlSecret[] {
    return [this.server, this.operatorClient, ...[...this.clients.values()].map((c) => c.secret)];
  }
}
