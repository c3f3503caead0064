/**
 * Programs for the per-row comparison with qemu-sparc (qemu_rows.test.ts): seeded instances of
 * every row of the opcode table that user-mode qemu runs as a v8 CPU does, each preceded by the
 * code that gives its sources edge-biased values, as one Linux program (assembly: instances are
 * `.word`s from the row's match bits and testgen.ts's field rules, so every operand field is
 * exercised).
 *
 * The other rows: `signalOf` — privileged rows and unimp, which end a user process with SIGILL
 * under both; `qemuUnhandled` — rows whose trap qemu-user 7.2 does not turn into a signal (it
 * prints "unhandled trap" and exits); `qemuDiffers` — rows qemu's CPU model defines otherwise.
 *
 * Instances: register operands from POOL (never %g3, the marker; %g4, the data pointer; %g5-%g7;
 * %sp or %fp); memory operands address the data buffer at %g4 with the row's alignment, doubleword
 * registers even; branches and call skip one instruction, jmpl goes to the next instance; a
 * random SAVE is followed by `sub %fp, 96, %sp` (its new window needs a stack) and RESTOREs only
 * undo SAVEs — the program runs in a window of its own: qemu-user starts a process with its
 * window invalid in WIM, as Linux does, and a RESTORE into it refills it from the stack; tagged-trap and division operands never trap; ldfsr loads a value with TEM and NS
 * clear; Ticc calls write(1, buf, 0) when it traps.
 */
import { OPCODES, I_BIT, zeroBits, type OpSpecFull } from '../../../cpu/sparc/opcodes.js';
import { Prng } from '../../../format/prng.js';
import { EDGES, edgy, instanceOrder } from '../../support/rowcheck.js';

const BASE = 4;
const MARK = 3;
const POOL = [1, 2, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31];
/** Even registers whose pair is in POOL (or %g0/%g1, %g2/%g3): ldd and std. */
const PAIRS = [0, 2, 8, 10, 12, 16, 18, 20, 22, 24, 26, 28];
const BUF_BYTES = 4096;
/** Scratch word at the end of the buffer (ldfsr's value). */
const SCRATCH = BUF_BYTES - 8;

/** Rows that end a user process with SIGILL under qemu-user and emu alike. */
export function signalOf(r: OpSpecFull): 'SIGILL' | undefined {
  if (r.name === 'unimp') return 'SIGILL';
  if (r.priv && r.name !== 'stdfq' && r.name !== 'stdcq') return 'SIGILL';
  return undefined;
}

/** Rows whose trap qemu-user does not deliver as a signal (it stops with "unhandled trap"). */
export function qemuUnhandled(r: OpSpecFull): string | undefined {
  if (r.fmt === 'cbccc' || r.fmt === 'cpop') return 'cp_disabled: qemu-user stops with "unhandled trap"';
  return undefined;
}

/** Rows qemu's CPU model gives another meaning than a v8 CPU without coprocessor and quad FPops. */
export function qemuDiffers(r: OpSpecFull): string | undefined {
  if (r.unimpl) return 'quad FPops: v8 chips raise unimplemented_FPop, qemu computes them';
  if (r.sem === 'rdasr' || r.sem === 'wrasr') return 'qemu\'s CPU model has ancillary state registers';
  if (r.sem === 'cpmem') return 'qemu-user runs coprocessor loads and stores without cp_disabled';
  if (r.name === 'stdfq') return 'qemu-user runs stdfq in user mode';
  return undefined;
}

/** Rows the per-instruction programs cover. */
export function steppedRows(): OpSpecFull[] {
  return OPCODES.filter((r) => !signalOf(r) && !qemuUnhandled(r) && !qemuDiffers(r));
}

const hex = (v: number): string => `0x${(v >>> 0).toString(16)}`;
const RN = (n: number): string => `%r${n}`;

function set(r: number, v: number): string[] {
  return [`sethi %hi(${hex(v)}), ${RN(r)}`, `or ${RN(r)}, %lo(${hex(v)}), ${RN(r)}`];
}

/** Operand edges: rowcheck.ts's and the shift counts 31 and 32. */
const SPARC_EDGES = [...EDGES, 31, 32];

/** Edge-biased single and double bit patterns for the data buffer (FP operands come from it). */
function fpWord(rng: Prng): number {
  switch (rng.below(10)) {
    case 0: return rng.pick([0, 0x80000000, 0x7f800000, 0xff800000, 0x7fbfffff, 0x7fc00000, 0x00000001, 0x807fffff, 0x3f800000, 0x7f7fffff, 0x00800000]) | 0;
    case 1: return rng.pick([0x3ff00000, 0x7ff00000, 0x7ff7ffff, 0x00100000, 0x000fffff, 0x7fefffff, 0x41dfffff, 0xc1e00000, 0xffffffff]) | 0;
    case 2: return (0x3f000000 + rng.below(0x1000000)) | 0;
    case 3: return (0x40000000 + rng.below(0x200000)) | 0;
    default: return edgy(rng, SPARC_EDGES);
  }
}

interface Ctx {
  rng: Prng;
  out: string[];
  label: number;
  depth: number;
}

/** One instance of row r, its sources set up first. */
function instance(ctx: Ctx, r: OpSpecFull): void {
  const { rng, out } = ctx;
  const vals = new Map<number, number>();
  const src = (n: number, v = edgy(rng, SPARC_EDGES)): number => {
    if (n !== 0) vals.set(n, v);
    return n;
  };
  const reg = (): number => rng.pick(POOL);
  let w = r.match;
  const put = (v: number, shift: number, bits: number): void => {
    w = (w & ~(((1 << bits) - 1) << shift)) | ((v & ((1 << bits) - 1)) << shift);
  };
  const m = r.mem;
  const width = m?.width ?? 4;
  const fpEven = (p: string | undefined): boolean => p === 'd';
  // Second operand: register or immediate; memory forms address the buffer.
  const ri = (imm: () => number, regVal: () => number): void => {
    if (rng.below(2) === 0) {
      w |= I_BIT;
      put(imm(), 0, 13);
    } else put(src(reg(), regVal()), 0, 5);
  };
  const L = `L${ctx.label++}`;
  const after: string[] = [];
  switch (r.fmt) {
    case 'call':
      out.push(`call ${L}`);
      break;
    case 'sethi':
      put(reg(), 25, 5);
      put(rng.u32(), 0, 22);
      break;
    case 'bicc': case 'fbfcc':
      put(3, 0, 22);
      if (rng.below(2)) w |= 1 << 29; // annul
      break;
    case 'mem': {
      put(BASE, 14, 5);
      const isF = m!.unit === 'f';
      let rd = isF ? rng.below(32) : width === 8 ? rng.pick(PAIRS) : reg();
      if (width === 8) rd &= ~1;
      if (m!.unit === 'fsr') rd = 0;
      put(rd, 25, 5);
      if (!isF && m!.kind !== 'load') src(rd);
      if (!isF && width === 8 && m!.kind === 'store') src(rd + 1);
      const off = (): number => rng.below((BUF_BYTES - 16) / width) * width;
      if (m!.unit === 'fsr' && m!.kind === 'load') {
        // A controlled FSR: rounding direction and accrued/current flags only.
        out.push(...set(1, (rng.below(4) << 30) | (rng.below(32) << 5) | rng.below(32)), `st %g1, [%g4 + ${SCRATCH}]`);
        w |= I_BIT;
        put(SCRATCH, 0, 13);
      } else if (rng.below(2) === 0) {
        w |= I_BIT;
        put(off(), 0, 13);
      } else {
        // The offset in a register of its own (not the data's).
        const x = rng.pick(POOL.filter((n) => n !== rd && n !== (rd | 1)));
        put(x, 0, 5);
        src(x, off());
      }
      break;
    }
    case 'fpop': {
      const even = fpEven(r.precD) || fpEven(r.precS);
      const f = (): number => (even ? 2 * rng.below(16) : rng.below(32));
      put(r.args.includes('fd') ? (fpEven(r.precD) ? 2 * rng.below(16) : rng.below(32)) : 0, 25, 5);
      if (r.args.includes('fs1')) put(fpEven(r.precS) ? 2 * rng.below(16) : f(), 14, 5);
      put(fpEven(r.precS) ? 2 * rng.below(16) : f(), 0, 5);
      // Fresh operands now and then, from the buffer's edge-biased patterns.
      if (rng.below(2) === 0) out.push(`ldd [%g4 + ${8 * rng.below(BUF_BYTES / 8 - 2)}], %f${2 * rng.below(16)}`);
      break;
    }
    case 'arith': {
      const sem = r.sem;
      if (sem === 'ticc') {
        // ta/t<cond> 0x10: write(1, buf, 0) when the condition holds.
        out.push(...set(1, 4), ...set(8, 1), `mov %g4, %o1`, ...set(10, 0));
        w |= I_BIT;
        put(0x10, 0, 7);
        break;
      }
      if (sem === 'jmpl') {
        out.push(`sethi %hi(${L}), %g1`, `or %g1, %lo(${L}), %g1`);
        put(1, 14, 5);
        w |= I_BIT;
        put(reg(), 25, 5);
        break;
      }
      if (sem === 'flush') {
        put(BASE, 14, 5);
        w |= I_BIT;
        put(rng.below(BUF_BYTES / 8) * 8, 0, 13);
        break;
      }
      if (sem === 'stbar') break;
      if (sem === 'restore' && ctx.depth === 0) {
        // Nothing to undo: a SAVE first.
        instance(ctx, OPCODES.find((x) => x.sem === 'save')!);
      }
      const rs1 = reg();
      put(rs1, 14, 5);
      const divides = sem === 'udiv' || sem === 'sdiv' || sem === 'udivcc' || sem === 'sdivcc';
      const tagged = sem.startsWith('tadd') || sem.startsWith('tsub');
      const tagVal = (): number => (rng.below(2000) - 1000) * 4;
      const shift = r.zeroRule === 'shift';
      src(rs1, tagged ? tagVal() : edgy(rng, SPARC_EDGES));
      if (r.args.includes('ri') || r.args.includes('[a]')) {
        const imm = (): number => {
          if (shift) return rng.below(32);
          if (tagged) return (rng.below(1000) - 500) * 4;
          const v = rng.below(3) === 0 ? rng.pick([0, 1, -1, 4095, -4096]) : (rng.u32() << 19) >> 19;
          return divides && v === 0 ? 7 : v;
        };
        ri(imm, () => {
          const v = tagged ? tagVal() : edgy(rng, SPARC_EDGES);
          return divides && v === 0 ? 3 : v;
        });
      }
      if (r.defs.includes('rd')) put(reg(), 25, 5);
      if (sem === 'save') {
        ctx.depth++;
        after.push('sub %fp, 96, %sp');
      }
      if (sem === 'restore') ctx.depth--;
      break;
    }
    default:
      throw new Error(`rowprog: ${r.name} (${r.fmt})`);
  }
  for (const [n, v] of vals) out.push(...set(n, v));
  // The row's fixed bits, and its unused fields clear (a strict v8 word).
  w = (((w & ~r.mask) | r.match) & ~zeroBits(r, w)) >>> 0;
  if (r.fmt !== 'call') out.push(`.word ${hex(w)}`);
  if (r.fmt === 'call' || r.fmt === 'bicc' || r.fmt === 'fbfcc' || r.sem === 'jmpl') {
    out.push(`add ${RN(MARK)}, 1, ${RN(MARK)}`, `add ${RN(MARK)}, 16, ${RN(MARK)}`, `${L}:`);
  }
  out.push(...after);
}

/** A program running `perRow` instances of each row of `rows`, in a seeded random order. */
export function rowProgram(rows: readonly OpSpecFull[], seed: number, perRow: number): string {
  const rng = new Prng(seed);
  const order = instanceOrder(rows, perRow, (n) => rng.below(n));
  const ctx: Ctx = { rng, out: [], label: 0, depth: 0 };
  const fcmp = OPCODES.filter((x) => x.sem === 'fcmp' && !x.unimpl);
  for (const r of order) {
    // A window deeper than qemu's and emu's register files is spilled either way; keep it shallow.
    if (r.sem === 'save' && ctx.depth >= 5) instance(ctx, OPCODES.find((x) => x.sem === 'restore')!);
    if (r.fmt === 'fbfcc' && rng.below(2) === 0) {
      // An FBfcc may not immediately follow an FPop2 (manual B.4): one instruction between.
      instance(ctx, rng.pick(fcmp));
      ctx.out.push('nop');
    }
    instance(ctx, r);
  }
  while (ctx.depth > 0) {
    ctx.out.push('restore');
    ctx.depth--;
  }
  const data = Array.from({ length: BUF_BYTES / 4 }, () => hex(fpWord(rng)));
  return [
    '\t.text', '\t.globl _start', '_start:',
    'sethi %hi(buf), %g4', 'or %g4, %lo(buf), %g4', 'save %sp, -96, %sp',
    ...Array.from({ length: 16 }, (_, k) => `ldd [%g4 + ${8 * ((k * 37) % (BUF_BYTES / 8 - 2))}], %f${2 * k}`),
    ...ctx.out,
    'mov 1, %g1', 'mov 0, %o0', 'ta 0x10', 'nop',
    '\t.data', '\t.align 8', 'buf:', ...data.map((d) => `.word ${d}`), '',
  ].join('\n');
}

/** A program that ends at one instance of row r (random operand fields). */
export function signalProgram(r: OpSpecFull, seed: number, decodes: (w: number) => OpSpecFull | undefined): string {
  const rng = new Prng(seed);
  let w: number;
  do w = ((rng.u32() & ~r.mask) | r.match) >>> 0;
  while (decodes(w) !== r);
  return ['\t.text', '\t.globl _start', '_start:', 'nop', `.word ${hex(w)}`, 'nop', 'mov 1, %g1', 'mov 0, %o0', 'ta 0x10', 'nop', ''].join('\n');
}
