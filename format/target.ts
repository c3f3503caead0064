/**
 * The emulated targets — the R2000 little- and big-endian and the SPARC v8 — by the names every
 * format, layer and command uses, and the one-byte code the binary formats store for them (the
 * ground-truth header, the schedule stream's HEADER record).
 */
export type TargetName = 'mipsel' | 'mips' | 'sparc';
export type Isa = 'mips' | 'sparc';

export const TARGET_NAMES: readonly TargetName[] = ['mipsel', 'mips', 'sparc'];

/** The architecture byte of the binary formats. */
export const ARCH_CODE = { mipsel: 1, mips: 2, sparc: 3 } as const satisfies Record<TargetName, number>;

/** The target of an architecture byte, or undefined for an unknown code. */
export function targetOfCode(code: number): TargetName | undefined {
  return TARGET_NAMES.find((t) => ARCH_CODE[t] === code);
}
