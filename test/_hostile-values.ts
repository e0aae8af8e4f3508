/**
 * Hostile values, by the type of the place they are given at: what a careless hand, an attacker,
 * a JavaScript caller or a configuration file can pass where the API asks for a string, a number,
 * a list, a map, a duration or a construct. Each value is made fresh for each run (a getter that
 * throws, a cycle, a proxy), and says whether the library may accept it: a value that may be
 * valid (a YAML 1.1 word as a string, template syntax) must then be written so that the program
 * downstream reads it as given.
 */
import * as reflect from 'jsii-reflect';
import { Value } from './_api-programs';

/** What every credential-like hostile value carries; no message may repeat it. */
export const MARKER = 'Cr3dM4rk';

/** One hostile value: a label for reports, the value, and whether the library may accept it. */
export interface Hostile {
  readonly label: string;
  readonly value: Value;
  /** Whether accepting it can be right (a string the library may write); otherwise only a refusal is. */
  readonly mayAccept: boolean;
  /** Whether it holds a credential wherever it is given (a URL with a password): no message may show it. */
  readonly credential?: boolean;
}

function raw(label: string, make: () => unknown, mayAccept = false): Hostile {
  return { label, value: { kind: 'raw', label, make }, mayAccept };
}

/** An object whose every property read throws: a getter, or a proxy. */
function throwing(): Hostile[] {
  return [
    raw('an object whose getter throws', () => Object.defineProperty({}, 'name', { get() { throw new Error(`getter ${MARKER}`); }, enumerable: true })),
    raw('a proxy that throws on every read', () => new Proxy({}, { get() { throw new Error(`proxy ${MARKER}`); }, ownKeys() { throw new Error(`proxy keys ${MARKER}`); } })),
  ];
}

/** Values of no type the API takes anywhere. */
const ANY: (() => Hostile)[] = [
  () => raw('null', () => null),
  () => raw('a function', () => () => MARKER),
  () => raw('a symbol', () => Symbol(MARKER)),
  () => raw('a BigInt', () => BigInt(2) ** BigInt(70)),
  () => raw('a Date', () => new Date(0)),
  () => raw('a Map', () => new Map([['a', MARKER]])),
  () => raw('an object that contains itself', () => { const o: Record<string, unknown> = { a: MARKER }; o.self = o; return o; }),
];

/** Strings: the empty one, huge ones, control characters, YAML 1.1 and 1.2 words, template syntax, paths, credentials. */
const STRINGS: readonly { readonly label: string; readonly value: string; readonly credential?: boolean }[] = [
  { label: 'the empty string', value: '' },
  { label: 'a blank', value: ' ' },
  { label: '5,000,000 characters', value: `${MARKER}${'x'.repeat(5_000_000)}` },
  { label: 'a line break', value: `a\nb ${MARKER}` },
  { label: 'a NUL and an escape character', value: `a\u0000\u001b[31mb` },
  { label: 'a right-to-left override', value: 'a\u202eb' },
  { label: 'YAML 1.1 yes', value: 'yes' },
  { label: 'YAML 1.1 on', value: 'on' },
  { label: 'YAML 1.1 octal', value: '0o17' },
  { label: 'YAML null', value: '~' },
  { label: 'a merge key', value: '<<' },
  { label: 'an alias', value: '*a' },
  { label: 'a tag', value: '!!binary' },
  { label: 'a key and value', value: 'a: b' },
  { label: 'a comment', value: '# c' },
  { label: 'Go template syntax', value: '{{ .Values.x }}' },
  { label: 'Prometheus template syntax', value: '{{ $labels.secret }}' },
  { label: 'a path out of the folder', value: '../../etc/passwd' },
  { label: 'an absolute path', value: '/etc/passwd' },
  { label: 'a URL with a password', value: `https://admin:${MARKER}@example.com/x`, credential: true },
  { label: 'user information before a host', value: `root:${MARKER}@db.example.com`, credential: true },
  { label: '254 characters', value: 'a'.repeat(254) },
  { label: 'upper case', value: 'BASIC' },
  { label: 'a wildcard', value: '*' },
  { label: 'a number in words', value: '1e999' },
];

const NUMBERS: readonly { readonly label: string; readonly value: number }[] = [
  { label: 'NaN', value: NaN },
  { label: 'Infinity', value: Infinity },
  { label: '-Infinity', value: -Infinity },
  { label: '-1', value: -1 },
  { label: '0.5', value: 0.5 },
  { label: '2^31', value: 2 ** 31 },
  { label: '2^53 + 2', value: 2 ** 53 + 2 },
  { label: 'the largest double', value: Number.MAX_VALUE },
  { label: '-0', value: -0 },
];

/** The hostile values of a place of the given type. */
export function hostileValues(type: reflect.TypeReference): Hostile[] {
  const common = ANY.map((make) => make());
  if (type.unionOfTypes) {
    // A value one member refuses may be another's: a string for a construct is a Secret's name where the union takes a string.
    const takesString = type.unionOfTypes.some((t) => t.primitive === 'string');
    return [...common, ...type.unionOfTypes.flatMap((t) => hostileValues(t).filter((h) => h.value.kind !== 'raw' || !common.some((c) => c.label === h.label)))
      .map((h) => (takesString && h.label === 'a string for a construct' ? { ...h, mayAccept: true } : h))];
  }
  if (type.primitive === 'string') {
    return [...common, ...throwing(), raw('a number', () => 1),
      ...STRINGS.map((s) => ({ label: s.label, value: { kind: 'string' as const, value: s.value }, mayAccept: true, credential: s.credential }))];
  }
  if (type.primitive === 'number') {
    return [...common, raw('a numeric string', () => '3'), ...NUMBERS.map((n) => ({ label: n.label, value: { kind: 'number' as const, value: n.value }, mayAccept: true }))];
  }
  if (type.primitive === 'boolean') {
    return [...common, raw('the string "true"', () => 'true'), raw('1', () => 1)];
  }
  if (type.arrayOfType) {
    return [
      ...common,
      raw('a string for a list', () => 'a'),
      raw('a list with a hole', () => { const a: unknown[] = []; a[1] = 'x'; return a; }),
      raw('a list holding undefined', () => [undefined]),
      raw('a list holding null', () => [null]),
      raw('a list that contains itself', () => { const a: unknown[] = []; a.push(a); return a; }),
      raw('a list with a getter that throws', () => Object.defineProperty([], 0, { get() { throw new Error(MARKER); }, enumerable: true })),
    ];
  }
  if (type.mapOfType || type.isAny || type.primitive === 'json') {
    return [
      ...common,
      raw('a list for a map', () => ['a']),
      raw('a symbol key', () => ({ [Symbol('k')]: 'v' })),
      raw('an own __proto__ key', () => JSON.parse(`{"__proto__": {"polluted": "${MARKER}"}}`)),
      raw('a key with a line break', () => ({ [`a\nb${MARKER}`]: 'v' })),
      raw('the empty key', () => ({ '': 'v' })),
      raw('a value that is a function', () => ({ a: () => MARKER })),
      raw('a value that is NaN', () => ({ a: NaN })),
      raw('a getter that throws', () => Object.defineProperty({}, 'a', { get() { throw new Error(MARKER); }, enumerable: true })),
      raw('objects nested 1,000 deep', () => { let o: Record<string, unknown> = { v: MARKER }; for (let i = 0; i < 1000; i++) { o = { n: o }; } return o; }),
      raw('a merge key', () => ({ '<<': { a: 'b' }, c: 'd' }), true),
      raw('YAML 1.1 words as values', () => ({ a: 'yes', b: '0o17', c: '~', d: 'on' }), true),
      raw('template syntax as a value', () => ({ a: '{{ .Values.x }}' }), true),
    ];
  }
  const t = type.type;
  if (t instanceof reflect.EnumType) {
    // A member's name may be its value too (cert-manager's "RSA").
    return [...common, raw('a string no member has', () => 'not-a-member'), raw('a member\'s name', () => t.members[0].name, true)];
  }
  if (t instanceof reflect.InterfaceType && t.datatype) {
    return [...common, ...throwing(), raw('a string for a struct', () => 'a'), raw('a list for a struct', () => [])];
  }
  switch (t?.fqn) {
    case 'cdk8s.Duration':
      return [
        ...common, ...throwing(),
        raw('Duration.hours(NaN)', () => cdk8s().Duration.hours(NaN)),
        raw('Duration.hours(Infinity)', () => cdk8s().Duration.hours(Infinity)),
        raw('Duration.hours(-1)', () => cdk8s().Duration.hours(-1)),
        raw('Duration.hours(1e12), past Go\'s longest duration', () => cdk8s().Duration.hours(1e12)),
        raw('Duration.millis(0.5)', () => cdk8s().Duration.millis(0.5)),
      ];
    case 'cdk8s.Size':
      return [
        ...common, ...throwing(),
        raw('Size.gibibytes(NaN)', () => cdk8s().Size.gibibytes(NaN)),
        raw('Size.gibibytes(Infinity)', () => cdk8s().Size.gibibytes(Infinity)),
        raw('Size.gibibytes(-1)', () => cdk8s().Size.gibibytes(-1)),
        // A quantity of any size is one to Kubernetes.
        raw('Size.gibibytes(1e15)', () => cdk8s().Size.gibibytes(1e15), true),
      ];
  }
  // A construct or an interface: something that only looks like one.
  return [
    ...common, ...throwing(),
    raw('a plain object with a name and a kind', () => ({ name: 'x', kind: 'Secret', node: {} })),
    raw('a string for a construct', () => 'x'),
  ];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const cdk8s = () => require('cdk8s');
