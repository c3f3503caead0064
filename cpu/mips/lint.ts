/**
 * Pipeline-hazard lint for MIPS I code: reports instruction sequences whose result on a real
 * R2000/R2010 differs from emu's (which, like QEMU, interlocks everything). The R2000 does not
 * interlock (Kane & Heinrich, chapter 5 and Appendix "Instruction hazards"):
 *   load-delay  the instruction after a load (lb..lwr, lwc1) or a coprocessor move to a general
 *               register (mfc0, mfc1, cfc1) must not read the loaded register — on an R2000 it
 *               would see the old value. lwl followed by lwr (or lwr by lwl) merging into the same
 *               register is the documented exception.
 *   cop-move    the instruction after mtc1/ctc1 must not use the FPU register (or FCSR) it writes.
 *   fp-cond     bc1t/bc1f must not immediately follow the c.cond that sets the condition.
 *   hilo        mult/div/mthi/mtlo must not come within two instructions after mfhi/mflo.
 * Execution order is followed through delay slots: the instruction after a load in a delay slot
 * is the branch's target (and the fall-through for a conditional branch).
 *
 * Compiled MIPS I code is hazard-free (the assembler schedules or pads with nops); the lint is for
 * hand-written assembly (.set noreorder).
 */
import { decode, type Insn } from './decode.js';
import { REG_F0, REG_FCC, REG_FCSR, REG_HI, REG_LO, branchTarget, regsDefined, regsUsed } from './query.js';
import { parseElf, sectionData, SHF_EXECINSTR, type ElfFile } from '../../format/elf.js';
import { disasmInsn } from './disasm.js';

export type HazardKind = 'load-delay' | 'cop-move' | 'fp-cond' | 'hilo';

export interface Hazard {
  kind: HazardKind;
  /** Address of the producing instruction. */
  addr: number;
  /** Address of the instruction that uses its result too early. */
  user: number;
  /** Human-readable description with both instructions. */
  text: string;
}

const LOADS_GPR = new Set(['LB', 'LBU', 'LH', 'LHU', 'LW', 'LWL', 'LWR', 'MFC0', 'MFC1', 'CFC1']);

/** Registers whose value an instruction produces late (available one instruction later), if any. */
function lateDefs(i: Insn): { kind: HazardKind; regs: number[] } | undefined {
  const op = i.spec?.op;
  if (!op) return undefined;
  if (LOADS_GPR.has(op) || op === 'LWC1') return { kind: 'load-delay', regs: regsDefined(i) };
  if (op === 'MTC1') return { kind: 'cop-move', regs: [REG_F0 + i.fs] };
  if (op === 'CTC1') return { kind: 'cop-move', regs: [REG_FCSR, REG_FCC] };
  if (i.spec!.cls === 'fcmp') return { kind: 'fp-cond', regs: [REG_FCC] };
  return undefined;
}

/** Checks code given as words at consecutive addresses from base. */
export function lintWords(words: ArrayLike<number>, base: number): Hazard[] {
  const n = words.length;
  const insns: Insn[] = [];
  for (let k = 0; k < n; k++) insns.push(decode(words[k]!));
  const at = (a: number): Insn | undefined => {
    const k = (a - base) / 4;
    return Number.isInteger(k) && k >= 0 && k < n ? insns[k] : undefined;
  };
  const out: Hazard[] = [];
  const describe = (i: Insn, a: number): string => `${(a >>> 0).toString(16)}: ${disasmInsn(i, a)}`;
  for (let k = 0; k < n; k++) {
    const i = insns[k]!;
    const a = (base + 4 * k) >>> 0;
    const prev = k > 0 ? insns[k - 1]! : undefined;
    // The instructions that execute right after this one.
    const nexts: number[] = [];
    if (prev?.spec?.delaySlot) {
      const t = branchTarget(prev, a - 4);
      if (t !== undefined) nexts.push(t);
      if (prev.spec.cls === 'branch') nexts.push(a + 4);
    } else nexts.push(a + 4);
    const late = lateDefs(i);
    if (late) {
      for (const na of nexts) {
        const u = at(na);
        if (!u?.spec) continue;
        const used = new Set(regsUsed(u));
        if (late.kind === 'fp-cond') {
          if (u.spec.op !== 'BC1T' && u.spec.op !== 'BC1F') continue;
        } else if (late.kind === 'load-delay' && (i.spec!.op === 'LWL' || i.spec!.op === 'LWR') && (u.spec.op === 'LWL' || u.spec.op === 'LWR') && u.rt === i.rt) {
          continue; // merging pair
        }
        const hit = late.regs.find((r) => used.has(r));
        if (hit !== undefined) {
          out.push({ kind: late.kind, addr: a, user: na >>> 0, text: `${late.kind}: ${describe(i, a)} -> ${describe(u, na)}` });
        }
      }
    }
    if (i.spec?.op === 'MFHI' || i.spec?.op === 'MFLO') {
      for (const d of [4, 8]) {
        const u = at(a + d);
        if (u?.spec && regsDefined(u).some((r) => r === REG_HI || r === REG_LO)) {
          out.push({ kind: 'hilo', addr: a, user: (a + d) >>> 0, text: `hilo: ${describe(i, a)} -> ${describe(u, a + d)}` });
        }
      }
    }
  }
  return out;
}

/** Checks every executable section of an ELF executable. */
export function lintElf(e: ElfFile): Hazard[] {
  const out: Hazard[] = [];
  for (const s of e.sections) {
    if ((s.flags & SHF_EXECINSTR) === 0 || s.size < 4) continue;
    const b = sectionData(e, s);
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const words = new Uint32Array(b.byteLength >>> 2);
    for (let k = 0; k < words.length; k++) words[k] = dv.getUint32(4 * k, !e.bigEndian);
    out.push(...lintWords(words, s.addr));
  }
  return out;
}

/** Checks an ELF file from its bytes (file names it in errors). */
export function lintFile(bytes: Uint8Array, file: string): Hazard[] {
  return lintElf(parseElf(bytes, file));
}
