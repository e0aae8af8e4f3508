/**
 * The generated apps (`_api-programs.ts`) written as Python, Go and Java programs, with the names
 * jsii gives each language. One program holds every run (a scenario in one map order): run with
 * the folder to write in, it synthesizes each run into `<folder>/<run>/` and prints one line a run,
 * `<run>: ok` or `<run>: error: <the first line of the refusal>`.
 */
import { toCamelCase, toSnakeCase } from 'codemaker';
import { jsiiToPascalCase } from 'jsii-pacmak/lib/naming-util';
import { toPythonIdentifier } from 'jsii-pacmak/lib/targets/python/util';
import * as reflect from 'jsii-reflect';
import { APP, CHART, MapOrder, NAMESPACE, Program, Statement, Value, orderedEntries, orderedJson } from './_api-programs';
import { Json } from './_api-values';

/** One run of a program: a scenario's program in one order of its maps. */
export interface Run {
  readonly name: string;
  readonly program: Program;
  readonly order: MapOrder;
}

/** The languages the programs are written in. */
export type Language = 'python' | 'go' | 'java';

/** The source of the program of every run, in a language. */
export function emitProgram(language: Language, runs: readonly Run[]): string {
  switch (language) {
    case 'python': return new PythonEmitter().program(runs);
    case 'go': return new GoEmitter().program(runs);
    case 'java': return new JavaEmitter().program(runs);
  }
}

/** What every emitter shares: the implementations of interfaces a program defines, and the walk over statements. */
abstract class Emitter {
  /** Classes (Python, Go) the program defines for the interfaces it implements, by value. */
  protected readonly implementations: string[] = [];
  protected order: MapOrder = 'forward';

  public program(runs: readonly Run[]): string {
    const functions = runs.map((run) => {
      this.order = run.order;
      return this.runFunction(functionName(run.name), run.program);
    });
    return this.file(runs, functions);
  }

  protected abstract file(runs: readonly Run[], functions: string[]): string;
  protected abstract runFunction(name: string, program: Program): string;

  /** A map's entries in the run's order. */
  protected entries<T>(entries: readonly (readonly [string, T])[]): (readonly [string, T])[] {
    return orderedEntries(entries, this.order);
  }

  /** JSON in the run's order. */
  protected json(value: Json): Json {
    return orderedJson(value, this.order);
  }
}

/** A function name from a run's name (`s3-reverse` → `s3_reverse`). */
function functionName(run: string): string {
  return `run_${run.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** A string literal that Python, Go and Java read as the same string (JSON's escapes are theirs too). */
function quote(text: string): string {
  return JSON.stringify(text).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The arguments a call passes: the values up to the last one given. */
function given(args: readonly (Value | undefined)[]): (Value | undefined)[] {
  const out = [...args];
  while (out.length > 0 && out[out.length - 1] === undefined) {
    out.pop();
  }
  return out;
}

/** Whether a method returns something a variable can hold. */
function returns(method: reflect.Method): boolean {
  return !method.returns.type.void;
}

// ---------------------------------------------------------------------------------------------

/** A member's name in Python, as jsii-pacmak gives it: snake case, a keyword with `_` after it. */
function pythonName(name: string): string {
  return toPythonIdentifier(toSnakeCase(name));
}

class PythonEmitter extends Emitter {
  protected file(runs: readonly Run[], functions: string[]): string {
    return [
      '# Generated from the jsii assembly by test/_api-emit.ts: every run of the generated apps.',
      'import os',
      'import sys',
      '',
      'import jsii',
      'import cdk8s',
      'import cdk8s_plus_27',
      'import cdk8s_cluster_tls as lib',
      '',
      ...this.implementations,
      ...functions,
      'RUNS = [',
      ...runs.map((r) => `    (${quote(r.name)}, ${functionName(r.name)}),`),
      ']',
      '',
      '',
      'def main() -> int:',
      '    root = sys.argv[1]',
      '    for name, run in RUNS:',
      '        folder = os.path.join(root, name)',
      '        os.makedirs(folder, exist_ok=True)',
      '        try:',
      '            run(folder)',
      '            print(f"{name}: ok", flush=True)',
      '        except Exception as e:  # a refusal is a RuntimeError; anything else is reported the same way',
      '            lines = str(e).splitlines() or [type(e).__name__]',
      '            print(f"{name}: error: {lines[0]}", flush=True)',
      '    return 0',
      '',
      '',
      'if __name__ == "__main__":',
      '    sys.exit(main())',
      '',
    ].join('\n');
  }

  protected runFunction(name: string, program: Program): string {
    const lines = [
      `app = cdk8s.App(outdir=os.path.join(folder, "dist"))`,
      `${CHART} = cdk8s.Chart(app, ${quote(NAMESPACE)}, namespace=${quote(NAMESPACE)})`,
      ...program.statements.map((s) => this.statement(s)),
      program.synthesize ? this.call(program.synthesize) : `${APP}.synth()`,
    ];
    return [`def ${name}(folder: str) -> None:`, ...lines.map((l) => `    ${l}`), '', ''].join('\n');
  }

  private statement(s: Statement): string {
    switch (s.kind) {
      case 'new': return `${s.name} = lib.${s.cls.name}(${this.args(s.cls.initializer!.parameters, s.args)})`;
      case 'call': return returns(s.method) ? `${s.name} = ${this.call(s)}` : this.call(s);
      case 'secret': return `${s.name} = cdk8s_plus_27.Secret.from_secret_name(${CHART}, ${quote(s.name)}, ${quote(s.secretName)})`;
    }
  }

  private call(s: Extract<Statement, { kind: 'call' }>): string {
    const target = s.target instanceof reflect.ClassType ? `lib.${s.target.name}` : this.value(s.target);
    return `${target}.${pythonName(s.method.name)}(${this.args(s.method.parameters, s.args)})`;
  }

  /** Arguments as Python passes them: a last parameter that is a struct, as keyword arguments (jsii lifts its fields). */
  private args(parameters: readonly reflect.Parameter[], args: readonly (Value | undefined)[]): string {
    const out = given(args);
    return out.map((v, i) => {
      if (v === undefined) {
        return 'None';
      }
      if (i === parameters.length - 1 && v.kind === 'struct') {
        return v.fields.map(([f, x]) => `${pythonName(f.name)}=${this.value(x)}`).join(', ');
      }
      return this.value(v);
    }).filter((a) => a !== '').join(', ');
  }

  private value(v: Value): string {
    switch (v.kind) {
      case 'string': return quote(v.value);
      case 'number': return String(v.value);
      case 'boolean': return v.value ? 'True' : 'False';
      case 'enum': return `lib.${v.type.name}.${v.member}`;
      case 'struct': return `lib.${v.type.name}(${v.fields.map(([f, x]) => `${pythonName(f.name)}=${this.value(x)}`).join(', ')})`;
      case 'list': return `[${v.items.map((x) => this.value(x)).join(', ')}]`;
      case 'map': return `{${this.entries(v.entries).map(([k, x]) => `${quote(k)}: ${this.value(x)}`).join(', ')}}`;
      case 'json': return pythonJson(this.json(v.value));
      case 'var': return v.name;
      case 'get': return `${v.of}.${pythonName(v.property.name)}`;
      case 'duration': return `cdk8s.Duration.hours(${v.hours})`;
      case 'size': return `cdk8s.Size.gibibytes(${v.gibibytes})`;
      case 'path': return `os.path.join(folder, ${quote(v.relative)})`;
      case 'raw': throw new Error(`${v.label} is a value only TypeScript can give`);
      case 'implementation': {
        const cls = `Implementation${this.implementations.length + 1}`;
        const type = pythonReturnType(v.method);
        this.implementations.push([
          `@jsii.implements(lib.${v.type.name})`,
          `class ${cls}:`,
          `    def ${pythonName(v.method.name)}(self) -> ${type}:`,
          `        return ${this.value(v.returns)}`,
          '',
          '',
        ].join('\n'));
        return `${cls}()`;
      }
    }
  }
}

function pythonReturnType(method: reflect.Method): string {
  const p = method.returns.type.primitive;
  return p === 'string' ? 'str' : p === 'boolean' ? 'bool' : p === 'number' ? 'float' : 'object';
}

function pythonJson(value: Json): string {
  if (typeof value === 'string') {
    return quote(value);
  }
  if (typeof value === 'boolean') {
    return value ? 'True' : 'False';
  }
  if (typeof value === 'number') {
    return String(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map(pythonJson).join(', ')}]`;
  }
  return `{${Object.entries(value).map(([k, x]) => `${quote(k)}: ${pythonJson(x)}`).join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------

/** The Go type of a place, as jsii gives it. */
function goType(type: reflect.TypeReference): string {
  if (type.unionOfTypes || type.isAny) {
    return 'interface{}';
  }
  switch (type.primitive) {
    case 'string': return '*string';
    case 'number': return '*float64';
    case 'boolean': return '*bool';
    case 'json': return '*map[string]interface{}';
  }
  if (type.arrayOfType) {
    return `*[]${goType(type.arrayOfType)}`;
  }
  if (type.mapOfType) {
    return `*map[string]${goType(type.mapOfType)}`;
  }
  const t = type.type!;
  const pkg = goPackage(t.assembly.name);
  if (t instanceof reflect.InterfaceType && t.datatype) {
    return `*${pkg}.${t.name}`;
  }
  return `${pkg}.${t.name}`;
}

function goPackage(assembly: string): string {
  return ({ 'cdk8s-cluster-tls': 'lib', cdk8s: 'cdk8s', 'cdk8s-plus-27': 'cdk8splus27', constructs: 'constructs' } as Record<string, string>)[assembly];
}

class GoEmitter extends Emitter {
  protected file(runs: readonly Run[], functions: string[]): string {
    return [
      '// Generated from the jsii assembly by test/_api-emit.ts: every run of the generated apps.',
      'package main',
      '',
      'import (',
      '\t"fmt"',
      '\t"os"',
      '\t"path/filepath"',
      '\t"strings"',
      '',
      '\t"github.com/aws/constructs-go/constructs/v10"',
      '\t"github.com/aws/jsii-runtime-go"',
      '\tlib "github.com/cdk8s-cluster-tls/cdk8s-cluster-tls-go/clustertls"',
      '\t"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"',
      '\t"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus27/v2"',
      ')',
      '',
      '// Every package imported is used, whatever the runs hold.',
      'var (',
      '\t_ constructs.IConstruct',
      '\t_ = cdk8splus27.Secret_FromSecretName',
      '\t_ = strings.Split',
      ')',
      '',
      ...this.implementations,
      ...functions,
      'func run(root string, name string, f func(string)) {',
      '\tfolder := filepath.Join(root, name)',
      '\tif err := os.MkdirAll(folder, 0o755); err != nil {',
      '\t\tpanic(err)',
      '\t}',
      '\tdefer func() {',
      '\t\tif r := recover(); r != nil {',
      '\t\t\tfmt.Printf("%s: error: %s\\n", name, strings.SplitN(fmt.Sprint(r), "\\n", 2)[0])',
      '\t\t}',
      '\t}()',
      '\tf(folder)',
      '\tfmt.Printf("%s: ok\\n", name)',
      '}',
      '',
      'func main() {',
      '\troot := os.Args[1]',
      ...runs.map((r) => `\trun(root, ${quote(r.name)}, ${functionName(r.name)})`),
      '}',
      '',
    ].join('\n');
  }

  protected runFunction(name: string, program: Program): string {
    const lines = [
      `${APP} := cdk8s.NewApp(&cdk8s.AppProps{Outdir: jsii.String(filepath.Join(folder, "dist"))})`,
      `${CHART} := cdk8s.NewChart(${APP}, jsii.String(${quote(NAMESPACE)}), &cdk8s.ChartProps{Namespace: jsii.String(${quote(NAMESPACE)})})`,
      `_ = ${CHART}`,
      ...program.statements.flatMap((s) => this.statement(s)),
      program.synthesize ? this.call(program.synthesize) : `${APP}.Synth()`,
    ];
    return [`func ${name}(folder string) {`, ...lines.map((l) => `\t${l}`), '}', ''].join('\n');
  }

  private statement(s: Statement): string[] {
    switch (s.kind) {
      case 'new': return [`${s.name} := lib.New${s.cls.name}(${this.args(s.cls.initializer!.parameters, s.args)})`, `_ = ${s.name}`];
      case 'call': return returns(s.method) ? [`${s.name} := ${this.call(s)}`, `_ = ${s.name}`] : [this.call(s)];
      case 'secret': return [`${s.name} := cdk8splus27.Secret_FromSecretName(${CHART}, jsii.String(${quote(s.name)}), jsii.String(${quote(s.secretName)}))`, `_ = ${s.name}`];
    }
  }

  private call(s: Extract<Statement, { kind: 'call' }>): string {
    const args = this.args(s.method.parameters, s.args, true);
    if (s.target instanceof reflect.ClassType) {
      return `lib.${s.target.name}_${jsiiToPascalCase(s.method.name)}(${args})`;
    }
    return `${this.value(s.target, undefined)}.${jsiiToPascalCase(s.method.name)}(${args})`;
  }

  /** Every parameter, in order; an optional one left out is nil (`all`: a method's, where Go has no shorter form). */
  private args(parameters: readonly reflect.Parameter[], args: readonly (Value | undefined)[], all = false): string {
    const count = all ? parameters.length : given(args).length;
    return parameters.slice(0, Math.max(count, given(args).length)).map((p, i) => (args[i] === undefined ? 'nil' : this.value(args[i]!, p.type))).join(', ');
  }

  private value(v: Value, type: reflect.TypeReference | undefined): string {
    switch (v.kind) {
      case 'string': return `jsii.String(${quote(v.value)})`;
      case 'number': return `jsii.Number(${v.value})`;
      case 'boolean': return `jsii.Bool(${v.value})`;
      case 'enum': return `lib.${v.type.name}_${v.member}`;
      case 'struct': return `&lib.${v.type.name}{${v.fields.map(([f, x]) => `${jsiiToPascalCase(f.name)}: ${this.value(x, f.type)}`).join(', ')}}`;
      case 'list': return `&[]${goType(v.element)}{${v.items.map((x) => this.value(x, v.element)).join(', ')}}`;
      case 'map': return `&map[string]${goType(v.element)}{${this.entries(v.entries).map(([k, x]) => `${quote(k)}: ${this.value(x, v.element)}`).join(', ')}}`;
      case 'json': return type?.primitive === 'string' ? `jsii.String(${quote(String(v.value))})` : goJson(this.json(v.value));
      case 'var': return v.name;
      case 'get': return `${v.of}.${jsiiToPascalCase(v.property.name)}()`;
      case 'duration': return `cdk8s.Duration_Hours(jsii.Number(${v.hours}))`;
      case 'size': return `cdk8s.Size_Gibibytes(jsii.Number(${v.gibibytes}))`;
      case 'path': return `jsii.String(filepath.Join(folder, ${quote(v.relative)}))`;
      case 'raw': throw new Error(`${v.label} is a value only TypeScript can give`);
      case 'implementation': {
        const type = `implementation${this.implementations.length + 1}`;
        this.implementations.push([
          `// ${type} implements ${v.type.name}. It has a field: the jsii runtime tells objects apart by address, and`,
          '// every value of a type of size zero has the same one.',
          `type ${type} struct{ id int }`,
          '',
          `func (*${type}) ${jsiiToPascalCase(v.method.name)}() ${goType(v.method.returns.type)} {`,
          `\treturn ${this.value(v.returns, v.method.returns.type)}`,
          '}',
          '',
        ].join('\n'));
        // A pointer: the jsii runtime takes the address of what implements an interface.
        return `&${type}{id: ${this.implementations.length}}`;
      }
    }
  }
}

/** JSON as a Go value of type `interface{}`: numbers as float64, as JSON has them. */
function goJson(value: Json): string {
  if (typeof value === 'string') {
    return quote(value);
  }
  if (typeof value === 'boolean') {
    return String(value);
  }
  if (typeof value === 'number') {
    return `float64(${value})`;
  }
  if (Array.isArray(value)) {
    return `[]interface{}{${value.map(goJson).join(', ')}}`;
  }
  return `map[string]interface{}{${Object.entries(value).map(([k, x]) => `${quote(k)}: ${goJson(x)}`).join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------

/** The Java type a place's value is written as, where a cast or a declaration needs it. */
function javaType(type: reflect.TypeReference): string {
  switch (type.primitive) {
    case 'string': return 'String';
    case 'number': return 'Number';
    case 'boolean': return 'Boolean';
  }
  if (type.type) {
    return javaQualified(type.type);
  }
  return 'Object';
}

function javaQualified(t: reflect.Type): string {
  const pkg = ({ 'cdk8s-cluster-tls': 'io.github.cdk8s_cluster_tls', cdk8s: 'org.cdk8s', 'cdk8s-plus-27': 'org.cdk8s.plus27', constructs: 'software.constructs' } as Record<string, string>)[t.assembly.name];
  return `${pkg}.${t.name}`;
}

/** A getter's name in Java, as jsii-pacmak gives it: `getCertificates`, `getSkipInternalClientCA`. */
function javaGetter(name: string): string {
  return `get${jsiiToPascalCase(name)}`;
}

/** A builder's setter in Java, as jsii-pacmak gives it: camel case (`skipInternalClientCa`). */
function javaSetter(name: string): string {
  return toCamelCase(name);
}

class JavaEmitter extends Emitter {
  protected file(runs: readonly Run[], functions: string[]): string {
    return [
      '// Generated from the jsii assembly by test/_api-emit.ts: every run of the generated apps.',
      'package example;',
      '',
      'import java.nio.file.Files;',
      'import java.nio.file.Paths;',
      'import java.util.List;',
      'import java.util.Map;',
      '',
      'public final class Generated {',
      '    private Generated() {}',
      '',
      '    /** One run: it synthesizes into the folder given. */',
      '    private interface RunBody {',
      '        void run(String folder) throws Exception;',
      '    }',
      '',
      ...functions,
      '    private static void run(String root, String name, RunBody body) throws Exception {',
      '        String folder = Paths.get(root, name).toString();',
      '        Files.createDirectories(Paths.get(folder));',
      '        try {',
      '            body.run(folder);',
      '            System.out.println(name + ": ok");',
      '        } catch (RuntimeException e) {',
      '            String message = String.valueOf(e.getMessage());',
      '            System.out.println(name + ": error: " + message.split("\\n", 2)[0]);',
      '        }',
      '    }',
      '',
      '    public static void main(String[] args) throws Exception {',
      ...runs.map((r) => `        run(args[0], ${quote(r.name)}, Generated::${functionName(r.name)});`),
      '    }',
      '}',
      '',
    ].join('\n');
  }

  protected runFunction(name: string, program: Program): string {
    const lines = [
      `org.cdk8s.App ${APP} = new org.cdk8s.App(org.cdk8s.AppProps.builder().outdir(Paths.get(folder, "dist").toString()).build());`,
      `org.cdk8s.Chart ${CHART} = new org.cdk8s.Chart(${APP}, ${quote(NAMESPACE)}, org.cdk8s.ChartProps.builder().namespace(${quote(NAMESPACE)}).build());`,
      ...program.statements.map((s) => this.statement(s)),
      program.synthesize ? `${this.call(program.synthesize)};` : `${APP}.synth();`,
    ];
    return [`    private static void ${name}(String folder) {`, ...lines.map((l) => `        ${l}`), '    }', ''].join('\n');
  }

  private statement(s: Statement): string {
    switch (s.kind) {
      case 'new': {
        const [scope, id, props] = s.args;
        const setters = props?.kind === 'struct' ? props.fields.map(([f, x]) => `.${javaSetter(f.name)}(${this.value(x, f.type)})`).join('') : '';
        return `var ${s.name} = ${javaQualified(s.cls)}.Builder.create(${this.value(scope!, undefined)}, ${this.value(id!, undefined)})${setters}.build();`;
      }
      case 'call': return returns(s.method) ? `var ${s.name} = ${this.call(s)};` : `${this.call(s)};`;
      case 'secret': return `var ${s.name} = org.cdk8s.plus27.Secret.fromSecretName(${CHART}, ${quote(s.name)}, ${quote(s.secretName)});`;
    }
  }

  private call(s: Extract<Statement, { kind: 'call' }>): string {
    const target = s.target instanceof reflect.ClassType ? javaQualified(s.target) : this.value(s.target, undefined);
    const args = given(s.args).map((v, i) => (v === undefined ? 'null' : this.value(v, s.method.parameters[i].type))).join(', ');
    return `${target}.${s.method.name}(${args})`;
  }

  private value(v: Value, type: reflect.TypeReference | undefined): string {
    switch (v.kind) {
      case 'string': return quote(v.value);
      case 'number': return String(v.value);
      case 'boolean': return String(v.value);
      case 'enum': return `${javaQualified(v.type)}.${v.member}`;
      case 'struct': return `${javaQualified(v.type)}.builder()${v.fields.map(([f, x]) => `.${javaSetter(f.name)}(${this.value(x, f.type)})`).join('')}.build()`;
      case 'list': return `List.of(${v.items.map((x) => this.value(x, v.element)).join(', ')})`;
      case 'map': {
        const entries = this.entries(v.entries);
        // A map of JSON values holds Objects: each value is cast, so that Java infers Map<String, Object>.
        const cast = v.element.isAny || v.element.primitive === 'json' ? '(Object) ' : '';
        return entries.length === 0 ? 'Map.of()' : `Map.ofEntries(${entries.map(([k, x]) => `Map.entry(${quote(k)}, ${cast}${this.value(x, v.element)})`).join(', ')})`;
      }
      case 'json': return type?.primitive === 'string' ? quote(String(v.value)) : javaJson(this.json(v.value));
      case 'var': return v.name;
      case 'get': return `${v.of}.${javaGetter(v.property.name)}()`;
      case 'duration': return `org.cdk8s.Duration.hours(${v.hours})`;
      case 'size': return `org.cdk8s.Size.gibibytes(${v.gibibytes})`;
      case 'path': return `Paths.get(folder, ${quote(v.relative)}).toString()`;
      case 'raw': throw new Error(`${v.label} is a value only TypeScript can give`);
      case 'implementation': {
        const returned = javaType(v.method.returns.type);
        return `new ${javaQualified(v.type)}() { @Override public ${returned} ${v.method.name}() { return ${this.value(v.returns, v.method.returns.type)}; } }`;
      }
    }
  }
}

/** JSON as a Java value: maps and lists of Objects. */
function javaJson(value: Json): string {
  if (typeof value === 'string') {
    return quote(value);
  }
  if (typeof value === 'boolean' || typeof value === 'number') {
    return String(value);
  }
  if (Array.isArray(value)) {
    return `List.<Object>of(${value.map(javaJson).join(', ')})`;
  }
  const entries = Object.entries(value);
  return entries.length === 0 ? 'Map.<String, Object>of()' : `Map.<String, Object>ofEntries(${entries.map(([k, x]) => `Map.entry(${quote(k)}, ${javaJson(x)})`).join(', ')})`;
}
