/**
 * MIPS CPU benchmark (a script, not a test): guest instructions per second of the fast engine and
 * of the reference interpreter on CPU-bound workloads (the Linux-flavour builds of li, compress and
 * sgefa, both byte orders, at their default size and at a larger size), and the ratio to qemu-user
 * running the same binary with the same arguments, measured side by side in one run.
 *
 *   npm run build && node dist/bench/cpu-mips.js [--reps N] [--ref-insns N] [--no-large] [program ...]
 *
 * emu runs in this process under the test Linux layer (bench/linuxuser_mips.ts), timed from
 * the first instruction to exit (ELF loading excluded); qemu-user is timed as a whole process, and
 * its start-up (the median of --reps runs of `hello`) is subtracted, as bench/cpu-sparc.ts does
 * (at least 1 ms is left). Both are measured in CPU time
 * (user + system, which for emu includes V8's background compiler threads; for qemu via
 * /usr/bin/time) and in wall time. Instruction counts are emu's retired-instruction counts (the
 * same program path under both). The reference interpreter runs the first --ref-insns
 * instructions only (it is slow by design). Times are medians of --reps runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BUILD_DIR, PROGRAMS_DIR } from '../images/build.js';
import { TARGETS } from '../images/toolchain.js';
import type { TargetName } from '../format/target.js';
import { MipsLinuxProcess } from './linuxuser_mips.js';
import { benchCommand, checkNames, positiveInt } from './cli.js';

interface Work {
  name: string;
  size: 'default' | 'large';
  args: string[];
  stdin?: string;
}

const WORKLOADS: Work[] = [
  { name: 'li', size: 'default', args: ['-', '7'], stdin: 'li/queens.lsp' },
  { name: 'li', size: 'large', args: ['-', '9'], stdin: 'li/queens.lsp' },
  { name: 'compress', size: 'default', args: [] },
  { name: 'compress', size: 'large', args: ['2000000'] },
  { name: 'sgefa', size: 'default', args: [] },
  { name: 'sgefa', size: 'large', args: ['400'] },
];

interface Times {
  cpu: number;
  wall: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const HAVE_TIME = existsSync('/usr/bin/time');

function qemuTime(t: TargetName, exe: string, args: string[], input: Buffer): Times {
  const dir = mkdtempSync(join(tmpdir(), 'emu-bench-'));
  try {
    const rusage = join(dir, 'rusage');
    const cmd = HAVE_TIME ? '/usr/bin/time' : TARGETS[t].qemu;
    const argv = HAVE_TIME ? ['-f', '%U %S', '-o', rusage, TARGETS[t].qemu, exe, ...args] : [exe, ...args];
    const t0 = performance.now();
    const r = spawnSync(cmd, argv, { cwd: dir, input, env: {}, maxBuffer: 1 << 28 });
    const wall = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`${exe}: qemu exit status ${r.status} ${r.signal ?? ''}`);
    let cpu = wall;
    if (HAVE_TIME) {
      const [u, s] = readFileSync(rusage, 'utf8').trim().split(/\s+/).map(Number);
      cpu = u! + s!;
    }
    return { cpu, wall };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function emuRun(exe: string, args: string[], input: Buffer, engine: 'fast' | 'ref', limit: number): Times & { insns: number; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'emu-bench-'));
  try {
    const p = new MipsLinuxProcess({ elf: exe, engine, argv: [exe, ...args], stdin: input, sandbox: dir });
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const n = p.run(limit);
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    p.user.closeAll();
    return { insns: n, cpu: (c.user + c.system) / 1e6, wall, status: p.user.exitStatus };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): void {
  const cmd = benchCommand('cpu-mips.js', 'MIPS CPU benchmark: fast engine, reference interpreter and qemu-user side by side (li, compress, sgefa; mipsel and mips)')
    .option('--reps <n>', 'runs per measurement (medians are printed)', positiveInt, 3)
    .option('--ref-insns <n>', 'instructions the reference interpreter runs', positiveInt, 20_000_000)
    .option('--no-large', 'the default sizes only')
    .argument('[program...]', `workloads to run (${[...new Set(WORKLOADS.map((w) => w.name))].join(', ')}; default all)`)
    .parse(process.argv);
  const only = cmd.args;
  checkNames(cmd, 'program', only, WORKLOADS.map((w) => w.name));
  const { reps, refInsns, large } = cmd.opts<{ reps: number; refInsns: number; large: boolean }>();
  const works = WORKLOADS.filter((w) => (only.length === 0 || only.includes(w.name)) && (large || w.size === 'default'));
  const M = (x: number): string => (x / 1e6).toFixed(1);
  const rows: string[][] = [[
    'program', 'size', 'target', 'insns(M)', 'qemu net cpu(s)', 'qemu net wall(s)', 'fast cpu(s)', 'fast wall(s)',
    'fast M/s', 'ref M/s', 'qemu M/s', 'fast/qemu cpu', 'fast/qemu wall', 'fast/ref',
  ]];
  for (const t of ['mipsel', 'mips'] as TargetName[]) {
    const bin = join(BUILD_DIR, `linux-${t}`, 'bin');
    const hello = join(bin, 'hello');
    if (!existsSync(hello)) {
      process.stderr.write(`${bin}: not built (run: node bin/emu.js images build -f linux -t ${t})\n`);
      continue;
    }
    const starts = Array.from({ length: reps }, () => qemuTime(t, hello, [], Buffer.alloc(0)));
    const start: Times = { cpu: median(starts.map((x) => x.cpu)), wall: median(starts.map((x) => x.wall)) };
    process.stderr.write(`${t}: qemu start-up (hello) ${start.cpu.toFixed(3)} s cpu, ${start.wall.toFixed(3)} s wall (subtracted)\n`);
    for (const w of works) {
      const exe = join(bin, w.name);
      if (!existsSync(exe)) continue;
      const input = w.stdin ? readFileSync(join(PROGRAMS_DIR, w.stdin)) : Buffer.alloc(0);
      const q: Times[] = [];
      const f: Times[] = [];
      let insns = 0;
      for (let k = 0; k < reps; k++) {
        q.push(qemuTime(t, exe, w.args, input));
        const r = emuRun(exe, w.args, input, 'fast', Infinity);
        if (r.status !== 0) throw new Error(`${w.name}: exit status ${r.status} under emu`);
        insns = r.insns;
        f.push(r);
      }
      const ref = emuRun(exe, w.args, input, 'ref', refInsns);
      const qc = Math.max(1e-3, median(q.map((x) => x.cpu)) - start.cpu);
      const qw = Math.max(1e-3, median(q.map((x) => x.wall)) - start.wall);
      const fc = median(f.map((x) => x.cpu));
      const fw = median(f.map((x) => x.wall));
      const fastRate = insns / fc;
      const refRate = ref.insns / ref.cpu;
      rows.push([
        w.name, w.size, t, M(insns), qc.toFixed(3), qw.toFixed(3), fc.toFixed(3), fw.toFixed(3),
        M(fastRate), M(refRate), M(insns / qc), (qc / fc).toFixed(3), (qw / fw).toFixed(3), (fastRate / refRate).toFixed(1),
      ]);
      process.stderr.write(`${w.name} ${w.size} ${t} done\n`);
    }
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  process.stdout.write(`${rows.map((r) => r.map((x, c) => (c < 3 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join('  ')).join('\n')}\n`);
}

main();
