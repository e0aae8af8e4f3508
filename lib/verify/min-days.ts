/**
 * The bounds of `minDays` (`--min-days`), the days the `expiry` check asks every certificate to
 * stay valid: what the command and `verify` accept, and how a refusal says it.
 */
import { Description } from '../model/errors';
import { VerifyInputError } from './input';

/**
 * The days `minDays` (`--min-days`) accepts: 0 (valid now) up to 10,000 years. No certificate is
 * valid past 9999-12-31 (X.509's four-digit year), so a larger number could never pass, and from
 * any `--now` it keeps the date it reaches within what a date holds (about 273,790 years on).
 * @jsii ignore
 */
export const MIN_DAYS_RANGE: {
  /** The fewest days: 0, valid now. */
  readonly min: 0;
  /** The most days: 10,000 years of 365.2425 days. */
  readonly max: 3_652_425;
} = { min: 0, max: 3_652_425 };

/** What `minDays` expects, as a refusal says it (the command's and `verify`'s alike). */
export const MIN_DAYS_EXPECTED = `a whole number of days from ${MIN_DAYS_RANGE.min} to ${MIN_DAYS_RANGE.max} (10,000 years: no certificate is valid past 9999-12-31), such as 21`;

/**
 * Refuses a `minDays` outside {@link MIN_DAYS_RANGE}, or not whole: past the range, the date it
 * reaches is no date at all, which every message of the `expiry` check prints.
 * @throws VerifyInputError naming `--min-days`, the value and the range
 */
export function checkMinDays(days: number | undefined): void {
  if (days !== undefined && !(Number.isSafeInteger(days) && days >= MIN_DAYS_RANGE.min && days <= MIN_DAYS_RANGE.max)) {
    // NaN and the infinities as such: JSON, which the message writes values in, has them as null.
    throw new VerifyInputError('--min-days', 'days', Number.isFinite(days) ? days : new Description(String(days)), MIN_DAYS_EXPECTED);
  }
}
