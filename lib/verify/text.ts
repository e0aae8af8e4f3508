/** Text helpers for the one-line messages of `cluster-tls verify`. */
import { Description } from '../model/errors';

/** A parser's message on one line, shortened. */
export function oneLine(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** A time as the report prints it, to the second: `2026-01-01T00:00:00Z`. */
export function iso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Shortens a received value for a message. */
export function brief(value: unknown): unknown {
  if (typeof value === 'string' && value.length > 40) {
    return `${value.slice(0, 37)}...`;
  }
  if (value !== null && typeof value === 'object') {
    return new Description(Array.isArray(value) ? `an array of ${value.length}` : `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || 'none'}`);
  }
  return value;
}

/** How many items a list in a message shows before it counts the rest. */
export const LISTED_ITEMS = 20;

/**
 * A list in a message, bounded: the first {@link LISTED_ITEMS} items joined, then how many more,
 * named by `noun`, a singular that takes an `s` (`a, b, c and 1,999,980 more names`), so that a
 * plan of millions of names prints a line of a few hundred characters rather than of millions.
 */
export function listed(items: readonly string[], noun: string, separator = ', '): string {
  const shown = items.slice(0, LISTED_ITEMS).map((item) => (item.length > 200 ? `${item.slice(0, 197)}...` : item)).join(separator);
  const more = items.length - LISTED_ITEMS;
  return more > 0 ? `${shown} and ${more.toLocaleString('en-US')} more ${noun}${more === 1 ? '' : 's'}` : shown;
}

/** The longest line the text report prints; a longer one is cut, with the count of what it left out. */
export const MAX_LINE = 2000;

/** A line cut at {@link MAX_LINE} characters, saying how many it left out. */
export function boundedLine(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}... (${(line.length - MAX_LINE).toLocaleString('en-US')} more characters)` : line;
}
