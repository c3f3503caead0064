/**
 * Code addresses the instructions compute, found by constant evaluation over reaching
 * definitions (tracer/dataflow.ts) on a first CFG of each function:
 *
 *   - jump tables: an indirect jump whose target is loaded from `C + index`, C a constant, reads
 *     a table at C (C may be a constant the function stores into a tracked stack slot and loads
 *     back: tracer/slots.ts, the rule by which regeneration carries slots); the table is the run
 *     of relocated code words at C that point into the function, ending before another table of
 *     the function. A table that two jumps share, or a jump whose table is not found, keeps its
 *     target recorded instead (never guessed);
 *   - MIPS %hi/%lo pairs against text (R_MIPS_HI16/LO16 with REL addends: the value is only in
 *     the instructions): the lui that reaches the addiu carrying the %lo, and the full address.
 */
import { within, type Cfg } from './cfg.js';
import { Dataflow, type Site } from './dataflow.js';
import { trackedSlots } from './slots.js';
import { STT_OBJECT } from '../format/elf.js';
import type { Program } from './program.js';
import { R_MIPS_HI16, R_MIPS_LO16 } from './relocs.js';

export interface MipsCodePair {
  lui: number;
  lo: number;
  value: number;
}

export interface Resolution {
  /** ijump address -> table words, or null: record the target. */
  tables: Map<number, { words: number[] } | null>;
  /** MIPS: %lo instruction address -> pair. */
  mipsPairs: Map<number, MipsCodePair>;
  /** MIPS: %lo instructions of code addresses whose value the code does not show (no lone lui + addiu). */
  unpaired?: number[];
  /**
   * Indirect jumps (not resolved as tables) whose target the function computes by arithmetic
   * (`goto *(&&base + offset[i])`): the target may be any instruction (tracer/conservative.ts).
   */
  computedJumps?: number[];
  /** Jump tables whose extent the code does not show, and why (tracer/conservative.ts). */
  unprovable?: string[];
}

const objects = new WeakMap<Program, { lo: number; hi: number }[]>();

/**
 * True when a named data object (an STT_OBJECT symbol) holds `addr`: a table the program itself
 * declared (`static void *ops[] = { &&add, ... }`), which it may read, compare or print, unlike the
 * jump tables gcc emits for a switch (local labels, no symbol).
 */
export function namedObjectAt(prog: Program, addr: number): boolean {
  let l = objects.get(prog);
  if (!l) {
    l = prog.elf.symbols.filter((s) => s.type === STT_OBJECT && s.shndx !== 0).map((s) => ({ lo: s.value >>> 0, hi: (s.value + Math.max(s.size, 1)) >>> 0 }));
    objects.set(prog, l);
  }
  return l.some((o) => addr >= o.lo && addr < o.hi);
}

/**
 * True when resolveFunction reads reaching definitions in this function: it has an indirect jump,
 * or (MIPS) a %lo immediate of a code address. Every other function resolves nothing, and the
 * instrumenter spares it the first pass's dataflow.
 */
export function readsDataflow(prog: Program, cfg: Cfg): boolean {
  const blocks = cfg.blocks;
  for (let i = 0; i < blocks.length; i++) if (blocks[i]!.term === 'ijump') return true;
  // Only a function whose words hold a %lo immediate of a code address may read one.
  if (prog.isa.name !== 'mips' || within(loAddrsOf(prog), () => loAddrsOf(prog), cfg.func).length === 0) return false;
  for (const b of blocks) {
    for (const insn of b.insns) if (prog.codeImmediates.get(insn.addr)?.type === R_MIPS_LO16) return true;
    if (b.ds && prog.codeImmediates.get(b.ds.addr)?.type === R_MIPS_LO16) return true;
  }
  return false;
}

/** Per program: the addresses of its R_MIPS_LO16 code immediates (one list, a function's share found by cfg.ts within). */
const loAddrs = new WeakMap<Program, number[]>();

function loAddrsOf(prog: Program): number[] {
  let l = loAddrs.get(prog);
  if (!l) {
    l = [];
    for (const [addr, ci] of prog.codeImmediates) if (ci.type === R_MIPS_LO16) l.push(addr);
    loAddrs.set(prog, l);
  }
  return l;
}

/** Finds the jump tables and MIPS code-address pairs of a function from its first CFG. */
export function resolveFunction(prog: Program, cfg: Cfg, df: Dataflow, out: Resolution): void {
  const f = cfg.func;
  const isa = prog.isa;
  interface Cand { jump: number; base: number }
  const cands: Cand[] = [];
  const unresolved: number[] = [];
  let slotDf: Dataflow | null | undefined;
  for (const b of cfg.blocks) {
    if (b.term !== 'ijump' || Number.isNaN(df.depthIn[b.id]!)) continue;
    const cti = b.insns[b.insns.length - 1]!;
    const regs = cti.targetRegs ?? [];
    if (regs.length !== 1 || (cti.targetImm ?? 0) !== 0) {
      unresolved.push(cti.addr);
      continue;
    }
    const sAt = df.stateAt(b, b.insns.length - 1);
    const depth = df.sites[df.insnSite[b.id]![b.insns.length - 1]!]!.depth;
    const defs = df.reaching(sAt, isa.canon(regs[0]!, depth));
    const load = defs.length === 1 ? df.sites[defs[0]!]! : undefined;
    const m = load?.insn?.mem;
    if (!load || (load.kind !== 'insn' && load.kind !== 'ds') || !m || m.kind !== 'load' || m.size !== 4) {
      unresolved.push(cti.addr);
      continue;
    }
    let base = tableBase(isa, cfg, df, load);
    if (base === undefined) {
      // The table's address spilled to the frame and reloaded (cc1's emit_code): follow the
      // function's tracked stack slots (tracer/slots.ts).
      slotDf ??= trackedSlots(cfg, isa, df) ?? null;
      const s = slotDf ? slotDf.sites[load.id] : undefined;
      if (slotDf && s) base = tableBase(isa, cfg, slotDf, s);
    }
    if (base === undefined || !prog.codeWords.has(base) || namedObjectAt(prog, base)) {
      unresolved.push(cti.addr);
      continue;
    }
    cands.push({ jump: cti.addr, base });
  }
  const starts = [...new Set(cands.map((c) => c.base))].sort((a, b) => a - b);
  const shared = new Set(starts.filter((s) => cands.filter((c) => c.base === s).length > 1));
  for (const c of cands) {
    if (shared.has(c.base)) {
      out.tables.set(c.jump, null);
      continue;
    }
    const next = starts.find((s) => s > c.base) ?? Infinity;
    const words: number[] = [];
    let leaves: number | undefined;
    for (let w = c.base; w < next; w += 4) {
      const v = prog.codeWords.get(w);
      if (v !== undefined && (v < f.addr || v >= f.end) && prog.funcAt(v)?.addr === v) leaves = w;
      if (v === undefined || v < f.addr || v >= f.end) break;
      words.push(w);
    }
    // The run ends where the words stop pointing into the function: the next function's table
    // (its cases are labels inside it) or other data. A word that is another function's START
    // right after the run is no case label a compiler emits, but a hand-written table's way out
    // (a tail jump): the dispatch may read it, so the run does not show where the table ends
    // (tracer/conservative.ts).
    if (leaves !== undefined) out.unprovable?.push(`the jump table at 0x${c.base.toString(16)} of 0x${c.jump.toString(16)} holds 0x${prog.codeWords.get(leaves)!.toString(16)}, the start of another function, at 0x${leaves.toString(16)}`);
    out.tables.set(c.jump, words.length > 0 ? { words } : null);
  }
  for (const j of unresolved) out.tables.set(j, null);
  for (const b of cfg.blocks) {
    if (b.term !== 'ijump' || Number.isNaN(df.depthIn[b.id]!)) continue;
    const cti = b.insns[b.insns.length - 1]!;
    if (out.tables.get(cti.addr)) continue;
    if (!plainTarget(isa, df, b, cti)) out.computedJumps?.push(cti.addr);
  }

  if (isa.name !== 'mips') return;
  for (const b of cfg.blocks) {
    if (Number.isNaN(df.depthIn[b.id]!)) continue;
    // The body, then the delay slot (index insns.length: the state after the body).
    const n = b.insns.length + (b.ds ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const insn = i < b.insns.length ? b.insns[i]! : b.ds!;
      const ci = prog.codeImmediates.get(insn.addr);
      if (!ci || ci.type !== R_MIPS_LO16) continue;
      // An addiu whose lui (%hi) reaches it alone gives the value; any other form (a load or
      // store at %lo, a lui shared by paths) leaves the address unknown (out.unpaired).
      const c = insn.compute;
      if (!c || c.op !== 'add' || !c.a || !('r' in c.a) || !c.b || !('k' in c.b)) {
        out.unpaired?.push(insn.addr);
        continue;
      }
      const defs = df.reaching(df.stateAt(b, i), c.a.r);
      const lui = defs.length === 1 ? df.sites[defs[0]!]! : undefined;
      const luiInsn = lui?.insn;
      const luiCi = luiInsn ? prog.codeImmediates.get(luiInsn.addr) : undefined;
      if (!lui || (lui.kind !== 'insn' && lui.kind !== 'ds') || !luiInsn || luiInsn.compute?.op !== 'const' || luiCi?.type !== R_MIPS_HI16) {
        out.unpaired?.push(insn.addr);
        continue;
      }
      const value = ((luiInsn.compute.b as { k: number }).k + c.b.k) >>> 0;
      out.mipsPairs.set(insn.addr, { lui: luiInsn.addr, lo: insn.addr, value });
    }
  }
}

/**
 * True when the target of the indirect jump `cti` (the last instruction of block b) is a value the
 * function only moves: loaded whole from memory, received (live on entry, a call's result) or a
 * constant, through register moves — never the result of arithmetic on a code address.
 */
function plainTarget(isa: Program['isa'], df: Dataflow, b: Cfg['blocks'][number], cti: Cfg['blocks'][number]['insns'][number]): boolean {
  const regs = (cti.targetRegs ?? []).filter((r) => r !== 0);
  if (regs.length !== 1) return regs.length === 0;
  // `jmp %g1 + k`: only a constant base makes a plain target.
  const constOnly = (cti.targetImm ?? 0) !== 0;
  const seen = new Set<number>();
  const ok = (state: ReturnType<Dataflow['stateAt']>, reg: number, depth: number, steps: number): boolean => {
    for (const id of df.reaching(state, isa.canon(reg, depth))) {
      if (seen.has(id)) continue;
      seen.add(id);
      const site = df.sites[id]!;
      const d = site.insn;
      const c = d?.compute;
      if (c?.op === 'const') continue;
      if (constOnly) return false;
      if (site.kind === 'entry' || site.kind === 'call') continue;
      if (!d) return false;
      if (d.mem?.kind === 'load' && d.mem.size === 4) continue;
      // A move: add or or with the zero register or 0.
      const zero = (x: { r: number } | { k: number } | undefined): boolean => x !== undefined && ('k' in x ? x.k === 0 : x.r === 0);
      const move = c && (c.op === 'add' || c.op === 'or') && c.a && c.b ? (zero(c.b) ? c.a : zero(c.a) ? c.b : undefined) : undefined;
      if (!move || !('r' in move) || steps > 16) return false;
      const sb = df.cfg.blocks[site.block]!;
      const before = df.stateAt(sb, site.kind === 'ds' ? sb.insns.length : site.index);
      if (!ok(before, move.r, site.depth, steps + 1)) return false;
    }
    return true;
  };
  const depth = df.sites[df.insnSite[b.id]![b.insns.length - 1]!]!.depth;
  return ok(df.stateAt(b, b.insns.length - 1), regs[0]!, depth, 0);
}

/** The constant part C of the address `C + index` a jump's table load reads, over dataflow df. */
function tableBase(isa: Program['isa'], cfg: Cfg, df: Dataflow, load: Site): number | undefined {
  const m = load.insn!.mem!;
  const lb = cfg.blocks[load.block]!;
  const before = df.stateAt(lb, load.kind === 'ds' ? lb.insns.length : load.index);
  const ld = load.depth;
  const cv = (r: number): number | undefined => (r === 0 ? 0 : df.constValue(before, isa.canon(r, ld)));
  let base: number | undefined;
  if (m.index !== undefined) {
    const x = cv(m.base);
    const y = cv(m.index);
    base = x !== undefined && y === undefined ? x : y !== undefined && x === undefined ? y : undefined;
  } else {
    // base register = constant + index (addu / add of two registers).
    const bdefs = df.reaching(before, isa.canon(m.base, ld));
    const bs = bdefs.length === 1 ? df.sites[bdefs[0]!]! : undefined;
    const c = bs?.insn?.compute;
    if (bs && (bs.kind === 'insn' || bs.kind === 'ds') && c?.op === 'add' && c.a && c.b && 'r' in c.a && 'r' in c.b) {
      const bb = cfg.blocks[bs.block]!;
      const st = df.stateAt(bb, bs.kind === 'ds' ? bb.insns.length : bs.index);
      const x = c.a.r === 0 ? 0 : df.constValue(st, isa.canon(c.a.r, bs.depth));
      const y = c.b.r === 0 ? 0 : df.constValue(st, isa.canon(c.b.r, bs.depth));
      base = x !== undefined && y === undefined ? x : y !== undefined && x === undefined ? y : undefined;
    }
    if (base !== undefined) base = (base + m.offset) >>> 0;
  }
  return base;
}
