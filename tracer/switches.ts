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
import type { Cfg } from './cfg.js';
import { Dataflow, type Site } from './dataflow.js';
import { trackedSlots } from './slots.js';
import { R_MIPS_HI16, R_MIPS_LO16, InstrumentError, type Program } from './program.js';

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
    if (base === undefined || !prog.codeWords.has(base)) {
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
    for (let w = c.base; w < next; w += 4) {
      const v = prog.codeWords.get(w);
      if (v === undefined || v < f.addr || v >= f.end) break;
      words.push(w);
    }
    out.tables.set(c.jump, words.length > 0 ? { words } : null);
  }
  for (const j of unresolved) out.tables.set(j, null);

  if (isa.name !== 'mips') return;
  for (const b of cfg.blocks) {
    if (Number.isNaN(df.depthIn[b.id]!)) continue;
    const at: [typeof b.insns[number], number][] = b.insns.map((insn, i) => [insn, i]);
    if (b.ds) at.push([b.ds, b.insns.length]);
    for (const [insn, i] of at) {
      const ci = prog.codeImmediates.get(insn.addr);
      if (!ci || ci.type !== R_MIPS_LO16) continue;
      const c = insn.compute;
      if (!c || c.op !== 'add' || !c.a || !('r' in c.a) || !c.b || !('k' in c.b)) {
        throw new InstrumentError(prog.file, `0x${insn.addr.toString(16)}: %lo of a code address on ${insn.name} (only addiu is understood)`);
      }
      const defs = df.reaching(df.stateAt(b, i), c.a.r);
      const lui = defs.length === 1 ? df.sites[defs[0]!]! : undefined;
      const luiInsn = lui?.insn;
      const luiCi = luiInsn ? prog.codeImmediates.get(luiInsn.addr) : undefined;
      if (!lui || (lui.kind !== 'insn' && lui.kind !== 'ds') || !luiInsn || luiInsn.compute?.op !== 'const' || luiCi?.type !== R_MIPS_HI16) {
        throw new InstrumentError(prog.file, `0x${insn.addr.toString(16)}: cannot find the lui (%hi) that pairs with this %lo of a code address`);
      }
      const value = ((luiInsn.compute.b as { k: number }).k + c.b.k) >>> 0;
      out.mipsPairs.set(insn.addr, { lui: luiInsn.addr, lo: insn.addr, value });
    }
  }
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
