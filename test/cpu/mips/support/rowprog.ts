/**
 * Programs for the per-row comparison with qemu-user (qemu_rows.test.ts): for every row of the
 * opcode table that user-mode qemu runs as the R2000/R2010 does, instances of that row with seeded
 * random operands, each preceded by the code that gives its source registers edge-biased values,
 * as one Linux o32 program (assembly: the instances are `.word`s built from the row's match bits,
 * so every operand field is exercised, not only what an assembler would choose).
 *
 * Rows that end a process (break, an overflowing add/addi/sub, and the coprocessor-0/2 rows,
 * which user mode may not run) each get a program of their own that ends with the signal; rows
 * whose encodings qemu's MIPS32 CPU model (24Kf) defines otherwise are listed by `qemuDiffers`.
 *
 * Instances: register operands from POOL (never $28, the data pointer, $29, $30, the marker
 * register, nor $31 as a source: bltzal $31 is unpredictable); memory operands address the data
 * buffer at $28 with the row's alignment; branches skip one instruction (both ways meet again);
 * jumps go to the next instance (j/jal through the assembler, which encodes the region target);
 * add/addi/sub operands never overflow (their overflow is a signal program); ctc1 writes the
 * rounding mode and flags, never an enable; cfc1 reads FCR31 (FCR0 names the implementation).
 */
import type { OpSpec } from '../../../../cpu/mips/opcodes.js';
import { OPCODES } from '../../../../cpu/mips/opcodes.js';
import { lookup } from '../../../../cpu/mips/decode.js';
import { Prng } from '../../../../format/prng.js';
import { edgy, instanceOrder } from '../../../support/rowcheck.js';

const BASE = 28;
const MARK = 30;
const POOL = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25];
const BUF_WORDS = 1024;

/** Rows qemu's MIPS32 model (24Kf) gives another meaning than the R2000 and R2010, and why. */
export function qemuDiffers(r: OpSpec): string | undefined {
  if (r.op === 'LWC0' || r.op === 'SWC0') return 'MIPS II+ reuse the opcode for ll/sc';
  if (r.op === 'JALX') return 'a MIPS16e mode switch on qemu\'s 24Kf';
  if (r.op === 'COP1') return 'the R2010 lacks these COP1 operations (Unimplemented Operation); MIPS32 FPUs have them';
  if (r.cop === 3) return 'MIPS32 reuses coprocessor 3\'s opcodes (COP1X, pref)';
  return undefined;
}

/** Rows that end the process in user mode: with the signal qemu-user and emu deliver. */
export function signalOf(r: OpSpec): 'SIGTRAP' | 'SIGILL' | undefined {
  if (r.op === 'BREAK') return 'SIGTRAP';
  if (r.op === 'COP0' || r.cop === 0 || r.cop === 2) return 'SIGILL';
  return undefined;
}

/** Rows the per-instruction programs cover (the rest: signal programs, or qemuDiffers). */
export function steppedRows(): OpSpec[] {
  return OPCODES.filter((r) => !qemuDiffers(r) && !signalOf(r));
}

const hex = (v: number): string => `0x${(v >>> 0).toString(16)}`;

/** Assembly lines giving register r the value v. */
function li(r: number, v: number): string[] {
  return [`lui $${r}, ${hex(v >>> 16)}`, `ori $${r}, $${r}, ${hex(v & 0xffff)}`];
}

/** Edge-biased single and double bit patterns for the data buffer (FP operands come from it). */
function fpWord(rng: Prng): number {
  switch (rng.below(10)) {
    case 0: return rng.pick([0, 0x80000000, 0x7f800000, 0xff800000, 0x7fbfffff, 0x7fc00000, 0x00000001, 0x807fffff, 0x3f800000, 0x7f7fffff, 0x00800000]) | 0;
    case 1: return rng.pick([0x3ff00000, 0x7ff00000, 0x7ff7ffff, 0x00100000, 0x000fffff, 0x7fefffff, 0x41dfffff, 0xc1e00000, 0xffffffff]) | 0;
    case 2: return (0x3f000000 + rng.below(0x1000000)) | 0; // singles near 1
    case 3: return (0x40000000 + rng.below(0x200000)) | 0; // doubles' high words near 2
    default: return edgy(rng);
  }
}

interface Ctx {
  rng: Prng;
  out: string[];
  label: number;
}

function reg(ctx: Ctx): number {
  return ctx.rng.pick(POOL);
}

/** The word of one instance of row r, its source registers set up first. */
function instance(ctx: Ctx, r: OpSpec): void {
  const { rng, out } = ctx;
  const set = new Map<number, number>();
  const src = (n: number): number => {
    if (n !== 0 && !set.has(n)) set.set(n, edgy(rng));
    return n;
  };
  let w = r.match;
  const put = (v: number, shift: number, bits: number): void => {
    w = (w & ~(((1 << bits) - 1) << shift)) | ((v & ((1 << bits) - 1)) << shift);
  };
  const fpReg = (): number => (r.fmt === 'd' || r.dstFmt === 'd' ? 2 * rng.below(16) : rng.below(32));
  const uses = new Set(r.uses);
  let branch = false;
  let jumpReg = -1;
  for (const op of r.operands) {
    switch (op) {
      case 'rs': put(uses.has('rs') ? src(reg(ctx)) : reg(ctx), 21, 5); break;
      case 'rt': put(uses.has('rt') ? src(reg(ctx)) : reg(ctx), 16, 5); break;
      case 'rd': put(reg(ctx), 11, 5); break;
      case 'sa': put(rng.below(32), 6, 5); break;
      case 'simm': case 'uimm': put(rng.below(3) === 0 ? rng.pick([0, 1, 0x7fff, 0x8000, 0xffff]) : rng.u32(), 0, 16); break;
      case 'mem': {
        put(BASE, 21, 5);
        const align = r.mem!.partial ? 1 : r.mem!.width;
        put(rng.below(BUF_WORDS * 4 / align) * align, 0, 16);
        break;
      }
      case 'boff': put(2, 0, 16); branch = true; break;
      case 'fd': put(fpReg(), 6, 5); break;
      case 'fs': put(fpReg(), 11, 5); break;
      case 'ft': put(fpReg(), 16, 5); break;
      case 'c1fs': put(31, 11, 5); break;
      case 'code20': put(rng.u32(), 6, 20); break;
      case 'jtgt': break; // the assembler's (see below)
      default: throw new Error(`rowprog: operand ${op} of ${r.name}`);
    }
  }
  if (r.op === 'JR' || r.op === 'JALR') {
    jumpReg = 25;
    put(jumpReg, 21, 5);
    if (r.op === 'JALR') put(rng.pick(POOL.filter((x) => x !== 25)), 11, 5);
    set.delete(25);
  }
  // Sources of the value rows that trap on overflow: values whose exact result is an int32.
  const v = (n: number): number => (n === 0 ? 0 : set.get(n)!);
  const rs = (w >>> 21) & 31;
  const rt = (w >>> 16) & 31;
  if (r.exceptions.includes('Ov')) {
    for (let k = 0; k < 100; k++) {
      const a = v(rs);
      const b = r.op === 'ADDI' ? (w << 16) >> 16 : v(rt);
      const t = r.op === 'SUB' ? a - b : a + b;
      if (t >= -0x80000000 && t <= 0x7fffffff) break;
      if (rs !== 0) set.set(rs, rng.below(2000) - 1000);
      if (r.op !== 'ADDI' && rt !== 0) set.set(rt, rng.below(2000) - 1000);
    }
  }
  if (r.op === 'CTC1') set.set(rt, rng.below(4) | ((rng.below(32) << 2) & 0x7c));
  if (r.op === 'SYSCALL') {
    // write(1, buf, 0): returns 0 everywhere.
    out.push(...li(2, 4004), ...li(4, 1), `addu $5, $${BASE}, $0`, ...li(6, 0));
    out.push(`.word ${hex(w)}`);
    return;
  }
  for (const [n, val] of set) out.push(...li(n, val));
  if (r.fmt !== undefined && rng.below(3) === 0) {
    // Now and then a rounding mode (qemu and emu both read it from FCR31).
    out.push(...li(1, rng.below(4)), 'ctc1 $1, $31');
  }
  const L = `L${ctx.label++}`;
  if (r.op === 'J' || r.op === 'JAL') {
    out.push(`${r.name} ${L}`, `addiu $${MARK}, $${MARK}, 1`, `addiu $${MARK}, $${MARK}, 16`, `${L}:`);
    return;
  }
  if (jumpReg >= 0) out.push(`lui $25, %hi(${L})`, `addiu $25, $25, %lo(${L})`);
  out.push(`.word ${hex(w)}`);
  if (branch || jumpReg >= 0) out.push(`addiu $${MARK}, $${MARK}, 1`, `addiu $${MARK}, $${MARK}, 16`, `${L}:`);
}

/** A program running `perRow` instances of each row of `rows`, in a seeded random order. */
export function rowProgram(rows: readonly OpSpec[], seed: number, perRow: number): string {
  const rng = new Prng(seed);
  const order = instanceOrder(rows, perRow, (n) => rng.below(n));
  const ctx: Ctx = { rng, out: [], label: 0 };
  for (const r of order) {
    // bc1f/bc1t: a compare first, so both outcomes come up.
    if (r.cond?.a === 'fcc') instance(ctx, rng.pick(OPCODES.filter((x) => x.cls === 'fcmp')));
    instance(ctx, r);
  }
  const data = Array.from({ length: BUF_WORDS }, () => hex(fpWord(rng)));
  return [
    '\t.set noreorder', '\t.set noat', '\t.text', '\t.globl __start', '__start:',
    `lui $${BASE}, %hi(buf)`, `addiu $${BASE}, $${BASE}, %lo(buf)`,
    ...Array.from({ length: 32 }, (_, k) => `lwc1 $f${k}, ${4 * ((k * 37) % BUF_WORDS)}($${BASE})`),
    ...ctx.out,
    ...li(4, 0), ...li(2, 4001), 'syscall', 'nop',
    '\t.data', '\t.align 3', 'buf:', ...data.map((d) => `.word ${d}`), '',
  ].join('\n');
}

/** A program that ends at one instance of row r (a signal row, or an overflowing add/addi/sub). */
export function signalProgram(r: OpSpec, seed: number, overflow = false): string {
  const rng = new Prng(seed);
  const ctx: Ctx = { rng, out: [], label: 0 };
  let w = r.match;
  if (overflow) {
    // rs = $8 = 0x7fffffff, rt = $9 = 1 (addi: immediate 1; sub: rt = $9 = -1).
    ctx.out.push(...li(8, 0x7fffffff), ...li(9, r.op === 'SUB' ? -1 : 1));
    w |= (8 << 21) | (r.op === 'ADDI' ? (9 << 16) | 1 : (9 << 16) | (10 << 11));
    ctx.out.push(`.word ${hex(w)}`);
  } else {
    // Random operand fields (the row traps before any of them matters), decoding to r.
    do w = ((rng.u32() & ~r.mask) | r.match) >>> 0;
    while (lookup(w) !== r);
    ctx.out.push(`.word ${hex(w)}`, 'nop');
  }
  return [
    '\t.set noreorder', '\t.set noat', '\t.text', '\t.globl __start', '__start:',
    ...ctx.out, ...li(4, 0), ...li(2, 4001), 'syscall', 'nop', '',
  ].join('\n');
}
