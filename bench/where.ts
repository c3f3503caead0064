/**
 * Where the time of a whole `emu run` goes (a script, not a test), on CoreMark (--coremark DIR, a
 * source tree the user fetched; bench/coremark/build.ts builds it) for each target:
 *
 *   1. fixed cost and steady rate: whole processes (bench/process_time.ts) of CoreMark at several
 *      iteration counts, emu and qemu-user alternated; a least-squares line through
 *      (instructions, CPU seconds) gives the steady rate (its slope) and the fixed cost (its
 *      intercept: start-up, translation and V8's warm-up that more iterations do not repeat).
 *      The short run (10 iterations, about 3.6 M instructions: an Embench-sized program) is one
 *      of the points.
 *   2. counts, in this process (the same kernel and engine as `emu run`): instructions,
 *      translations and their instructions, regions, block and region dispatches (MIPS; block
 *      runs on the SPARC), exceptions (system calls, page faults, TLB misses / MMU misses) and
 *      clock interrupts. The engines are observed by wrapping their methods from outside.
 *   3. a V8 CPU profile of the whole process (node --cpu-prof running the compiled CLI, unbundled
 *      so that samples name their files), samples grouped: start-up (module loading and
 *      everything before the first instruction), translation (decode, emit, V8's compilation of
 *      the generated source), block and region code (the generated functions), dispatch (the
 *      engine's loop and look-ups; its samples on the lines that call block or region functions
 *      count as that code, which V8 inlines there), MMU and TLB, interpreter, kernel, GC. The
 *      samples are taken on the main thread at wall-clock intervals, so the shares are of its
 *      time; V8's background compilation is in the process's CPU time, not in them.
 *
 *   npm run build && node dist/bench/where.js --coremark DIR [--targets LIST] [--reps N] [--iterations LIST]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { ROOT_DIR } from '../images/build.js';
import { TARGETS } from '../images/toolchain.js';
import type { TargetName } from '../format/target.js';
import type { Console } from '../os/dev.js';
import { finish, prepare } from '../os/run.js';
import { benchCommand, checkNames, list, positiveInt } from './cli.js';
import { buildCoremark, coremarkCheck } from './coremark/build.js';
import { pair } from './process_time.js';

const EMU = join(ROOT_DIR, 'bin', 'emu.js');
const CLI = join(ROOT_DIR, 'dist', 'bin', 'cli.js');

/** y = a + b x, least squares. */
function fit(xs: number[], ys: number[]): { a: number; b: number } {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}

interface Counts {
  insns: number;
  translations: number;
  translatedInsns: number;
  regions: number;
  blockRuns: number;
  regionRuns: number;
  syscalls: number;
  faults: number;
  tlbMisses: number;
  ticks: number;
}

const quiet: Console = { write: () => {}, writeErr: () => {}, read: () => new Uint8Array(0) };

/* The engines' internals, as seen from outside for counting (no engine keeps these totals). */
interface MipsBlockView { va: number; len: number; hits: number; region: { fn: (end: number) => number } | null }
interface MipsTranslatorView {
  caches: (((MipsBlockView | undefined)[] | null)[])[];
  translate: (...a: unknown[]) => MipsBlockView;
  formRegion: (cpu: unknown, blk: MipsBlockView) => boolean;
  regions: number;
}
interface SparcTranslatorView { translated: number; blockRuns: number; cache: Map<number, { len: number }> }

/** Runs the bsd build in this process with the engine observed; returns the counts. */
function count(exe: string): Counts {
  const req = { exe: { data: readFileSync(exe), name: exe, args: [] }, console: quiet, log: pino({ level: 'silent' }) };
  const k = prepare(req);
  const cpu = (k.md as unknown as { cpu: { engine?: unknown; translator?: unknown } }).cpu;
  let translations = 0;
  let translatedInsns = 0;
  let regionRuns = 0;
  let finishCounts: () => { blockRuns: number; regions: number };
  if (cpu.translator) {
    const t = cpu.translator as SparcTranslatorView;
    finishCounts = () => {
      translations = t.translated;
      for (const b of t.cache.values()) translatedInsns += b.len;
      return { blockRuns: t.blockRuns, regions: 0 };
    };
  } else {
    const t = cpu.engine as MipsTranslatorView;
    const translate = t.translate.bind(t);
    t.translate = (...a: unknown[]) => {
      const b = translate(...a);
      if (b.len > 0) {
        translations++;
        translatedInsns += b.len;
      }
      return b;
    };
    const formRegion = t.formRegion.bind(t);
    t.formRegion = (c, blk) => {
      if (!formRegion(c, blk)) return false;
      const r = blk.region!;
      const fn = r.fn;
      r.fn = (end: number) => {
        regionRuns++;
        return fn(end);
      };
      return true;
    };
    finishCounts = () => {
      let blockRuns = 0;
      for (const cache of t.caches) for (const page of cache) if (page) for (const b of page) if (b && b.va >= 0) blockRuns += b.hits;
      return { blockRuns, regions: t.regions };
    };
  }
  const r = finish(k, req);
  if (r.exitCode !== 0) throw new Error(`${exe}: exit status ${r.exitCode} in this process`);
  const { blockRuns, regions } = finishCounts();
  const p = r.stats.processes[0]!;
  return {
    insns: r.stats.machine.instructions, translations, translatedInsns, regions, blockRuns, regionRuns,
    syscalls: p.syscalls, faults: p.faults, tlbMisses: p.tlbMisses, ticks: Math.floor(r.stats.machine.cycles / (r.stats.machine.cpuHz / r.stats.machine.hz)),
  };
}

/** Profile categories, first match wins: [name, test on the sample's file and function]. */
const CATEGORIES: [string, (url: string, fn: string) => boolean][] = [
  ['GC', (_u, f) => f === '(garbage collector)'],
  ['idle', (_u, f) => f === '(idle)'],
  ['block and region code', (u, f) => u === '' && /^(blk_|region_)/.test(f)],
  ['V8 (compile, IC, runtime)', (_u, f) => f === '(program)'],
  ['translation', (u, f) => /cpu\/(mips\/(emit|region|decode|structured)|sparc\/(codegen|fpgen|decode|memops|ops)|structured)\.js$/.test(u) || (/translate\.js$/.test(u) && /^(translate|compile|scan|formRegion|buildRegion|emit)/.test(f))],
  ['dispatch', (u, f) => /cpu\/(mips|sparc)\/translate\.js$/.test(u) || (/cpu\/(mips|sparc)\/cpu\.js$/.test(u) && f === 'run')],
  ['MMU and TLB', (u) => /cpu\/(mips|sparc)\/mmu\.js$/.test(u) || /os\/(mips|sparc)\/pmap\.js$/.test(u) || /os\/vm\//.test(u)],
  ['interpreter', (u) => /cpu\/(mips\/(interp|fpu|fpexact)|sparc\/(interp|fpu|softfloat|windows|traps))\.js$/.test(u)],
  ['CPU (other)', (u) => /cpu\//.test(u)],
  ['kernel', (u) => /os\//.test(u)],
  ['start-up (modules, CLI)', (u) => /^node:|node_modules|bin\/|images\//.test(u)],
  ['host I/O and parsing (native)', (u, f) => u === '' && /^[a-zA-Z]/.test(f)],
];

/** Milliseconds of main-thread samples per category, and the total. */
function profile(exe: string, dir: string): { total: number; by: Map<string, number>; processCpu: number } {
  const pdir = join(dir, 'prof');
  const entry = `const { main } = await import(${JSON.stringify(pathToFileURL(CLI).href)}); process.exitCode = await main(['node', 'emu', 'run', ${JSON.stringify(exe)}]);`;
  const script = 'node --cpu-prof --cpu-prof-dir="$1" --cpu-prof-interval 250 --input-type=module -e "$2" >/dev/null; s=$?; times; exit $s';
  const r = spawnSync('bash', ['-c', script, 'bash', pdir, entry], { encoding: 'latin1' });
  if (r.status !== 0) throw new Error(`profile of ${exe}: ${r.stderr}`);
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(r.stdout.trim())!;
  const processCpu = Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]);
  const p = JSON.parse(readFileSync(join(pdir, readdirSync(pdir)[0]!), 'utf8')) as {
    nodes: { id: number; callFrame: { url: string; functionName: string }; positionTicks?: { line: number; ticks: number }[] }[];
    samples: number[]; timeDeltas: number[];
  };
  // The dispatch loops' samples on the lines that call a block or region function are that
  // code's (V8 inlines the few targets of a hot call site into the loop).
  const callLines = new Map<string, Set<number>>();
  const isCallLine = (url: string, line: number): boolean => {
    if (!/cpu\/(mips|sparc)\/translate\.js$/.test(url)) return false;
    let s = callLines.get(url);
    if (!s) {
      s = new Set();
      readFileSync(url, 'latin1').split('\n').forEach((l, i) => {
        if (/\bfn\((end|c, left)\)/.test(l)) s!.add(i + 1);
      });
      callLines.set(url, s);
    }
    return s.has(line);
  };
  const dt = new Map<number, number>();
  p.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const by = new Map<string, number>();
  let total = 0;
  for (const n of p.nodes) {
    const t = dt.get(n.id) ?? 0;
    if (t === 0) continue;
    const url = n.callFrame.url.replace(/^file:\/\//, '');
    let c = CATEGORIES.find(([, test]) => test(url, n.callFrame.functionName))?.[0] ?? 'other';
    total += t;
    if (c === 'dispatch' && n.positionTicks) {
      const all = n.positionTicks.reduce((k, x) => k + x.ticks, 0);
      const inl = n.positionTicks.filter((x) => isCallLine(url, x.line)).reduce((k, x) => k + x.ticks, 0);
      const moved = all > 0 ? (t * inl) / all : 0;
      by.set('block and region code', (by.get('block and region code') ?? 0) + moved);
      by.set(c, (by.get(c) ?? 0) + t - moved);
      continue;
    }
    by.set(c, (by.get(c) ?? 0) + t);
  }
  return { total, by, processCpu };
}

function main(): void {
  const cmd = benchCommand('where.js', 'Where the time of a whole emu run goes: fixed cost and steady rate against qemu-user, engine counts, a CPU profile by category (CoreMark)')
    .requiredOption('--coremark <dir>', 'a CoreMark source tree (core_main.c, ...)')
    .option('--targets <list>', 'targets (mipsel, mips, sparc)', list, ['mipsel', 'sparc'])
    .option('--iterations <list>', 'CoreMark iteration counts of the whole-process line', list, ['10', '200', '800'])
    .option('--reps <n>', 'timed runs per point (medians)', positiveInt, 3);
  cmd.parse(process.argv);
  const o = cmd.opts<{ coremark: string; targets: string[]; iterations: string[]; reps: number }>();
  checkNames(cmd, 'target', o.targets, Object.keys(TARGETS));
  const iters = o.iterations.map(Number);
  if (iters.length < 2 || iters.some((n) => !Number.isInteger(n) || n < 1)) cmd.error('error: --iterations needs two or more integers >= 1');
  const dir = mkdtempSync(join(tmpdir(), 'emu-where-'));
  const out = (s: string): void => void process.stdout.write(`${s}\n`);
  try {
    for (const t of o.targets as TargetName[]) {
      out(`## ${t}\n`);
      out('| CoreMark iterations | instructions | emu cpu s | emu wall s | qemu cpu s | emu / qemu (cpu) |');
      out('|---:|---:|---:|---:|---:|---:|');
      const xs: number[] = [];
      const emuCpu: number[] = [];
      const qemuCpu: number[] = [];
      let counts: Counts | null = null;
      const bsd = (n: number): string => join(dir, `cm-${t}-${n}-bsd`);
      for (const n of iters) {
        const linux = join(dir, `cm-${t}-${n}-linux`);
        buildCoremark(o.coremark, t, 'bsd', n, bsd(n));
        buildCoremark(o.coremark, t, 'linux', n, linux);
        const c = count(bsd(n));
        if (n === 200 || counts === null) counts = c;
        const p = pair({ argv: [process.execPath, EMU, 'run', bsd(n)] }, { argv: [TARGETS[t].qemu, linux] }, o.reps, dir);
        if (coremarkCheck(p.emu.stdout) !== coremarkCheck(p.peer!.stdout)) throw new Error(`CoreMark ${n} ${t}: emu's CRCs differ from qemu-user's`);
        xs.push(c.insns);
        emuCpu.push(p.emu.cpu);
        qemuCpu.push(p.peer!.cpu);
        out(`| ${n} | ${(c.insns / 1e6).toFixed(1)} M | ${p.emu.cpu.toFixed(3)} | ${p.emu.wall.toFixed(3)} | ${p.peer!.cpu.toFixed(3)} | ${p.ratioCpu!.toFixed(1)} |`);
      }
      const fe = fit(xs, emuCpu);
      const fq = fit(xs, qemuCpu);
      out('');
      out(`Line through (instructions, CPU s): emu ${(1 / fe.b / 1e6).toFixed(0)} M instructions/s steady, ${fe.a.toFixed(3)} s fixed; ` +
        `qemu-user ${(1 / fq.b / 1e6).toFixed(0)} M/s steady, ${fq.a.toFixed(3)} s fixed; steady emu / qemu ${(fe.b / fq.b).toFixed(1)}.`);
      const c = counts!;
      out('');
      out(`Counts (CoreMark ${iters.includes(200) ? 200 : iters[0]}, in-process): ${(c.insns / 1e6).toFixed(1)} M instructions; ${c.translations} translations ` +
        `(${(c.translatedInsns / Math.max(1, c.translations)).toFixed(1)} instructions each)${c.regions ? `, ${c.regions} regions` : ''}; ` +
        `${(c.blockRuns / 1e6).toFixed(2)} M block dispatches${c.regionRuns ? ` and ${(c.regionRuns / 1e6).toFixed(2)} M region entries` : ''} ` +
        `(${(c.insns / Math.max(1, c.blockRuns + c.regionRuns)).toFixed(1)} instructions per dispatch); ${c.syscalls} system calls, ${c.faults} page faults, ` +
        `${c.tlbMisses} TLB misses, ${c.ticks} clock interrupts.`);
      out('');
      const n200 = iters.includes(200) ? 200 : iters[iters.length - 1]!;
      const short = iters[0]!;
      for (const n of [short, n200]) {
        const pr = profile(bsd(n), dir);
        rmSync(join(dir, 'prof'), { recursive: true, force: true });
        out(`Profile, CoreMark ${n}: process CPU ${pr.processCpu.toFixed(3)} s (profiler on), main-thread samples ${(pr.total / 1000).toFixed(3)} s of wall time`);
        out('');
        out('| where | share of the main thread\'s samples |');
        out('|---|---:|');
        for (const [name, ms] of [...pr.by].sort((a, b) => b[1] - a[1])) out(`| ${name} | ${((100 * ms) / pr.total).toFixed(1)} % |`);
        out('');
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
