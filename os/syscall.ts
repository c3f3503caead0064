/**
 * System-call dispatch (4.4BSD sys/sysent.h and the MI part of syscall()): `sysent` is indexed by
 * the SYS_* numbers of os/syscalls.master; each entry names its implementation in os/sys_table.ts.
 * A call that may sleep is a generator and runs as the process's kernel thread; the others run
 * to completion at once.
 */
import { EJUSTRETURN, ENOSYS } from './errno.js';
import { psignal } from './kern_sig.js';
import type { Kernel } from './kernel.js';
import type { KGen, KThread, Proc } from './proc.js';
import { SIGSYS } from './signal.js';
import { SYSCALL_IMPLS, type SyscallImpl } from './sys_table.js';
import { unimplementedName } from './syscallnames.js';
import { syscallTable } from '../format/syscalltab.js';
import { userret } from './userret.js';

export interface Sysent {
  name: string;
  nargs: number;
  impl: SyscallImpl;
}

/** Builds sysent from syscalls.master; every listed call must have an implementation. */
export function buildSysent(): (Sysent | undefined)[] {
  const table: (Sysent | undefined)[] = [];
  for (const e of syscallTable()) {
    const impl = SYSCALL_IMPLS[e.name];
    if (!impl) throw new Error(`os/syscalls.master lists ${e.name} (${e.number}) but the kernel has no implementation (os/sys_table.ts)`);
    table[e.number] = { name: e.name, nargs: e.nargs, impl };
  }
  return table;
}

function* syscallThread(k: Kernel, p: Proc, callp: Sysent, g: KGen<number>): KThread {
  const error = yield* g;
  finish(k, p, callp, error);
  yield* userret(k, p);
}

function finish(k: Kernel, p: Proc, callp: Sysent, error: number): void {
  if (error !== EJUSTRETURN && k.log.isLevelEnabled('trace')) {
    k.log.trace({ pid: p.p_pid, call: callp.name, error, rv0: p.p_rv[0], rv1: p.p_rv[1] }, 'syscall return');
  }
  k.md.syscallReturn(p, error, p.p_rv[0]!, p.p_rv[1]!);
}

/**
 * A call the kernel does not implement (4.4BSD nosys): SIGSYS, and ENOSYS for a process that
 * ignores or catches it; the call's number and name go to the console's error stream (the
 * host's standard error) so that the reason for the signal is never silent.
 */
function nosys(k: Kernel, p: Proc, code: number): void {
  const name = unimplementedName(code);
  const what = `system call ${code >>> 0}${name ? ` (${name})` : ''}`;
  k.log.debug({ pid: p.p_pid, code, name }, 'unimplemented system call: ENOSYS, SIGSYS');
  const msg = new TextEncoder().encode(`emu: pid ${p.p_pid} (${p.p_comm}): ${what} is not implemented: ENOSYS, SIGSYS\n`);
  const c = k.devs.console;
  if (c.writeErr) c.writeErr(msg);
  else c.write(msg);
  psignal(k, p, SIGSYS);
  k.md.syscallReturn(p, ENOSYS, 0, 0);
}

/** syscall(): fetch the number and arguments of curproc's trap, dispatch, return. */
export function syscall(k: Kernel, p: Proc): void {
  const code = k.md.syscallCode(p);
  p.stats.syscalls++;
  const callp = code >= 0 ? k.sysent[code] : undefined;
  if (!callp) {
    nosys(k, p, code);
    return;
  }
  const args = p.p_args;
  const err = k.md.syscallArgs(p, callp.nargs, args);
  if (err) {
    k.md.syscallReturn(p, err, 0, 0);
    return;
  }
  p.p_rv[0] = 0;
  p.p_rv[1] = 0;
  if (k.log.isLevelEnabled('trace')) k.log.trace({ pid: p.p_pid, call: callp.name, args: Array.from(args.subarray(0, callp.nargs)) }, 'syscall');
  const r = callp.impl(k, p, args, p.p_rv);
  if (typeof r === 'number') {
    finish(k, p, callp, r);
  } else {
    p.p_kthread = syscallThread(k, p, callp, r);
  }
}
