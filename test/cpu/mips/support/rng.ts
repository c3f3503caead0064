/** A seeded 32-bit PRNG (xorshift32) for generated tests: same seed, same instructions. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = (seed >>> 0) || 0x9e3779b9;
  }
  /** Uniform 32-bit unsigned value. */
  u32(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  /** Uniform integer in [0, n). */
  below(n: number): number {
    return this.u32() % n;
  }
  pick<T>(a: readonly T[]): T {
    return a[this.below(a.length)]!;
  }
  /** A 32-bit value biased towards interesting edges (0, ±1, extremes, small numbers). */
  edgy(): number {
    switch (this.below(8)) {
      case 0: return this.pick([0, 1, -1, 0x7fffffff, -0x80000000, 0x8000, 0x7fff, -0x8000, 0xffff]) | 0;
      case 1: return this.below(64) - 32;
      default: return this.u32() | 0;
    }
  }
}
