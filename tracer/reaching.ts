/**
 * The worklist solution of the reaching definitions' in-states (tracer/dataflow.ts): per block,
 * the sites whose definitions may reach its start, per canonical register, and the `implicit` set
 * reaching every register without an entry of its own.
 *
 * The order of every set is part of the result: the analyses read the sites of a register in set
 * order (the slice graph's node order in tracer/cut.ts, the order records and computations are
 * found in), so the instrumenter's output depends on it. The solution is therefore one fixed
 * chaotic iteration, and this file's contract is to perform exactly that iteration, cheaply:
 *   - a worklist (a stack) of the reachable blocks, initially in reverse block order (block 0 is
 *     popped first); a block whose in-state changes is pushed unless it is queued;
 *   - popping block b merges, per successor edge in order (edges to the exit block excepted), the
 *     edge's out-state into the successor's in-state: b's in-state, after b's entry definitions
 *     when b is an entry (every explicit register and the implicit set gain the entry site, the
 *     carried registers too except at the start), overlaid with the registers b's body, its delay
 *     slot (edges that execute it) and its call (return edges) define, each reached by that one
 *     definition ('over', in order of first definition);
 *   - a merge takes the out-state's explicit registers in order (the in-state's, then those only
 *     defined in b), then the target's other explicit registers (which gain the out-state's
 *     implicit set), then the implicit set. A register new to the target starts as a copy of the
 *     target's implicit set. Elements are appended in the source set's order; every register whose
 *     set grows is appended once to the target's log (IMPLICIT: the implicit set grew);
 *   - incremental merging: an edge merged before only merges the registers logged in its source
 *     since (in log order, each once); a grown implicit set takes the full merge.
 * What makes it cheap without changing a set: sets only grow, by appending, and after an edge's
 * merge the target holds every element of the edge's out-state. So an element of a source list
 * the edge has merged before is already in the target: each edge remembers, per register of its
 * source, the length of the list it last merged (`seen`; and of the implicit set, `seenImp`),
 * and merges only the elements appended since, which are the ones the full merge would add, in
 * the same order. A register that was not explicit in the source at the edge's last merge has a
 * list that starts with a copy of the source's implicit set taken after that merge: the implicit
 * set's then length is a prefix the target already holds. Entry blocks' out-states are built
 * afresh at each pop (copies with the entry site appended): their edges merge whole lists.
 */
import type { Cfg, Edge } from './cfg.js';

/** What the solution is computed from (tracer/dataflow.ts Dataflow). */
export interface ReachingInput {
  readonly cfg: Cfg;
  /** Window depth at the start of each block (NaN: unreachable). */
  readonly depthIn: readonly number[];
  /** Canonical registers each site defines. */
  readonly sites: readonly { readonly regs: readonly number[] }[];
  readonly insnSite: readonly (readonly number[])[];
  readonly dsSite: readonly (number | undefined)[];
  readonly callSite: readonly (number | undefined)[];
  readonly entrySite: readonly (number | undefined)[];
}

/** A block's start state: per explicit register, its sites in set order (lists of distinct ids, its own), and the implicit set. */
export interface StartState {
  explicit: Map<number, number[]>;
  implicit: number[];
}

/** The log entry for the implicit set (dense register ids are never negative). */
const IMPLICIT = -1;

/**
 * Per block, the reaching definitions at its start after its entry definitions: its solved
 * in-state, or for an entry block the out-state its last pop built from it (entryOut: the final
 * in-state, a block whose in-state grows being popped again), the one rule for what an entry
 * defines. Unreachable blocks: empty. `carriedAt(b)`: the canonical registers an entry at block b
 * does not define (tracer/dataflow.ts Dataflow.carriedAt).
 *
 * Registers are numbered densely while solving (`canon` maps back), so that per-block and per-edge
 * tables are flat arrays indexed by block or edge × register; the merge is inline (the solver
 * runs in the interpreter, where calls and map look-ups are what costs).
 */
export function solveStartStates(df: ReachingInput, carriedAt: (b: number) => readonly number[]): StartState[] {
  const { cfg } = df;
  const n = cfg.blocks.length;
  const nEdges = cfg.edges.length;
  const dense = new Map<number, number>();
  const canon: number[] = [];
  const idOf = (r: number): number => {
    let d = dense.get(r);
    if (d === undefined) {
      d = canon.length;
      dense.set(r, d);
      canon.push(r);
    }
    return d;
  };
  const siteRegs = df.sites.map((s) => s.regs.map(idOf));
  const carried: (number[] | undefined)[] = [];
  for (let b = 0; b < n; b++) if (df.entrySite[b] !== undefined && !Number.isNaN(df.depthIn[b]!)) carried[b] = carriedAt(b).map(idOf);
  const R = canon.length;

  // Per edge: the registers its out-state defines over its source's in-state, in order of first
  // definition, and the site that does (-1: none).
  const overRegs: number[][] = [];
  const overSite = new Int32Array(nEdges * R).fill(-1);
  const define = (e: Edge, site: number): void => {
    const off = e.id * R;
    for (const r of siteRegs[site]!) {
      if (overSite[off + r]! < 0) overRegs[e.id]!.push(r);
      overSite[off + r] = site;
    }
  };
  for (const e of cfg.edges) {
    overRegs[e.id] = [];
    if (Number.isNaN(df.depthIn[e.from]!)) continue;
    for (const s of df.insnSite[e.from]!) define(e, s);
    const ds = df.dsSite[e.from];
    if (e.ds && ds !== undefined) define(e, ds);
    const c = df.callSite[e.from];
    if (c !== undefined && e.kind === 'return') define(e, c);
  }

  // Per block: its explicit registers in order; per block × register: explicit or not, the set's
  // elements in order and, once it outgrows SMALL, a Set of them; the implicit set likewise.
  const regs: number[][] = cfg.blocks.map(() => []);
  const has = new Uint8Array(n * R);
  const sets: (Set<number> | undefined)[] = new Array<Set<number> | undefined>(n * R);
  const lists: number[][] = new Array<number[]>(n * R);
  const imp: (Set<number> | undefined)[] = new Array<Set<number> | undefined>(n);
  const impList: number[][] = cfg.blocks.map(() => []);
  // Per edge × register: the length of the source's list at the edge's last merge (-1: the
  // register was not explicit in the source); per edge, of the source's implicit list.
  const seen = new Int32Array(nEdges * R).fill(-1);
  const seenImp = new Int32Array(nEdges);
  const log: number[][] = cfg.blocks.map(() => []);
  const merged = new Int32Array(nEdges).fill(-1);
  const work: number[] = [];
  for (let b = n - 1; b >= 0; b--) if (!Number.isNaN(df.depthIn[b]!)) work.push(b);
  const queued = new Uint8Array(n);
  for (const b of work) queued[b] = 1;
  const keys: number[] = [];
  const keyMark = new Int32Array(R);
  let mark = 0;

  // The merge into block `to` (set by the edge loop); `changed`: its in-state grew.
  let to = 0;
  let tOff = 0;
  let changed = false;
  /** Adds list[from..] to the target's set of r (a copy of its implicit set when r is new to it). */
  const into = (r: number, list: readonly number[], from: number): void => {
    const k = tOff + r;
    let tl: number[];
    let grew = false;
    if (has[k] === 0) {
      has[k] = 1;
      regs[to]!.push(r);
      lists[k] = tl = impList[to]!.slice();
      sets[k] = tl.length > SMALL ? new Set(tl) : undefined;
      grew = true;
    } else tl = lists[k]!;
    const size = tl.length;
    if (from < list.length) sets[k] = appendNew(tl, sets[k], list, from);
    if (grew || tl.length !== size) {
      changed = true;
      log[to]!.push(r);
    }
  };
  const one: number[] = [0];
  // The edge being merged (set by the edge loop) and its source.
  let eOff = 0;
  let whole = false;
  let impFrom = 0;
  let sHas: Uint8Array = has;
  let sLists: number[][] = lists;
  let sOff = 0;
  let sImp: number[] = [];
  /** The source's register r: its over site, its list from what the edge has not merged, or the implicit set. */
  const source = (r: number): void => {
    const o = overSite[eOff + r]!;
    const present = has[tOff + r] !== 0;
    if (o >= 0) {
      if (present && (sets[tOff + r]?.has(o) ?? lists[tOff + r]!.includes(o))) return;
      one[0] = o;
      into(r, one, 0);
    } else if (sHas[sOff + r] !== 0) {
      const list = sLists[sOff + r]!;
      const s = seen[eOff + r]!;
      const from = whole ? 0 : s >= 0 ? s : impFrom;
      if (!present || from < list.length) into(r, list, from);
      seen[eOff + r] = list.length;
    } else if (!present || impFrom < sImp.length) into(r, sImp, impFrom);
  };

  // An entry block's state after its entry definitions, before the over definitions: an entry
  // defines every register except the carried ones, so every explicit register gains the entry
  // site and so does the implicit set; at an entry other than the start the carried ones become
  // explicit with it too (known values of unknown relation: tracer/dataflow.ts `knows`), at the
  // start they become explicit as they are. A list gains the site last. New lists.
  type EntryOut = { regs: number[]; has: Uint8Array; lists: number[][]; impList: number[] };
  const entryOut = (b: number): EntryOut => {
    const e = df.entrySite[b]!;
    const off = b * R;
    const out = { regs: regs[b]!.slice(), has: has.slice(off, off + R), lists: new Array<number[]>(R), impList: impList[b]!.slice() };
    for (const r of out.regs) out.lists[r] = lists[off + r]!.slice();
    for (const r of carried[b]!) {
      if (out.has[r] !== 0) continue;
      out.has[r] = 1;
      out.regs.push(r);
      out.lists[r] = impList[b]!.slice();
    }
    for (const r of out.regs) {
      if (b === 0 && carried[b]!.includes(r)) continue;
      const l = out.lists[r]!;
      if (!l.includes(e)) l.push(e);
    }
    if (!out.impList.includes(e)) out.impList.push(e);
    return out;
  };

  // Per entry block: the out-state its last pop built (the block's start state once solved).
  const lastEntry: (EntryOut | undefined)[] = [];
  while (work.length > 0) {
    const id = work.pop()!;
    queued[id] = 0;
    const b = cfg.blocks[id]!;
    // The source: the block's own tables (live: a self-loop merges into what it reads, as the
    // original iteration over the in-state's map did), or an entry's new copies.
    const ent = df.entrySite[id] !== undefined ? (lastEntry[id] = entryOut(id)) : undefined;
    const sRegs = ent ? ent.regs : regs[id]!;
    sHas = ent ? ent.has : has;
    sLists = ent ? ent.lists : lists;
    sOff = ent ? 0 : id * R;
    sImp = ent ? ent.impList : impList[id]!;
    for (const e of b.succ) {
      if (cfg.blocks[e.to]!.term === 'exit') continue;
      const since = merged[e.id]!;
      const srcLog = log[id]!;
      merged[e.id] = srcLog.length;
      let full = since < 0;
      eOff = e.id * R;
      if (!full) {
        mark++;
        for (let k = since; k < srcLog.length; k++) {
          const r = srcLog[k]!;
          if (r === IMPLICIT) full = true;
          else if (keyMark[r] !== mark) {
            keyMark[r] = mark;
            // A register the edge defines over: its one site is in the target since the edge's
            // first merge, whatever the source's set does.
            if (overSite[eOff + r]! < 0) keys.push(r);
          }
        }
      }
      // Whole lists on an edge's first merge and from an entry (its lists are new copies).
      whole = since < 0 || ent !== undefined;
      impFrom = whole ? 0 : seenImp[e.id]!;
      to = e.to;
      tOff = to * R;
      changed = false;
      if (full) {
        for (let i = 0; i < sRegs.length; i++) source(sRegs[i]!);
        const ov = overRegs[e.id]!;
        for (let i = 0; i < ov.length; i++) {
          const r = ov[i]!;
          if (sHas[sOff + r] === 0) source(r);
        }
        if (impFrom < sImp.length) {
          const tRegs = regs[to]!;
          for (let j = 0; j < tRegs.length; j++) {
            const r = tRegs[j]!;
            if (overSite[eOff + r]! >= 0 || sHas[sOff + r] !== 0) continue;
            into(r, sImp, impFrom);
          }
          const tl = impList[to]!;
          const size = tl.length;
          imp[to] = appendNew(tl, imp[to], sImp, impFrom);
          if (tl.length !== size) {
            changed = true;
            log[to]!.push(IMPLICIT);
          }
        }
      } else for (let i = 0; i < keys.length; i++) source(keys[i]!);
      keys.length = 0;
      seenImp[e.id] = sImp.length;
      if (changed && queued[to] === 0) {
        queued[to] = 1;
        work.push(to);
      }
    }
  }
  return cfg.blocks.map((_, b) => {
    const explicit = new Map<number, number[]>();
    const ent = lastEntry[b];
    if (ent) {
      for (const r of ent.regs) explicit.set(canon[r]!, ent.lists[r]!);
      return { explicit, implicit: ent.impList };
    }
    for (const r of regs[b]!) explicit.set(canon[r]!, lists[b * R + r]!);
    return { explicit, implicit: impList[b]! };
  });
}

/** Lists longer than this get a Set for membership; shorter ones are searched (most sets hold a few sites). */
const SMALL = 16;

/**
 * Appends the elements of list[from..] that tl lacks to tl, in order; t: tl's Set, if it has one.
 * Returns tl's Set after (made when tl outgrows SMALL). list may be tl itself (a self-loop): it
 * then lacks nothing.
 */
function appendNew(tl: number[], t: Set<number> | undefined, list: readonly number[], from: number): Set<number> | undefined {
  for (let i = from; i < list.length; i++) {
    const x = list[i]!;
    if (t !== undefined) {
      if (!t.has(x)) {
        t.add(x);
        tl.push(x);
      }
    } else if (!tl.includes(x)) {
      tl.push(x);
      if (tl.length > SMALL) t = new Set(tl);
    }
  }
  return t;
}
