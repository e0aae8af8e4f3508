/**
 * The library's API as jsii records it in its assembly (`.jsii`), read with jsii-reflect: every
 * construct, method and struct that Python, Go and Java see, and every place a value is given to
 * them. The generated tests of every language and of hostile input start from here, so that a prop
 * added later is covered without a test written for it.
 */
import * as path from 'node:path';
import * as reflect from 'jsii-reflect';

/** The project's root, whose `.jsii` is the assembly. */
export const ROOT = path.resolve(__dirname, '..');

/** The library's jsii name (the npm package's). */
export const ASSEMBLY = 'cdk8s-cluster-tls';

/** Loads the assembly and the assemblies it depends on (cdk8s, cdk8s-plus-27, constructs), from `node_modules`. */
export async function loadApi(): Promise<reflect.Assembly> {
  const system = new reflect.TypeSystem();
  return system.load(ROOT, { validate: false });
}

/** Whether a type is the library's own (not cdk8s's, constructs' or cdk8s-plus's). */
export function isOwn(type: reflect.Type): boolean {
  return type.assembly.name === ASSEMBLY;
}

/** Whether a type is a struct: a jsii data type, given as a literal of fields. */
export function isStruct(type: reflect.Type | undefined): type is reflect.InterfaceType {
  return type instanceof reflect.InterfaceType && type.datatype;
}

/** A callable of the library that an app calls: a construct's initializer, or a method (static or not) of a class. */
export interface ApiCallable {
  /** `new ClusterCertificates` or `TlsDatabaseCluster.addSqlClient`. */
  readonly key: string;
  readonly cls: reflect.ClassType;
  /** Undefined for an initializer. */
  readonly method?: reflect.Method;
  readonly parameters: readonly reflect.Parameter[];
}

/** Every initializer and method of the library's classes, in the assembly's order. */
export function callables(assembly: reflect.Assembly): ApiCallable[] {
  const found: ApiCallable[] = [];
  for (const cls of assembly.classes) {
    if (cls.initializer && !cls.abstract) {
      found.push({ key: `new ${cls.name}`, cls, parameters: cls.initializer.parameters });
    }
    for (const method of cls.allMethods.filter((m) => isOwn(m.definingType) && !m.protected)) {
      found.push({ key: `${cls.name}.${method.name}`, cls, method, parameters: method.parameters });
    }
  }
  return found;
}

/** The fields of a struct, its bases' included, in the order jsii lists them. */
export function structFields(struct: reflect.InterfaceType): reflect.Property[] {
  return struct.allProperties;
}

/** One step from a place to a value inside it: a field or parameter by name, a list's item, a map's entry, a union's member or an enum's member. */
export type Step =
  | { readonly name: string; readonly optional: boolean }
  | { readonly item: true }
  | { readonly entry: true }
  | { readonly member: number }
  | { readonly enumMember: number };

/**
 * What a complete test must give at least once: a callable called, an optional parameter or a
 * struct's field given (in each struct that takes it, inherited fields included), a union's member
 * type or an enum's member chosen at a place. The key names it: `new ClusterCertificates`,
 * `TlsDatabaseCluster.addSqlClient.options`, `CoordinatorProps.storage`, a list's item or map's
 * entry after `[]` or `{}`, a union's member after ` as `, an enum's after ` = `.
 */
export interface Target {
  readonly key: string;
  /** Where the steps start: a callable, or a struct wherever a callable takes it. */
  readonly owner: { readonly callable: ApiCallable } | { readonly struct: reflect.InterfaceType };
  readonly steps: readonly Step[];
  /** Whether the target is a prop (a field or a parameter), rather than a callable or a kind of value. */
  readonly prop: boolean;
}

/** The targets of an assembly, and what it declares that no callable takes. */
export interface Coverage {
  /** Every target, in the assembly's order. */
  readonly targets: readonly Target[];
  /** The structs no callable takes whose fields are given in each struct that extends them. */
  readonly bases: readonly string[];
  /** The structs the library declares that no callable takes: results, and the types of functions jsii does not bind. */
  readonly notTaken: readonly string[];
}

/** The short name of a type reference, as a target's key shows a union's member. */
export function typeName(ref: reflect.TypeReference): string {
  if (ref.primitive) {
    return ref.primitive;
  }
  if (ref.fqn) {
    return ref.fqn.startsWith(`${ASSEMBLY}.`) ? ref.fqn.slice(ASSEMBLY.length + 1) : ref.fqn;
  }
  if (ref.arrayOfType) {
    return `${typeName(ref.arrayOfType)}[]`;
  }
  if (ref.mapOfType) {
    return `map<${typeName(ref.mapOfType)}>`;
  }
  if (ref.unionOfTypes) {
    return ref.unionOfTypes.map(typeName).join(' | ');
  }
  return ref.toString();
}

/** The targets of the assembly (see {@link Target}). */
export function coverage(assembly: reflect.Assembly): Coverage {
  const targets: Target[] = [];
  const structs = new Set<string>();
  const kinds = (key: string, owner: Target['owner'], steps: Step[], type: reflect.TypeReference): void => {
    if (type.unionOfTypes) {
      type.unionOfTypes.forEach((member, i) => {
        const at = `${key} as ${typeName(member)}`;
        targets.push({ key: at, owner, steps: [...steps, { member: i }], prop: false });
        kinds(at, owner, [...steps, { member: i }], member);
      });
    } else if (type.arrayOfType) {
      kinds(`${key}[]`, owner, [...steps, { item: true }], type.arrayOfType);
    } else if (type.mapOfType) {
      kinds(`${key}{}`, owner, [...steps, { entry: true }], type.mapOfType);
    } else if (type.type instanceof reflect.EnumType && isOwn(type.type)) {
      const e = type.type;
      e.members.forEach((m, i) => targets.push({ key: `${key} = ${e.name}.${m.name}`, owner, steps: [...steps, { enumMember: i }], prop: false }));
    } else if (isStruct(type.type) && isOwn(type.type) && !structs.has(type.type.fqn)) {
      const struct = type.type;
      structs.add(struct.fqn);
      for (const field of structFields(struct)) {
        const at = `${struct.name}.${field.name}`;
        const step = [{ name: field.name, optional: field.optional }];
        targets.push({ key: at, owner: { struct }, steps: step, prop: true });
        kinds(at, { struct }, step, field.type);
      }
    }
  };
  for (const callable of callables(assembly)) {
    targets.push({ key: callable.key, owner: { callable }, steps: [], prop: false });
    for (const p of callable.parameters) {
      const at = `${callable.key}.${p.name}`;
      const step = [{ name: p.name, optional: p.optional }];
      targets.push({ key: at, owner: { callable }, steps: step, prop: true });
      kinds(at, { callable }, step, p.type);
    }
  }
  const untaken = assembly.interfaces.filter((i) => i.datatype && !structs.has(i.fqn));
  const isBase = (i: reflect.InterfaceType) => assembly.interfaces.some((s) => structs.has(s.fqn) && s.getInterfaces(true).includes(i));
  return { targets, bases: untaken.filter(isBase).map((i) => i.name), notTaken: untaken.filter((i) => !isBase(i)).map((i) => i.name) };
}
