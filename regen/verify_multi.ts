/**
 * `emu regen BUNDLE --verify`: the regenerated multi-process trace against the bundle's ground
 * truth, event for event. The truth is that of the traced (instrumented) run, so it is first
 * restricted and mapped back (docs/trace-bundle.md section 5):
 *   - only traced images count: a process's events from the exec of an instrumented program (its
 *     first fetch lies in the new text, where instrumented code lives) to its exit or next exec;
 *     a fork's child inherits its parent's state. Which instrumented program an exec started is
 *     the next START of that pid in the schedule (the exec order of a pid is the same in both);
 *   - instruction addresses map through that program's address map: original instructions keep
 *     their original addresses and their data references; instrumentation sequences, glue and
 *     their stores into the trace buffer disappear (regen/verify.ts MappedTruthCursor, per pid).
 * The consumer and untraced processes are absent from both sides.
 */
import { readFileSync } from 'node:fs';
import type { Schema } from '../format/schema.js';
import { checkedTruthFile, type Bundle } from '../format/bundle.js';
import { regenerate, type RegenTotals } from './multi.js';
import type { RefConsumer, ScheduleConsumer } from './replay/consumer.js';
import { EV_I, TruthCursor, type TruthEvent } from './truth_cursor.js';
import { funcNamer } from './verify.js';

const KIND = ['I', 'L', 'S'];

export interface PidEvent extends TruthEvent {
  pid: number;
}

type Lookup = (a: number) => number | undefined;

function lookupOf(schema: Schema): Lookup {
  const map = schema.addressMap;
  return (a) => {
    let lo = 0;
    let hi = map.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [start, n, kind, v] = map[mid]!;
      if (a < start) hi = mid - 1;
      else if (a >= start + 4 * n) lo = mid + 1;
      else return kind === 'o' ? v + (a - start) : undefined;
    }
    return undefined;
  };
}

interface PidState {
  schema: Schema | null;
  lookup: Lookup | null;
  /** Exec'ed: the first fetch tells whether the image is instrumented. */
  pending: boolean;
}

/** The traced images' events of an instrumented run's ground truth, in original addresses. */
export class TracedTruthCursor {
  private readonly inner: TruthCursor;
  private readonly states = new Map<number, PidState>();
  private readonly lookups = new Map<Schema, Lookup>();
  private readonly lo: number;
  private readonly hi: number;
  private keep = false;
  private readonly ev: TruthEvent = { kind: 0, addr: 0, size: 0 };
  /** Truth events (of every process) read so far. */
  read = 0;

  /**
   * `starts`: per pid, the schemas its START records name, in order (consumed as the truth's
   * execs of instrumented programs come).
   */
  constructor(bytes: Uint8Array, readonly file: string, private readonly starts: Map<number, Schema[]>) {
    const all = [...starts.values()].flat();
    this.lo = Math.min(...all.map((s) => s.newText.base), 0xffffffff);
    this.hi = Math.max(...all.map((s) => s.newText.base + s.newText.size), 0);
    this.inner = new TruthCursor(bytes, file, undefined, {
      fork: (parent, child) => {
        const s = this.states.get(parent);
        if (s) this.states.set(child, { ...s });
      },
      exec: (pid) => this.states.set(pid, { schema: null, lookup: null, pending: true }),
      exit: (pid) => {
        this.states.delete(pid);
      },
    });
  }

  private lookupFor(s: Schema): Lookup {
    let l = this.lookups.get(s);
    if (!l) this.lookups.set(s, (l = lookupOf(s)));
    return l;
  }

  next(out: PidEvent): PidEvent | null {
    for (;;) {
      const e = this.inner.next(this.ev);
      if (!e) return null;
      this.read++;
      const pid = this.inner.currentPid;
      if (e.kind === EV_I) {
        const st = this.states.get(pid);
        this.keep = false;
        if (!st) continue;
        if (st.pending) {
          st.pending = false;
          if (e.addr >= this.lo && e.addr < this.hi) {
            const q = this.starts.get(pid);
            const s = q?.shift();
            if (!s) throw new Error(`${this.file}: event ${this.read}: pid ${pid} runs an instrumented program the schedule never starts`);
            st.schema = s;
            st.lookup = this.lookupFor(s);
          }
        }
        if (!st.lookup) continue;
        const o = st.lookup(e.addr);
        if (o === undefined) continue;
        this.keep = true;
        out.pid = pid;
        out.kind = EV_I;
        out.addr = o;
        out.size = 4;
        return out;
      }
      if (!this.keep) continue;
      out.pid = pid;
      out.kind = e.kind;
      out.addr = e.addr;
      out.size = e.size;
      return out;
    }
  }
}

export class MultiDivergenceError extends Error {
  constructor(readonly index: number, readonly pid: number, readonly pc: number, readonly func: string, readonly expected: string, readonly actual: string) {
    super(`first divergence at event ${index} (pid ${pid}, last instruction 0x${pc.toString(16)} in ${func}): expected ${expected}, regenerated ${actual}`);
    this.name = 'MultiDivergenceError';
  }
}

const fmt = (pid: number, kind: number, addr: number, size: number): string => `pid ${pid} ${KIND[kind]} 0x${(addr >>> 0).toString(16)} ${size}`;

/** Compares every regenerated event with the next traced truth event. */
export class VerifyRefs implements RefConsumer {
  index = 0;
  private readonly exp: PidEvent = { pid: 0, kind: 0, addr: 0, size: 0 };
  private readonly lastPc = new Map<number, number>();

  /** `name(pid, pc)` names the function of an original address of that pid's program. */
  constructor(private readonly cur: TracedTruthCursor, private readonly name: (pid: number, pc: number) => string) {}

  ref(pid: number, kind: number, addr: number, size: number): void {
    const e = this.cur.next(this.exp);
    if (!e || e.pid !== pid || e.kind !== kind || e.addr !== addr >>> 0 || e.size !== size) {
      const pc = this.lastPc.get(pid) ?? 0;
      throw new MultiDivergenceError(this.index, pid, pc, this.name(pid, pc), e ? fmt(e.pid, e.kind, e.addr, e.size) : 'end of trace', fmt(pid, kind, addr, size));
    }
    if (kind === EV_I) this.lastPc.set(pid, addr >>> 0);
    this.index++;
  }

  /** After regeneration: the truth must have no traced events left. */
  finish(): void {
    const e = this.cur.next(this.exp);
    if (e) {
      const pc = this.lastPc.get(e.pid) ?? 0;
      throw new MultiDivergenceError(this.index, e.pid, pc, this.name(e.pid, pc), fmt(e.pid, e.kind, e.addr, e.size), 'end of trace');
    }
  }
}

/** Names functions per pid from the program each pid runs (kept current by `exec`). */
export class PidNamer {
  private readonly byPid = new Map<number, Schema>();
  /** Made when a message first needs a name: it reads every function of the schema. */
  private readonly bySchema = new Map<Schema, (pc: number) => string>();
  set(pid: number, schema: Schema): void {
    this.byPid.set(pid, schema);
  }
  fork(parent: number, child: number): void {
    const s = this.byPid.get(parent);
    if (s) this.byPid.set(child, s);
  }
  name(pid: number, pc: number): string {
    const s = this.byPid.get(pid);
    if (!s) return '?';
    let f = this.bySchema.get(s);
    if (!f) this.bySchema.set(s, (f = funcNamer(s)));
    return f(pc);
  }
}

/** The schemas each pid's START records name, in order (the truth's side of the comparison). */
export function startsOf(b: Bundle): Map<number, Schema[]> {
  const m = new Map<number, Schema[]>();
  for (const k of b.sched.markers) {
    if (k.kind !== 'start') continue;
    let l = m.get(k.pid);
    if (!l) m.set(k.pid, (l = []));
    l.push(b.programs.get(k.hash ?? '')!.schema);
  }
  return m;
}

/** A schedule consumer keeping a PidNamer current. */
export function namerConsumer(b: Bundle, namer: PidNamer): ScheduleConsumer {
  const byPath = new Map([...b.programs.values()].map((p) => [p.info.path, p.schema]));
  return {
    switchTo() {}, end() {}, exit() {},
    fork: (a, c) => namer.fork(a, c),
    exec: (p, path) => namer.set(p, byPath.get(path)!),
  };
}

/**
 * Regenerates a bundle and compares it with its ground truth; returns the totals and the number
 * of events compared. Throws MultiDivergenceError at the first difference.
 */
export function verifyBundle(b: Bundle, opts: { interpret?: boolean } = {}): { totals: RegenTotals; events: number } {
  const truth = checkedTruthFile(b);
  const namer = new PidNamer();
  const v = new VerifyRefs(new TracedTruthCursor(new Uint8Array(readFileSync(truth)), truth, startsOf(b)), (p, pc) => namer.name(p, pc));
  const totals = regenerate(b, v, namerConsumer(b, namer), opts);
  v.finish();
  return { totals, events: v.index };
}
