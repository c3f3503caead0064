/**
 * The end of a process between a branch and its witness (regen/multi.ts): the process executed
 * its branch (and maybe more) but never wrote the witness that says which way it went — it was
 * killed, exec'ed, or a signal handler took it elsewhere first. Every path is tried up to `stop`
 * without reading the stream (branching again at further predicates); those that reach exactly
 * `stop` — and, when the kernel's marker gives it, at the PC `pc` — must agree on the events. The
 * agreed events are delivered and that state adopted (RegenProcess.adopt).
 *
 * This is RegenProcess.speculate (the method delegates here).
 */
import type { EventSink, RegenProcess } from './process.js';

/** Runs p's speculation up to instruction `stop` (at `pc` when given); throws a RegenError when no path or several different ones fit. */
export function speculateTo(p: RegenProcess, stop: number, pc?: number): void {
  type Ev = [number, number, number];
  const fits: { p: RegenProcess; ev: Ev[] }[] = [];
  let explored = 0;
  // Depth first, with an explicit stack (a path may branch again at thousands of predicates
  // before `stop`: deeper than the JavaScript stack).
  const stack: { from: RegenProcess; ev0: Ev[]; ws: Iterator<number> }[] = [];
  const push = (from: RegenProcess, ev0: Ev[]): void => void stack.push({ from, ev0, ws: from.fn.blocks[from.id]!.wt!.keys() });
  push(p, []);
  while (stack.length > 0) {
    const { from, ev0, ws } = stack[stack.length - 1]!;
    const next = ws.next();
    if (next.done) {
      stack.pop();
      continue;
    }
    const w = next.value;
    if (++explored > 4096) throw p.error(`too many paths to try before instruction ${stop} without witnesses`);
    const ev = ev0.slice();
    const rec: EventSink = { ifetch: (a) => ev.push([0, a, 4]), load: (a, n) => ev.push([1, a, n]), store: (a, n) => ev.push([2, a, n]) };
    const c = from.clone(from.reader.clone(), rec, (r) => r);
    c.compiled = false;
    c.pending = w;
    try {
      c.run(stop);
    } catch {
      continue;
    }
    if (c.ic === stop) {
      if (pc === undefined || c.isAt(pc)) fits.push({ p: c, ev });
    } else if (c.waitsForWitness()) {
      push(c, ev);
    }
  }
  if (fits.length === 0) throw p.error(`no path from this predicate reaches instruction ${stop}${pc === undefined ? '' : ` at 0x${(pc >>> 0).toString(16)}`} without witnesses, which the trace does not hold`);
  const key = (ev: Ev[]): string => ev.map((e) => e.join(',')).join(';');
  const k0 = key(fits[0]!.ev);
  if (fits.some((f) => key(f.ev) !== k0)) throw p.error(`the paths from this predicate disagree before instruction ${stop} and the trace holds no witness to choose`);
  for (const [kind, a, n] of fits[0]!.ev) {
    if (kind === 0) p.sink.ifetch(a);
    else if (kind === 1) p.sink.load(a, n);
    else p.sink.store(a, n);
  }
  p.adopt(fits[0]!.p);
}
