/**
 * The instrumenter's view of an instruction set: one neutral description of each instruction,
 * answered from the CPU packages' opcode tables and query modules (cpu/mips/query.ts,
 * cpu/sparc/query.ts) — the instrumenter never decodes bits itself — plus the register
 * conventions of the guest ABI (docs/abi.md) and the encoders the rewriter needs.
 *
 * Register identifiers are the architectural ones of each ISA: MIPS 0..31 general registers,
 * then HI, LO and the others of cpu/mips/query.ts; SPARC 0..31 = r[0..31] of the current window
 * (%g, %o, %l, %i), then the state registers of cpu/sparc/query.ts.
 */
import type { ComputeName } from '../format/schema.js';
import type { Isa as IsaId, TargetName } from '../format/target.js';

export type Arch = TargetName;
export type IsaName = IsaId;

/** Control transfer of an instruction (after the ABI idioms are recognised). */
export type CtiKind =
  | 'none'
  | 'branch' // PC-relative, conditional or always (`cond` says which)
  | 'jump' // unconditional direct jump (MIPS j)
  | 'call' // direct call (jal, call disp30)
  | 'icall' // call through a register (jalr, jmpl rd = %o7)
  | 'ijump' // jump through a register that is not a return
  | 'return' // jr ra, retl, ret (jmpl %i7/%o7 + 8 or + 12)
  | 'trap'; // syscall, break, Ticc

/**
 * When the delay slot of a delayed transfer executes: 'always'; 'taken' — only when the branch is
 * taken (SPARC conditional branch with a = 1, manual 5.5.1.1); 'never' — ba,a and bn,a.
 */
export type DelayMode = 'always' | 'taken' | 'never';

export interface MemRef {
  kind: 'load' | 'store' | 'ldstub' | 'swap';
  /** Bytes of the reference as the ground truth records it (lwl/lwr: 4; ldd/std: 8). */
  size: 1 | 2 | 4 | 8;
  /** The loaded value is sign-extended into the register (lb, lh, ldsb, ldsh). */
  signed: boolean;
  /** Base register (%g0 / $0: absolute). */
  base: number;
  /** Index register (SPARC reg+reg addressing), else undefined. */
  index?: number;
  offset: number;
}

/** A source operand of a computable operation: a register or an immediate. */
export type Src = { r: number } | { k: number };

/**
 * The operations regeneration can recompute (the "difficult" instructions of larus-1990 and the
 * "easy" constants): the value operations of cpu/semantics.ts, which define them for the CPUs too
 * (an opcode-table row names the operation it computes), and
 *   ldro                                  a load (address a + b) proven to read the original
 *                                         executable's read-only image (tracer/rodata.ts); never
 *                                         from the decoder, never evaluated by evalOp: the schema
 *                                         carries it as the annotation `v`
 */
export type { ComputeName };

export interface ComputeOp {
  op: ComputeName;
  /** Destination registers (mult/div: [HI, LO]; umul/smul: [rd, Y]; save/restore: [rd]). */
  d: number[];
  a?: Src;
  b?: Src;
  /** Registers the operation also reads (SPARC udiv/sdiv: Y, the dividend's high word). */
  extra?: number[];
}

export interface Decoded {
  addr: number;
  word: number;
  /** Mnemonic (for listings and errors). */
  name: string;
  /** A user-mode instruction of the machine (not reserved, privileged or foreign). */
  valid: boolean;
  cti: CtiKind;
  /** Conditional branch (a predicate); false for branch-always and branch-never. */
  cond: boolean;
  /** branch-never (SPARC bn): never taken. */
  never: boolean;
  delay: boolean;
  dsMode: DelayMode;
  /** Static target of a PC-relative or region transfer. */
  target?: number;
  /** Register-target transfers: target = sum of these registers + targetImm. */
  targetRegs?: number[];
  targetImm?: number;
  mem?: MemRef;
  defs: number[];
  uses: number[];
  /** Regeneration can recompute the registers this instruction defines. */
  compute?: ComputeOp;
  /** System-call trap (MIPS syscall, SPARC ta 0). */
  syscall: boolean;
  /**
   * A trap after which execution continues with the next instruction: system calls, SPARC
   * conditional traps and the window-management software traps (ta 3, ta 4). MIPS break and the
   * other software traps raise a signal and never fall through.
   */
  trapContinues: boolean;
  /** SPARC: the window moves by this much (save +1, restore -1); 0 otherwise. */
  window: number;
  /** SPARC unimp: a data word (struct-return size after a call), never executed. */
  unimp: boolean;
}

/** The ISA adapter the instrumenter works through. */
export interface Isa {
  readonly name: IsaName;
  readonly arch: Arch;
  readonly bigEndian: boolean;
  /** Trace-buffer pointer and instrumentation temporary (DESIGN.md section 3). */
  readonly PTR: number;
  readonly TMP: number;
  /** Registers no guest code may use (MIPS k0 k1; SPARC %g5 %g6 %g7). */
  readonly reserved: readonly number[];
  readonly SP: number;
  /** Link register written by a call, as seen by the caller (ra, %o7). */
  readonly LINK: number;
  /** First argument register (a0, %o0): the jmp_buf of setjmp/longjmp. */
  readonly ARG0: number;
  /** The register a function returns its value in, as the caller sees it (v0, %o0). */
  readonly RET: number;
  /** The system-call number register (v0, %g1). */
  readonly SYSNUM: number;
  /** Registers a system call changes (docs/abi.md). */
  readonly syscallDefs: readonly number[];
  /**
   * Registers a call leaves with unknown contents, as seen by the caller: the caller-saved
   * registers of the convention and the link (MIPS o32: at v0-v1 a0-a3 t0-t9 ra HI LO; SPARC:
   * %g1-%g4 %o0-%o5 %o7 icc Y).
   */
  readonly callClobbers: readonly number[];
  /** Callee-saved registers regeneration carries across a call (MIPS s0-s8 gp sp; SPARC %sp). */
  readonly callPreserves: readonly number[];
  /** Callee-saved registers longjmp restores from the jmp_buf (MIPS); none on SPARC (windows). */
  readonly longjmpRestores: readonly number[];
  decode(word: number, addr: number): Decoded;
  /**
   * What decode(d.word, addr) gives, from d (the same word decoded at d.addr): a copy with that
   * address and its static target moved there. The copy shares d's other parts (defs, uses, mem,
   * compute, targetRegs), which are only read.
   */
  at(d: Decoded, addr: number): Decoded;
  regName(r: number): string;
  disasm(word: number, addr: number): string;
  /** Canonical (window-independent) id of register r at window depth `depth` (SPARC); MIPS: r. */
  canon(r: number, depth: number): number;
  /** The architectural register and depth of a canonical id (inverse of canon). */
  uncanon(c: number): { reg: number; depth: number };
}
