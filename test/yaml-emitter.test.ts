/**
 * The emitter against `yaml`, the package whose bytes it must reproduce: random values of the
 * shapes the library writes, with hostile strings in values and keys, rendered by both with each
 * set of options the library uses, byte for byte; and what it writes read back by YAML 1.2 and
 * YAML 1.1 readers as the value it was given.
 */
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import { Yaml } from 'cdk8s';
import { MANIFEST_OPTIONS, YamlOptions, emitYaml, stringifyManifests, stringifyYaml } from '../lib/yaml/emitter';
import { scalar } from '../lib/yaml/scalars';
import { configYaml } from '../lib/documents/migration-files';

/** Strings a YAML writer can get wrong: indicators, 1.1 and 1.2 typed words, numbers, dates, quotes, spacing. */
const HOSTILE_WORDS = [
  '*a', '&a', '!tag', '!!str', '-', '- a', '-a', '--flag', '---', '--- a', '...', '?', '? a', '?a', ':', ': a', ':a', 'a:', 'a: b', 'a:b', '#c', 'a #c', 'a#c',
  '%YAML', '@at', '`tick`', '"q"', '\'q\'', 'it\'s', 'say "hi"', 'both \' and "', 'back\\slash', '|', '>', '[a]', '{a}', 'a, b', ',a',
  'yes', 'Yes', 'YES', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'y', 'Y', 'n', 'N', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  '~', 'null', 'Null', 'NULL', '', '<<', '=',
  '0', '-1', '+1', '007', '0777', '0o7', '0x1', '0x1F', '0b101', '1_000', '1e3', '1E3', '-1e-3', '.5', '5.', '-.5', '1.5', '.inf', '-.Inf', '.nan', '.NaN', 'e-0000', 'E+123456', 'e1234567', 'exponent',
  '12:30', '1:20:30', '190:20:30.15', '2001-01-01', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5',
  ' lead', 'trail ', 'a  b', 'multi\nline', 'trail\n', '\nlead', 'tab\there', 'ünïcødé', 'snow\u2603man', '\u00a0nbsp', 'nel\u0085', '\u2028', 'ctrl\u0001',
  'x'.repeat(79), `${'word '.repeat(30)}end`, 'a'.repeat(1100),
];

const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_WORDS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 8, unit: fc.constantFrom('a', 'Z', '0', '1', '.', '-', ':', ' ', '#', '\'', '"', '*', '\\', '/', '_', 'e', 'x', '\t') }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.string({ minLength: 60, maxLength: 120, unit: fc.constantFrom('a', ' ', 'b', '-') }) },
);

/** Ordinary manifest strings: names, paths, images, host names. */
const ordinary = fc.stringMatching(/^[a-z][a-z0-9.\/_-]{0,30}$/);

const scalars = fc.oneof(
  { weight: 4, arbitrary: ordinary },
  { weight: 4, arbitrary: hostile },
  { weight: 2, arbitrary: fc.integer({ min: -1e6, max: 1e6 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null, -0, 1.5, 2 ** 60, Number.MAX_SAFE_INTEGER, NaN, Infinity) },
);

const keys = fc.oneof({ weight: 3, arbitrary: ordinary }, { weight: 2, arbitrary: hostile });

/** Values of the shapes the library writes: maps and lists of scalars, nested, some empty. */
const values = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalars, tie('map'), tie('list')),
  map: fc.dictionary(keys, tie('value'), { maxKeys: 5 }),
  list: fc.array(tie('value'), { maxLength: 4 }),
})) as { value: fc.Arbitrary<unknown>; map: fc.Arbitrary<Record<string, unknown>>; list: fc.Arbitrary<unknown[]> };

const documents = fc.oneof({ weight: 4, arbitrary: values.map }, { weight: 1, arbitrary: values.list });

/** Every set of options the library writes YAML with (the manifests', the chart values', the migration files'). */
const OPTION_SETS: readonly YamlOptions[] = [MANIFEST_OPTIONS, {}, { lineWidth: 0 }];

/** `yaml`'s own rendering with the same options: the bytes to match. */
const reference = (value: unknown, options: YamlOptions) => YAML.stringify(value, { ...options, version: '1.1' });

const RUNS = 1500;

describe('the emitter writes the bytes yaml writes', () => {
  for (const options of OPTION_SETS) {
    test(`for random documents with hostile strings, options ${JSON.stringify(options)}`, () => {
      let emitted = 0;
      fc.assert(fc.property(documents, (doc) => {
        const own = emitYaml(doc, options);
        emitted += own === undefined ? 0 : 1;
        expect(own ?? stringifyYaml(doc, options)).toBe(reference(doc, options));
      }), { numRuns: RUNS });
      // Many documents must be written by the emitter itself, or the property would test the fallback only.
      expect(emitted).toBeGreaterThan(RUNS / 4);
    });
  }

  test('for every hostile string, as a value, as a key and as a list item', () => {
    for (const s of HOSTILE_WORDS) {
      for (const doc of [{ k: s }, { [s]: 'v' }, [s], { a: [{ [s]: s }] }, { nested: { deeper: { k: s } } }]) {
        for (const options of OPTION_SETS) {
          expect({ doc, out: stringifyYaml(doc, options) }).toEqual({ doc, out: reference(doc, options) });
        }
      }
    }
  });

  test('for many manifests in one file, as cdk8s Yaml.stringify writes them, undefined documents included', () => {
    fc.assert(fc.property(fc.array(fc.oneof(documents, fc.constant(undefined)), { maxLength: 4 }), (docs) => {
      expect(stringifyManifests(docs)).toBe(Yaml.stringify(...docs));
    }), { numRuns: 300 });
  });

  test('for an object that appears twice (yaml writes an anchor and an alias), undefined entries and class instances', () => {
    const shared = { a: 1 };
    for (const doc of [{ x: shared, y: shared }, { x: [shared, shared] }, { a: undefined, b: [undefined, 1] }, { d: new Date(0) }, { m: new Map([['a', 1]]) }, { big: 10n }]) {
      for (const options of OPTION_SETS) {
        expect(stringifyYaml(doc, options)).toBe(reference(doc, options));
      }
    }
  });
});

/** Every string of a value, keys included. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') {
    return [value];
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [...(Array.isArray(value) ? [] : [k]), ...stringsOf(v)]);
  }
  return [];
}

/**
 * Whether `yaml` writes a string plain for YAML 1.1 that a YAML 1.2 reader takes for another value
 * (`0o7`, an octal in 1.2's core schema only): cdk8s's manifests hold such bytes, and so must ours.
 */
function typedOnlyIn12(s: string): boolean {
  const written = YAML.stringify({ k: s }, { version: '1.1', lineWidth: 0 });
  return YAML.parse(written).k !== s && YAML.parse(written, { version: '1.1' }).k === s;
}

describe('what the emitter writes reads back as the value it was given', () => {
  test('for YAML 1.1 readers (Helm, the migration tool, kubectl) and YAML 1.2 readers', () => {
    let checked12 = 0;
    fc.assert(fc.property(documents, (doc) => {
      // A key `<<` is a merge key to a YAML 1.1 reader, and `yaml` writes it plain: its bytes, which
      // the emitter must match, do not read back. The library writes no such key of its own.
      fc.pre(!stringsOf(doc).includes('<<'));
      const text = stringifyYaml(doc, MANIFEST_OPTIONS);
      expect({ version: '1.1', back: YAML.parse(text, { version: '1.1' }) }).toEqual({ version: '1.1', back: doc });
      if (!stringsOf(doc).some(typedOnlyIn12)) {
        expect({ version: '1.2', back: YAML.parse(text) }).toEqual({ version: '1.2', back: doc });
        checked12++;
      }
    }), { numRuns: RUNS, examples: [[{ port: '0777', on: 'yes', when: '2001-01-01', time: '12:30' }]] });
    expect(checked12).toBeGreaterThan(RUNS / 2);
  });
});

describe('the scalars the emitter writes itself', () => {
  test('cover the manifests\' everyday strings, so that the fallback stays the exception', () => {
    for (const s of ['app.kubernetes.io/name', 'basic-coordinator-peer.demo.svc', '*.basic-pump.demo', 'v4.0.5', '10Gi', 'ClusterIP', '"quoted"', 'it\'s', '4000', 'yes']) {
      expect({ s, written: scalar(s) }).toEqual({ s, written: reference(s, MANIFEST_OPTIONS).slice(0, -1) });
    }
  });

  test('leave to yaml what they cannot prove: non-ASCII, line breaks, tabs, fractions, -0, document markers', () => {
    for (const v of ['ünïcødé', 'a\nb', 'a\tb', 1.5, -0, 2 ** 60, '--- a', '...', undefined, 10n]) {
      expect({ v, written: scalar(v) }).toEqual({ v, written: undefined });
    }
  });
});

describe('the migration files', () => {
  test('carry the comment line and the configuration yaml writes for a commented YAML 1.1 document', () => {
    fc.assert(fc.property(values.map, fc.oneof(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20, unit: 'grapheme' }), fc.constantFrom(' lead', 'trail ', '#', 'Source s1 of migration cluster demo/basic', 'two\nlines')), (config, comment) => {
      const doc = new YAML.Document(config, { version: '1.1' });
      doc.commentBefore = ` ${comment}`;
      expect(configYaml(config, comment)).toBe(doc.toString({ lineWidth: 0 }));
    }), { numRuns: 300 });
  });
});
