/**
 * How regeneration warms up (a script, not a test): passes of `regenerate()` over one bundle in
 * this process, each timed in CPU time (this process's user + system, V8's compiler threads
 * included), with the set-up before them (opening the bundle: manifest, schemas, models) apart.
 * Pass 1 is what a cold `emu regen` pays; later passes show when V8 has optimised the compiled
 * schemas. --fresh opens the bundle again before each pass, so each pass compiles new functions
 * (the machinery around them stays warm).
 *
 *   npm run build && node dist/bench/regen_cold.js BUNDLE [--passes N] [--fresh]
 *
 * After the passes it prints how many of the schemas' functions were compiled and the size of
 * their generated source. V8's own view: run it under `node --no-concurrent-recompilation
 * --trace-opt --trace-deopt` (each "completed compiling" line gives the TurboFan job's time).
 */
import { performance } from 'node:perf_hooks';
import { openBundle, type Bundle } from '../format/bundle.js';
import { compileSource } from '../regen/compile.js';
import type { Marker } from '../format/sched.js';
import { bundleInput, regenerate } from '../regen/multi.js';
import type { RefConsumer, ScheduleConsumer } from '../regen/replay/consumer.js';
import { benchCommand, positiveInt } from './cli.js';

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function main(): void {
  const cmd = benchCommand('regen_cold.js', 'Regeneration of one bundle, pass after pass in one process: the cold first pass against the warm ones')
    .argument('<bundle>', 'a trace bundle (emu run --trace)')
    .option('--passes <n>', 'passes', positiveInt, 3)
    .option('--fresh', 'open the bundle again before each pass (new compiled functions each time)');
  cmd.parse(process.argv);
  const dir = cmd.args[0]!;
  const o = cmd.opts<{ passes: number; fresh?: boolean }>();
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
    const refs: RefConsumer = { ref: () => void n++ };
    const c0 = cpuMs();
    const t0 = performance.now();
    const tot = regenerate(b, refs, sched, {});
    const cpu = cpuMs() - c0;
    const wall = performance.now() - t0;
    if (n !== tot.events) throw new Error(`pass ${p}: ${n} events delivered, ${tot.events} counted`);
    out(`pass ${p}: ${tot.events} events, ${cpu.toFixed(0)} ms CPU (${(tot.events / cpu / 1000).toFixed(1)} M events/s), ${wall.toFixed(0)} ms wall`);
  }
  let compiled = 0;
  let all = 0;
  let chars = 0;
  let allChars = 0;
  const input = bundleInput(b!);
  for (const hash of b!.programs.keys()) {
    const prog = input.program({ kind: 'start', hash } as Marker & { kind: 'start' });
    for (const fn of prog.funcs) {
      const n = compileSource(prog, fn).length;
      all++;
      allChars += n;
      if (fn.code) {
        compiled++;
        chars += n;
      }
    }
  }
  out(`compiled ${compiled} of ${all} functions of the schemas: ${(chars / 1e6).toFixed(2)} MB of generated source (all functions: ${(allChars / 1e6).toFixed(2)} MB)`);
}

main();
