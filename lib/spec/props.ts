/**
 * The JavaScript types of a construct's props, checked before anything else reads them: a
 * JavaScript user or a configuration file gets the one-line error TypeScript would have given
 * (`demo/db: store: received null; expected an object`), not a silently ignored value or a
 * `TypeError` from deep inside a constructor.
 *
 * The shapes mirror the props interfaces; the per-field rules (names, quantities, versions) stay
 * with the constructs. A field that can hold a credential is described by its type only.
 */
import { Construct, IConstruct } from 'constructs';
import { describeType, inputError } from './errors';

/** What one prop must be. */
export type PropSpec =
  | 'string' | 'string?' | 'number' | 'number?' | 'boolean' | 'boolean?' | 'object?' | 'strings?'
  | {
    readonly type: 'string' | 'object' | 'list' | 'value';
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
  };

/** The props of a construct or of one of its objects, by name. */
export type PropShape = { readonly [prop: string]: PropSpec };

/**
 * The shape of a props interface: exactly its props, each with a spec. Declared with `satisfies`,
 * a shape that misses a prop of the interface, or has one the interface lacks, does not compile.
 */
export type ShapeOf<T> = { readonly [K in keyof Required<T>]: PropSpec };

/** Fields whose values can hold credentials: never shown in a message. */
const CREDENTIAL = /^(password|config|extraValues|discovery)$/;

/** An optional string, one of `values`. */
export function oneOf(values: readonly string[], optional = true): PropSpec {
  return { type: 'string', optional, oneOf: values };
}

/** A string, with what the message says is expected. */
export function text(expected: string, optional = true): PropSpec {
  return { type: 'string', optional, expected };
}

/** A list of strings, with what the message says is expected. */
export function strings(expected: string, optional = true): PropSpec {
  return { type: 'list', optional, expected };
}

/** An object of the given shape. */
export function objectOf(shape: PropShape, optional = true, expected?: string): PropSpec {
  return { type: 'object', optional, shape, expected };
}

/** A list of objects of the given shape. */
export function listOf(shape: PropShape, optional = true, expected?: string, itemExpected?: string): PropSpec {
  return { type: 'list', optional, shape, expected, itemExpected };
}

/** A construct of one class (the cluster a construct belongs to). */
export function constructOf(is: (value: unknown) => boolean, expected: string, optional = false): PropSpec {
  return { type: 'value', optional, is, expected };
}

/** Whether a value is a construct (of any copy of the constructs library). */
export function isConstruct(value: unknown): value is IConstruct {
  return Construct.isConstruct(value);
}

/** Whether a value is a plain object: not null, a list or a construct. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Construct.isConstruct(value);
}

/**
 * Throws, with one line, unless `props` matches `shape`: every prop of the right type, every
 * required one present, and no prop the construct does not have.
 */
export function checkProps(scope: IConstruct, props: unknown, shape: PropShape, at = ''): void {
  if (!isPlainObject(props)) {
    inputError(scope, at || 'props', describeType(props), 'an object of props');
  }
  for (const key of Object.keys(props)) {
    if (!(key in shape)) {
      inputError(scope, at ? at.slice(0, -1) : 'props', key, `only the props ${Object.keys(shape).join(', ')}`);
    }
  }
  for (const [key, spec] of Object.entries(shape)) {
    checkProp(scope, `${at}${key}`, key, props[key], spec);
  }
}

function checkProp(scope: IConstruct, field: string, key: string, value: unknown, spec: PropSpec): void {
  const full = typeof spec === 'string' ? shorthand(spec) : spec;
  if (value === undefined) {
    if (!full.optional) {
      inputError(scope, field, undefined, expectedOf(full));
    }
    return;
  }
  const wrong = () => {
    const shown = CREDENTIAL.test(key) || (typeof value === 'object' && value !== null) || typeof value === 'function' ? describeType(value) : value;
    inputError(scope, field, shown, expectedOf(full));
  };
  switch (full.type) {
    case 'string':
      if (typeof value !== 'string' || (full.oneOf !== undefined && !full.oneOf.includes(value))) {
        wrong();
      }
      break;
    case 'object':
      if (!isPlainObject(value)) {
        wrong();
      }
      if (full.shape) {
        checkProps(scope, value, full.shape, `${field}.`);
      }
      break;
    case 'list':
      if (!Array.isArray(value)) {
        wrong();
      }
      (value as unknown[]).forEach((item, i) => {
        if (full.shape) {
          checkProp(scope, `${field}[${i}]`, key, item, { type: 'object', shape: full.shape, expected: full.itemExpected });
        } else if (full.itemIs) {
          checkProp(scope, `${field}[${i}]`, key, item, { type: 'value', is: full.itemIs, expected: full.itemExpected });
        } else if (typeof item !== 'string') {
          inputError(scope, `${field}[${i}]`, typeof item === 'object' && item !== null ? describeType(item) : item, 'a string');
        }
      });
      break;
    case 'value':
      if (full.is !== undefined && !full.is(value)) {
        wrong();
      }
      break;
  }
}

type FullSpec = Exclude<PropSpec, string>;

function shorthand(spec: Extract<PropSpec, string>): FullSpec {
  const optional = spec.endsWith('?');
  switch (spec.replace('?', '')) {
    case 'string': return { type: 'string', optional };
    case 'number': return { type: 'value', optional, is: (v) => typeof v === 'number' && Number.isFinite(v), expected: 'a number' };
    case 'boolean': return { type: 'value', optional, is: (v) => typeof v === 'boolean', expected: 'true or false' };
    case 'strings': return { type: 'list', optional };
    default: return { type: 'object', optional };
  }
}

function expectedOf(spec: FullSpec): string {
  if (spec.expected !== undefined) {
    return spec.expected;
  }
  switch (spec.type) {
    case 'string': return spec.oneOf ? `one of ${spec.oneOf.map((v) => `"${v}"`).join(', ')}` : 'a string';
    case 'object': return 'an object';
    case 'list': return spec.shape ? 'a list of objects' : 'a list of strings';
    default: return 'a value';
  }
}
