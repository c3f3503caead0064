/**
 * Blocking the traced processes while the consumer drains the buffers (mazieres-smith-1994 3.2.3):
 * trbuf_block takes every runnable traced process off the run queues onto a private queue that
 * wakeup cannot reach, records the wakeups of sleeping traced processes instead of acting on them
 * (PRTRC_WAK), and the process that overflowed sleeps; trbuf_unblock puts them all back.
 *
 * The kernel consults holdRunnable whenever a process would go on a run queue (setrunnable,
 * wakeup), which is how a wakeup during the block is deferred. A traced process that reaches the
 * return to user mode while the block lasts (the one that overflowed, one that mapped the buffer
 * during the block) sleeps in `sleep` until trbuf_unblock.
 */
import { remrq, setrunqueue, wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { PRIBIO } from './param.js';
import type { KGen, Proc } from './proc.js';
import { SRUN } from './proc.js';

export const PRTRC_TRC = 1;
export const PRTRC_ANA = 2;
export const PRTRC_WAK = 4;

/** Why the traced processes are blocked (struct trbuf_stat ts_blocked). */
export const BLK_NONE = 0;
export const BLK_OVERFLOW = 1;
export const BLK_SCHED = 2;
export const BLK_REQUEST = 3;

export class TraceBlock {
  /** BLK_* while the traced processes are blocked (4.4BSD-trbuf's trbuf_isblocked). */
  reason = BLK_NONE;
  /** Runnable traced processes taken off the run queues, in run-queue order. */
  private held: Proc[] = [];
  /** Where traced processes sleep until the block ends. */
  private readonly chan = {};
  private since = 0;
  /** Blocks so far, by reason, and virtual cycles spent blocked. */
  readonly counts = [0, 0, 0, 0];
  cycles = 0;

  constructor(private readonly k: Kernel) {}

  get blocked(): boolean {
    return this.reason !== BLK_NONE;
  }

  /** trbuf_block: every runnable traced process off the run queues. */
  block(reason: number): void {
    if (this.blocked) return;
    this.reason = reason;
    this.counts[reason]!++;
    this.since = this.k.clock.now;
    for (let i = 0; i < this.k.runq.qs.length; i++) {
      for (const q of [...this.k.runq.qs[i]!]) {
        if (q.p_trace_stat & PRTRC_TRC) {
          remrq(this.k, q);
          this.held.push(q);
        }
      }
    }
  }

  /** A traced process would become runnable during the block: remembered, not queued. */
  holdRunnable(p: Proc): boolean {
    if (!this.blocked || (p.p_trace_stat & PRTRC_TRC) === 0) return false;
    p.p_trace_stat |= PRTRC_WAK;
    return true;
  }

  /** The calling traced process sleeps until trbuf_unblock. */
  *sleep(): KGen<void> {
    while (this.blocked) yield* tsleep(this.k, this.chan, PRIBIO, 'trbuf', 0);
  }

  /** trbuf_unblock: everyone back on the run queues, the sleepers woken. */
  unblock(): void {
    if (!this.blocked) return;
    this.reason = BLK_NONE;
    this.cycles += this.k.clock.now - this.since;
    const k = this.k;
    const back = (q: Proc): void => {
      if (q.p_stat === SRUN && q.p_rqindex < 0 && q !== k.curproc) setrunqueue(k, q);
    };
    for (const q of this.held) back(q);
    this.held = [];
    for (const q of k.procs.all) {
      if (q.p_trace_stat & PRTRC_WAK) {
        q.p_trace_stat &= ~PRTRC_WAK;
        back(q);
      }
    }
    wakeup(k, this.chan);
  }
}
