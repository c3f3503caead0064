/**
 * Multi-process regeneration (docs/trace-bundle.md section 5): every traced process of a run
 * regenerated from its schema, interleaved exactly — at instruction granularity — by the schedule
 * markers. larus-1990's ae_recreate for mazieres-smith-1994's multi-tasking traces.
 *
 * Two passes over the markers (the schedule stream is small; the trace is read in place):
 *   1. plan: which bytes of the trace stream belong to which execution context — a context is a
 *      process's interrupted code or one of its signal handlers — and, per marker, the process it
 *      concerns (regen/stream.ts does the same for one process);
 *   2. drive: the running process is regenerated up to the instruction count of the next marker
 *      that concerns it (SWITCH to another process: up to its own next marker's count, which is
 *      where it was switched out), then the marker acts: START creates a process from the
 *      program's schema, FORK clones the parent's state for the child (instruction count 0),
 *      SIGNAL/SIGRETURN enter and leave handlers, EXEC and EXIT end a traced image.
 * Consumers receive events through regen/replay/consumer.ts's interfaces.
 */
import type { Marker } from '../format/sched.js';
import type { Bundle } from '../format/bundle.js';
import type { RefConsumer, ScheduleConsumer, ProgressFn } from './replay/consumer.js';
import { NO_SCHEDULE, refsOneByOne } from './replay/consumer.js';
import { RegenProgram } from './model.js';
import { RegenError, RegenProcess, type EventSink } from './process.js';
import { ContextReader, StreamError } from './stream.js';
import { EV_I, EV_L, EV_S } from './truth_cursor.js';

/** What the driver needs of a schedule and a trace (a bundle, or a single-process run). */
export interface RegenInput {
  markers: readonly Marker[];
  /** Byte offset of each marker's record in `schedFile` (for messages). */
  offsets?: readonly number[];
  trace: Uint8Array;
  /** Bytes of the trace that may be read (a damaged or truncated stream ends earlier). */
  usable?: number;
  traceFile: string;
  schedFile: string;
  /** Why the trace is short of its full length ('' when it is not). */
  traceProblem?: string;
  /** Why the schedule is incomplete ('' when it is not: it ends with the END record). */
  schedProblem?: string;
  /** The program a START marker names. */
  program(m: Marker & { kind: 'start' }): RegenProgram;
  /** The guest path of that program (for ScheduleConsumer.exec). */
  path(m: Marker & { kind: 'start' }): string;
  /** Virtual cycle of the end of the run (NaN: unknown). */
  endCycle?: number;
}

export interface RegenOptions {
  /** Deliver only this process's events (the others still run: a child starts from its parent). */
  pid?: number;
  /** The reference interpreter instead of the table engine. */
  interpret?: boolean;
  /** The schemas compiled to JavaScript (regen/compile.ts) instead of the table engine. */
  compiled?: boolean;
  progress?: ProgressFn;
}

/** Per process, at its end. */
export interface ProcessSummary {
  pid: number;
  program: string;
  icount: number;
  bytes: number;
  signals: number;
  exited: boolean;
}

export interface RegenTotals {
  events: number;
  bytes: number;
  processes: ProcessSummary[];
}

/** An error with the event index and the process it happened in. */
export class MultiRegenError extends Error {
  constructor(message: string, readonly eventIndex: number, readonly pid: number) {
    super(message);
    this.name = 'MultiRegenError';
  }
}

interface Ctx {
  id: number;
  pid: number;
  ranges: [number, number][];
  reader: ContextReader | null;
}

interface Plan {
  ctxs: Ctx[];
  /** Per marker: the context a START, SIGNAL or SIGRETURN makes current; for FORK the child's stack. */
  ctxOf: (number | undefined)[];
  forkStacks: Map<number, { parent: number[]; child: number[] }>;
}

function plan(input: RegenInput): Plan {
  const { markers } = input;
  const end = input.usable ?? input.trace.length;
  const ctxs: Ctx[] = [];
  const stacks = new Map<number, number[]>();
  const ctxOf: (number | undefined)[] = [];
  const forkStacks = new Map<number, { parent: number[]; child: number[] }>();
  let writer = -1;
  let open = 0;
  const where = (i: number): string => `${input.schedFile}: ${input.offsets ? `byte ${input.offsets[i]}` : `marker ${i}`}`;
  const newCtx = (pid: number): number => {
    ctxs.push({ id: ctxs.length, pid, ranges: [], reader: null });
    return ctxs.length - 1;
  };
  const close = (pos: number, i: number): void => {
    if (pos < open) throw new MultiRegenError(`${where(i)}: the trace position ${pos} goes back before ${open}`, -1, markers[i]!.pid);
    if (writer >= 0 && pos > open) ctxs[writer]!.ranges.push([open, Math.min(pos, end)]);
    open = pos;
  };
  const stackOf = (pid: number, i: number): number[] => {
    const s = stacks.get(pid);
    if (!s || s.length === 0) throw new MultiRegenError(`${where(i)}: a ${markers[i]!.kind} record of pid ${pid}, which is not traced`, -1, pid);
    return s;
  };
  markers.forEach((m, i) => {
    switch (m.kind) {
      case 'start': {
        close(m.pos, i);
        const c = newCtx(m.pid);
        stacks.set(m.pid, [c]);
        writer = c;
        ctxOf[i] = c;
        break;
      }
      case 'switch': {
        close(m.pos, i);
        const s = stackOf(m.pid, i);
        writer = s[s.length - 1]!;
        break;
      }
      case 'fork': {
        const s = stackOf(m.pid, i);
        const child = s.map(() => newCtx(m.child));
        stacks.set(m.child, child);
        forkStacks.set(i, { parent: [...s], child });
        break;
      }
      case 'signal': {
        close(m.pos, i);
        const s = stackOf(m.pid, i);
        const c = newCtx(m.pid);
        s.push(c);
        writer = c;
        ctxOf[i] = c;
        break;
      }
      case 'sigreturn': {
        close(m.pos, i);
        const s = stackOf(m.pid, i);
        if (s.length < 2) throw new MultiRegenError(`${where(i)}: sigreturn of pid ${m.pid} outside a signal handler`, -1, m.pid);
        s.pop();
        writer = s[s.length - 1]!;
        ctxOf[i] = writer;
        break;
      }
      case 'exec':
      case 'exit':
        close(m.pos, i);
        stackOf(m.pid, i);
        stacks.delete(m.pid);
        writer = -1;
        break;
    }
  });
  close(Math.max(open, end), markers.length);
  for (const c of ctxs) c.reader = new ContextReader(input.trace, c.ranges, c.id);

  for (const c of ctxs) c.reader = new ContextReader(input.trace, c.ranges, c.id);
  return { ctxs, ctxOf, forkStacks };
}

/** The user PC a marker gives for its process (where it resumes), if any. */
function pcOf(m: Marker | undefined): number | undefined {
  if (!m) return undefined;
  if (m.kind === 'switch' || m.kind === 'signal') return m.pc;
  if (m.kind === 'exit') return m.pc;
  return undefined;
}

/** Delivers one process's events to the consumer, counting them. */
class PidSink implements EventSink {
  constructor(private readonly pid: number, private readonly refs: RefConsumer, private readonly counter: { n: number }, private readonly on: boolean) {}
  ifetch(pc: number): void {
    this.counter.n++;
    if (this.on) this.refs.ref(this.pid, EV_I, pc >>> 0, 4);
  }
  load(addr: number, size: number): void {
    this.counter.n++;
    if (this.on) this.refs.ref(this.pid, EV_L, addr >>> 0, size);
  }
  store(addr: number, size: number): void {
    this.counter.n++;
    if (this.on) this.refs.ref(this.pid, EV_S, addr >>> 0, size);
  }
  events(n: number, events: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void {
    this.counter.n += events;
    if (!this.on) return;
    const refs = this.refs;
    if (refs.refBatch) refs.refBatch(this.pid, n, kind, addr, size);
    else refsOneByOne(refs, this.pid, n, kind, addr, size);
  }
}

interface Live {
  pid: number;
  rp: RegenProcess;
  program: string;
  signals: number;
  /** Contexts of this traced image (for the byte accounting at its end). */
  ctxs: number[];
}

/** Instructions regenerated between two yields of the pull form. */
const CHUNK = 1 << 16;

/**
 * The driver as a generator: yields after every CHUNK instructions when `chunked` (the pull form
 * hands out a batch there), runs straight through otherwise.
 */
function* drive(input: RegenInput, refs: RefConsumer, sched: ScheduleConsumer, opts: RegenOptions, chunked: boolean): Generator<void, RegenTotals, void> {
  const { markers } = input;
  const p = plan(input);
  const counter = { n: 0 };
  const live = new Map<number, Live>();
  const summaries: ProcessSummary[] = [];
  let cur: Live | null = null;
  let curPid = -1;
  const where = (i: number): string => `${input.schedFile}: ${input.offsets ? `byte ${input.offsets[i]}` : `marker ${i}`}`;
  // The damage the bundle reader found (a truncated or corrupt stream) is named in every error
  // regeneration reports, since it is the likely cause: the file, what is wrong, the event index.
  const damage = [
    input.traceProblem ? `${input.traceFile}: ${input.traceProblem}` : '',
    input.schedProblem ? `${input.schedFile}: ${input.schedProblem}` : '',
  ].filter((d) => d !== '');
  const fail = (msg: string, pid: number): MultiRegenError => {
    const why = damage.filter((d) => !msg.includes(d));
    // The cause first: what reading the input found, then what regeneration tripped over there.
    return new MultiRegenError(`${why.length ? `${why.join('; ')}: so regeneration stops: ` : ''}${msg} (event ${counter.n}, pid ${pid})`, counter.n, pid);
  };
  // The markers concerning each pid (a FORK concerns the child too), for looking ahead.
  const idxByPid = new Map<number, number[]>();
  markers.forEach((m, i) => {
    for (const pid of m.kind === 'fork' ? [m.pid, m.child] : [m.pid]) {
      let l = idxByPid.get(pid);
      if (!l) idxByPid.set(pid, (l = []));
      l.push(i);
    }
  });
  /** The first marker after index i that concerns pid. */
  const nextFor = (pid: number, i: number): Marker | undefined => {
    const l = idxByPid.get(pid) ?? [];
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (l[mid]! <= i) lo = mid + 1;
      else hi = mid;
    }
    return lo < l.length ? markers[l[lo]!] : undefined;
  };
  const liveOf = (pid: number, i: number): Live => {
    const l = live.get(pid);
    if (!l) throw fail(`${where(i)}: a ${markers[i]!.kind} record of pid ${pid}, which is not traced`, pid);
    return l;
  };

  /** Runs process l up to `stop` instructions (chunked for the pull form). */
  function* runTo(l: Live, stop: number, at: Marker | undefined): Generator<void, void, void> {
    try {
      if (chunked) {
        while (l.rp.ic < stop && !l.rp.done) {
          const before = l.rp.ic;
          l.rp.run(Math.min(stop, before + CHUNK));
          yield;
          if (l.rp.ic === before) break;
        }
        l.rp.run(stop);
      } else {
        l.rp.run(stop);
      }
      if (l.rp.ic < stop && l.rp.waitsForWitness()) l.rp.speculate(stop, pcOf(at));
    } catch (e) {
      // fail() puts the damage the reader found (a truncated trace) first, as the cause.
      if (e instanceof StreamError) throw fail(`${input.traceFile}: ${e.message}`, l.pid);
      if (e instanceof RegenError) throw fail(`${input.traceFile}: pid ${l.pid} (${l.program}): ${e.message}`, l.pid);
      throw e;
    }
  }
  const check = (l: Live, i: number, want: number): void => {
    if (l.rp.ic !== want) {
      throw fail(`${where(i)}: pid ${l.pid} (${l.program}) regenerated to instruction ${l.rp.ic}, the ${markers[i]!.kind} record says ${want}`, l.pid);
    }
  };
  const switchTo = (l: Live | null, m: Marker): void => {
    cur = l;
    if (l && l.pid !== curPid) {
      curPid = l.pid;
      sched.switchTo(l.pid, m.time ?? NaN, counter.n);
    }
  };
  const finishImage = (l: Live, exited: boolean): void => {
    let consumed = 0;
    let recorded = 0;
    for (const c of l.ctxs) {
      const ctx = p.ctxs[c]!;
      consumed += ctx.reader!.consumed;
      recorded += ctx.ranges.reduce((n, [a, b]) => n + (b - a), 0);
    }
    if (consumed !== recorded) {
      throw fail(`${input.traceFile}: pid ${l.pid} (${l.program}) used ${consumed} of the ${recorded} trace bytes it recorded`, l.pid);
    }
    summaries.push({ pid: l.pid, program: l.program, icount: l.rp.ic, bytes: consumed, signals: l.signals, exited });
    live.delete(l.pid);
  };
  const progressEvery = Math.max(1, Math.floor(markers.length / 200));

  for (let i = 0; i < markers.length; i++) {
    const m = markers[i]!;
    if (opts.progress && i % progressEvery === 0) opts.progress(m.pos, input.trace.length);
    // Bring the running process to this marker.
    const running = cur as Live | null;
    if (running !== null) {
      if (m.pid === running.pid) {
        yield* runTo(running, m.icount, m);
        check(running, i, m.icount);
      } else if (m.kind === 'switch' || m.kind === 'start') {
        const nm = nextFor(running.pid, i);
        if (nm === undefined || nm.pid !== running.pid) {
          throw fail(`${where(i)}: pid ${running.pid} (${running.program}) is switched out and never comes back nor exits`, running.pid);
        }
        const stop = nm.icount;
        yield* runTo(running, stop, nm);
        check(running, i, stop);
        cur = null;
      } else {
        throw fail(`${where(i)}: a ${m.kind} record of pid ${m.pid} while pid ${running.pid} runs`, m.pid);
      }
    }
    switch (m.kind) {
      case 'start': {
        const prog = input.program(m);
        const c = p.ctxOf[i]!;
        const sink = new PidSink(m.pid, refs, counter, opts.pid === undefined || opts.pid === m.pid);
        const rp = new RegenProcess(prog, p.ctxs[c]!.reader!, sink);
        if (opts.interpret) rp.compiled = false;
        if (opts.compiled) rp.compiledSchemas = true;
        const old = live.get(m.pid);
        if (old) throw fail(`${where(i)}: pid ${m.pid} starts a program while its previous traced image has not ended`, m.pid);
        const l: Live = { pid: m.pid, rp, program: input.path(m), signals: 0, ctxs: [c] };
        live.set(m.pid, l);
        rp.start(m.icount, m.sp);
        switchTo(l, m);
        sched.exec(m.pid, l.program);
        break;
      }
      case 'switch': {
        const l = liveOf(m.pid, i);
        check(l, i, m.icount);
        switchTo(l, m);
        break;
      }
      case 'fork': {
        const l = liveOf(m.pid, i);
        const fs = p.forkStacks.get(i)!;
        const byCtx = new Map<number, number>();
        fs.parent.forEach((c, k) => byCtx.set(c, fs.child[k]!));
        const top = p.ctxs[fs.child[fs.child.length - 1]!]!.reader!;
        const sink = new PidSink(m.child, refs, counter, opts.pid === undefined || opts.pid === m.child);
        const crp = l.rp.clone(top, sink, (r) => {
          const c = byCtx.get(r.ctx);
          if (c === undefined) throw fail(`${where(i)}: pid ${m.pid} forks inside a context the schedule does not know`, m.pid);
          return p.ctxs[c]!.reader!;
        });
        crp.ic = 0;
        live.set(m.child, { pid: m.child, rp: crp, program: l.program, signals: 0, ctxs: [...fs.child] });
        sched.fork(m.pid, m.child);
        break;
      }
      case 'signal': {
        const l = liveOf(m.pid, i);
        const c = p.ctxOf[i]!;
        try {
          l.rp.deliverSignal(m.pc, p.ctxs[c]!.reader!);
        } catch (e) {
          if (e instanceof RegenError) throw fail(`${where(i)}: pid ${m.pid}: ${e.message}`, m.pid);
          throw e;
        }
        l.ctxs.push(c);
        l.signals++;
        break;
      }
      case 'sigreturn': {
        const l = liveOf(m.pid, i);
        try {
          l.rp.sigreturn();
        } catch (e) {
          if (e instanceof RegenError) throw fail(`${where(i)}: pid ${m.pid}: ${e.message}`, m.pid);
          throw e;
        }
        if (l.rp.reader.ctx !== p.ctxOf[i]) throw fail(`${where(i)}: pid ${m.pid} returns from a handler into another context than the schedule's`, m.pid);
        break;
      }
      case 'exec': {
        const l = liveOf(m.pid, i);
        finishImage(l, false);
        cur = null;
        break;
      }
      case 'exit': {
        const l = liveOf(m.pid, i);
        finishImage(l, true);
        cur = null;
        sched.exit(m.pid, m.status);
        break;
      }
    }
  }
  if (input.schedProblem) {
    throw new MultiRegenError(`${input.schedFile}: ${input.schedProblem}; regeneration stopped after ${markers.length} records (event ${counter.n})`, counter.n, curPid);
  }
  if (live.size > 0) {
    const l = [...live.values()][0]!;
    throw fail(`${input.schedFile}: pid ${l.pid} (${l.program}) was still running when the trace ended (no EXIT record)`, l.pid);
  }
  const bytes = p.ctxs.reduce((n, c) => n + c.reader!.consumed, 0);
  const usable = input.usable ?? input.trace.length;
  if (bytes !== usable) throw new MultiRegenError(`${input.traceFile}: regeneration used ${bytes} of its ${usable} bytes`, counter.n, -1);
  if (input.traceProblem) throw new MultiRegenError(`${input.traceFile}: ${input.traceProblem}`, counter.n, -1);
  sched.end(input.endCycle ?? NaN, counter.n);
  opts.progress?.(input.trace.length, input.trace.length);
  return { events: counter.n, bytes, processes: summaries };
}

/** Regenerates every traced process into the consumers; returns the totals. */
export function regenerateInput(input: RegenInput, refs: RefConsumer, sched: ScheduleConsumer = NO_SCHEDULE, opts: RegenOptions = {}): RegenTotals {
  const g = drive(input, refs, sched, opts, false);
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
  }
}

/** A batch of events of the pull form (arrays reused between batches: copy what you keep). */
export interface EventBatch {
  n: number;
  pid: Int32Array;
  kind: Uint8Array;
  addr: Uint32Array;
  size: Uint8Array;
}

class BatchCollector implements RefConsumer {
  b: EventBatch = { n: 0, pid: new Int32Array(1 << 16), kind: new Uint8Array(1 << 16), addr: new Uint32Array(1 << 16), size: new Uint8Array(1 << 16) };
  ref(pid: number, kind: number, addr: number, size: number): void {
    const b = this.b;
    if (b.n === b.pid.length) {
      const cap = b.n * 2;
      const grow = <T extends Int32Array | Uint8Array | Uint32Array>(a: T, mk: (n: number) => T): T => {
        const x = mk(cap);
        x.set(a);
        return x;
      };
      b.pid = grow(b.pid, (n) => new Int32Array(n));
      b.kind = grow(b.kind, (n) => new Uint8Array(n));
      b.addr = grow(b.addr, (n) => new Uint32Array(n));
      b.size = grow(b.size, (n) => new Uint8Array(n));
    }
    b.pid[b.n] = pid;
    b.kind[b.n] = kind;
    b.addr[b.n] = addr;
    b.size[b.n] = size;
    b.n++;
  }
}

/** The pull form: batches of events, in order, until the end (then the totals). */
export function* regenBatchesInput(input: RegenInput, sched: ScheduleConsumer = NO_SCHEDULE, opts: RegenOptions = {}): Generator<EventBatch, RegenTotals, void> {
  const col = new BatchCollector();
  const g = drive(input, col, sched, opts, true);
  for (;;) {
    const r = g.next();
    if (col.b.n > 0) {
      yield col.b;
      col.b.n = 0;
    }
    if (r.done) return r.value;
  }
}

/** The regeneration programs of a bundle's schemas, made once per bundle (they keep compiled code). */
const programsOf = new WeakMap<Bundle, Map<string, RegenProgram>>();
function regenPrograms(b: Bundle): Map<string, RegenProgram> {
  let m = programsOf.get(b);
  if (!m) {
    m = new Map([...b.programs].map(([h, p]) => [h, new RegenProgram(p.schema, p.file)]));
    programsOf.set(b, m);
  }
  return m;
}

/** A bundle as the driver's input. */
export function bundleInput(b: Bundle): RegenInput {
  const progs = regenPrograms(b);
  return {
    markers: b.sched.markers, offsets: b.sched.offsets, trace: b.trace, usable: b.traceUsable, traceFile: b.traceFile,
    schedFile: b.schedFile, traceProblem: b.traceProblem, schedProblem: b.schedProblem,
    program: (m) => progs.get(m.hash ?? '')!,
    path: (m) => b.programs.get(m.hash ?? '')!.info.path,
    endCycle: b.manifest.run.cycles,
  };
}

/** Regenerates a bundle (docs/trace-bundle.md section 5). */
export function regenerate(b: Bundle, refs: RefConsumer, sched: ScheduleConsumer = NO_SCHEDULE, opts: RegenOptions = {}): RegenTotals {
  return regenerateInput(bundleInput(b), refs, sched, opts);
}

/** Host milliseconds between two returns to the host's event loop in regenerateSliced. */
const SLICE_MS = 50;

/**
 * regenerate() in slices of about SLICE_MS of host time (the pull form's chunks), awaiting
 * `between` after each: the host's event loop runs there (signals: bin/interrupt.ts), and
 * `between` may throw to abandon the pass. The events are regenerate()'s, in the same order.
 */
export async function regenerateSliced(b: Bundle, refs: RefConsumer, sched: ScheduleConsumer, opts: RegenOptions, between: () => Promise<void>): Promise<RegenTotals> {
  const g = drive(bundleInput(b), refs, sched, opts, true);
  let until = performance.now() + SLICE_MS;
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
    if (performance.now() >= until) {
      await between();
      until = performance.now() + SLICE_MS;
    }
  }
}

/** The pull form over a bundle. */
export function regenBatches(b: Bundle, sched: ScheduleConsumer = NO_SCHEDULE, opts: RegenOptions = {}): Generator<EventBatch, RegenTotals, void> {
  return regenBatchesInput(bundleInput(b), sched, opts);
}
