/**
 * The functions that can run (docs/tracer.md "Functions nothing reaches"): those reachable from
 * the program's entry point, from the functions with a role (the kernel enters the signal
 * trampoline; setjmp and longjmp are handled by regeneration itself), and from every code address
 * the program forms (relocated words and references, addresses built in code: the executable
 * carries the relocations of every address it forms, tracer/program.ts), through direct calls,
 * jumps into other functions and falls off a function's end (the CFGs' call and tail vertices).
 * An indirect call or jump goes to an address formed somewhere, hence to a root.
 *
 * A function outside this set never runs. It is still instrumented so that regeneration would
 * be right if it did, but the analyses that only make the trace smaller (the predicate pricing,
 * tracer/pred_cost.ts) skip it: its trace is empty.
 */
import type { Cfg } from './cfg.js';
import type { Program } from './program.js';

/**
 * Indexes (prog.funcs) of the functions reachable as described above; `cfgs` indexed like
 * prog.funcs, `codeValues` the code addresses the jump-table resolution found formed in code.
 */
export function reachedFunctions(prog: Program, cfgs: readonly Cfg[], codeValues: readonly number[]): Uint8Array {
  const reached = new Uint8Array(prog.funcs.length);
  const work: number[] = [];
  const visit = (addr: number): void => {
    const g = prog.funcAt(addr);
    if (g === undefined || reached[g.index] !== 0) return;
    reached[g.index] = 1;
    work.push(g.index);
  };
  visit(prog.entry);
  for (const f of prog.funcs) if (f.role !== undefined) visit(f.addr);
  for (const v of prog.codeWords.values()) visit(v);
  for (const v of prog.codeRefs) visit(v);
  for (const ci of prog.codeImmediates.values()) if (ci.target !== undefined) visit(ci.target);
  for (let i = 0; i < codeValues.length; i++) visit(codeValues[i]!);
  while (work.length > 0) {
    const blocks = cfgs[work.pop()!]!.blocks;
    for (let k = 0; k < blocks.length; k++) {
      const t = blocks[k]!.target;
      if (t !== undefined) visit(t);
    }
  }
  return reached;
}
