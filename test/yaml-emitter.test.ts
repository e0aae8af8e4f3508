/**
 * The emitter against `yaml`, the package whose bytes it must reproduce: random values of the
 * shapes the library writes, with hostile strings in values and keys, rendered by both with each
 * set of options the library uses, byte for byte; and what it writes read back by YAML 1.2 and
 * YAML 1.1 readers as the value it was given.
 */
import { spawnSync } from 'node:child_process';
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import { Yaml } from 'cdk8s';
import { MANIFEST_OPTIONS, YamlOptions, documentText, emitYaml, stringifyManifests, stringifyYaml, yamlDocument } from '../lib/yaml/emitter';
import { scalar } from '../lib/yaml/scalars';
import { configYaml } from '../lib/documents/migration-files';
import { describeWithTools, tool } from './_programs';

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
  // Several lines, which the emitter writes as literal blocks where it proves yaml does.
  'a\nb', 'a\nb\n', 'a\n\nb\n', 'a\nb\n\n', 'a\n  b\n', 'a \nb', 'a\nb ', 'a\n \nb', '#c\nd', '---\na', 'a\n---\n', 'a\n...\n', '%x\ny', '- a\n- b\n',
  // Blanks and line breaks alone, which `yaml` writes as a block that reads back without its blanks.
  ' \n', '  \n\n', ' \t\n', '\t\n \n', '\n  ', '  \n  \n',
  'key: value\nother: 1\n', 'yes\nno', '0777\n', '|\n', '>\nb', '"q"\n\'s\'\n', `${'x'.repeat(76)}\ny\n`, `y\n${'x'.repeat(90)}\n`,
];

const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_WORDS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 8, unit: fc.constantFrom('a', 'Z', '0', '1', '.', '-', ':', ' ', '#', '\'', '"', '*', '\\', '/', '_', 'e', 'x', '\t') }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.string({ minLength: 60, maxLength: 120, unit: fc.constantFrom('a', ' ', 'b', '-') }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 24, unit: fc.constantFrom('a', 'b', ' ', '\n', '\n', '#', ':', '-', '.', '|', '"', '\'', '\t', '%', 'y') }) },
  { weight: 1, arbitrary: fc.array(fc.stringMatching(/^[ -~]{0,90}$/), { minLength: 2, maxLength: 5 }).map((lines) => lines.join('\n')) },
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

/** `yaml`'s own rendering with the same options: the bytes to match wherever the library quotes no more than `yaml`. */
const plainYaml = (value: unknown, options: YamlOptions) => YAML.stringify(value, { ...options, version: '1.1' });

/** The library's fallback: `yaml` itself, with the strings the library's rule quotes marked. */
const fallback = (value: unknown, options: YamlOptions) => documentText(yamlDocument(value, options), options.lineWidth);

/**
 * Whether the library writes a string otherwise than `yaml` does: a string `yaml` writes plain
 * that the library quotes (`0o17`, `<<`, `+0o7`, one holding U+2028). The readers' tests below
 * prove each such quote is needed.
 */
const quotedBeyondYaml = (s: string) => [{ k: s }, { [s]: 'v' }].some((doc) => stringifyYaml(doc, { lineWidth: 0 }) !== plainYaml(doc, { lineWidth: 0 }));

const RUNS = 1500;

describe('the emitter writes the bytes yaml writes', () => {
  for (const options of OPTION_SETS) {
    test(`for random documents with hostile strings, options ${JSON.stringify(options)}`, () => {
      let emitted = 0;
      let compared = 0;
      fc.assert(fc.property(documents, (doc) => {
        const own = emitYaml(doc, options);
        emitted += own === undefined ? 0 : 1;
        // The emitter and the fallback write the same bytes...
        if (own !== undefined) {
          expect(own).toBe(fallback(doc, options));
        }
        // ...which are yaml's, but for the strings the library quotes beyond it.
        if (!stringsOf(doc).some(quotedBeyondYaml)) {
          compared++;
          expect(stringifyYaml(doc, options)).toBe(plainYaml(doc, options));
        }
      }), { numRuns: RUNS });
      // Many documents must be written by the emitter itself, or the property would test the fallback only.
      expect(emitted).toBeGreaterThan(RUNS / 4);
      expect(compared).toBeGreaterThan(RUNS / 2);
    });
  }

  test('for every hostile string, as a value, as a key and as a list item', () => {
    for (const s of HOSTILE_WORDS) {
      for (const doc of [{ k: s }, { [s]: 'v' }, [s], { a: [{ [s]: s }] }, { nested: { deeper: { k: s } } }]) {
        for (const options of OPTION_SETS) {
          const expected = quotedBeyondYaml(s) ? fallback(doc, options) : plainYaml(doc, options);
          expect({ doc, out: stringifyYaml(doc, options) }).toEqual({ doc, out: expected });
        }
      }
    }
    // The texts of several lines quoted are those `yaml` writes as a block a reader misreads: blanks alone, or a tab.
    expect(HOSTILE_WORDS.filter(quotedBeyondYaml)).toEqual(['<<', '0o7', 'nel\u0085', '\u2028', ' \n', '  \n\n', ' \t\n', '\t\n \n', '  \n  \n']);
  });

  test('for many manifests in one file, as cdk8s Yaml.stringify writes them, undefined documents included', () => {
    fc.assert(fc.property(fc.array(fc.oneof(documents, fc.constant(undefined)), { maxLength: 4 }), (docs) => {
      // cdk8s writes what yaml writes, `0o17` and `<<` plain: the library quotes those, and only those.
      fc.pre(!docs.flatMap(stringsOf).some(quotedBeyondYaml));
      expect(stringifyManifests(docs)).toBe(Yaml.stringify(...docs));
    }), { numRuns: 300 });
  });

  test('for an object that appears twice (yaml writes an anchor and an alias), undefined entries and class instances', () => {
    const shared = { a: 1 };
    for (const doc of [{ x: shared, y: shared }, { x: [shared, shared] }, { a: undefined, b: [undefined, 1] }, { d: new Date(0) }, { m: new Map([['a', 1]]) }, { big: 10n }]) {
      for (const options of OPTION_SETS) {
        expect(stringifyYaml(doc, options)).toBe(plainYaml(doc, options));
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

describe('what the emitter writes reads back as the value it was given', () => {
  test('for YAML 1.1 readers (Helm, the migration tool, kubectl) and YAML 1.2 readers, `yaml`\'s own', () => {
    fc.assert(fc.property(documents, (doc) => {
      const text = stringifyYaml(doc, MANIFEST_OPTIONS);
      expect({ version: '1.1', back: YAML.parse(text, { version: '1.1' }) }).toEqual({ version: '1.1', back: doc });
      expect({ version: '1.2', back: YAML.parse(text) }).toEqual({ version: '1.2', back: doc });
    }), { numRuns: RUNS, examples: [[{ port: '0777', on: 'yes', when: '2001-01-01', time: '12:30', octal: '0o17', '<<': 'merge' }]] });
  });
});

describe('the scalars the emitter writes itself', () => {
  test('cover the manifests\' everyday strings, so that the fallback stays the exception', () => {
    for (const s of ['app.kubernetes.io/name', 'basic-coordinator-peer.demo.svc', '*.basic-pump.demo', 'v4.0.5', '10Gi', 'ClusterIP', '"quoted"', 'it\'s', '4000', 'yes']) {
      expect({ s, written: scalar(s) }).toEqual({ s, written: plainYaml(s, MANIFEST_OPTIONS).slice(0, -1) });
    }
  });

  test('are written the same each time a short string comes again, as a value, a key and a list item (the emitter remembers them)', () => {
    const words = ['yes', '1h', '0777', 'ca', '~', '<<', 'a: b', '', 'null', '- a', 'basic', '12:30'];
    const doc = { values: Object.fromEntries(words.map((w, i) => [`k${i}`, w])), keys: Object.fromEntries(words.map((w) => [w, w])), items: words };
    for (let pass = 0; pass < 3; pass++) {
      for (const options of OPTION_SETS) {
        expect({ pass, own: emitYaml(doc, options) }).toEqual({ pass, own: fallback(doc, options) });
      }
    }
  });

  test('leave to yaml what they cannot prove: non-ASCII, line breaks, tabs, fractions, -0, document markers', () => {
    for (const v of ['ünïcødé', 'a\nb', 'a\tb', 1.5, -0, 2 ** 60, '--- a', '...', undefined, 10n]) {
      expect({ v, written: scalar(v) }).toEqual({ v, written: undefined });
    }
  });
});

describe('texts of several lines', () => {
  test('are written by the emitter as the literal block yaml writes, at every depth', () => {
    const rules = 'groups:\n  - name: expiry\n    rules:\n      - alert: CertificateExpiry\n        expr: x < 1\n';
    for (const doc of [{ data: { 'a.rules.yml': rules } }, { spec: { config: '[security]\ncert-allowed-cn = [ "basic" ]\n' } }, { l: ['a\n\nb', { m: 'c\nd' }] }, [['e\nf\n']], { runs: 'a\n\n\nb\nc\n\nd\n', deeper: [{ m: 'x\n\n\n\ny' }] }]) {
      for (const options of OPTION_SETS) {
        const own = emitYaml(doc, options);
        expect({ doc, own }).toEqual({ doc, own: plainYaml(doc, options) });
      }
    }
  });

  test('go to yaml where it writes them otherwise: leading spaces or line breaks, trailing whitespace, tabs, long lines under a line width', () => {
    for (const text of [' a\nb', '\na', 'a\nb\n\n', 'a\nb ', 'a\tb\nc', `a\n${'x'.repeat(80)}`]) {
      expect({ text, own: emitYaml({ k: text }, {}) }).toEqual({ text, own: undefined });
    }
  });
});

describe('the migration files', () => {
  test('carry the comment line and the configuration yaml writes for a commented YAML 1.1 document', () => {
    fc.assert(fc.property(values.map, fc.oneof(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20, unit: 'grapheme' }), fc.constantFrom(' lead', 'trail ', '#', 'Source s1 of migration cluster demo/basic', 'two\nlines')), (config, comment) => {
      const doc = yamlDocument(config);
      doc.commentBefore = ` ${comment}`;
      expect(configYaml(config, comment)).toBe(documentText(doc, 0));
      // yaml's own bytes, where the library quotes no more than yaml.
      if (!stringsOf(config).some(quotedBeyondYaml) && !/[\u0085\u2028\u2029]/.test(comment)) {
        const plain = new YAML.Document(config, { version: '1.1' });
        plain.commentBefore = ` ${comment}`;
        expect(configYaml(config, comment)).toBe(plain.toString({ lineWidth: 0 }));
      }
    }), { numRuns: 300 });
  });
});

describeWithTools('what the library writes, read by kubectl\'s and Helm\'s YAML 1.1 reader and a YAML 1.2 reader (Go)', ['yaml-read'], () => {
  /** What sigs.k8s.io/yaml (YAML 1.1, go-yaml v2) and go.yaml.in/yaml/v3 (YAML 1.2) make of each text. */
  const goRead = (texts: readonly string[]): { 'v1.1': { json?: unknown; error?: string }; 'v1.2': { json?: unknown; error?: string } }[] => {
    const run = spawnSync(tool('yaml-read'), [], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(run.status).toBe(0);
    return JSON.parse(run.stdout);
  };

  test('every string, generated from the grammars\' alphabets and the hostile words, reads back as itself as a value, a key and a list item', () => {
    const generated = fc.sample(fc.oneof(
      hostile,
      fc.stringMatching(/^[-+]?(0[oxb]?)?[0-9a-fA-F_.:eE+-]{0,8}$/),
      fc.stringMatching(/^[<=~.!&*?:|>%@`'"#-]{1,3}[a-zA-Z0-9 ]{0,3}$/),
      fc.constantFrom('0o17', '0o0', '+0o7', '0O17', '0x_1', '0b1_0', '<<', '<< ', '=', '.inf', '.NaN', '+.inf', '1_0.5', '6e+2', '1:2:3', '-1:20', '0017', 'Yes', 'oFF'),
    ), { seed: 17, numRuns: 4000 });
    const strings = [...new Set([...HOSTILE_WORDS, ...generated])];
    const documents = strings.flatMap((s) => [{ k: s }, { [s]: 'v' }, [s]]);
    const texts = documents.map((doc) => stringifyYaml(doc, { lineWidth: 0 }));
    const read = goRead(texts);
    const wrong = documents.flatMap((doc, i) => (['v1.1', 'v1.2'] as const)
      .filter((v) => read[i][v].error !== undefined || JSON.stringify(read[i][v].json) !== JSON.stringify(doc))
      .map((v) => `${v} read ${JSON.stringify(texts[i])} as ${read[i][v].error ?? JSON.stringify(read[i][v].json)}`));
    expect(wrong).toEqual([]);
    // The generated strings must reach the words a reader takes for another type, or the test proves little.
    expect(strings.filter((s) => stringifyYaml({ k: s }).startsWith('k: "')).length).toBeGreaterThan(500);
  });

  test('every string the library quotes where yaml writes it plain is one a real reader misreads plain', () => {
    const generated = fc.sample(fc.oneof(
      fc.stringMatching(/^[-+]?(0[oxbOXB]?)?[0-9a-fA-F_.eE+-]{0,8}$/),
      // Go's numbers beyond both grammars: octals with 0o or 0O, a sign on them, underscores anywhere.
      fc.stringMatching(/^[-+]?0[oO][0-7_]{1,5}$/),
      fc.stringMatching(/^[-+]?[0-9][0-9_]{0,3}[eE.]?_?[0-9_]{1,3}$/),
      fc.constantFrom('<<', '0o17', '+0o7', '0e_2', '1_0', 'a\u2028b', '\u2029', 'x\u0085'),
    ), { seed: 23, numRuns: 3000 });
    const beyond = [...new Set(generated)].filter(quotedBeyondYaml);
    const documents = beyond.flatMap((s) => [{ k: s }, { [s]: 'v' }]);
    const plainTexts = documents.map((doc) => plainYaml(doc, { lineWidth: 0 }));
    const read = goRead(plainTexts);
    const readBack = (i: number) => (['v1.1', 'v1.2'] as const).every((v) => read[i][v].error === undefined && JSON.stringify(read[i][v].json) === JSON.stringify(documents[i]));
    const needless = beyond.filter((_s, n) => readBack(2 * n) && readBack(2 * n + 1));
    expect(needless).toEqual([]);
    expect(beyond.length).toBeGreaterThan(100);
  });
});
