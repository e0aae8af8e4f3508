/**
 * The `SqlTls` construct: TLS between the SQL server and its MySQL clients. A CA of its own, the
 * SQL server's certificate for the names applications dial, the client certificate of the
 * operator's own MySQL clients (backup, restore), and one client certificate per application,
 * delivered to the application's namespace. The plan's `sqlTls` section states them all; each
 * issuing method renders them (cert-manager objects here, cfssl requests and script steps, or the
 * list of Secrets to create).
 */
import { isDeepStrictEqual } from 'node:util';
import { JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { Certificate } from '../../imports/certificates-cert-manager.io';
import { ClusterIssuer } from '../../imports/clusterissuers-cert-manager.io';
import { Issuer } from '../../imports/issuers-cert-manager.io';
import { SERVER_IP_ADDRESSES, SQL_TLS, USAGES } from '../model/catalog';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import { checkProps, ShapeOf } from '../model/props';
import { requireCommonName, requireDnsLabel, resolveNamespace } from '../model/validate';
import { OutputFile } from '../synth/output-file';
import type { RunbookStep } from '../documents/runbook';
import { parseDuration } from '../model/duration';
import type { ManagedCertificate } from '../model/expiry';
import { CertificateSettings, IssuingMethod, TlsPlanSqlSecret, TlsPlanSqlTls } from './certificate-options';
import { checkExtraNames } from './certificate-settings';
import { CERT_MANAGER_GROUP, privateKeySpec, toUsage } from './cert-manager';
import { cfsslKey, json } from './cfssl';
import { SQL_FOLDER, sqlBare } from './cfssl-files';

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
}

/** One application that connects to the SQL server with a certificate of its own. */
export interface SqlClientOptions {
  /**
   * The application's namespace, where its Secret is written.
   * @default - the cluster's namespace
   */
  readonly namespace?: string;
  /**
   * The Common Name of its certificate, which `REQUIRE SUBJECT` ties a database user to.
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
}

/** Props of {@link SqlTls}. */
export interface SqlTlsProps extends SqlTlsOptions {
  /** The cluster's certificates: its name, namespace, method and settings. */
  readonly settings: CertificateSettings;
  /** How the certificates are issued. */
  readonly method: IssuingMethod;
  /**
   * The cluster DNS domain, when the server's names are issued in their fully qualified form too.
   * @default - none
   */
  readonly clusterDomain?: string;
}

const SQL_TLS_SHAPE = {
  extraDnsNames: 'strings?',
  extraIpAddresses: 'strings?',
  disableClientAuthn: 'boolean?',
  skipInternalClientCA: 'boolean?',
  certManagerNamespace: 'string?',
} satisfies ShapeOf<SqlTlsOptions>;

const SQL_CLIENT_SHAPE = { namespace: 'string?', commonName: 'string?' } satisfies ShapeOf<SqlClientOptions>;

/** The shape of the options, for the constructs that take them as a prop. */
export const SQL_TLS_OPTIONS_SHAPE = SQL_TLS_SHAPE;

/**
 * TLS for the SQL server's MySQL clients. A CA of its own signs the SQL server's certificate, the
 * operator's client certificate and every application's, so that no application certificate can
 * pass as a component of the cluster (the components trust the cluster CA only) and the cluster
 * CA never signs a certificate that leaves the cluster's namespace. The server checks clients
 * against this CA (`ca.crt` of its Secret); applications check the server against it.
 */
export class SqlTls extends Construct {
  /** The Secret the operator mounts on the SQL server pods. */
  public readonly serverSecretName: string;
  /** The Secret of the operator's own MySQL clients (backup, restore). */
  public readonly operatorClientSecretName: string;
  /** The names on the SQL server's certificate that applications dial. */
  public readonly hostNames: readonly string[];
  /** The options, as given. */
  public readonly options: SqlTlsOptions;
  private readonly props: SqlTlsProps;
  private readonly certManagerNamespace: string;
  private readonly clients = new Map<string, SqlClient>();
  private readonly clientOptions = new Map<string, SqlClientOptions>();
  private readonly renderer: SqlRenderer;

  constructor(scope: Construct, id: string, props: SqlTlsProps) {
    super(scope, id);
    const { settings, method, clusterDomain, ...options } = props;
    checkProps(this, options, SQL_TLS_SHAPE, 'tlsClient.');
    checkExtraNames(this, 'tlsClient', { extraDnsNames: options.extraDnsNames, extraIpAddresses: options.extraIpAddresses });
    this.certManagerNamespace = options.certManagerNamespace ?? SQL_TLS.certManagerNamespace;
    requireDnsLabel(this, 'tlsClient.certManagerNamespace', this.certManagerNamespace);
    this.props = props;
    this.options = options;
    this.serverSecretName = names.sqlServerSecretName(settings.clusterName);
    this.operatorClientSecretName = names.sqlOperatorClientSecretName(settings.clusterName);
    this.hostNames = [...names.sqlServerHostNames(settings.clusterName, settings.namespace, clusterDomain), ...(options.extraDnsNames ?? [])];
    this.renderer = sqlRenderer(this, method, settings, this.certManagerNamespace);
    this.renderer.addSecret(this.secrets()[0]);
    this.renderer.addSecret(this.secrets()[1]);
  }

  /**
   * Declares an application's client certificate: a Secret in its namespace with its key, its
   * certificate and the trust bundle (`ca.crt`, the SQL CA), signed without the CA's key leaving
   * where it lives. Declaring the same application again with the same options returns it.
   */
  public addClient(name: string, options: SqlClientOptions = {}): SqlClient {
    checkProps(this, options, SQL_CLIENT_SHAPE, `sql client ${name}: `);
    requireDnsLabel(this, 'sql client name', name);
    const existing = this.clients.get(name);
    if (existing !== undefined) {
      if (!isDeepStrictEqual(this.clientOptions.get(name), options)) {
        inputError(this, `sql client ${name}`, options, `the options it was first declared with, ${JSON.stringify(this.clientOptions.get(name))}`);
      }
      return existing;
    }
    const commonName = requireCommonName(this, `sql client ${name}.commonName`, options.commonName ?? name);
    const taken = this.secrets().find((s) => s.commonName === commonName);
    if (taken !== undefined) {
      inputError(this, `sql client ${name}.commonName`, commonName,
        `a Common Name no other certificate of the SQL server carries (the Secret ${taken.namespace}/${taken.name} has it): REQUIRE SUBJECT could not tell them apart`);
    }
    const client: SqlClient = {
      name,
      namespace: resolveNamespace(this, options.namespace ?? this.props.settings.namespace),
      commonName,
      secretName: names.sqlApplicationSecretName(this.props.settings.clusterName, name),
      subject: `/CN=${commonName}`,
    };
    this.clients.set(name, client);
    this.clientOptions.set(name, options);
    this.renderer.addSecret(this.secrets().at(-1)!);
    return client;
  }

  /** The applications declared, in order. */
  public get applications(): SqlClient[] {
    return [...this.clients.values()];
  }

  /** The plan's `sqlTls` section. */
  public plan(): TlsPlanSqlTls {
    const { settings, method } = this.props;
    return {
      ca: {
        name: names.sqlCaName(settings.namespace, settings.clusterName),
        secretNamespace: method === IssuingMethod.CERT_MANAGER ? this.certManagerNamespace : undefined,
      },
      disableClientAuthn: this.options.disableClientAuthn ?? false,
      skipInternalClientCA: this.options.skipInternalClientCA ?? false,
      secrets: this.secrets(),
    };
  }

  /** The runbook steps that issue these certificates, after the cluster's own. */
  public issuanceSteps(): RunbookStep[] {
    return this.renderer.issuanceSteps(this.secrets());
  }

  /** The Certificates cert-manager issues and renews for TLS for MySQL clients (none with the other methods), as declared so far. */
  public managedCertificates(): ManagedCertificate[] {
    return this.renderer.managedCertificates();
  }

  /** Every Secret of TLS for MySQL clients: the server's, the operator's client, then each application's. */
  private secrets(): TlsPlanSqlSecret[] {
    const { clusterName, namespace } = this.props.settings;
    return [
      {
        name: this.serverSecretName, namespace, role: 'server', commonName: names.serviceName(clusterName, 'sqlserver'),
        usages: [...USAGES.server], dnsNames: [...this.hostNames], ipAddresses: [...SERVER_IP_ADDRESSES, ...(this.options.extraIpAddresses ?? [])],
      },
      { name: this.operatorClientSecretName, namespace, role: 'operator-client', commonName: names.sqlOperatorClientCommonName(clusterName), usages: [...USAGES.client] },
      ...this.applications.map((c) => ({
        name: c.secretName, namespace: c.namespace, role: 'application' as const, application: c.name, commonName: c.commonName, usages: [...USAGES.client],
      })),
    ];
  }
}

/** What each issuing method does for TLS for MySQL clients. */
interface SqlRenderer {
  /** Called once per Secret, in the order of the plan. */
  addSecret(secret: TlsPlanSqlSecret): void;
  /** The runbook steps that issue them. */
  issuanceSteps(secrets: readonly TlsPlanSqlSecret[]): RunbookStep[];
  /** The Certificates cert-manager issues and renews for them: none but with cert-manager. */
  managedCertificates(): ManagedCertificate[];
}

function sqlRenderer(scope: Construct, method: IssuingMethod, settings: CertificateSettings, certManagerNamespace: string): SqlRenderer {
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
 * ClusterIssuer, so that the CA's key stays in cert-manager's namespace.
 */
function renderSqlCertManager(scope: Construct, settings: CertificateSettings, certManagerNamespace: string): SqlRenderer {
  const { clusterName, namespace } = settings;
  const labels = { [names.CERTIFICATES_LABEL]: clusterName };
  const caName = names.sqlCaName(namespace, clusterName);
  const selfSigned = new Issuer(scope, 'SelfSignedIssuer', {
    metadata: { name: names.sqlCaSelfSignedIssuerName(namespace, clusterName), namespace: certManagerNamespace, labels },
    spec: { selfSigned: {} },
  });
  const managed: ManagedCertificate[] = [];
  const manage = (certificate: Certificate, secretNamespace: string, ca: boolean) => {
    const seconds = (duration: string) => parseDuration(duration)! / 1000;
    managed.push({
      certificateName: certificate.name, namespace: secretNamespace, secretName: certificate.name, ca, trust: 'sql',
      durationSeconds: seconds(ca ? settings.caDuration : settings.duration), renewBeforeSeconds: seconds(ca ? settings.caRenewBefore : settings.renewBefore),
    });
  };
  const ca = new Certificate(scope, 'Ca', {
    metadata: { name: caName, namespace: certManagerNamespace, labels },
    spec: {
      secretName: caName,
      commonName: caName,
      subject: { organizations: [settings.subject.organization] },
      isCa: true,
      duration: settings.caDuration,
      renewBefore: settings.caRenewBefore,
      privateKey: privateKeySpec(settings.caPrivateKey),
      issuerRef: { name: selfSigned.name, kind: Issuer.GVK.kind, group: CERT_MANAGER_GROUP },
    },
  });
  ca.node.addDependency(selfSigned);
  manage(ca, certManagerNamespace, true);
  const issuer = new ClusterIssuer(scope, 'Issuer', { metadata: { name: caName, labels }, spec: { ca: { secretName: caName } } });
  // Cluster-wide: the namespace cdk8s gives every object of a chart does not belong on it.
  issuer.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  issuer.node.addDependency(ca);
  return {
    addSecret(secret) {
      const leaf = new Certificate(scope, `${secret.role}-${secret.namespace}-${secret.name}`, {
        metadata: { name: secret.name, namespace: secret.namespace, labels },
        spec: {
          secretName: secret.name,
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
      manage(leaf, secret.namespace, false);
    },
    issuanceSteps(secrets) {
      // The cluster's own step applies these objects (they carry its label) and waits in its namespace.
      const selector = names.certificatesSelector(clusterName);
      const elsewhere = [...new Set([certManagerNamespace, ...secrets.map((s) => s.namespace)])].filter((n) => n !== namespace);
      return [{
        title: 'Wait for the certificates for MySQL clients',
        text: [
          `The SQL CA and its key live in namespace \`${certManagerNamespace}\`, where cert-manager reads the Secrets of ClusterIssuers; every other certificate for MySQL clients is signed through the ClusterIssuer \`${caName}\`, each in its own namespace, which must exist before the step above applies it. Wait for those outside \`${namespace}\`:`,
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
  const folder = `${layout.cfsslFolder(settings.namespace, settings.clusterName)}/${SQL_FOLDER}`;
  const file = (id: string, name: string, content: unknown) => new OutputFile(scope, id, { path: `${folder}/${name}`, content: json(content) });
  const caName = names.sqlCaName(settings.namespace, settings.clusterName);
  file('CaCsr', 'ca-csr.json', {
    CN: caName, CA: { expiry: settings.caDuration }, key: cfsslKey(settings.caPrivateKey), names: [{ O: settings.subject.organization }],
  });
  return {
    addSecret(secret) {
      file(`Csr-${secret.role}-${secret.namespace}-${secret.name}`, `${sqlBare(secret)}.json`, {
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
