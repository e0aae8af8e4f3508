/**
 * Each component's object in the `DatabaseCluster` spec, from its props: the components the
 * construct can run (the catalog's rows with a `databaseSpec`), and the functions that check a
 * component's props and write its object, its allowed Common Names set in its configuration.
 */
import type { IConstruct } from 'constructs';
import { COMPONENTS, ComponentEntry, component } from '../model/catalog';
import { otherCommonNames } from '../model/validate';
import { CLIENT_SECRET_MOUNTING } from '../model/catalog-pods';
import { NULL_IN_CONFIG, firstNullPath, keepsConfigAsToml } from '../model/config-documents';
import { describeType, inputError } from '../model/errors';
import { quantityOf } from '../model/quantity';
import {
  AllowedCommonNamesProps, ColumnarProps, DatabaseComponentProps, FailoverComponentProps, SqlServerProps, StorageComponentProps,
} from './database-component-props';
import type { ResolvedEnablement } from './enablement';
import { compact } from './operator';

/** Every field any component's props may have, for code that handles components alike. */
export type ComponentPropsUnion = DatabaseComponentProps & Partial<FailoverComponentProps & StorageComponentProps & ColumnarProps
  & SqlServerProps & AllowedCommonNamesProps>;

/** The components the construct runs, in the order of the specification's table. */
export type OperatorComponent = 'coordinator' | 'store' | 'sqlserver' | 'pump' | 'changefeed' | 'columnar';

/** The components the construct can run, with the fields each takes, from the catalog. */
export const DATABASE_COMPONENTS = COMPONENTS.filter((c) => c.databaseSpec !== undefined) as (ComponentEntry & {
  readonly token: OperatorComponent; readonly databaseSpec: NonNullable<ComponentEntry['databaseSpec']>;
})[];

/** What a component's object is made from besides its props: the cluster's settings, resolved. */
export interface DatabaseSpecContext extends IConstruct {
  /** The Common Name every component accepts. */
  readonly commonName: string;
  /** Whether the cluster runs with TLS in this synth. */
  readonly tlsEnabled: boolean;
  /** Whether the client certificate set is mounted in the coordinator and store pods. */
  readonly mountClusterClientSecret: boolean;
  /** The Secrets the changefeed reaches its sinks with. */
  readonly sinkTlsSecretNames: readonly string[];
  /** The TLS enablement declared, when one is. */
  readonly enablement?: ResolvedEnablement;
  /** TLS for MySQL clients, when it is on: the SQL server's `tlsClient` options. */
  readonly sqlTls?: { readonly options: { readonly disableClientAuthn?: boolean; readonly skipInternalClientCA?: boolean } };
}

/** The catalog's settings of a component's object in the `DatabaseCluster` spec. */
export function databaseSpecOf(token: OperatorComponent): (typeof DATABASE_COMPONENTS)[number]['databaseSpec'] {
  return DATABASE_COMPONENTS.find((c) => c.token === token)!.databaseSpec;
}

/**
 * A component's object in the `DatabaseCluster` spec, from its props as {@link componentShape}
 * checked them and gave their defaults: its image, pods, storage, allowed Common Names and the
 * fields of its TLS, at the catalog's paths (the restart annotation of a rotation is the
 * construct's). Throws at the cluster's path for a configuration that sets what the construct sets.
 */
export function componentSpec(cluster: DatabaseSpecContext, token: OperatorComponent, part: ComponentPropsUnion): Record<string, unknown> {
  const shape = databaseSpecOf(token);
  const check = component(token).commonNameCheck!;
  // Each name checked by the shape; the certificates' own comes first, once.
  const extra = check.singleValue ? [] : otherCommonNames(part.extraAllowedCommonNames, cluster.commonName);
  // The shape's defaults: a claim or a request of the catalog's size.
  const claims = part.storageClaims!;
  const nullAt = keepsConfigAsToml(component(token)) ? firstNullPath(part.config, `${token}.config`) : undefined;
  if (nullAt !== undefined) {
    inputError(cluster, nullAt, null, NULL_IN_CONFIG);
  }
  const config = configOf(cluster, token, part.config, [cluster.commonName, ...extra]);
  if (shape.storage === 'claims' && (!Array.isArray(claims) || claims.length === 0)) {
    inputError(cluster, `${token}.storageClaims`, part.storageClaims, 'at least one storage claim');
  }
  return {
    baseImage: part.baseImage,
    maxFailoverCount: shape.failover ? part.maxFailoverCount : undefined,
    // Checked in every phase, even where the enablement writes one coordinator member instead.
    replicas: token === 'coordinator' && cluster.enablement?.state.singleCoordinator ? 1 : part.replicas,
    requests: shape.storage === 'requests' ? { storage: quantityOf(part.storage!) } : undefined,
    storageClaims: shape.storage === 'claims'
      ? claims.map((c) => ({ storageClassName: c.storageClassName, resources: { requests: { storage: quantityOf(c.storage) } } }))
      : undefined,
    service: token === 'sqlserver' ? { type: part.serviceType } : undefined,
    tlsClient: token === 'sqlserver' && cluster.sqlTls !== undefined ? compact({
      enabled: true,
      disableClientAuthn: cluster.sqlTls.options.disableClientAuthn || undefined,
      skipInternalClientCA: cluster.sqlTls.options.skipInternalClientCA || undefined,
    }) : undefined,
    // A cluster in plain text gets its allowed Common Names and the client Secret's mount with the flip, which rolls every pod anyway.
    config: cluster.tlsEnabled ? config : part.config,
    mountClusterClientSecret: CLIENT_SECRET_MOUNTING.includes(token) && cluster.tlsEnabled ? cluster.mountClusterClientSecret : undefined,
    evictLeaderTimeout: token === 'store' && cluster.enablement?.state.lowEvictionTimeout ? cluster.enablement.evictLeaderTimeout : undefined,
    tlsClientSecretNames: token === 'changefeed' && cluster.sinkTlsSecretNames.length > 0 ? cluster.sinkTlsSecretNames : undefined,
  };
}

/** The component's config with its allowed Common Name lists set, at the catalog's paths. */
function configOf(cluster: IConstruct, token: OperatorComponent, config: Record<string, any> | undefined, allowed: string[]): Record<string, any> {
  const check = component(token).commonNameCheck!;
  if (check.mirrors !== undefined && config !== undefined && config !== null && typeof config === 'object') {
    // A component with several configuration documents (columnar) has nothing else at the top.
    const documents = [check.path, ...check.mirrors.map((m) => m.path)].map((p) => p[1]);
    const unknown = Object.keys(config).filter((k) => !documents.includes(k));
    if (unknown.length > 0) {
      inputError(cluster, `${token}.config`, unknown, `only the keys ${documents.map((d) => `"${d}"`).join(' and ')}, one per configuration document`);
    }
  }
  let out = withAllowedCommonNames(cluster, `${token}.config`, config, check.path.slice(1), allowed);
  for (const mirror of check.mirrors ?? []) {
    out = withAllowedCommonNames(cluster, `${token}.config`, out, mirror.path.slice(1), allowed);
  }
  return out;
}

/**
 * Merges the allowed Common Names into a free-form config at `path`, refusing a config that sets
 * them itself. `field` names the config in messages (`store.config`).
 */
function withAllowedCommonNames(scope: IConstruct, field: string, config: Record<string, any> | undefined,
  path: readonly string[], allowed: string[]): Record<string, any> {
  if (config !== undefined && (config === null || typeof config !== 'object' || Array.isArray(config))) {
    // The type only: a configuration may hold credentials.
    inputError(scope, field, describeType(config), 'an object: the component\'s configuration');
  }
  const out: Record<string, any> = structuredClone(config ?? {});
  let node = out;
  path.slice(0, -1).forEach((key, i) => {
    if (node[key] !== undefined && (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key]))) {
      inputError(scope, `${field}.${path.slice(0, i + 1).join('.')}`, node[key], 'an object');
    }
    node = node[key] = node[key] ?? {};
  });
  const key = path[path.length - 1];
  if (node[key] !== undefined) {
    const single = allowed.length === 1 && field.startsWith('coordinator.');
    inputError(scope, `${field}.${path.join('.')}`, node[key],
      `nothing: the construct sets it to the certificates' Common Name${single ? '' : '; add names with extraAllowedCommonNames'}`);
  }
  node[key] = allowed;
  return out;
}
