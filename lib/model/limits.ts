/**
 * The bounds of the values the library takes, by what a value is, each from the bound that
 * matters for it: a name's is Kubernetes' (DNS-1123), a path's the kernel's, a generated
 * document's what its consumer holds, a list's what the operator or the migration tool accepts.
 * Declared once here; a prop's shape names its kind (`props.ts`), and the check picks the bound
 * from this table, never one constant for every string.
 */

/** Longest DNS-1123 label: service names, namespaces, labels of host names. */
export const DNS_LABEL_MAX = 63;
/** Longest DNS-1123 subdomain: object names such as Secrets. */
export const DNS_SUBDOMAIN_MAX = 253;

/** Longest Helm release name: Helm refuses longer ones (53, leaving room for its own suffixes within a label). */
export const HELM_RELEASE_MAX = 53;

/**
 * What a string prop is, which chooses its bound:
 * - `text`: free text a user types (a user name, a version, a title), bounded so that no rule ever
 *   reads an unbounded text; a name is held to its DNS limits by its own validator after this.
 * - `path`: a path the library reads or writes.
 * - `configMapData`: a document that ends up in the data of a ConfigMap or Secret (the drainer's
 *   TOML configuration, which the chart writes into its ConfigMap).
 * - `file`: a document written as a file of the files folder (a runbook, a migration file, a
 *   script), or a piece of one.
 */
export type TextKind = 'text' | 'path' | 'configMapData' | 'file';

/** The bound of one kind of string: how it is measured, its largest size and where that comes from. */
export interface TextLimit {
  /** The largest size, in `unit`s. */
  readonly max: number;
  /** What is counted: UTF-16 characters as JavaScript counts them, or the bytes of the UTF-8 the value is written as. */
  readonly unit: 'characters' | 'bytes';
  /** What the message says was received: `a string`, `a path`, `a document`. */
  readonly what: string;
  /** Why the bound is this one, as a message says it after the number; empty when the number says it all. */
  readonly why: string;
}

/** Kubernetes' limit on the data of one ConfigMap or Secret: 1 MiB in total (`MaxSecretSize`, the API server's ConfigMap validation). */
export const CONFIG_MAP_DATA_MAX = 1024 * 1024;

/**
 * Linux's `PATH_MAX`: 4096 bytes, the terminating NUL included, so a path the kernel takes is at
 * most 4095 bytes of UTF-8.
 */
export const PATH_MAX = 4096;

/**
 * The largest file of the files folder: what the library reads back of a file it wrote (the
 * bound of `READ_LIMITS.outputFile` in `bounded-read.ts`, which `verify` and the synth's guards
 * read the output with). A file it could not read back, it does not write.
 */
export const FILE_MAX = 64 * 1024 * 1024;

/** The bound of each kind of string. */
export const TEXT_LIMITS: { readonly [K in TextKind]: TextLimit } = {
  text: { max: 4096, unit: 'characters', what: 'a string', why: '' },
  path: { max: PATH_MAX - 1, unit: 'bytes', what: 'a path', why: `of UTF-8 (Linux's PATH_MAX, ${PATH_MAX} bytes with the terminating NUL)` },
  configMapData: { max: CONFIG_MAP_DATA_MAX, unit: 'bytes', what: 'a document', why: 'of UTF-8, what the data of a ConfigMap or Secret holds in total (1 MiB)' },
  file: { max: FILE_MAX, unit: 'bytes', what: 'a document', why: 'of UTF-8, the largest file of the files folder the library reads back (64 MiB)' },
};

/** What a list prop is, which chooses how many items it may hold. */
export type ListKind = 'migrationSources';

/** The bound of one kind of list: its most items and where that comes from. */
export interface ListLimit {
  /** The most items. */
  readonly max: number;
  /** Why the bound is this one, as a message says it after the number. */
  readonly why: string;
}

/**
 * The most sources of one migration. Neither the operator's `MigrationCluster` CRD (no `maxItems`
 * on `tlsClientSecretNames`) nor the migration tool's task file (`mysql-instances`) states one.
 * What binds is the tool's master: `start-task` writes each source's subtask configuration, its
 * stage and its validator's stage in one transaction of its embedded etcd, whose `max-txn-ops` is
 * 2048 by default, so 682 sources at most; 512 is the power of two below, twice the largest shard
 * merge (256 MySQL instances) the tool is used for. The request's bytes (`max-request-bytes`,
 * 1.5 MiB by default) depend on what the tool writes per subtask, and are not checked here.
 */
export const MIGRATION_SOURCES_MAX = 512;

/**
 * The longest source id of a migration, a name the migration tool bounds itself: its source and
 * subtask checks refuse one longer (`MaxSourceIDLength` of its `dm/config`), which the tests' run
 * of those checks showed.
 */
export const MIGRATION_SOURCE_ID_MAX = 32;

/** The bound of each kind of list. */
export const LIST_LIMITS: { readonly [K in ListKind]: ListLimit } = {
  migrationSources: {
    max: MIGRATION_SOURCES_MAX,
    why: 'the migration tool\'s master writes three keys per source in one etcd transaction of at most 2048 (max-txn-ops)',
  },
};

/** The size of a string in the unit its kind is measured in. */
export function sizeOf(value: string, unit: TextLimit['unit']): number {
  return unit === 'characters' ? value.length : Buffer.byteLength(value, 'utf8');
}
