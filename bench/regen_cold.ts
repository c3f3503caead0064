/**
 * How regeneration warms up (a script, not a test): passes of `regenerate()` over one bundle in
 * this process, each timed in CPU time (this process's user + system, V8's compiler threads
 * included), with the set-up before them (opening the bundle: manifest, schemas, models) apart.
 * Pass 1 is what a cold `emu regen` pays; later passes show when V8 has optimised the table
 * engine. --fresh opens the bundle again before each pass, so each pass builds the models and
 * units again (the engine stays warm). --compiled runs the compiled schemas instead.
 *
 *   npm run build && node dist/bench/regen_cold.js BUNDLE [--passes N] [--fresh]
 *
 * After the passes it prints how many of the schemas' functions the engine entered and the units
 * it built. V8's own view: run it under `node --no-concurrent-recompilation --trace-opt
 * --trace-deopt` (each "completed compiling" line gives the TurboFan job's time).
 */
import { performance } from 'node:perf_hooks';
import { openBundle, type Bundle } from '../format/bundle.js';
import type { Marker } from '../format/sched.js';
import { bundleInput, regenerate } from '../regen/multi.js';
import { REF_I_RUN, type RefConsumer, type ScheduleConsumer } from '../regen/replay/consumer.js';
import { benchCommand, positiveInt } from './cli.js';

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function main(): void {
  const cmd = benchCommand('regen_cold.js', 'Regeneration of one bundle, pass after pass in one process: the cold first pass against the warm ones')
    .argument('<bundle>', 'a trace bundle (emu run --trace)')
    .option('--passes <n>', 'passes', positiveInt, 3)
    .option('--fresh', 'open the bundle again before each pass (new models and units each time)')
    .option('--compiled', 'the compiled schemas (regen/compile.ts) instead of the table engine');
  cmd.parse(process.argv);
  const dir = cmd.args[0]!;
  const o = cmd.opts<{ passes: number; fresh?: boolean; compiled?: boolean }>();
  const out = (s: string): void => void process.stdout.write(`${s}\n`);
  let b: Bundle | null = null;
  const sched: ScheduleConsumer = { switchTo() {}, fork() {}, exec() {}, exit() {}, end() {} };
  for (let p = 1; p <= o.passes; p++) {
    if (b === null || o.fresh) {
      const c0 = cpuMs();
      b = openBundle(dir);
      out(`open ${dir}: ${(cpuMs() - c0).toFixed(0)} ms CPU (manifest, schemas; the models are built in the first pass)`);
    }
    let n = 0;
    const refs: RefConsumer = {
      ref: () => void n++,
      refBatch: (_pid, k, kind, _addr, size) => {
        for (let i = 0; i < k; i++) n += kind[i] === REF_I_RUN ? size[i]! : 1;
      },
    };
    const c0 = cpuMs();
    const t0 = performance.now();
    const tot = regenerate(b, refs, sched, { compiled: o.compiled === true });
    const cpu = cpuMs() - c0;
    const wall = performance.now() - t0;
    if (n !== tot.events) throw new Error(`pass ${p}: ${n} events delivered, ${tot.events} counted`);
    out(`pass ${p}: ${tot.events} events, ${cpu.toFixed(0)} ms CPU (${(tot.events / cpu / 1000).toFixed(1)} M events/s), ${wall.toFixed(0)} ms wall`);
  }
  let entered = 0;
  let all = 0;
  let units = 0;
  let words = 0;
  const input = bundleInput(b!);
  for (const hash of b!.programs.keys()) {
    const prog = input.program({ kind: 'start', hash } as Marker & { kind: 'start' });
    for (const fn of prog.funcs) {
      all++;
      if (!fn.units) continue;
      entered++;
      words += fn.units.length;
      for (const s of fn.units.start) if (s >= 0) units++;
    }
  }
  out(`the table engine entered ${entered} of the schemas' ${all} functions and built ${units} units (${(words * 4 / 1e6).toFixed(2)} MB of operations)`);
}

main();
