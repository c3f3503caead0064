/**
 * Program slices for data addresses (mazieres-smith-1994 2.2.4, larus-1990 4.1.1): backward from
 * every register regeneration needs — the base and index of every load and store, the target of
 * every call or jump through a register, the jmp_buf of setjmp/longjmp, and (carry mode) the
 * stack pointer at every call and every exit into another function — through the reaching
 * definitions, classifying each definition:
 *   - easy / difficult: an operation regeneration recomputes (tracer/isa.ts ComputeOp); its own
 *     sources join the slice;
 *   - impossible: anything else (loads, call results, system-call results, link registers,
 *     products regeneration cannot form): its value is recorded in the trace right after the
 *     definition — on the MIPS after the load delay (one instruction later when that instruction
 *     neither reads nor writes the register, else after a nop);
 *   - live on entry: recorded when the function is entered from outside, except the registers
 *     regeneration carries from the caller (the stack pointer, in carry mode).
 */
import type { Cfg, Edge } from './cfg.js';
import { Dataflow, type Site, type State } from './dataflow.js';
import type { Decoded, Isa } from './isa.js';
import type { Func } from './program.js';
import { chooseCut, type Bundle, type PredRoot, type Root, type SumRoot } from './cut.js';
import { predicateOperands } from './predicates.js';
import { findLoops } from './frequency.js';
import { analyzeFrame, trackedSlots, type FrameInfo, type SlotAccess } from './slots.js';
import { readOnlyLoads, type RoLoad, type RoSection } from './rodata.js';
import { basisOptions, sameBasis, sameSlots, type BasisOptions } from './slice_basis.js';

export interface SliceOptions {
  /** Regeneration carries the stack pointer into callees and across calls. */
  carrySp: boolean;
  /** Registers every caller provides at the root entry (interprocedural: not recorded there). */
  provided?: readonly number[];
  /** Do not track stack slots as registers. */
  noSlots?: boolean;
  /** Registers regeneration must know on these edges after the delay slot (calls, tail jumps). */
  edgeRoots?: ReadonlyMap<number, readonly number[]>;
  /**
   * Direct calls whose callee records registers at its entry (architectural, as the callee sees
   * them, and the bytes of those records per call): the cut chooses per call whether the caller
   * provides them (tracer/cut.ts Bundle).
   */
  callBundles?: readonly { edge: number; regs: readonly number[]; bytes: number }[];
  /** Block frequencies for the cut's cost model (tracer/frequency.ts). */
  blockFreq: readonly number[];
  /**
   * Two-way predicates (block id) -> the estimated witness bytes deciding it saves
   * (tracer/pred_cost.ts predicateSavings): the cut may decide each one no loop node covers by
   * making its operands known (predicateRoots).
   */
  predCosts?: ReadonlyMap<number, number>;
  /** The original executable's read-only sections: loads proven to read them are computed (tracer/rodata.ts). */
  roSections?: readonly RoSection[];
  /**
   * The proven loads of an earlier pass over the same CFG (SliceResult.roLoads): the proof only
   * reads definitions inside the function and treats whatever the function receives as
   * unbounded, so registers the callers provide (`provided`) change nothing in it.
   */
  roLoads?: ReadonlyMap<number, RoLoad>;
  /** Direct calls (call block ids) whose callee leaves these registers known at its returns (tracer/dataflow.ts DataflowOptions.returned). */
  returned?: ReadonlyMap<number, readonly number[]>;
  /** Direct calls (call block ids) that leave these caller-saved registers unchanged (tracer/dataflow.ts DataflowOptions.callKeeps). */
  callKeeps?: ReadonlyMap<number, readonly number[]>;
  /** Direct calls (call block ids) of functions that never return (tracer/dataflow.ts DataflowOptions.noReturn; the same in every pass). */
  noReturn?: ReadonlySet<number>;
  /**
   * An earlier slice of the same CFG (the passes of tracer/instrument.ts): when `roLoads` is given
   * and the options its dataflows depend on are the same as these (sameBasis), its dataflows and
   * frame analysis are taken instead of being built again.
   */
  prior?: SliceResult;
}

/** A value record: architectural register, and whether a nop must precede it (MIPS load delay). */
export interface RecordItem {
  reg: number;
  nop: boolean;
  /** Bytes recorded: 1, 2 or 4; negative: sign-extended (lb, lh). */
  width: number;
  /**
   * What defined the value (statistics); `sum`: the address of a register + register reference;
   * `conservative`: recorded before its use by a function in conservative mode (tracer/conservative.ts).
   */
  why: 'load' | 'call' | 'entry' | 'syscall' | 'other' | 'sum' | 'conservative';
  /**
   * An address sum: the two registers (architectural) of the memory reference that follows; the
   * record adds them into the temporary (`reg`, isa.TMP) and records it (tracer/sequences.ts sumSeq).
   */
  sum?: [number, number];
  /**
   * A load from the stack (statistics, bench/tracer_bytes.ts): `escaped` from the function's own
   * frame when an address into it escapes (tracer/slots.ts), `frame` from its own frame that is
   * not escaped (a slot not tracked), `caller` from the caller's frame (offsets >= 0).
   */
  frame?: 'escaped' | 'frame' | 'caller';
}

export interface SliceResult {
  df: Dataflow;
  /** Site ids whose computation regeneration performs. */
  computed: Set<number>;
  /** Per block: records after body instruction i (index -> items, in order; -1: before the first). */
  bodyRecords: ReadonlyMap<number, RecordItem[]>[];
  /** Per edge: records on the edge (after the delay slot and the call). */
  edgeRecords: Map<number, RecordItem[]>;
  /** Per entry block: registers recorded when the function is entered there. */
  entryRecords: Map<number, RecordItem[]>;
  /** Computed-site flags per block body index and per delay slot (for the schema). */
  computedInsn: ReadonlySet<number>[];
  computedDs: boolean[];
  /**
   * Register + register references whose address is recorded as one sum (per block: body indices;
   * and whether the delay slot's is): their annotation reads the address from isa.TMP.
   */
  sumInsn: ReadonlySet<number>[];
  sumDs: boolean[];
  /** Site -> canonical registers recorded after it. */
  recorded: Map<number, Set<number>>;
  /** Registers carried into every entry (architectural). */
  carriedAt: readonly number[];
  /** Call edges (of SliceOptions.callBundles) where the caller provides the callee's entry records. */
  providedCalls: Set<number>;
  /** Loads proven to read a read-only section (tracer/rodata.ts), by instruction address. */
  roLoads: Map<number, RoLoad>;
  /** The dataflows and frame analysis, and what they were built from (SliceOptions.prior). */
  basis: SliceBasis;
}

/**
 * A slice's dataflows (before and after stack-slot tracking: `df0`, `df`), its frame analysis, and
 * `on`, the options they depend on (sameBasis). Only read once built: slices share them.
 */
export interface SliceBasis {
  on: BasisOptions;
  df0: Dataflow;
  frame: FrameInfo;
  df: Dataflow;
}

const MIPS_DELAYED = new Set(['mfc1', 'cfc1']);

/** The record lists of a block without records, and the index set of a block without any: shared, never written. */
const NO_RECORDS: ReadonlyMap<number, RecordItem[]> = new Map();
const NO_INDICES: ReadonlySet<number> = new Set();

/** `set` with index i added: the set itself, or a new one in place of the shared empty set. */
function withIndex(set: ReadonlySet<number>, i: number): ReadonlySet<number> {
  const out = set === NO_INDICES ? new Set<number>() : (set as Set<number>);
  out.add(i);
  return out;
}

/** Marks body instruction `index` of block `block` computed in the slice (tracer/decide.ts computeDecisions). */
export function markComputedInsn(s: SliceResult, block: number, index: number): void {
  s.computedInsn[block] = withIndex(s.computedInsn[block]!, index);
}

function hasLoadDelay(isa: Isa, d: Decoded): boolean {
  return isa.name === 'mips' && ((d.mem !== undefined && d.mem.kind === 'load') || MIPS_DELAYED.has(d.name));
}

function whyOf(d: Decoded | undefined): RecordItem['why'] {
  if (!d) return 'other';
  if (d.mem) return 'load';
  if (d.syscall) return 'syscall';
  return 'other';
}

export function sliceFunction(cfg: Cfg, isa: Isa, func: Func, opts: SliceOptions): SliceResult {
  const kernelEntered = func.role === 'entry' || func.role === 'sigtramp';
  const carried = opts.carrySp && !kernelEntered ? [isa.SP] : [];
  const callPreserved = opts.carrySp ? isa.callPreserves : isa.callPreserves.filter((r) => r !== isa.SP);
  // The proven read-only loads are computed by every dataflow below (the set is filled once the
  // first one has given their addresses' ranges; reaching definitions do not depend on it).
  // What they depend on is known before the dataflows only when the proven loads are given.
  const on = opts.roLoads ? basisOptions(opts, kernelEntered, opts.roLoads) : undefined;
  const prior = opts.prior?.df.cfg === cfg ? opts.prior.basis : undefined;
  let reuse = prior && on && sameBasis(prior.on, on, true) ? prior : undefined;
  if (!reuse && prior && on && sameBasis(prior.on, on, false)) {
    // Only the returned registers of calls differ: the same reaching definitions, frame and slots.
    const df0 = prior.df0.withReturned(opts.returned);
    reuse = { on, df0, frame: prior.frame, df: prior.df === prior.df0 ? df0 : prior.df.withReturned(opts.returned) };
  }
  // Only more registers provided (and other returned ones): the dataflows without solving again
  // (Dataflow.withRootCarried); the frame analysis and the tracked slots are made again on them.
  let derived: Dataflow | undefined;
  let extra: number[] = [];
  if (!reuse && prior && on && !kernelEntered && func.role !== 'entry' && sameBasis(prior.on, on, false, false)) {
    const had = prior.on.provided;
    if (had.every((r) => on.provided.includes(r))) {
      extra = on.provided.filter((r) => !had.includes(r));
      derived = prior.df0.withRootCarried(extra).withReturned(opts.returned);
    }
  }
  const roSet = new Set<number>();
  // The entry point's stack pointer is the START marker's (os/trbuf.ts, regen/process.ts start).
  const rootCarried = func.role === 'entry' && !carried.includes(isa.SP) ? [...(opts.provided ?? []), isa.SP] : opts.provided ?? [];
  const base = { carried, callPreserved, rootCarried, roLoads: roSet, ...(opts.returned ? { returned: opts.returned } : {}), ...(opts.callKeeps ? { callKeeps: opts.callKeeps } : {}), ...(opts.noReturn ? { noReturn: opts.noReturn } : {}) };
  const df0 = reuse?.df0 ?? derived ?? new Dataflow(cfg, isa, base);
  const roLoads = new Map(opts.roLoads ?? readOnlyLoads(cfg, isa, df0, opts.roSections ?? []));
  for (const a of roLoads.keys()) roSet.add(a);
  // The frame analysis reads the sets of the registers that may hold stack addresses only
  // (FrameInfo.live): when the newly provided ones are none of them, the prior one's holds.
  const frame = reuse?.frame ?? (derived && extra.every((r) => !prior!.frame.live.has(isa.canon(r, 0))) ? prior!.frame : analyzeFrame(cfg, isa, df0));
  const frameOf = (insn: Decoded): RecordItem['frame'] => {
    const off = insn.mem?.kind === 'load' ? frame.stackLoads.get(insn.addr) : undefined;
    if (off === undefined) return undefined;
    return off >= 0 ? 'caller' : frame.escaped ? 'escaped' : 'frame';
  };
  const why = (insn: Decoded): Pick<RecordItem, 'why' | 'frame'> => {
    const f = frameOf(insn);
    return f ? { why: whyOf(insn), frame: f } : { why: whyOf(insn) };
  };
  // A tracked slot must be written by the function before every load of it (never live on
  // entry, never clobbered by a call): otherwise it is not tracked (slots.ts trackedSlots).
  // The first dataflow trackedSlots tries is the prior one's (derived) when it tracked these very slots.
  const first = derived && !opts.noSlots && prior!.df !== prior!.df0 && sameSlots(prior!.df.opts.slots, frame.slots)
    ? prior!.df.withRootCarried(extra).withReturned(opts.returned) : undefined;
  // trackedSlots drops slots from the map it is given: the frame keeps its candidates.
  const df = reuse?.df ?? trackedSlots(cfg, isa, df0, opts.noSlots ? new Map<number, SlotAccess>() : new Map(frame.slots), first) ?? df0;
  const basis: SliceBasis = reuse ?? {
    on: on ?? basisOptions(opts, kernelEntered, roLoads), df0, frame, df,
  };
  const computed = new Set<number>();
  const needed = new Set<string>();
  const recorded = new Map<number, Set<number>>(); // site -> canonical regs
  const work: Root[] = [];

  const reachable = (b: number): boolean => !Number.isNaN(df.depthIn[b]!);
  const use = (state: State, archReg: number, depth: number, atCall?: number): void => {
    if (archReg === 0) return;
    work.push({ state, reg: isa.canon(archReg, depth), ...(atCall !== undefined ? { atCall } : {}) });
  };

  // Roots. A register + register reference offers the cut its address sum instead of its two
  // registers: recorded right before the reference (before the transfer, for one in a delay slot
  // whose transfer does not define either register), the values are those the reference uses.
  const sumRoots: SumRoot[] = [];
  const sumPlaces: { block: number; index: number; regs: [number, number] }[] = [];
  const memUse = (st: State, mem: NonNullable<Decoded['mem']>, depth: number, block: number, index: number, sumOk: boolean): void => {
    const x = mem.index;
    if (x !== undefined && x !== 0 && mem.base !== 0 && sumOk) {
      sumRoots.push({ block, roots: [{ state: st, reg: isa.canon(mem.base, depth) }, { state: st, reg: isa.canon(x, depth) }] });
      sumPlaces.push({ block, index, regs: [mem.base, x] });
      return;
    }
    use(st, mem.base, depth);
    if (x !== undefined) use(st, x, depth);
  };
  const blocks = cfg.blocks;
  const edgeRoots = opts.edgeRoots;
  for (let bi = 0; bi < blocks.length; bi++) {
    const b = blocks[bi]!;
    if (!reachable(b.id) || b.insns.length === 0) continue;
    const insns = b.insns;
    const row = df.insnSite[b.id]!;
    for (let i = 0; i < insns.length; i++) {
      const insn = insns[i]!;
      const site = df.sites[row[i]!]!;
      if (insn.mem) memUse(df.stateAt(b, i), insn.mem, site.depth, b.id, i, true);
      if ((insn.cti === 'icall' || (insn.cti === 'ijump' && b.term === 'ijump')) && insn.targetRegs) {
        const st = df.stateAt(b, i);
        for (let k = 0; k < insn.targetRegs.length; k++) use(st, insn.targetRegs[k]!, site.depth);
      }
    }
    if (b.ds?.mem && df.dsSite[b.id] !== undefined) {
      const site = df.sites[df.dsSite[b.id]!]!;
      const cti = b.insns[b.insns.length - 1]!;
      const m = b.ds.mem;
      const sumOk = cti.window === 0 && !cti.defs.includes(m.base) && (m.index === undefined || !cti.defs.includes(m.index));
      memUse(df.stateAt(b, b.insns.length), m, site.depth, b.id, -1, sumOk);
    }
    const succ = b.succ;
    if (edgeRoots !== undefined) {
      for (let k = 0; k < succ.length; k++) {
        const e = succ[k]!;
        const rs = edgeRoots.get(e.id);
        if (rs !== undefined) for (let j = 0; j < rs.length; j++) use(df.stateAfterDs(e), rs[j]!, depthAfterDs(df, cfg, e), b.id);
      }
    }
    if (opts.carrySp) {
      const calls = b.term === 'call' || b.term === 'icall';
      for (let k = 0; k < succ.length; k++) {
        const e = succ[k]!;
        if (!calls && blocks[e.to]!.term !== 'tail') continue;
        use(df.stateAfterDs(e), isa.SP, depthAfterDs(df, cfg, e), b.id);
      }
    }
  }
  if (func.role === 'setjmp' || func.role === 'longjmp') {
    const root = cfg.blocks[0]!;
    use(df.stateAt(root, 0), isa.ARG0, 0);
  }

  // Classification: the slice graph, then where to cut it (tracer/cut.ts), then what is
  // computed and what is recorded.
  const bundles: Bundle[] = [];
  const bundleEdges: number[] = [];
  for (const cb of opts.callBundles ?? []) {
    const e = cfg.edges[cb.edge]!;
    if (!reachable(e.from)) continue;
    const st = df.stateAfterDs(e);
    const d = depthAfterDs(df, cfg, e);
    bundles.push({ block: e.from, bytes: cb.bytes, roots: cb.regs.filter((r) => r !== 0).map((r) => ({ state: st, reg: isa.canon(r, d), atCall: e.from })) });
    bundleEdges.push(cb.edge);
  }
  const cut = chooseCut(cfg, isa, df, work, bundles, sumRoots, opts.blockFreq, predicateRoots(cfg, isa, df, opts.blockFreq, opts.predCosts));
  const providedCalls = new Set([...cut.provided].map((i) => bundleEdges[i]!));
  cut.computed.forEach((id) => computed.add(id));
  cut.recorded.forEach((regs, id) => recorded.set(id, new Set(regs.keys())));
  void needed;

  // Record positions.
  // Blocks without records (most of them) share one empty map.
  const bodyRecords: ReadonlyMap<number, RecordItem[]>[] = new Array(cfg.blocks.length).fill(NO_RECORDS);
  const recordsAt = (b: number, at: number): RecordItem[] => {
    let m = bodyRecords[b] as Map<number, RecordItem[]>;
    if (m === NO_RECORDS) bodyRecords[b] = m = new Map();
    let l = m.get(at);
    if (!l) m.set(at, (l = []));
    return l;
  };
  const edgeRecords = new Map<number, RecordItem[]>();
  const entryRecords = new Map<number, RecordItem[]>();
  const addEdgeRecord = (e: Edge, item: RecordItem): void => {
    let l = edgeRecords.get(e.id);
    if (!l) edgeRecords.set(e.id, (l = []));
    l.push(item);
  };
  const sitesInOrder = [...recorded.keys()].sort((a, b) => a - b);
  for (const id of sitesInOrder) {
    const site = df.sites[id]!;
    const regs = [...recorded.get(id)!].sort((a, b) => a - b);
    const b = cfg.blocks[site.block]!;
    if (site.kind === 'entry') {
      const items = regs.map((r): RecordItem => ({ reg: archAt(isa, r, df.depthIn[b.id]!), nop: false, width: cut.width(id, r), why: 'entry' }));
      entryRecords.set(b.id, [...(entryRecords.get(b.id) ?? []), ...items]);
      continue;
    }
    if (site.kind === 'call') {
      for (const e of b.succ) {
        if (e.kind !== 'return') continue;
        for (const r of regs) addEdgeRecord(e, { reg: archAt(isa, r, site.depth), nop: isa.name === 'mips', width: cut.width(id, r), why: 'call' });
      }
      continue;
    }
    const insn = site.insn!;
    const after = site.depth + df.win(insn);
    if (site.kind === 'ds' || insn.cti !== 'none') {
      // Defined by a transfer or its delay slot: recorded on the out-edges after the slot.
      for (const e of b.succ) {
        if (site.kind === 'ds' && !e.ds) continue;
        const dd = site.kind === 'ds' ? after : depthAfterDs(df, cfg, e);
        for (const r of regs) addEdgeRecord(e, { reg: archAt(isa, r, dd), nop: site.kind === 'ds' && hasLoadDelay(isa, insn), width: cut.width(id, r), ...why(insn) });
      }
      continue;
    }
    const i = site.index;
    for (const r of regs) {
      const reg = archAt(isa, r, after);
      let at = i;
      let nop = false;
      if (hasLoadDelay(isa, insn)) {
        const next = b.insns[i + 1];
        if (next && next.cti === 'none' && !next.uses.includes(reg) && !next.defs.includes(reg)) at = i + 1;
        else nop = true;
      }
      recordsAt(b.id, at).push({ reg, nop, width: cut.width(id, r), ...why(insn) });
    }
  }
  // Address sums, after the records of the instruction before the reference (or its transfer).
  const sumInsn: ReadonlySet<number>[] = new Array(cfg.blocks.length).fill(NO_INDICES);
  const sumDs = cfg.blocks.map(() => false);
  for (const k of [...cut.sums].sort((a, b) => a - b)) {
    const sp = sumPlaces[k]!;
    const b = cfg.blocks[sp.block]!;
    const at = sp.index >= 0 ? sp.index - 1 : b.insns.length - 2;
    if (sp.index >= 0) sumInsn[b.id] = withIndex(sumInsn[b.id]!, sp.index);
    else sumDs[b.id] = true;
    recordsAt(b.id, at).push({ reg: isa.TMP, nop: false, width: 4, why: 'sum', sum: sp.regs });
  }
  // A MIPS record of a value a delayed instruction defined right before the edge code needs the
  // nop only once, at the head of the edge's records.
  const headOnly = (l: RecordItem[]): void => {
    for (let k = 1; k < l.length; k++) l[k]!.nop = false;
  };
  edgeRecords.forEach(headOnly);
  for (let bi = 0; bi < bodyRecords.length; bi++) if (bodyRecords[bi] !== NO_RECORDS) bodyRecords[bi]!.forEach(headOnly);

  const computedInsn: ReadonlySet<number>[] = new Array(cfg.blocks.length).fill(NO_INDICES);
  const computedDs = cfg.blocks.map(() => false);
  computed.forEach((id) => {
    const s = df.sites[id]!;
    if (s.kind === 'insn') computedInsn[s.block] = withIndex(computedInsn[s.block]!, s.index);
    else if (s.kind === 'ds') computedDs[s.block] = true;
  });
  return { df, computed, bodyRecords, edgeRecords, entryRecords, computedInsn, computedDs, sumInsn, sumDs, recorded, carriedAt: carried, providedCalls, roLoads, basis };
}

/**
 * The predicates the cut may decide (tracer/cut.ts PredRoot), loop by loop: the two-way branches
 * of the forms tracer/decide.ts decides whose innermost loop is the same, one node for all of
 * them (a loop's cycle needs a witness per iteration while any of its branches is undecided:
 * deciding some of them saves nothing). Offered only when every branch of the loop's own blocks
 * has such a form and every definition its operands need inside the loop is computable: counted
 * loops, whose bounds and counters come from outside the loop, once per entry. A predicate on a
 * value loaded or returned in the loop (strlen, strncmp) would trade a witness for a record of the
 * same frequency at best. Cost: a witness byte (tracer/placement.ts: 1 byte up to 256 witnessed
 * edges) at the loop header's estimated frequency (one per iteration), a hair under a 1-byte
 * record at the same frequency, so that a tie keeps the witness. Besides, one node per predicate
 * that `predCosts` prices (tracer/pred_cost.ts: the estimated witness bytes its decision saves on
 * the placement) and whose innermost loop, if any, has no loop node, at 0.999 × that price.
 */
function predicateRoots(cfg: Cfg, isa: Isa, df: Dataflow, freq: readonly number[], predCosts: ReadonlyMap<number, number> | undefined): PredRoot[] {
  const loops = findLoops(cfg);
  const byBlock = new Map(predicateOperands(cfg, isa, df).map((p) => [p.block, p]));
  const out: PredRoot[] = [];
  const covered = new Set<number>();
  const blocks = cfg.blocks;
  loops.loops.forEach((loop, h) => {
    const roots: Root[] = [];
    let ok = true;
    for (let bi = 0; bi < blocks.length; bi++) {
      const b = blocks[bi]!;
      if (loops.inner[b.id] !== h || Number.isNaN(df.depthIn[b.id]!) || b.succ.length < 2) continue;
      const p = byBlock.get(b.id);
      if (!p || !invariantInputs(df, p.state, p.regs, loop)) {
        ok = false;
        break;
      }
      for (let k = 0; k < p.regs.length; k++) roots.push({ state: p.state, reg: p.regs[k]! });
    }
    if (ok && roots.length > 0) {
      out.push({ roots, cost: 0.999 * (freq[h] ?? 1) });
      covered.add(h);
    }
  });
  // The predicates no loop node covers that predCosts prices, one node each: deciding one saves
  // what the placement would stop writing for it (tracer/pred_cost.ts), priced a hair under it.
  predCosts?.forEach((saved, block) => {
    const p = byBlock.get(block);
    const h = loops.inner[block]!;
    if (!p || (h !== -1 && covered.has(h)) || saved <= 0) return;
    out.push({ roots: p.regs.map((reg) => ({ state: p.state, reg })), cost: 0.999 * saved });
  });
  return out;
}

/** True when every definition the registers need inside `loop` is computable (an operation of
 * values that are themselves computable in the loop or defined outside it): what decides them is
 * recorded outside the loop, at most once per entry. */
export function invariantInputs(df: Dataflow, state: State, regs: readonly number[], loop: ReadonlySet<number>): boolean {
  const walk = startWalk(df);
  const states: State[] = [];
  const work: number[] = [];
  for (let i = 0; i < regs.length; i++) {
    states.push(state);
    work.push(regs[i]!);
  }
  while (work.length > 0) {
    const st = states.pop()!;
    const r = work.pop()!;
    const ids = df.reaching(st, r);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (!firstVisit(walk, id, r)) continue;
      const site = df.sites[id]!;
      if (!loop.has(site.block) || df.knows(site, r)) continue;
      if (!df.computes(site, r)) return false;
      const o = df.operands(site);
      for (let k = 0; k < o.regs.length; k++) {
        states.push(o.state);
        work.push(o.regs[k]!);
      }
    }
  }
  return true;
}

/**
 * True when regeneration would know register `reg` (architectural, at window depth `depth`) in
 * state `state` of a sliced function without recording anything new: every definition reaching it
 * is computed from values the slice already computes or records, or from carried registers.
 * `collect` (when given) receives the ids of the sites regeneration must compute for it (they are
 * complete only when the answer is true).
 */
export function knownWithoutRecords(s: SliceResult, isa: Isa, state: State, reg: number, depth: number, collect?: Set<number>): boolean {
  return walkDefinitions(s, state, isa.canon(reg, depth), undefined, collect);
}

/** knownWithoutRecords of canonical register `reg`, without the sites; `memo`: what earlier walks in the same slice settled. */
export function knownCanonWithoutRecords(s: SliceResult, state: State, reg: number, memo?: KnownMemo): boolean {
  return walkDefinitions(s, state, reg, undefined, undefined, memo);
}

/**
 * Definitions of one slice (by site id, then canonical register) knownCanonWithoutRecords' walks
 * have settled: 1, every definition the walk from it reaches is recorded, known or computed from such
 * (a walk went through it and ended true); 2, it is none of these (a walk ended false there).
 */
export type KnownMemo = (Map<number, 1 | 2> | undefined)[];

function remember(memo: KnownMemo, id: number, r: number, v: 1 | 2): void {
  let m = memo[id];
  if (!m) memo[id] = m = new Map();
  m.set(r, v);
}

/**
 * walkDefinitions' scratch: the work list (states and canonical registers, up to a top index
 * the walk keeps: shrinking an array with pop or a length of 0 gives its storage back, which the
 * next walk allocates again) and the definitions gone through (`through`, likewise).
 */
const walkStates: State[] = [];
const walkWork: number[] = [];
const walkThrough: number[] = [];

/**
 * The walk of knownWithoutRecords and entryDependence: from canonical register `reg` in `state`,
 * every reaching definition the slice neither records (outside a delay slot) nor knows goes to
 * `leaf` first, which settles it (true), fails the walk (false) or leaves it (undefined); a
 * definition left must be one regeneration computes, whose operands are walked in turn (its id
 * to `collect`). False when some definition is neither.
 */
function walkDefinitions(
  s: SliceResult, state: State, reg: number,
  leaf: ((site: Site, r: number) => boolean | undefined) | undefined, collect?: Set<number>, memo?: KnownMemo,
): boolean {
  const df = s.df;
  // Scratch kept across walks (no walk starts inside another: `leaf` and `collect` do not walk).
  const walk = startWalk(df);
  // The work list: states and canonical registers, last in first out.
  const states = walkStates;
  const work = walkWork;
  states[0] = state;
  work[0] = reg;
  let top = 1;
  // The computed definitions this walk went through (site id, register), settled as 1 when it ends true.
  const through = walkThrough;
  let nThrough = 0;
  while (top > 0) {
    top--;
    const st = states[top]!;
    const r = work[top]!;
    // The zero register (a canonical id below 32 is the architectural register on both ISAs).
    if (r === 0) continue;
    const ids = df.reaching(st, r);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (memo) {
        const k = memo[id]?.get(r);
        if (k === 1) continue;
        if (k === 2) return false;
      }
      if (!firstVisit(walk, id, r)) continue;
      const site = df.sites[id]!;
      // A delay-slot value is recorded after the slot: too late at the call itself.
      if ((s.recorded.get(id)?.has(r) && site.kind !== 'ds') || df.knows(site, r)) continue;
      const settled = leaf?.(site, r);
      if (settled === true) continue;
      if (settled === false || !df.computes(site, r)) {
        if (memo) remember(memo, id, r, 2);
        return false;
      }
      collect?.add(id);
      if (memo) {
        through[nThrough++] = id;
        through[nThrough++] = r;
      }
      const o = df.operands(site);
      for (let k = 0; k < o.regs.length; k++) {
        states[top] = o.state;
        work[top++] = o.regs[k]!;
      }
    }
  }
  if (memo) for (let i = 0; i < nThrough; i += 2) remember(memo, through[i]!, through[i + 1]!, 1);
  return true;
}

/**
 * The visit marks of the walks over one dataflow (invariantInputs, walkDefinitions): per canonical
 * register, per site id, the number of the last walk that visited that definition (walks never
 * nest; a walk's number is above every earlier one's, so marks need no clearing).
 */
let visitMarks = new WeakMap<Dataflow, Map<number, Int32Array>>();
let walkSerial = 0;

/** A walk's visit marks (visitMarks' of its dataflow), its number and its dataflow's site count. */
interface Walk {
  marks: Map<number, Int32Array>;
  serial: number;
  sites: number;
}

/** A new walk over `df` (the marks start afresh before the numbers leave an Int32Array's range). */
function startWalk(df: Dataflow): Walk {
  if (walkSerial === 0x7fffffff) {
    visitMarks = new WeakMap();
    walkSerial = 0;
  }
  let marks = visitMarks.get(df);
  if (!marks) visitMarks.set(df, (marks = new Map()));
  return { marks, serial: ++walkSerial, sites: df.sites.length };
}

/** Marks definition (site id, canonical register r) visited by `walk`; false when it was. */
function firstVisit(walk: Walk, id: number, r: number): boolean {
  let a = walk.marks.get(r);
  if (a === undefined) walk.marks.set(r, (a = new Int32Array(walk.sites)));
  if (a[id] === walk.serial) return false;
  a[id] = walk.serial;
  return true;
}

/** What a value needs beyond the slice's computations and records (entryDependence). */
export interface EntryDependence {
  /** Registers live at the function's start (architectural, in its entry window). */
  regs: Set<number>;
  /** Functions whose return value it takes from a direct call (their index in the program). */
  calls: Set<number>;
}

/**
 * What regeneration needs to know canonical register `reg` in `state` beyond what the slice
 * computes and records: the registers live at the function's start that knownWithoutRecords' walk
 * reaches, and the direct callees whose return value it reaches (`calleeOf` names a call block's
 * callee); undefined when it reaches a definition that is neither computed, recorded nor known
 * (a load, another call's result, an entry other than the start). Both sets empty: known without
 * records. tracer/interproc.ts interprocedural asks the callers for those registers and the
 * callees for those values.
 */
export function entryDependence(s: SliceResult, isa: Isa, state: State, reg: number, calleeOf?: (block: number) => number | undefined): EntryDependence | undefined {
  const out: EntryDependence = { regs: new Set(), calls: new Set() };
  const known = walkDefinitions(s, state, reg, (site, r) => {
    if (site.kind === 'entry' && site.block === 0) {
      out.regs.add(archAt(isa, r, s.df.depthIn[0]!));
      return true;
    }
    if (site.kind === 'call' && r === isa.canon(isa.RET, site.depth)) {
      const callee = calleeOf?.(site.block);
      if (callee === undefined) return false;
      out.calls.add(callee);
      return true;
    }
    return undefined;
  });
  return known ? out : undefined;
}

/** Window depth on an edge after its delay slot. */
export function depthAfterDs(df: Dataflow, cfg: Cfg, e: Edge): number {
  const b = cfg.blocks[e.from]!;
  let d = df.depthIn[b.id]!;
  for (const i of b.insns) d += df.win(i);
  if (e.ds && b.ds) d += df.win(b.ds);
  return d;
}

/** The architectural name of canonical register c in a window at depth `depth`. */
export function archAt(isa: Isa, c: number, depth: number): number {
  const { reg, depth: d } = isa.uncanon(c);
  if (isa.name !== 'sparc' || reg < 8 || reg >= 32) return reg;
  if (reg < 16) {
    // An %o register of window d: %o in window d, %i in window d + 1.
    if (d === depth) return reg;
    if (d === depth - 1) return reg + 16;
  } else if (d === depth) return reg;
  throw new Error(`register ${isa.regName(reg)} of window depth ${d} is not visible at depth ${depth}`);
}
