/**
 * Storage sizes as Kubernetes reads them: the quantity grammar of k8s.io/apimachinery's
 * `resource.ParseQuantity` (what the API server and the operator parse a size with), and cdk8s's
 * `Size` written as such a quantity.
 */
import { Size, SizeRoundingBehavior } from 'cdk8s';
import type { FullSpec } from './prop-spec';

/** A storage size prop: a Kubernetes quantity (`100Gi`, `.5Gi`, `1e3`) or a cdk8s `Size`. */
export type StorageSize = string | Size;

/**
 * A quantity: a signed decimal number (digits with an optional fraction, `5.` and `.5` included),
 * then a binary suffix (`Ki` to `Ei`), a decimal one (`n`, `u`, `m`, none, `k`, `M` to `E`) or a
 * decimal exponent (`e3`, `E-2`).
 */
const QUANTITY = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE]([+-]?\d+))?$/;

/**
 * The largest exponent taken, in either direction. No storage size needs more than a few
 * (an exabyte is `1e18`), and `resource.ParseQuantity` stops answering at the far end of the
 * range it accepts (`1e2147483648`), so a larger one is a typo.
 */
export const MAX_QUANTITY_EXPONENT = 99;

/**
 * Whether `text` is a quantity Kubernetes parses to a size greater than zero (so not `0`, `-1Gi`
 * or `0e5`), with an exponent of at most {@link MAX_QUANTITY_EXPONENT}.
 */
export function isStorageQuantity(text: string): boolean {
  const match = QUANTITY.exec(text);
  if (!match) {
    return false;
  }
  const [, sign, number, , exponent] = match;
  return sign !== '-' && /[1-9]/.test(number) && (exponent === undefined || Math.abs(Number(exponent)) <= MAX_QUANTITY_EXPONENT);
}

/** The binary units of a cdk8s `Size`, largest first, with their quantity suffixes. */
const SIZE_UNITS: readonly (readonly [suffix: string, convert: (size: Size) => number])[] = [
  ['Pi', (size) => size.toPebibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Ti', (size) => size.toTebibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Gi', (size) => size.toGibibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Mi', (size) => size.toMebibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Ki', (size) => size.toKibibytes({ rounding: SizeRoundingBehavior.NONE })],
];

/**
 * A cdk8s `Size` as a quantity, in the largest binary unit that holds it whole (`Size.mebibytes(1536)`
 * is `1536Mi`, `Size.gibibytes(2)` is `2Gi`); `undefined` for a size of no whole kibibyte, or none.
 */
export function sizeQuantity(size: Size): string | undefined {
  for (const [suffix, convert] of SIZE_UNITS) {
    const amount = convert(size);
    if (Number.isSafeInteger(amount) && amount > 0) {
      return `${amount}${suffix}`;
    }
  }
  return undefined;
}

/** A storage size a prop's rule accepted, as the quantity the output holds (a cdk8s `Size` in its largest whole unit). */
export function quantityOf(size: StorageSize): string {
  return size instanceof Size ? sizeQuantity(size)! : size;
}

/** What a storage quantity must be, as messages say it. */
export const QUANTITY_EXPECTED = 'a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes';

/** Whether a prop value is a storage size in one of the two forms (its value is checked after). */
export function isStorageSize(value: unknown): value is StorageSize {
  return typeof value === 'string' || value instanceof Size;
}

/** The prop spec of a {@link StorageSize}. */
export function storageSize(optional = true): FullSpec {
  return { type: 'value', optional, is: isStorageSize, expected: QUANTITY_EXPECTED };
}
