/**
 * The schedule of a multi-process run as a Chrome / Perfetto trace-event JSON timeline
 * (docs/replay.md; the format is Chrome's "Trace Event Format": an object with a `traceEvents`
 * array). One track per process (trace-event pid = tid = the process's pid, named
 * "pid N: program" by `process_name` and `thread_name` metadata events), one complete event
 * (`"ph": "X"`) per run interval, named after the program running in it. Timestamps are virtual
 * microseconds, cycle * 1e6 / cpuHz rounded to whole nanoseconds.
 *
 * A run interval starts when a process gets the CPU (a switch record) and ends when the next one
 * does, or at the end of the run: it includes the kernel work done on the process's behalf and
 * any idle time during which the process kept the CPU (the kernel switches only when the owner
 * changes). So the intervals never overlap and cover the run from the first switch to its end.
 * Each event's args carry the exact integer cycle counts and the number of references (fetches,
 * loads, stores) of the interval.
 */
import type { ScheduleConsumer } from './replay/consumer.js';

export interface RunInterval {
  pid: number;
  program: string;
  /** [start, end) in cycles. */
  start: number;
  end: number;
  /** References delivered during the interval. */
  events: number;
  /** Wait status when the process exited during the interval. */
  exit?: number;
}

export interface ChromeEvent {
  name: string;
  ph: 'X' | 'M';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  args: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: ChromeEvent[];
  displayTimeUnit: 'ms';
  otherData: Record<string, string | number | boolean>;
}

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1) || p;

export class Timeline implements ScheduleConsumer {
  private readonly pids: number[] = [];
  private readonly starts: number[] = [];
  private readonly firstEvent: number[] = [];
  private readonly progs: string[] = [];
  private readonly program = new Map<number, string>();
  /** Programs a pid ran, in order (for the track name). */
  private readonly history = new Map<number, string[]>();
  /** Interval index → wait status of the process that exited in it. */
  private readonly exits = new Map<number, number>();
  endCycle = NaN;
  endEvents = 0;
  private timeless = false;

  private note(pid: number, prog: string): void {
    const h = this.history.get(pid);
    if (!h) this.history.set(pid, [prog]);
    else if (h.length === 1 && h[0] === '?') h[0] = prog;
    else if (h[h.length - 1] !== prog) h.push(prog);
  }

  switchTo(pid: number, cycle: number, events: number): void {
    if (Number.isNaN(cycle)) {
      this.timeless = true;
      return;
    }
    const n = this.pids.length;
    if (n > 0 && cycle < this.starts[n - 1]!) throw new Error(`the schedule goes back in time: pid ${pid} at cycle ${cycle} after cycle ${this.starts[n - 1]}`);
    if (n > 0 && this.pids[n - 1] === pid) return;
    const prog = this.program.get(pid) ?? '?';
    this.pids.push(pid);
    this.starts.push(cycle);
    this.firstEvent.push(events);
    this.progs.push(prog);
    this.note(pid, prog);
  }

  fork(parent: number, child: number): void {
    this.program.set(child, this.program.get(parent) ?? '?');
  }

  exec(pid: number, path: string): void {
    const prog = basename(path);
    this.program.set(pid, prog);
    // An exec inside the current interval: the interval ran both programs.
    const n = this.pids.length;
    if (n > 0 && this.pids[n - 1] === pid) this.progs[n - 1] = this.progs[n - 1] === '?' ? prog : `${this.progs[n - 1]} → ${prog}`;
    this.note(pid, prog);
  }

  exit(pid: number, status: number): void {
    const n = this.pids.length;
    if (n > 0 && this.pids[n - 1] === pid) this.exits.set(n - 1, status);
  }

  end(cycle: number, events: number): void {
    this.endCycle = cycle;
    this.endEvents = events;
  }

  /** The run intervals; `endCycle` closes the last one (the source's end, or one the caller supplies). */
  intervals(endCycle = this.endCycle): RunInterval[] {
    if (this.timeless) throw new Error('the source carries no times: no timeline can be drawn');
    const out: RunInterval[] = [];
    const n = this.pids.length;
    for (let i = 0; i < n; i++) {
      const end = i + 1 < n ? this.starts[i + 1]! : endCycle;
      if (Number.isNaN(end)) throw new Error('the end of the run is unknown (pass the run\'s --stats report)');
      if (end < this.starts[i]!) throw new Error(`the run ends at cycle ${end}, before the last switch at cycle ${this.starts[i]}`);
      const evEnd = i + 1 < n ? this.firstEvent[i + 1]! : this.endEvents;
      const r: RunInterval = { pid: this.pids[i]!, program: this.progs[i]!, start: this.starts[i]!, end, events: evEnd - this.firstEvent[i]! };
      const st = this.exits.get(i);
      if (st !== undefined) r.exit = st;
      out.push(r);
    }
    return out;
  }

  /** The Chrome trace-event document. */
  toChrome(cpuHz: number, opts: { endCycle?: number; endEstimated?: boolean; source?: string } = {}): ChromeTrace {
    if (!(cpuHz > 0)) throw new Error(`clock rate ${cpuHz} Hz: must be positive`);
    const iv = this.intervals(opts.endCycle ?? this.endCycle);
    // Whole nanoseconds, so an interval's ts + dur is exactly the next one's ts (in ns).
    const ns = (c: number): number => Math.round((c * 1e9) / cpuHz);
    const ev: ChromeEvent[] = [];
    const pids = [...new Set(iv.map((i) => i.pid))].sort((a, b) => a - b);
    for (const pid of pids) {
      const progs = this.history.get(pid) ?? ['?'];
      const name = `pid ${pid}: ${progs.join(' → ')}`;
      ev.push({ name: 'process_name', ph: 'M', pid, tid: pid, args: { name } });
      ev.push({ name: 'process_sort_index', ph: 'M', pid, tid: pid, args: { sort_index: pid } });
      ev.push({ name: 'thread_name', ph: 'M', pid, tid: pid, args: { name: progs[progs.length - 1]! } });
    }
    for (const i of iv) {
      const s = ns(i.start);
      ev.push({
        name: i.program, cat: 'run', ph: 'X', pid: i.pid, tid: i.pid, ts: s / 1000, dur: (ns(i.end) - s) / 1000,
        args: i.exit === undefined ? { cycle: i.start, cycles: i.end - i.start, events: i.events } : { cycle: i.start, cycles: i.end - i.start, events: i.events, exit: i.exit },
      });
    }
    const otherData: ChromeTrace['otherData'] = {
      generator: 'emu replay --timeline',
      cpuHz,
      startCycle: iv.length ? iv[0]!.start : 0,
      endCycle: iv.length ? iv[iv.length - 1]!.end : 0,
      endEstimated: opts.endEstimated === true,
      intervals: iv.length,
      processes: pids.length,
    };
    if (opts.source) otherData['source'] = opts.source;
    return { traceEvents: ev, displayTimeUnit: 'ms', otherData };
  }
}
