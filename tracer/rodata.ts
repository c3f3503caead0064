/**
 * Loads regeneration reads from the original executable instead of the trace (issue 6): a load
 * whose address is PROVEN to lie, whole, inside one read-only section of the original executable
 * (allocated, not writable, with contents, inside a PT_LOAD without PF_W: the kernel maps it
 * read-only and nothing writes it, os/kern_exec.ts) loads the same bytes on every run. Its value
 * is then computed (op `ldro`, schema annotation `v`), never recorded; the schema carries the
 * original bytes of the proven ranges (`rodata`), so a function-pointer table whose instrumented
 * copy was translated still gives the original value, the one the original program's trace needs.
 *
 * The proof is an interval analysis over the reaching definitions of the address's registers
 * (tracer/dataflow.ts): constants (lui/addiu, sethi/or), additions, subtractions, shifts by
 * constants, masks, products of bounded values, narrow loads (a byte is 0..255), joined over
 * every reaching definition. What it does not understand is unbounded: values live on entry,
 * call results, word loads, and any definition on a cycle of the slice (an induction variable),
 * unless a bounded counter walks in lockstep with it (tracer/induction.ts). The bound must keep the whole access (address + size)
 * inside ONE section, whatever objects the section holds. Refusing is always sound: the load is
 * then recorded as before. Regeneration checks every such address against the ranges again
 * (regen/model.ts roLoad) and stops naming the pc and the address if one falls outside.
 */
import { PF_W, PT_LOAD, SHF_ALLOC, SHF_WRITE, SHT_NOBITS, type ElfFile } from '../format/elf.js';
import type { Block, Cfg } from './cfg.js';
import type { Dataflow, Site, State } from './dataflow.js';
import type { Decoded, Isa, MemRef } from './isa.js';
import { evalOp } from './semantics.js';
import { Induction, type Range, type SiteValues } from './induction.js';

export interface RoSection {
  name: string;
  addr: number;
  /** First address after the section. */
  end: number;
  /** The section's bytes in the original file. */
  bytes: Uint8Array;
}

/** Allocated, non-writable sections with contents that lie inside a PT_LOAD without PF_W. */
export function readOnlySections(elf: ElfFile): RoSection[] {
  const ro = elf.programHeaders.filter((p) => p.type === PT_LOAD && (p.flags & PF_W) === 0 && p.filesz === p.memsz);
  const out: RoSection[] = [];
  for (const s of elf.sections) {
    if ((s.flags & SHF_ALLOC) === 0 || (s.flags & SHF_WRITE) !== 0 || s.type === SHT_NOBITS || s.size === 0) continue;
    if (!ro.some((p) => s.addr >= p.vaddr && s.addr + s.size <= p.vaddr + p.filesz)) continue;
    out.push({ name: s.name, addr: s.addr, end: s.addr + s.size, bytes: elf.bytes.subarray(s.offset, s.offset + s.size) });
  }
  return out;
}


const TWO32 = 2 ** 32;

function mk(lo: number, hi: number): Range | undefined {
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi - lo >= TWO32) return undefined;
  return { lo, hi };
}

/** The range as unsigned 32-bit values, when it does not wrap. */
export function unsigned(r: Range | undefined): Range | undefined {
  if (!r) return undefined;
  const k = Math.floor(r.lo / TWO32);
  if (Math.floor(r.hi / TWO32) !== k) return undefined;
  return { lo: r.lo - k * TWO32, hi: r.hi - k * TWO32 };
}

/** The range as signed 32-bit values, when it does not wrap. */
function signed(r: Range | undefined): Range | undefined {
  if (!r) return undefined;
  const u = unsigned({ lo: r.lo + 2 ** 31, hi: r.hi + 2 ** 31 });
  return u && { lo: u.lo - 2 ** 31, hi: u.hi - 2 ** 31 };
}

function hull(a: Range | undefined, b: Range | undefined): Range | undefined {
  if (!a || !b) return undefined;
  // Two representatives of the same residues: bring b next to a before joining.
  const shift = Math.round((a.lo - b.lo) / TWO32) * TWO32;
  return mk(Math.min(a.lo, b.lo + shift), Math.max(a.hi, b.hi + shift));
}

/** The values a load of `mem` can put in its register, from its size alone. */
function loadRange(mem: MemRef): Range | undefined {
  if (mem.size === 1) return mem.signed ? { lo: -128, hi: 127 } : { lo: 0, hi: 255 };
  if (mem.size === 2) return mem.signed ? { lo: -32768, hi: 32767 } : { lo: 0, hi: 65535 };
  return undefined;
}

function bitsRange(r: Range | undefined): number | undefined {
  const u = unsigned(r);
  if (!u) return undefined;
  let b = 0;
  while (b < 32 && u.hi >= 2 ** b) b++;
  return b;
}

type Src = NonNullable<Decoded['compute']>['a'];

/** Interval of an operation's result `d` index `which`, from its sources' intervals. */
function opRange(op: string, which: number, a: Range | undefined, b: Range | undefined, bk: number | undefined): Range | undefined {
  switch (op) {
    case 'const': return bk === undefined ? undefined : { lo: bk | 0, hi: bk | 0 };
    case 'add': case 'save': case 'restore': return a && b ? mk(a.lo + b.lo, a.hi + b.hi) : undefined;
    case 'sub': return a && b ? mk(a.lo - b.hi, a.hi - b.lo) : undefined;
    case 'sll': return a && bk !== undefined ? mk(a.lo * 2 ** (bk & 31), a.hi * 2 ** (bk & 31)) : undefined;
    case 'srl': {
      if (bk === undefined) return undefined;
      const s = bk & 31;
      const u = unsigned(a);
      return u ? { lo: Math.floor(u.lo / 2 ** s), hi: Math.floor(u.hi / 2 ** s) } : { lo: 0, hi: Math.floor((TWO32 - 1) / 2 ** s) };
    }
    case 'sra': {
      if (bk === undefined) return undefined;
      const sg = signed(a);
      return sg ? { lo: Math.floor(sg.lo / 2 ** (bk & 31)), hi: Math.floor(sg.hi / 2 ** (bk & 31)) } : undefined;
    }
    case 'and': {
      // x & m <= m and <= x (unsigned): either side bounds the result.
      const ua = unsigned(a);
      const ub = unsigned(b);
      if (!ua && !ub) return undefined;
      return { lo: 0, hi: Math.min(ua?.hi ?? TWO32 - 1, ub?.hi ?? TWO32 - 1) };
    }
    case 'or': case 'xor': {
      if (op === 'or' && b && b.lo === 0 && b.hi === 0) return a;
      if (op === 'or' && a && a.lo === 0 && a.hi === 0) return b;
      const ba = bitsRange(a);
      const bb = bitsRange(b);
      if (ba === undefined || bb === undefined) return undefined;
      return { lo: 0, hi: 2 ** Math.max(ba, bb) - 1 };
    }
    case 'slt': case 'sltu': return { lo: 0, hi: 1 };
    case 'multu': case 'umul': case 'mult': case 'smul': {
      // Unsigned (or non-negative signed) factors: the product's low and high words.
      const ua = op === 'multu' || op === 'umul' ? unsigned(a) : signed(a);
      const ub = op === 'multu' || op === 'umul' ? unsigned(b) : signed(b);
      if (!ua || !ub || ua.lo < 0 || ub.lo < 0) return undefined;
      const lo = ua.lo * ub.lo;
      const hi = ua.hi * ub.hi;
      if (!Number.isSafeInteger(hi)) return undefined;
      const low = op === 'multu' || op === 'mult' ? which === 1 : which === 0;
      return low ? mk(lo, hi) : { lo: Math.floor(lo / TWO32), hi: Math.floor(hi / TWO32) };
    }
    default: return undefined;
  }
}

/**
 * A value as an affine form k * atom + c of one bounded atom (a range) or a constant (no atom):
 * the compiler multiplies by constants with shifts, additions and subtractions of one value
 * (`(x << 5) - x`), whose intervals alone would lose the correlation. A form only combines values
 * read inside one execution of one block (tracer/rodata.ts RangeAnalysis.at), so one atom is one
 * dynamic value. Undefined: unbounded.
 */
interface Form {
  k: number;
  c: number;
  atom?: { id: number; r: Range };
}

/** RangeAnalysis's memo entry for an unbounded form (one lookup tells it from a key not memoized). */
const UNBOUNDED: Form = { k: NaN, c: NaN };

/** The form of 0 (forms are never changed once made: one serves). */
const ZERO: Form = { k: 0, c: 0 };

/** True when the form is a constant (no atom, or none counted). */
function isConstant(f: Form | undefined): f is Form {
  return f !== undefined && (f.k === 0 || !f.atom);
}

function rangeOf(f: Form | undefined): Range | undefined {
  if (!f) return undefined;
  if (!f.atom || f.k === 0) return mk(f.c, f.c);
  const a = f.k * f.atom.r.lo;
  const b = f.k * f.atom.r.hi;
  return mk(Math.min(a, b) + f.c, Math.max(a, b) + f.c);
}

function atomOf(id: number, r: Range | undefined): Form | undefined {
  if (!r) return undefined;
  return r.lo === r.hi ? { k: 0, c: r.lo } : { k: 1, c: 0, atom: { id, r } };
}

/** a + sign * b, when the result stays one affine form of safe integers. */
function linear(a: Form, b: Form, sign: 1 | -1): Form | undefined {
  if (a.atom && b.atom && a.atom.id !== b.atom.id) return undefined;
  const f: Form = { k: a.k + sign * b.k, c: a.c + sign * b.c };
  const atom = a.atom ?? b.atom;
  if (atom) f.atom = atom;
  return Number.isSafeInteger(f.k) && Number.isSafeInteger(f.c) ? f : undefined;
}

/** Evaluates ranges of canonical registers over a function's reaching definitions. */
export class RangeAnalysis {
  /** Memo key -> form (UNBOUNDED: undefined; null: being evaluated). */
  private readonly memo = new Map<number, Form | null>();
  /** Canonical register -> dense number (in order of first use), for siteAtom and entryAtom. */
  private readonly dense = new Map<number, number>();

  constructor(readonly cfg: Cfg, readonly isa: Isa, readonly df: Dataflow) {}

  private denseOf(r: number): number {
    let d = this.dense.get(r);
    if (d === undefined) this.dense.set(r, (d = this.dense.size));
    return d;
  }

  /**
   * An atom's id: the value site `site` gives canonical register r (siteAtom, >= 0; also the memo's
   * key of the site and register), or the value r has when block b is entered (entryAtom, < 0):
   * distinct small integers for distinct values.
   */
  private siteAtom(site: number, r: number): number {
    return this.denseOf(r) * this.df.sites.length + site;
  }

  private entryAtom(b: number, r: number): number {
    return -1 - (this.denseOf(r) * this.cfg.blocks.length + b);
  }

  /** Range of canonical register r in state s: the join over every reaching definition. */
  reg(s: State, r: number): Range | undefined {
    // The zero register (below 32 a canonical id is the architectural register).
    if (r === 0) return { lo: 0, hi: 0 };
    const defs = this.df.reaching(s, r);
    // No definition: a register regeneration carries (the stack pointer), never bounded.
    if (defs.length === 0) return undefined;
    let out: Range | undefined;
    for (let i = 0; i < defs.length; i++) {
      const x = rangeOf(this.site(this.df.sites[defs[i]!]!, r));
      if (!x) return undefined;
      out = i === 0 ? x : hull(out, x);
      if (!out) return undefined;
    }
    return out;
  }

  /**
   * Canonical register r as read before body instruction i of block b (i = the body's length: by
   * the delay slot). A definition earlier in the block is the only one reaching, and it ran in
   * the same execution of the block: its form is used as is. Otherwise the value is the one r
   * had when the block was entered: one atom per block and register.
   */
  at(b: Block, i: number, r: number): Form | undefined {
    if (r === 0) return ZERO;
    // Dataflow.stateAt hands out the same State for the same point once solved.
    const st = this.df.stateAt(b, i);
    const defs = this.df.reaching(st, r);
    if (defs.length === 1) {
      const s = this.df.sites[defs[0]!]!;
      if (s.kind === 'insn' && s.block === b.id && s.index < i) return this.site(s, r);
    }
    const x = this.reg(st, r);
    return x && atomOf(this.entryAtom(b.id, r), x);
  }

  /** The form of the value site `site` gives canonical register r. */
  site(site: Site, r: number): Form | undefined {
    const key = this.siteAtom(site.id, r);
    const m = this.memo.get(key);
    if (m === null) {
      // On a cycle: an induction variable, not bounded here.
      this.cycled = true;
      return undefined;
    }
    if (m !== undefined) return m === UNBOUNDED ? undefined : m;
    this.memo.set(key, null);
    this.journal?.push(key);
    const v = this.eval(site, r);
    this.memo.set(key, v ?? UNBOUNDED);
    return v;
  }

  /** While alone evaluates: the memo keys it added, and whether a site on a cycle was met. */
  private journal: number[] | undefined;
  private cycled = false;
  /** alone's answers whose evaluation met a site on a cycle (kept here, not in the memo), by memo key. */
  private readonly lone = new Map<number, Form | undefined>();

  /**
   * The form `site` gives canonical register r as the first question of an analysis asked nothing
   * before: a function of the site and the register only, whatever was asked before, for an
   * analysis asked through alone only (siteValues'). Why: what site memoizes can depend on the
   * order of the questions only through a site met again while being evaluated (its form then
   * unbounded, for that evaluation). alone keeps in the memo only evaluations that met none, and
   * takes back what any other added (its answer kept aside, by key). A kept evaluation explored,
   * meeting none on the way, every site it depends on that was not memoized, so what a memoized
   * site's evaluation read is memoized and none of it reaches that site back: evaluated as a
   * first question, or inside another evaluation, a memoized site reads the same forms and meets
   * no site being evaluated (one it reaches would be one it read, memoized, so not being
   * evaluated). An evaluation from this memo thus reads at every memoized site what a first
   * question's evaluation finds there, and answers what a first question answers.
   */
  alone(site: Site, r: number): Form | undefined {
    const s = this.settled(site, r);
    if (s !== null) return s;
    const key = this.siteAtom(site.id, r);
    const kept = this.lone.get(key);
    if (kept !== undefined || this.lone.has(key)) return kept;
    this.journal = [];
    this.cycled = false;
    const f = this.site(site, r);
    const added = this.journal;
    this.journal = undefined;
    if (!this.cycled) return f;
    for (let k = 0; k < added.length; k++) this.memo.delete(added[k]!);
    this.lone.set(key, f);
    return f;
  }

  /**
   * The form `site` gives canonical register r when it is settled: memoized, or not depending on
   * another site's value (shallow). Null: only evaluating it would tell. Reading it changes
   * nothing.
   */
  private settled(site: Site, r: number): Form | undefined | null {
    const key = this.siteAtom(site.id, r);
    const m = this.memo.get(key);
    if (m !== undefined) return m === UNBOUNDED ? undefined : m;
    return this.shallow(site, r);
  }

  /**
   * What eval gives without reading another site: the form of a site that is not an instruction's,
   * of a load, of an operation not understood, or of a constant; null for every other operation
   * (its sources' forms decide).
   */
  private shallow(site: Site, r: number): Form | undefined | null {
    if (site.kind !== 'insn' && site.kind !== 'ds') return undefined;
    const insn = site.insn!;
    const c = this.df.computeOf(insn);
    if (!c || !this.df.computes(site, r) || c.op === 'ldro') {
      // A load (a read-only one included): what its size allows.
      return insn.mem?.kind === 'load' && insn.defs.length === 1 ? atomOf(this.siteAtom(site.id, r), loadRange(insn.mem)) : undefined;
    }
    if (c.extra?.length) return undefined;
    if (c.op === 'const') return c.b && 'k' in c.b ? { k: 0, c: c.b.k | 0 } : undefined;
    return null;
  }

  /** A source operand's form, read before body index pos of b at window depth `depth`. */
  private src(x: Src, b: Block, pos: number, depth: number): Form | undefined {
    if (!x) return ZERO;
    if ('k' in x) return { k: 0, c: x.k };
    return this.at(b, pos, this.isa.canon(x.r, depth));
  }

  private eval(site: Site, r: number): Form | undefined {
    const s = this.shallow(site, r);
    if (s !== null) return s;
    const insn = site.insn!;
    const c = this.df.computeOf(insn)!;
    const b = this.cfg.blocks[site.block]!;
    const pos = site.kind === 'insn' ? site.index : b.insns.length;
    const bk = c.b && 'k' in c.b ? c.b.k : undefined;
    const A = this.src(c.a, b, pos, site.depth);
    const B = this.src(c.b, b, pos, site.depth);
    const dd = site.depth + this.df.win(insn);
    let which = -1;
    for (let k = 0; k < c.d.length; k++) {
      const x = c.d[k]!;
      if (this.isa.canon(x, dd) === r || x === r) {
        which = k;
        break;
      }
    }
    if (isConstant(A) && isConstant(B)) return { k: 0, c: evalOp(c.op, A.c | 0, B.c | 0, 0)[Math.max(which, 0)]! };
    let f: Form | undefined;
    if (A && B && (c.op === 'add' || c.op === 'save' || c.op === 'restore')) f = linear(A, B, 1);
    else if (A && B && c.op === 'sub') f = linear(A, B, -1);
    else if (A && c.op === 'sll' && bk !== undefined) f = linear(ZERO, { k: A.k * 2 ** (bk & 31), c: A.c * 2 ** (bk & 31), ...(A.atom ? { atom: A.atom } : {}) }, 1);
    else if ((c.op === 'or' || c.op === 'xor') && isConstant(B) && B.c === 0) f = A;
    if (f) return f;
    return atomOf(this.siteAtom(site.id, r), opRange(c.op, Math.max(which, 0), rangeOf(A), rangeOf(B), bk));
  }

  /** The range of the address a memory reference at body index i of b (i = length: its delay slot) reads. */
  address(b: Block, i: number, depth: number, m: MemRef): Range | undefined {
    const base = this.at(b, i, this.isa.canon(m.base, depth));
    const idx = m.index !== undefined ? this.at(b, i, this.isa.canon(m.index, depth)) : ZERO;
    if (!base || !idx) return undefined;
    const sum = linear(base, idx, 1);
    const r = sum ? rangeOf(sum) : opRange('add', 0, rangeOf(base), rangeOf(idx), undefined);
    return r && mk(r.lo + m.offset, r.hi + m.offset);
  }
}

/**
 * The constants of sites the lockstep analysis reads (tracer/induction.ts): a range analysis of
 * their own, asked through RangeAnalysis.alone only, so each answer depends on the site and the
 * register alone, and no question of the lockstep analysis changes what the load proofs' range
 * analysis finds.
 */
export function siteValues(cfg: Cfg, isa: Isa, df: Dataflow): SiteValues {
  const ra = new RangeAnalysis(cfg, isa, df);
  return {
    constantOf: (site, r) => {
      const f = ra.alone(site, r);
      return f && (f.k === 0 || !f.atom) ? f.c : undefined;
    },
  };
}

/** What a proven load reads: the section and the addresses its first byte can have. */
export interface RoLoad {
  section: RoSection;
  lo: number;
  hi: number;
}

/** Records the load at `addr` in `out` when every access of `size` bytes from an address in r lies inside one section; true then. */
function prove(out: Map<number, RoLoad>, addr: number, sections: readonly RoSection[], r: Range | undefined, size: number): boolean {
  const u = unsigned(r);
  if (!u) return false;
  for (let k = 0; k < sections.length; k++) {
    const s = sections[k]!;
    if (u.lo >= s.addr && u.hi + size <= s.end) {
      out.set(addr, { section: s, lo: u.lo, hi: u.hi });
      return true;
    }
  }
  return false;
}

/**
 * The loads of a function whose every access lies inside one read-only section, by instruction
 * address. MIPS: not in a delay slot, and the next instruction of the block neither reads nor
 * writes the loaded register (the load delay: regeneration sets the register at the load).
 * Single-register loads of at most 4 bytes only.
 */
export function readOnlyLoads(cfg: Cfg, isa: Isa, df: Dataflow, sections: readonly RoSection[]): Map<number, RoLoad> {
  const out = new Map<number, RoLoad>();
  if (sections.length === 0) return out;
  const ra = new RangeAnalysis(cfg, isa, df);
  const ind = new Induction(cfg, isa, df, siteValues(cfg, isa, df));
  const consider = (b: Block, i: number, insn: Decoded, depth: number, next: Decoded | undefined | null): void => {
    const m = insn.mem;
    if (!m || m.kind !== 'load' || m.size > 4 || insn.defs.length !== 1 || insn.name === 'lwl' || insn.name === 'lwr') return;
    if (isa.name === 'mips') {
      const rt = insn.defs[0]!;
      if (!next || next.uses.includes(rt) || next.defs.includes(rt)) return;
    }
    if (prove(out, insn.addr, sections, ra.address(b, i, depth, m), m.size) || (m.index !== undefined && m.index !== 0)) return;
    // A pointer that walks the table in lockstep with a bounded counter (tracer/induction.ts).
    const p = ind.range(b, i, isa.canon(m.base, depth));
    if (p) prove(out, insn.addr, sections, mk(p.lo + m.offset, p.hi + m.offset), m.size);
  };
  for (const b of cfg.blocks) {
    if (Number.isNaN(df.depthIn[b.id]!)) continue;
    const sites = df.insnSite[b.id]!;
    for (let i = 0; i < b.insns.length; i++) {
      const insn = b.insns[i]!;
      if (insn.mem?.kind === 'load') consider(b, i, insn, df.sites[sites[i]!]!.depth, b.insns[i + 1]);
    }
    if (b.ds && df.dsSite[b.id] !== undefined) consider(b, b.insns.length, b.ds, df.sites[df.dsSite[b.id]!]!.depth, null);
  }
  return out;
}

/** The loaded register and the width of the value (negative: sign-extended) of a proven load. */
export function roValue(insn: Decoded): [number, number] {
  const m = insn.mem!;
  return [insn.defs[0]!, m.signed ? -m.size : m.size];
}

/**
 * The schema's `rodata`: the original bytes of the union of the ranges [start, end) proven loads
 * read, as [address, base64] runs in address order (each run inside one section).
 */
export function roImage(sections: readonly RoSection[], ranges: readonly [number, number][]): [number, string][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const runs: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = runs[runs.length - 1];
    const sec = sections.find((x) => s >= x.addr && e <= x.end);
    if (!sec) throw new Error(`read-only range 0x${s.toString(16)}..0x${e.toString(16)} is in no read-only section`);
    if (last && s <= last[1] && sections.find((x) => last[0] >= x.addr && last[0] < x.end) === sec) last[1] = Math.max(last[1], e);
    else runs.push([s, e]);
  }
  return runs.map(([s, e]) => {
    const sec = sections.find((x) => s >= x.addr && e <= x.end)!;
    return [s, Buffer.from(sec.bytes.subarray(s - sec.addr, e - sec.addr)).toString('base64')];
  });
}
