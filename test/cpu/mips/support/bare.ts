/**
 * A bare machine for CPU-level tests: physical memory, a MipsCpu with the chosen engine, an
 * encoder that builds instruction words from the opcode table, and helpers to place code, map
 * pages in the TLB and enter user mode through the architectural return path.
 */
import { PhysMem } from '../../../../cpu/physmem.js';
import { MipsCpu } from '../../../../cpu/mips/cpu.js';
import { createEngine, type EngineName } from '../../../../cpu/mips/index.js';
import { OPCODES, type OpSpec } from '../../../../cpu/mips/opcodes.js';
import { ENTRYLO_D, ENTRYLO_V, SR_CU1, SR_IEP, SR_IM_MASK, SR_KUP } from '../../../../cpu/mips/cp0.js';

const BY_NAME = new Map<string, OpSpec>();
for (const r of OPCODES) if (!BY_NAME.has(r.name)) BY_NAME.set(r.name, r);

export interface Fields {
  rs?: number;
  rt?: number;
  rd?: number;
  sa?: number;
  imm?: number;
  target?: number;
  code?: number;
  /** COP1: fs/ft/fd aliases of rd/rt/sa. */
  fs?: number;
  ft?: number;
  fd?: number;
}

/** Encodes an instruction by mnemonic (table row) and field values. */
export function enc(name: string, f: Fields = {}): number {
  const r = BY_NAME.get(name);
  if (!r) throw new Error(`enc: no instruction ${name}`);
  let w = r.match;
  const put = (v: number | undefined, shift: number, bits: number): void => {
    if (v !== undefined) w |= (v & ((1 << bits) - 1)) << shift;
  };
  put(f.rs, 21, 5);
  put(f.rt ?? f.ft, 16, 5);
  put(f.rd ?? f.fs, 11, 5);
  put(f.sa ?? f.fd, 6, 5);
  put(f.imm, 0, 16);
  put(f.target, 0, 26);
  put(f.code, 6, 20);
  w >>>= 0;
  if (((w & r.mask) >>> 0) !== r.match) throw new Error(`enc: fields of ${name} overlap its fixed bits`);
  return w;
}

export class Bare {
  readonly mem: PhysMem;
  readonly cpu: MipsCpu;

  constructor(engine: EngineName, endian: 'little' | 'big' = 'little', size = 1 << 20) {
    this.mem = new PhysMem(size, endian);
    this.cpu = new MipsCpu({ mem: this.mem });
    this.cpu.setEngine(createEngine(engine, this.cpu));
  }

  /** Writes words at physical address pa. */
  code(pa: number, words: number[]): void {
    words.forEach((w, k) => this.mem.write32(pa + 4 * k, w | 0));
  }

  /** Maps virtual page va to physical page pa in TLB entry i (ASID asid, writable unless ro). */
  map(i: number, va: number, pa: number, o: { asid?: number; ro?: boolean; global?: boolean; invalid?: boolean } = {}): void {
    const lo = (pa & ~0xfff) | (o.invalid ? 0 : ENTRYLO_V) | (o.ro ? 0 : ENTRYLO_D) | (o.global ? 0x100 : 0);
    const saved = this.cpu.entryHi;
    this.cpu.tlbSet(i, (va & ~0xfff) | ((o.asid ?? 0) << 6), lo);
    this.cpu.setEntryHi(saved);
  }

  /** Enters user mode at pc (rfe path), interrupts enabled, FPU usable, with the given ASID. */
  user(pc: number, asid = 0, extraStatus = 0): void {
    this.cpu.setEntryHi(asid << 6);
    this.cpu.setStatus(SR_CU1 | SR_IM_MASK | SR_KUP | SR_IEP | extraStatus);
    this.cpu.returnFromException(pc);
  }
}
