/**
 * The instrumenter (`emu instrument`, and the library call `emu run --trace` uses): executable in,
 * instrumented executable and schema out.
 *
 *   load + validate (program.ts) → first CFGs and reaching definitions → jump tables and code
 *   addresses formed in code (switches.ts) → final CFGs (cfg.ts) → slices (slice.ts) → weights
 *   and witness placement (weight.ts, placement.ts), checked → rewriting (rewrite.ts) → the new
 *   ELF (format/elf_write.ts) and the schema (format/schema.ts).
 */
import { PF_R, PF_X, PT_LOAD, SHF_ALLOC, SHF_EXECINSTR, SHT_PROGBITS } from '../format/elf.js';
import { frequencies, noReturnCallees } from './frequency.js';
import { predicateSavings } from './pred_cost.js';
import { buildCfg, externalEntries, isPredicate, sameEntriesWithin, type Cfg } from './cfg.js';
import { Dataflow } from './dataflow.js';
import { computeDecisions, decidablePredicates, decidedPredicates, type Decision } from './decide.js';
import { imageOf, writeElf } from '../format/elf_write.js';
import { placeWitnesses, checkTracing, placementInput } from './placement.js';
import { knownLoops, loopWritesNothing } from './known.js';
import { InstrumentError, loadProgram, type Program } from './program.js';
import { XLAT_BASE } from './sequences.js';
import { NEW_TEXT_BASE, rewrite, type FuncLayout, type FuncPlan, type RewriteResult } from './rewrite.js';
import {
  sha256, SCHEMA_FORMAT, SCHEMA_VERSION, type Item, type SBlock, type SCompute, type SEdge, type SFunction, type SInsn, type Schema,
} from '../format/schema.js';
import { addressMap } from './asm.js';
import { conservativeCfg, conservativeRecords, type PlanSlice } from './conservative.js';
import { depthAfterDs, knownWithoutRecords, sliceFunction, type RecordItem, type SliceResult } from './slice.js';
import { interprocedural } from './interproc.js';
import { reachedFunctions } from './reached.js';
import { readsDataflow, resolveFunction, type Resolution } from './switches.js';
import { readOnlySections, roImage, roValue, type RoSection } from './rodata.js';
import type { Decoded } from './isa.js';

export interface InstrumentOptions {
  /** Regeneration carries the stack pointer across calls (default); false records it as qpt did. */
  carrySp?: boolean;
  /**
   * Known loops (tracer/known.ts): the data-dependent loops of the C library's string functions
   * traced by their stopping values. Off by default: on the project's workloads, whose calls are
   * mostly on short strings, they cost more bytes than the witnesses they replace (docs/tracer.md
   * 'Known functions').
   */
  knownLoops?: boolean;
}

export interface InstrumentResult {
  elf: Uint8Array;
  schema: Schema;
  /** What defined the value of each record item of the schema (statistics). */
  recordWhy: Map<Item, RecordItem['why']>;
  /** Load records from the stack: own escaped frame, own frame, caller's frame (statistics). */
  recordFrame: Map<Item, NonNullable<RecordItem['frame']>>;
  /** Per function index: the predicate blocks regeneration decides (MIPS) or could decide (SPARC; tracer/decide.ts; statistics). */
  decidable: Map<number, Set<number>>;
  /** The `g` steps that record known loops' stopping values (tracer/known.ts), with their new-text addresses [start, end) (statistics, tests). */
  knownRecords: Map<Item, [number, number]>;
  /** Function indexes (schema.functions) that never run (tracer/reached.ts; statistics, tests). */
  unreached: Set<number>;
}

/** An analysis failed on one function: it is instrumented again in conservative mode. */
class FuncError extends Error {
  constructor(readonly fi: number, message: string) {
    super(message);
  }
}

/** Runs one function's step; its failure names the function (FuncError). */
function inFunc<T>(prog: Program, fi: number, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof FuncError || e instanceof InstrumentError) throw e;
    const f = prog.funcs[fi]!;
    const m = (e as Error).message;
    throw new FuncError(fi, m.startsWith(`${f.name}`) ? m : `${f.name}: ${m}`);
  }
}

/**
 * Instruments an executable; `file` names it in errors. Throws InstrumentError only for an
 * executable that is malformed or not static (tracer/program.ts): a function the analysis does
 * not understand is instrumented in conservative mode (tracer/conservative.ts; the schema's
 * functions name it and why).
 */
export function instrument(bytes: Uint8Array, file: string, opts: InstrumentOptions = {}): InstrumentResult {
  const carrySp = opts.carrySp ?? true;
  const prog = loadProgram(bytes, file);
  try {
    const cons = conservativeTriggers(prog);
    for (;;) {
      try {
        return instrumentWith(prog, bytes, carrySp, cons, opts.knownLoops ?? false);
      } catch (e) {
        // A failure in one function: that function in conservative mode, everything again.
        if (e instanceof FuncError && !cons.has(e.fi)) {
          cons.set(e.fi, e.message);
          continue;
        }
        throw e instanceof FuncError ? new Error(e.message) : e;
      }
    }
  } catch (e) {
    if (e instanceof InstrumentError) throw e;
    const err = new InstrumentError(file, (e as Error).message);
    err.cause = e;
    throw err;
  }
}

/** The functions conservative mode is for from the start, and why (tracer/conservative.ts). */
function conservativeTriggers(prog: Program): Map<number, string> {
  const cons = new Map<number, string>();
  const hex = (a: number): string => `0x${(a >>> 0).toString(16)}`;
  for (const f of prog.funcs) {
    if (f.anonymous) cons.set(f.index, 'code reached only through pointers (no symbol)');
    else if (!f.sized) cons.set(f.index, 'no function type and size in the symbol table (hand-written code)');
  }
  for (const u of prog.unknownRelocs) {
    const at = u.inCode ? prog.funcAt(u.at) : undefined;
    if (at && !cons.has(at.index)) cons.set(at.index, `relocation ${u.name} at ${hex(u.at)} in its code`);
    const to = u.target !== undefined ? prog.funcAt(u.target) : undefined;
    if (to && to.addr !== u.target && !cons.has(to.index)) cons.set(to.index, `entered at ${hex(u.target!)} through relocation ${u.name} at ${hex(u.at)}`);
  }
  return cons;
}

/**
 * A function that forms the address of one of its own labels in code (`&&label`, not its entry)
 * and jumps through a register other than a resolved table: the label's value may reach the jump
 * through memory after arithmetic the dataflow does not follow (at -O0, `&&lab0 + b[x]` goes
 * through a stack slot, and the label differences in b are assembled without relocations), so
 * the jump may land on any instruction (gcc.c-torture pr70460).
 */
function ownLabelJump(prog: Program, f: Program['funcs'][number], cfg: Cfg, res: Resolution): { jump: number; label: number; at: number } | undefined {
  const jb = cfg.blocks.find((b) => b.term === 'ijump' && !res.tables.get(b.insns[b.insns.length - 1]!.addr));
  if (!jb) return undefined;
  const jump = jb.insns[jb.insns.length - 1]!.addr;
  const mine = (a: number): boolean => a >= f.addr && a < f.end;
  const label = (a: number): boolean => a > f.addr && a < f.end;
  for (const [lo, p] of res.mipsPairs) if (mine(lo) && label(p.value)) return { jump, label: p.value, at: lo };
  for (const ci of prog.codeImmediates.values()) {
    if (mine(ci.addr) && ci.target !== undefined && label(ci.target)) return { jump, label: ci.target, at: ci.addr };
  }
  return undefined;
}

function instrumentWith(prog: Program, bytes: Uint8Array, carrySp: boolean, cons: Map<number, string>, knownOn: boolean): InstrumentResult {
  const isa = prog.isa;
  const hex = (a: number): string => `0x${(a >>> 0).toString(16)}`;
  // First pass: what the code computes of code addresses.
  const ext1 = externalEntries(prog);
  const res: Resolution = { tables: new Map(), mipsPairs: new Map(), computedJumps: [], unprovable: [] };
  const firstCfgs: (Cfg | undefined)[] = [];
  for (const f of prog.funcs) {
    try {
      const cfg = buildCfg({ prog, externalEntries: ext1 }, f);
      firstCfgs[f.index] = cfg;
      const before = [res.computedJumps!.length, res.unprovable!.length];
      if (readsDataflow(prog, cfg)) resolveFunction(prog, cfg, new Dataflow(cfg, isa, { carried: [], callPreserved: isa.callPreserves }), res);
      const cj = res.computedJumps![before[0]!];
      const up = res.unprovable![before[1]!];
      if (cj !== undefined && !cons.has(f.index)) cons.set(f.index, `jump to an address computed at ${hex(cj)}`);
      if (up !== undefined && !cons.has(f.index)) cons.set(f.index, up);
      const lv = cons.has(f.index) ? undefined : ownLabelJump(prog, f, cfg, res);
      if (lv) cons.set(f.index, `jump through a register at ${hex(lv.jump)} in a function that forms the address of its label ${hex(lv.label)} at ${hex(lv.at)}`);
    } catch (e) {
      if (!cons.has(f.index)) cons.set(f.index, (e as Error).message.replace(`${prog.file}: `, ''));
    }
  }
  for (const fi of cons.keys()) {
    // A conservative function resolves no table: its jumps are recorded, its tables' words
    // keep their original values.
    const f = prog.funcs[fi]!;
    for (const j of [...res.tables.keys()]) if (j >= f.addr && j < f.end) res.tables.set(j, null);
  }
  const tableWords = new Set<number>();
  for (const t of res.tables.values()) for (const w of t?.words ?? []) tableWords.add(w);
  const codeValues = [...res.mipsPairs.values()].map((p) => p.value);
  for (const ci of prog.codeImmediates.values()) {
    if (ci.target !== undefined && prog.inText(ci.target) && !prog.dataInText.has(ci.target)) codeValues.push(ci.target);
  }
  const ext2 = externalEntries(prog, { tableWords, codeValues });
  const normal = (fi: number): boolean => !cons.has(fi);

  // Second pass: final graphs, slices (interprocedural: arguments every caller knows), witnesses.
  // A function without indirect jumps whose entries the resolution did not change keeps its first graph.
  const cfgs = prog.funcs.map((f, i) => inFunc(prog, i, () => {
    if (!normal(i)) return conservativeCfg(prog, f, ext2);
    const first = firstCfgs[i];
    if (first && !first.blocks.some((b) => b.term === 'ijump') && sameEntriesWithin(ext1, ext2, f)) return first;
    return buildCfg({ prog, externalEntries: ext2, tables: res.tables }, f);
  }));
  // The cut's block frequencies: static branch prediction (tracer/frequency.ts); the witness
  // placement keeps the Ball–Larus weighting.
  const noReturn = noReturnCallees(prog, cfgs);
  const freqs = cfgs.map((cfg, i) => (normal(i) ? inFunc(prog, i, () => frequencies(prog, cfg, noReturn)) : undefined));
  // Loads proven to read the read-only image are computed, not recorded (tracer/rodata.ts).
  const roSections = readOnlySections(prog.elf);
  const keeps = callKeeps(prog, cfgs);
  // Calls of functions that never return, by the strict rule: their definitions reach nothing that runs.
  const never = noReturnCallees(prog, cfgs, { strict: true, conservative: new Set(cons.keys()) });
  const noRet = cfgs.map((cfg) => new Set(cfg.blocks.filter((b) => b.term === 'call' && b.target !== undefined && never.has(b.target)).map((b) => b.id)));
  const sliceAll = (make: (f: Program['funcs'][number], i: number) => SliceResult): (SliceResult | undefined)[] =>
    prog.funcs.map((f, i) => (normal(i) ? inFunc(prog, i, () => make(f, i)) : undefined));
  let slices = sliceAll((f, i) => sliceFunction(cfgs[i]!, isa, f, { carrySp, blockFreq: freqs[i]!.block, roSections, callKeeps: keeps.get(i) ?? new Map(), noReturn: noRet[i]! }));
  const proofs = slices.map((s) => s?.roLoads);
  // What deciding each predicate outside loops would save in witnesses, measured on the
  // placement of the first pass's slices: the later passes' cuts may decide those predicates
  // (tracer/pred_cost.ts, slice.ts predicateRoots), before the call bundles are made, so that
  // the entry records such a decision adds are in the bundles. Not for a function that never
  // runs (tracer/reached.ts): its trace is empty whatever its cut decides.
  const reached = reachedFunctions(prog, cfgs, codeValues);
  const predCosts = prog.funcs.map((_, i) => (normal(i) && reached[i] ? inFunc(prog, i, () => predicateSavings(cfgs[i]!, isa, slices[i]!, freqs[i]!.edge)) : undefined));
  const ip = interprocedural(prog, cfgs, slices, codeValues);
  let bundles = callBundles(prog, cfgs, slices, ip);
  // The second pass's options of a function that takes nothing from other functions (no
  // arguments provided, no roots on its calls or returns, no call bundles, no returned values)
  // and none of whose predicates is priced (predicateSavings lists only the ones whose decision
  // saves something, and a function that never runs is not priced) are the first pass's, and
  // slicing is a function of its options: it keeps its slice.
  const alone = (i: number): boolean => (predCosts[i]?.size ?? 0) === 0 && !ip.provided.has(i) && !ip.edgeRoots.has(i) && !ip.exitRoots.has(i) && !ip.returned.has(i) && !bundles.has(i);
  const again = (same: (i: number) => boolean): (SliceResult | undefined)[] => sliceAll((f, i) => (same(i) ? slices[i]! : sliceFunction(cfgs[i]!, isa, f, {
    carrySp, blockFreq: freqs[i]!.block, roLoads: proofs[i]!, provided: ip.provided.get(i) ?? [], edgeRoots: mergeRoots(ip.edgeRoots.get(i), ip.exitRoots.get(i)),
    callBundles: bundles.get(i) ?? [], returned: ip.returned.get(i) ?? new Map(), callKeeps: keeps.get(i) ?? new Map(), noReturn: noRet[i]!, predCosts: predCosts[i],
    prior: slices[i]!,
  })));
  slices = again(alone);
  // Once more with the bundles of the second pass: a function that now provides its callees'
  // records (textgen's `word` takes strlen's and memcpy's `w`) records them at its own entry,
  // where its callers can provide them in turn (a table entry each caller computes from the
  // read-only image). A function whose bundles did not change keeps its slice: its options are
  // the same, and slicing is a function of them.
  const before = bundles;
  bundles = callBundles(prog, cfgs, slices, ip);
  slices = again((i) => JSON.stringify(bundles.get(i) ?? []) === JSON.stringify(before.get(i) ?? []));
  checkReturned(prog, cfgs, slices, ip);
  const bare = bareCalls(prog, cfgs, slices, bundles);
  // Predicates regeneration decides: their operands' definitions become computed sites.
  const decisions = prog.funcs.map((_, i) => (normal(i) ? inFunc(prog, i, () => decidedPredicates(cfgs[i]!, isa, slices[i]!)) : new Map<number, Decision>()));
  decisions.forEach((d, i) => {
    if (normal(i)) computeDecisions(slices[i]!, d);
  });
  // Known functions: loops traced by their stopping value (tracer/known.ts); their data
  // predicates become decided ones.
  const known = prog.funcs.map((_, i) => (normal(i) && knownOn ? inFunc(prog, i, () => knownLoops(cfgs[i]!, isa, slices[i]!, decisions[i]!)) : undefined));
  known.forEach((k, i) => {
    if (!k) return;
    for (const l of k.loops) {
      for (const [b, d] of l.decisions) decisions[i]!.set(b, d);
      computeDecisions(slices[i]!, l.decisions);
    }
  });
  const plans: FuncPlan[] = [];
  const tables: Map<number, Map<number, number>>[] = [];
  prog.funcs.forEach((f, i) => inFunc(prog, i, () => {
    const cfg = cfgs[i]!;
    let slice: PlanSlice;
    if (normal(i)) {
      const s = slices[i]!;
      slice = s;
      // Only a jump the final graph leaves indirect could resolve to a table now.
      const again: Resolution = { tables: new Map(), mipsPairs: new Map() };
      if (cfg.blocks.some((b) => b.term === 'ijump')) resolveFunction(prog, cfg, s.df, again);
      for (const [j, t] of again.tables) {
        const before = res.tables.get(j);
        if (t && JSON.stringify(t.words) !== JSON.stringify(before?.words)) throw new Error(`the jump table of ${hex(j)} is not the same with the final graph's entries`);
      }
    } else slice = conservativeRecords(prog, cfg, carrySp);
    let input = placementInput(cfg, slice, decisions[i]!.keys(), known[i]?.ahead.keys() ?? []);
    let pl = placeWitnesses(input);
    let kp = known[i];
    if (kp && !kp.loops.every((l) => loopWritesNothing(l, pl.witness, slice as SliceResult))) {
      // The placement or the cut still writes inside a loop: traced without the known loops.
      for (const l of kp.loops) for (const b of l.decisions.keys()) decisions[i]!.delete(b);
      kp = undefined;
      input = placementInput(cfg, slice, decisions[i]!.keys());
      pl = placeWitnesses(input);
    }
    const check = checkTracing(input, pl.witnessed, pl.witness);
    if (check.ambiguous.length || check.unblocked.length || check.undecidable.length) {
      throw new Error(`${f.name}: witness placement does not solve the tracing problem (ambiguous ${check.ambiguous}, unblocked ${check.unblocked}, undecidable ${check.undecidable})`);
    }
    plans.push({ func: f, cfg, slice, witness: pl.witness, wbytes: pl.bytes, bareCalls: bare.get(i) ?? new Set(), ...(kp ? { known: kp } : {}) });
    tables.push(check.tables);
  }));
  const rw = rewrite(prog, plans);
  const elf = buildElf(prog, rw);
  const schema = buildSchema(prog, bytes, elf, rw, plans, tables, decisions, carrySp, roSections);
  for (const [fi, why] of cons) schema.functions[fi]!.conservative = why;
  schema.stats['conservativeFunctions'] = cons.size;
  const unreached = new Set<number>();
  reached.forEach((r, i) => r === 0 && unreached.add(i));
  schema.stats['unreachedFunctions'] = unreached.size;
  schema.stats['knownLoops'] = plans.reduce((n, p) => n + (p.known?.loops.length ?? 0), 0);
  const recordWhy = new Map<Item, RecordItem['why']>();
  const recordFrame = new Map<Item, NonNullable<RecordItem['frame']>>();
  for (const L of rw.funcs) {
    for (const [it, r] of L.why) {
      recordWhy.set(it, r.why);
      if (r.frame) recordFrame.set(it, r.frame);
    }
  }
  const decidable = new Map<number, Set<number>>();
  for (const [pi, p] of plans.entries()) {
    if (!normal(pi)) continue;
    const d = decidablePredicates(p.cfg, isa, p.slice as SliceResult, decisions[pi]!);
    decidable.set(p.func.index, d);
    schema.stats['decidablePredicates']! += d.size;
  }
  const knownRecords = new Map<Item, [number, number]>();
  for (const L of rw.funcs) for (const [it, r] of L.stops) knownRecords.set(it, r);
  return { elf, schema, recordWhy, recordFrame, decidable, knownRecords, unreached };
}

/** True when the slice knows the return register after the delay slot of the return edge e. */
function returnKnown(isa: Program['isa'], cfg: Cfg, s: SliceResult, e: Cfg['edges'][number]): boolean {
  return knownWithoutRecords(s, isa, s.df.stateAfterDs(e), isa.RET, depthAfterDs(s.df, cfg, e));
}

/** The final slices keep every carried return value known at every return (their roots ensure it). */
function checkReturned(prog: Program, cfgs: Cfg[], slices: (SliceResult | undefined)[], rv: ReturnType<typeof interprocedural>): void {
  for (const fi of rv.funcs) {
    for (const id of rv.exitRoots.get(fi)!.keys()) {
      const e = cfgs[fi]!.edges[id]!;
      if (!returnKnown(prog.isa, cfgs[fi]!, slices[fi]!, e)) {
        throw new FuncError(fi, `${prog.funcs[fi]!.name}: its return value is not known at the return 0x${(cfgs[fi]!.blocks[e.from]!.start >>> 0).toString(16)} although its callers take it as known`);
      }
    }
  }
}

/**
 * MIPS: the caller-saved registers each direct call leaves unchanged. A function's writes are the
 * registers its instructions define (a system call: the kernel's too, docs/abi.md) and the writes
 * of every function it calls or jumps into, to a fixed point over the call graph; an indirect
 * call or jump, a jump to no known function, and the setjmp/longjmp functions write everything.
 * gcc's interprocedural register allocation keeps values in caller-saved registers across calls
 * of static functions that do not touch them (sgefa's `main` keeps t3, t6 and t9 across
 * `daxpy`); regeneration does not touch them either (it writes only registers the callee's own
 * instructions define), so the caller's values stay known. Signal handlers run between any two
 * instructions, but the kernel restores every register after them. Not on the SPARC, whose
 * callees write their caller's %o registers through the window they share.
 */
export function callKeeps(prog: Program, cfgs: Cfg[]): Map<number, Map<number, number[]>> {
  const out = new Map<number, Map<number, number[]>>();
  const isa = prog.isa;
  if (isa.name !== 'mips') return out;
  const ALL = isa.callClobbers;
  const jmp = (f: { role?: string }): boolean => f.role === 'setjmp' || f.role === 'longjmp';
  // Only the caller-saved registers matter: a function's writes among them are a bit mask (bit k: ALL[k]).
  const bit = new Map<number, number>();
  ALL.forEach((r, k) => bit.has(r) || bit.set(r, 1 << k));
  const every = ALL.length < 31 ? (1 << ALL.length) - 1 : -1;
  if (every === -1) throw new Error(`callKeeps: ${ALL.length} caller-saved registers do not fit a mask`);
  const own: number[] = [];
  const callees: (number[] | null)[] = [];
  cfgs.forEach((cfg, fi) => {
    let w = 0;
    let to: number[] | null = [];
    const into = (t: number | undefined): void => {
      const g = t === undefined ? undefined : prog.funcAt(t);
      if (!g || jmp(g)) to = null;
      else to?.push(g.index);
    };
    if (jmp(prog.funcs[fi]!)) to = null;
    for (const b of cfg.blocks) {
      const n = b.insns.length;
      for (let k = 0; k <= n; k++) {
        const d = k < n ? b.insns[k]! : b.ds;
        if (!d) continue;
        for (let j = 0; j < d.defs.length; j++) w |= bit.get(d.defs[j]!) ?? 0;
        if (d.syscall) for (let j = 0; j < isa.syscallDefs.length; j++) w |= bit.get(isa.syscallDefs[j]!) ?? 0;
      }
      if (b.term === 'icall' || b.term === 'ijump' || (b.term === 'tail' && b.target === undefined)) to = null;
      else if (b.term === 'call' || b.term === 'tail') into(b.target);
    }
    own.push(w);
    callees.push(to);
  });
  const writes = own.map((w, fi) => (callees[fi] === null ? every : w));
  for (let changed = true; changed;) {
    changed = false;
    for (let fi = 0; fi < writes.length; fi++) {
      const to = callees[fi];
      if (!to) continue;
      let w = writes[fi]!;
      for (let k = 0; k < to.length; k++) w |= writes[to[k]!]!;
      if (w !== writes[fi]) {
        writes[fi] = w;
        changed = true;
      }
    }
  }
  cfgs.forEach((cfg, fi) => {
    for (const b of cfg.blocks) {
      if (b.term !== 'call' || b.target === undefined) continue;
      const g = prog.funcAt(b.target);
      if (!g || jmp(g)) continue;
      const w = writes[g.index]!;
      const kept = ALL.filter((r) => r !== isa.LINK && (w & bit.get(r)!) === 0);
      if (kept.length === 0) continue;
      let m = out.get(fi);
      if (!m) out.set(fi, (m = new Map()));
      m.set(b.id, kept);
    }
  });
  return out;
}

function mergeRoots(a: ReadonlyMap<number, readonly number[]> | undefined, b: ReadonlyMap<number, readonly number[]> | undefined): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const m of [a, b]) for (const [k, v] of m ?? []) out.set(k, [...new Set([...(out.get(k) ?? []), ...v])]);
  return out;
}

type CallBundles = Map<number, { edge: number; regs: number[]; bytes: number }[]>;

/**
 * Per caller, its direct calls of functions that record registers at their root entry (not the
 * kernel-entered functions nor the jmp_buf ones, whose entry regeneration handles itself): the
 * cut of the caller chooses per call whether it provides those registers after the call's delay
 * slot (the call then enters past the records) or the callee records them (tracer/cut.ts Bundle).
 * Registers every caller provides anyway (interprocedural) are not in the bundles.
 */
function callBundles(prog: Program, cfgs: Cfg[], slices: (SliceResult | undefined)[], ip: ReturnType<typeof interprocedural>): CallBundles {
  const out: CallBundles = new Map();
  cfgs.forEach((cfg, fi) => {
    if (!slices[fi]) return;
    for (const b of cfg.blocks) {
      if (b.term !== 'call' || b.target === undefined || b.succ.length !== 1) continue;
      const f = prog.funcAt(b.target);
      if (!f || f.addr !== b.target || f.role !== undefined || !slices[f.index]) continue;
      const have = new Set(ip.provided.get(f.index) ?? []);
      const recs = (slices[f.index]!.entryRecords.get(0) ?? []).filter((r) => !have.has(r.reg) && r.reg !== 0);
      if (recs.length === 0) continue;
      let l = out.get(fi);
      if (!l) out.set(fi, (l = []));
      l.push({ edge: b.succ[0]!.id, regs: recs.map((r) => r.reg), bytes: recs.reduce((n, r) => n + Math.abs(r.width), 0) });
    }
  });
  return out;
}

/**
 * The call blocks, per caller, that enter their callee past its entry records: the caller's cut
 * provides the bundle, and the bundle still holds every register the callee's final slice records
 * at its entry (the callee's own bundles may have added some since the bundles were made; such a
 * call keeps the records: correct, only not cheaper).
 */
function bareCalls(prog: Program, cfgs: Cfg[], slices: (SliceResult | undefined)[], bundles: CallBundles): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  cfgs.forEach((cfg, fi) => {
    if (!slices[fi]) return;
    for (const bd of bundles.get(fi) ?? []) {
      if (!slices[fi]!.providedCalls.has(bd.edge)) continue;
      const b = cfg.blocks[cfg.edges[bd.edge]!.from]!;
      const f = prog.funcAt(b.target!)!;
      const need = (slices[f.index]!.entryRecords.get(0) ?? []).map((r) => r.reg);
      if (!need.every((r) => bd.regs.includes(r))) continue;
      let s = out.get(fi);
      if (!s) out.set(fi, (s = new Set()));
      s.add(b.id);
    }
  });
  return out;
}

function buildElf(prog: Program, rw: RewriteResult): Uint8Array {
  /** The words in the target's byte order: a copy of their bytes when the host's order is the same. */
  const wordBytes = (words: Uint32Array, le: boolean): Uint8Array => {
    const out = new Uint8Array(words.length * 4);
    if (le === (new Uint8Array(new Uint16Array([1]).buffer)[0] === 1)) {
      out.set(new Uint8Array(words.buffer, words.byteOffset, out.length));
      return out;
    }
    const dv = new DataView(out.buffer);
    for (let i = 0; i < words.length; i++) dv.setUint32(i * 4, words[i]!, le);
    return out;
  };
  const img = imageOf(prog.elf);
  // Code addresses in data and jump tables now hold new addresses.
  for (const [addr, v] of rw.patches) {
    const s = img.sections.find((x) => (x.flags & SHF_ALLOC) !== 0 && addr >= x.addr && addr + 4 <= x.addr + x.data.length);
    if (!s) throw new Error(`code address word 0x${addr.toString(16)} is in no section with contents`);
    new DataView(s.data.buffer, s.data.byteOffset, s.data.byteLength).setUint32(addr - s.addr, v, !prog.elf.bigEndian);
  }
  const text = wordBytes(rw.words, !prog.elf.bigEndian);
  img.sections.push({
    name: '.qpt.text', type: SHT_PROGBITS, flags: SHF_ALLOC | SHF_EXECINSTR, addr: rw.base, addralign: 4096, entsize: 0,
    link: 0, info: 0, data: text,
  });
  img.segments.push({ type: PT_LOAD, flags: PF_R | PF_X, align: 0x1000, sections: [img.sections.length] });
  // The translation table of original code addresses (tracer/sequences.ts lookupSeq).
  const xl = wordBytes(rw.xlat.words, !prog.elf.bigEndian);
  img.sections.push({
    name: '.qpt.xlat', type: SHT_PROGBITS, flags: SHF_ALLOC, addr: XLAT_BASE + rw.xlat.lo, addralign: 4096, entsize: 0,
    link: 0, info: 0, data: xl,
  });
  img.segments.push({ type: PT_LOAD, flags: PF_R, align: 0x1000, sections: [img.sections.length] });
  img.entry = rw.prologue.addr;
  // The program headers no longer fit after the ELF header: they follow the sections.
  delete img.phoff;
  return writeElf(img, prog.file);
}

/** `sum`: the address was recorded as one sum into the temporary register `sum` (slice.ts sumInsn). */
function annot(d: Decoded, computed: boolean, comp: Decoded['compute'], sum?: number): SInsn | null {
  // Built property by property in the schema's key order (m, v or c, w, t): JSON keeps it.
  let a: SInsn | null = null;
  const mem = d.mem;
  if (mem) {
    const kind = memKind(mem.kind);
    a = { m: sum !== undefined ? [kind, mem.size, sum, -1, mem.offset] : [kind, mem.size, mem.base, mem.index ?? -1, mem.offset] };
  }
  if (computed && comp) {
    if (comp.op === 'ldro') (a ??= {}).v = roValue(d);
    else (a ??= {}).c = [comp.op, comp.d, srcOf(comp.a), srcOf(comp.b)];
  }
  if (d.window !== 0) (a ??= {}).w = d.window;
  if ((d.cti === 'icall' || d.cti === 'ijump') && d.targetRegs) (a ??= {}).t = [d.targetRegs, d.targetImm ?? 0];
  return a;
}

/** The schema's memory-reference kind (SMem): load 0, store 1, ldstub 2, swap 3. */
function memKind(k: string): number {
  return k === 'load' ? 0 : k === 'store' ? 1 : k === 'ldstub' ? 2 : k === 'swap' ? 3 : -1;
}

function srcOf(s: NonNullable<Decoded['compute']>['a']): SCompute[2] {
  return s === undefined ? null : 'r' in s ? s.r : { k: s.k };
}

function buildSchema(
  prog: Program, orig: Uint8Array, elf: Uint8Array, rw: RewriteResult, plans: FuncPlan[],
  tables: Map<number, Map<number, number>>[], decisions: Map<number, Decision>[], carrySp: boolean,
  roSections: readonly RoSection[],
): Schema {
  const stats: Record<string, number> = {
    functions: 0, blocks: 0, edges: 0, predicates: 0, witnessedEdges: 0, computedInsns: 0,
    recordsEntry: 0, recordsLoad: 0, recordsCall: 0, recordsSyscall: 0, recordsOther: 0, recordsSum: 0, roLoads: 0, tables: 0, recordedIndirect: 0, bareCalls: 0, decidablePredicates: 0, decidedPredicates: 0,
    originalTextBytes: 0, newTextBytes: rw.words.length * 4, sequences: rw.sequences,
  };
  // The original bytes of every range a computed read-only load can read (tracer/rodata.ts).
  const roRanges: [number, number][] = [];
  const TMP = prog.isa.TMP;
  const functions: SFunction[] = [];
  for (let pi = 0; pi < plans.length; pi++) {
    const p = plans[pi]!;
    const L: FuncLayout = rw.funcs[pi]!;
    const { cfg, slice } = p;
    const df = slice.df;
    const table = tables[pi]!;
    const decided = decisions[pi]!;
    stats['functions']!++;
    stats['originalTextBytes']! += p.func.end - p.func.addr;
    const blocks: SBlock[] = [];
    for (let bi = 0; bi < cfg.blocks.length; bi++) {
      const b = cfg.blocks[bi]!;
      const computedInsn = slice.computedInsn[b.id]!;
      const sumInsn = slice.sumInsn[b.id]!;
      // Annotations, and the read-only ranges of the computed loads, in instruction order; the
      // value computed only where regeneration computes it (annot reads it only then).
      const insns: (SInsn | null)[] = [];
      // Most blocks compute nothing and record no sums: no set lookups per instruction then.
      const anyComputed = computedInsn.size > 0;
      const anySum = sumInsn.size > 0;
      for (let i = 0; i < b.insns.length; i++) {
        const d = b.insns[i]!;
        const computed = anyComputed && computedInsn.has(i);
        insns.push(annot(d, computed, computed ? (df ? df.computeOf(d) : d.compute) : undefined, anySum && sumInsn.has(i) ? TMP : undefined));
        if (computed && slice.roLoads.has(d.addr)) roRanges.push(roRange(slice, d));
      }
      const succ: number[] = [];
      for (let k = 0; k < b.succ.length; k++) succ.push(b.succ[k]!.id);
      const sb: SBlock = { addr: b.start, n: b.insns.length, term: b.term, insns, succ, items: L.body[b.id]! };
      if (!Number.isNaN(L.blockAddr[b.id]!)) sb.naddr = L.blockAddr[b.id]!;
      if (b.ds) {
        const computed = slice.computedDs[b.id]!;
        sb.ds = annot(b.ds, computed, computed ? (df ? df.computeOf(b.ds) : b.ds.compute) : undefined, slice.sumDs[b.id] ? TMP : undefined);
      }
      // A call that enters its callee past the entry's records names the new address of the
      // callee's root block (regeneration's code lookup then skips the records).
      const bare = p.bareCalls.has(b.id);
      if (b.target !== undefined) sb.target = bare ? rw.funcs[prog.funcAt(b.target)!.index]!.blockAddr[0]! : b.target;
      if (bare) stats['bareCalls']!++;
      if (b.entry) sb.entry = true;
      const t = table.get(b.id);
      if (t && isPredicate(b)) {
        const wt: Record<string, number> = {};
        t.forEach(setWitness, wt);
        sb.wt = wt;
        stats['predicates']!++;
      }
      const dc = decided.get(b.id);
      if (dc) {
        sb.dc = dc.dc;
        stats['decidedPredicates']!++;
      }
      if (b.term !== 'tail' && b.term !== 'exit') stats['blocks']!++;
      if (b.term === 'table') stats['tables']!++;
      if (b.term === 'ijump') stats['recordedIndirect']!++;
      stats['computedInsns']! += computedInsn.size + (slice.computedDs[b.id] ? 1 : 0);
      if (b.ds && slice.computedDs[b.id] && slice.roLoads.has(b.ds.addr)) roRanges.push(roRange(slice, b.ds));
      slice.bodyRecords[b.id]!.forEach(countRecords, stats);
      blocks.push(sb);
    }
    const edges: SEdge[] = [];
    for (let ei = 0; ei < cfg.edges.length; ei++) {
      const e = cfg.edges[ei]!;
      const se: SEdge = { from: e.from, to: e.to, kind: e.kind, ds: e.ds, items: L.edge[e.id]! };
      const w = p.witness.get(e.id);
      if (w !== undefined) {
        se.witness = w;
        stats['witnessedEdges']!++;
      }
      const a = L.edgeAddr.get(e.id);
      if (a !== undefined) se.naddr = a;
      stats['edges']!++;
      const recs = slice.edgeRecords.get(e.id);
      if (recs !== undefined) countRecords.call(stats, recs);
      edges.push(se);
    }
    const entries: SFunction['entries'] = [];
    L.entry.forEach((items, block) => entries.push({ block, naddr: L.entryAddr.get(block)!, items }));
    slice.entryRecords.forEach(countRecords, stats);
    const sf: SFunction = { name: p.func.name, addr: p.func.addr, end: p.func.end, wbytes: p.wbytes, blocks, edges, entries };
    if (p.func.role) sf.role = p.func.role;
    if (slice.df?.degraded) sf.degraded = true;
    functions.push(sf);
  }
  stats['roLoads'] = roRanges.length;
  // Instructions of the prologue after the system call that maps the buffer (the START marker's point).
  const afterStart = rw.prologue.count - prologueUpToMap(prog, rw);
  return {
    format: SCHEMA_FORMAT, version: SCHEMA_VERSION, arch: prog.arch, isa: prog.isa.name,
    original: { file: prog.file, sha256: sha256(orig), size: orig.length },
    instrumented: { sha256: sha256(elf), size: elf.length },
    options: { carrySp }, byteOrder: prog.isa.bigEndian ? 'big' : 'little', entry: prog.entry,
    prologue: { addr: rw.prologue.addr, count: rw.prologue.count, afterStart },
    newText: { base: rw.base, size: rw.words.length * 4 },
    rodata: roImage(roSections, roRanges),
    functions, addressMap: addressMap(rw.base, rw.origin), stats,
  };
}

function roRange(slice: PlanSlice, d: Decoded): [number, number] {
  const r = slice.roLoads.get(d.addr)!;
  return [r.lo, r.hi + d.mem!.size];
}

/** The statistics key of a record's reason: recordsLoad for 'load'. */
const RECORD_KEYS = new Map<string, string>();

function countRecord(stats: Record<string, number>, why: string): void {
  let k = RECORD_KEYS.get(why);
  if (k === undefined) RECORD_KEYS.set(why, (k = `records${why[0]!.toUpperCase()}${why.slice(1)}`));
  stats[k] = (stats[k] ?? 0) + 1;
}

/** Counts a list of records into `this`, the statistics (a Map.forEach callback). */
function countRecords(this: Record<string, number>, list: readonly { why: string }[]): void {
  for (let i = 0; i < list.length; i++) countRecord(this, list[i]!.why);
}

/** Sets witness value `w`'s out-edge in `this`, a block's wt (a Map.forEach callback). */
function setWitness(this: Record<string, number>, e: number, w: number): void {
  this[String(w)] = e;
}

/** Instructions of the prologue up to and including its system call (trbufmap). */
function prologueUpToMap(prog: Program, rw: RewriteResult): number {
  const start = (rw.prologue.addr - rw.base) / 4;
  for (let i = 0; i < rw.prologue.count; i++) {
    const d = prog.isa.decode(rw.words[start + i]!, rw.prologue.addr + 4 * i);
    if (d.syscall) return i + 1;
  }
  throw new Error('prologue without its trbufmap system call');
}

export { NEW_TEXT_BASE };
