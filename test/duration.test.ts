import { spawnSync } from 'node:child_process';
import { describeWithTools, tool } from './_programs';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { ClusterCertificatesProps } from '../lib/certificates/cluster-certificates-props';
import { durationHours, formatDuration, parseDuration, parseGoDuration } from '../lib/model/duration';

/*
 * Every expected value below is worked out by hand in milliseconds (1h = 3 600 000, 1m = 60 000,
 * 1s = 1 000), never through the module's own unit table, so a unit scaled wrongly fails here.
 * What must parse follows Go's time.ParseDuration, which cert-manager (metav1.Duration) and
 * cfssl (expiry) use; what the module refuses on top of Go's own refusals is what its summary
 * narrows Go's grammar to: units h, m, s and ms only, no sign.
 */

describe('parseDuration', () => {
  test.each([
    // The specification's Limits table.
    ['8760h', 31_536_000_000],
    ['87600h', 315_360_000_000],
    ['720h', 2_592_000_000],
    ['360h', 1_296_000_000],
    // One unit at a time.
    ['1h', 3_600_000],
    ['90m', 5_400_000],
    ['45s', 45_000],
    ['250ms', 250],
    ['0h', 0],
    ['0s', 0],
    ['0100m', 6_000_000],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test.each([
    ['1h30m', 5_400_000],
    ['2h45m30s', 9_930_000],
    ['1m500ms', 60_500],
    ['1h1ms', 3_600_001],
    ['1ms30s', 30_001],
    // Go adds the parts in any order, repeated units included.
    ['30m1h', 5_400_000],
    ['1h1h', 7_200_000],
  ])('adds the parts of %s: %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test('reads "ms" as milliseconds, not as minutes followed by a stray "s"', () => {
    expect(parseDuration('10ms')).toBe(10);
    expect(parseDuration('10m')).toBe(600_000);
  });

  test.each([
    ['1.5h', 5_400_000],
    ['0.5m', 30_000],
    ['2.25s', 2_250],
    ['1.5ms', 1.5],
    ['1.5h30m', 7_200_000],
  ])('reads the decimal %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test.each([
    ['', 'empty'],
    ['-1h', 'a minus sign'],
    ['+1h', 'a plus sign'],
    ['1h-30m', 'a sign inside'],
    ['1d', 'days'],
    ['7d', 'days'],
    ['1w', 'weeks'],
    ['1y', 'years'],
    ['1ns', 'nanoseconds, outside the module\'s h, m, s, ms'],
    ['1us', 'microseconds, outside the module\'s h, m, s, ms'],
    ['1µs', 'microseconds, outside the module\'s h, m, s, ms'],
    ['1x', 'an unknown unit'],
    ['1min', 'an unknown unit'],
    ['1hr', 'an unknown unit'],
    ['1sec', 'an unknown unit'],
    ['1H', 'a capital unit'],
    ['1M', 'a capital unit'],
    ['1', 'a number without unit'],
    ['0', 'a bare zero (Go reads it as 0, but the module asks for a unit and no caller takes 0)'],
    ['1h30', 'a last part without unit'],
    ['h', 'a unit without number'],
    ['ms', 'a unit without number'],
    ['1 h', 'a space before the unit'],
    [' 1h', 'a leading space'],
    ['1h ', 'a trailing space'],
    ['1h 30m', 'a space between parts'],
    ['1,5h', 'a decimal comma'],
    ['1..5h', 'two decimal points'],
    ['1.5.5h', 'two decimal points'],
    ['1e3s', 'an exponent'],
    ['0x10s', 'a hexadecimal number'],
    ['Infinityh', 'Infinity'],
    ['NaNh', 'NaN'],
    ['١h', 'a digit outside ASCII'],
  ])('refuses %j (%s)', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  test('starts afresh on every call, whatever the previous call read or refused', () => {
    expect(parseDuration('8760h')).toBe(31_536_000_000);
    expect(parseDuration('90m')).toBe(5_400_000);
    expect(parseDuration('1h30')).toBeUndefined();
    expect(parseDuration('45s')).toBe(45_000);
  });
});

describe('parseDuration over random durations', () => {
  const part = fc.option(fc.nat(100_000), { nil: undefined });
  const parts = fc.record({ h: part, m: part, s: part, ms: part })
    .filter((p) => Object.values(p).some((v) => v !== undefined));

  /** The milliseconds of h/m/s/ms parts, nested the way a clock counts, not through a unit table. */
  function byHand(p: { h?: number; m?: number; s?: number; ms?: number }): number {
    return (((p.h ?? 0) * 60 + (p.m ?? 0)) * 60 + (p.s ?? 0)) * 1000 + (p.ms ?? 0);
  }

  function spell(p: { h?: number; m?: number; s?: number; ms?: number }, order: readonly ('h' | 'm' | 's' | 'ms')[]): string {
    return order.filter((u) => p[u] !== undefined).map((u) => `${p[u]}${u}`).join('');
  }

  test('an h/m/s/ms combination, in any order, is the sum of its parts', () => {
    fc.assert(fc.property(parts, fc.shuffledSubarray(['h', 'm', 's', 'ms'] as const, { minLength: 4 }), (p, order) => {
      expect(parseDuration(spell(p, ['h', 'm', 's', 'ms']))).toBe(byHand(p));
      expect(parseDuration(spell(p, order))).toBe(byHand(p));
    }), { numRuns: 500 });
  });

  test('a half, quarter or three quarters of a unit adds that share of it', () => {
    const unit = fc.constantFrom(['h', 3_600_000], ['m', 60_000], ['s', 1_000], ['ms', 1]) as fc.Arbitrary<[string, number]>;
    fc.assert(fc.property(fc.nat(10_000), fc.constantFrom(['5', 0.5], ['25', 0.25], ['75', 0.75]) as fc.Arbitrary<[string, number]>, unit,
      (whole, [digits, share], [u, ms]) => {
        expect(parseDuration(`${whole}.${digits}${u}`)).toBe((whole + share) * ms);
      }), { numRuns: 300 });
  });

  test('one space, sign, day or unknown letter anywhere in a valid duration makes it refused', () => {
    const valid = parts.map((p) => spell(p, ['h', 'm', 's', 'ms']));
    fc.assert(fc.property(valid, fc.nat(), fc.constantFrom(' ', '-', '+', 'd', 'x', 'H', ','), (text, at, junk) => {
      const i = at % (text.length + 1);
      expect(parseDuration(text.slice(0, i) + junk + text.slice(i))).toBeUndefined();
    }), { numRuns: 500 });
  });
});

describe('durationHours', () => {
  test.each([
    [31_536_000_000, 8760],
    [315_360_000_000, 87600],
    [3_600_000, 1],
    [5_400_000, 1.5],
    [900_000, 0.25],
    [0, 0],
  ])('%d ms is %d h', (ms, hours) => {
    expect(durationHours(ms)).toBe(hours);
  });

  test('turns a parsed duration back into the hours it was written in', () => {
    fc.assert(fc.property(fc.nat(1_000_000), (h) => {
      expect(durationHours(parseDuration(`${h}h`)!)).toBe(h);
    }));
  });

  test('gives 90m and 1h30m as 1.5 hours, the form the CA-validity message prints', () => {
    expect(durationHours(parseDuration('90m')!)).toBe(1.5);
    expect(durationHours(parseDuration('1h30m')!)).toBe(1.5);
  });
});

describe('formatDuration', () => {
  test.each([
    [86_520 * 3_600_000, '86520h'],
    [5_400_000, '1h30m'],
    [3_599_000, '59m59s'],
    [1_500, '1s500ms'],
    [0, '0s'],
  ])('%d ms is written %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  test('writes what parseDuration reads back to the same milliseconds', () => {
    fc.assert(fc.property(fc.nat(10 ** 12), (ms) => {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    }));
  });
});

describe('no certificate outlives its CA, whatever units the durations are written in', () => {
  const make = (props: Partial<ClusterCertificatesProps>) => () => new ClusterCertificates(new Chart(new App({ outdir: 'unused' }), 'test'), 'certs', {
    clusterName: 'basic', namespace: 'demo', components: ['store'], caRenewBefore: '5m', renewBefore: '10m', ...props,
  });

  test('a 1h certificate under a 90m CA is accepted', () => {
    expect(make({ caDuration: '90m', duration: '1h' })).not.toThrow();
    // The CA's renewal window (5m) and the leaf's (10m) are room the leaf leaves free: 1h15m is the shortest CA.
    expect(make({ caDuration: '1h15m', duration: '3600000ms' })).not.toThrow();
    // One second short: no leaf of cert-manager's minimum hour fits, so the CA is blamed.
    expect(make({ caDuration: '4499s', duration: '3600000ms' })).toThrow(
      'test/certs: caDuration: received "4499s"; expected at least 1h15m (duration 3600000ms + renewBefore 10m + caRenewBefore 5m)');
  });

  test('a 1h30m certificate under a 90m CA is refused, the CA\'s validity given in hours too', () => {
    expect(make({ caDuration: '90m', duration: '1h30m' })).toThrow(
      'test/certs: duration: received "1h30m"; expected a validity shorter than the CA\'s (90m = 1.5h), so that no certificate outlives the CA that signs it');
    expect(make({ caDuration: '5400s', duration: '1.5h' })).toThrow(/expected a validity shorter than the CA's \(5400s = 1\.5h\)/);
  });
});

describeWithTools('Go\'s grammar of durations, as cert-manager\'s webhook reads them', ['duration'], () => {
  /** What Go's time.ParseDuration makes of each text, in milliseconds, or undefined where it refuses it. */
  const goParse = (texts: readonly string[]): (number | undefined)[] => {
    const run = spawnSync(tool('duration'), [], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(run.status).toBe(0);
    return (JSON.parse(run.stdout) as { ok: boolean; ms?: number }[]).map((r) => (r.ok ? r.ms ?? 0 : undefined));
  };
  const same = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? a === b : Math.abs(a - b) <= Math.max(1e-6, Math.abs(b) * 1e-12));

  test('parseGoDuration reads what Go reads, as Go reads it: the cases the webhook meets, and 20,000 texts of the grammar\'s alphabet', () => {
    const fixed = ['.5h', '90d', '1h', '-1h', '+1.5h', '1µs', '1μs', '1us', '0', '', '1h1h', '.', '1.h', '.s', '2562047h47m16.854775807s', '2562047h47m16.854775808s',
      '1e3h', '1h 30m', ' 1h', '1H', '0h', '00001h', '1.0000000000000000001h'];
    const alphabet = fc.constantFrom(...'0123456789.hmsnuµ+-dH '.split(''), 'ms', 'us', 'ns', 'h', '.5', '12');
    const generated = fc.sample(fc.array(alphabet, { maxLength: 8 }).map((parts) => parts.join('')), { numRuns: 20_000, seed: 46 });
    const texts = [...fixed, ...generated];
    const go = goParse(texts);
    const differ = texts.map((t, i) => ({ text: t, ours: parseGoDuration(t), go: go[i] })).filter((r) => !same(r.ours, r.go));
    expect(differ).toEqual([]);
    // The grammar is exercised: both sides accept and refuse some.
    expect(go.filter((v) => v !== undefined).length).toBeGreaterThan(100);
    expect(go.filter((v) => v === undefined).length).toBeGreaterThan(100);
  }, 120_000);
});
