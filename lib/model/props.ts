/**
 * The JavaScript types of a construct's props, checked before anything else reads them: a
 * JavaScript user or a configuration file gets the one-line error TypeScript would have given
 * (`demo/db: store: received null; expected an object`), not a silently ignored value or a
 * `TypeError` from deep inside a constructor.
 *
 * The shapes mirror the props interfaces and declare each prop whole (`prop-spec.ts`): its type,
 * its bound, the value rule it keeps (`rules.ts`), the release it needs and its default. One walker,
 * {@link checkProps}, checks each field in one pass (type, bound, rule, release) and then the rules
 * across props, and returns the props with their defaults. A field that can hold a credential is
 * described by its type only.
 */
import { Construct, IConstruct } from 'constructs';
import { ClusterTlsError, Description, describeType, inputError, shown } from './errors';
import { LIST_LIMITS, ListKind, TEXT_LIMITS, TextKind, sizeOf } from './limits';
import { AcrossRule, Checked, FullSpec, PropShape, PropSpec, ShapeWithRules } from './prop-spec';
import { VALUE_RULES, checkGate } from './rules';

export type { AcrossRule, Checked, FullSpec, PropShape, PropSpec, RuleName, ShapeOf, ShapeWithRules, VersionGate } from './prop-spec';

/** The shape of each construct's props, by the construct's class name, and of each method's options, by `<class>.<method>`, as they are declared. */
const DECLARED = new Map<string, PropShape>();

/**
 * Declares the shape of a construct's props under the construct's class name, or of a method's
 * options under `<class>.<method>` (`TlsDatabaseCluster.addMonitor`), and returns it: the tests
 * walk every declared shape (each required prop's message, each field's rule).
 */
export function declareShape<S extends PropShape>(construct: string, shape: S): S {
  DECLARED.set(construct, shape);
  return shape;
}

/** Every shape declared with {@link declareShape}, by construct. */
export function declaredShapes(): ReadonlyMap<string, PropShape> {
  return DECLARED;
}

/** Fields whose values can hold credentials: never shown in a message. */
const CREDENTIAL = /^(password|config|extraValues|discovery)$/;

/** An optional string, one of `values`. */
export function oneOf(values: readonly string[], optional = true): FullSpec {
  return { type: 'string', optional, oneOf: values };
}

/** An optional `true` or `false`, `value` when left out. */
export function flag(value: boolean): FullSpec & { readonly default: boolean } {
  return { type: 'value', optional: true, is: (v) => typeof v === 'boolean', expected: 'true or false', default: value };
}

/** An optional number that keeps a count's rule (`count` from 0, `positiveCount` from 1), `value` when left out. */
export function countOf(rule: 'count' | 'positiveCount', value: number): FullSpec & { readonly default: number } {
  return { type: 'value', optional: true, is: (v) => typeof v === 'number' && Number.isFinite(v), expected: 'a number', rule, default: value };
}

/** A string, with what the message says is expected. */
export function text(expected: string, optional = true): FullSpec {
  return { type: 'string', optional, expected };
}

/** A path the library reads or writes (`outdir`, `recordFile`): a non-empty string without NUL, within {@link TEXT_LIMITS}' `path` bound. */
export function pathSpec(optional = true): PropSpec {
  return {
    type: 'value', optional, kind: 'path', is: (v) => typeof v === 'string' && v.length > 0 && !v.includes('\u0000'),
    expected: 'a path: a non-empty string without NUL',
  };
}

/** Throws unless a string is within the bound of its kind, without repeating it. */
function requireLength(scope: IConstruct | string, field: string, value: string, kind: TextKind = 'text'): void {
  const { max, unit, what, why } = TEXT_LIMITS[kind];
  // UTF-8 takes at most 3 bytes per UTF-16 unit, so a string of at most a third of the bound in units is within it.
  if (value.length <= max / 3 && unit === 'bytes') {
    return;
  }
  const size = sizeOf(value, unit);
  if (size > max) {
    inputError(scope, field, new Description(`${what} of ${size} ${unit}`), `at most ${max} ${unit}${why ? ` ${why}` : ''}`);
  }
}

/**
 * Throws unless a string made after the props were checked (a file's content rendered at synth)
 * is within the bound of the kind its spec names, as a string given in the props would have had
 * to be; returns it.
 */
export function checkRendered<T>(scope: IConstruct | string, field: string, value: T, spec: PropSpec): T {
  if (typeof value === 'string') {
    requireLength(scope, field, value, typeof spec === 'string' ? undefined : spec.kind);
  }
  return value;
}

/** Throws unless a list holds no more items than its kind allows. */
function requireItems(scope: IConstruct | string, field: string, list: readonly unknown[], kind: ListKind | undefined): void {
  if (kind !== undefined && list.length > LIST_LIMITS[kind].max) {
    inputError(scope, field, new Description(`a list of ${list.length} items`), `at most ${LIST_LIMITS[kind].max} items: ${LIST_LIMITS[kind].why}`);
  }
}

/** A list of strings, with what the message says is expected. */
export function strings(expected: string, optional = true): FullSpec {
  return { type: 'list', optional, expected };
}

/** An object of the given shape. */
export function objectOf(shape: PropShape, optional = true, expected?: string): FullSpec {
  return { type: 'object', optional, shape, expected };
}

/** A list of objects of the given shape, as many as its kind allows. */
export function listOf(shape: PropShape, optional = true, expected?: string, itemExpected?: string, items?: ListKind): FullSpec {
  return { type: 'list', optional, shape, expected, itemExpected, items };
}

/** A construct of one class (the cluster a construct belongs to), of the app of the construct that takes it. */
export function constructOf(is: (value: unknown) => boolean, expected: string, optional = false): PropSpec {
  return { type: 'value', optional, is, expected, sameApp: true };
}

/** Whether a value is a construct (of any copy of the constructs library). */
export function isConstruct(value: unknown): value is IConstruct {
  return Construct.isConstruct(value);
}

/**
 * Whether a value is a plain object, as an object literal, JSON or a jsii struct makes one: its
 * prototype is `Object.prototype` or none (not a list, a construct, a `Date`, a `Map` or any other
 * object of a class).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  return isObjectPrototype(Object.getPrototypeOf(value));
}

/**
 * Whether a prototype is `Object.prototype`, of this realm or another (an object `structuredClone`
 * or another context made), or none: the prototype of a plain object, unlike a `Date`'s or a class's.
 */
function isObjectPrototype(proto: object | null): boolean {
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Nesting deeper than this is refused rather than walked: no configuration is that deep. */
const MAX_DATA_DEPTH = 256;

/** What free-form data must hold, as messages say it. */
export const PLAIN_DATA = 'plain data all the way down: objects, lists, strings, finite numbers, true, false and null, as JSON and YAML hold them';

/**
 * The mark the jsii runtime sets on every map a Python, Java or Go app hands over (a string map, a
 * configuration, chart values): a read-only, non-enumerable property of this symbol whose value is
 * `$jsii.map`. It tells how the map crossed from the other language and is no key of the user's;
 * any other symbol key is.
 */
const JSII_MAP_MARK = Symbol.for('$jsii$wireType$');

/** Whether an own symbol property is the jsii runtime's {@link JSII_MAP_MARK}, exactly as the runtime sets it. */
function isJsiiMapMark(key: symbol, property: PropertyDescriptor): boolean {
  return key === JSII_MAP_MARK && property.enumerable === false && property.writable === false && property.value === '$jsii.map';
}

/**
 * What is wrong with a key of free-form data, if anything: the empty key, a key with a control
 * character (a line break would end the line a configuration file writes it on), and `__proto__`,
 * which JavaScript readers of the output (and `yaml`'s) take for the object's prototype instead of
 * a key.
 */
export function keyProblem(key: string): string | undefined {
  if (key === '') {
    return 'the empty key';
  }
  if (key === '__proto__') {
    return 'the key "__proto__", which JavaScript readers take for the prototype of the object, not a key';
  }
  if (/[\u0000-\u001f\u007f]/.test(key)) {
    return 'a key with a control character, such as a line break';
  }
  return undefined;
}

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
    const isList = Array.isArray(v);
    if (!isList && !isObjectPrototype(Object.getPrototypeOf(v))) {
      return { at, what: new Description('an object of a class (a Date, a Map, a construct, …), not a plain object') };
    }
    const descriptors = Object.getOwnPropertyDescriptors(v);
    if (Object.getOwnPropertySymbols(descriptors).some((key) => !isJsiiMapMark(key, descriptors[key as unknown as string]))) {
      return { at, what: new Description('an object with a symbol key') };
    }
    if (isList && Object.keys(descriptors).length - 1 !== (v as unknown[]).length) {
      return { at, what: new Description('a list with a hole (an index with nothing at it)') };
    }
    const badKey = isList ? undefined : Object.keys(descriptors).find((k) => keyProblem(k) !== undefined);
    if (badKey !== undefined) {
      return { at, what: new Description(keyProblem(badKey)!) };
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
 * A copy of plain data (see {@link notPlainData}) in which every object holds its keys in one
 * order, whatever order they arrived in: JavaScript's sort of the keys (by UTF-16 code units),
 * with the keys that are array indexes first in numeric order, as JavaScript keeps them in any
 * object. TypeScript, Python and Java (`Map.of`, in an order of its own on each run) hand a map over in
 * the order of their own, Go with its keys sorted: the files written from a map are the same
 * whichever language wrote the app. The jsii runtime's mark is left behind, and an own key
 * `__proto__` stays a key.
 */
export function canonicalData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item) => canonicalData(item)) as T;
  }
  const copy: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(copy, key, { value: canonicalData((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return copy as T;
}

/**
 * Throws, with one line, unless `props` matches `shape`: in one pass, in the shape's order, every
 * prop of the right type, within its bound, keeping its value rule and reaching its release, every
 * required one present and no prop the construct does not have; then every rule across props the
 * shape declares ({@link withRules}). Returns the props to read from then on: a copy in which each
 * prop left out that has a default holds it, and every free-form map (a prop of `data`) is in
 * {@link canonicalData}'s order, so that nothing written depends on the order in which an app's
 * language handed it over.
 */
export function checkProps<T, S extends PropShape = PropShape>(scope: IConstruct | string, props: T, shape: S, at = ''): Checked<T, S> {
  try {
    return checkedProps(scope, props, shape, at) as Checked<T, S>;
  } catch (error) {
    if (error instanceof ClusterTlsError) {
      throw error;
    }
    // A getter or a proxy of the app's that throws while the props are read: what it threw is not
    // the library's to show (it may hold anything), only where.
    return inputError(scope, at ? at.slice(0, -1) : 'props', new Description('an object that throws when it is read (a getter or a proxy)'), 'plain data');
  }
}

/** The symbols under which {@link withRules} calls keep their rules, one per call. */
const RULE_KEYS = new Set<symbol>();

/**
 * A shape with the rules that read several of its props at once, which {@link checkProps} runs
 * after the fields, on the props with their defaults: those of the shapes spread into it first,
 * in the order they were spread, then `rules`. Each call keeps its rules under an enumerable symbol
 * of its own, which object spread copies and no prop name can take, so a shape spread from several
 * others keeps all their rules.
 */
export function withRules<S extends PropShape, T>(shape: S, rules: readonly AcrossRule<T>[]): ShapeWithRules<S, T> {
  const key = Symbol('rules across props');
  RULE_KEYS.add(key);
  return Object.defineProperty({ ...shape }, key, { value: [...rules], enumerable: true }) as ShapeWithRules<S, T>;
}

/** The rules across props of each shape checked so far (a shape is a constant: found once, on the walker's hot path). */
const RULES_OF = new WeakMap<PropShape, readonly AcrossRule<any>[]>();

/** The rules across props a shape holds, in the order they were added. */
function acrossRules(shape: PropShape): readonly AcrossRule<any>[] {
  let rules = RULES_OF.get(shape);
  if (rules === undefined) {
    rules = Object.getOwnPropertySymbols(shape).filter((k) => RULE_KEYS.has(k)).flatMap((k) => (shape as Record<symbol, readonly AcrossRule<any>[]>)[k]);
    RULES_OF.set(shape, rules);
  }
  return rules;
}

/** The own enumerable properties of a plain object by name, read without running a getter; a getter or setter is refused. */
function ownValues(scope: IConstruct | string, at: string, value: object): Map<string, unknown> {
  const values = new Map<string, unknown>();
  // Object.keys lists the own enumerable string keys, in the order Object.getOwnPropertyDescriptors
  // would, without a descriptor object for every key at once.
  for (const key of Object.keys(value)) {
    const d = Object.getOwnPropertyDescriptor(value, key);
    if (d === undefined) {
      continue;
    }
    if (!('value' in d)) {
      inputError(scope, `${at}${key}`, new Description('a property with a getter or setter'), 'a plain value');
    }
    values.set(key, d.value);
  }
  return values;
}

function checkedProps(scope: IConstruct | string, props: unknown, shape: PropShape, at: string): Record<string, unknown> {
  if (!isPlainObject(props)) {
    inputError(scope, at || 'props', describeType(props), 'an object of props');
  }
  const values = ownValues(scope, at, props);
  for (const key of values.keys()) {
    if (!(key in shape)) {
      inputError(scope, at ? at.slice(0, -1) : 'props', key, `only the props ${Object.keys(shape).join(', ')}`);
    }
  }
  // The props given, in their order, then those a default fills in.
  const checked = new Map(values);
  for (const [key, full] of fullSpecs(shape)) {
    const given = values.get(key);
    // Only a prop left out takes its default: null is a value, refused or accepted as one.
    const value = given === undefined ? defaultOf(full, checked) : given;
    try {
      const kept = checkProp(scope, `${at}${key}`, key, value, full);
      if (values.has(key) || kept !== undefined) {
        checked.set(key, kept);
      }
    } catch (error) {
      if (error instanceof ClusterTlsError) {
        throw error;
      }
      // A value of the app's that throws when it is looked at (a getter, a proxy): only where is shown.
      inputError(scope, `${at}${key}`, new Description('an object that throws when it is read (a getter or a proxy)'), expectedOf(full));
    }
  }
  const result = Object.fromEntries(checked);
  acrossRules(shape).forEach((rule) => rule(scope, result, at));
  return result;
}

/** The default of a prop left out: its spec's value, or what its function makes of the props before it. */
function defaultOf(spec: FullSpec, props: ReadonlyMap<string, unknown>): unknown {
  return typeof spec.default === 'function' ? spec.default(Object.fromEntries(props)) : spec.default;
}

/**
 * Throws, with one line, unless a method's arguments match their specs, as {@link checkProps}
 * checks props; messages name an argument `<method>.<parameter>` (`serverSecretName.token`).
 * Returns the arguments to read from then on.
 */
export function checkArguments<T extends Record<string, unknown>>(scope: IConstruct | string, method: string, args: T, shape: { readonly [K in keyof T]-?: PropSpec }): T {
  return checkProps(scope, args, shape as PropShape, `${method}.`);
}

/**
 * Checks one prop (type, bound, rule, release) and returns what the props keep of it: a free-form
 * map in its one order, an object or list of objects with their own defaults, anything else as given.
 */
function checkProp(scope: IConstruct | string, field: string, key: string, value: unknown, full: FullSpec): unknown {
  if (value === undefined) {
    if (!full.optional) {
      inputError(scope, field, undefined, missingExpected(full));
    }
    return undefined;
  }
  const wrong = () => {
    inputError(scope, field, CREDENTIAL.test(key) ? describeType(value) : shown(value), expectedOf(full));
  };
  switch (full.type) {
    case 'string':
      if (typeof value !== 'string' || (full.oneOf !== undefined && !full.oneOf.includes(value))) {
        wrong();
      }
      requireLength(scope, field, value as string, full.kind);
      break;
    case 'object':
      if (!isPlainObject(value)) {
        wrong();
      }
      return checkRule(scope, field, checkObject(scope, field, value as Record<string, unknown>, full), full);
    case 'list':
      if (!Array.isArray(value)) {
        wrong();
      }
      return checkList(scope, field, key, value as unknown[], full);
    case 'value':
      if (typeof value === 'string') {
        requireLength(scope, field, value, full.kind);
      }
      if (full.is !== undefined && !full.is(value)) {
        wrong();
      }
      if (full.sameApp) {
        requireSameApp(scope, field, value, expectedOf(full));
      }
      break;
  }
  checkRule(scope, field, value, full);
  return value;
}

/** Checks a plain object's data or props; returns the data in its one order, or the props with their defaults. */
function checkObject(scope: IConstruct | string, field: string, value: Record<string, unknown>, full: FullSpec): unknown {
  if (full.data) {
    const found = notPlainData(value);
    if (found !== undefined) {
      inputError(scope, `${field}${found.at}`, found.what, PLAIN_DATA);
    }
    return canonicalData(value);
  }
  return full.shape ? checkProps(scope, value, full.shape, `${field}.`) : value;
}

/** Checks a list's length and each item (an object of its shape, a value `itemIs` accepts, or a string and its rule); returns the list to keep. */
function checkList(scope: IConstruct | string, field: string, key: string, list: unknown[], full: FullSpec): unknown {
  requireItems(scope, field, list, full.items);
  const items = listItems(scope, field, list).map((item, i) => {
    if (full.shape) {
      return checkProp(scope, `${field}[${i}]`, key, item, { type: 'object', shape: full.shape, expected: full.itemExpected });
    }
    if (full.itemIs) {
      return checkProp(scope, `${field}[${i}]`, key, item, { type: 'value', is: full.itemIs, expected: full.itemExpected, kind: full.kind, rule: full.rule });
    }
    if (typeof item !== 'string') {
      inputError(scope, `${field}[${i}]`, CREDENTIAL.test(key) ? describeType(item) : shown(item), 'a string');
    }
    requireLength(scope, `${field}[${i}]`, item, full.kind);
    checkRule(scope, `${field}[${i}]`, item, full);
    return item;
  });
  return full.shape ? items : list;
}

/** Throws unless a value of the right type keeps its spec's value rule and reaches its release; returns it. */
function checkRule<V>(scope: IConstruct | string, field: string, value: V, full: FullSpec): V {
  if (full.rule !== undefined) {
    VALUE_RULES[full.rule].check(scope, field, value);
  }
  if (full.atLeast !== undefined) {
    checkGate(scope, field, value as unknown as string, full.atLeast);
  }
  return value;
}

/**
 * Throws when a construct handed to a construct belongs to another app: what the receiving
 * construct adds for it (objects, files, runbook steps, certificates) would go to one app and the
 * construct to the other, and neither output would be whole.
 */
function requireSameApp(scope: IConstruct | string, field: string, value: unknown, expected: string): void {
  if (typeof scope === 'string' || !isConstruct(value) || value.node.root === scope.node.root) {
    return;
  }
  inputError(scope, field, new Description(`${value.node.path || 'the root'} of another app`),
    `${expected}, in the app that holds ${scope.node.path}: what the two add for each other would go to two outputs, neither of them whole; declare both in one app`);
}

/** The items of a list, read without running a getter; a hole or a getter is refused. */
function listItems(scope: IConstruct | string, field: string, list: readonly unknown[]): unknown[] {
  const items: unknown[] = [];
  for (let i = 0; i < list.length; i++) {
    const d = Object.getOwnPropertyDescriptor(list, i);
    if (d === undefined) {
      inputError(scope, `${field}[${i}]`, new Description('a hole in the list (nothing at this index)'), 'an item at every index');
    }
    if (!('value' in d)) {
      inputError(scope, `${field}[${i}]`, new Description('a property with a getter or setter'), 'a plain value');
    }
    items.push(d.value);
  }
  return items;
}

/** The props of each shape checked so far, in its order, each spec in full: shapes are constants, made once at load. */
const FULL_SPECS = new WeakMap<PropShape, readonly (readonly [string, FullSpec])[]>();

/** The props of a shape in its order, each spec in full ({@link fullSpec}). */
function fullSpecs(shape: PropShape): readonly (readonly [string, FullSpec])[] {
  let specs = FULL_SPECS.get(shape);
  if (specs === undefined) {
    specs = Object.entries(shape).map(([key, spec]) => [key, fullSpec(spec)] as const);
    FULL_SPECS.set(shape, specs);
  }
  return specs;
}

/** A spec in full: a short one (`'string?'`) as the spec it stands for. */
function fullSpec(spec: PropSpec): FullSpec {
  return typeof spec === 'string' ? SHORTHANDS.get(spec) ?? shorthand(spec) : spec;
}

/** The full spec of each shorthand, made once: every construct's props are checked against the same few. */
const SHORTHANDS = new Map<string, FullSpec>(
  (['string', 'string?', 'number', 'number?', 'boolean', 'boolean?', 'object?', 'strings?'] as const).map((spec) => [spec, shorthand(spec)]),
);

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

/**
 * What the message of a required prop left out says is expected: the spec's words, else its
 * rule's, else its type's, with an example of the form (the spec's or the rule's) unless the words
 * show one already.
 */
function missingExpected(spec: FullSpec): string {
  const rule = spec.rule === undefined ? undefined : VALUE_RULES[spec.rule];
  const expected = spec.expected ?? rule?.expected ?? expectedOf(spec);
  const example = spec.example ?? rule?.example;
  return example === undefined || SHOWS_FORM.test(expected) ? expected : `${expected}, such as ${JSON.stringify(example)}`;
}

/** Words that show a value's form already: an example, a quoted value or an object's fields. */
export const SHOWS_FORM = /such as|for example|"[^"]*"|\{[^}]*\}/;

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
