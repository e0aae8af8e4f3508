/**
 * Durations as cert-manager and cfssl write them: Go duration strings such as `8760h`,
 * `90m` or `1h30m` (units h, m, s, ms; no sign, no days).
 */

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
const PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;

/** The duration in milliseconds, or `undefined` when the string is not a well-formed duration. */
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
  return total;
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
