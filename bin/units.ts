/** Quantities on the command line (sizes), shared by the commands that take them. */

const SIZE_RE = /^(\d+)([kKmMgG]?)$/;

/** "64M" → bytes; `what` names the option in the error. */
export function parseSize(s: string, what: string): number {
  const m = SIZE_RE.exec(s);
  if (!m) throw new Error(`${what}: '${s}' is not a size (a number of bytes, with K, M or G)`);
  const mul = { '': 1, k: 1024, m: 1 << 20, g: 1 << 30 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(m[1]) * mul;
}
