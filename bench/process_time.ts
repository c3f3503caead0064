/**
 * Whole-process timing for the benchmarks: a command run under bash, whose `times` reports the
 * user and system time of the finished children (getrusage), and the host clock around it (bash's
 * start-up, a few ms, is in every figure alike). Pairs run alternated, A B A B ..., so that a
 * drift of the machine's speed shows in both sides of each ratio.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/** A command to time: argv, standard input (a file or nothing). */
export interface Cmd {
  argv: string[];
  stdin?: string;
}

export interface Run {
  cpu: number;
  wall: number;
  status: number | null;
  stdout: string;
}

/** Runs cmd once under bash, whose `times` gives the children's user and system time. */
export function run(c: Cmd, dir: string): Run {
  const out = join(dir, 'stdout');
  const script = '"$@" <"$BENCH_IN" >"$BENCH_OUT" 2>"$BENCH_OUT.err"; s=$?; times; exit $s';
  const env = { ...process.env, BENCH_IN: c.stdin ?? '/dev/null', BENCH_OUT: out };
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script, 'bash', ...c.argv], { env, encoding: 'latin1' });
  const wall = (performance.now() - t0) / 1000;
  const lines = r.stdout.trim().split('\n');
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines[lines.length - 1] ?? '');
  if (!m) throw new Error(`${c.argv.join(' ')}: no times from bash (${r.stderr || r.error?.message})`);
  const cpu = Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]);
  const stdout = existsSync(out) ? readFileSync(out, 'latin1') : '';
  if (r.status !== 0) {
    const err = existsSync(`${out}.err`) ? readFileSync(`${out}.err`, 'latin1').trim().split('\n').slice(-3).join(' | ') : '';
    throw new Error(`${c.argv.join(' ')}: exit status ${r.status} ${err}`);
  }
  return { cpu, wall, status: r.status, stdout };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k]! : (s[k - 1]! + s[k]!) / 2;
}

export interface Pair {
  emu: { cpu: number; wall: number; stdout: string };
  peer?: { cpu: number; wall: number; stdout: string };
  ratioCpu?: number;
  ratioWall?: number;
}

/** Alternated runs of emu's command and its peer's: medians, and medians of per-pair ratios. */
export function pair(a: Cmd, b: Cmd | null, reps: number, dir: string): Pair {
  run(a, dir);
  if (b) run(b, dir);
  const ra: Run[] = [];
  const rb: Run[] = [];
  for (let i = 0; i < reps; i++) {
    ra.push(run(a, dir));
    if (b) rb.push(run(b, dir));
  }
  const sum = (rs: Run[]) => ({ cpu: median(rs.map((r) => r.cpu)), wall: median(rs.map((r) => r.wall)), stdout: rs[0]!.stdout });
  if (!b) return { emu: sum(ra) };
  return {
    emu: sum(ra), peer: sum(rb),
    ratioCpu: median(ra.map((r, i) => r.cpu / Math.max(rb[i]!.cpu, 1e-3))),
    ratioWall: median(ra.map((r, i) => r.wall / rb[i]!.wall)),
  };
}

