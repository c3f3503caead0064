/**
 * The programs the tracer benchmarks measure (bench/tracer.ts, bench/tracer_bytes.ts): the
 * project's own workloads, a sample of GCC's execution torture tests (docs/corpus.md: every Nth
 * test in name order, built against the project's libc at -O2 on demand, BSD flavour), and public
 * programs the user gives as source directories (`--external DIR`, built with `emu images cc`
 * into images/build/external/, never committed).
 *
 * An external directory is built from its top-level `.c` files at -O2, run with no arguments and
 * empty standard input; a CoreMark tree (core_main.c and coremark.h at its top) is built with the
 * project's port instead (bench/coremark, the performance run of `--iterations` iterations), as
 * bench/cold.ts does.
 */
import { spawnSync } from 'node:child_process';
import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { BUILD_DIR, ROOT_DIR } from '../images/build.js';
import { program } from '../images/catalog.js';
import { extractTorture, plan, tortureTests, buildTorture } from '../images/corpus.js';
import type { TargetName } from '../format/target.js';
import { buildCoremark, coremarkCheck } from './coremark/build.js';
import { count, list, positiveInt } from './cli.js';
import { sampleTests } from './corpus.js';

export type SubjectGroup = 'workload' | 'corpus' | 'external';

/** One program run the benchmarks measure. */
export interface Subject {
  name: string;
  /** The run: a workload's test name, `O2` for a torture test, `run` for an external program. */
  test: string;
  target: TargetName;
  group: SubjectGroup;
  /** The BSD-flavour executable. */
  exe: string;
  args: string[];
  stdin?: Uint8Array;
  /**
   * What of its standard output must agree between the original and the instrumented run
   * (default: all of it); CoreMark prints its run time, which instrumentation changes.
   */
  check?: (stdout: string) => string;
}

/** A workload's first test with plain arguments (its built executable must exist). */
export function workloadSubject(name: string, target: TargetName): Subject {
  const spec = program(name);
  const t = spec.tests.find((x) => !x.shell);
  if (!t) throw new Error(`${spec.name}: no test with plain arguments`);
  const s: Subject = { name, test: t.name, target, group: 'workload', exe: join(BUILD_DIR, `bsd-${target}`, 'bin', name), args: t.args ?? [] };
  if (t.stdin) s.stdin = new Uint8Array(readFileSync(join(spec.dir, t.stdin)));
  return s;
}

/**
 * Every `every`th torture test (the corpus's sample rule) that DejaGnu would run here, built for
 * `target` against the project's libc at -O2 (images/build/corpus/build/<target>-emu-O2, the same
 * builds `npm run corpus` makes); tests that do not build are left out and counted in `notBuilt`.
 */
export async function corpusSubjects(target: TargetName, every: number, log?: (m: string) => void): Promise<{ subjects: Subject[]; notBuilt: number }> {
  const dir = await extractTorture(log);
  const config = { target, libc: 'emu' as const, opt: 'O2' };
  const subjects: Subject[] = [];
  let notBuilt = 0;
  for (const test of sampleTests(tortureTests(dir), every)) {
    const p = plan(test, config);
    if (p.skip) continue;
    const b = await buildTorture(test, config, p.flags, p.ldflags ?? [], log);
    if (!b.ok) {
      notBuilt++;
      continue;
    }
    subjects.push({ name: test.name, test: 'O2', target, group: 'corpus', exe: b.exe.bsd, args: [] });
  }
  return { subjects, notBuilt };
}

/** Whether a directory is a CoreMark source tree. */
function isCoremark(dir: string): boolean {
  return existsSync(join(dir, 'core_main.c')) && existsSync(join(dir, 'coremark.h'));
}

/**
 * Builds an external program for `target` (BSD flavour, the project's libc) into
 * images/build/external/<target>/<name>; a clear error when the directory holds no C source or
 * the build fails.
 */
export function externalSubject(dirArg: string, target: TargetName, iterations: number): Subject {
  const dir = resolve(dirArg);
  if (!existsSync(dir)) throw new Error(`--external ${dirArg}: no such directory`);
  const name = basename(dir);
  const outDir = join(BUILD_DIR, 'external', target);
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, name);
  if (isCoremark(dir)) {
    buildCoremark(dir, target, 'bsd', iterations, out);
    return { name, test: `${iterations} it`, target, group: 'external', exe: out, args: [], check: coremarkCheck };
  }
  const files = readdirSync(dir).filter((f) => f.endsWith('.c')).sort().map((f) => join(dir, f));
  if (!files.length) throw new Error(`--external ${dirArg}: no .c files at its top level`);
  const r = spawnSync(process.execPath, [join(ROOT_DIR, 'bin', 'emu.js'), 'images', 'cc', ...files, '-t', target, '-X', '-O2', `-X`, `-I${dir}`, '-o', out], { encoding: 'latin1' });
  if (r.status !== 0) throw new Error(`--external ${dirArg}: emu images cc (${target}) failed: ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  return { name, test: 'run', target, group: 'external', exe: out, args: [] };
}

/** The subject options both tracer benchmarks take. */
export interface SubjectOptions {
  programs: string[];
  workloads: boolean;
  corpus: number;
  external: string[];
  iterations: number;
  /** Instrument with known loops (tracer/instrument.ts InstrumentOptions.knownLoops). */
  knownLoops: boolean;
}

/** Adds --programs, --no-workloads, --corpus, --external, --iterations and --known-loops to a command. */
export function subjectOptions(cmd: Command, workloads: readonly string[]): Command {
  return cmd
    .option('--programs <list>', `workloads, comma-separated (${workloads.join(', ')})`, list, [...workloads])
    .option('--no-workloads', "leave out the project's own workloads")
    .option('--corpus <n>', 'also every Nth of GCC\'s torture tests (docs/corpus.md; built on demand against the project\'s libc at -O2; 0: none)', count, 0)
    .option('--external <dir>', 'also a public program from its source directory (repeatable; built with emu images cc, never committed; a CoreMark tree uses bench/coremark)', (d: string, all: string[]) => [...all, d], [] as string[])
    .option('--iterations <n>', 'CoreMark iterations of an --external CoreMark tree', positiveInt, 10)
    .option('--known-loops', "instrument with known loops (the C library's data-dependent string loops traced by their stopping values; docs/tracer.md)", false);
}

/** The subjects of one target, in the order workloads, corpus sample, external programs. */
export async function collectSubjects(o: SubjectOptions, target: TargetName, log: (m: string) => void): Promise<Subject[]> {
  const out: Subject[] = o.workloads ? o.programs.map((p) => workloadSubject(p, target)) : [];
  if (o.corpus > 0) {
    const c = await corpusSubjects(target, o.corpus, log);
    if (c.notBuilt) log(`${target}: ${c.notBuilt} torture tests of the sample do not build against the project's libc (left out)`);
    out.push(...c.subjects);
  }
  for (const d of o.external) out.push(externalSubject(d, target, o.iterations));
  return out;
}
