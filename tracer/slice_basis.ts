/**
 * When a slice may take an earlier slice's dataflows and frame analysis (tracer/slice.ts
 * SliceOptions.prior): the options they depend on, compared field by field.
 */
import type { DataflowOptions } from './dataflow.js';
import type { SliceOptions } from './slice.js';
import type { SlotAccess } from './slots.js';

/**
 * The options a slice's dataflows and frame analysis depend on (SliceOptions.prior): the carry
 * mode, whether the kernel enters the function, slot tracking, the provided registers, the
 * returned and kept registers of calls, the proven loads (their addresses).
 */
export interface BasisOptions {
  carrySp: boolean;
  kernelEntered: boolean;
  noSlots: boolean;
  provided: readonly number[];
  returned: ReadonlyMap<number, readonly number[]> | undefined;
  callKeeps: ReadonlyMap<number, readonly number[]> | undefined;
  roLoads: ReadonlyMap<number, unknown>;
}

/** What of `opts` (with the kernel-entry role and the proven loads) a slice's basis depends on. */
export function basisOptions(opts: SliceOptions, kernelEntered: boolean, roLoads: ReadonlyMap<number, unknown>): BasisOptions {
  return {
    carrySp: opts.carrySp, kernelEntered, noSlots: opts.noSlots ?? false, provided: opts.provided ?? [], returned: opts.returned, callKeeps: opts.callKeeps, roLoads,
  };
}

/** The same tracked slot accesses. */
export function sameSlots(a: DataflowOptions['slots'], b: ReadonlyMap<number, SlotAccess>): boolean {
  if (!a || a.size !== b.size) return false;
  let same = true;
  b.forEach((x, addr) => {
    const y = a.get(addr);
    if (same && (y === undefined || y.slot !== x.slot || y.kind !== x.kind || y.reg !== x.reg)) same = false;
  });
  return same;
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Two maps of registers by call block the same (no map: none). */
function sameByBlock(a: ReadonlyMap<number, readonly number[]> | undefined, b: ReadonlyMap<number, readonly number[]> | undefined): boolean {
  if (a === b) return true;
  if ((a?.size ?? 0) !== (b?.size ?? 0)) return false;
  let same = true;
  a?.forEach((l, k) => {
    const m = b!.get(k);
    if (same && (m === undefined || !sameList(l, m))) same = false;
  });
  return same;
}

/**
 * The same options (`withReturned` false: but for the returned registers of calls, which change no
 * reaching definition, Dataflow.withReturned; `provided` false: but for the provided registers).
 */
export function sameBasis(a: BasisOptions, b: BasisOptions, withReturned: boolean, provided = true): boolean {
  if (a.carrySp !== b.carrySp || a.kernelEntered !== b.kernelEntered || a.noSlots !== b.noSlots || (provided && !sameList(a.provided, b.provided))) return false;
  if ((withReturned && !sameByBlock(a.returned, b.returned)) || !sameByBlock(a.callKeeps, b.callKeeps)) return false;
  if (a.roLoads === b.roLoads) return true;
  if (a.roLoads.size !== b.roLoads.size) return false;
  let same = true;
  a.roLoads.forEach((_, k) => {
    if (same && !b.roLoads.has(k)) same = false;
  });
  return same;
}
