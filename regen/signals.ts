/**
 * Signals in abstract execution (mazieres-smith-1994 3.2.2; docs/trace-bundle.md section 3): a
 * SIGNAL marker says the kernel entered a handler with the interrupted code resuming at `pc`
 * (an instrumented address); SIGRETURN says the interrupted context came back. Regeneration keeps
 * the interrupted state in a signal frame, runs the program's __sigtramp with the handler's own
 * part of the trace (its context reader), and restores the state at sigreturn. A system call
 * interrupted with SA_RESTART fetches its trap instruction again after the handler, as the CPU
 * does, and so does a MIPS branch whose delay slot the signal interrupted.
 *
 * These are RegenProcess's signal operations (its methods delegate here).
 */
import type { Item } from '../format/schema.js';
import { itemCost } from './model.js';
import { AT_BLOCK, AT_EDGE, AT_ENTRY, type Frame } from './frame.js';
import type { RegenProcess } from './process.js';
import type { ContextReader } from './stream.js';

/** The instrumented PC p would execute next (for checking the markers). */
export function nextPcOf(p: RegenProcess): number {
  if (p.prologueLeft > 0) {
    const pro = p.prog.schema.prologue;
    return (pro.addr + 4 * (pro.count - p.prologueLeft)) >>> 0;
  }
  const fn = p.fn;
  const words = (items: Item[], n: number): number => {
    let w = 0;
    for (let i = 0; i < n; i++) w += items[i]![0] === 'd' ? 0 : itemCost(items[i]!);
    return w;
  };
  switch (p.at) {
    case AT_ENTRY: {
      const en = fn.entries.get(p.id)!;
      return en.naddr + 4 * (words(en.items, p.item) + p.sub);
    }
    case AT_BLOCK: {
      const b = fn.blocks[p.id]!;
      return b.naddr + 4 * (words(b.items, p.item) + p.sub);
    }
    default: {
      const e = fn.edges[p.id]!;
      const from = fn.blocks[e.from]!;
      if (p.item === 0 && e.items[0]?.[0] === 'd') return from.naddr + 4 * words(from.items, from.items.length);
      const skip = e.items[0]?.[0] === 'd' ? 1 : 0;
      const base = e.naddr ?? NaN;
      let w = 0;
      for (let i = skip; i < p.item; i++) w += itemCost(e.items[i]!);
      return base + 4 * (w + p.sub);
    }
  }
}

/** Instrumented address of the system call p just executed, or -1. */
function syscallNewPc(p: RegenProcess): number {
  // The system call ends its block; regeneration may have moved on to the next block already
  // (through transfers that execute nothing), but not out of the function.
  const s = p.lastSyscall;
  for (const b of p.fn.blocks) {
    if ((b.term !== 'trap' && b.term !== 'halt') || s !== b.addr + 4 * (b.n - 1)) continue;
    let w = 0;
    for (const it of b.items) {
      if (it[0] === 'o' && b.addr + 4 * it[1] === s) return b.naddr + 4 * w;
      w += itemCost(it);
    }
  }
  return -1;
}

/** True when p resumes at instrumented address pc (or restarts the system call there). */
export function isAtPc(p: RegenProcess, pc: number): boolean {
  return nextPcOf(p) === pc >>> 0 || (p.lastSyscall >= 0 && syscallNewPc(p) === pc >>> 0);
}

/**
 * Delivers a signal at the current point: the interrupted state is kept in a signal frame and
 * the trampoline runs with the handler's context reader. `pc` is the kernel's resume address.
 */
export function deliverSignalTo(p: RegenProcess, pc: number, reader: ContextReader): void {
  const tramp = p.prog.funcWithRole('sigtramp');
  if (!tramp) throw p.error('a signal handler runs, but the program has no __sigtramp');
  // exec resets caught signals to SIG_DFL, so no handler can run before the prologue ends.
  if (p.prologueLeft > 0) throw p.error('a signal handler runs inside the prologue, before the program started');
  const here = nextPcOf(p);
  let restart: number | undefined;
  if (here !== pc >>> 0) {
    if (p.lastSyscall >= 0 && syscallNewPc(p) === pc >>> 0) restart = p.lastSyscall;
    else throw p.error(`signal delivered at 0x${(pc >>> 0).toString(16)}, regeneration is at 0x${here.toString(16)}`);
  }
  const f: Frame = {
    kind: 'signal', fn: p.fn, at: p.at, id: p.id, item: p.item, sub: p.sub, regs: p.R.slice(), wb: p.wb, y: p.y,
    slots: p.slots, pending: p.pending, reader: p.reader,
  };
  if (restart !== undefined) f.restart = restart;
  p.frames.push(f);
  p.pending = -1;
  p.reader = reader;
  p.enter(tramp, 0);
}

/** sigreturn: back to the interrupted state of the innermost signal frame. */
export function sigreturnOf(p: RegenProcess): void {
  let f: Frame | undefined;
  while ((f = p.frames.pop()) && f.kind !== 'signal');
  if (!f) throw p.error('sigreturn with no signal frame');
  if (!(f.regs instanceof Int32Array)) throw p.error('a signal frame without its register file');
  p.R = f.regs;
  p.wb = f.wb;
  p.y = f.y;
  p.slots = f.slots;
  p.fn = f.fn;
  p.at = f.at;
  p.id = f.id;
  p.item = f.item;
  p.sub = f.sub ?? 0;
  p.pending = f.pending ?? -1;
  p.reader = f.reader!;
  if (f.restart !== undefined) {
    // The system call the signal interrupted executes again (SA_RESTART).
    p.sink.ifetch(f.restart);
    p.ic++;
  } else {
    // Interrupted between a MIPS branch and its delay slot: sigcontext has one PC, the branch's
    // (EPC with Cause.BD, as 4.4BSD pmax's sendsig saves it), so the branch executes again.
    const branch = interruptedBranch(p, f);
    if (branch >= 0) {
      p.sink.ifetch(branch);
      p.ic++;
    }
  }
}

/**
 * The original address of the MIPS branch whose delay slot a signal frame's state executes next
 * (the end of the branch's block, or its out-edge before the delay slot), or -1.
 */
function interruptedBranch(p: RegenProcess, f: Frame): number {
  if (p.prog.sparc) return -1;
  const fn = f.fn;
  let b;
  if (f.at === AT_EDGE && f.item === 0 && fn.edges[f.id]!.items[0]?.[0] === 'd') b = fn.blocks[fn.edges[f.id]!.from]!;
  else if (f.at === AT_BLOCK && f.item === fn.blocks[f.id]!.items.length && fn.blocks[f.id]!.succ.some((e) => fn.edges[e]!.items[0]?.[0] === 'd')) b = fn.blocks[f.id]!;
  else return -1;
  const last = b.items[b.items.length - 1];
  return last && last[0] === 'o' && last[1] === b.n - 1 ? b.addr + 4 * (b.n - 1) : -1;
}
