/**
 * What deciding one more predicate saves in witnesses (issue 6, docs/tracer.md "Predicates
 * outside loops decided by the cut"): the cut (tracer/cut.ts PredRoot) weighs a predicate's
 * witness against the records that would decide it, so the witness must be priced at what the
 * placement (tracer/placement.ts) would actually stop writing. That is not simply the predicate's
 * lighter out-edge: a witness another undecided predicate's sets still need stays, and the
 * blocking points behind the predicate (calls, records, EXIT) that lose their nearest predicate
 * are blocked one predicate earlier instead, on the edges into it, which are as frequent as the
 * predicate itself.
 *
 * So the price is measured on the placement: the estimated witness bytes of the whole function
 * (every witnessed edge's estimated frequency, tracer/frequency.ts, times the witness width)
 * with the predicates already decided, minus the same with the candidate decided as well. Each
 * price is marginal (every other predicate stays as it is, as the cut's nodes are priced
 * independently), and the records a decision needs are not placed (they may add blocking points
 * of their own).
 */
import type { Cfg } from './cfg.js';
import { decidedAmong } from './decide.js';
import { predicateOperands } from './predicates.js';
import { findLoops } from './frequency.js';
import type { Isa } from './isa.js';
import { placementInput, placeWitnessSet, type PlacementInput, type WitnessSet } from './placement.js';
import { placeDecidingEach } from './place_each.js';
import { invariantInputs, type SliceResult } from './slice.js';

/**
 * Per two-way predicate that `slice` leaves undecided but whose form tracer/decide.ts decides,
 * outside every loop or inside one whose definitions its operands need in that innermost loop are
 * all computable (tracer/slice.ts invariantInputs: the records that decide it are made outside the
 * loop, once per entry; a record in the loop would be a blocking point there): the estimated
 * witness bytes deciding it as well would save, on the placement of `slice` with the predicates it
 * decides (edgeFreq: tracer/frequency.ts, indexed like cfg.edges); only the predicates where that
 * is more than nothing. These are the prices of the cut's predicate nodes outside loop nodes
 * (tracer/slice.ts SliceOptions.predCosts).
 */
export function predicateSavings(cfg: Cfg, isa: Isa, slice: SliceResult, edgeFreq: readonly number[]): Map<number, number> {
  const ops = predicateOperands(cfg, isa, slice.df);
  if (ops.length === 0) return new Map();
  const loops = findLoops(cfg);
  // Whether each predicate may be priced by where it lies (1 yes, 0 no, -1 not asked yet): a
  // function where none may has no candidates whichever the slice decides, and is left before
  // asking (decidedAmong walks every operand's definitions).
  const lies = new Int8Array(ops.length).fill(-1);
  const liesOk = (k: number): boolean => {
    if (lies[k] === -1) {
      const p = ops[k]!;
      const h = loops.inner[p.block]!;
      lies[k] = h === -1 || invariantInputs(slice.df, p.state, p.regs, loops.loops.get(h)!) ? 1 : 0;
    }
    return lies[k] === 1;
  };
  let any = false;
  for (let k = 0; k < ops.length && !any; k++) any = liesOk(k);
  if (!any) return new Map();
  const decided = decidedAmong(slice, ops);
  const candidates: number[] = [];
  for (let k = 0; k < ops.length; k++) if (!decided.has(ops[k]!.block) && liesOk(k)) candidates.push(ops[k]!.block);
  if (candidates.length === 0) return new Map();
  return decisionSavings(placementInput(cfg, slice, decided), candidates, edgeFreq);
}

/**
 * Estimated witness bytes of the placement of `input`: Σ frequency of every witnessed edge × witness
 * width (summed in the order placeWitnesses' set holds the edges).
 */
export function witnessBytes(input: PlacementInput, edgeFreq: readonly number[]): number {
  return bytesOf(placeWitnessSet(input), edgeFreq);
}

function bytesOf(pl: WitnessSet, edgeFreq: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < pl.witnessed.length; i++) n += edgeFreq[pl.witnessed[i]!] ?? 0;
  return n * pl.bytes;
}

/**
 * Per candidate vertex (a two-way predicate of `input` not in `input.decided`): the estimated
 * witness bytes that deciding it as well saves; candidates whose decision saves nothing (or, the
 * placement being a heuristic, costs witnesses) are left out. A candidate whose placement is the
 * base one (placeDecidingEach) saves nothing.
 */
export function decisionSavings(input: PlacementInput, candidates: readonly number[], edgeFreq: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  if (candidates.length === 0) return out;
  const decided = input.decided ?? new Set<number>();
  const asked = candidates.filter((v) => !decided.has(v));
  const { base, each } = placeDecidingEach(input, asked);
  const before = bytesOf(base, edgeFreq);
  for (let k = 0; k < asked.length; k++) {
    const pl = each[k];
    if (pl === undefined) continue;
    const saved = before - bytesOf(pl, edgeFreq);
    if (saved > 1e-9) out.set(asked[k]!, saved);
  }
  return out;
}
