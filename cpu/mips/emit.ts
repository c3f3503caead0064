/**
 * Code generation for the fast engine: MIPS instructions and basic blocks as JavaScript source.
 * translate.ts forms regions of blocks and compiles them; the contracts of the generated code are
 * described there. What the rows with a semantics binding compute (opcodes.ts `value`, `cond`)
 * is spliced in from the binding (values.ts). Names the generated code uses (the parameters of the
 * region factory): cpu, r (GPRs + HI/LO), u32/u16/u8 (physical memory), rm/wm (page maps of the
 * block's mode), fpu, fgr (FGR words), sink (ground-truth hooks) and cpu/semantics.ts's helpers;
 * `end` is the budget limit (icount).
 * Every exception exit is `return -1` after the CPU's exception entry (cpu.trapped is set); every
 * other exit of a block goes through its common epilogue (exitBlock), a slow exit returning
 * SLOW_EXIT - pc (blockSlowExit).
 */
import { Insn } from './decode.js';
import { EXC_BP, EXC_OV, EXC_RI, EXC_SYS, SR_CU0, SR_CU1 } from './cp0.js';
import { fpRegistersValid } from './query.js';
import { condJs, valueJs } from './values.js';

/**
 * A block's return value below -1: SLOW_EXIT - pc, the block stopped before the instruction at
 * pc for its slow path (see blockSlowExit).
 */
export const SLOW_EXIT = -2;

export const hexa = (v: number): string => `0x${(v >>> 0).toString(16)}`;

/** Ends a block after it (it changes mode, translation, interrupt state, or always traps). */
export function endsAfter(i: Insn): boolean {
  const s = i.spec;
  if (!s) return true;
  switch (s.cls) {
    case 'trap': case 'cp0': case 'cpz': case 'reserved': case 'funimp': return true;
    default: return s.op === 'CTC1' || !fpRegistersValid(i);
  }
}

export class Emitter {
  readonly out: string[] = [];
  usedCop1 = false;
  /** Expression of the destination of the block's branch, for slow paths in its delay slot. */
  dsNext = '';
  /**
   * Region mode (region.ts): instead of calling a slow path or raising an exception, generated
   * code leaves the region with `slowExit()` — control goes back to the dispatch loop, which
   * executes the instruction again through a block (re-execution is exact: nothing before the
   * exit point has changed state the instruction depends on). Null for blocks.
   */
  slowExit: (() => string) | null = null;
  /**
   * Block mode: the slow exit of the memory access being emitted (set by emitBlock for accesses
   * after the block's first instruction), or null (the access calls its slow path in place).
   */
  blockExit: string | null = null;

  constructor(readonly user: boolean, readonly hooked: boolean, readonly bx: number, readonly hx: number) {}

  R(n: number): string {
    return n === 0 ? '0' : `r[${n}]`;
  }

  /** Prefix of a slow-path call: in a delay slot, first record where the branch goes. */
  pre(ds: boolean): string {
    return ds ? `cpu.npc = ${this.dsNext}; ` : '';
  }

  /** A call that may take an exception: then the block returns -1 at once. */
  chk(call: string): string {
    return `{ ${call}; if (cpu.trapped) return -1; }`;
  }

  /**
   * A slow-path store, which may have hit a page holding translated code (cpu.codeStale): the
   * store completed, so the region counts this instruction and leaves to the dispatch loop, which
   * retranslates whatever was dropped. k = index in block, next = expression of the next pc.
   */
  chkStore(call: string, k: number, next: string, hook: string): string {
    return `{ ${call}; if (cpu.trapped) return -1; if (cpu.codeStale) { ${hook}cpu.codeStale = false; ${exitBlock(k + 1, next)} } }`;
  }

  /** Fast-path test that the map entry x serves va for an access of the given alignment mask. */
  ok(align: number): string {
    if (this.user) return `((x | va) & ${hexa(0x80000000 | align)}) === 0`;
    return align === 0 ? 'x >= 0' : `(x >= 0 && (va & ${align}) === 0)`;
  }

  /** Emits one instruction; k = index in block, ds = in a delay slot. */
  insn(i: Insn, pc: number, k: number, ds: boolean): void {
    const s = i.spec;
    const o = this.out;
    const info = (k << 1) | (ds ? 1 : 0);
    const P = this.pre(ds);
    const slow = this.slowExit;
    const raise = (code: number): string => (slow ? slow() : `{ ${P}cpu.raise(${code}, ${hexa(pc)}, ${info}); return -1; }`);
    if (!s || s.cls === 'reserved' || !fpRegistersValid(i)) {
      if (s && s.cop === 1 && !this.usedCop1) this.cu1(pc, info, P);
      o.push(raise(EXC_RI));
      return;
    }
    this.copCheck(i, pc, k, ds);
    if (s.cls === 'cpz') {
      o.push(`${P}cpu.copUnusable(${s.cop}, ${hexa(pc)}, ${info}); return -1;`);
      return;
    }
    const R = (n: number): string => this.R(n);
    const { rs, rt, rd, sa, simm } = i;
    const fd = sa, fs = rd, ft = rt;
    const set = (n: number, e: string): void => {
      if (n !== 0) o.push(`r[${n}] = ${e};`);
    };
    const va = `const va = (${R(rs)} + ${simm}) | 0;`;
    const fp = (call: string): void => {
      o.push(`if (!fpu.${call}) ${slow ? slow() : this.chk(`${P}cpu.fpTrap(${hexa(pc)}, ${info})`)}`);
    };
    const hook = (): void => {
      if (this.hooked) o.push(`sink.ifetch(${hexa(pc)});`);
    };
    const bxs = this.bx ? ` ^ ${this.bx}` : '';
    const hxs = this.hx ? ` ^ ${this.hx}` : '';
    const load = (dst: string, kind: string, align: number, fast: string, width: number): void => {
      o.push(`{ ${va} const x = rm[va >>> 12]; let v; if (${this.ok(align)}) v = ${fast}; else ${slow ? slow() : this.blockExit ?? this.chk(`${P}v = cpu.${kind}(va, ${hexa(pc)}, ${info})`)}`);
      if (dst) o.push(`${dst} = v;`);
      if (this.hooked) o.push(`sink.ifetch(${hexa(pc)}); sink.load(va, ${width});`);
      o.push('}');
    };
    const after = ds ? this.dsNext : hexa(pc + 4);
    const storeHook = (width: number): string => (this.hooked ? `sink.ifetch(${hexa(pc)}); sink.store(va, ${width}); ` : '');
    const store = (val: string, kind: string, align: number, fast: string, width: number): void => {
      o.push(`{ ${va} const x = wm[va >>> 12]; const v = ${val}; if (${this.ok(align)}) ${fast}; else ${slow ? slow() : this.blockExit ?? this.chkStore(`${P}cpu.${kind}(va, v, ${hexa(pc)}, ${info})`, k, after, storeHook(width))}`);
      if (this.hooked) o.push(storeHook(width));
      o.push('}');
    };
    const partial = (kind: string, isLoad: boolean): void => {
      if (slow) {
        // A page-map hit means the TLB translates the word for this access (and, for a store,
        // that the page holds no translated code): the helper cannot take an exception.
        o.push(`{ ${va} const x = ${isLoad ? 'rm' : 'wm'}[va >>> 12]; if (!(${this.ok(0)})) ${slow()}`);
        if (isLoad) o.push(`${rt !== 0 ? `r[${rt}] = ` : ''}cpu.${kind}(va, ${R(rt)}, ${hexa(pc)}, 0);`);
        else o.push(`cpu.${kind}(va, ${R(rt)}, ${hexa(pc)}, 0);`);
        o.push('}');
        return;
      }
      if (isLoad) {
        o.push(`{ ${va} let v; ${this.chk(`${P}v = cpu.${kind}(va, ${R(rt)}, ${hexa(pc)}, ${info})`)}`);
        if (rt !== 0) o.push(`r[${rt}] = v;`);
        if (this.hooked) o.push(`sink.ifetch(${hexa(pc)}); sink.load(va, 4);`);
      } else {
        o.push(`{ ${va} ${this.chkStore(`${P}cpu.${kind}(va, ${R(rt)}, ${hexa(pc)}, ${info})`, k, after, storeHook(4))}`);
        if (this.hooked) o.push(storeHook(4));
      }
      o.push('}');
    };
    const PA = '(x | (va & 0xfff))';
    if (s.value) {
      const v = valueJs(s, i, () => raise(EXC_OV));
      if (v) o.push(v);
      hook();
      return;
    }
    switch (s.op) {
      case 'SYSCALL': case 'BREAK':
        // They retire (k + 1 instructions done), then raise with EPC at themselves.
        hook();
        o.push(`${P}cpu.raise(${s.op === 'SYSCALL' ? EXC_SYS : EXC_BP}, ${hexa(pc)}, ${((k + 1) << 1) | (ds ? 1 : 0)}); return -1;`);
        return;
      case 'LB': load(rt ? `r[${rt}]` : '', 'lb', 0, `(u8[${PA}${bxs}] << 24) >> 24`, 1); return;
      case 'LBU': load(rt ? `r[${rt}]` : '', 'lbu', 0, `u8[${PA}${bxs}]`, 1); return;
      case 'LH': load(rt ? `r[${rt}]` : '', 'lh', 1, `(u16[(${PA}${hxs}) >>> 1] << 16) >> 16`, 2); return;
      case 'LHU': load(rt ? `r[${rt}]` : '', 'lhu', 1, `u16[(${PA}${hxs}) >>> 1]`, 2); return;
      case 'LW': load(rt ? `r[${rt}]` : '', 'lw', 3, `u32[${PA} >>> 2]`, 4); return;
      case 'LWC1': load(`fgr[${ft}]`, 'lw', 3, `u32[${PA} >>> 2]`, 4); return;
      case 'SB': store(R(rt), 'sb', 0, `u8[${PA}${bxs}] = v`, 1); return;
      case 'SH': store(R(rt), 'sh', 1, `u16[(${PA}${hxs}) >>> 1] = v`, 2); return;
      case 'SW': store(R(rt), 'sw', 3, `u32[${PA} >>> 2] = v`, 4); return;
      case 'SWC1': store(`fgr[${ft}]`, 'sw', 3, `u32[${PA} >>> 2] = v`, 4); return;
      case 'LWL': partial('lwl', true); return;
      case 'LWR': partial('lwr', true); return;
      case 'SWL': partial('swl', false); return;
      case 'SWR': partial('swr', false); return;
      case 'MFC0': set(rt, `cpu.readCp0(${rd}, ${k})`); break;
      case 'MTC0': o.push(`cpu.writeCp0(${rd}, ${R(rt)});`); break;
      case 'TLBR': o.push('cpu.tlbRead();'); break;
      case 'TLBWI': o.push('cpu.tlbWriteIndexed();'); break;
      case 'TLBWR': o.push(`cpu.tlbWriteRandom(${k});`); break;
      case 'TLBP': o.push('cpu.tlbProbe();'); break;
      case 'RFE': o.push('cpu.rfe();'); break;
      case 'MFC1': set(rt, `fgr[${fs}]`); break;
      case 'MTC1': o.push(`fgr[${fs}] = ${R(rt)};`); break;
      case 'CFC1': set(rt, `fpu.readControl(${fs})`); break;
      case 'CTC1': if (fs === 31) o.push(`fpu.setFcsr(${R(rt)}); cpu.updateFpuLine();`); break;
      case 'ADD_S': fp(`addS(${fd}, ${fs}, ${ft})`); break;
      case 'SUB_S': fp(`subS(${fd}, ${fs}, ${ft})`); break;
      case 'MUL_S': fp(`mulS(${fd}, ${fs}, ${ft})`); break;
      case 'DIV_S': fp(`divS(${fd}, ${fs}, ${ft})`); break;
      case 'ADD_D': fp(`addD(${fd}, ${fs}, ${ft})`); break;
      case 'SUB_D': fp(`subD(${fd}, ${fs}, ${ft})`); break;
      case 'MUL_D': fp(`mulD(${fd}, ${fs}, ${ft})`); break;
      case 'DIV_D': fp(`divD(${fd}, ${fs}, ${ft})`); break;
      // abs, neg, mov: fpu.ts's bit operations (V8 inlines them).
      case 'ABS_S': o.push(`fpu.absS(${fd}, ${fs});`); break;
      case 'NEG_S': o.push(`fpu.negS(${fd}, ${fs});`); break;
      case 'MOV_S': o.push(`fpu.movS(${fd}, ${fs});`); break;
      case 'ABS_D': o.push(`fpu.absD(${fd}, ${fs});`); break;
      case 'NEG_D': o.push(`fpu.negD(${fd}, ${fs});`); break;
      case 'MOV_D': o.push(`fpu.movD(${fd}, ${fs});`); break;
      case 'CVT_S_D': fp(`cvtSD(${fd}, ${fs})`); break;
      case 'CVT_S_W': fp(`cvtSW(${fd}, ${fs})`); break;
      case 'CVT_D_S': fp(`cvtDS(${fd}, ${fs})`); break;
      case 'CVT_D_W': fp(`cvtDW(${fd}, ${fs})`); break;
      case 'CVT_W_S': fp(`cvtW(${fd}, ${fs}, false)`); break;
      case 'CVT_W_D': fp(`cvtW(${fd}, ${fs}, true)`); break;
      case 'COP1': o.push(`fpu.unimplemented(); ${this.chk(`${P}cpu.fpTrap(${hexa(pc)}, ${info})`)}`); break;
      default:
        if (s.cls === 'fcmp') {
          fp(`compare(${i.word & 15}, ${s.fmt === 'd'}, ${fs}, ${ft})`);
          break;
        }
        throw new Error(`translator: no code for ${s.name}`);
    }
    hook();
  }

  /** Coprocessor 1 usability, checked once per block at its first COP1 instruction. */
  /**
   * Coprocessor usability before an instruction of coprocessor 0 (user mode needs Status.CU0) or
   * 1 (Status.CU1, checked once per block: nothing inside a block can change Status).
   */
  copCheck(i: Insn, pc: number, k: number, ds: boolean): void {
    const s = i.spec;
    if (!s) return;
    const info = (k << 1) | (ds ? 1 : 0);
    const P = this.pre(ds);
    if (this.slowExit) {
      if (s.cop === 1 && !this.usedCop1) {
        this.out.push(`if ((cpu.status & ${hexa(SR_CU1)}) === 0) ${this.slowExit()}`);
        this.usedCop1 = true;
      }
      return;
    }
    if (s.cop === 0 && this.user) this.out.push(`if ((cpu.status & ${hexa(SR_CU0)}) === 0) { ${P}cpu.copUnusable(0, ${hexa(pc)}, ${info}); return -1; }`);
    if (s.cop === 1 && !this.usedCop1) this.cu1(pc, info, P);
  }

  private cu1(pc: number, info: number, P: string): void {
    this.out.push(`if ((cpu.status & ${hexa(SR_CU1)}) === 0) { ${P}cpu.copUnusable(1, ${hexa(pc)}, ${info}); return -1; }`);
    this.usedCop1 = true;
  }
}

/** The condition (JS expression) under which a conditional branch is taken. */
export function branchCond(i: Insn): string {
  if (!i.spec?.cond) throw new Error(`translator: ${i.name} is not a conditional branch`);
  return condJs(i.spec, i);
}


export type BlockKind = 'fall' | 'branch' | 'end';

/** A scanned superblock: its instructions and how it ends. */
export interface BlockInfo {
  pc: number;
  insns: Insn[];
  kind: BlockKind;
  /**
   * Indices of forward conditional branches inside the block: the translation continues along
   * their fall-through path and leaves the function when they are taken (side exits).
   */
  exits: number[];
  /** The final branch is conditional and goes back to the block's start: emitted as a loop. */
  selfLoop: boolean;
}

/**
 * Emits a branch at index k (its delay slot at k + 1): evaluates it, writes its link register,
 * runs the delay slot; returns the JS expression of the destination (c<k> holds a condition).
 */
function emitBranch(e: Emitter, b: BlockInfo, k: number): string {
  const o = e.out;
  const bpc = b.pc + 4 * k;
  const br = b.insns[k]!;
  const s = br.spec!;
  const fall = (bpc + 8) >>> 0;
  e.copCheck(br, bpc, k, false);
  let dest: string;
  if (s.op === 'J' || s.op === 'JAL') {
    dest = hexa((((bpc + 4) & 0xf0000000) | (br.target << 2)) >>> 0);
    if (s.op === 'JAL') o.push(`r[31] = ${fall | 0};`);
  } else if (s.op === 'JR' || s.op === 'JALR') {
    o.push(`const dst = ${e.R(br.rs)} >>> 0;`);
    if (s.op === 'JALR' && br.rd !== 0) o.push(`r[${br.rd}] = ${fall | 0};`);
    dest = 'dst';
  } else {
    const target = (bpc + 4 + (br.simm << 2)) >>> 0;
    o.push(`const c${k} = ${branchCond(br)};`);
    if (s.op === 'BLTZAL' || s.op === 'BGEZAL') o.push(`r[31] = ${fall | 0};`);
    dest = `(c${k} ? ${hexa(target)} : ${hexa(fall)})`;
  }
  if (e.hooked) o.push(`sink.ifetch(${hexa(bpc)});`);
  e.dsNext = dest;
  e.blockExit = blockSlowExit(e, b, k + 1, true);
  e.insn(b.insns[k + 1]!, bpc + 4, k + 1, true);
  e.blockExit = null;
  return dest;
}

/**
 * Emits the body of one block's function `(end) => next pc | -1`: the instructions, icount, and
 * the return of the next pc. A self-loop iterates while another full pass fits the budget.
 */
export function emitBlock(e: Emitter, b: BlockInfo): void {
  const { pc, insns, kind } = b;
  const o = e.out;
  const n = insns.length;
  const head = o.length;
  if (b.selfLoop) o.push('for (;;) {');
  const body = kind === 'branch' ? n - 2 : n;
  for (let k = 0; k < body; k++) {
    if (b.exits.includes(k)) {
      emitBranch(e, b, k);
      const target = (pc + 4 * k + 4 + (insns[k]!.simm << 2)) >>> 0;
      o.push(`if (c${k}) ${exitBlock(k + 2, hexa(target))}`);
      k++;
      continue;
    }
    e.blockExit = blockSlowExit(e, b, k, false);
    e.insn(insns[k]!, pc + 4 * k, k, false);
    e.blockExit = null;
  }
  if (kind !== 'branch') {
    o.push(`ic = ${n}; nx = ${hexa(pc + 4 * n)};`);
  } else {
    const dest = emitBranch(e, b, n - 2);
    if (b.selfLoop) {
      const fall = (pc + 4 * n) >>> 0;
      o.push(`cpu.icount += ${n}; if (!c${n - 2}) { nx = ${hexa(fall)}; break out; } if (cpu.icount + ${n} > end) { nx = ${hexa(pc)}; break out; }`);
      o.push('}');
    } else o.push(`ic = ${n}; nx = ${dest};`);
  }
  o.push('}', 'cpu.icount += ic;', 'return nx;');
  o.splice(head, 0, 'let ic = 0, nx = 0;', 'out: {');
}

/**
 * A block's exit after `count` instructions retired, continuing at `next` (a JS expression).
 * Every exit goes through the function's common epilogue, which every call runs: an exit taken
 * for the first time after V8 optimised the block then needs no type feedback of its own (code
 * that never ran before optimisation is compiled as a deoptimisation, and the block is compiled
 * again after it is taken).
 */
function exitBlock(count: number, next: string): string {
  return `{ ic = ${count}; nx = ${next}; break out; }`;
}

/**
 * The slow exit of a memory access: the block stops before the instruction at pc (index k), or
 * before its branch when it is in a delay slot, and returns SLOW_EXIT - that address; the
 * dispatch loop then runs the block starting there, whose first instruction calls the slow path
 * in place (the TLB walk, the exception with exact EPC/BD). Only for k > 0 (the block starting at
 * the exit address must not exit again). From a delay slot only when the state the block leaves
 * is exactly the state before the branch: not after a branch that wrote its link register (jal,
 * jalr, bltzal, bgezal), nor with the ground-truth sink (the branch was reported already).
 */
function blockSlowExit(e: Emitter, b: BlockInfo, k: number, ds: boolean): string | null {
  const at = ds ? k - 1 : k;
  if (at <= 0) return null;
  if (ds) {
    if (e.hooked) return null;
    const op = b.insns[at]!.spec!.op;
    if (op === 'JAL' || op === 'JALR' || op === 'BLTZAL' || op === 'BGEZAL') return null;
  }
  return exitBlock(at, String(SLOW_EXIT - ((b.pc + 4 * at) >>> 0)));
}
