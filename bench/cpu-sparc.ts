/**
 * SPARC CPU benchmark (a script, not a test): guest instructions per second of the fast engine and
 * of the reference interpreter on CPU-bound workloads (the Linux-flavour builds of li, compress and
 * sgefa, at their default size and larger), and the ratio to qemu-sparc running the same binary,
 * measured side by side in one run.
 *
 *   npm run build && node dist/bench/cpu-sparc.js [--reps N] [--ref-insns N] [--quick] [workload ...]
 *
 * emu runs in this process under the test Linux layer (bench/linuxuser_sparc.ts), timed
 * from the first instruction to exit (ELF loading excluded), a fresh CPU per run (so translation
 * and JIT warm-up are included). qemu-sparc is timed as a whole process; its start-up cost (a run
 * of `hello`) is subtracted. Both are reported in wall time and in CPU time (user + system, of this
 * process resp. of qemu via /usr/bin/time): on a shared machine CPU time is the steadier figure.
 * Instruction counts are emu's retired-instruction counts. The reference interpreter runs the
 * first --ref-insns instructions only. Times are medians of --reps runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BUILD_DIR, PROGRAMS_DIR } from '../images/build.js';
import { SparcLinuxProcess } from './linuxuser_sparc.js';
import { benchCommand, checkNames, positiveInt } from './cli.js';

interface Work {
  label: string;
  name: string;
  args: string[];
  stdin?: string;
  /** The program's default size (what --quick runs). */
  dflt?: boolean;
}

const WORKLOADS: Work[] = [
  { label: 'li 7', name: 'li', args: ['-', '7'], stdin: 'queens.lsp', dflt: true },
  { label: 'li 8', name: 'li', args: ['-', '8'], stdin: 'queens.lsp' },
  { label: 'compress', name: 'compress', args: [], dflt: true },
  { label: 'compress 4M', name: 'compress', args: ['4000000'] },
  { label: 'sgefa', name: 'sgefa', args: [], dflt: true },
  { label: 'sgefa 300', name: 'sgefa', args: ['300', '1'] },
];

const BIN = join(BUILD_DIR, 'linux-sparc', 'bin');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Timing {
  wall: number;
  cpu: number;
}

/** qemu-sparc as a whole process: wall time and its user + system time (via /usr/bin/time). */
function qemuTime(exe: string, args: string[], input: Buffer): Timing {
  const dir = mkdtempSync(join(tmpdir(), 'emu-bench-'));
  try {
    const t0 = performance.now();
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', 'qemu-sparc', exe, ...args], { cwd: dir, input, env: {}, maxBuffer: 1 << 28 });
    const wall = (performance.now() - t0) / 1000;
    if (r.status === null) throw new Error(`${exe}: qemu died with ${r.signal}`);
    const m = r.stderr.toString().trim().split('\n').pop()!.match(/^([\d.]+) ([\d.]+)$/);
    if (!m) throw new Error(`${exe}: no timing from /usr/bin/time: ${r.stderr.toString()}`);
    return { wall, cpu: Number(m[1]) + Number(m[2]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function emuRun(exe: string, args: string[], input: Buffer, engine: 'fast' | 'interp', limit: number): { insns: number; t: Timing; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'emu-bench-'));
  try {
    const p = new SparcLinuxProcess({ elf: exe, engine, argv: [exe, ...args], stdin: input, sandbox: dir });
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const n = p.run(limit);
    const wall = (performance.now() - t0) / 1000;
    const cu = process.cpuUsage(c0);
    return { insns: n, t: { wall, cpu: (cu.user + cu.system) / 1e6 }, status: p.user.exitStatus };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (x: number, d = 1): string => x.toFixed(d);

function main(): void {
  const names = [...new Set(WORKLOADS.flatMap((w) => [w.name, w.label]))];
  const cmd = benchCommand('cpu-sparc.js', 'SPARC CPU benchmark: fast engine, reference interpreter and qemu-sparc side by side (li, compress, sgefa)')
    .option('--reps <n>', 'runs per measurement (medians are printed)', positiveInt, 3)
    .option('--ref-insns <n>', 'instructions the reference interpreter runs', positiveInt, 20_000_000)
    .option('--quick', 'the default sizes only')
    .argument('[workload...]', `programs or workload labels to run (${names.map((n) => `'${n}'`).join(', ')}; default all)`)
    .parse(process.argv);
  const only = cmd.args;
  checkNames(cmd, 'workload', only, names);
  const { reps, refInsns, quick = false } = cmd.opts<{ reps: number; refInsns: number; quick?: boolean }>();
  if (!existsSync(join(BIN, 'hello'))) {
    process.stderr.write(`missing ${BIN}: build the guest programs first (node bin/emu.js images build -f linux -t sparc)\n`);
    process.exitCode = 2;
    return;
  }
  const works = WORKLOADS.filter((w) => (only.length === 0 || only.includes(w.name) || only.includes(w.label)) && (!quick || w.dflt === true));
  const startQ = median(Array.from({ length: reps }, () => qemuTime(join(BIN, 'hello'), [], Buffer.alloc(0))).map((t) => t.wall));
  const startC = median(Array.from({ length: reps }, () => qemuTime(join(BIN, 'hello'), [], Buffer.alloc(0))).map((t) => t.cpu));
  process.stdout.write(`qemu-sparc start-up: ${fmt(startQ * 1000)} ms wall, ${fmt(startC * 1000)} ms cpu (subtracted)\n`);
  process.stdout.write('workload        insns     fast Mi/s (wall|cpu)  interp Mi/s (wall|cpu)  qemu Mi/s (wall|cpu)   fast/qemu (wall|cpu)  fast/interp (cpu)\n');
  for (const w of works) {
    const exe = join(BIN, w.name);
    const input = w.stdin ? readFileSync(join(PROGRAMS_DIR, w.name, w.stdin)) : Buffer.alloc(0);
    const fast = Array.from({ length: reps }, () => emuRun(exe, w.args, input, 'fast', Infinity));
    const insns = fast[0]!.insns;
    if (fast.some((f) => f.insns !== insns || f.status !== 0)) throw new Error(`${w.label}: runs differ or failed`);
    const ref = Array.from({ length: reps }, () => emuRun(exe, w.args, input, 'interp', refInsns));
    const q = Array.from({ length: reps }, () => qemuTime(exe, w.args, input));
    const fw = insns / median(fast.map((f) => f.t.wall)) / 1e6;
    const fc = insns / median(fast.map((f) => f.t.cpu)) / 1e6;
    const rw = ref[0]!.insns / median(ref.map((r) => r.t.wall)) / 1e6;
    const rc = ref[0]!.insns / median(ref.map((r) => r.t.cpu)) / 1e6;
    const qw = insns / Math.max(1e-3, median(q.map((t) => t.wall)) - startQ) / 1e6;
    const qc = insns / Math.max(1e-3, median(q.map((t) => t.cpu)) - startC) / 1e6;
    process.stdout.write(
      `${w.label.padEnd(13)} ${String(insns).padStart(11)}   ${fmt(fw).padStart(7)} | ${fmt(fc).padEnd(7)}      ${fmt(rw).padStart(7)} | ${fmt(rc).padEnd(7)}       ${fmt(qw).padStart(7)} | ${fmt(qc).padEnd(7)}    ${fmt(fw / qw, 3).padStart(6)} | ${fmt(fc / qc, 3).padEnd(6)}      ${fmt(fc / rc, 2)}\n`,
    );
  }
}

main();
