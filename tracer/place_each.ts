/**
 * The placements the predicate pricing compares (tracer/pred_cost.ts): placeWitnessSet of a
 * placement problem and of the same problem with each candidate predicate decided as well
 * (tracer/placement.ts, steps 1-4), the candidates' placements made beside the base one and read
 * from it wherever they cannot differ.
 *
 * Deciding v takes v out of the predicates and changes nothing else of the problem. When none of
 * v's out-edges is a blocking edge of the base placement, step 1 never walked up to v (it stops
 * at a predicate's out-edge and takes it), so it finds the same blocking edges in the same order
 * with v decided, and step 2 the same tree and chords; otherwise both are made again (a linear
 * walk and Kruskal's pass). From step 3 on, a candidate's state is the base's but for what it
 * holds of its own:
 *   - the edges whose witnessed flag differs from the base's (`diffE`), and the vertices with
 *     such an out-edge;
 *   - the sets (and whether they are ok) of the predicates whose sets differ or may differ, v
 *     among them with none (`own`), and per edge the predicates of its own that hold it.
 * A predicate's sets are a function of the flags of the out-edges of the vertices its walks
 * visit, so step 3 walks again only the predicates whose base walks visited a vertex whose flags
 * differ, and keeps as its own those whose sets came out different (with the base's steps 1 and
 * 2 none differ, and step 3 drops, besides the base's, the witnesses only v's sets held). Step 4
 * goes over the heaviest-first order once for the base and every candidate together. At witness
 * w the base's test is a candidate's when w's flag is the same, the walk beyond w visited no
 * vertex whose flags differ (it is the same walk) and no predicate that holds w is one of its own
 * (the same predicates, with the same sets): the candidate then follows the base without being
 * visited (its flags are the base's but for `diffE`). Otherwise it tests w on its own state, and
 * every predicate whose sets the two then change differently becomes its own (a copy of the
 * base's before the base changes them).
 */
import {
  blockingAndChords, blockingWitnesses, ChordScratch, listed, placementFrame, placeSet, predicateFlags, treeChords, witnessSet, type PlacementInput, type StepOneRecord,
  type WitnessSet,
} from './placement.js';
import { breaks, canDrop, dropFrom, firstBroken, ok, okFlags, refer, Walks, type PlacementFrame, type PredSets } from './witness_sets.js';

/** Step 2's union-find is kept before every position that is a multiple of this (placeDecidingEach). */
const SNAPSHOT = 8;

/** A candidate's placement while it is made beside the base one (see the top). */
interface Candidate {
  v: number;
  /** Its blocking witnesses in step 1's order (its witnessed edges are these, then chords in the heaviest-first order). */
  pre: Int32Array;
  /** By vertex: 1 for v and for the predicates whose sets are its own (`sets`, `ok`). */
  own: Uint8Array;
  sets: (PredSets | undefined)[];
  ok: Uint8Array;
  /** By edge: the predicates with sets of its own that hold the edge. */
  ref: (number[] | undefined)[];
  /** By edge: 1 where its witnessed flag differs from the base's. */
  diffE: Uint8Array;
  /**
   * By vertex: how many of its out-edges' flags differ from the base's; `diffV` lists those with
   * any (and may list vertices that no longer have one, once each: `inDiffV`).
   */
  diffOut: Int32Array;
  diffV: number[];
  inDiffV: Uint8Array;
  /** The last step that listed it as affected (affected lists it once a step). */
  tick: number;
}

/**
 * The base placement's state the candidates read (step 3's sets and references as step 4 keeps
 * them, its flags in `walks.wit`) and the indexes from it to the candidates that may differ:
 * by predicate, the candidates with its sets as their own; by edge, those with a predicate of
 * their own holding it; by vertex, those with an out-edge flagged differently (lists may hold
 * candidates that no longer qualify: checked when read).
 */
interface Base {
  f: PlacementFrame;
  walks: Walks;
  sets: (PredSets | undefined)[];
  okNow: Uint8Array;
  refBy: (number[] | undefined)[];
  ownedBy: (Candidate[] | undefined)[];
  refC: (Candidate[] | undefined)[];
  diffC: (Candidate[] | undefined)[];
  /** Room for the candidates' flags (`candidate`): 3n + m bytes and n counts each, `made` of them taken. */
  u8: Uint8Array;
  i32: Int32Array;
  made: number;
}

/**
 * placeWitnessSet of g (`base`) and of g with each candidate decided as well (`each`, by position;
 * undefined where the candidate is no predicate of g, so that deciding it changes nothing).
 * `frame`: placementFrame of g.
 */
export function placeDecidingEach(g: PlacementInput, candidates: readonly number[], frame: PlacementFrame = placementFrame(g)): { base: WitnessSet; each: (WitnessSet | undefined)[] } {
  const f = frame;
  const { n, m, from, order } = f;
  const isPred = predicateFlags(f, g.decided);
  // The base's steps 1-3, with every vertex its step-3 walks read.
  const walks = new Walks(f);
  const wit = walks.wit;
  const chords = new ChordScratch(f);
  // What step 1 met, and step 2's union-find every SNAPSHOT positions: a candidate whose steps 1
  // and 2 are made again walks again only where step 1 met one of its out-edges, and makes its
  // tree from the last snapshot before the first edge the two take or leave differently.
  const rec: StepOneRecord = { hits: [], start: [0] };
  const nSnap = Math.ceil(m / SNAPSHOT);
  const snapshots = { every: SNAPSHOT, uf: new Int32Array(nSnap * n), chords: new Int32Array(nSnap) };
  const { inBl, ins, iblen, ilen } = blockingAndChords(f, isPred, wit, chords, undefined, { rec, snapshots });
  const basePre = ins.slice(0, iblen);
  const baseIns = ins.slice(0, ilen);
  const baseInBl = inBl.slice();
  const wit2 = wit.slice();
  const sets: (PredSets | undefined)[] = new Array(n);
  const refBy: (number[] | undefined)[] = new Array(m);
  const readers: (number[] | undefined)[] = new Array(n);
  for (let p = 0; p < n; p++) if (isPred[p]) sets[p] = walks.witnessSets(p, refBy, readers);
  for (let i = 0; i < ilen; i++) if (refBy[baseIns[i]!] === undefined) wit[baseIns[i]!] = 0;
  let nc = 0;
  for (let k = 0; k < candidates.length; k++) if (candidates[k]! >= 0 && candidates[k]! < n && isPred[candidates[k]!]) nc++;
  const b: Base = {
    f, walks, sets, okNow: okFlags(sets), refBy, ownedBy: new Array(n), refC: new Array(m), diffC: new Array(n),
    u8: new Uint8Array(nc * (3 * n + m)), i32: new Int32Array(nc * n), made: 0,
  };
  // The candidates' steps 1-3.
  const scratch = new Walks(f);
  const cw = new Uint8Array(m);
  const cins = new Int32Array(m);
  const askedAt = new Int32Array(n);
  const two = { wit2, pre: basePre, chords: baseIns.subarray(iblen) };
  // By predicate: the edges witnessed after step 2 that its sets alone hold, in that order (a
  // candidate with the base's steps 1 and 2 drops exactly its own ones in step 3).
  const sole: (number[] | undefined)[] = new Array(n);
  for (let i = 0; i < ilen; i++) {
    const by = refBy[baseIns[i]!];
    if (by !== undefined && by.length === 1) {
      const l = sole[by[0]!];
      if (l === undefined) sole[by[0]!] = [baseIns[i]!];
      else l.push(baseIns[i]!);
    }
  }
  // By edge: the step-1 items that met it; by item, the last candidate (stamp) that walks it again.
  const nItems = rec.start.length - 1;
  const itemsAt: (number[] | undefined)[] = new Array(m);
  for (let k = 0; k < nItems; k++) {
    for (let j = rec.start[k]!; j < rec.start[k + 1]!; j++) {
      const l = itemsAt[rec.hits[j]!];
      if (l === undefined) itemsAt[rec.hits[j]!] = [k];
      else l.push(k);
    }
  }
  const walkAt = new Int32Array(nItems);
  const orderPos = new Int32Array(m);
  for (let o = 0; o < m; o++) orderPos[order[o]!] = o;
  const cands: (Candidate | undefined)[] = [];
  for (let k = 0; k < candidates.length; k++) {
    const v = candidates[k]!;
    if (v < 0 || v >= n || !isPred[v]) {
      cands.push(undefined);
      continue;
    }
    if (blocksOut(f, v, baseInBl)) {
      for (let j = f.outStart[v]!; j < f.outStart[v + 1]!; j++) {
        const at = itemsAt[f.outList[j]!];
        if (at !== undefined) for (let t = 0; t < at.length; t++) walkAt[at[t]!] = k + 1;
      }
      cw.fill(0);
      isPred[v] = 0;
      const one = blockingWitnesses(f, isPred, cw, chords, cins, { replay: { rec, walk: walkAt, stamp: k + 1 } });
      isPred[v] = 1;
      // The first heaviest-first position whose edge step 1 witnesses in one of the two only.
      let first = m - 1;
      for (let i = 0; i < one.iblen; i++) if (!baseInBl[cins[i]!] && orderPos[cins[i]!]! < first) first = orderPos[cins[i]!]!;
      for (let i = 0; i < basePre.length; i++) if (!one.inBl[basePre[i]!] && orderPos[basePre[i]!]! < first) first = orderPos[basePre[i]!]!;
      const sn = Math.floor(first / SNAPSHOT);
      const resume = { at: sn * SNAPSHOT, uf: snapshots.uf.subarray(sn * n, sn * n + n), chords: two.chords, nChords: snapshots.chords[sn]! };
      const cilen = treeChords(f, cw, chords, cins, one.iblen, { resume });
      cands.push(stepThree(b, v, cins.slice(0, one.iblen), cw, cins, cilen, resume.nChords, two, readers, scratch, askedAt, k + 1));
    } else cands.push(sameTree(b, v, basePre, sole[v]));
  }
  // Step 4, side by side.
  const found = walks.found;
  const pss: PredSets[] = [];
  const oks: number[] = [];
  const affected: Candidate[] = [];
  for (let o = 0; o < m; o++) {
    const w = order[o]!;
    const u = from[w]!;
    const act = wit[w] === 1;
    const by = act ? refBy[w] : undefined;
    let walked = false;
    let open = false;
    let drop = false;
    // The first predicate in `by` the drop breaks, or -1.
    let fail = -1;
    if (act) {
      if (by === undefined) drop = true;
      else {
        walked = true;
        open = walks.walk(w, w);
        if (!open) {
          pss.length = 0;
          oks.length = 0;
          for (let k = 0; k < by.length; k++) {
            pss.push(sets[by[k]!]!);
            oks.push(b.okNow[by[k]!]!);
          }
          fail = firstBroken(w, found, walks.nFound, pss, oks);
          drop = fail === -1;
        }
      }
    }
    const after = drop ? 0 : wit[w]!;
    // The candidates that may differ here: w flagged differently; a predicate of their own
    // holding w in the base or in theirs; a vertex the base's walk visited flagged differently.
    affected.length = 0;
    const dc = b.diffC[u];
    if (dc !== undefined) for (let k = 0; k < dc.length; k++) if (dc[k]!.diffE[w] && dc[k]!.tick !== o) {
          dc[k]!.tick = o;
          affected.push(dc[k]!);
        }
    if (act) {
      if (by !== undefined) {
        for (let k = 0; k < by.length; k++) {
          const ob = b.ownedBy[by[k]!];
          if (ob !== undefined) {
            for (let j = 0; j < ob.length; j++) {
              if (ob[j]!.tick !== o) {
                ob[j]!.tick = o;
                affected.push(ob[j]!);
              }
            }
          }
        }
      }
      const rc = b.refC[w];
      if (rc !== undefined) {
        for (let k = 0; k < rc.length; k++) {
          if (rc[k]!.ref[w] !== undefined && rc[k]!.tick !== o) {
            rc[k]!.tick = o;
            affected.push(rc[k]!);
          }
        }
      }
      if (walked) {
        for (let t = 0; t < walks.nTrail; t++) {
          const x = walks.trail[t]!;
          const xc = b.diffC[x];
          if (xc !== undefined) {
            for (let k = 0; k < xc.length; k++) {
              if (xc[k]!.diffOut[x]! > 0 && xc[k]!.tick !== o) {
                xc[k]!.tick = o;
                affected.push(xc[k]!);
              }
            }
          }
        }
      }
    }
    for (let k = 0; k < affected.length; k++) {
      const c = affected[k]!;
      let flag = wit[w]! ^ c.diffE[w]!;
      if (flag) {
        if (act && !c.diffE[w] && (walked ? sameWalk(c, walks) : c.ref[w] === undefined)) {
          flag = !walked || open ? after : followBase(b, c, w, by!, fail, drop);
        } else if (testOwn(b, c, w, by, scratch)) flag = 0;
        else if (drop && by !== undefined) adoptAll(b, c, by);
      } else if (drop && by !== undefined) adoptAll(b, c, by);
      flagDiff(b, c, w, u, flag, after);
    }
    if (drop) {
      wit[w] = 0;
      if (by !== undefined) {
        const nb = walks.nFound;
        for (let k = 0; k < by.length; k++) {
          const p = by[k]!;
          dropFrom(sets[p]!, w, found, nb);
          b.okNow[p] = 1;
          for (let t = 0; t < nb; t++) refer(refBy, found[t]!, p);
        }
        refBy[w] = undefined;
      }
    }
  }
  const mark = new Uint8Array(m);
  const baseWitnessed = listed(baseIns, ilen, wit);
  let basePreLen = 0;
  for (let i = 0; i < basePre.length; i++) if (wit[basePre[i]!]) basePreLen++;
  const each = cands.map((c): WitnessSet | undefined => {
    if (c === undefined) return undefined;
    const witnessed = witnessedOf(f, c, wit, baseWitnessed, basePreLen, orderPos, mark);
    if (witnessed.length <= 256) return { witnessed, bytes: 1 };
    // Over 256 witnesses the bytes depend on the values, which the sets constrain: in full.
    isPred[c.v] = 0;
    const full = witnessSet(f, placeSet(f, isPred));
    isPred[c.v] = 1;
    return full;
  });
  return { base: witnessSet(f, { witnessed: baseWitnessed, sets, walks }), each };
}

/**
 * The step 3 of a candidate whose steps 1 and 2 are the base's (`pre`: the base's blocking
 * witnesses): no predicate's walks read other flags, so every set but v's is the base's, and the
 * witnesses v's sets alone held (`sole`) are dropped as well.
 */
function sameTree(b: Base, v: number, pre: Int32Array, sole: readonly number[] | undefined): Candidate {
  const c = candidate(b, v, pre);
  if (sole !== undefined) for (let i = 0; i < sole.length; i++) flagDiff(b, c, sole[i]!, b.f.from[sole[i]!]!, 0, 1);
  return c;
}

/** A new candidate deciding v, with no differences from the base yet but v's own (no) sets. */
function candidate(b: Base, v: number, pre: Int32Array): Candidate {
  const { n, m } = b.f;
  // Its flag arrays are views of the base's pools, one slot per candidate (all clear).
  const k = b.made++;
  const u8 = b.u8.subarray(k * (3 * n + m), (k + 1) * (3 * n + m));
  const c: Candidate = {
    v, pre, own: u8.subarray(0, n), sets: new Array(n), ok: u8.subarray(n, 2 * n), ref: new Array(m),
    diffE: u8.subarray(3 * n), diffOut: b.i32.subarray(k * n, (k + 1) * n), diffV: [], inDiffV: u8.subarray(2 * n, 3 * n), tick: -1,
  };
  owned(b, c, v);
  return c;
}

/**
 * The step 3 of a candidate whose steps 1 and 2 are made again (one of v's out-edges is a blocking
 * edge of the base's), on its flags after step 2 (`cw`; the edges `ins[0 .. ilen)`: its blocking
 * witnesses `pre`, then the base's first `shared` chords, then its own chords; the base's were
 * `two`: its blocking witnesses, then its chords): the predicates whose base walks read a vertex
 * with an out-edge witnessed after step 2 by one of the two only are walked again, and keep their
 * sets as their own where these differ from the base's; then the witnesses none of its predicates
 * sees are dropped, and the flags are kept as their differences from the base's. Only edges held
 * by its own predicates (in the base's sets or in its own) or witnessed by one of the two only may
 * differ after step 3: any other edge the candidate witnesses has a holder it shares with the base,
 * which kept it too. `askedAt`: by vertex, a stamp no other candidate uses (`stamp`) where asked.
 */
function stepThree(
  b: Base, v: number, pre: Int32Array, cw: Uint8Array, ins: Int32Array, ilen: number, shared: number, two: { wit2: Uint8Array; pre: Int32Array; chords: Int32Array },
  readers: readonly (number[] | undefined)[], scratch: Walks, askedAt: Int32Array, stamp: number,
): Candidate {
  const from = b.f.from;
  const c = candidate(b, v, pre);
  // The edges witnessed after step 2 by one of the two only (its own first, in order), and the
  // predicates that read them.
  const changed: number[] = [];
  for (let i = 0; i < pre.length; i++) if (!two.wit2[pre[i]!]) changed.push(pre[i]!);
  for (let i = pre.length + shared; i < ilen; i++) if (!two.wit2[ins[i]!]) changed.push(ins[i]!);
  const mine = changed.length;
  for (let i = 0; i < two.pre.length; i++) if (!cw[two.pre[i]!]) changed.push(two.pre[i]!);
  for (let i = shared; i < two.chords.length; i++) if (!cw[two.chords[i]!]) changed.push(two.chords[i]!);
  const ask: number[] = [];
  for (let i = 0; i < changed.length; i++) {
    const rs = readers[from[changed[i]!]!];
    if (rs === undefined) continue;
    for (let k = 0; k < rs.length; k++) {
      const p = rs[k]!;
      if (p !== v && askedAt[p] !== stamp) {
        askedAt[p] = stamp;
        ask.push(p);
      }
    }
  }
  scratch.wit = cw;
  const own: number[] = [v];
  for (let k = 0; k < ask.length; k++) {
    const p = ask[k]!;
    const ps = scratch.witnessSets(p);
    if (sameSets(ps, b.sets[p]!)) continue;
    owned(b, c, p);
    own.push(p);
    c.sets[p] = ps;
    c.ok[p] = ok(ps) ? 1 : 0;
    for (let i = 0; i < ps.sets.length; i++) ps.sets[i]!.forEach((x) => referC(b, c, x, p));
  }
  for (let k = 0; k < own.length; k++) {
    const p = own[k]!;
    dropUnseen(b, c, cw, b.sets[p]!);
    if (c.sets[p] !== undefined) dropUnseen(b, c, cw, c.sets[p]!);
  }
  // The base's witnessed edges the candidate's steps 1 and 2 did not witness.
  const bw = b.walks.wit;
  for (let i = mine; i < changed.length; i++) if (bw[changed[i]!]) flagDiff(b, c, changed[i]!, from[changed[i]!]!, 0, 1);
  return c;
}

/**
 * Step 3's drop, for the candidate, of the edges of a predicate's sets `ps` it witnesses (flags
 * `cw`): an edge none of its predicates' sets hold (none of its own, and no predicate it shares
 * with the base) is dropped; its flag is kept as its difference from the base's after step 3.
 */
function dropUnseen(b: Base, c: Candidate, cw: Uint8Array, ps: PredSets): void {
  const bw = b.walks.wit;
  const from = b.f.from;
  for (let i = 0; i < ps.sets.length; i++) {
    ps.sets[i]!.forEach((e) => {
      if (!cw[e]) return;
      if (c.ref[e] === undefined && noneShared(c.own, b.refBy[e])) cw[e] = 0;
      if (cw[e] !== bw[e]) flagDiff(b, c, e, from[e]!, cw[e]!, bw[e]!);
    });
  }
}

/** Marks p's sets as the candidate's own (p = v: v has none). */
function owned(b: Base, c: Candidate, p: number): void {
  c.own[p] = 1;
  const l = b.ownedBy[p];
  if (l === undefined) b.ownedBy[p] = [c];
  else l.push(c);
}

/** Adds p to the candidate's predicates of its own that hold edge x (once). */
function referC(b: Base, c: Candidate, x: number, p: number): void {
  const by = c.ref[x];
  if (by === undefined) {
    c.ref[x] = [p];
    const l = b.refC[x];
    if (l === undefined) b.refC[x] = [c];
    else l.push(c);
  } else if (!by.includes(p)) by.push(p);
}

/** Whether no predicate in `by` (undefined: none) is one the candidate shares with the base. */
function noneShared(own: Uint8Array, by: readonly number[] | undefined): boolean {
  if (by === undefined) return true;
  for (let k = 0; k < by.length; k++) if (!own[by[k]!]) return false;
  return true;
}

/** Whether the base's last walk visited no vertex whose out-edges' flags differ in the candidate (its walk is then the same). */
function sameWalk(c: Candidate, walks: Walks): boolean {
  const dv = c.diffV;
  if (dv.length <= walks.nTrail) {
    for (let k = 0; k < dv.length; k++) if (c.diffOut[dv[k]!]! > 0 && walks.reached(dv[k]!)) return false;
    return true;
  }
  for (let k = 0; k < walks.nTrail; k++) if (c.diffOut[walks.trail[k]!]! > 0) return false;
  return true;
}

/**
 * Step 4's test of witness w for a candidate whose walk beyond w is the base's (the same flags
 * on every vertex it visits: B is the base's `walks.found`), the base's test having found the
 * first predicate of `by` the drop breaks at `fail` (-1: none, `drop`). The candidate's holders
 * are the predicates of `by` it shares with the base, tested alike, and its own in `c.ref[w]`.
 * Where the two differ, the shared predicates the base is about to change, or those the candidate
 * changes and the base keeps, become its own first; dropped by both, the shared sets change with
 * the base's and its own ones here. Returns the candidate's flag of w.
 */
function followBase(b: Base, c: Candidate, w: number, by: readonly number[], fail: number, drop: boolean): number {
  const walks = b.walks;
  const found = walks.found;
  const nb = walks.nFound;
  if (!drop && !c.own[by[fail]!]) return 1; // a shared holder breaks: the candidate keeps w too
  const mine = c.ref[w];
  let keep = false;
  if (mine !== undefined) for (let k = 0; k < mine.length && !keep; k++) keep = breaks(w, found, nb, c.sets[mine[k]!]!, c.ok[mine[k]!]!);
  if (drop) {
    if (keep) {
      adoptAll(b, c, by);
      return 1;
    }
  } else {
    // The shared holders before `fail` passed the base's test; those after it are tested here.
    for (let k = fail + 1; k < by.length && !keep; k++) if (!c.own[by[k]!]) keep = breaks(w, found, nb, b.sets[by[k]!]!, b.okNow[by[k]!]!);
    if (keep) return 1;
    adoptAll(b, c, by);
  }
  const holders = c.ref[w];
  if (holders !== undefined) {
    for (let k = 0; k < holders.length; k++) {
      const p = holders[k]!;
      dropFrom(c.sets[p]!, w, found, nb);
      c.ok[p] = 1;
      for (let t = 0; t < nb; t++) referC(b, c, found[t]!, p);
    }
  }
  c.ref[w] = undefined;
  return 0;
}

/**
 * Step 4's test of witness w on the candidate's own state (`by`: the predicates whose base sets
 * hold w); when w goes, every predicate that held it has sets of its own, changed. True: dropped.
 */
function testOwn(b: Base, c: Candidate, w: number, by: readonly number[] | undefined, scratch: Walks): boolean {
  const holders: number[] = [];
  if (by !== undefined) for (let k = 0; k < by.length; k++) if (!c.own[by[k]!]) holders.push(by[k]!);
  const mine = c.ref[w];
  if (mine !== undefined) for (let k = 0; k < mine.length; k++) holders.push(mine[k]!);
  if (holders.length === 0) return true;
  // The candidate's flags: the base's with its differences.
  const cw = scratch.wit;
  cw.set(b.walks.wit);
  const { outStart, outList } = b.f;
  for (let k = 0; k < c.diffV.length; k++) {
    const x = c.diffV[k]!;
    if (c.diffOut[x] === 0) continue;
    for (let j = outStart[x]!; j < outStart[x + 1]!; j++) {
      const e = outList[j]!;
      if (c.diffE[e]) cw[e] ^= 1;
    }
  }
  if (scratch.walk(w, w)) return false;
  const nb = scratch.nFound;
  const pss: PredSets[] = [];
  const oks: number[] = [];
  for (let k = 0; k < holders.length; k++) {
    const p = holders[k]!;
    pss.push(c.own[p] ? c.sets[p]! : b.sets[p]!);
    oks.push(c.own[p] ? c.ok[p]! : b.okNow[p]!);
  }
  if (!canDrop(w, scratch.found, nb, pss, oks)) return false;
  for (let k = 0; k < holders.length; k++) {
    const p = holders[k]!;
    if (!c.own[p]) adopt(b, c, p);
    dropFrom(c.sets[p]!, w, scratch.found, nb);
    c.ok[p] = 1;
    for (let t = 0; t < nb; t++) referC(b, c, scratch.found[t]!, p);
  }
  c.ref[w] = undefined;
  return true;
}

/** Makes predicate p's sets the candidate's own: a copy of the base's as they are now. */
function adopt(b: Base, c: Candidate, p: number): void {
  const ps = b.sets[p]!;
  const copy: PredSets = { edges: ps.edges, sets: ps.sets.map((s) => new Set(s)), open: ps.open };
  owned(b, c, p);
  c.sets[p] = copy;
  c.ok[p] = b.okNow[p]!;
  for (let i = 0; i < copy.sets.length; i++) copy.sets[i]!.forEach((x) => referC(b, c, x, p));
}

/** adopt for every predicate in `by` the candidate still shares (the base is about to change their sets). */
function adoptAll(b: Base, c: Candidate, by: readonly number[]): void {
  for (let k = 0; k < by.length; k++) if (!c.own[by[k]!]) adopt(b, c, by[k]!);
}

/** Records whether edge w (out of vertex u) differs once the candidate's flag is `flag` and the base's `after`. */
function flagDiff(b: Base, c: Candidate, w: number, u: number, flag: number, after: number): void {
  const d = flag !== after ? 1 : 0;
  if (d === c.diffE[w]) return;
  c.diffE[w] = d;
  if (d) {
    if (c.diffOut[u]++ === 0 && !c.inDiffV[u]) {
      c.inDiffV[u] = 1;
      c.diffV.push(u);
      const l = b.diffC[u];
      if (l === undefined) b.diffC[u] = [c];
      else l.push(c);
    }
  } else c.diffOut[u]!--;
}

/**
 * The candidate's witnessed edges in placeWitnessSet's order: its blocking witnesses (`c.pre`),
 * then the chords heaviest first (`orderPos`: by edge, its position in that order). Made from the
 * base's (`baseWitnessed`, whose first `basePreLen` are blocking witnesses) and the edges whose
 * flags differ. `mark`: all clear, left so.
 */
function witnessedOf(
  f: PlacementFrame, c: Candidate, wit: Uint8Array, baseWitnessed: readonly number[], basePreLen: number, orderPos: Int32Array, mark: Uint8Array,
): number[] {
  const out: number[] = [];
  const { pre, diffE } = c;
  for (let i = 0; i < pre.length; i++) {
    const e = pre[i]!;
    mark[e] = 1;
    if (wit[e]! ^ diffE[e]!) out.push(e);
  }
  // Chords of the candidate the base's chords do not list: its blocking witnesses that are not
  // the candidate's, and the edges only the candidate witnesses.
  const more: number[] = [];
  for (let i = 0; i < basePreLen; i++) {
    const e = baseWitnessed[i]!;
    if (!mark[e] && !diffE[e]) more.push(e);
  }
  const { outStart, outList } = f;
  for (let k = 0; k < c.diffV.length; k++) {
    const x = c.diffV[k]!;
    if (c.diffOut[x] === 0) continue;
    for (let j = outStart[x]!; j < outStart[x + 1]!; j++) {
      const e = outList[j]!;
      if (diffE[e] && !wit[e] && !mark[e]) more.push(e);
    }
  }
  more.sort((x, y) => orderPos[x]! - orderPos[y]!);
  let j = 0;
  for (let i = basePreLen; i < baseWitnessed.length; i++) {
    const e = baseWitnessed[i]!;
    if (mark[e] || diffE[e]) continue;
    while (j < more.length && orderPos[more[j]!]! < orderPos[e]!) out.push(more[j++]!);
    out.push(e);
  }
  while (j < more.length) out.push(more[j++]!);
  for (let i = 0; i < pre.length; i++) mark[pre[i]!] = 0;
  return out;
}

/** Whether two predicates' sets (of the same out-edges) hold the same edges and are open alike. */
function sameSets(a: PredSets, b: PredSets): boolean {
  if (a.open !== b.open || a.sets.length !== b.sets.length) return false;
  for (let i = 0; i < a.sets.length; i++) {
    const x = a.sets[i]!;
    const y = b.sets[i]!;
    if (x.size !== y.size) return false;
    for (const e of x) if (!y.has(e)) return false;
  }
  return true;
}

/** Whether one of v's out-edges is flagged in `inBl`. */
function blocksOut(f: PlacementFrame, v: number, inBl: Uint8Array): boolean {
  for (let j = f.outStart[v]!; j < f.outStart[v + 1]!; j++) if (inBl[f.outList[j]!]) return true;
  return false;
}
