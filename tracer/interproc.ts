/**
 * Values functions take from each other (docs/tracer.md "Arguments callers know", "Return values
 * callers take from the callee"): the arguments a function's callers provide and the return
 * values its callers take as known, decided together over the first pass's slices.
 */
import type { Cfg } from './cfg.js';
import type { Program } from './program.js';
import { predicateArguments, returnDependences } from './decide.js';
import { depthAfterDs, entryDependence, type EntryDependence, type SliceResult } from './slice.js';

/**
 * What the first pass's slices can take from other functions (interprocedural).
 *
 * Arguments a function need not record at its entry (`provided`): registers it reads on entry
 * (records at its start, or what would decide its predicates or make its return value known,
 * tracer/decide.ts predicateArguments, returnDependences) that every caller (direct calls and tail jumps only: the
 * function's address is taken nowhere) knows at the call without recording anything more. The
 * callers then compute them at the call (`edgeRoots`).
 *
 * Return values regeneration carries from callee to caller (`funcs`): a function whose return
 * register is known at every return (computed from what it records or computes anyway:
 * strlen's `p - s`) leaves it known for every caller: in the next passes its returns are roots of
 * its slice for that register (`exitRoots`: the cut keeps it known, at worst by a record in the
 * callee), and its direct callers' cuts take the call's definition of it as known (`returned`,
 * tracer/dataflow.ts DataflowOptions.returned) instead of recording it after the call.
 * Regeneration keeps one register file per process across calls (regen/process.ts restores only
 * the callee-saved registers at a return), so the value the callee's regeneration computed is
 * the caller's. Only functions every one of whose ways out is a return qualify (returnEdges).
 *
 * "Known" takes both into account (slice.ts entryDependence): a value may come from the
 * arguments the function is provided and from the results of the functions that return theirs
 * known. Both are the greatest fixed point: a claim stays while what it needs stays claimed.
 * Sound by induction on the call depth and the order of returns: the outermost activation (the
 * entry function, or a function whose address is taken) is provided nothing, every direct call
 * computes what its callee is provided from what its caller knows, and the first activation to
 * return computes its value from its arguments and from calls that returned before it (a
 * function never called and never referred to never runs: what it passes needs nothing).
 */
export function interprocedural(prog: Program, cfgs: Cfg[], slices: (SliceResult | undefined)[], codeValues: readonly number[] = []): {
  provided: Map<number, number[]>; edgeRoots: Map<number, Map<number, number[]>>;
  returned: Map<number, Map<number, number[]>>; exitRoots: Map<number, Map<number, number[]>>; funcs: Set<number>;
} {
  const isa = prog.isa;
  const taken = new Set<number>([prog.entry, ...prog.codeWords.values(), ...prog.codeRefs, ...codeValues]);
  const sites = new Map<number, { fi: number; edge: number }[]>();
  const calleeOf = (fi: number) => (block: number): number | undefined => {
    const b = cfgs[fi]!.blocks[block]!;
    if (b.term !== 'call' || b.target === undefined) return undefined;
    const f = prog.funcAt(b.target);
    return f && f.addr === b.target ? f.index : undefined;
  };
  // A function in conservative mode knows nothing at its calls: its callees record their arguments.
  const unknowing = new Set<number>();
  cfgs.forEach((cfg, fi) => {
    if (!slices[fi]) {
      for (const b of cfg.blocks) if ((b.term === 'call' || b.term === 'tail') && b.target !== undefined) unknowing.add(b.target);
      return;
    }
    const into = (t: number, edge: number): void => {
      const f = prog.funcAt(t);
      if (!f || f.addr !== t) return;
      let l = sites.get(f.index);
      if (!l) sites.set(f.index, (l = []));
      l.push({ fi, edge });
    };
    for (const b of cfg.blocks) {
      if (b.term === 'call' && b.target !== undefined && !Number.isNaN(slices[fi]!.df.depthIn[b.id]!)) into(b.target, b.succ[0]!.id);
      if (b.term === 'tail' && b.target !== undefined) for (const e of b.pred) if (!Number.isNaN(slices[fi]!.df.depthIn[e.from]!)) into(b.target, e.id);
    }
  });
  const eligible = (fi: number): boolean => {
    const f = prog.funcs[fi]!;
    return !taken.has(f.addr) && !unknowing.has(f.addr) && slices[fi] !== undefined && f.role !== 'sigtramp' && f.role !== 'entry';
  };
  const dead = new Set(prog.funcs.flatMap((_, fi) => (eligible(fi) && !sites.get(fi)?.length ? [fi] : [])));
  // Return candidates with what each return needs; argument candidates with what each call site needs.
  const retDeps = new Map<number, EntryDependence[]>();
  const argDeps = new Map<number, Map<number, (EntryDependence | undefined)[]>>();
  prog.funcs.forEach((f, fi) => {
    const s = slices[fi];
    if (!s) return;
    const callee = calleeOf(fi);
    if (f.role === undefined) {
      const rets = returnEdges(cfgs[fi]!, s);
      const rd = rets.length > 0 ? returnDependences(cfgs[fi]!, isa, s, rets, callee) : undefined;
      if (rd) retDeps.set(fi, rd);
    }
    // Only a function its callers may provide arguments to asks what its predicates need.
    if (!eligible(fi) || dead.has(fi)) return;
    const calls = sites.get(fi)!;
    const own = (s.entryRecords.get(0) ?? []).map((r) => r.reg);
    const regs = new Set(own);
    for (const d of predicateArguments(cfgs[fi]!, isa, s, callee)) for (const r of d.regs) regs.add(r);
    for (const d of retDeps.get(fi) ?? []) for (const r of d.regs) regs.add(r);
    // Per register, the dependence at each call site; a register some call cannot give is not
    // provided (its list ends at that call's undefined: nothing reads the rest).
    const m = new Map<number, (EntryDependence | undefined)[]>();
    for (const r of regs) {
      const deps: (EntryDependence | undefined)[] = [];
      for (let k = 0; k < calls.length; k++) {
        const g = calls[k]!.fi;
        const sg = slices[g]!;
        const e = cfgs[g]!.edges[calls[k]!.edge]!;
        const d = entryDependence(sg, isa, sg.df.stateAfterDs(e), isa.canon(r, depthAfterDs(sg.df, cfgs[g]!, e)), calleeOf(g));
        deps.push(d);
        if (d === undefined) break;
      }
      m.set(r, deps);
    }
    argDeps.set(fi, m);
  });
  const funcs = new Set(retDeps.keys());
  const provided = new Map<number, number[]>();
  for (const [fi, m] of argDeps) provided.set(fi, [...m.keys()].filter((r) => m.get(r)!.every((d) => d !== undefined)));
  // What function fi's own value needs holds: its callees return known, its provided arguments
  // include the registers (a caller that never runs needs nothing: `vacuous`).
  const holds = (d: EntryDependence, fi: number, vacuous: boolean): boolean =>
    [...d.calls].every((c) => funcs.has(c)) && ((vacuous && dead.has(fi)) || [...d.regs].every((r) => provided.get(fi)?.includes(r)));
  for (let changed = true; changed;) {
    changed = false;
    for (const fi of [...funcs]) {
      if (!retDeps.get(fi)!.every((d) => holds(d, fi, false))) {
        funcs.delete(fi);
        changed = true;
      }
    }
    for (const [fi, regs] of provided) {
      const calls = sites.get(fi)!;
      const keep = regs.filter((r) => argDeps.get(fi)!.get(r)!.every((d, k) => holds(d!, calls[k]!.fi, true)));
      if (keep.length !== regs.length) {
        provided.set(fi, keep);
        changed = true;
      }
    }
  }
  const edgeRoots = new Map<number, Map<number, number[]>>();
  for (const [fi, regs] of [...provided]) {
    if (regs.length === 0) {
      provided.delete(fi);
      continue;
    }
    for (const r of regs) {
      for (const { fi: g, edge } of sites.get(fi)!) {
        let m = edgeRoots.get(g);
        if (!m) edgeRoots.set(g, (m = new Map()));
        m.set(edge, [...(m.get(edge) ?? []), r]);
      }
    }
  }
  const exitRoots = new Map<number, Map<number, number[]>>();
  for (const fi of funcs) exitRoots.set(fi, new Map(returnEdges(cfgs[fi]!, slices[fi]!).map((e) => [e.id, [isa.RET]])));
  const returned = new Map<number, Map<number, number[]>>();
  cfgs.forEach((cfg, fi) => {
    if (!slices[fi] || funcs.size === 0) return;
    const callee = calleeOf(fi);
    for (const b of cfg.blocks) {
      const c = callee(b.id);
      if (c === undefined || !funcs.has(c)) continue;
      let m = returned.get(fi);
      if (!m) returned.set(fi, (m = new Map()));
      m.set(b.id, [isa.RET]);
    }
  });
  return { provided, edgeRoots, returned, exitRoots, funcs };
}

/**
 * The return edges of a function whose every way out is a return (no tail call, no call leaving
 * through EXIT, no longjmp or unknown jump; `halt` ends the process); else none. Not the
 * functions with a role (entry, signal trampoline, setjmp, longjmp), whose calls regeneration
 * handles itself (the caller checks the role).
 */
function returnEdges(cfg: Cfg, s: SliceResult): Cfg['edges'] {
  const outs = cfg.blocks[cfg.exit]!.pred;
  const rets: Cfg['edges'] = [];
  for (let k = 0; k < outs.length; k++) {
    const e = outs[k]!;
    const t = cfg.blocks[e.from]!.term;
    if (t !== 'return' && t !== 'halt') return [];
    if (t === 'return' && !Number.isNaN(s.df.depthIn[e.from]!)) rets.push(e);
  }
  return rets;
}
