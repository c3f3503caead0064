/**
 * copyin, copyout, copyinstr, fuword, suword (4.4BSD machine-independent in effect): the kernel's
 * access to a process's memory. Each page is found through the address space exactly as the CPU
 * would find it, faulting pages in (demand-zero, copy-on-write, stack growth) through vm_fault;
 * an address the process may not access gives EFAULT. These are kernel memory references: they
 * are not ground-truth events.
 */
import { EFAULT, ENAMETOOLONG } from '../errno.js';
import { VM_PROT_READ, VM_PROT_WRITE } from '../machdep.js';
import { PAGE_SIZE } from '../param.js';
import { KERN_SUCCESS, vm_fault } from './vm_fault.js';
import type { VmSpace } from './vm_map.js';

const out = { pa: 0 };

/** Physical address of user address va for a read or write, or -1 (EFAULT). */
export function uvaToPa(vs: VmSpace, va: number, write: boolean): number {
  va = va >>> 0;
  if (vm_fault(vs, va, write ? VM_PROT_WRITE : VM_PROT_READ, null, out) !== KERN_SUCCESS) return -1;
  return out.pa + (va % PAGE_SIZE);
}

/** Copies len bytes from user address uaddr; returns the bytes or EFAULT. */
export function copyin(vs: VmSpace, uaddr: number, len: number): Uint8Array | number {
  const buf = new Uint8Array(len);
  return copyinto(vs, uaddr, buf) === 0 ? buf : EFAULT;
}

/** Copies buf.length bytes from user address uaddr into buf; 0 or EFAULT. */
export function copyinto(vs: VmSpace, uaddr: number, buf: Uint8Array): number {
  const mem = vs.vm.pages.mem;
  let done = 0;
  let va = uaddr >>> 0;
  while (done < buf.length) {
    const pa = uvaToPa(vs, va, false);
    if (pa < 0) return EFAULT;
    const n = Math.min(buf.length - done, PAGE_SIZE - (va % PAGE_SIZE));
    if (mem.bx === 0) buf.set(mem.u8.subarray(pa, pa + n), done);
    else for (let i = 0; i < n; i++) buf[done + i] = mem.u8[(pa + i) ^ 3]!;
    done += n;
    va = (va + n) >>> 0;
    if (va === 0 && done < buf.length) return EFAULT; // wrapped around the address space
  }
  return 0;
}

/** Copies bytes to user address uaddr; 0 or EFAULT. */
export function copyout(vs: VmSpace, bytes: Uint8Array, uaddr: number): number {
  const mem = vs.vm.pages.mem;
  let done = 0;
  let va = uaddr >>> 0;
  while (done < bytes.length) {
    const pa = uvaToPa(vs, va, true);
    if (pa < 0) return EFAULT;
    const n = Math.min(bytes.length - done, PAGE_SIZE - (va % PAGE_SIZE));
    mem.writeBytes(pa, bytes.subarray(done, done + n));
    done += n;
    va = (va + n) >>> 0;
    if (va === 0 && done < bytes.length) return EFAULT;
  }
  return 0;
}

/** Zero-fills len bytes at user address uaddr; 0 or EFAULT. */
export function uzero(vs: VmSpace, uaddr: number, len: number): number {
  const mem = vs.vm.pages.mem;
  let done = 0;
  let va = uaddr >>> 0;
  while (done < len) {
    const pa = uvaToPa(vs, va, true);
    if (pa < 0) return EFAULT;
    const n = Math.min(len - done, PAGE_SIZE - (va % PAGE_SIZE));
    mem.zero(pa, n);
    done += n;
    va = (va + n) >>> 0;
  }
  return 0;
}

/**
 * Copies a NUL-terminated string of at most maxlen bytes (terminator included) from uaddr.
 * Returns the string (latin1: bytes map one to one) or EFAULT / ENAMETOOLONG.
 */
export function copyinstr(vs: VmSpace, uaddr: number, maxlen: number): string | number {
  const mem = vs.vm.pages.mem;
  const bx = mem.bx;
  let va = uaddr >>> 0;
  const parts: string[] = [];
  let total = 0;
  for (;;) {
    const pa = uvaToPa(vs, va, false);
    if (pa < 0) return EFAULT;
    const n = PAGE_SIZE - (va % PAGE_SIZE);
    let i = 0;
    for (; i < n; i++) {
      if (mem.u8[(pa + i) ^ bx] === 0) break;
      if (total + i + 1 >= maxlen) return ENAMETOOLONG;
    }
    let s = '';
    for (let j = 0; j < i; j++) s += String.fromCharCode(mem.u8[(pa + j) ^ bx]!);
    parts.push(s);
    total += i;
    if (i < n) return parts.join('');
    va = (va + n) >>> 0;
  }
}

/** Fetches the aligned user word at va; returns the value, or undefined for EFAULT. */
export function fuword(vs: VmSpace, va: number): number | undefined {
  if (va & 3) return undefined;
  const pa = uvaToPa(vs, va, false);
  if (pa < 0) return undefined;
  return vs.vm.pages.mem.read32(pa);
}

/** Stores the aligned user word at va; 0 or EFAULT. */
export function suword(vs: VmSpace, va: number, v: number): number {
  if (va & 3) return EFAULT;
  const pa = uvaToPa(vs, va, true);
  if (pa < 0) return EFAULT;
  vs.vm.pages.mem.write32(pa, v);
  return 0;
}
