/**
 * A reference for tracer/reaching.ts: the reaching definitions as the least solution of the
 * equations its header gives, by a worklist iteration written directly — every merge is a full
 * merge of the edge's out-state (no bit vectors, no versions, no dense register numbers), sets are
 * Sets. Slow and plain on purpose: test/tracer/reaching.test.ts compares the solver's start states
 * with this one's (as sets: the solver's order is ascending site ids).
 */
import type { ReachingInput } from '../../../tracer/reaching.js';

interface RefState {
  explicit: Map<number, Set<number>>;
  implicit: Set<number>;
}

export interface RefStart {
  explicit: Map<number, number[]>;
  implicit: number[];
}

/** Per block: its start state (after its entry definitions), as tracer/reaching.ts defines it. */
export function referenceStartStates(df: ReachingInput, carriedAt: (b: number) => readonly number[]): RefStart[] {
  const { cfg } = df;
  const n = cfg.blocks.length;
  const reachable = (b: number): boolean => !Number.isNaN(df.depthIn[b]!);
  const inState: RefState[] = cfg.blocks.map(() => ({ explicit: new Map(), implicit: new Set() }));
  const lastOut: (RefState | undefined)[] = [];

  // An entry's out-state before its edges' own definitions: every register gains the entry site,
  // the carried ones too (at the start they stay as they are). New sets.
  const entryOut = (b: number): RefState => {
    const e = df.entrySite[b]!;
    const carried = carriedAt(b);
    const inS = inState[b]!;
    const explicit = new Map<number, Set<number>>();
    inS.explicit.forEach((set, r) => explicit.set(r, new Set(set)));
    for (const r of carried) if (!explicit.has(r)) explicit.set(r, new Set(inS.implicit));
    explicit.forEach((set, r) => {
      if (!(b === 0 && carried.includes(r))) set.add(e);
    });
    return { explicit, implicit: new Set(inS.implicit).add(e) };
  };

  // The registers an edge's source defines over its start state, in order of first definition (the last site wins).
  const overOf = (e: (typeof cfg.edges)[number]): Map<number, number> => {
    const over = new Map<number, number>();
    const define = (site: number): void => {
      for (const r of df.sites[site]!.regs) over.set(r, site);
    };
    for (const s of df.insnSite[e.from]!) define(s);
    const ds = df.dsSite[e.from];
    if (e.ds && ds !== undefined) define(ds);
    const c = df.callSite[e.from];
    if (c !== undefined && e.kind === 'return') define(c);
    return over;
  };

  /** Merges the out-state (base overlaid with over) into t; true when t grew. */
  const merge = (t: RefState, base: RefState, over: Map<number, number>): boolean => {
    let changed = false;
    const addAll = (set: Set<number>, from: Iterable<number>): void => {
      const size = set.size;
      for (const x of from) set.add(x);
      if (set.size !== size) changed = true;
    };
    const add = (r: number, from: Iterable<number>): void => {
      let set = t.explicit.get(r);
      if (!set) {
        set = new Set(t.implicit);
        t.explicit.set(r, set);
        changed = true;
      }
      addAll(set, from);
    };
    base.explicit.forEach((set, r) => add(r, over.has(r) ? [over.get(r)!] : set));
    over.forEach((site, r) => {
      if (!base.explicit.has(r)) add(r, [site]);
    });
    t.explicit.forEach((set, r) => {
      if (!base.explicit.has(r) && !over.has(r)) addAll(set, base.implicit);
    });
    addAll(t.implicit, base.implicit);
    return changed;
  };

  const work: number[] = [];
  for (let b = n - 1; b >= 0; b--) if (reachable(b)) work.push(b);
  const queued = new Set(work);
  while (work.length > 0) {
    const id = work.pop()!;
    queued.delete(id);
    // An entry's out-state is made at the pop; any other block's is its in-state, live.
    const base = df.entrySite[id] !== undefined ? (lastOut[id] = entryOut(id)) : inState[id]!;
    for (const e of cfg.blocks[id]!.succ) {
      if (cfg.blocks[e.to]!.term === 'exit') continue;
      if (merge(inState[e.to]!, base, overOf(e)) && !queued.has(e.to)) {
        queued.add(e.to);
        work.push(e.to);
      }
    }
  }
  return cfg.blocks.map((_, b) => {
    const s = !reachable(b) ? { explicit: new Map(), implicit: new Set<number>() } : lastOut[b] ?? inState[b]!;
    const explicit = new Map<number, number[]>();
    s.explicit.forEach((set, r) => explicit.set(r, [...set]));
    return { explicit, implicit: [...s.implicit] };
  });
}
