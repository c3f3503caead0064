/**
 * The one seeded generator: xoshiro128** (Blackman & Vigna), seeded through splitmix32. The
 * machine's only source of randomness — `--seed N` randomises clock deadlines and device
 * latencies, and a bundle records the seed, so the same seed must give the same sequence — and
 * the generator of the instruction tests (cpu/sparc/testgen.ts, the tests' random programs). The
 * host's randomness never reaches the machine.
 */
export class Prng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number) {
    let x = seed >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Next 32-bit unsigned value. */
  u32(): number {
    const r = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return r;
  }

  /** Uniform integer in [lo, hi] (hi - lo < 2^32). */
  range(lo: number, hi: number): number {
    const n = hi - lo + 1;
    return lo + Math.floor((this.u32() / 0x100000000) * n);
  }

  /** Integer in [0, n): the next value modulo n (tests). */
  below(n: number): number {
    return this.u32() % n;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)]!;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.u32() / 0x100000000 < p;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
