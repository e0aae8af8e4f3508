/**
 * How one scalar is written in a block collection: as the `yaml` package writes it for YAML 1.1
 * with its default string options, except that a string is never written plain where a reader of
 * either YAML grammar would take it for something else. Decided here for the subset of values this
 * module can prove: `null`, booleans, safe integers, and single-line strings of printable ASCII.
 * For anything else it answers `undefined`, and the caller hands the whole document to `yaml`
 * (marked by {@link readsAsOtherType} where it must quote).
 *
 * A string is written plain unless a YAML reader would take it for something else: a structure
 * indicator (a leading `*`, `&`, `!`, `- `, a `: ` or ` #` inside, a trailing space…), or a value
 * of another type in the YAML 1.1 schema (`yes`, `off`, `~`, `0777`, `1_000`, `12:30`, a date, the
 * merge key `<<`) or in YAML 1.2's core schema (`0o17`), or a number as go-yaml resolves one (`+0o7`,
 * `0e_2`). `yaml` alone writes `0o17` and `<<` plain for YAML 1.1; kubectl's and Helm's reader
 * (go-yaml v2) takes the first for 15 and YAML 1.2 readers do too, and both go-yaml versions merge
 * the second. The types are asked of `yaml`'s own 1.1 and core schemas, and go-yaml's numbers of
 * its resolver's rule, so the rule is the grammars', not a list. A string that must be quoted gets double
 * quotes, or single quotes when it holds a double quote and no single one.
 */
import * as YAML from 'yaml';

/**
 * The tests of every type other than string that a plain scalar can take, in `yaml`'s YAML 1.1
 * schema (its merge key `<<` included) and in its YAML 1.2 core schema.
 */
function otherTypeTests(): readonly RegExp[] {
  const schemas = (['1.1', '1.2'] as const).map((version) => new YAML.Document(null, { version }).schema);
  return schemas.flatMap((schema) => [...schema.tags, ...(schema.compat ?? [])])
    .filter((tag) => tag.default && tag.tag !== 'tag:yaml.org,2002:str' && 'test' in tag && tag.test instanceof RegExp)
    .map((tag) => (tag as { test: RegExp }).test);
}

const OTHER_TYPES = otherTypeTests();

/**
 * A number as go-yaml reads a plain scalar (versions 2 and 3: the reader of kubectl, through
 * sigs.k8s.io/yaml, and of Helm), more broadly than either grammar: it strips every `_`, then
 * takes what Go's `strconv.ParseInt(s, 0, 64)` or `ParseUint` takes (`+0o7`, `0O17`, `0x_1`, in
 * their ranges), else a decimal float `ParseFloat` reads finite (`0e_2`). It asks so only of a
 * scalar that starts with a digit or a sign; one that starts with a dot it reads as a float as it
 * is, underscores kept.
 */
const GO_PREFIXED = /^([-+]?)0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)$/;
const GO_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MAX = (1n << 63n) - 1n;

/** Whether go-yaml reads the plain scalar as a number. */
function readByGoAsNumber(value: string): boolean {
  const first = value.charCodeAt(0);
  const digitOrSign = (first >= 0x30 && first <= 0x39) || first === 0x2b || first === 0x2d;
  if (!digitOrSign && first !== 0x2e) {
    return false;
  }
  const plain = digitOrSign ? value.replace(/_/g, '') : value;
  const prefixed = digitOrSign ? GO_PREFIXED.exec(plain) : null;
  if (prefixed) {
    // ParseInt takes a sign and the range of int64 (down to -2^63); ParseUint no sign and the range of uint64.
    const magnitude = BigInt(`0${prefixed[2].toLowerCase()}`);
    return magnitude <= (prefixed[1] === '-' ? INT64_MAX + 1n : prefixed[1] === '+' ? INT64_MAX : UINT64_MAX);
  }
  return GO_FLOAT.test(plain) && Number.isFinite(Number(plain));
}

/** Every character printable ASCII (a tab, a line break or anything beyond ASCII is not proven). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The shapes that a block-context plain scalar of one line cannot take: a leading indicator or
 * space, a lone or spaced `-` / `?`, a `: ` or ` #` inside, a trailing space or colon.
 */
const NOT_PLAIN = /^[ ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-] |: | #|[ :]$/;

/** A document marker at the start, which `yaml` treats apart depending on where the scalar sits. */
const DOCUMENT_MARKER = /^(?:---|\.\.\.)/;

/**
 * Every type other than string, of either schema, that a word starting with a letter other than `e`
 * can take is at most 5 letters long (`false`, `NULL`). A word starting with `e` or `E` can be a float of any
 * length: `yaml`'s 1.1 float allows the exponent without a mantissa (`e-0000`).
 */
const LONGEST_TYPED_WORD = 5;

/**
 * Whether a plain scalar of this text is read as something other than this string by a YAML 1.1
 * reader or a YAML 1.2 one: a value of another type in either grammar, the merge key `<<`, or a
 * number as go-yaml reads one.
 */
export function readsAsOtherType(value: string): boolean {
  const first = value.charCodeAt(0);
  const letter = ((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)) && first !== 0x45 && first !== 0x65;
  if (letter && value.length > LONGEST_TYPED_WORD) {
    return false;
  }
  return OTHER_TYPES.some((test) => test.test(value)) || readByGoAsNumber(value);
}

/** A string that must be quoted, quoted as `yaml` quotes it on one line. */
function quoted(value: string): string {
  if (value.includes('"') && !value.includes('\'')) {
    return `'${value}'`;
  }
  // For printable ASCII, JSON escapes exactly what YAML's double quotes escape: `"` and `\`.
  return JSON.stringify(value);
}

/**
 * Strings plain at a glance: a letter other than `e`, `_` or `/`, then letters, digits, `_`, `.`,
 * `/`, `-`. No indicator, space or colon; of the 1.1 types, only a word of at most 5 letters can be
 * one (a word starting with `e` can be a float, `e-0000`, see {@link LONGEST_TYPED_WORD}).
 */
const SIMPLE = /^[A-DF-Za-df-z_/][\w./-]*$/;

/**
 * A string as the library writes it on one line in a block collection, or `undefined` when that is
 * not proven (a character beyond printable ASCII, a document marker at the start).
 */
export function stringScalar(value: string): string | undefined {
  if (value.length > LONGEST_TYPED_WORD && SIMPLE.test(value)) {
    return value;
  }
  return value.length <= SHORT_LENGTH ? remembered(SHORT_TEXTS, value, decidedScalar) : decidedScalar(value);
}

/** A string as {@link stringScalar} writes it, decided afresh. */
function decidedScalar(value: string): string | undefined {
  if (!PRINTABLE_ASCII.test(value) || DOCUMENT_MARKER.test(value)) {
    return undefined;
  }
  if (value.length === 0 || NOT_PLAIN.test(value)) {
    return quoted(value);
  }
  return readsAsOtherType(value) ? quoted(value) : value;
}

/** Every character printable ASCII or a line break, and the text neither starting with a space or a line break nor ending in whitespace before its last line break. */
const LITERAL_TEXT = /^[\x21-\x7e][\x20-\x7e\n]*(?<![\n ])\n?$/;

/**
 * A string of several lines as `yaml` writes it as a map's value or a list's item: a literal
 * block scalar (`|`, or `|-` without a final line break) whose lines are indented by `indent`,
 * the indentation of the collection's entries below. Proven here for the strings of printable
 * ASCII that start with neither a space nor a line break and end in a character other than
 * whitespace, then at most one line break: `yaml` writes those with no indentation indicator and
 * the clip (`|`) or strip (`|-`) chomping. With a line width, every line must fit in it after the
 * indentation, where `yaml` would fold the text (`>`). `undefined` for any other string, which
 * goes to `yaml`.
 */
export function literalBlock(value: string, indent: string, lineWidth: number): string | undefined {
  if (!value.includes('\n') || !LITERAL_TEXT.test(value) || readsAsOtherType(value) || (lineWidth > 0 && longestLine(value) > lineWidth - indent.length)) {
    return undefined;
  }
  const clip = value.endsWith('\n');
  const body = clip ? value.slice(0, -1) : value;
  // As `yaml` does: each run of line breaks is followed by the indentation, so an empty line stays
  // empty. The body starts and ends with a character other than a line break, so that is: every
  // line that is not empty, indented (line by line, several times faster than a replace of `\n+`).
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '') {
      lines[i] = `${indent}${lines[i]}`;
    }
  }
  return `|${clip ? '' : '-'}\n${lines.join('\n')}`;
}

/** The length of the longest line of a text. */
function longestLine(value: string): number {
  let longest = 0;
  for (let start = 0; start <= value.length;) {
    const end = value.indexOf('\n', start);
    const stop = end === -1 ? value.length : end;
    longest = Math.max(longest, stop - start);
    start = stop + 1;
  }
  return longest;
}

/**
 * Short strings already decided: the values manifests repeat (`1h`, `ca`, a severity, a cluster
 * name) are short, and a short string is the one that needs every type test of the schemas.
 */
const SHORT_TEXTS = new Map<string, string | undefined>();

/** The longest string {@link SHORT_TEXTS} remembers. */
const SHORT_LENGTH = 32;

/** How many strings {@link SHORT_TEXTS} holds at most, so that many distinct strings cannot grow it without end. */
const KEPT = 10_000;

/** What `decide` gives for `text`, remembered in `decided` while it holds fewer than {@link KEPT}. */
function remembered(decided: Map<string, string | undefined>, text: string, decide: (text: string) => string | undefined): string | undefined {
  let result = decided.get(text);
  if (result === undefined && !decided.has(text)) {
    result = decide(text);
    if (decided.size < KEPT) {
      decided.set(text, result);
    }
  }
  return result;
}

/**
 * A map key as the library writes it: an implicit key is a one-line string scalar, and the keys
 * manifests repeat are short, so {@link stringScalar} remembers them.
 */
export function keyScalar(key: string): string | undefined {
  return stringScalar(key);
}

/**
 * A scalar as the library writes it, or `undefined` for a value outside the proven subset
 * (a fraction, `-0`, an integer beyond 2^53, a bigint, a symbol, a function, `undefined`, and
 * strings {@link stringScalar} does not prove). Collections are not scalars: `undefined` too.
 */
export function scalar(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringScalar(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : undefined;
    default:
      return value === null ? 'null' : undefined;
  }
}
