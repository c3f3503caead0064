/**
 * Per-instruction comparison with qemu-sparc: runs a program under
 * `qemu-sparc -singlestep -d cpu,nochain -D log` (with `fpu`: `-d cpu,fpu,nochain`), parses the
 * state qemu logs before every instruction (pc, npc, %g, %o, %l, %i of the current window, psr,
 * y; with `fpu` also %f0-%f31 and the FSR), and runs the same program
 * on emu's CPU under the test Linux layer, one instruction at a time, recording the same fields.
 *
 * Normalisation: emu's initial %sp is qemu's (read from the log's first entry); consecutive
 * identical qemu entries collapse into one (qemu logs an instruction again when it re-executes
 * it after servicing a window trap); PSR compares on icc only (qemu-user runs with S = ET = 0 and
 * services window traps without CWP changes to the trap window). The locals of a frame made by
 * SAVE are undefined until the program writes them: emu's trap entry writes %l1/%l2 of its trap
 * window, which a later SAVE may enter (and spills and fills carry along), where qemu has older
 * values; such never-written locals (tracked with the opcode table's regsDefined) do not count.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineName } from '../../../cpu/sparc/index.js';
import { SparcLinuxProcess } from '../../../bench/linuxuser_sparc.js';
import { decode } from '../../../cpu/sparc/decode.js';
import { regsDefined } from '../../../cpu/sparc/query.js';

export interface CpuState {
  pc: number;
  npc: number;
  /** %g0-%g7, %o0-%o7, %l0-%l7, %i0-%i7. */
  r: number[];
  icc: number;
  y: number;
  /** emu only: bit k set when %lk of the current frame has not been written since its SAVE. */
  undefLocals?: number;
  /** %f0-%f31 (qemu: logged with `fpu` only). */
  f?: number[];
  fsr?: number;
}

/** Parses qemu's `-d cpu` log (sparc32 format). */
export function parseQemuLog(text: string): CpuState[] {
  const out: CpuState[] = [];
  let cur: Partial<CpuState> & { r?: number[] } = {};
  const hexes = (s: string): number[] => s.trim().split(/\s+/).map((x) => parseInt(x, 16) >>> 0);
  for (const line of text.split('\n')) {
    let m: RegExpMatchArray | null;
    if ((m = line.match(/^pc: ([0-9a-f]+)\s+npc: ([0-9a-f]+)/))) {
      cur = { pc: parseInt(m[1]!, 16) >>> 0, npc: parseInt(m[2]!, 16) >>> 0, r: [] };
    } else if ((m = line.match(/^%[goli]0-7: (.*)$/))) {
      cur.r!.push(...hexes(m[1]!));
    } else if ((m = line.match(/^%f\d\d:\s+(.*)$/))) {
      // Four doubles a line: the even register's word first.
      cur.f ??= [];
      for (const d of m[1]!.trim().split(/\s+/)) cur.f.push(parseInt(d.slice(0, 8), 16) >>> 0, parseInt(d.slice(8), 16) >>> 0);
    } else if ((m = line.match(/^psr: ([0-9a-f]+)/))) {
      cur.icc = (parseInt(m[1]!, 16) >>> 20) & 15;
    } else if ((m = line.match(/^fsr: ([0-9a-f]+) y: ([0-9a-f]+)/))) {
      cur.y = parseInt(m[2]!, 16) >>> 0;
      if (cur.f) cur.fsr = parseInt(m[1]!, 16) >>> 0;
      if (cur.r!.length !== 32) throw new Error(`qemu log: entry at pc ${cur.pc?.toString(16)} has ${cur.r!.length} registers`);
      out.push(cur as CpuState);
    }
  }
  return out;
}

function same(a: CpuState, b: CpuState): boolean {
  return a.pc === b.pc && a.npc === b.npc && a.icc === b.icc && a.y === b.y && a.r.every((v, i) => v === b.r[i])
    && a.fsr === b.fsr && (a.f === undefined || a.f.every((v, i) => v === b.f![i]));
}

/** Runs qemu-sparc with the per-instruction log; returns the deduplicated states. */
export function qemuTrace(exe: string, args: string[] = [], fpu = false): CpuState[] {
  const dir = mkdtempSync(join(tmpdir(), 'emu-qlog-'));
  try {
    const log = join(dir, 'log');
    execFileSync('qemu-sparc', ['-singlestep', '-d', fpu ? 'cpu,fpu,nochain' : 'cpu,nochain', '-D', log, exe, ...args], {
      cwd: dir, env: {}, stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 1 << 30,
    });
    const states = parseQemuLog(readFileSync(log, 'latin1'));
    return states.filter((s, i) => i === 0 || !same(s, states[i - 1]!));
  } catch (e) {
    // qemu exits with the program's status; only a missing log is an error.
    const log = join(dir, 'log');
    const states = parseQemuLog(readFileSync(log, 'latin1'));
    if (states.length === 0) throw e;
    return states.filter((s, i) => i === 0 || !same(s, states[i - 1]!));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function snapshot(p: SparcLinuxProcess, undefLocals: number): CpuState {
  const c = p.cpu;
  return {
    pc: c.pc >>> 0, npc: c.npc >>> 0, r: Array.from(c.currentWindow(), (v) => v >>> 0), icc: c.icc, y: c.y >>> 0, undefLocals,
    f: Array.from({ length: 32 }, (_, i) => c.fpu.getS(i) >>> 0), fsr: c.fpu.fsr >>> 0,
  };
}

/**
 * Runs exe on emu one instruction at a time from qemu's initial %sp; returns the states (and, in
 * `executed`, the words of the instructions run).
 */
export function emuTrace(exe: string, engine: EngineName, initialSp: number, limit: number, args: string[] = [], executed?: number[]): CpuState[] {
  const p = new SparcLinuxProcess({ elf: exe, engine, argv: [exe, ...args], initialSp });
  const out: CpuState[] = [];
  // Locals written per frame (innermost last): a frame made by SAVE starts with none.
  const frames: number[] = [0xff];
  while (!p.done && out.length < limit) {
    out.push(snapshot(p, ~frames[frames.length - 1]! & 0xff));
    const word = new DataView(p.copyIn(p.cpu.pc >>> 0, 4).buffer).getUint32(0);
    const d = decode(word);
    executed?.push(word);
    if (!p.stepOne()) break;
    const sem = d.spec?.sem;
    if (sem === 'save') frames.push(0);
    else if (sem === 'restore' && frames.length > 1) frames.pop();
    for (const reg of regsDefined(d)) if (reg >= 16 && reg < 24) frames[frames.length - 1]! |= 1 << (reg - 16);
  }
  return out;
}

const NAMES = ['g', 'o', 'l', 'i'];
function regName(i: number): string {
  return `%${NAMES[i >> 3]}${i & 7}`;
}

/** First difference between the traces as a readable message, or undefined if equal. */
export function compareTraces(q: CpuState[], e: CpuState[]): string | undefined {
  const n = Math.min(q.length, e.length);
  for (let k = 0; k < n; k++) {
    const a = q[k]!;
    const b = e[k]!;
    const diffs: string[] = [];
    if (a.pc !== b.pc) diffs.push(`pc qemu ${a.pc.toString(16)} emu ${b.pc.toString(16)}`);
    if (a.npc !== b.npc) diffs.push(`npc qemu ${a.npc.toString(16)} emu ${b.npc.toString(16)}`);
    if (a.icc !== b.icc) diffs.push(`icc qemu ${a.icc.toString(2)} emu ${b.icc.toString(2)}`);
    if (a.y !== b.y) diffs.push(`y qemu ${a.y.toString(16)} emu ${b.y.toString(16)}`);
    if (a.f) {
      if (a.fsr !== b.fsr) diffs.push(`fsr qemu ${a.fsr!.toString(16)} emu ${b.fsr!.toString(16)}`);
      for (let i = 0; i < 32; i++) if (a.f[i] !== b.f![i]) diffs.push(`%f${i} qemu ${a.f[i]!.toString(16)} emu ${b.f![i]!.toString(16)}`);
    }
    for (let i = 0; i < 32; i++) {
      if (a.r[i] === b.r[i]) continue;
      // Locals of a frame not yet written since its SAVE are undefined (see the file comment).
      if (i >= 16 && i < 24 && b.undefLocals !== undefined && (b.undefLocals >> (i - 16)) & 1) continue;
      diffs.push(`${regName(i)} qemu ${a.r[i]!.toString(16)} emu ${b.r[i]!.toString(16)}`);
    }
    if (diffs.length) {
      const prev = k > 0 ? q[k - 1]!.pc.toString(16) : '-';
      return `state ${k} (before the instruction at ${a.pc.toString(16)}, previous pc ${prev}): ${diffs.join('; ')}`;
    }
  }
  if (q.length !== e.length) return `length differs: qemu ${q.length} states, emu ${e.length}`;
  return undefined;
}
