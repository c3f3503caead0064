/**
 * Conservative mode: how a function the analysis does not understand is traced (issue 20). The
 * rest of the instrumenter trusts what the compiler's code shows — where control can go, which
 * registers hold what, that callees keep the calling convention — and a function that breaks one
 * of those assumptions in a way the instrumenter can detect (a relocation kind it does not know,
 * a jump table it cannot delimit, a jump to a computed address, code without a function symbol's
 * type and size, code reached only through a pointer, or any analysis that fails on it) is traced
 * as a full tracer would trace it:
 *
 *   - every instruction starts a block and is an entry (a computed jump may land anywhere: the
 *     translation table sends every original address of the function to its copy);
 *   - every predicate's successor is witnessed (the witness placement of every function, over a
 *     graph with no decided predicate);
 *   - every data address is recorded right before its reference: the base (and index) register,
 *     or a SPARC register + register address as one sum; the target registers of every indirect
 *     transfer; the stack pointer (and, before a SPARC `restore` in a delay slot, the frame
 *     pointer) before every transfer to another function, which may rely on regeneration knowing
 *     it (the carried stack pointer, tracer/slice.ts);
 *   - nothing is computed (but a delay slot that sets the stack pointer as control leaves, from
 *     registers recorded before the transfer), nothing is taken from callers or callees (their
 *     own slices record what they need from such a function: instrument.ts treats its call sites
 *     as knowing nothing).
 * A setjmp/longjmp function also records its jmp_buf argument at its entry (regen/process.ts
 * jmpEntry), and keeps its entry at its start only.
 */
import { buildCfg, type Cfg } from './cfg.js';
import type { Decoded, Isa } from './isa.js';
import type { Func, Program } from './program.js';
import type { RecordItem, SliceResult } from './slice.js';

/** What the rewriting and the schema need of a function's recording (a slice, or conservative mode). */
export type PlanSlice = Pick<SliceResult,
  'bodyRecords' | 'edgeRecords' | 'entryRecords' | 'computedInsn' | 'computedDs' | 'sumInsn' | 'sumDs' | 'roLoads' | 'providedCalls'
> & { df?: SliceResult['df'] };

const SPARC_FP = 30;

/** The CFG of a function in conservative mode: every instruction a block and an entry. */
export function conservativeCfg(prog: Program, f: Func, externalEntries: Set<number>): Cfg {
  return buildCfg({ prog, externalEntries, conservative: true }, f);
}

function delayedLoad(isa: Isa, d: Decoded | undefined): boolean {
  return isa.name === 'mips' && d !== undefined && ((d.mem !== undefined && d.mem.kind === 'load') || d.name === 'mfc1' || d.name === 'cfc1');
}

/** The records of a function in conservative mode (see the file comment). */
export function conservativeRecords(prog: Program, cfg: Cfg, carrySp: boolean): PlanSlice {
  const isa = prog.isa;
  const f = cfg.func;
  const n = cfg.blocks.length;
  const bodyRecords: Map<number, RecordItem[]>[] = cfg.blocks.map(() => new Map());
  const sumInsn: Set<number>[] = cfg.blocks.map(() => new Set());
  const sumDs: boolean[] = new Array(n).fill(false);
  const entryRecords = new Map<number, RecordItem[]>();
  const computedDs: boolean[] = new Array(n).fill(false);
  const rec = (reg: number): RecordItem => ({ reg, nop: false, width: 4, why: 'conservative' });
  for (const b of cfg.blocks) {
    if (b.term === 'tail' || b.term === 'exit') continue;
    const list: RecordItem[] = [];
    const regs = (rs: (number | undefined)[]): void => {
      for (const r of rs) if (r !== undefined && r !== 0 && !list.some((x) => x.reg === r && !x.sum)) list.push(rec(r));
    };
    const mem = (d: Decoded, ds: boolean): void => {
      const m = d.mem;
      if (!m) return;
      if (m.index !== undefined && m.index !== 0 && m.base !== 0) {
        list.push({ reg: isa.TMP, nop: false, width: 4, why: 'conservative', sum: [m.base, m.index] });
        if (ds) sumDs[b.id] = true;
        else sumInsn[b.id]!.add(b.insns.length - 1);
      } else regs([m.base, m.index]);
    };
    const last = b.insns[b.insns.length - 1]!;
    for (const d of b.insns) mem(d, false);
    if (last.cti === 'icall' || last.cti === 'ijump') regs(last.targetRegs ?? []);
    if (b.ds) {
      // The delay slot's address registers are recorded before the transfer, which must not
      // change them.
      const m = b.ds.mem;
      if (m && [m.base, m.index].some((r) => r !== undefined && r !== 0 && last.defs.includes(r))) {
        throw new Error(`${f.name}: the delay slot at 0x${b.ds.addr.toString(16)} addresses memory through a register its transfer writes`);
      }
      mem(b.ds, true);
    }
    const leaves = b.term === 'call' || b.term === 'icall' || b.term === 'ijump' || b.succ.some((e) => cfg.blocks[e.to]!.term === 'tail');
    if (leaves && carrySp && f.role !== 'longjmp') {
      regs([isa.SP]);
      const ds = b.ds;
      if (isa.name === 'sparc' && ds?.window === -1) regs([SPARC_FP]);
      else if (ds && ds.defs.includes(isa.SP)) {
        // The stack pointer the other function receives is the one its delay slot leaves (a
        // MIPS epilogue `addiu sp, sp, n` in the slot of a tail jump): computed from registers
        // recorded before the transfer.
        const c = ds.compute;
        if (!c || c.op === 'save' || c.op === 'restore') throw new Error(`${f.name}: the delay slot at 0x${ds.addr.toString(16)} sets the stack pointer in a way that can be neither computed nor recorded`);
        regs([c.a, c.b, ...(c.extra ?? []).map((r) => ({ r }))].map((x) => (x && 'r' in x ? x.r : undefined)));
        computedDs[b.id] = true;
      }
    }
    if (list.length === 0) continue;
    // MIPS: a register a delayed load just wrote is read one instruction later.
    const first = list[0]!;
    const read = list.flatMap((r) => r.sum ?? [r.reg]);
    if (b.pred.some((e) => {
      const p = cfg.blocks[e.from]!;
      const prev = e.ds && p.ds ? p.ds : p.insns[p.insns.length - 1];
      return delayedLoad(isa, prev) && prev!.defs.some((r) => read.includes(r));
    })) first.nop = true;
    bodyRecords[b.id]!.set(-1, list);
  }
  if (f.role === 'setjmp' || f.role === 'longjmp') entryRecords.set(0, [{ reg: isa.ARG0, nop: false, width: 4, why: 'entry' }]);
  return {
    bodyRecords, edgeRecords: new Map(), entryRecords, computedInsn: cfg.blocks.map(() => new Set()), computedDs,
    sumInsn, sumDs, roLoads: new Map(), providedCalls: new Set(),
  };
}
