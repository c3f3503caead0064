/**
 * The coverage-guided fuzzer of `npm run fuzz` (README "Fuzzing"): libFuzzer's loop — mutate an
 * input of the corpus, run the target, keep the input when it reaches code no input reached
 * before — with V8's own block coverage (the inspector's precise coverage, the data of
 * `NODE_V8_COVERAGE`) as the feedback. It runs inside a worker thread (test/fuzz/worker.ts);
 * the main thread (test/fuzz/run.ts) bounds the time of every input and the worker's memory.
 *
 * Why not @jazzer.js/core: its only Linux x64 addon (4.0.0) needs glibc 2.38 (Debian 12 has
 * 2.36: `GLIBC_2.38 not found` at load), and its earlier releases download their addon, or the
 * LLVM sources to build it, from outside the npm registry at install time.
 *
 * Contract checked on every input (a violation is a finding): the target returns, or throws its
 * documented error type with a one-line, non-empty message naming the input's file; it
 * allocates no more than MEMORY_SLACK plus MEMORY_FACTOR times the input's size; the per-input
 * time bound is the watchdog's (run.ts).
 */
import { Session } from 'node:inspector';
import { getHeapStatistics } from 'node:v8';

export interface Target {
  name: string;
  /** What the target reads, for --list. */
  about: string;
  /** The file name errors must mention (the reader is given it, or a path containing it). */
  file: string;
  /** Inputs to start from (shipped files, a small bundle): called once in the worker. */
  seeds(): Uint8Array[];
  /** Reads one input; throws only `expected` errors. */
  run(input: Uint8Array): void;
  /** The documented error type(s). */
  expected(e: unknown): boolean;
  /** Tokens the mutator inserts (magic numbers, field names). */
  dict?: readonly (string | Uint8Array)[];
  /** JSON text: most mutations edit the parsed value instead of the bytes. */
  json?: boolean;
  /** Inputs are cut to this many bytes. */
  maxLen: number;
  /** Substrings of the script URLs whose coverage guides the fuzzer. */
  cover: readonly string[];
}

export interface Finding {
  kind: 'crash' | 'contract' | 'memory' | 'slow';
  /** One line: error name and message, or what was violated. */
  summary: string;
  stack: string;
  input: Uint8Array;
}

/** Bytes an input may allocate beyond MEMORY_FACTOR times its size. */
export const MEMORY_SLACK = 256 << 20;
export const MEMORY_FACTOR = 64;

/** xorshift128+: the mutator's random numbers (seeded: a run is repeatable with --seed). */
export class Rng {
  private a: bigint;
  private b: bigint;
  constructor(seed: number) {
    this.a = BigInt(seed >>> 0) * 0x9e3779b97f4a7c15n + 1n;
    this.b = this.a ^ 0xdeadbeefcafebaben;
    for (let i = 0; i < 8; i++) this.u32();
  }
  u32(): number {
    const M = 0xffffffffffffffffn;
    let s1 = this.a;
    const s0 = this.b;
    this.a = s0;
    s1 ^= (s1 << 23n) & M;
    this.b = s1 ^ s0 ^ (s1 >> 17n) ^ (s0 >> 26n);
    return Number(((this.b + s0) & M) >> 32n);
  }
  below(n: number): number {
    return n <= 1 ? 0 : this.u32() % n;
  }
  chance(p: number): boolean {
    return this.u32() / 2 ** 32 < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)]!;
  }
}

const INTERESTING_8 = [0, 1, 0x7f, 0x80, 0xff, 0x10, 0x20, 0x40];
const INTERESTING_32 = [0, 1, 2, 4, 16, 32, 40, 52, 0x7f, 0x80, 0xff, 0x100, 0x1000, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
/** Unsigned LEB128 forms of large values (the schedule and ground-truth streams use them). */
const LEB_TOKENS = [
  [0xff, 0xff, 0xff, 0xff, 0x0f], [0x80, 0x80, 0x80, 0x80, 0x10], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
  [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
].map((x) => Uint8Array.from(x));

function concat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Byte-level mutations (libFuzzer's MutationDispatcher, in small). */
export function mutateBytes(rng: Rng, input: Uint8Array, other: Uint8Array, dict: readonly Uint8Array[], maxLen: number): Uint8Array {
  let b: Uint8Array = Uint8Array.from(input);
  const rounds = 1 + rng.below(4);
  for (let r = 0; r < rounds; r++) {
    const n = b.length;
    const at = rng.below(n + 1);
    switch (rng.below(13)) {
      case 0: if (n) b[rng.below(n)]! ^= 1 << rng.below(8); break;
      case 1: if (n) b[rng.below(n)] = rng.below(256); break;
      case 2: if (n) b[rng.below(n)] = rng.pick(INTERESTING_8); break;
      case 3: { // a 16- or 32-bit field, either byte order
        if (n < 4) break;
        const o = rng.below(n - 3);
        const v = rng.chance(0.3) ? (rng.pick(INTERESTING_32) + n) >>> 0 : rng.pick(INTERESTING_32);
        const dv = new DataView(b.buffer, b.byteOffset, b.length);
        if (rng.chance(0.5)) dv.setUint32(o, v, rng.chance(0.5));
        else dv.setUint16(o, v & 0xffff, rng.chance(0.5));
        break;
      }
      case 4: { // add or subtract a little
        if (!n) break;
        const o = rng.below(n);
        b[o] = (b[o]! + (rng.below(35) - 17)) & 0xff;
        break;
      }
      case 5: { // delete a range
        if (!n) break;
        const len = 1 + rng.below(Math.min(n - at, rng.chance(0.8) ? 16 : n) || 1);
        b = concat(b.subarray(0, at), b.subarray(Math.min(n, at + len)));
        break;
      }
      case 6: { // insert random bytes
        const len = 1 + rng.below(16);
        const ins = new Uint8Array(len);
        for (let i = 0; i < len; i++) ins[i] = rng.below(256);
        b = concat(b.subarray(0, at), ins, b.subarray(at));
        break;
      }
      case 7: { // duplicate or move a range inside the input
        if (!n) break;
        const from = rng.below(n);
        const len = 1 + rng.below(Math.min(n - from, 256));
        const chunk = b.slice(from, from + len);
        if (rng.chance(0.5)) b = concat(b.subarray(0, at), chunk, b.subarray(at));
        else b.set(chunk.subarray(0, Math.max(0, n - at)), Math.min(at, n));
        break;
      }
      case 8: { // cross-over with another corpus entry
        if (!other.length) break;
        const from = rng.below(other.length);
        const len = 1 + rng.below(Math.min(other.length - from, 1024));
        b = rng.chance(0.5)
          ? concat(b.subarray(0, at), other.subarray(from, from + len), b.subarray(at))
          : concat(b.subarray(0, at), other.subarray(from));
        break;
      }
      case 9: case 10: { // a dictionary token: inserted or written over
        const tok = rng.chance(0.3) ? rng.pick(LEB_TOKENS) : dict.length ? rng.pick(dict) : rng.pick(LEB_TOKENS);
        if (rng.chance(0.5)) b = concat(b.subarray(0, at), tok, b.subarray(at));
        else if (n) b.set(tok.subarray(0, Math.max(0, n - at)), Math.min(at, n));
        break;
      }
      case 11: b = b.slice(0, rng.below(n + 1)); break;
      case 12: { // a run of one byte
        if (!n) break;
        const len = 1 + rng.below(Math.min(64, n - Math.min(at, n - 1)));
        b.fill(rng.pick(INTERESTING_8), Math.min(at, n - 1), Math.min(at, n - 1) + len);
        break;
      }
    }
  }
  return b.length > maxLen ? b.slice(0, maxLen) : b;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const JSON_VALUES: Json[] = [
  null, true, false, 0, 1, -1, 0.5, -0.5, 4096, 65536, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53, -(2 ** 31), 1e308, -1e308,
  '', 'x', '0', '../../../etc/passwd', '/', '0x10', 'NaN', 'a'.repeat(300), '1; throw new Error("injected")', '__proto__',
  [], [0], [[]], {}, { k: 1 },
];

/** Every [container, key] of a JSON value, for picking a node at random. */
function nodes(v: Json, out: [Json[] | { [k: string]: Json }, string | number][] = [], depth = 0): typeof out {
  if (depth > 40 || out.length > 20000) return out;
  if (Array.isArray(v)) v.forEach((x, i) => { out.push([v, i]); nodes(x, out, depth + 1); });
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) { out.push([v, k]); nodes(v[k]!, out, depth + 1); }
  return out;
}

/** Structure-aware mutation of JSON text: a value replaced, removed, duplicated or re-typed. */
export function mutateJson(rng: Rng, input: Uint8Array, other: Uint8Array, maxLen: number): Uint8Array | null {
  let root: Json;
  try {
    root = JSON.parse(Buffer.from(input).toString('utf8')) as Json;
  } catch {
    return null;
  }
  const all = nodes(root);
  if (all.length === 0) return null;
  const rounds = 1 + rng.below(3);
  for (let r = 0; r < rounds; r++) {
    const [c, k] = rng.pick(all);
    const cur = (c as Record<string | number, Json>)[k]!;
    switch (rng.below(7)) {
      case 0: case 1: (c as Record<string | number, Json>)[k] = structuredClone(rng.pick(JSON_VALUES)); break;
      case 2: // remove
        if (Array.isArray(c)) c.splice(k as number, 1);
        else delete c[k as string];
        break;
      case 3: // a number nudged, or a value of another type of the same magnitude
        if (typeof cur === 'number') (c as Record<string | number, Json>)[k] = rng.pick([cur + 1, cur - 1, cur * 2, -cur, cur + 0.5, String(cur)]);
        else if (typeof cur === 'string') (c as Record<string | number, Json>)[k] = rng.chance(0.5) ? cur + cur : cur.slice(0, rng.below(cur.length + 1));
        else (c as Record<string | number, Json>)[k] = JSON.stringify(cur) ?? null;
        break;
      case 4: // duplicate an array element or copy a sibling's value
        if (Array.isArray(c)) c.splice(k as number, 0, structuredClone(cur));
        else {
          const keys = Object.keys(c);
          c[k as string] = structuredClone(c[rng.pick(keys)]!);
        }
        break;
      case 5: { // a value from another corpus entry at a random node
        try {
          const o = nodes(JSON.parse(Buffer.from(other).toString('utf8')) as Json);
          if (o.length) {
            const [oc, ok] = rng.pick(o);
            (c as Record<string | number, Json>)[k] = structuredClone((oc as Record<string | number, Json>)[ok]!);
          }
        } catch { /* not JSON */ }
        break;
      }
      case 6: // wrap
        (c as Record<string | number, Json>)[k] = rng.chance(0.5) ? [cur] : { v: cur };
        break;
    }
  }
  const out = Buffer.from(JSON.stringify(root) ?? 'null');
  return out.length > maxLen ? null : new Uint8Array(out);
}

/** Hit counts in libFuzzer's buckets: a new bucket of a block is new coverage. */
function bucket(n: number): number {
  if (n <= 0) return 0;
  if (n < 4) return 1 << (n - 1);
  if (n < 8) return 8;
  if (n < 16) return 16;
  if (n < 32) return 32;
  if (n < 128) return 64;
  return 128;
}

interface CoverageRange { startOffset: number; endOffset: number; count: number }
interface ScriptCoverage { url: string; functions: { ranges: CoverageRange[] }[] }

/**
 * V8 block coverage of the scripts a target names: features are (script, block, count bucket).
 * V8 reports a block only where its count differs from the enclosing range's (a block run as
 * often as its function is not listed), so the blocks each function has shown once are kept and
 * every known block gets the count of the innermost range reported around it.
 */
export class Coverage {
  private readonly session = new Session();
  private readonly seen = new Map<string, number>();
  /** Per function (script URL and start): its blocks ever reported, as [start, end]. */
  private readonly blocks = new Map<string, Map<string, [number, number]>>();
  constructor(private readonly cover: readonly string[]) {
    this.session.connect();
    this.post('Profiler.enable');
    this.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  }
  private post(method: string, params?: object): unknown {
    let result: unknown;
    let error: Error | null = null;
    // A session of the same thread answers synchronously.
    this.session.post(method, params ?? {}, (e, r) => { error = e; result = r; });
    if (error) throw error;
    return result;
  }
  /** Features discovered since the last call (which resets V8's counters); `commit` keeps them. */
  take(commit: boolean): number {
    const r = this.post('Profiler.takePreciseCoverage') as { result: ScriptCoverage[] };
    let fresh = 0;
    for (const sc of r.result) {
      if (!this.cover.some((c) => sc.url.includes(c))) continue;
      for (const f of sc.functions) {
        const ranges = f.ranges;
        if (ranges.length === 0) continue;
        const fkey = `${sc.url}:${ranges[0]!.startOffset}`;
        let known = this.blocks.get(fkey);
        if (!known) this.blocks.set(fkey, (known = new Map()));
        for (const x of ranges) {
          const k = `${x.startOffset}:${x.endOffset}`;
          if (!known.has(k)) known.set(k, [x.startOffset, x.endOffset]);
        }
        if (ranges[0]!.count === 0) continue;
        for (const [k, [s, e]] of known) {
          // The innermost reported range around the block (ranges nest; later ones are inner).
          let count = 0;
          for (const x of ranges) if (x.startOffset <= s && e <= x.endOffset) count = x.count;
          const b = bucket(count);
          if (b === 0) continue;
          const key = `${fkey}:${k}`;
          const had = this.seen.get(key) ?? 0;
          if ((had & b) === 0) {
            fresh++;
            if (commit) this.seen.set(key, had | b);
          }
        }
      }
    }
    return fresh;
  }
  get features(): number {
    let n = 0;
    for (const v of this.seen.values()) for (let b = v; b; b &= b - 1) n++;
    return n;
  }
}

/** The contract on one run of the target: undefined when it held, else the violation. */
export function check(t: Target, input: Uint8Array): Omit<Finding, 'input'> | undefined {
  const before = getHeapStatistics().external_memory;
  try {
    t.run(input);
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const summary = `${err.name}: ${err.message}`.slice(0, 400);
    if (!t.expected(e)) return { kind: 'crash', summary, stack: err.stack ?? '' };
    if (err.message === '' || err.message.includes('\n')) return { kind: 'contract', summary: `not a one-line message: ${JSON.stringify(err.message.slice(0, 300))}`, stack: err.stack ?? '' };
    if (!err.message.includes(t.file)) return { kind: 'contract', summary: `the message does not name ${t.file}: ${summary}`, stack: err.stack ?? '' };
  }
  const grown = getHeapStatistics().external_memory - before;
  if (grown > MEMORY_SLACK + MEMORY_FACTOR * input.length) {
    return { kind: 'memory', summary: `allocated ${grown} bytes for a ${input.length}-byte input`, stack: '' };
  }
  return undefined;
}

/** The signature two findings share when they are one bug: kind and the throwing frame. */
export function signature(f: Omit<Finding, 'input'>): string {
  const frame = f.stack.split('\n').find((l) => l.trim().startsWith('at ')) ?? '';
  return `${f.kind} ${f.summary.split(':')[0]} ${frame.trim().replace(/:\d+\)?$/, '')}`;
}

/** Shrinks a finding's input while the same signature reproduces (bounded attempts). */
export function minimize(t: Target, input: Uint8Array, sig: string, beat: () => void, attempts = 300): Uint8Array {
  let best = input;
  for (let chunk = Math.max(1, best.length >> 1); chunk >= 1 && attempts > 0; chunk >>= 1) {
    for (let at = 0; at < best.length && attempts > 0; ) {
      attempts--;
      const cand = concat(best.subarray(0, at), best.subarray(at + chunk));
      const f = check(t, cand);
      beat();
      if (f && signature(f) === sig) best = cand;
      else at += chunk;
    }
  }
  return best;
}
