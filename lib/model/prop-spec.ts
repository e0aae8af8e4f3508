/**
 * The declaration of a construct's props, as data: what each prop must be (its type, its bound,
 * the value rule it keeps, the release it needs), what it is when left out, and the rules that
 * read several props at once. `props.ts` walks a declaration; `rules.ts` holds the value rules it
 * names. Types only, and the mark of the rules across props, so that the modules that declare
 * specs (`quantity.ts`, `duration.ts`) need not import the walker.
 */
import type { IConstruct } from 'constructs';
import type { ListKind, TextKind } from './limits';

/**
 * The value rules a prop may name, each one of the validators of `validate.ts` or `versions.ts`,
 * kept in the one table of `rules.ts` (`VALUE_RULES`).
 */
export type RuleName =
  | 'dnsLabel' | 'dnsSubdomain' | 'dnsName' | 'certificateDnsName' | 'ipAddress' | 'host'
  | 'goDuration' | 'storageQuantity' | 'image' | 'timeZone' | 'release' | 'commonName'
  | 'count' | 'positiveCount' | 'alertLabels' | 'kubernetesLabels' | 'port' | 'migrationSourceId' | 'migrationTaskName' | 'folderPath'
  | 'taskMode' | 'helmReleaseName' | 'chartRepository' | 'chartVersion' | 'databaseUser' | 'backupType' | 'keyPrefix' | 'storageProvider'
  | 'storageRegion' | 'bucket' | 'storageEndpoint';

/** The release a prop's value must reach: a version prop at least `minimum`, because `what` needs it. */
export interface VersionGate {
  /** The oldest release accepted, `<major>.<minor>.<patch>`. */
  readonly minimum: string;
  /** What needs it, as the message says (`tls between database cluster components`). */
  readonly what: string;
}

/** What one prop must be. */
export type PropSpec =
  | 'string' | 'string?' | 'number' | 'number?' | 'boolean' | 'boolean?' | 'object?' | 'strings?'
  | FullSpec;

/** A prop's spec in full (the strings of {@link PropSpec} are short for some of these). */
export interface FullSpec {
  /** What the prop must be: a string, a plain object, a list, or any value that `is` accepts. */
  readonly type: 'string' | 'object' | 'list' | 'value';
  /**
   * Whether the prop may be left out.
   * @default false
   */
  readonly optional?: boolean;
  /** The allowed values of a string. */
  readonly oneOf?: readonly string[];
  /** The props of an object, or of each object of a list. */
  readonly shape?: PropShape;
  /** A test for `value`. */
  readonly is?: (value: unknown) => boolean;
  /** What the message says is expected, when more can be said than the type. */
  readonly expected?: string;
  /** What the message says each object of a list should be. */
  readonly itemExpected?: string;
  /** A test for each item of a list of values other than strings and objects. */
  readonly itemIs?: (value: unknown) => boolean;
  /**
   * An object of free-form data (chart values, a configuration): checked to hold plain data
   * only, all the way down (see `notPlainData`).
   * @default false
   */
  readonly data?: boolean;
  /**
   * What a string is, or each string of a list, which chooses its bound (`TEXT_LIMITS`): free
   * text, a path, a document a ConfigMap holds, a file.
   * @default 'text'
   */
  readonly kind?: TextKind;
  /**
   * What a list is, which chooses how many items it may hold (`LIST_LIMITS`).
   * @default - as many as it has
   */
  readonly items?: ListKind;
  /**
   * A construct that must belong to the app of the construct that takes it (see `constructOf`).
   * @default false
   */
  readonly sameApp?: boolean;
  /**
   * The value rule of `VALUE_RULES` the value keeps once its type and bound are right; of a list
   * of strings, each string's.
   * @default - the type and bound alone
   */
  readonly rule?: RuleName;
  /**
   * The release a version prop must reach, checked after its rule.
   * @default - any release the rule accepts
   */
  readonly atLeast?: VersionGate;
  /**
   * What the prop is when it is left out: the walker puts it in the props it returns, checked as
   * a given value would be. A function computes it from the other props (given or defaulted).
   * @default - nothing: the prop stays out
   */
  readonly default?: unknown;
  /**
   * A value of the right form, which the message of a required prop left out shows
   * (`such as "v8.5.0"`), unless what it expects names one already.
   * @default - the rule's example, if it has one
   */
  readonly example?: string;
}

/** The props of a construct or of one of its objects, by name. */
export type PropShape = { readonly [prop: string]: PropSpec };

/**
 * The shape of a props interface: exactly its props, each with a spec. Declared with `satisfies`,
 * a shape that misses a prop of the interface, or has one the interface lacks, does not compile.
 */
export type ShapeOf<T> = { readonly [K in keyof Required<T>]: PropSpec };

/**
 * A rule that reads several props at once (one prop against another, a name derived from one),
 * run by the walker after every field is checked, on the props with their defaults. It throws the
 * one-line error of the prop to change; `at` is what the walker puts before the names of the props
 * of a nested object (`tlsClient.`), empty for a construct's own.
 */
export type AcrossRule<T> = (scope: IConstruct | string, props: T, at: string) => void;

/**
 * The type-level mark of a shape with rules across props. At run time each `withRules` call keeps
 * its rules under a symbol of its own (props.ts), so that no prop name can take it and two shapes
 * spread into one keep both their rules.
 */
export declare const ACROSS: unique symbol;

/** A shape with the rules across its props that the walker runs after its fields. */
export type ShapeWithRules<S extends PropShape, T> = S & { readonly [ACROSS]?: readonly AcrossRule<T>[] };

/** The keys of a shape whose spec declares a default: present in the props the walker returns. */
type DefaultedKeys<S> = { [K in keyof S]: S[K] extends { readonly default: unknown } ? K : never }[keyof S];

/** Props as the walker returns them: those a shape gives a default to are there. */
export type Checked<T, S> = T & { readonly [K in DefaultedKeys<S> & keyof T]-?: Exclude<T[K], undefined> };
