/**
 * The fast engine: guest basic blocks translated into JavaScript functions (`new Function`),
 * cached by physical address and mode, and run by a dispatch loop.
 *
 * A block is the straight-line code from its start up to and including the first branch or jump
 * and its delay slot (Kane & Heinrich 5-4: the delay slot executes before the transfer), or up to
 * an instruction that must end a block (syscall, break, CP0 operations, ctc1, reserved
 * encodings), the end of the page, or MAX_BLOCK instructions. A block that branches back to its
 * own start is emitted as a JS loop that iterates while the budget allows another full pass.
 *
 * Contracts:
 *   - State is the CPU's: generated code reads and writes cpu.r, the FGRs and memory directly, so
 *     an exception in the middle of a block leaves exactly the state of the instructions before it.
 *     Slow paths (cpu.lw & co., cpu.raise) receive info = (k << 1) | ds — k instructions of the
 *     block retired before this one — and add k to icount before the exception entry. A slow path
 *     called from a delay slot first sets cpu.npc to the branch's destination (excNextPC).
 *   - The budget: a block runs only if it fits in what remains; otherwise (and for a pending delay
 *     slot, or a branch whose delay slot lies on the next page) the reference interpreter steps.
 *   - Caches: one per (mode, sink on/off); the hooked translation calls the sink, the plain one
 *     contains no hook code. Keyed by physical address; a block also records its virtual start
 *     and is retranslated if reached at another address.
 *   - Invalidation: translating from a physical page marks it in PhysMem.codePage and removes it
 *     from the CPU's write map, so every store to it (guest or kernel) reaches a slow path that
 *     drops the page's blocks first. A block that overwrites its own code finishes executing its
 *     old translation (as an R2000 without an I-cache flush would).
 *   - Memory fast path: one page-map load and one test per access (mmu.ts); user-mode blocks test
 *     ((map[va >>> 12] | va) & 0x80000003) for words (mapped, aligned, kuseg), kernel blocks test
 *     the map entry's sign and the alignment separately (kseg addresses have bit 31 set).
 */
import { Insn, decode } from './decode.js';
import {
  EXC_BP, EXC_OV, EXC_RI, EXC_SYS, SR_CU0, SR_CU1, SR_KUC,
} from './cp0.js';
import { FCSR_C } from './fpu.js';
import { MipsCpu, STOP_BUDGET, STOP_EXCEPTION, TRAP, type MipsEngine } from './cpu.js';
import { mulHi, step } from './interp.js';
import { fpRegistersValid } from './query.js';

/** Longest block translated (instructions). */
export const MAX_BLOCK = 128;

type BlockFn = (end: number) => number;

interface Block {
  /** Virtual address of the first instruction. */
  va: number;
  /** Instructions per execution (a self-loop executes it per iteration); 0: interpret instead. */
  len: number;
  fn: BlockFn | null;
}

const INTERPRET: Block = { va: -1, len: 0, fn: null };

/** Per-page arrays of blocks indexed by word offset. */
type PageCache = (Block | undefined)[];

const hexa = (v: number): string => `0x${(v >>> 0).toString(16)}`;

/** Ends a block after it (it changes mode, translation, interrupt state, or always traps). */
function endsAfter(i: Insn): boolean {
  const s = i.spec;
  if (!s) return true;
  switch (s.cls) {
    case 'trap': case 'cp0': case 'cpz': case 'reserved': case 'funimp': return true;
    default: return s.op === 'CTC1' || !fpRegistersValid(i);
  }
}

class Emitter {
  readonly out: string[] = [];
  usedCop1 = false;
  /** Expression of the destination of the block's branch, for slow paths in its delay slot. */
  dsNext = '';

  constructor(readonly user: boolean, readonly hooked: boolean, readonly bx: number, readonly hx: number) {}

  R(n: number): string {
    return n === 0 ? '0' : `r[${n}]`;
  }

  /** Prefix of a slow-path call: in a delay slot, first record where the branch goes. */
  pre(ds: boolean): string {
    return ds ? `cpu.npc = ${this.dsNext}, ` : '';
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
    const raise = (code: number): string => `${P}cpu.raise(${code}, ${hexa(pc)}, ${info})`;
    if (!s || s.cls === 'reserved' || !fpRegistersValid(i)) {
      if (s && s.cop === 1 && !this.usedCop1) this.cu1(pc, info, P);
      o.push(`${raise(EXC_RI)};`);
      return;
    }
    if (s.cop === 0 && this.user) o.push(`if ((cpu.status & ${hexa(SR_CU0)}) === 0) ${P}cpu.copUnusable(0, ${hexa(pc)}, ${info});`);
    if (s.cop === 1 && !this.usedCop1) this.cu1(pc, info, P);
    if (s.cls === 'cpz') {
      o.push(`${P}cpu.copUnusable(${s.cop}, ${hexa(pc)}, ${info});`);
      return;
    }
    const R = (n: number): string => this.R(n);
    const { rs, rt, rd, sa, simm, imm } = i;
    const fd = sa, fs = rd, ft = rt;
    const set = (n: number, e: string): void => {
      if (n !== 0) o.push(`r[${n}] = ${e};`);
    };
    const va = `const va = (${R(rs)} + ${simm}) | 0;`;
    const fp = (call: string): void => {
      o.push(`if (!fpu.${call}) ${P}cpu.fpTrap(${hexa(pc)}, ${info});`);
    };
    const hook = (): void => {
      if (this.hooked) o.push(`sink.ifetch(${hexa(pc)});`);
    };
    const bxs = this.bx ? ` ^ ${this.bx}` : '';
    const hxs = this.hx ? ` ^ ${this.hx}` : '';
    const load = (dst: string, kind: string, align: number, fast: string, width: number): void => {
      o.push(`{ ${va} const x = rm[va >>> 12]; const v = ${this.ok(align)} ? ${fast} : ${P}cpu.${kind}(va, ${hexa(pc)}, ${info});`);
      if (dst) o.push(`${dst} = v;`);
      if (this.hooked) o.push(`sink.ifetch(${hexa(pc)}); sink.load(va, ${width});`);
      o.push('}');
    };
    const store = (val: string, kind: string, align: number, fast: string, width: number): void => {
      o.push(`{ ${va} const x = wm[va >>> 12]; const v = ${val}; if (${this.ok(align)}) ${fast}; else ${P}cpu.${kind}(va, v, ${hexa(pc)}, ${info});`);
      if (this.hooked) o.push(`sink.ifetch(${hexa(pc)}); sink.store(va, ${width});`);
      o.push('}');
    };
    const partial = (kind: string, isLoad: boolean): void => {
      if (isLoad) {
        o.push(`{ ${va} const v = ${P}cpu.${kind}(va, ${R(rt)}, ${hexa(pc)}, ${info});`);
        if (rt !== 0) o.push(`r[${rt}] = v;`);
        if (this.hooked) o.push(`sink.ifetch(${hexa(pc)}); sink.load(va, 4);`);
      } else {
        o.push(`{ ${va} ${P}cpu.${kind}(va, ${R(rt)}, ${hexa(pc)}, ${info});`);
        if (this.hooked) o.push(`sink.ifetch(${hexa(pc)}); sink.store(va, 4);`);
      }
      o.push('}');
    };
    const ov = (e: string, dst: number): void => {
      o.push(`{ const t = ${e}; if (t > 2147483647 || t < -2147483648) ${raise(EXC_OV)};`);
      if (dst !== 0) o.push(`r[${dst}] = t;`);
      o.push('}');
    };
    const PA = '(x | (va & 0xfff))';
    switch (s.op) {
      case 'SLL': set(rd, `${R(rt)} << ${sa}`); break;
      case 'SRL': set(rd, `${R(rt)} >>> ${sa}`); break;
      case 'SRA': set(rd, `${R(rt)} >> ${sa}`); break;
      case 'SLLV': set(rd, `${R(rt)} << (${R(rs)} & 31)`); break;
      case 'SRLV': set(rd, `${R(rt)} >>> (${R(rs)} & 31)`); break;
      case 'SRAV': set(rd, `${R(rt)} >> (${R(rs)} & 31)`); break;
      case 'SYSCALL': case 'BREAK':
        // They retire (k + 1 instructions done), then raise with EPC at themselves.
        hook();
        o.push(`${P}cpu.raise(${s.op === 'SYSCALL' ? EXC_SYS : EXC_BP}, ${hexa(pc)}, ${((k + 1) << 1) | (ds ? 1 : 0)});`);
        return;
      case 'MFHI': set(rd, 'r[32]'); break;
      case 'MTHI': o.push(`r[32] = ${R(rs)};`); break;
      case 'MFLO': set(rd, 'r[33]'); break;
      case 'MTLO': o.push(`r[33] = ${R(rs)};`); break;
      case 'MULT': o.push(`{ const a = ${R(rs)}, b = ${R(rt)}; r[33] = Math.imul(a, b); r[32] = mulHi(a, b >> 16, b & 0xffff); }`); break;
      case 'MULTU': o.push(`{ const a = ${R(rs)} >>> 0, b = ${R(rt)} >>> 0; r[33] = Math.imul(a, b); r[32] = mulHi(a, b >>> 16, b & 0xffff); }`); break;
      case 'DIV': o.push(`{ const a = ${R(rs)}; let b = ${R(rt)}; if (b === 0 || (a === -2147483648 && b === -1)) b = 1; r[33] = (a / b) | 0; r[32] = a % b; }`); break;
      case 'DIVU': o.push(`{ const a = ${R(rs)} >>> 0; let b = ${R(rt)} >>> 0; if (b === 0) b = 1; r[33] = Math.trunc(a / b) | 0; r[32] = a % b | 0; }`); break;
      case 'ADD': ov(`${R(rs)} + ${R(rt)}`, rd); break;
      case 'ADDU': set(rd, `${R(rs)} + ${R(rt)}`); break;
      case 'SUB': ov(`${R(rs)} - ${R(rt)}`, rd); break;
      case 'SUBU': set(rd, `${R(rs)} - ${R(rt)}`); break;
      case 'AND': set(rd, `${R(rs)} & ${R(rt)}`); break;
      case 'OR': set(rd, `${R(rs)} | ${R(rt)}`); break;
      case 'XOR': set(rd, `${R(rs)} ^ ${R(rt)}`); break;
      case 'NOR': set(rd, `~(${R(rs)} | ${R(rt)})`); break;
      case 'SLT': set(rd, `${R(rs)} < ${R(rt)} ? 1 : 0`); break;
      case 'SLTU': set(rd, `(${R(rs)} >>> 0) < (${R(rt)} >>> 0) ? 1 : 0`); break;
      case 'ADDI': ov(`${R(rs)} + ${simm}`, rt); break;
      case 'ADDIU': set(rt, `${R(rs)} + ${simm}`); break;
      case 'SLTI': set(rt, `${R(rs)} < ${simm} ? 1 : 0`); break;
      case 'SLTIU': set(rt, `(${R(rs)} >>> 0) < ${simm >>> 0} ? 1 : 0`); break;
      case 'ANDI': set(rt, `${R(rs)} & ${imm}`); break;
      case 'ORI': set(rt, `${R(rs)} | ${imm}`); break;
      case 'XORI': set(rt, `${R(rs)} ^ ${imm}`); break;
      case 'LUI': set(rt, `${(imm << 16) | 0}`); break;
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
      case 'MFC0': set(rt, `cpu.readCp0(${rd})`); break;
      case 'MTC0': o.push(`cpu.writeCp0(${rd}, ${R(rt)});`); break;
      case 'TLBR': o.push('cpu.tlbRead();'); break;
      case 'TLBWI': o.push('cpu.tlbWriteIndexed();'); break;
      case 'TLBWR': o.push('cpu.tlbWriteRandom();'); break;
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
      case 'ABS_S': o.push(`fgr[${fd}] = fgr[${fs}] & 0x7fffffff;`); break;
      case 'NEG_S': o.push(`fgr[${fd}] = fgr[${fs}] ^ 0x80000000;`); break;
      case 'MOV_S': o.push(`fgr[${fd}] = fgr[${fs}];`); break;
      case 'ABS_D': o.push(`fgr[${fd}] = fgr[${fs}]; fgr[${fd + 1}] = fgr[${fs + 1}] & 0x7fffffff;`); break;
      case 'NEG_D': o.push(`fgr[${fd}] = fgr[${fs}]; fgr[${fd + 1}] = fgr[${fs + 1}] ^ 0x80000000;`); break;
      case 'MOV_D': o.push(`fgr[${fd}] = fgr[${fs}]; fgr[${fd + 1}] = fgr[${fs + 1}];`); break;
      case 'CVT_S_D': fp(`cvtSD(${fd}, ${fs})`); break;
      case 'CVT_S_W': fp(`cvtSW(${fd}, ${fs})`); break;
      case 'CVT_D_S': fp(`cvtDS(${fd}, ${fs})`); break;
      case 'CVT_D_W': fp(`cvtDW(${fd}, ${fs})`); break;
      case 'CVT_W_S': fp(`cvtW(${fd}, ${fs}, false)`); break;
      case 'CVT_W_D': fp(`cvtW(${fd}, ${fs}, true)`); break;
      case 'COP1': o.push(`fpu.unimplemented(); ${P}cpu.fpTrap(${hexa(pc)}, ${info});`); break;
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
  private cu1(pc: number, info: number, P: string): void {
    this.out.push(`if ((cpu.status & ${hexa(SR_CU1)}) === 0) ${P}cpu.copUnusable(1, ${hexa(pc)}, ${info});`);
    this.usedCop1 = true;
  }
}

/** The condition (JS expression) under which a conditional branch is taken. */
function branchCond(e: Emitter, i: Insn): string {
  const R = (n: number): string => e.R(n);
  switch (i.spec!.op) {
    case 'BEQ': return `${R(i.rs)} === ${R(i.rt)}`;
    case 'BNE': return `${R(i.rs)} !== ${R(i.rt)}`;
    case 'BLEZ': return `${R(i.rs)} <= 0`;
    case 'BGTZ': return `${R(i.rs)} > 0`;
    case 'BLTZ': case 'BLTZAL': return `${R(i.rs)} < 0`;
    case 'BGEZ': case 'BGEZAL': return `${R(i.rs)} >= 0`;
    case 'BC1F': return `(fpu.fcsr & ${hexa(FCSR_C)}) === 0`;
    case 'BC1T': return `(fpu.fcsr & ${hexa(FCSR_C)}) !== 0`;
    case 'BC0F': return 'true'; // CpCond0 is never asserted
    case 'BC0T': return 'false';
    default: throw new Error(`translator: ${i.spec!.name} is not a conditional branch`);
  }
}

export class FastEngine implements MipsEngine {
  readonly name = 'fast' as const;
  /** caches[(user ? 2 : 0) + (hooked ? 1 : 0)][ppn] */
  private readonly caches: (PageCache | undefined)[][] = [[], [], [], []];
  /** Blocks translated since creation (statistics). */
  translated = 0;
  /**
   * At most this many dispatches (a block, or one interpreted instruction) per run() before it
   * returns STOP_BUDGET — lockstep tests compare states after every block with 1.
   */
  blockLimit = Infinity;

  constructor(readonly cpu: MipsCpu) {}

  invalidatePage(ppn: number): void {
    for (const c of this.caches) c[ppn] = undefined;
  }

  /** Drops every translation. */
  flush(): void {
    for (const c of this.caches) c.length = 0;
  }

  /** Hooked translations captured the old sink object. */
  sinkChanged(): void {
    this.caches[1]!.length = 0;
    this.caches[3]!.length = 0;
  }

  run(cpu: MipsCpu, budget: number): number {
    const end = cpu.icount + budget;
    let blocks = this.blockLimit;
    try {
      if (cpu.interruptPending()) cpu.takeInterrupt();
      cpu.irqCheck = false;
      for (;;) {
        const left = end - cpu.icount;
        if (left <= 0 || blocks-- <= 0) break;
        let blk: Block = INTERPRET;
        if (!cpu.delay) {
          const pc = cpu.pc;
          const x = cpu.rmap[pc >>> 12]!;
          const pa = x >= 0 && (pc & 3) === 0 ? x | (pc & 0xfff) : this.fetchSlow(cpu, pc);
          const user = (cpu.status & SR_KUC) !== 0;
          const cache = this.caches[(user ? 2 : 0) + (cpu.sink !== null ? 1 : 0)]!;
          const page = cache[pa >>> 12];
          const b = page === undefined ? undefined : page[(pa & 0xfff) >>> 2];
          blk = b !== undefined && b.va === pc ? b : this.translate(cpu, pc, pa, user, cache);
        }
        if (blk.len === 0 || blk.len > left) step(cpu);
        else {
          const next = blk.fn!(end);
          cpu.pc = next;
          cpu.npc = (next + 4) >>> 0;
        }
        if (cpu.irqCheck) {
          cpu.irqCheck = false;
          if (cpu.interruptPending()) cpu.takeInterrupt();
        }
      }
    } catch (e) {
      if (e !== TRAP) throw e;
      return STOP_EXCEPTION;
    }
    return STOP_BUDGET;
  }

  /** Fetch translation off the fast path: raises the fetch exception, or fills the map. */
  private fetchSlow(cpu: MipsCpu, pc: number): number {
    cpu.fetch(pc, 0);
    return cpu.rmap[pc >>> 12]! | (pc & 0xfff);
  }

  private translate(cpu: MipsCpu, pc: number, pa: number, user: boolean, cache: (PageCache | undefined)[]): Block {
    const mem = cpu.mem;
    const ppn = pa >>> 12;
    const insns: Insn[] = [];
    let loop = false;
    let kind: 'fall' | 'branch' | 'end' = 'fall';
    for (let k = 0; k < MAX_BLOCK; k++) {
      const off = (pa & 0xfff) + 4 * k;
      if (off >= 4096) break;
      const i = decode(mem.u32[(pa + 4 * k) >>> 2]!);
      if (i.spec?.delaySlot && i.spec.cls !== 'cpz') {
        // The branch and its delay slot go together, on the same page, delay slot not special.
        if (off + 4 >= 4096) break;
        const d = decode(mem.u32[(pa + 4 * k + 4) >>> 2]!);
        if ((d.spec?.delaySlot ?? false) || endsAfter(d)) break;
        insns.push(i, d);
        kind = 'branch';
        break;
      }
      insns.push(i);
      if (endsAfter(i)) {
        kind = 'end';
        break;
      }
    }
    let blk: Block;
    if (insns.length === 0) blk = { va: pc, len: 0, fn: null };
    else {
      if (kind === 'branch') {
        const b = insns[insns.length - 2]!;
        loop = b.spec!.cls === 'branch' && ((pc + 4 * (insns.length - 2) + 4 + (b.simm << 2)) >>> 0) === pc;
      }
      blk = { va: pc, len: insns.length, fn: this.compile(cpu, pc, insns, kind, loop, user) };
      this.translated++;
    }
    let page = cache[ppn];
    if (page === undefined) page = cache[ppn] = new Array<Block | undefined>(1024);
    page[(pa & 0xfff) >>> 2] = blk;
    if (mem.codePage[ppn] === 0) {
      mem.codePage[ppn] = 1;
      cpu.protectCodePage(ppn);
    }
    return blk;
  }

  private compile(cpu: MipsCpu, pc: number, insns: Insn[], kind: 'fall' | 'branch' | 'end', loop: boolean, user: boolean): BlockFn {
    const hooked = cpu.sink !== null;
    const e = new Emitter(user, hooked, cpu.mem.bx, cpu.mem.hx);
    const n = insns.length;
    const body = kind === 'branch' ? n - 2 : n;
    for (let k = 0; k < body; k++) e.insn(insns[k]!, pc + 4 * k, k, false);
    let tail: string;
    if (kind === 'branch') {
      const bpc = pc + 4 * (n - 2);
      const b = insns[n - 2]!;
      const s = b.spec!;
      const fall = (bpc + 8) >>> 0;
      const o = e.out;
      let dest: string;
      if (s.op === 'J' || s.op === 'JAL') {
        dest = hexa((((bpc + 4) & 0xf0000000) | (b.target << 2)) >>> 0);
        if (s.op === 'JAL') o.push(`r[31] = ${fall | 0};`);
      } else if (s.op === 'JR' || s.op === 'JALR') {
        o.push(`const dst = ${e.R(b.rs)} >>> 0;`);
        if (s.op === 'JALR' && b.rd !== 0) o.push(`r[${b.rd}] = ${fall | 0};`);
        dest = 'dst';
      } else {
        const target = (bpc + 4 + (b.simm << 2)) >>> 0;
        o.push(`const c = ${branchCond(e, b)};`);
        if (s.op === 'BLTZAL' || s.op === 'BGEZAL') o.push(`r[31] = ${fall | 0};`);
        dest = `(c ? ${hexa(target)} : ${hexa(fall)})`;
      }
      if (hooked) o.push(`sink.ifetch(${hexa(bpc)});`);
      e.dsNext = dest;
      e.insn(insns[n - 1]!, bpc + 4, n - 1, true);
      if (loop) tail = `cpu.icount += ${n}; if (!c) return ${hexa(((bpc + 8) >>> 0))}; if (cpu.icount + ${n} > end) return ${hexa(pc)};`;
      else tail = `cpu.icount += ${n}; return ${dest};`;
    } else tail = `cpu.icount += ${n}; return ${hexa((pc + 4 * n) >>> 0)};`;
    const code = loop ? `for (;;) {\n${e.out.join('\n')}\n${tail}\n}` : `${e.out.join('\n')}\n${tail}`;
    const src = `return function blk_${(pc >>> 0).toString(16)}(end) {\n${code}\n};`;
    const f = new Function('cpu', 'r', 'u32', 'u16', 'u8', 'rm', 'wm', 'fpu', 'fgr', 'sink', 'mulHi', src) as (...a: unknown[]) => BlockFn;
    return f(cpu, cpu.r, cpu.mem.u32, cpu.mem.u16, cpu.mem.u8, cpu.rmap, cpu.wmap, cpu.fpu, cpu.fpu.fgr, cpu.sink, mulHi);
  }
}
