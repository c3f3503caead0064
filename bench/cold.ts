/**
 * Whole-process benchmark (a script, not a test): emu as a user runs it — `node bin/emu.js ...`,
 * a new process each time, started the way the README says — side by side with its peer in the
 * same run:
 *   - start-up: `emu --help`, and `emu run hello` against `qemu-T hello`;
 *   - programs: li, compress and sgefa at their default sizes and the long runs li 9 and
 *     sgefa 400, the bsd-flavour build under `emu run` against the linux-flavour build of the
 *     same program under qemu-user (the outputs must agree);
 *   - CoreMark (--coremark DIR, a CoreMark source tree the user fetched; bench/coremark/ holds
 *     the port to emu's libc): built with `emu images cc` for each target, 200 iterations, the
 *     CRC lines of emu's run must equal qemu-user's;
 *   - regeneration and replay of a trace bundle (--bundle DIR, made by `emu run --trace`):
 *     `emu regen BUNDLE -o /dev/null` (events per second of CPU time), and `emu replay BUNDLE
 *     --cache 16K:32:2` against Dinero IV (--dinero PATH) on the same references as din text
 *     (written once by `emu regen --format din`, not timed).
 *
 *   npm run build && node dist/bench/cold.js [--reps N] [--targets LIST] [--coremark DIR]
 *                                           [--bundle DIR [--dinero PATH]] [--only LIST]
 *
 * Each pair runs alternated (emu, peer, emu, peer, ...) after one untimed run of each (which
 * also lets bin/emu.js write its code cache); figures are medians of --reps runs, the ratio the
 * median of the per-pair ratios (bench/process_time.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_DIR, PROGRAMS_DIR, ROOT_DIR } from '../images/build.js';
import { TARGETS } from '../images/toolchain.js';
import type { TargetName } from '../format/target.js';
import { benchCommand, checkNames, list, positiveInt } from './cli.js';
import { buildCoremark, coremarkCheck } from './coremark/build.js';
import { pair, type Pair } from './process_time.js';

const EMU = join(ROOT_DIR, 'bin', 'emu.js');
const COREMARK_ITERATIONS = 200;

interface Row {
  what: string;
  target: string;
  emu: string;
  peer: string;
  p: Pair;
  note?: string;
}

function emuCmd(...args: string[]): string[] {
  return [process.execPath, EMU, ...args];
}

/** Events of a bundle (regeneration's own count, from --stats; not timed). */
function bundleEvents(bundle: string): number {
  const r = spawnSync(process.execPath, [EMU, 'regen', bundle, '--stats'], { encoding: 'latin1' });
  const m = /^(\d+) events,/m.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`emu regen ${bundle} --stats: ${r.stderr.trim()}`);
  return Number(m[1]);
}

function main(): void {
  const cmd = benchCommand('cold.js', 'Whole-process benchmark: emu started as a user starts it, side by side with qemu-user and Dinero IV')
    .option('--reps <n>', 'timed runs of each command (medians are printed)', positiveInt, 5)
    .option('--targets <list>', 'targets (mipsel, mips, sparc)', list, ['mipsel', 'mips', 'sparc'])
    .option('--only <list>', 'sections: startup, programs, coremark, regen (default all that have their inputs)', list)
    .option('--coremark <dir>', 'a CoreMark source tree (core_main.c, ...): adds CoreMark, 200 iterations')
    .option('--bundle <dir>', 'a trace bundle (emu run --trace): adds regeneration and replay')
    .option('--dinero <path>', 'a Dinero IV executable: the peer of emu replay');
  cmd.parse(process.argv);
  const o = cmd.opts<{ reps: number; targets: string[]; only?: string[]; coremark?: string; bundle?: string; dinero?: string }>();
  checkNames(cmd, 'target', o.targets, Object.keys(TARGETS));
  checkNames(cmd, 'section', o.only ?? [], ['startup', 'programs', 'coremark', 'regen']);
  const on = (s: string): boolean => !o.only || o.only.includes(s);
  const targets = o.targets as TargetName[];
  const dir = mkdtempSync(join(tmpdir(), 'emu-cold-'));
  const rows: Row[] = [];
  const add = (r: Row): void => {
    rows.push(r);
    process.stderr.write(`${r.what} ${r.target}: emu ${r.p.emu.cpu.toFixed(3)} s${r.p.peer ? `, peer ${r.p.peer.cpu.toFixed(3)} s` : ''}\n`);
  };
  const bin = (flavour: string, t: TargetName, name: string): string => join(BUILD_DIR, `${flavour}-${t}`, 'bin', name);
  try {
    if (process.env['NODE_EXTRA_CA_CERTS']) process.stderr.write('note: NODE_EXTRA_CA_CERTS is set: node reads those certificates at every start (tens of ms)\n');
    if (on('startup')) {
      add({ what: 'emu --help', target: '-', emu: 'emu --help', peer: '-', p: pair({ argv: emuCmd('--help') }, null, o.reps, dir) });
      for (const t of targets) {
        if (!existsSync(bin('bsd', t, 'hello')) || !existsSync(bin('linux', t, 'hello'))) {
          process.stderr.write(`${t}: hello is not built (node bin/emu.js images build)\n`);
          continue;
        }
        const p = pair({ argv: emuCmd('run', bin('bsd', t, 'hello')) }, { argv: [TARGETS[t].qemu, bin('linux', t, 'hello')] }, o.reps, dir);
        if (p.emu.stdout !== p.peer!.stdout) throw new Error(`hello ${t}: emu's output differs from qemu-user's`);
        add({ what: 'hello', target: t, emu: 'emu run hello', peer: `${TARGETS[t].qemu} hello`, p });
      }
    }
    if (on('programs')) {
      const works: { name: string; args: string[]; stdin?: string; size: string }[] = [
        { name: 'li', args: ['-', '7'], stdin: 'li/queens.lsp', size: 'li 7 (default)' },
        { name: 'li', args: ['-', '9'], stdin: 'li/queens.lsp', size: 'li 9' },
        { name: 'compress', args: [], size: 'compress (default)' },
        { name: 'sgefa', args: [], size: 'sgefa (default)' },
        { name: 'sgefa', args: ['400'], size: 'sgefa 400' },
      ];
      for (const t of targets) {
        for (const w of works) {
          if (!existsSync(bin('bsd', t, w.name)) || !existsSync(bin('linux', t, w.name))) continue;
          const stdin = w.stdin ? join(PROGRAMS_DIR, w.stdin) : undefined;
          const p = pair(
            { argv: emuCmd('run', bin('bsd', t, w.name), '--', ...w.args), ...(stdin ? { stdin } : {}) },
            { argv: [TARGETS[t].qemu, bin('linux', t, w.name), ...w.args], ...(stdin ? { stdin } : {}) }, o.reps, dir);
          if (p.emu.stdout !== p.peer!.stdout) throw new Error(`${w.size} ${t}: emu's output differs from qemu-user's`);
          add({ what: w.size, target: t, emu: 'emu run', peer: TARGETS[t].qemu, p });
        }
      }
    }
    if (o.coremark && on('coremark')) {
      for (const t of targets) {
        const eb = join(dir, `coremark-${t}-bsd`);
        const qb = join(dir, `coremark-${t}-linux`);
        buildCoremark(o.coremark, t, 'bsd', COREMARK_ITERATIONS, eb);
        buildCoremark(o.coremark, t, 'linux', COREMARK_ITERATIONS, qb);
        const p = pair({ argv: emuCmd('run', eb) }, { argv: [TARGETS[t].qemu, qb] }, o.reps, dir);
        if (coremarkCheck(p.emu.stdout) !== coremarkCheck(p.peer!.stdout)) throw new Error(`CoreMark ${t}: emu's CRCs differ from qemu-user's`);
        add({ what: `CoreMark ${COREMARK_ITERATIONS}`, target: t, emu: 'emu run', peer: TARGETS[t].qemu, p });
      }
    }
    if (o.bundle && on('regen')) {
      if (!statSync(o.bundle).isDirectory()) throw new Error(`--bundle ${o.bundle}: not a directory`);
      const events = bundleEvents(o.bundle);
      const arch = String((JSON.parse(readFileSync(join(o.bundle, 'manifest.json'), 'utf8')) as { arch?: unknown }).arch);
      const p = pair({ argv: emuCmd('regen', o.bundle, '-o', '/dev/null') }, null, o.reps, dir);
      add({ what: 'regen -o /dev/null', target: arch, emu: 'emu regen', peer: '-', p, note: `${(events / 1e6).toFixed(1)} M events: ${(events / p.emu.cpu / 1e6).toFixed(1)} M events/s of CPU` });
      const replay = { argv: emuCmd('replay', o.bundle, '--cache', '16K:32:2') };
      if (o.dinero) {
        const din = join(dir, 'refs.din');
        const r = spawnSync(process.execPath, [EMU, 'regen', o.bundle, '--format', 'din', '-o', din], { encoding: 'latin1' });
        if (r.status !== 0) throw new Error(`emu regen --format din: ${r.stderr.trim()}`);
        const dinero = { argv: [o.dinero, '-l1-usize', '16k', '-l1-ubsize', '32', '-l1-uassoc', '2', '-l1-urepl', 'l', '-l1-uwalloc', 'a', '-l1-uwback', 'a', '-informat', 'd'], stdin: din };
        add({ what: 'replay 16K:32:2', target: arch, emu: 'emu replay', peer: 'Dinero IV (din text)', p: pair(replay, dinero, o.reps, dir) });
      } else {
        add({ what: 'replay 16K:32:2', target: arch, emu: 'emu replay', peer: '-', p: pair(replay, null, o.reps, dir) });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const head = ['workload', 'target', 'emu cpu s', 'emu wall s', 'peer', 'peer cpu s', 'peer wall s', 'emu/peer cpu', 'emu/peer wall', 'note'];
  const table = [head, ...rows.map((r) => [
    r.what, r.target, r.p.emu.cpu.toFixed(3), r.p.emu.wall.toFixed(3), r.peer,
    r.p.peer ? r.p.peer.cpu.toFixed(3) : '-', r.p.peer ? r.p.peer.wall.toFixed(3) : '-',
    r.p.ratioCpu !== undefined ? r.p.ratioCpu.toFixed(2) : '-', r.p.ratioWall !== undefined ? r.p.ratioWall.toFixed(2) : '-',
    r.note ?? '',
  ])];
  process.stdout.write(`${table.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
}

main();
