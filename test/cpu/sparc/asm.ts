/**
 * A tiny encoder for hand-built test programs, from the opcode table (no assembler needed):
 * `A.op('add', rd, rs1, rs2OrImm)`, `A.mem('ld', rd, rs1, imm)`, `A.br('bne', disp, annul)`...
 * Immediates are numbers, registers are `R(n)` (a tagged number) so both forms read naturally.
 */
import { opcodeByName, A_BIT, I_BIT, OP, OP2, RD, RS1 } from '../../../cpu/sparc/opcodes.js';

export interface Reg {
  reg: number;
}
export const R = (n: number): Reg => ({ reg: n });
export const G = (n: number): Reg => R(n);
export const O = (n: number): Reg => R(8 + n);
export const L = (n: number): Reg => R(16 + n);
export const I = (n: number): Reg => R(24 + n);
export const SP = R(14);
export const FP = R(30);

function src2(x: Reg | number): number {
  return typeof x === 'number' ? I_BIT | (x & 0x1fff) : x.reg & 31;
}

export const A = {
  /** Format 3 arithmetic/logic/control: name rd, rs1, rs2|imm. */
  op(name: string, rd: Reg, rs1: Reg, b: Reg | number): number {
    return (opcodeByName(name).match | RD(rd.reg) | RS1(rs1.reg) | src2(b)) >>> 0;
  },
  /** Loads and stores: name rd, [rs1 + rs2|imm] (alternate forms: asi in bits 12:5, i = 0). */
  mem(name: string, rd: Reg | number, rs1: Reg, b: Reg | number, asi = 0): number {
    const r = typeof rd === 'number' ? rd : rd.reg;
    const s = opcodeByName(name);
    const lo = s.mem?.alt ? ((asi & 0xff) << 5) | (typeof b === 'number' ? 0 : b.reg) : src2(b);
    return (s.match | RD(r) | RS1(rs1.reg) | lo) >>> 0;
  },
  /** FPops: name fd, fs1, fs2 (register numbers). */
  fp(name: string, fd: number, fs1: number, fs2: number): number {
    return (opcodeByName(name).match | RD(fd) | RS1(fs1) | (fs2 & 31)) >>> 0;
  },
  /** Bicc/FBfcc/CBccc: displacement in instructions. */
  br(name: string, disp: number, annul = false): number {
    return (opcodeByName(name).match | (annul ? A_BIT : 0) | (disp & 0x3fffff)) >>> 0;
  },
  call(disp: number): number {
    return (OP(1) | (disp & 0x3fffffff)) >>> 0;
  },
  sethi(rd: Reg, value: number): number {
    return (OP(0) | OP2(4) | RD(rd.reg) | ((value >>> 10) & 0x3fffff)) >>> 0;
  },
  /** Ticc: name rs1 + imm7. */
  trap(name: string, imm: number, rs1: Reg = R(0)): number {
    return (opcodeByName(name).match | RS1(rs1.reg) | I_BIT | (imm & 0x7f)) >>> 0;
  },
  /** The full 32-bit constant into rd (sethi + or). */
  set(rd: Reg, value: number): number[] {
    return [A.sethi(rd, value), A.op('or', rd, rd, value & 0x3ff)];
  },
  nop: 0x01000000,
  unimp: 0x00000000,
};
