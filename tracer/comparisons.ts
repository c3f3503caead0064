/**
 * The comparison of a register with a constant that ends a block, and what each of its edges
 * tells of the register's interval (tracer/induction.ts narrows a counter with them): MIPS
 * beq/bne with one register of constant value; SPARC `cmp q, K` or `cmp q, rK` (subcc into %g0)
 * right before the Bicc in the same block.
 */
import type { Block, Edge } from './cfg.js';
import type { Dataflow } from './dataflow.js';
import type { Isa } from './isa.js';
import { SPARC_SUB } from './predicates.js';

const TWO32 = 2 ** 32;

/**
 * A set of 32-bit values: every v with v ≡ x (mod 2^32) for some integer x in [lo, hi]; hi - lo <
 * 2^32. Undefined: any value.
 */
export interface Range {
  lo: number;
  hi: number;
}

/** findComparison's reading of a block before constants (findShape). */
export interface Shape {
  taken: Edge;
  fall: Edge;
  depth: number;
  /** Canonical registers the comparison may read as q. */
  regs: number[];
}

/** A comparison of canonical register q with a constant at the end of block b (before its delay slot). */
export interface Cmp {
  op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'ltu' | 'leu' | 'gtu' | 'geu';
  k: number;
  taken: Edge;
  fall: Edge;
}

/**
 * What findComparison reads of block b before any constant: its edges, the branch and its depth,
 * and the registers it may compare (its q: MIPS rs or rt, SPARC the cmp's rs1).
 */
export function findShape(df: Dataflow, isa: Isa, b: Block): Shape | undefined {
  if (Number.isNaN(df.depthIn[b.id]!)) return undefined;
  if (b.term !== 'branch' || b.succ.length !== 2) return undefined;
  // The first taken and the first fall-through edge.
  let taken: Edge | undefined;
  let fall: Edge | undefined;
  for (const e of b.succ) {
    if (e.kind === 'taken') taken ??= e;
    else if (e.kind === 'fall') fall ??= e;
  }
  if (!taken || !fall) return undefined;
  const n = b.insns.length;
  const br = b.insns[n - 1]!;
  if (br.cti !== 'branch' || !br.cond) return undefined;
  const depth = df.sites[df.insnSite[b.id]![n - 1]!]!.depth;
  if (isa.name === 'mips') {
    if (br.name !== 'beq' && br.name !== 'bne') return undefined;
    const rs = (br.word >>> 21) & 31;
    const rt = (br.word >>> 16) & 31;
    const regs: number[] = [];
    if (rs !== 0) regs.push(isa.canon(rs, depth));
    if (rt !== 0) regs.push(isa.canon(rt, depth));
    return { taken, fall, depth, regs };
  }
  // SPARC: `subcc q, K, %g0` (cmp) right before the Bicc in this block.
  if (((br.word >>> 22) & 7) !== 2 || n < 2) return undefined;
  const cmp = b.insns[n - 2]!;
  const op = SPARC_SUB[br.name];
  if (!op || cmp.name !== 'subcc' || ((cmp.word >>> 25) & 31) !== 0 || cmp.window !== 0) return undefined;
  const rs1 = (cmp.word >>> 14) & 31;
  if (rs1 === 0) return undefined;
  return { taken, fall, depth, regs: [isa.canon(rs1, depth)] };
}

/** The comparison of a register with a constant that ends block b (shape: findShape's), if any. */
export function findComparison(df: Dataflow, isa: Isa, b: Block, sh: Shape | undefined): (Cmp & { q: number }) | undefined {
  if (!sh) return undefined;
  const { taken, fall, depth } = sh;
  const n = b.insns.length;
  const br = b.insns[n - 1]!;
  const end = df.stateAt(b, n - 1);
  const constant = (r: number): number | undefined => df.constValue(end, isa.canon(r, depth));
  const canon = (r: number): number => isa.canon(r, depth);
  if (isa.name === 'mips') {
    const rs = (br.word >>> 21) & 31;
    const rt = (br.word >>> 16) & 31;
    const op = br.name === 'beq' ? 'eq' : 'ne';
    const ks = rs === 0 ? 0 : constant(rs);
    const kt = rt === 0 ? 0 : constant(rt);
    if (rs !== 0 && ks === undefined && kt !== undefined) return { q: canon(rs), op, k: kt, taken, fall };
    if (rt !== 0 && kt === undefined && ks !== undefined) return { q: canon(rt), op, k: ks, taken, fall };
    return undefined;
  }
  const cmp = b.insns[n - 2]!;
  const op = SPARC_SUB[br.name]!;
  const rs1 = (cmp.word >>> 14) & 31;
  const imm = ((cmp.word >>> 13) & 1) === 1;
  const k = imm ? ((cmp.word & 0x1fff) << 19) >> 19 : constant(cmp.word & 31);
  return k === undefined ? undefined : { q: canon(rs1), op, k, taken, fall };
}

/** The negation of each comparison. */
const NEG: Readonly<Record<Cmp['op'], Cmp['op']>> = { eq: 'ne', ne: 'eq', lt: 'ge', ge: 'lt', le: 'gt', gt: 'le', ltu: 'geu', geu: 'ltu', leu: 'gtu', gtu: 'leu' };

/** i's interval narrowed by `q op k` being true (or false); undefined: the edge cannot be taken. */
export function narrow(i: Range, c: Cmp, holds: boolean): Range | null | undefined {
  const op = holds ? c.op : NEG[c.op];
  const uns = op.endsWith('u');
  // i's interval as the comparison reads it (signed or unsigned), when it does not wrap.
  const off = uns ? 0 : 2 ** 31;
  const kk = Math.floor((i.lo + off) / TWO32);
  if (Math.floor((i.hi + off) / TWO32) !== kk) return op === 'eq' ? { lo: c.k | 0, hi: c.k | 0 } : i;
  const shift = kk * TWO32;
  const v = { lo: i.lo - shift, hi: i.hi - shift };
  const k = uns ? c.k >>> 0 : c.k | 0;
  let r: Range;
  switch (op) {
    case 'eq': r = { lo: k, hi: k }; break;
    case 'ne': r = { lo: v.lo === k ? v.lo + 1 : v.lo, hi: v.hi === k ? v.hi - 1 : v.hi }; break;
    case 'lt': case 'ltu': r = { lo: v.lo, hi: Math.min(v.hi, k - 1) }; break;
    case 'le': case 'leu': r = { lo: v.lo, hi: Math.min(v.hi, k) }; break;
    case 'gt': case 'gtu': r = { lo: Math.max(v.lo, k + 1), hi: v.hi }; break;
    case 'ge': case 'geu': r = { lo: Math.max(v.lo, k), hi: v.hi }; break;
  }
  if (r.lo > r.hi) return undefined; // the edge cannot be taken
  return { lo: r.lo + shift, hi: r.hi + shift };
}
