/**
 * Where the trace bytes and the added instructions go (issue 6 "Measured", issue 22, the breakdown
 * in docs/tracer.md): per program and target, the dynamic bytes and instrumented instructions of
 * witnesses and of value records by what defined the value (tracer/slice.ts RecordItem.why:
 * entry, load, call, syscall, other = a computable value the cut chose to record, sum = the
 * address of a SPARC register + register reference recorded as one value; a MIPS record
 * counts the nop of its load delay; conservative = every witness and record of the functions in
 * conservative mode, tracer/conservative.ts), the rest of the added instructions (layout jumps and their
 * delay-slot nops, the prologue), the witness bytes on the out-edges of predicates regeneration
 * could decide (tracer/decide.ts), and the heaviest sites.
 *
 *   npm run build && node dist/bench/tracer_bytes.js [--targets mipsel,sparc] [--programs li,cc1] [--top N]
 *       [--no-workloads] [--corpus 8] [--external DIR ...] [--iterations N]
 *
 * The programs are those of bench/tracer.ts (bench/tracer_subjects.ts); each group of more than
 * one program also gets a pooled row (all its bytes over all its references) and its heaviest
 * functions. Every regeneration is verified against ground truth (bench/tracer.ts traceAndVerify).
 *
 * The counts come from the reference interpreter (regen/process.ts `profile`), which reports
 * every witness and record it consumes; regeneration also checks, as always, that the whole
 * trace is consumed and every witness is the one its edge writes.
 */
import { readFileSync } from 'node:fs';
import type { TargetName } from '../format/target.js';
import { RegenProgram, type RFunc } from '../regen/model.js';
import { instrument } from '../tracer/instrument.js';
import type { Item } from '../format/schema.js';
import { TARGET_NAMES, benchCommand, checkNames, count, list } from './cli.js';
import { SubjectFailed, WORKLOADS, traceAndVerify } from './tracer.js';
import { collectSubjects, subjectOptions, type Subject, type SubjectOptions } from './tracer_subjects.js';

const KINDS = ['witness', 'entry', 'load', 'call', 'syscall', 'other', 'sum', 'conservative', 'known'] as const;
type Kind = (typeof KINDS)[number];
const FRAMES = ['escaped', 'frame', 'caller'] as const;
type Frame = (typeof FRAMES)[number];

export interface Breakdown {
  program: string;
  target: TargetName;
  refs: number;
  insns: number;
  addedInsns: number;
  /** Instructions of the process prologue (tracer/rewrite.ts), run once per process: part of the glue. */
  prologueInsns: number;
  bytes: Record<Kind, number>;
  /** Instrumented instructions of the sequences, per kind. */
  seqInsns: Record<Kind, number>;
  sites: { where: string; kind: Kind; bytes: number; count: number }[];
  /** Bytes per function and kind (for pooling over programs that share the libc). */
  funcs: Map<string, number>;
  /**
   * Bytes of load records from the stack (entry stack pointer + constant): from the function's own
   * frame when an address into it escapes, from its own frame otherwise (a slot not tracked), from
   * the caller's frame (tracer/slice.ts RecordItem.frame).
   */
  frameBytes: Record<Frame, number>;
  /** Witness bytes on the out-edges of predicates regeneration could decide (tracer/decide.ts). */
  decidableWitnessBytes: number;
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

export function breakdown(subj: Subject, knownLoops = false): Breakdown {
  const { name, target } = subj;
  const exe = new Uint8Array(readFileSync(subj.exe));
  const inst = instrument(exe, subj.exe, { knownLoops });
  const prog = new RegenProgram(inst.schema, `${name}.schema`);
  const places = placesOf(prog);
  const bytes = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const seqInsns = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const perSite = new Map<string, { where: string; kind: Kind; bytes: number; count: number }>();
  const funcs = new Map<string, number>();
  const atDecidable = new Set<Item>();
  for (const fn of prog.funcs) {
    const d = inst.decidable.get(fn.index);
    for (const e of fn.edges) if (d?.has(e.from)) for (const it of e.items) if (it[0] === 'w') atDecidable.add(it);
  }
  let decidableWitnessBytes = 0;
  const frameBytes = Object.fromEntries(FRAMES.map((k) => [k, 0])) as Record<Frame, number>;
  const conservative = new Set(inst.schema.functions.flatMap((f, i) => (f.conservative ? [i] : [])));
  const profile = (it: Item, fn: RFunc): void => {
    // A known loop's stopping values (the `a` steps, tracer/known.ts) are their own kind; the
    // instructions that write them are `g` steps, counted with the glue.
    const kind: Kind = conservative.has(fn.index) ? 'conservative' : it[0] === 'w' ? 'witness' : it[0] === 'a' ? 'known' : inst.recordWhy.get(it) ?? 'other';
    const n = it[0] === 'w' ? fn.wbytes : it[0] === 'r' ? Math.abs(it[3]) : it[0] === 'a' ? it[2] : 0;
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
    const fk = `${fn.name} ${kind}`;
    funcs.set(fk, (funcs.get(fk) ?? 0) + n);
  };
  const v = traceAndVerify(subj, exe, inst, profile);
  const sites = [...perSite.values()].sort((a, b) => b.bytes - a.bytes || (a.where < b.where ? -1 : 1));
  return { program: name, target, refs: v.refs, funcs, insns: v.insns, addedInsns: v.run.insns - v.insns, prologueInsns: inst.schema.prologue.count, bytes, seqInsns, sites, frameBytes, decidableWitnessBytes };
}

/** The bytes of several programs together: the pooled row of a group. */
function pool(rs: readonly Breakdown[]): Breakdown {
  const z = <K extends string>(ks: readonly K[]): Record<K, number> => Object.fromEntries(ks.map((k) => [k, 0])) as Record<K, number>;
  const p: Breakdown = { program: 'pooled', target: rs[0]!.target, refs: 0, insns: 0, addedInsns: 0, prologueInsns: 0, bytes: z(KINDS), seqInsns: z(KINDS), sites: [], funcs: new Map(), frameBytes: z(FRAMES), decidableWitnessBytes: 0 };
  for (const r of rs) {
    p.refs += r.refs;
    p.insns += r.insns;
    p.addedInsns += r.addedInsns;
    p.prologueInsns += r.prologueInsns;
    p.decidableWitnessBytes += r.decidableWitnessBytes;
    for (const k of KINDS) {
      p.bytes[k] += r.bytes[k];
      p.seqInsns[k] += r.seqInsns[k];
    }
    for (const k of FRAMES) p.frameBytes[k] += r.frameBytes[k];
    for (const [f, n] of r.funcs) p.funcs.set(f, (p.funcs.get(f) ?? 0) + n);
  }
  return p;
}

async function main(argv: string[]): Promise<void> {
  const cmd = subjectOptions(benchCommand('tracer_bytes.js', 'Where the trace bytes and the added instructions go, per program and target, pooled per group, and the heaviest sites; every regeneration verified against ground truth')
    .option('--targets <list>', `targets, comma-separated (${TARGET_NAMES.join(', ')})`, list, ['mipsel', 'sparc']), WORKLOADS)
    .option('--top <n>', 'heaviest sites printed per program (and functions per pooled group)', count, 5)
    .parse(argv, { from: 'user' });
  const o = cmd.opts<SubjectOptions & { targets: string[]; top: number }>();
  checkNames(cmd, 'target', o.targets, TARGET_NAMES);
  checkNames(cmd, 'workload', o.programs, WORKLOADS);
  const log = (m: string): void => void process.stderr.write(`tracer_bytes: ${m}\n`);
  const top = o.top;
  const failures: string[] = [];
  const pct = (a: number, b: number): string => `${((100 * a) / Math.max(b, 1)).toFixed(1)}`.padStart(6);
  const line = (label: string, r: Breakdown): void => {
    const total = KINDS.reduce((n, k) => n + r.bytes[k], 0);
    const seq = KINDS.reduce((n, k) => n + r.seqInsns[k], 0);
    process.stdout.write(
      `${label.padEnd(14)} ${r.target.padEnd(7)} ${(total / r.refs).toFixed(3).padStart(9)} ${(total / r.insns).toFixed(3).padStart(10)} |             ${KINDS.map((k) => ` ${pct(r.bytes[k], total)}`).join('')} |                   ${KINDS.map((k) => ` ${pct(r.seqInsns[k], r.addedInsns)}`).join('')} ${pct(r.addedInsns - seq, r.addedInsns)} | ${pct(r.decidableWitnessBytes, total)} |             ${FRAMES.map((k) => ` ${pct(r.frameBytes[k], total)}`).join('')}\n`,
    );
  };
  // The averages the targets are stated on (issue 22) are means of per-program ratios: what each
  // kind adds to a program's bytes per reference and to its dilation, averaged over the group.
  const mean = (label: string, rs: readonly Breakdown[]): void => {
    const avg = (f: (r: Breakdown) => number): string => (rs.reduce((n, r) => n + f(r), 0) / rs.length).toFixed(4).padStart(7);
    const seq = (r: Breakdown): number => KINDS.reduce((n, k) => n + r.seqInsns[k], 0);
    process.stdout.write(
      `mean of ${rs.length} ${label} ${rs[0]!.target}: bytes/ref ${avg((r) => KINDS.reduce((n, k) => n + r.bytes[k], 0) / r.refs)} =${KINDS.map((k) => ` ${k} ${avg((r) => r.bytes[k] / r.refs)}`).join('')}\n` +
        `mean of ${rs.length} ${label} ${rs[0]!.target}: dilation - 1 ${avg((r) => r.addedInsns / r.insns)} =${KINDS.map((k) => ` ${k} ${avg((r) => r.seqInsns[k] / r.insns)}`).join('')} glue ${avg((r) => (r.addedInsns - seq(r) - r.prologueInsns) / r.insns)} prologue ${avg((r) => r.prologueInsns / r.insns)}\n`,
    );
  };
  process.stdout.write(`program        target  bytes/ref bytes/insn | % of bytes: ${KINDS.map((k) => k.padStart(7)).join('')} | % of added insns: ${KINDS.map((k) => k.padStart(7)).join('')}   glue | decidable | stack loads: ${FRAMES.map((k) => k.padStart(7)).join('')}\n`);
  for (const target of o.targets as TargetName[]) {
    const rows = new Map<string, Breakdown[]>();
    let skipped = 0;
    for (const s of await collectSubjects(o, target, log)) {
      let r: Breakdown;
      try {
        r = breakdown(s, o.knownLoops);
      } catch (e) {
        if (e instanceof SubjectFailed) {
          skipped++;
          continue;
        }
        if (s.group === 'workload') throw e;
        failures.push((e as Error).message.split('\n')[0]!);
        log(failures[failures.length - 1]!);
        continue;
      }
      rows.set(s.group, [...(rows.get(s.group) ?? []), r]);
      line(s.name, r);
      const total = KINDS.reduce((n, k) => n + r.bytes[k], 0);
      for (const x of r.sites.slice(0, top)) process.stdout.write(`    ${pct(x.bytes, total)} %  ${x.count.toString().padStart(9)} x  ${x.where}\n`);
    }
    if (skipped) log(`${target}: ${skipped} torture tests of the sample fail on emu untraced (left out)`);
    const groups = [...rows];
    const ext = [...(rows.get('corpus') ?? []), ...(rows.get('external') ?? [])];
    if (rows.has('corpus') && rows.has('external')) groups.push(['corpus+external', ext]);
    for (const [g, rs] of groups) if (rs.length > 1) mean(`${g}`, rs);
    for (const [g, rs] of rows) {
      if (rs.length < 2) continue;
      const p = pool(rs);
      line(`pooled ${g}`, p);
      const total = KINDS.reduce((n, k) => n + p.bytes[k], 0);
      const fs = [...p.funcs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      for (const [f, n] of fs.slice(0, top)) process.stdout.write(`    ${pct(n, total)} %  ${f}\n`);
    }
  }
  if (failures.length) {
    process.stderr.write(`tracer_bytes: ${failures.length} programs failed:\n${failures.map((x) => `  ${x}`).join('\n')}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1]?.endsWith('tracer_bytes.js')) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`tracer_bytes: ${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
