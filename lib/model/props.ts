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
import { Description, describeType, inputError, shown } from './errors';

/** What one prop must be. */
export type PropSpec =
  | 'string' | 'string?' | 'number' | 'number?' | 'boolean' | 'boolean?' | 'object?' | 'strings?'
  | {
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

/** Nesting deeper than this is refused rather than walked: no configuration is that deep. */
const MAX_DATA_DEPTH = 256;

/** What free-form data must hold, as messages say it. */
export const PLAIN_DATA = 'plain data all the way down: objects, lists, strings, finite numbers, true, false and null, as JSON and YAML hold them';

/** A key as a field path shows it: a plain name after '.', anything else as `[…]`, never repeated (keys of chart values are the user's). */
function keyPath(key: string): string {
  return /^[A-Za-z_$][\w$-]{0,62}$/.test(key) ? `.${key}` : '[…]';
}

/**
 * Where a value stops being plain data (objects with the plain object prototype or none, lists,
 * strings, finite numbers, booleans and null; `undefined` stands for a prop left out), and what
 * is there, by its type alone: a function, a symbol, a BigInt, a number that is not finite, an
 * object of a class, an accessor property or a symbol key, an object that contains itself, or
 * nesting deeper than {@link MAX_DATA_DEPTH}. Undefined for plain data. Nothing of the value is
 * read but its own properties, and no getter is run.
 */
export function notPlainData(value: unknown): { readonly at: string; readonly what: Description } | undefined {
  const ancestors = new Set<object>();
  const walk = (v: unknown, at: string, depth: number): { at: string; what: Description } | undefined => {
    if (v === null || v === undefined || typeof v === 'string' || typeof v === 'boolean') {
      return undefined;
    }
    if (typeof v === 'number') {
      return Number.isFinite(v) ? undefined : { at, what: new Description('a number that is not finite') };
    }
    if (typeof v !== 'object') {
      return { at, what: describeType(v) };
    }
    if (ancestors.has(v)) {
      return { at, what: new Description('an object that contains itself') };
    }
    if (depth > MAX_DATA_DEPTH) {
      return { at, what: new Description(`objects nested deeper than ${MAX_DATA_DEPTH} levels`) };
    }
    const proto = Object.getPrototypeOf(v);
    const isList = Array.isArray(v) && proto === Array.prototype;
    if (!isList && proto !== Object.prototype && proto !== null) {
      return { at, what: new Description('an object of a class (a Date, a Map, a construct, …), not a plain object') };
    }
    const descriptors = Object.getOwnPropertyDescriptors(v);
    if (Object.getOwnPropertySymbols(descriptors).length > 0) {
      return { at, what: new Description('an object with a symbol key') };
    }
    ancestors.add(v);
    try {
      for (const [key, d] of Object.entries(descriptors)) {
        if (isList && key === 'length') {
          continue;
        }
        const path = isList ? `${at}[${key}]` : `${at}${keyPath(key)}`;
        if (!('value' in d)) {
          return { at: path, what: new Description('a property with a getter or setter') };
        }
        const found = walk(d.value, path, depth + 1);
        if (found !== undefined) {
          return found;
        }
      }
    } finally {
      ancestors.delete(v);
    }
    return undefined;
  };
  return walk(value, '', 0);
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
    inputError(scope, field, CREDENTIAL.test(key) ? describeType(value) : shown(value), expectedOf(full));
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
      if (full.data) {
        const found = notPlainData(value);
        if (found !== undefined) {
          inputError(scope, `${field}${found.at}`, found.what, PLAIN_DATA);
        }
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
          inputError(scope, `${field}[${i}]`, CREDENTIAL.test(key) ? describeType(item) : shown(item), 'a string');
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
    default: return { type: 'object', optional, data: true };
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
