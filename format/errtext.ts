/**
 * Text of untrusted input inside an error message: every reader's errors are one line (the file,
 * where, the cause), so a quoted field or a JSON parser's excerpt must not bring a newline in.
 */

/** `s` as a JSON string literal, cut to `max` characters: control characters escaped. */
export function quoted(s: string, max = 60): string {
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}...` : s);
}

/** A message on one line: each run of whitespace holding a line break becomes one space. */
export function oneLine(s: string): string {
  return s.replace(/\s*[\r\n\u2028\u2029]\s*/g, ' ');
}

/** Any parsed JSON value as it was written (strings quoted, newlines escaped), cut to `max` characters. */
export function shown(v: unknown, max = 60): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max)}...` : s;
}
