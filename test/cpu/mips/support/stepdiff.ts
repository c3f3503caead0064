/**
 * Per-instruction differential check against qemu-user: the program runs under
 * `qemu-* -singlestep -d cpu,nochain` and on emu's CPU (test Linux layer, same initial sp), and
 * the state before every instruction (PC, GPRs, HI, LO; FCR31 and FGRs when logged) must match.
 */
import { disasm } from '../../../../cpu/mips/disasm.js';
import type { EngineName } from '../../../../cpu/mips/index.js';
import type { TargetName } from '../../../../format/target.js';
import { MipsLinuxProcess } from '../../../../bench/linuxuser_mips.js';
import { runQemuTrace, type QemuRecord } from './qemulog.js';

export interface StepDiffResult {
  instructions: number;
  mismatches: string[];
  qemuStatus: number | null;
  qemuSignal: string | null;
  emuExit: { status: number | null; signal: number | null };
  qemuStdout: string;
  emuStdout: string;
  /** The words of the instructions emu executed, in order. */
  executed: number[];
}

const hex = (v: number): string => (v >>> 0).toString(16).padStart(8, '0');

function diffState(p: MipsLinuxProcess, q: QemuRecord): string[] {
  const cpu = p.cpu;
  const out: string[] = [];
  if (cpu.pc >>> 0 !== q.pc) out.push(`pc ${hex(cpu.pc)} != qemu ${hex(q.pc)}`);
  for (let k = 0; k < 32; k++) if ((cpu.r[k]! | 0) !== q.gpr[k]) out.push(`r${k} ${hex(cpu.r[k]!)} != qemu ${hex(q.gpr[k]!)}`);
  if (cpu.r[32] !== q.hi) out.push(`hi ${hex(cpu.r[32]!)} != qemu ${hex(q.hi)}`);
  if (cpu.r[33] !== q.lo) out.push(`lo ${hex(cpu.r[33]!)} != qemu ${hex(q.lo)}`);
  if (q.fgr) {
    // FCSR bits the R2010 has (qemu's 24Kf model has more, all zero in these programs).
    if ((cpu.fpu.fcsr & 0x0183ffff) !== (q.fcr31! & 0x0183ffff)) out.push(`fcsr ${hex(cpu.fpu.fcsr)} != qemu ${hex(q.fcr31!)}`);
    for (let k = 0; k < 32; k++) if (cpu.fpu.fgr[k] !== q.fgr[k]) out.push(`f${k} ${hex(cpu.fpu.fgr[k]!)} != qemu ${hex(q.fgr[k]!)}`);
  }
  return out;
}

export function stepDiff(target: TargetName, exe: string, engine: EngineName, fpu = false, maxMismatches = 5): StepDiffResult {
  const q = runQemuTrace(target, exe, [], fpu);
  if (q.records.length === 0) throw new Error(`${exe}: qemu produced no trace`);
  const p = new MipsLinuxProcess({ elf: exe, engine, argv: [exe], initialSp: q.records[0]!.gpr[29]! >>> 0 });
  const mismatches: string[] = [];
  let prevPc = 0;
  let n = 0;
  const executed: number[] = [];
  const wordAt = (pc: number): number => new DataView(p.copyIn(pc, 4).buffer).getUint32(0, !p.cpu.bigEndian);
  for (const rec of q.records) {
    const d = diffState(p, rec);
    if (d.length > 0) {
      const word = wordAt(prevPc);
      mismatches.push(`before instruction ${n} (after ${hex(prevPc)}: ${disasm(word, prevPc)}): ${d.join('; ')}`);
      if (mismatches.length >= maxMismatches) break;
      // Resynchronise on qemu's state so one divergence is reported once.
      p.cpu.setPC(rec.pc);
      rec.gpr.forEach((v, k) => (p.cpu.r[k] = v));
      p.cpu.r[32] = rec.hi;
      p.cpu.r[33] = rec.lo;
      if (rec.fgr) {
        rec.fgr.forEach((v, k) => (p.cpu.fpu.fgr[k] = v));
        p.cpu.fpu.setFcsr(rec.fcr31!);
      }
    }
    prevPc = p.cpu.pc >>> 0;
    n++;
    executed.push(wordAt(prevPc));
    if (!p.stepOne()) break;
  }
  if (mismatches.length === 0 && n !== q.records.length) mismatches.push(`emu ended after ${n} instructions, qemu executed ${q.records.length}`);
  return {
    instructions: n, mismatches, qemuStatus: q.status, qemuSignal: q.signal, emuExit: p.exitInfo(),
    qemuStdout: q.stdout.toString('latin1'), emuStdout: p.user.stdout.toString('latin1'), executed,
  };
}
