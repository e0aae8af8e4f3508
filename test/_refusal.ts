/** What a test reads of a refusal. */

/** The message of what `build` throws; fails the test when it throws nothing. */
export function refusal(build: () => unknown): string {
  try {
    build();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('nothing was refused');
}
