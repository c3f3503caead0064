/**
 * Register-window services for the TypeScript kernel, doing exactly what the v8 window trap
 * handlers do (manual Appendix D and 4.4BSD sparc locore): a window's 8 locals and 8 ins live
 * in the 64-byte save area at that window's %sp (its %o6): %l0..%l7 at sp+0..28, %i0..%i7 at
 * sp+32..60, moved as 8 doubleword std/ldd references, reported to the sink as kernel references.
 *
 * All functions run in a trap window T (ET = 0, CWP = T); the user's window is U = T + 1.
 * Memory is accessed with user permissions through the MMU. On a fault nothing is changed and a
 * WindowFault is returned (the kernel may map the page and call again, or signal the process).
 *
 *   windowOverflow   window_overflow handler: SAVE found window T invalid. Spills window T - 1
 *                    (the oldest user frame) and rotates WIM right: the returned-to SAVE succeeds.
 *   windowUnderflow  window_underflow handler: RESTORE found window U + 1 = T + 2 invalid. Fills
 *                    it from its %sp and rotates WIM left.
 *   flushWindows     ST_FLUSH_WINDOWS (Linux `ta 3`): spills every valid window above U, then
 *                    WIM = {U + 1}: only U (and T) stay valid; RESTOREs refill from the stack.
 *   flushAllUserWindows  also spills U (context switch: no user register stays only in the file).
 *   restoreUserWindow    fills U from the stack at T's %i6 (= U's %sp) and sets WIM = {U + 1}:
 *                    what a kernel does before returning to a process whose windows were flushed.
 */
import type { SparcCore } from './core.js';
import { TT_MEM_ADDRESS_NOT_ALIGNED } from './traps.js';

export interface WindowFault {
  /** Virtual address that could not be accessed. */
  va: number;
  write: boolean;
  /** The trap a v8 handler would see: mem_address_not_aligned, data_access_exception or _error. */
  tt: number;
}

function checkTrapWindow(cpu: SparcCore, what: string): void {
  if (cpu.et) throw new Error(`${what}: not in a trap window (ET = 1)`);
}

/** The two physical page bases covering the 64-byte save area at sp, or a fault. */
function saveArea(cpu: SparcCore, sp: number, write: boolean): [number, number] | WindowFault {
  if (sp & 7) return { va: sp >>> 0, write, tt: TT_MEM_ADDRESS_NOT_ALIGNED };
  const first = cpu.userDataPa(sp, write);
  if (first < 0) return { va: sp >>> 0, write, tt: cpu.userFaultTrap() };
  const lastVa = (sp + 56) | 0;
  const last = cpu.userDataPa(lastVa, write);
  if (last < 0) return { va: lastVa >>> 0, write, tt: cpu.userFaultTrap() };
  return [first, last];
}

function paOf(sp: number, off: number, area: [number, number]): number {
  const va = (sp + off) | 0;
  if (((va ^ sp) >>> 12) === 0) return (area[0] + off) | 0;
  return (area[1] - 56 + off) | 0;
}

/** Stores window w's locals and ins at its %sp. */
export function spillWindow(cpu: SparcCore, w: number): WindowFault | undefined {
  const sp = cpu.windowReg(w, 14);
  const area = saveArea(cpu, sp, true);
  if (!Array.isArray(area)) return area;
  const rf = cpu.rf;
  for (let k = 0; k < 16; k++) cpu.writePhys(paOf(sp, k * 4, area), 4, rf[cpu.regIndex(w, 16 + k)]!);
  const sink = cpu.sink;
  if (sink) for (let k = 0; k < 8; k++) sink.kstore((sp + k * 8) >>> 0, 8);
  return undefined;
}

/** Loads window w's locals and ins from its %sp. */
export function fillWindow(cpu: SparcCore, w: number): WindowFault | undefined {
  const sp = cpu.windowReg(w, 14);
  const area = saveArea(cpu, sp, false);
  if (!Array.isArray(area)) return area;
  const rf = cpu.rf;
  for (let k = 0; k < 16; k++) rf[cpu.regIndex(w, 16 + k)] = cpu.u32[paOf(sp, k * 4, area) >>> 2]!;
  const sink = cpu.sink;
  if (sink) for (let k = 0; k < 8; k++) sink.kload((sp + k * 8) >>> 0, 8);
  return undefined;
}

function rotr(cpu: SparcCore, wim: number): number {
  const n = cpu.nwindows;
  return ((wim >>> 1) | ((wim & 1) << (n - 1))) >>> 0;
}
function rotl(cpu: SparcCore, wim: number): number {
  const n = cpu.nwindows;
  return ((wim << 1) | (wim >>> (n - 1))) >>> 0;
}

/** window_overflow: spill window T - 1, WIM rotated right by one. */
export function windowOverflow(cpu: SparcCore): WindowFault | undefined {
  checkTrapWindow(cpu, 'windowOverflow');
  const n = cpu.nwindows;
  const f = spillWindow(cpu, (cpu.cwp + n - 1) % n);
  if (f) return f;
  cpu.setWim(rotr(cpu, cpu.wim));
  return undefined;
}

/** window_underflow: fill window T + 2, WIM rotated left by one. */
export function windowUnderflow(cpu: SparcCore): WindowFault | undefined {
  checkTrapWindow(cpu, 'windowUnderflow');
  const n = cpu.nwindows;
  const f = fillWindow(cpu, (cpu.cwp + 2) % n);
  if (f) return f;
  cpu.setWim(rotl(cpu, cpu.wim));
  return undefined;
}

/** ST_FLUSH_WINDOWS: spill the valid windows above the user's, then WIM = {U + 1}. */
export function flushWindows(cpu: SparcCore): WindowFault | undefined {
  checkTrapWindow(cpu, 'flushWindows');
  const n = cpu.nwindows;
  const u = (cpu.cwp + 1) % n;
  for (let k = 1; k <= n - 2; k++) {
    const w = (u + k) % n;
    if ((cpu.wim >>> w) & 1) break;
    const f = spillWindow(cpu, w);
    if (f) return f;
  }
  cpu.setWim(1 << ((u + 1) % n));
  return undefined;
}

/** flushWindows, then the user's own window U too. */
export function flushAllUserWindows(cpu: SparcCore): WindowFault | undefined {
  const f = flushWindows(cpu);
  if (f) return f;
  return spillWindow(cpu, (cpu.cwp + 1) % cpu.nwindows);
}

/** Fills U from its %sp (T's %i6) and sets WIM = {U + 1}. */
export function restoreUserWindow(cpu: SparcCore): WindowFault | undefined {
  checkTrapWindow(cpu, 'restoreUserWindow');
  const n = cpu.nwindows;
  const u = (cpu.cwp + 1) % n;
  const f = fillWindow(cpu, u);
  if (f) return f;
  cpu.setWim(1 << ((u + 1) % n));
  return undefined;
}
