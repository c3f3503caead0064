/**
 * Where the trace bytes and the added instructions go (issue 6 "Measured", the breakdown in
 * docs/tracer.md): per workload and target, the dynamic bytes and instrumented instructions of
 * witnesses and of value records by what defined the value (tracer/slice.ts RecordItem.why:
 * entry, load, call, syscall, other = a computable value the cut chose to record, sum = the
 * address of a SPARC register + register reference recorded as one value; a MIPS record
 * counts the nop of its load delay; conservative = every witness and record of the functions in
 * conservative mode, tracer/conservative.ts), the rest of the added instructions (layout jumps and their
 * delay-slot nops, the prologue), the witness bytes on the out-edges of predicates regeneration
 * could decide (tracer/decide.ts), and the heaviest sites.
 *
 *   npm run build && node dist/bench/tracer_bytes.js [--targets mipsel,sparc] [--programs li,cc1] [--top N]
 *
 * The counts come from the reference interpreter (regen/process.ts `profile`), which reports
 * every witness and record it consumes; regeneration also checks, as always, that the whole
 * trace is consumed and every witness is the one its edge writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DIR } from '../images/build.js';
import { program } from '../images/catalog.js';
import type { TargetName } from '../format/target.js';
import { RegenProgram, type RFunc } from '../regen/model.js';
import type { EventSink } from '../regen/process.js';
import { regenerateProcess } from '../regen/run.js';
import { instrument } from '../tracer/instrument.js';
import type { Item } from '../format/schema.js';
import { runExecutable } from '../bin/harness.js';
import { TARGET_NAMES, benchCommand, checkNames, count, list } from './cli.js';
import { WORKLOADS } from './tracer.js';

const KINDS = ['witness', 'entry', 'load', 'call', 'syscall', 'other', 'sum', 'conservative'] as const;
type Kind = (typeof KINDS)[number];
const FRAMES = ['escaped', 'frame', 'caller'] as const;
type Frame = (typeof FRAMES)[number];

export interface Breakdown {
  program: string;
  target: TargetName;
  refs: number;
  insns: number;
  addedInsns: number;
  bytes: Record<Kind, number>;
  /** Instrumented instructions of the sequences, per kind. */
  seqInsns: Record<Kind, number>;
  sites: { where: string; kind: Kind; bytes: number; count: number }[];
  /**
   * Bytes of load records from the stack (entry stack pointer + constant): from the function's own
   * frame when an address into it escapes, from its own frame otherwise (a slot not tracked), from
   * the caller's frame (tracer/slice.ts RecordItem.frame).
   */
  frameBytes: Record<Frame, number>;
  /** Witness bytes on the out-edges of predicates regeneration could decide (tracer/decide.ts). */
  decidableWitnessBytes: number;
}

class CountingSink implements EventSink {
  refs = 0;
  ifetch(): void {}
  load(): void {
    this.refs++;
  }
  store(): void {
    this.refs++;
  }
}

/** Names every witness and record item of the schema: function, place, original address. */
function placesOf(prog: RegenProgram): Map<Item, string> {
  const m = new Map<Item, string>();
  const hex = (a: number): string => `0x${a.toString(16)}`;
  for (const fn of prog.funcs) {
    for (const b of fn.blocks) for (const it of b.items) m.set(it, `${fn.name} block ${hex(b.addr)}`);
    for (const e of fn.edges) {
      const from = fn.blocks[e.from]!;
      const to = fn.blocks[e.to]!;
      for (const it of e.items) m.set(it, `${fn.name} ${e.kind} edge ${hex(from.addr)}->${to.term === 'exit' ? 'exit' : hex(to.addr)}`);
    }
    for (const en of fn.entries.values()) for (const it of en.items) m.set(it, `${fn.name} entry ${hex(fn.blocks[en.block]!.addr)}`);
  }
  return m;
}

export function breakdown(name: string, target: TargetName): Breakdown {
  const spec = program(name);
  const t = spec.tests.find((x) => !x.shell)!;
  const path = join(BUILD_DIR, `bsd-${target}`, 'bin', name);
  const exe = new Uint8Array(readFileSync(path));
  const stdin = t.stdin ? new Uint8Array(readFileSync(join(spec.dir, t.stdin))) : undefined;
  const inst = instrument(exe, path);
  const orig = runExecutable({ data: exe, name }, { args: t.args, stdin, trace: true });
  const run = runExecutable({ data: inst.elf, name }, { args: t.args, stdin, trace: true });
  if (!run.stdout.equals(orig.stdout)) throw new Error(`${name} ${target}: the instrumented program's output differs`);
  const prog = new RegenProgram(inst.schema, `${name}.schema`);
  const places = placesOf(prog);
  const bytes = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const seqInsns = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const perSite = new Map<string, { where: string; kind: Kind; bytes: number; count: number }>();
  const atDecidable = new Set<Item>();
  for (const fn of prog.funcs) {
    const d = inst.decidable.get(fn.index);
    for (const e of fn.edges) if (d?.has(e.from)) for (const it of e.items) if (it[0] === 'w') atDecidable.add(it);
  }
  let decidableWitnessBytes = 0;
  const frameBytes = Object.fromEntries(FRAMES.map((k) => [k, 0])) as Record<Frame, number>;
  const sink = new CountingSink();
  const conservative = new Set(inst.schema.functions.flatMap((f, i) => (f.conservative ? [i] : [])));
  const profile = (it: Item, fn: RFunc): void => {
    const kind: Kind = conservative.has(fn.index) ? 'conservative' : it[0] === 'w' ? 'witness' : inst.recordWhy.get(it) ?? 'other';
    const n = it[0] === 'w' ? fn.wbytes : it[0] === 'r' ? Math.abs(it[3]) : 0;
    bytes[kind] += n;
    if (atDecidable.has(it)) decidableWitnessBytes += n;
    const fr = inst.recordFrame.get(it);
    if (fr) frameBytes[fr] += n;
    seqInsns[kind] += it[0] === 'w' ? it[1] : it[0] === 'r' ? it[2] : 0;
    const where = `${places.get(it) ?? fn.name} ${kind}${fr ? ` (${fr})` : ''}${it[0] === 'r' ? ` r${it[1]}/${it[3]}` : ''}`;
    let s = perSite.get(where);
    if (!s) perSite.set(where, (s = { where, kind, bytes: 0, count: 0 }));
    s.bytes += n;
    s.count++;
  };
  regenerateProcess(prog, run.trace.bytes(), run.trace.markers, sink, { profile });
  const sites = [...perSite.values()].sort((a, b) => b.bytes - a.bytes || (a.where < b.where ? -1 : 1));
  return { program: name, target, refs: sink.refs, insns: orig.insns, addedInsns: run.insns - orig.insns, bytes, seqInsns, sites, frameBytes, decidableWitnessBytes };
}

function main(argv: string[]): void {
  const cmd = benchCommand('tracer_bytes.js', 'Where the trace bytes and the added instructions go, per workload and target, and the heaviest sites')
    .option('--targets <list>', `targets, comma-separated (${TARGET_NAMES.join(', ')})`, list, ['mipsel', 'sparc'])
    .option('--programs <list>', `workloads, comma-separated (${WORKLOADS.join(', ')})`, list, WORKLOADS)
    .option('--top <n>', 'heaviest sites printed per workload', count, 5)
    .parse(argv, { from: 'user' });
  const o = cmd.opts<{ targets: string[]; programs: string[]; top: number }>();
  checkNames(cmd, 'target', o.targets, TARGET_NAMES);
  checkNames(cmd, 'workload', o.programs, WORKLOADS);
  const targets = o.targets as TargetName[];
  const progs = o.programs;
  const top = o.top;
  const pct = (a: number, b: number): string => `${((100 * a) / Math.max(b, 1)).toFixed(1)}`.padStart(6);
  process.stdout.write(`program  target  bytes/ref | % of bytes: ${KINDS.map((k) => k.padStart(7)).join('')} | % of added insns: ${KINDS.map((k) => k.padStart(7)).join('')}   glue | decidable | stack loads: ${FRAMES.map((k) => k.padStart(7)).join('')}\n`);
  for (const target of targets) {
    for (const p of progs) {
      const r = breakdown(p, target);
      const total = KINDS.reduce((n, k) => n + r.bytes[k], 0);
      const seq = KINDS.reduce((n, k) => n + r.seqInsns[k], 0);
      process.stdout.write(
        `${p.padEnd(8)} ${target.padEnd(7)} ${(total / r.refs).toFixed(3).padStart(9)} |             ${KINDS.map((k) => ` ${pct(r.bytes[k], total)}`).join('')} |                   ${KINDS.map((k) => ` ${pct(r.seqInsns[k], r.addedInsns)}`).join('')} ${pct(r.addedInsns - seq, r.addedInsns)} | ${pct(r.decidableWitnessBytes, total)} |             ${FRAMES.map((k) => ` ${pct(r.frameBytes[k], total)}`).join('')}\n`,
      );
      for (const s of r.sites.slice(0, top)) process.stdout.write(`    ${pct(s.bytes, total)} %  ${s.count.toString().padStart(9)} x  ${s.where}\n`);
    }
  }
}

if (process.argv[1]?.endsWith('tracer_bytes.js')) main(process.argv.slice(2));
