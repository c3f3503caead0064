/**
 * Kernel benchmark (a script, not a test): emulated instructions per second
 *   - of a CPU-bound program run alone (the li workload as a bare executable: one process),
 *   - of four copies of it run one after another, and of four copies running at once under init
 *     and sh (four processes competing for the CPU: context switches, TLB/context flushes, SPARC
 *     window flushes): their ratio is the kernel's multiprogramming overhead (the single run also
 *     pays the translator's warm-up alone),
 *   - of the multi-process demo image (a pipeline and a client/server pair),
 * and the cost of ground truth: the demo with --truth (binary format, written to a sink that
 * discards the bytes, so the figure is the recording cost, not the disk's) against a plain run.
 *
 *   npm run build && node dist/bench/kernel.js [--reps N] [--target mipsel|mips|sparc ...]
 *
 * The BSD-flavour builds must exist (`node bin/emu.js images build -f bsd --no-native`). Times are
 * host wall-clock medians of --reps runs, from boot to halt; instruction counts are the machine's
 * (deterministic: the same for every repetition).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { BUILD_DIR, PROGRAMS_DIR } from '../images/build.js';
import type { BootImage } from '../format/image.js';
import { assembleImage } from '../images/pack.js';
import { imageSpecs } from '../images/specs.js';
import type { TargetName } from '../format/target.js';
import type { Console } from '../os/dev.js';
import { type RunRequest, runMachine } from '../os/run.js';
import type { ByteSink } from '../format/sink.js';
import { TARGET_NAMES, benchCommand, checkNames, positiveInt } from './cli.js';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const quiet: Console = { write: () => {}, writeErr: () => {}, read: () => new Uint8Array(0) };

class CountingSink implements ByteSink {
  bytes = 0;
  write(b: Uint8Array): void {
    this.bytes += b.length;
  }
  close(): void {}
}

interface Measure {
  insns: number;
  seconds: number;
  switches: number;
  truthBytes: number;
}

function measure(reps: number, make: () => RunRequest): Measure {
  const times: number[] = [];
  let insns = 0;
  let switches = 0;
  let truthBytes = 0;
  for (let i = 0; i < reps; i++) {
    const req = make();
    const t0 = performance.now();
    const r = runMachine(req);
    times.push((performance.now() - t0) / 1000);
    if (r.exitCode !== 0) throw new Error(`benchmark run failed: exit ${r.exitCode} ${r.message}`);
    insns = r.kernel.insns;
    switches = r.kernel.nswitch;
    if (req.truth) truthBytes = (req.truth.sink as CountingSink).bytes;
  }
  return { insns, seconds: median(times), switches, truthBytes };
}

const fmt = (m: Measure): string => `${(m.insns / 1e6).toFixed(1)} M instructions, ${m.seconds.toFixed(2)} s, ${(m.insns / m.seconds / 1e6).toFixed(1)} M instructions/s, ${m.switches} switches`;

async function main(): Promise<void> {
  const cmd = benchCommand('kernel.js', 'Whole-system speed: li alone, 4 x li, the demo image and the demo with --truth, on the booted kernel')
    .option('--reps <n>', 'runs per measurement (medians are printed)', positiveInt, 3)
    .option('--target <t>', `target to measure, repeatable (${TARGET_NAMES.join(', ')}; default mipsel and sparc)`, (v: string, acc: string[]) => [...acc, v], [] as string[])
    .parse(process.argv);
  const { reps, target } = cmd.opts<{ reps: number; target: string[] }>();
  checkNames(cmd, 'target', target, TARGET_NAMES);
  const targets = target as TargetName[];
  if (targets.length === 0) targets.push('mipsel', 'sparc');
  const log = pino({ level: 'silent' });
  for (const t of targets) {
    const bin = join(BUILD_DIR, `bsd-${t}`, 'bin');
    const li = readFileSync(join(bin, 'li'));
    const queens = readFileSync(join(PROGRAMS_DIR, 'li', 'queens.lsp'));
    const spec = imageSpecs().find((s) => s.name === `li-${t}`)!;
    const liImage: BootImage = await assembleImage(spec);
    const demoSpec = imageSpecs().find((s) => s.name === `demo-${t}`);
    const demo = demoSpec ? await assembleImage(demoSpec) : undefined;
    process.stdout.write(`== ${t}\n`);
    const alone = measure(reps, () => ({
      exe: { data: li, name: 'li', args: ['/q.lsp', '7'] }, files: [{ path: '/q.lsp', data: queens, mode: 0o644 }],
      console: quiet, log,
    }));
    process.stdout.write(`li alone (one process):            ${fmt(alone)}\n`);
    const four = measure(reps, () => ({
      image: { img: liImage, file: spec.name },
      command: Array(4).fill('li /usr/share/li/queens.lsp 7 &').join(' ') + ' wait',
      console: quiet, log,
    }));
    if (four.insns < 4 * alone.insns) throw new Error(`the four-li run executed ${four.insns} instructions, fewer than 4 x ${alone.insns}`);
    const seq = measure(reps, () => ({
      image: { img: liImage, file: spec.name },
      command: Array(4).fill('li /usr/share/li/queens.lsp 7 >/dev/null').join('; '),
      console: quiet, log,
    }));
    process.stdout.write(`4 x li one after another:          ${fmt(seq)}\n`);
    process.stdout.write(`4 x li at once (image, init, sh):  ${fmt(four)}\n`);
    process.stdout.write(`  multiprogramming cost: ${((four.seconds / four.insns) / (seq.seconds / seq.insns)).toFixed(2)} x the time per instruction of the same four runs in sequence\n`);
    if (demo) {
      const plain = measure(reps, () => ({ image: { img: demo, file: demoSpec!.name }, console: quiet, log }));
      process.stdout.write(`demo image:                        ${fmt(plain)}\n`);
      const truth = measure(reps, () => ({ image: { img: demo, file: demoSpec!.name }, console: quiet, log, truth: { sink: new CountingSink(), format: 'bin' } }));
      process.stdout.write(`demo image with --truth:           ${fmt(truth)}, ${(truth.truthBytes / 1e6).toFixed(1)} MB of ground truth\n`);
      process.stdout.write(`  --truth cost: ${(truth.seconds / plain.seconds).toFixed(2)} x a plain run\n`);
    }
  }
}

await main();
