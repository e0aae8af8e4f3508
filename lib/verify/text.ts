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
