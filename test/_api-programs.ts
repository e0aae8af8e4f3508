/**
 * Apps of the library as data, built from the assembly: a program is a list of statements (a
 * construct made, a method called, a cdk8s-plus Secret named) over values of the assembly's types.
 * `buildProgram` turns a plan (which callables, which optional places given, which candidate at each
 * place) into a program; `runProgram` runs one in this process, as TypeScript; `_api-emit.ts`
 * writes the same program in Python, Go and Java.
 *
 * Every place a value is given has a path: the statement's key, then each field, parameter, list
 * item (`/0`) or map entry (`/#0`). Plans name places by these paths.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as reflect from 'jsii-reflect';
import { ApiCallable, ASSEMBLY, Step, isOwn, isStruct, structFields, typeName } from './_api-model';
import {
  ANY_JSON, Json, SIZE_GIBIBYTES, durationHours, mapCandidates, numberCandidates, stringCandidates, structMapKeys,
} from './_api-values';

/** A value given at a place. */
export type Value =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'enum'; readonly type: reflect.EnumType; readonly member: string }
  | { readonly kind: 'struct'; readonly type: reflect.InterfaceType; readonly fields: readonly (readonly [reflect.Property, Value])[] }
  | { readonly kind: 'list'; readonly element: reflect.TypeReference; readonly items: readonly Value[] }
  | { readonly kind: 'map'; readonly element: reflect.TypeReference; readonly entries: readonly (readonly [string, Value])[] }
  | { readonly kind: 'json'; readonly value: Json }
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'get'; readonly of: string; readonly property: reflect.Property }
  | { readonly kind: 'duration'; readonly hours: number }
  | { readonly kind: 'size'; readonly gibibytes: number }
  | { readonly kind: 'implementation'; readonly type: reflect.InterfaceType; readonly method: reflect.Method; readonly returns: Value }
  | { readonly kind: 'path'; readonly relative: string }
  /** A value only TypeScript can give (a function, a symbol, a getter that throws), made fresh at each run; no other language's program holds one. */
  | { readonly kind: 'raw'; readonly label: string; readonly make: () => unknown };

/** A statement of a program; `name` is its variable and, for a construct, its construct id. */
export type Statement =
  | { readonly kind: 'new'; readonly name: string; readonly cls: reflect.ClassType; readonly args: readonly (Value | undefined)[] }
  | { readonly kind: 'call'; readonly name: string; readonly target: Value | reflect.ClassType; readonly method: reflect.Method; readonly args: readonly (Value | undefined)[] }
  | { readonly kind: 'secret'; readonly name: string; readonly secretName: string };

/** The names every program has: the app and the one chart, of namespace {@link NAMESPACE}. */
export const APP = 'app';
export const CHART = 'chart';
export const NAMESPACE = 'demo';

/** The callable a program ends with instead of `app.synth()` when it calls it. */
export const SYNTHESIZE = `${ASSEMBLY}.ClusterTls.synthesize`;

/** A program: its statements, in order, and what it covers. */
export interface Program {
  readonly statements: readonly Statement[];
  /** The statement that synthesizes, if not `app.synth()`: `ClusterTls.synthesize`. */
  readonly synthesize?: Extract<Statement, { kind: 'call' }>;
  /** The targets (see `_api-model.ts`) the program gives. */
  readonly covered: ReadonlySet<string>;
  /** Every place given, by path. */
  readonly places: ReadonlyMap<string, Place>;
  /** Places a struct or callable has and the plan leaves out, by path. */
  readonly unset: ReadonlyMap<string, UnsetPlace>;
  /** The places that hold a string. */
  readonly strings: ReadonlySet<string>;
  /** The place each prop target (`CoordinatorProps.storage`, `new ClusterCertificates.props`) is first given at. */
  readonly targetPlaces: ReadonlyMap<string, TargetPlace>;
  /** The keys of the statements that make or call each construct, by its path, for reading a refusal. */
  readonly constructs: ReadonlyMap<string, readonly string[]>;
}

/** A place given: how many candidates it has, and how a refusal names it. */
export interface Place {
  readonly path: string;
  readonly candidates: number;
  readonly optional: boolean;
  /** The statement it belongs to. */
  readonly statement: string;
  /** How the library's messages name it, relative to the statement (`coordinator.storage`, `sources[0].host`). */
  readonly field: string;
  /** The value there as a message shows a value received (`"10Gi"`, `3`), for a string, number or boolean. */
  readonly shown?: string;
  /** The candidates there, for a string, number or boolean. */
  readonly options?: readonly string[];
}

/** Where a prop target is given: the place's path, its type, and the statement whose construct a refusal names. */
export interface TargetPlace {
  readonly path: string;
  readonly type: reflect.TypeReference;
  readonly statement: string;
  /** How the library's messages name the place (`coordinator.storage`). */
  readonly field: string;
  /** Whether the place may be left out. */
  readonly optional: boolean;
}

/** An optional field or parameter left out. */
export interface UnsetPlace {
  readonly path: string;
  readonly statement: string;
  readonly field: string;
}

/** What a program gives: the roots (callables called, in order), the optional places given, and the candidate at each place. */
export interface Plan {
  readonly roots: readonly Root[];
  readonly set: ReadonlySet<string>;
  readonly choice: ReadonlyMap<string, number>;
  /** Strings a refusal named as what it expects at a place, tried there before the lists of `_api-values.ts`. */
  readonly learned?: ReadonlyMap<string, readonly string[]>;
  /** Values given at places in place of what the plan would give there (the hostile-input test's). */
  readonly overrides?: ReadonlyMap<string, Value>;
}

/** A callable the plan calls, with its statement key. */
export interface Root {
  readonly key: string;
  readonly callable: ApiCallable;
}

/** The path of a union's choice of member at a place. */
export function memberPath(place: string): string {
  return `${place}|as`;
}

/** A place's path and display field after one step (see {@link Step}). */
export function stepPath(at: string, step: Step): string {
  if ('name' in step) {
    return `${at}/${step.name}`;
  }
  if ('item' in step) {
    return `${at}/0`;
  }
  if ('entry' in step) {
    return `${at}/#0`;
  }
  return at;
}

/** Builds the program of a plan. */
export function buildProgram(plan: Plan): Program {
  const b = new Builder(plan);
  for (const root of plan.roots) {
    b.root(root);
  }
  return b.program();
}

class Builder {
  private readonly statements: Statement[] = [];
  private readonly instances: { readonly name: string; readonly cls: reflect.ClassType }[] = [];
  private readonly covered = new Set<string>();
  private readonly places = new Map<string, Place>();
  private readonly unset = new Map<string, UnsetPlace>();
  private readonly constructs = new Map<string, string[]>();
  private readonly names = new Map<string, number>();
  /** The places that hold a string. */
  private readonly strings = new Set<string>();
  private readonly targetPlaces = new Map<string, TargetPlace>();
  /** How many instances of its class each statement's construct comes after, by statement key. */
  private readonly ordinals = new Map<string, number>();
  private synthesize?: Extract<Statement, { kind: 'call' }>;

  constructor(private readonly plan: Plan) {}

  public program(): Program {
    return {
      statements: this.statements, synthesize: this.synthesize, covered: this.covered, places: this.places,
      unset: this.unset, constructs: this.constructs, strings: this.strings, targetPlaces: this.targetPlaces,
    };
  }

  public root(root: Root): void {
    const { callable } = root;
    this.covered.add(callable.key);
    if (!callable.method) {
      this.newInstance(root.key, callable.cls, callable);
      return;
    }
    const target = callable.method.static ? callable.cls : this.reference(`${root.key}/this`, root.key, '', callable.cls.reference);
    const args = this.args(root.key, callable);
    const statement = { kind: 'call' as const, name: this.name(callable.method.name), target, method: callable.method, args };
    if (!(target instanceof reflect.ClassType)) {
      this.statementOf(target.kind === 'var' ? target.name : target.kind === 'get' ? target.of : '', root.key);
    }
    if (callable.method.parentType.fqn + '.' + callable.method.name === SYNTHESIZE) {
      this.synthesize = statement;
    } else {
      this.statements.push(statement);
    }
  }

  /** Records that refusals naming the construct of a variable may be about the statement `key`. */
  private statementOf(variable: string, key: string): void {
    const at = `${CHART_PATH}/${variable}`;
    this.constructs.set(at, [...(this.constructs.get(at) ?? []), key]);
  }

  /** A variable name: the base, numbered. */
  private name(base: string): string {
    const n = (this.names.get(base) ?? 0) + 1;
    this.names.set(base, n);
    return `${base.charAt(0).toLowerCase()}${base.slice(1)}${n}`;
  }

  private newInstance(key: string, cls: reflect.ClassType, callable: ApiCallable): string {
    this.covered.add(`new ${cls.name}`);
    const name = this.name(cls.name);
    this.statementOf(name, key);
    this.ordinals.set(key, this.instances.filter((i) => i.cls === cls).length);
    const args = this.args(key, callable, name);
    this.statements.push({ kind: 'new', name, cls, args });
    this.instances.push({ name, cls });
    return name;
  }

  /** The arguments of a call; `id`, for an initializer, is the construct id the parameter `id` gets. */
  private args(key: string, callable: ApiCallable, id?: string): (Value | undefined)[] {
    const args: (Value | undefined)[] = [];
    callable.parameters.forEach((p, i) => {
      const at = `${key}/${p.name}`;
      // The library names a construct's props by their fields alone, a method's parameters as `<method>.<parameter>`.
      const field = callable.method ? `${callable.method.name}.${p.name}` : isStruct(p.type.type) && i === callable.parameters.length - 1 ? '' : p.name;
      if (p.optional && !this.plan.set.has(at)) {
        this.unset.set(at, { path: at, statement: key, field });
        args.push(undefined);
        return;
      }
      this.covered.add(`${callable.key}.${p.name}`);
      if (p.name === 'id' && id !== undefined) {
        args.push({ kind: 'string', value: id });
        return;
      }
      args.push(this.value(at, key, field, `${callable.key}.${p.name}`, p.name, p.type, p.optional));
    });
    while (args.length > 0 && args[args.length - 1] === undefined) {
      args.pop();
    }
    return args;
  }

  /** The index of the candidate chosen at a place, recording the place. */
  private choose(at: string, statement: string, field: string, count: number, optional: boolean, fallback = 0): number {
    this.places.set(at, { path: at, candidates: count, optional, statement, field });
    return Math.min(this.plan.choice.get(at) ?? fallback, count - 1);
  }

  /** The value at a place; `member` is the union member taken unless the plan chooses. */
  private value(at: string, statement: string, field: string, key: string, name: string, type: reflect.TypeReference, optional: boolean, member = 0): Value {
    if (!this.targetPlaces.has(key) && !/ as |\[\]$|\{\}$/.test(key)) {
      this.targetPlaces.set(key, { path: at, type, statement, field, optional });
    }
    const override = this.plan.overrides?.get(at);
    if (override !== undefined) {
      return override;
    }
    if (type.unionOfTypes) {
      const members = type.unionOfTypes;
      const i = this.choose(memberPath(at), statement, field, members.length, optional, member);
      const as = `${key} as ${typeName(members[i])}`;
      this.covered.add(as);
      return this.value(at, statement, field, as, name, members[i], optional);
    }
    if (type.primitive === 'string' || type.primitive === 'number' || type.primitive === 'boolean') {
      const list: readonly (string | number | boolean)[] = type.primitive === 'string' ? [...new Set([...this.plan.learned?.get(at) ?? [], ...stringCandidates(name, key)])]
        : type.primitive === 'number' ? numberCandidates(name) : [true, false];
      if (type.primitive === 'string') {
        this.strings.add(at);
      }
      // A second construct of a class takes the second name, and so on: two of them do not declare the same objects.
      const value = list[this.choose(at, statement, field, list.length, optional, IDENTITIES.includes(name) ? this.ordinals.get(statement) ?? 0 : 0)];
      this.places.set(at, { ...this.places.get(at)!, shown: JSON.stringify(value), options: list.map(String) });
      return typeof value === 'string' ? this.pathOr(name, { kind: 'string', value })
        : typeof value === 'number' ? { kind: 'number', value } : { kind: 'boolean', value };
    }
    if (type.isAny || type.primitive === 'json') {
      return { kind: 'json', value: ANY_JSON[this.choose(at, statement, field, ANY_JSON.length, optional)] };
    }
    if (type.arrayOfType) {
      return this.list(at, statement, field, key, name, type.arrayOfType);
    }
    if (type.mapOfType) {
      return this.map(at, statement, field, key, name, type.mapOfType, optional);
    }
    const t = type.type;
    if (t instanceof reflect.EnumType) {
      const i = this.choose(at, statement, field, t.members.length, optional);
      this.covered.add(`${key} = ${t.name}.${t.members[i].name}`);
      return { kind: 'enum', type: t, member: t.members[i].name };
    }
    if (isStruct(t)) {
      return this.struct(at, statement, field, t);
    }
    return this.reference(at, statement, field, type);
  }

  /** A string, or a path below the scenario's folder where the name says the string is one. */
  private pathOr(name: string, value: Value): Value {
    const relative = PATHS[name];
    return relative === undefined ? value : { kind: 'path', relative };
  }

  private list(at: string, statement: string, field: string, key: string, name: string, element: reflect.TypeReference): Value {
    // One item, or one item of each member type where the items are of a union.
    const count = element.unionOfTypes?.length ?? 1;
    const items: Value[] = [];
    for (let i = 0; i < count; i++) {
      items.push(this.value(`${at}/${i}`, statement, `${field}[${i}]`, `${key}[]`, name, element, false, i));
    }
    return { kind: 'list', element, items };
  }

  private map(at: string, statement: string, field: string, key: string, name: string, element: reflect.TypeReference, optional: boolean): Value {
    if (isStruct(element.type)) {
      const lists = structMapKeys(name);
      const keys = lists[this.choose(at, statement, field, lists.length, optional)];
      return {
        kind: 'map', element,
        entries: keys.map((k, i) => [k, this.value(`${at}/#${i}`, statement, join(field, k), `${key}{}`, name, element, false)] as const),
      };
    }
    const maps = mapCandidates(name);
    const chosen = maps[this.choose(at, statement, field, maps.length, optional)];
    this.covered.add(`${key}{}`);
    return { kind: 'map', element, entries: Object.entries(chosen).map(([k, v]) => [k, { kind: 'json', value: v }] as const) };
  }

  private struct(at: string, statement: string, field: string, struct: reflect.InterfaceType): Value {
    const fields: [reflect.Property, Value][] = [];
    for (const f of structFields(struct)) {
      const place = `${at}/${f.name}`;
      const shown = join(field, f.name);
      if (f.optional && !this.plan.set.has(place)) {
        this.unset.set(place, { path: place, statement, field: shown });
        continue;
      }
      const key = `${struct.name}.${f.name}`;
      this.covered.add(key);
      fields.push([f, this.value(place, statement, shown, key, f.name, f.type, f.optional)]);
    }
    return { kind: 'struct', type: struct, fields };
  }

  /** A value of a class or a behavioural interface: a variable of the program, or one made here. */
  private reference(at: string, statement: string, field: string, type: reflect.TypeReference): Value {
    const providers = this.providers(at, type);
    if (providers.length === 0) {
      throw new Error(`no value of ${typeName(type)} can be made for ${at}`);
    }
    return providers[this.choose(at, statement, field, providers.length, false)]();
  }

  /** The ways to give a value of a reference type, in order of preference: each makes it when called. */
  private providers(at: string, type: reflect.TypeReference): (() => Value)[] {
    const fqn = type.fqn!;
    switch (fqn) {
      case 'constructs.Construct':
        return [() => ({ kind: 'var', name: CHART })];
      case 'constructs.IConstruct':
        return [() => ({ kind: 'var', name: CHART }), ...this.instances.map((i) => () => ({ kind: 'var' as const, name: i.name }))];
      case 'cdk8s.App':
        return [() => ({ kind: 'var', name: APP })];
      case 'cdk8s.Duration':
        return durationHours(lastName(at)).map((hours) => () => ({ kind: 'duration', hours }));
      case 'cdk8s.Size':
        return SIZE_GIBIBYTES.map((gibibytes) => () => ({ kind: 'size', gibibytes }));
      case 'cdk8s-plus-27.ISecret':
        return [() => this.secret(at)];
    }
    const t = type.type;
    if (!t || !isOwn(t)) {
      return [];
    }
    if (t instanceof reflect.InterfaceType && t.fqn === `${ASSEMBLY}.ISecretLike`) {
      return [() => this.secret(at)];
    }
    // A class fits as its declarations say (Java's rule, the strictest of the languages: Go's and
    // TypeScript's interfaces are structural, Python's runtime checks nothing).
    const fits = (cls: reflect.ClassType) => cls === t || cls.extends(t);
    const existing = this.instances.filter((i) => fits(i.cls)).map((i) => () => ({ kind: 'var' as const, name: i.name }));
    // What a user hands on from a construct already made: a property of that type (`database.certificates`).
    const handed = this.instances.flatMap((i) => i.cls.allProperties
      .filter((p) => !p.static && !p.optional && p.type.type !== undefined && (p.type.type === t || (p.type.type instanceof reflect.ClassType && fits(p.type.type))))
      .map((property) => () => ({ kind: 'get' as const, of: i.name, property })));
    const classes = t.assembly.classes.filter((c) => fits(c) && c.initializer && !c.abstract);
    const made = classes.map((cls) => () => ({ kind: 'var' as const, name: this.newInstance(`${at}@${cls.name}`, cls, { key: `new ${cls.name}`, cls, parameters: cls.initializer!.parameters }) }));
    const implemented = t instanceof reflect.InterfaceType && t.allProperties.length === 0 ? this.implementations(at, t) : [];
    // A construct made for what it hands on (`new TlsDatabaseCluster(…).certificates`).
    const madeToHand = t.assembly.classes.filter((c) => c.initializer && !c.abstract).flatMap((cls) => cls.allProperties
      .filter((p) => !p.static && !p.optional && p.type.type !== undefined && (p.type.type === t || (p.type.type instanceof reflect.ClassType && fits(p.type.type))))
      .map((property) => () => ({ kind: 'get' as const, of: this.newInstance(`${at}@${cls.name}.${property.name}`, cls, { key: `new ${cls.name}`, cls, parameters: cls.initializer!.parameters }), property })));
    return [...existing, ...handed, ...implemented, ...made, ...madeToHand];
  }

  /** A cdk8s-plus-27 Secret named by a program statement (`Secret.fromSecretName`): one named before, or a new one. */
  private secret(at: string): Value {
    const secrets = this.statements.filter((s) => s.kind === 'secret');
    const i = this.choose(`${at}|secret`, '', '', secrets.length + 1, false);
    if (i < secrets.length) {
      return { kind: 'var', name: secrets[i].name };
    }
    const name = this.name('secret');
    this.statements.push({ kind: 'secret', name, secretName: `${name}-tls` });
    return { kind: 'var', name };
  }

  /** An app's own implementation of an interface of methods that return plain values (`IOutputFileContent`). */
  private implementations(at: string, t: reflect.InterfaceType): (() => Value)[] {
    const methods = t.allMethods;
    if (methods.length !== 1 || methods[0].parameters.length > 0) {
      return [];
    }
    const method = methods[0];
    return [() => ({ kind: 'implementation', type: t, method, returns: this.value(`${at}/${method.name}()`, '', '', `${t.name}.${method.name}`, method.name, method.returns.type, false) })];
  }
}

/** Where a program's construct ids sit: below the chart. */
const CHART_PATH = NAMESPACE;

/** Names of string places that tell one construct from another of its class. */
const IDENTITIES = ['clusterName', 'releaseName'];

/** Names of string places that hold a path, and the path below the scenario's folder they get. */
const PATHS: Readonly<Record<string, string>> = { outdir: 'dist', recordFile: 'cluster-tls.lock.json', verifyReport: 'verify-report.json' };

function join(field: string, name: string): string {
  return field === '' ? name : `${field}.${name}`;
}

function lastName(at: string): string {
  return at.split('/').pop()!;
}

// ---------------------------------------------------------------------------------------------
// Running a program in this process, as TypeScript.

/** How a program ended: synthesized, refused with the library's one line, or failed otherwise. */
export type Outcome = { readonly ok: true } | { readonly ok: false; readonly refusal: boolean; readonly message: string };

/** The modules a program runs on: the library as jsii built it (the JavaScript every language runs), cdk8s and cdk8s-plus-27. */
function modules(): { lib: any; cdk8s: any; kplus: any } {
  return {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    lib: require(path.join(__dirname, '..', 'build', 'jsii', 'lib')),
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    cdk8s: require('cdk8s'),
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    kplus: require('cdk8s-plus-27'),
  };
}

/** The value of an enum's member, as the library (TypeScript) has it. */
export function enumValue(enumName: string, member: string): string | undefined {
  return modules().lib[enumName]?.[member];
}

/** How the values of a program's maps are ordered: as generated, each map reversed, or every map empty. */
export type MapOrder = 'forward' | 'reverse' | 'empty';

/**
 * Runs a program in this process, synthesizing into `folder` (its `dist/`, `cluster-tls/` and
 * record), with `folder` as the working folder while it runs: a relative path a program gives
 * (an `outdir` of a hostile test) stays inside it.
 */
export function runProgram(program: Program, folder: string, order: MapOrder = 'forward'): Outcome {
  fs.mkdirSync(folder, { recursive: true });
  const cwd = process.cwd();
  process.chdir(folder);
  try {
    return runIn(program, folder, order);
  } finally {
    process.chdir(cwd);
  }
}

function runIn(program: Program, folder: string, order: MapOrder): Outcome {
  const { lib, cdk8s, kplus } = modules();
  const vars = new Map<string, any>();
  const value = (v: Value | undefined): any => {
    if (v === undefined) {
      return undefined;
    }
    switch (v.kind) {
      case 'string': case 'number': case 'boolean': return v.value;
      case 'json': return orderedJson(v.value, order);
      case 'enum': return lib[v.type.name][v.member];
      case 'struct': return Object.fromEntries(v.fields.map(([f, x]) => [f.name, value(x)]));
      case 'list': return v.items.map(value);
      case 'map': return Object.fromEntries(orderedEntries(v.entries, order).map(([k, x]) => [k, value(x)]));
      case 'var': return vars.get(v.name);
      case 'get': return vars.get(v.of)[v.property.name];
      case 'duration': return cdk8s.Duration.hours(v.hours);
      case 'size': return cdk8s.Size.gibibytes(v.gibibytes);
      case 'implementation': { const r = value(v.returns); return { [v.method.name]: () => r }; }
      case 'path': return path.join(folder, v.relative);
      case 'raw': return v.make();
    }
  };
  try {
    const app = new cdk8s.App({ outdir: path.join(folder, 'dist') });
    vars.set(APP, app);
    vars.set(CHART, new cdk8s.Chart(app, CHART_PATH, { namespace: NAMESPACE }));
    const call = (s: Extract<Statement, { kind: 'call' }>) => {
      const target = s.target instanceof reflect.ClassType ? lib[s.target.name] : value(s.target);
      return target[s.method.name](...s.args.map(value));
    };
    for (const s of program.statements) {
      if (s.kind === 'new') {
        const args = s.args.map(value);
        if (s.args.length >= 2) {
          args[1] = s.name;
        }
        vars.set(s.name, new lib[s.cls.name](...args));
      } else if (s.kind === 'call') {
        vars.set(s.name, call(s));
      } else {
        vars.set(s.name, kplus.Secret.fromSecretName(vars.get(CHART), s.name, s.secretName));
      }
    }
    if (program.synthesize) {
      call(program.synthesize);
    } else {
      app.synth();
    }
    return { ok: true };
  } catch (e) {
    const error = e as Error;
    return { ok: false, refusal: error?.name === 'ClusterTlsError', message: error?.name === 'ClusterTlsError' ? error.message : String(error?.stack ?? error) };
  }
}

/** A map's entries in the order of a variant. */
export function orderedEntries<T>(entries: readonly (readonly [string, T])[], order: MapOrder): (readonly [string, T])[] {
  return order === 'forward' ? [...entries] : order === 'reverse' ? [...entries].reverse() : [];
}

/** JSON with every object's keys in the order of a variant (an empty variant empties only the top-level map, where `orderedEntries` does). */
export function orderedJson(value: Json, order: MapOrder): Json {
  if (Array.isArray(value)) {
    return value.map((v) => orderedJson(v, order));
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return Object.fromEntries((order === 'reverse' ? entries.reverse() : entries).map(([k, v]) => [k, orderedJson(v, order)]));
  }
  return value;
}
