/**
 * Leaving functions other than by return (mazieres-smith-1994 2.2.3): setjmp / longjmp, whose
 * regeneration snapshots the procedure stack at the setjmp and takes it back at the longjmp, and
 * the non-local goto (`__builtin_longjmp`, a nested function's goto), an indirect jump into a label
 * of a function an activation of which is on the stack. These are RegenProcess's operations for
 * them (its methods delegate here).
 */
import type { RFunc } from './model.js';
import { MIPS_CALLEE_SAVED, MIPS_SP, NO_SLOTS, SPARC_SP, type Frame } from './frame.js';
import type { RegenProcess } from './process.js';

/** What a setjmp leaves for the longjmp that names its jmp_buf. */
export interface JmpSnapshot {
  frames: Frame[];
  regs: Int32Array;
  wb: number;
}

/**
 * A non-local goto (`__builtin_longjmp`, a nested function's goto): an indirect jump into
 * another function at a label, not at its start, resumes an activation of that function. The
 * frames above it are dropped and its callee-saved registers (MIPS), window (SPARC) and stack
 * slots (returned) are those of that activation, as a return to it would leave them. The stack
 * pointer is not: the jumping code loaded it (from the `__builtin_setjmp` buffer, or the
 * nonlocal-goto save area), and it can differ from the one at the activation's call (`alloca`
 * between the setjmp and the call). Under carrySp the jump's out-edge roots %sp
 * (tracer/slice.ts, tracer/conservative.ts), so the value held here is the one the label runs
 * with, and the label's entry carries it (tracer/dataflow.ts `knows`); without carrySp the
 * entry records %sp if the code there needs it. The label is an entry, whose records give
 * whatever else the code needs.
 *
 * Which activation: the only one on the stack; of several (recursion), the one whose stack
 * region holds that stack pointer, from its stack pointer at its call up to the one it was
 * entered with (its caller's at the call). The frames' stack pointers are exact under carrySp
 * only (rooted at every call): without it, a jump into one of several activations is refused.
 */
export function unwindTo(p: RegenProcess, t: { fn: RFunc; block: number }): Map<number, number> | undefined {
  if (t.fn === p.fn || t.fn.blocks[t.block]!.addr === t.fn.addr) return undefined;
  const spIdx = (): number => (p.prog.sparc ? p.idx(SPARC_SP) : MIPS_SP);
  const sp = p.R[spIdx()]! >>> 0;
  const frameSp = (f: Frame): number => (p.prog.sparc ? f.regs[0]! : f.regs[MIPS_CALLEE_SAVED.indexOf(MIPS_SP)]!) >>> 0;
  const ks: number[] = [];
  for (let k = p.frames.length - 1; k >= 0; k--) {
    const f = p.frames[k]!;
    if (f.kind === 'call' && f.fn === t.fn) ks.push(k);
  }
  if (ks.length === 0) return undefined;
  let at = ks[0]!;
  if (ks.length > 1) {
    const name = `non-local goto into ${t.fn.name} at 0x${(t.fn.blocks[t.block]!.addr >>> 0).toString(16)}`;
    if (!p.prog.schema.options.carrySp) throw p.error(`${name}: ${ks.length} activations and no carried stack pointer to tell which (instrumented with --no-carry-sp)`);
    const holds = (k: number): boolean => {
      const below = p.frames[k - 1];
      return frameSp(p.frames[k]!) <= sp && (below?.kind !== 'call' || sp < frameSp(below));
    };
    const found = ks.find(holds);
    if (found === undefined) throw p.error(`${name}: no activation's stack holds the stack pointer 0x${sp.toString(16)}`);
    at = found;
  }
  const f = p.frames[at]!;
  p.frames.length = at;
  p.restoreCallee(f);
  p.R[spIdx()] = sp | 0;
  return f.slots;
}

/**
 * At the entry of setjmp (the caller's state is snapshot under the jmp_buf address, its first
 * argument) or of longjmp (the jmp_buf it will return through).
 */
export function jmpEntryOf(p: RegenProcess): void {
  const a0 = p.prog.sparc ? 8 : 4;
  const buf = p.reg(a0) >>> 0;
  if (p.fn.role === 'longjmp') {
    p.jbuf = buf;
    return;
  }
  // The caller resumes after its call when a longjmp names this buffer, with the slots its
  // activations have then (so each gets its own Map now: see NoSlots).
  for (const f of p.frames) if (f.slots === NO_SLOTS) f.slots = new Map();
  p.jmpbufs.set(buf, { frames: p.frames.slice(), regs: p.R.slice(), wb: p.wb });
}

/** longjmp's return: back into the activation that called the setjmp, as its snapshot left it. */
export function longjmpOf(p: RegenProcess): void {
  const s = p.jmpbufs.get(p.jbuf);
  if (!s) throw p.error(`longjmp to jmp_buf 0x${p.jbuf.toString(16)}, which no setjmp filled`);
  p.frames = s.frames.slice();
  const f = p.frames.pop();
  if (!f || f.kind !== 'call') throw p.error('longjmp to a setjmp with no caller');
  // MIPS: longjmp reloads the callee-saved registers from the buffer, i.e. their values at the
  // setjmp. SPARC: the windows it restored hold the caller's current values already, except
  // %sp, which it sets from the buffer (a signal frame may have moved it).
  if (!p.prog.sparc) for (const r of MIPS_CALLEE_SAVED) p.R[r] = s.regs[r]!;
  else p.R[s.wb + SPARC_SP] = s.regs[s.wb + SPARC_SP]!;
  p.wb = s.wb;
  p.resumeIn(f);
  p.pending = -1;
}
