/**
 * How one scalar is written in a block collection, decided the way the `yaml` package decides it
 * for YAML 1.1 output with its default string options, for the subset of values this module can
 * prove: `null`, booleans, safe integers, and single-line strings of printable ASCII. For anything
 * else it answers `undefined`, and the caller hands the whole document to `yaml`.
 *
 * A string is written plain unless a YAML reader would take it for something else: a structure
 * indicator (a leading `*`, `&`, `!`, `- `, a `: ` or ` #` inside, a trailing space…), or a value
 * of another type in the YAML 1.1 schema (`yes`, `off`, `~`, `0777`, `1_000`, `12:30`, a date…).
 * The second question is asked of `yaml`'s own 1.1 schema, so the answer cannot drift from the
 * package that writes the fallback. A string that must be quoted gets double quotes, or single
 * quotes when it holds a double quote and no single one.
 */
import * as YAML from 'yaml';

/** The regular expression of a YAML 1.1 type other than string, and whether `yaml` quotes a string it matches. */
interface TypeTest {
  readonly test: RegExp;
  /** True for the scalar types; false for `<<`, a merge key only where a key stands, which `yaml` leaves plain. */
  readonly quoted: boolean;
}

/** The tests of every type of `yaml`'s YAML 1.1 schema, other than strings, that a plain scalar can take. */
function otherTypeTests(): readonly TypeTest[] {
  const schema = new YAML.Document(null, { version: '1.1' }).schema;
  return [...schema.tags, ...(schema.compat ?? [])]
    .filter((tag) => tag.default && tag.tag !== 'tag:yaml.org,2002:str' && 'test' in tag && tag.test instanceof RegExp)
    .map((tag) => ({ test: (tag as { test: RegExp }).test, quoted: tag.default === true }));
}

const OTHER_TYPES = otherTypeTests();

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
 * Every 1.1 type other than string that a word starting with a letter other than `e` can take is at
 * most 5 letters long (`false`, `NULL`). A word starting with `e` or `E` can be a float of any
 * length: `yaml`'s 1.1 float allows the exponent without a mantissa (`e-0000`).
 */
const LONGEST_TYPED_WORD = 5;

/**
 * Whether a plain scalar would be read back as something other than this string (true), or could
 * be, depending on where it stands, so that `yaml` alone knows how it writes it (`undefined`).
 */
function readsAsOtherType(value: string): boolean | undefined {
  const first = value.charCodeAt(0);
  const letter = ((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)) && first !== 0x45 && first !== 0x65;
  if (letter && value.length > LONGEST_TYPED_WORD) {
    return false;
  }
  const type = OTHER_TYPES.find((t) => t.test.test(value));
  return type === undefined ? false : type.quoted || undefined;
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
 * A string as `yaml` writes it on one line in a block collection, or `undefined` when that is not
 * proven (a character beyond printable ASCII, a document marker at the start, `<<`).
 */
export function stringScalar(value: string): string | undefined {
  if (value.length > LONGEST_TYPED_WORD && SIMPLE.test(value)) {
    return value;
  }
  if (!PRINTABLE_ASCII.test(value) || DOCUMENT_MARKER.test(value)) {
    return undefined;
  }
  if (value.length === 0 || NOT_PLAIN.test(value)) {
    return quoted(value);
  }
  const typed = readsAsOtherType(value);
  if (typed === undefined) {
    return undefined;
  }
  return typed ? quoted(value) : value;
}

/** Keys already decided: manifests repeat a small set of keys many times. */
const KEYS = new Map<string, string | undefined>();

/** How many keys {@link KEYS} holds at most, so that many distinct keys cannot grow it without end. */
const KEYS_KEPT = 10_000;

/** A map key as `yaml` writes it (an implicit key is a one-line string scalar), remembered. */
export function keyScalar(key: string): string | undefined {
  let text = KEYS.get(key);
  if (text === undefined && !KEYS.has(key)) {
    text = stringScalar(key);
    if (KEYS.size < KEYS_KEPT) {
      KEYS.set(key, text);
    }
  }
  return text;
}

/**
 * A scalar as `yaml` writes it for YAML 1.1, or `undefined` for a value outside the proven subset
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
