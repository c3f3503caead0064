/**
 * MIPS CPU benchmark (a script, not a test): guest instructions per second of the fast engine and
 * of the reference interpreter on CPU-bound workloads (the Linux-flavour builds of li, compress and
 * sgefa, both byte orders), and the ratio to qemu-user running the same binary, measured side by
 * side in one run.
 *
 *   npm run build && node dist/bench/cpu-mips.js [--reps N] [--ref-insns N] [program ...]
 *
 * emu runs in this process under the test Linux layer (test/support/linuxuser_mips.ts), timed from
 * the first instruction to exit (ELF loading excluded). qemu-user is timed as a whole process;
 * its start-up cost (a run of `hello`) is reported and subtracted for the corrected ratio.
 * Instruction counts are emu's retired-instruction counts (the same program path under both).
 * The reference interpreter runs the first --ref-insns instructions only (it is slow by design).
 * Times are medians of --reps runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BUILD_DIR } from '../images/build.js';
import { TARGETS, type TargetName } from '../images/toolchain.js';
import { MipsLinuxProcess } from '../test/support/linuxuser_mips.js';

interface Work {
  name: string;
  args: string[];
}

const WORKLOADS: Work[] = [
  { name: 'li', args: ['-', '7'] },
  { name: 'compress', args: [] },
  { name: 'sgefa', args: [] },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function stdinFor(w: Work): Buffer {
  if (w.name !== 'li') return Buffer.alloc(0);
  return spawnSync('cat', [join(BUILD_DIR, '..', 'programs', 'li', 'queens.lsp')]).stdout;
}

function qemuTime(t: TargetName, exe: string, args: string[], input: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'emu-bench-'));
  try {
    const t0 = performance.now();
    const r = spawnSync(TARGETS[t].qemu, [exe, ...args], { cwd: dir, input, env: {}, maxBuffer: 1 << 28 });
    const dt = performance.now() - t0;
    if (r.status === null) throw new Error(`${exe}: qemu died with ${r.signal}`);
    return dt / 1000;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function emuRun(exe: string, args: string[], input: Buffer, engine: 'fast' | 'ref', limit: number): { insns: number; secs: number; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'emu-bench-'));
  try {
    const p = new MipsLinuxProcess({ elf: exe, engine, argv: [exe, ...args], stdin: input, sandbox: dir });
    const t0 = performance.now();
    const n = p.run(limit);
    const secs = (performance.now() - t0) / 1000;
    return { insns: n, secs, status: p.user.exitStatus };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): void {
  const argv = process.argv.slice(2);
  let reps = 3;
  let refInsns = 20_000_000;
  const only: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--reps') reps = Number(argv[++i]);
    else if (argv[i] === '--ref-insns') refInsns = Number(argv[++i]);
    else only.push(argv[i]!);
  }
  const works = WORKLOADS.filter((w) => only.length === 0 || only.includes(w.name));
  const rows: string[] = [];
  const fmt = (x: number): string => (x / 1e6).toFixed(1);
  rows.push('program   target  insns(M)  qemu(s)  qemu-start(s)  fast(s)  fast(M/s)  ref(M/s)  fast/qemu  fast/qemu(corr)  fast/ref');
  for (const t of ['mipsel', 'mips'] as TargetName[]) {
    const bin = join(BUILD_DIR, `linux-${t}`, 'bin');
    const hello = join(bin, 'hello');
    if (!existsSync(hello)) {
      process.stderr.write(`${bin}: not built (run: node bin/emu.js images build -f linux -t ${t})\n`);
      continue;
    }
    const start = median(Array.from({ length: reps }, () => qemuTime(t, hello, [], Buffer.alloc(0))));
    for (const w of works) {
      const exe = join(bin, w.name);
      if (!existsSync(exe)) continue;
      const input = stdinFor(w);
      const q: number[] = [];
      const f: number[] = [];
      let insns = 0;
      for (let k = 0; k < reps; k++) {
        q.push(qemuTime(t, exe, w.args, input));
        const r = emuRun(exe, w.args, input, 'fast', Infinity);
        if (r.status !== 0) throw new Error(`${w.name}: exit status ${r.status} under emu`);
        insns = r.insns;
        f.push(r.secs);
      }
      const ref = emuRun(exe, w.args, input, 'ref', refInsns);
      const qs = median(q);
      const fs = median(f);
      const fastRate = insns / fs;
      const refRate = ref.insns / ref.secs;
      const qRate = insns / qs;
      const qRateCorr = insns / Math.max(qs - start, 1e-3);
      rows.push([
        w.name.padEnd(9), t.padEnd(7), fmt(insns).padStart(8), qs.toFixed(3).padStart(8), start.toFixed(3).padStart(13),
        fs.toFixed(3).padStart(8), fmt(fastRate).padStart(10), fmt(refRate).padStart(9),
        (fastRate / qRate).toFixed(3).padStart(10), (fastRate / qRateCorr).toFixed(3).padStart(16), (fastRate / refRate).toFixed(1).padStart(9),
      ].join(' '));
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

main();
