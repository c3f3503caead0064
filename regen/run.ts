/**
 * Single-process regeneration: a schema, the recorded bytes and the markers of one traced
 * process in, the original program's instruction fetches and data references out (the
 * ground-truth event model, docs/kernel.md section 10). The markers drive the process: START
 * (where regeneration begins), SIGNAL (a handler runs at this instruction count), SIGRETURN
 * (the interrupted code resumes), EXIT (the process ends here). Issue 7's multi-process driver
 * interleaves several RegenProcess the same way, by the schedule markers.
 */
import type { Marker } from '../format/sched.js';
import type { RegenProgram } from './model.js';
import { RegenError, RegenProcess, type EventSink } from './process.js';
import { ContextReader, planContexts } from './stream.js';

export interface RegenSummary {
  pid: number;
  /** Instructions of the instrumented program the process retired (the kernel's count). */
  icount: number;
  /** Trace bytes consumed. */
  bytes: number;
  signals: number;
  counts: RegenProcess['counts'];
}

/**
 * Regenerates the process whose START marker comes first. Throws RegenError when the trace and
 * the schema disagree (naming the function, instruction count and trace position).
 */
export function regenerateProcess(prog: RegenProgram, trace: Uint8Array, allMarkers: readonly Marker[], sink: EventSink, opts: { interpret?: boolean; compiled?: boolean; profile?: RegenProcess['profile'] } = {}): RegenSummary {
  const first = allMarkers.find((m) => m.kind === 'start');
  if (!first) throw new RegenError('no START marker: the program never mapped the trace buffer');
  const pid = first.pid;
  const markers = allMarkers.filter((m) => m.pid === pid);
  const plan = planContexts(markers, trace.length);
  const readers = plan.ranges.map((r, i) => new ContextReader(trace, r, i));
  const proc = new RegenProcess(prog, readers[0]!, sink);
  if (opts.interpret) proc.compiled = false;
  if (opts.compiled) proc.compiledSchemas = true;
  if (opts.profile) {
    proc.compiled = false; // only the interpreter reports items
    proc.profile = opts.profile;
  }
  let signals = 0;
  let exited = false;
  markers.forEach((m, i) => {
    switch (m.kind) {
      case 'start':
        proc.start(m.icount, m.sp);
        break;
      case 'signal':
        proc.run(m.icount);
        if (proc.ic !== m.icount) throw proc.error(`stopped at instruction ${proc.ic} before the signal at ${m.icount}`);
        proc.deliverSignal(m.pc, readers[plan.ctxOf.get(i)!]!);
        signals++;
        break;
      case 'sigreturn':
        proc.run(m.icount);
        if (proc.ic !== m.icount) throw proc.error(`stopped at instruction ${proc.ic} before sigreturn at ${m.icount}`);
        proc.sigreturn();
        break;
      case 'exit':
        proc.run(m.icount);
        if (proc.ic !== m.icount) throw proc.error(`stopped at instruction ${proc.ic} before the exit at ${m.icount}`);
        exited = true;
        break;
    }
  });
  if (!exited) throw new RegenError(`pid ${pid}: the markers end without an EXIT`);
  const bytes = readers.reduce((n, r) => n + r.consumed, 0);
  const recorded = plan.ranges.flat().reduce((n, [a, b]) => n + (b - a), 0);
  if (bytes !== recorded) throw new RegenError(`pid ${pid}: regeneration consumed ${bytes} of the ${recorded} trace bytes`);
  return { pid, icount: proc.ic, bytes, signals, counts: proc.counts };
}
