/**
 * Advisory locks (4.4BSD ufs/ufs_lockf.c, kept for every vnode): fcntl's record locks, owned by a
 * process (F_POSIX), and flock's whole-file locks, owned by an open file (F_FLOCK). Both kinds
 * live in one list per vnode and conflict with each other, as in 4.4BSD. A lock that cannot be
 * granted makes the caller sleep (F_SETLKW, flock without LOCK_NB) until some lock on the vnode
 * is released or changed; a wait that would close a cycle of processes waiting for each other's
 * record locks fails with EDEADLK.
 */
import { EAGAIN, EDEADLK } from './errno.js';
import { wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { PCATCH, PLOCK } from './param.js';
import { type KGen, P_ADVLOCK, type Proc } from './proc.js';
import type { Vnode } from './vfs.js';

/** Lock types (struct flock l_type, <fcntl.h>). */
export const F_RDLCK = 1;
export const F_UNLCK = 2;
export const F_WRLCK = 3;
/** Lock flavours and the wait flag (4.4BSD F_WAIT, F_FLOCK, F_POSIX). */
export const F_WAIT = 0x010;
export const F_FLOCK = 0x020;
export const F_POSIX = 0x040;

export interface LockF {
  /** F_RDLCK or F_WRLCK (F_UNLCK only in requests). */
  type: number;
  /** First and last byte covered; end is Infinity for "to the end of the file, however long". */
  start: number;
  end: number;
  /** The process (F_POSIX) or the open file (F_FLOCK) that holds it. */
  owner: object;
  flags: number;
}

/** The locks of a vnode and the channel its waiters sleep on. */
export interface LockList {
  locks: LockF[];
}

function list(vp: Vnode): LockList {
  return (vp.v_lockf ??= { locks: [] });
}

function overlap(a: LockF, b: LockF): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** The first lock of another owner that keeps `lock` from being granted. */
export function lf_getblock(vp: Vnode, lock: LockF): LockF | undefined {
  const ll = vp.v_lockf;
  if (!ll) return undefined;
  return ll.locks.find((l) => l.owner !== lock.owner && overlap(l, lock) && (l.type === F_WRLCK || lock.type === F_WRLCK));
}

/** The pid a blocking lock is reported with (F_GETLK): its process, or -1 for a flock lock. */
export function lf_pid(l: LockF): number {
  return l.flags & F_POSIX ? (l.owner as Proc).p_pid : -1;
}

/**
 * True when p waiting for `block` would close a cycle: the owner of block waits (transitively)
 * for a record lock p holds.
 */
function deadlock(p: Proc, block: LockF): boolean {
  let b: LockF | undefined = block;
  for (let n = 0; b && (b.flags & F_POSIX) && n < 1000; n++) {
    const q = b.owner as Proc;
    if (q === p) return true;
    const w = q.p_lockwait as { vp: Vnode; lock: LockF } | null;
    if (!w) return false;
    b = lf_getblock(w.vp, w.lock);
  }
  return false;
}

/**
 * Replaces what the lock's owner holds over [start, end] by the lock (nothing for F_UNLCK),
 * splitting the owner's locks that extend beyond the range and merging its adjacent locks of
 * the same type, so that each owner's locks stay disjoint and minimal.
 */
function apply(ll: LockList, lock: LockF): void {
  const out: LockF[] = [];
  for (const l of ll.locks) {
    if (l.owner !== lock.owner || !overlap(l, lock)) {
      out.push(l);
      continue;
    }
    if (l.start < lock.start) out.push({ ...l, end: lock.start - 1 });
    if (l.end > lock.end) out.push({ ...l, start: lock.end + 1 });
  }
  if (lock.type !== F_UNLCK) {
    let nl = { ...lock };
    for (let i = 0; i < out.length; i++) {
      const l = out[i]!;
      if (l.owner !== nl.owner || l.type !== nl.type) continue;
      if (l.end + 1 >= nl.start && nl.end + 1 >= l.start) {
        nl = { ...nl, start: Math.min(l.start, nl.start), end: Math.max(l.end, nl.end) };
        out.splice(i--, 1);
      }
    }
    out.push(nl);
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  ll.locks = out;
}

/**
 * Sets (or, with type F_UNLCK, clears) a lock for curproc p; with F_WAIT sleeps until it can be
 * granted. 0, EAGAIN (would block), EDEADLK, or EINTR/ERESTART from a signal.
 */
export function* lf_setlock(k: Kernel, p: Proc, vp: Vnode, lock: LockF, wait: boolean): KGen<number> {
  const ll = list(vp);
  if (lock.type !== F_UNLCK) {
    for (;;) {
      const block = lf_getblock(vp, lock);
      if (!block) break;
      if (!wait) return EAGAIN;
      if ((lock.flags & F_POSIX) && deadlock(p, block)) return EDEADLK;
      p.p_lockwait = { vp, lock };
      const e = yield* tsleep(k, ll, PLOCK | PCATCH, 'lockf', 0);
      p.p_lockwait = null;
      if (e) return e;
    }
  }
  if (lock.flags & F_POSIX) p.p_flag |= P_ADVLOCK;
  apply(ll, lock);
  // A release, downgrade or split may let a waiter through.
  wakeup(k, ll);
  return 0;
}

/** Drops every lock `owner` (a process or an open file) holds on vp. */
export function lf_release(k: Kernel, vp: Vnode, owner: object): void {
  const ll = vp.v_lockf;
  if (!ll) return;
  const n = ll.locks.length;
  ll.locks = ll.locks.filter((l) => l.owner !== owner);
  if (ll.locks.length !== n) wakeup(k, ll);
}
