/**
 * Runs a MIPS program under qemu-user with `-singlestep -d cpu[,fpu],nochain` and parses the log:
 * one record per executed instruction with the state BEFORE it (PC, GPRs, HI, LO; with fpu also
 * FCR31 and the 32 FGRs).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TARGETS } from '../../../../images/toolchain.js';
import type { TargetName } from '../../../../format/target.js';

export interface QemuRecord {
  pc: number;
  hi: number;
  lo: number;
  gpr: number[];
  fcr31?: number;
  /** FGR words $f0..$f31. */
  fgr?: number[];
}

export interface QemuRun {
  records: QemuRecord[];
  status: number | null;
  signal: string | null;
  stdout: Buffer;
}

export function parseQemuLog(text: string): QemuRecord[] {
  const recs: QemuRecord[] = [];
  let cur: QemuRecord | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('pc=')) {
      const m = /^pc=0x([0-9a-f]+) HI=0x([0-9a-f]+) LO=0x([0-9a-f]+)/.exec(line);
      if (!m) throw new Error(`qemu log: bad line ${line}`);
      cur = { pc: parseInt(m[1]!, 16) >>> 0, hi: parseInt(m[2]!, 16) | 0, lo: parseInt(m[3]!, 16) | 0, gpr: [] };
      recs.push(cur);
    } else if (cur && line.startsWith('GPR')) {
      const vals = line.slice(line.indexOf(':') + 1).trim().split(/\s+/);
      for (let k = 1; k < vals.length; k += 2) cur.gpr.push(parseInt(vals[k]!, 16) | 0);
    } else if (cur && line.startsWith('CP1 ')) {
      const m = /FCR31 0x([0-9a-f]+)/.exec(line);
      cur.fcr31 = parseInt(m![1]!, 16) | 0;
      cur.fgr = [];
    } else if (cur?.fgr && /^\s*f\d+: /.test(line)) {
      const m = /d:([0-9a-f]{16})/.exec(line)!;
      const d = m[1]!;
      cur.fgr.push(parseInt(d.slice(8), 16) | 0, parseInt(d.slice(0, 8), 16) | 0);
    }
  }
  return recs;
}

export function runQemuTrace(target: TargetName, exe: string, args: string[] = [], fpu = false): QemuRun {
  const dir = mkdtempSync(join(tmpdir(), 'emu-qemulog-'));
  try {
    const log = join(dir, 'log');
    const r = spawnSync(TARGETS[target].qemu, ['-singlestep', '-d', fpu ? 'cpu,fpu,nochain' : 'cpu,nochain', '-D', log, exe, ...args], {
      env: {}, cwd: dir, maxBuffer: 1 << 26,
    });
    return { records: parseQemuLog(readFileSync(log, 'utf8')), status: r.status, signal: r.signal, stdout: r.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
