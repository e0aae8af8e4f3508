/**
 * TLS between the SQL server and its MySQL clients as data: the names of the SQL CA's objects and
 * Secrets, the limits on an application's user, and how the MySQL port takes a new certificate.
 * Apart from the components' own TLS (`catalog.ts`): another CA, other Secrets, another port.
 */

/**
 * TLS between the SQL server and its MySQL clients (the applications): the facts of the real
 * operator's `spec.tidb.tlsClient` (release 1.6, `pkg/util/util.go` and the tidb member manager),
 * in this project's names, and the choices of this library around them.
 */
export const SQL_TLS = {
  /**
   * Suffix of the Secret the operator mounts on every SQL server pod: its certificate and key for
   * MySQL clients, and in `ca.crt` the CA the server checks client certificates against
   * (`${cluster_name}-<suffix>`).
   */
  serverSecretSuffix: 'sqlserver-server-secret',
  /**
   * Suffix of the client Secret of the operator's own MySQL clients (backup, restore, the
   * initializer), which `tlsClientSecretName` on a backup or restore may override.
   */
  clientSecretSuffix: 'sqlserver-client-secret',
  /** Suffix of the Common Name of the operator's client certificate (`${cluster_name}-<suffix>`). */
  operatorCommonNameSuffix: 'sql-operator',
  /**
   * Suffix of the SQL CA's objects (Certificate, Secret and ClusterIssuer with cert-manager) and of
   * its Common Name: a CA of its own, so that no application certificate is signed by the CA the
   * components trust.
   */
  caSuffix: 'sql-ca',
  /** Suffix of the self-signed Issuer that signs the SQL CA, after the CA's name. */
  selfSignedSuffix: 'selfsigned',
  /** Suffix of an application's client Secret. */
  applicationSecretSuffix: 'sql-client',
  /** The namespace where cert-manager reads the Secrets of ClusterIssuers, as its chart installs it. */
  certManagerNamespace: 'cert-manager',
  /** The longest database user name MySQL and the SQL server take: an application's name is its user's. */
  userNameMax: 32,
  /**
   * The accounts MySQL-protocol servers have built in, of those a DNS label can name: TiDB's
   * `root@%`, MySQL's and MariaDB's `root@localhost`, and MariaDB's `mysql@localhost` (its
   * `mariadb-install-db` makes it, for the unix-socket login; the `mysql.*` and `mariadb.sys`
   * accounts hold a '.'). The runbook ties a user it is given to a certificate (`REQUIRE SUBJECT`),
   * which would lock the password logins of a built-in account out.
   */
  builtInUsers: ['root', 'mysql'],
  /** Where the application-TLS guide's example (docs/how-to/application-tls.md) mounts an application's Secret in its pods. */
  mountPath: '/var/run/secrets/sql-tls',
} as const;

/**
 * The SQL server's MySQL port keeps the certificate it loaded at start until `ALTER INSTANCE
 * RELOAD TLS` or a restart, even in releases whose cluster side re-reads its own (tidb#19976).
 * The statement reads the certificate, the key and the CA again from the files the server started
 * with; connections made before it keep theirs. It needs the `SUPER` privilege.
 */
export const SQL_PORT_RELOAD = {
  /** The statement that has the MySQL port load its certificate again. */
  statement: 'ALTER INSTANCE RELOAD TLS',
  /** Where the port's keeping its certificate is stated. */
  source: 'tidb#19976',
  /** The releases that take the statement. */
  versions: '>=4.0.0',
  /** Where the statement comes from (and its reading of the same files). */
  statementSource: 'tidb#14749',
  /** The privilege the SQL server checks before it runs the statement. */
  privilege: 'SUPER',
} as const;
