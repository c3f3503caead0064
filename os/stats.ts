/**
 * `--stats`: per-process and machine statistics of a run (docs/kernel.md section 11). Everything
 * is virtual (instructions, cycles, counts), so two runs of the same image give identical output.
 */
import type { Kernel } from './kernel.js';
import { SZOMB } from './proc.js';
import { SIGNAMES } from './signal.js';

export interface ProcStatsRow {
  pid: number;
  ppid: number;
  command: string;
  path: string;
  instructions: number;
  syscalls: number;
  faults: number;
  tlbMisses: number;
  windowSpills: number;
  windowFills: number;
  switches: number;
  voluntarySwitches: number;
  involuntarySwitches: number;
  cycles: number;
  start: number;
  end: number | null;
  /** Wait status rendered for people: "exit 0", "signal SEGV (core)", or "running". */
  status: string;
}

export interface StatsReport {
  machine: {
    arch: string;
    cpuHz: number;
    hz: number;
    quantumCycles: number;
    instructions: number;
    cycles: number;
    idleCycles: number;
    contextSwitches: number;
    processes: number;
    maxPagesInUse: number;
    pages: number;
    disk: { reads: number; writes: number; bytesRead: number; bytesWritten: number; hits: number; misses: number };
    halt: string | null;
    exitStatus: number;
  };
  processes: ProcStatsRow[];
}

export function statusString(xstat: number, exited: boolean): string {
  if (!exited) return 'running';
  const sig = xstat & 0x7f;
  if (sig === 0) return `exit ${(xstat >> 8) & 0xff}`;
  if (sig === 0x7f) return `stopped ${SIGNAMES[(xstat >> 8) & 0xff]}`;
  return `signal ${SIGNAMES[sig] ?? sig}${xstat & 0x80 ? ' (core)' : ''}`;
}

export function collectStats(k: Kernel): StatsReport {
  const processes: ProcStatsRow[] = k.history.map((p) => {
    const exited = p.p_stat === SZOMB;
    return {
      pid: p.p_pid,
      ppid: p.p_pptr?.p_pid ?? 0,
      command: p.p_comm,
      path: p.p_path,
      instructions: p.stats.insns,
      syscalls: p.stats.syscalls,
      faults: p.stats.faults,
      tlbMisses: p.stats.tlbMisses,
      windowSpills: p.stats.spills,
      windowFills: p.stats.fills,
      switches: p.stats.switches,
      voluntarySwitches: p.p_ru.nvcsw,
      involuntarySwitches: p.p_ru.nivcsw,
      cycles: p.stats.cycles,
      start: p.stats.start,
      end: exited ? p.stats.end : null,
      status: statusString(p.p_xstat, exited),
    };
  });
  const d = k.disk.stats;
  return {
    machine: {
      arch: k.md.arch === 'mips' ? (k.littleEndian ? 'mipsel' : 'mips') : 'sparc',
      cpuHz: k.cpuHz,
      hz: k.hz,
      quantumCycles: k.quantumCycles,
      instructions: k.insns,
      cycles: k.clock.now,
      idleCycles: k.idleCycles,
      contextSwitches: k.nswitch,
      processes: k.history.length,
      maxPagesInUse: k.pages.maxInUse,
      pages: k.pages.npages,
      disk: { reads: d.reads, writes: d.writes, bytesRead: d.bytesRead, bytesWritten: d.bytesWritten, hits: d.hits, misses: d.misses },
      halt: k.haltReason,
      exitStatus: k.exitStatus,
    },
    processes,
  };
}

/** The report as a table for people. */
export function formatStats(r: StatsReport): string {
  const m = r.machine;
  const secs = (c: number): string => (c / m.cpuHz).toFixed(6);
  const lines = [
    `machine: ${m.arch}, ${m.instructions} instructions, ${m.cycles} cycles (${secs(m.cycles)} s virtual), idle ${m.idleCycles} cycles, ${m.contextSwitches} context switches, ${m.processes} processes`,
    `memory: at most ${m.maxPagesInUse} of ${m.pages} pages in use; disk: ${m.disk.reads} reads (${m.disk.bytesRead} bytes), ${m.disk.writes} write-backs, cache ${m.disk.hits} hits / ${m.disk.misses} misses`,
  ];
  const head = ['pid', 'ppid', 'command', 'instructions', 'syscalls', 'faults', 'tlb-miss', 'spills', 'fills', 'switches', 'cycles', 'status'];
  const rows = r.processes.map((p) => [
    String(p.pid), String(p.ppid), p.command, String(p.instructions), String(p.syscalls), String(p.faults),
    String(p.tlbMisses), String(p.windowSpills), String(p.windowFills), String(p.switches), String(p.cycles), p.status,
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (row: string[]): string => row.map((c, i) => (i === 2 || i === 11 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd();
  lines.push(fmt(head), ...rows.map(fmt));
  return `${lines.join('\n')}\n`;
}
