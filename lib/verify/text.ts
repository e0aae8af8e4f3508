/** Text helpers for the one-line messages of `cluster-tls verify`. */

/** A parser's message on one line, shortened. */
export function oneLine(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
