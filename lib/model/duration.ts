/**
 * Durations as cert-manager and cfssl write them: Go duration strings such as `8760h`,
 * `90m` or `1h30m` (units h, m, s, ms; no sign, no days). A duration prop also takes cdk8s's
 * `Duration`, written as such a string.
 */
import { Duration } from 'cdk8s';
import type { FullSpec } from './prop-spec';

/** A duration prop: a Go duration string (`8760h`, `1h30m`) or a cdk8s `Duration` (`Duration.days(365)`). */
export type DurationValue = string | Duration;

/** What a duration prop must be, as messages say it. */
const DURATION_EXPECTED = 'a Go duration such as "8760h" or "1h30m" (units h, m, s, ms), or a cdk8s Duration of whole milliseconds, at most 2562047h';

/**
 * The longest duration Go's `time.ParseDuration` reads, which cert-manager and cfssl parse
 * durations with: 2^63 - 1 nanoseconds (2562047h47m16.854775807s), in whole milliseconds.
 */
export const GO_MAX_DURATION_MS = 9_223_372_036_854;

/** The milliseconds of a cdk8s `Duration`, when they are a whole number Go can hold; `undefined` otherwise (NaN, Infinity, a fraction of a millisecond). */
export function durationMilliseconds(value: Duration): number | undefined {
  try {
    const ms = value.toMilliseconds();
    return Number.isSafeInteger(ms) && ms >= 0 && ms <= GO_MAX_DURATION_MS ? ms : undefined;
  } catch {
    // cdk8s throws for an amount that is no whole number of milliseconds.
    return undefined;
  }
}

/**
 * A duration prop as the Go duration string the output holds: a string as given (checked later
 * with the field's own rule), a cdk8s `Duration` in whole units, largest first
 * (`Duration.days(365)` is `8760h`, `Duration.minutes(90)` is `1h30m`).
 */
export function durationText(value: DurationValue): string {
  return value instanceof Duration ? formatDuration(durationMilliseconds(value) ?? NaN) : value;
}

/** The prop spec of a {@link DurationValue}: a string, checked later with the field's own rule, or a cdk8s `Duration` Go can hold. */
export function durationSpec(optional = true): FullSpec {
  return { type: 'value', optional, is: (value) => typeof value === 'string' || (value instanceof Duration && durationMilliseconds(value) !== undefined), expected: DURATION_EXPECTED };
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
const PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;

/**
 * The duration in milliseconds, or `undefined` when the string is not a well-formed duration or is
 * longer than Go reads (2^63 - 1 nanoseconds, 2562047h47m16.854775807s).
 */
export function parseDuration(text: string): number | undefined {
  if (text.length === 0) {
    return undefined;
  }
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const start = PART.lastIndex;
    const match = PART.exec(text);
    if (!match || match.index !== start) {
      return undefined;
    }
    total += Number(match[1]) * UNIT_MS[match[2]];
  }
  return total <= GO_MAX_DURATION_MS ? total : undefined;
}

/** Whole hours of a duration, for messages and for cfssl, which takes hours. */
export function durationHours(ms: number): number {
  return ms / UNIT_MS.h;
}

/** A duration as a Go duration string in whole units, largest first: `86880h`, `1h30m`, `45s`. */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms));
  let text = '';
  for (const unit of ['h', 'm', 's', 'ms']) {
    const count = Math.floor(rest / UNIT_MS[unit]);
    if (count > 0) {
      text += `${count}${unit}`;
      rest -= count * UNIT_MS[unit];
    }
  }
  return text || '0s';
}

/** The units Go's `time.ParseDuration` reads, in nanoseconds. */
const GO_UNIT_NS: Readonly<Record<string, bigint>> = {
  'ns': 1n, 'us': 1_000n, '\u00b5s': 1_000n, '\u03bcs': 1_000n, 'ms': 1_000_000n, 's': 1_000_000_000n, 'm': 60_000_000_000n, 'h': 3_600_000_000_000n,
};

/** 2^63, the bound of Go's int64 nanoseconds. */
const TWO_TO_63 = 1n << 63n;

/**
 * A duration as Go's `time.ParseDuration` reads it, which cert-manager's webhook and controllers
 * use, in milliseconds (a fraction where the text has one), or `undefined` where Go refuses it:
 * `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with units ns, us (or µs), ms, s, m and h, or `0`, within
 * Go's int64 nanoseconds. `.5h` is 30 minutes; `90d` is no duration. Computed as Go computes it:
 * whole parts in exact integers, fractions in binary floating point, truncated.
 */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') {
    return 0;
  }
  if (rest === '') {
    return undefined;
  }
  let total = 0n;
  const part = /^([0-9]*)(?:\.([0-9]*))?([^0-9.]+)/u;
  while (rest !== '') {
    const match = part.exec(rest);
    if (match === null || (match[1] === '' && (match[2] ?? '') === '')) {
      return undefined;
    }
    const unit = GO_UNIT_NS[match[3]];
    const whole = BigInt(match[1] || '0');
    if (unit === undefined || whole > TWO_TO_63 / unit) {
      return undefined;
    }
    let value = whole * unit;
    const fraction = leadingFraction(match[2] ?? '');
    if (fraction.digits > 0n) {
      value += BigInt(Math.trunc(Number(fraction.digits) * (Number(unit) / fraction.scale)));
      if (value > TWO_TO_63) {
        return undefined;
      }
    }
    total += value;
    if (total > TWO_TO_63) {
      return undefined;
    }
    rest = rest.slice(match[0].length);
  }
  if (!negative && total > TWO_TO_63 - 1n) {
    return undefined;
  }
  const ms = Number(total) / 1e6;
  return negative ? -ms : ms;
}

/** The digits of a fraction as Go's `leadingFraction` keeps them: as many as fit in 2^63, with the scale they were read at. */
function leadingFraction(text: string): { readonly digits: bigint; readonly scale: number } {
  let digits = 0n;
  let scale = 1;
  for (const c of text) {
    const next = digits * 10n + BigInt(c);
    if (digits > (TWO_TO_63 - 1n) / 10n || next > TWO_TO_63) {
      break;
    }
    digits = next;
    scale *= 10;
  }
  return { digits, scale };
}
