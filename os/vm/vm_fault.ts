/**
 * vm_fault (4.4BSD vm_fault.c): resolves a translation or protection fault of a user address.
 *
 *   - a private page that is shared after fork and written: copy-on-write;
 *   - a page of the backing object: mapped read-only in a private entry (copied on the first
 *     write), or as is in a shared entry (device memory);
 *   - a page nobody has touched: a zero-filled private page (demand-zero);
 *   - an address just below the stack: the stack grows to cover it, within the stack limit.
 *
 * The fault path never sleeps and never fails for lack of memory (everything was committed when
 * the mapping was made); the tracing work's overflow handling runs before it (os/trap.ts).
 */
import { VM_PROT_EXECUTE, VM_PROT_READ, VM_PROT_WRITE } from '../machdep.js';
import { PAGE_SIZE, PGSHIFT } from '../param.js';
import type { VmSpace, VmMapEntry } from './vm_map.js';

export const KERN_SUCCESS = 0;
export const KERN_INVALID_ADDRESS = 1;
export const KERN_PROTECTION_FAILURE = 2;
export const KERN_RESOURCE_SHORTAGE = 6;

/** Counters of the fault path, kept by the caller's process. */
export interface FaultCounters {
  zeroFill: number;
  cowCopy: number;
  pageIn: number;
}

/**
 * Finds the entry for va, growing the stack when va lies in its growth zone. Returns undefined
 * for an address no entry covers.
 */
export function vm_map_lookup_grow(vs: VmSpace, va: number): VmMapEntry | undefined {
  const e = vs.lookup(va);
  if (e) return e;
  const st = vs.stack;
  if (st && va < st.start && va >= vs.stackLimit) {
    const newStart = (va - (va % PAGE_SIZE)) >>> 0;
    if (vs.growDown(st, newStart)) return st;
  }
  return undefined;
}

/**
 * Resolves a fault at va for an access of type ftype (VM_PROT_READ / WRITE / EXECUTE) and maps
 * the page in the pmap. Returns a KERN_* code; `pa` receives the frame on success.
 */
export function vm_fault(vs: VmSpace, va: number, ftype: number, cnt: FaultCounters | null, out?: { pa: number }): number {
  va = va >>> 0;
  const e = vm_map_lookup_grow(vs, va);
  if (!e) return KERN_INVALID_ADDRESS;
  const need = ftype === VM_PROT_EXECUTE ? VM_PROT_EXECUTE | VM_PROT_READ : ftype;
  if ((e.prot & need) !== need) return KERN_PROTECTION_FAILURE;
  const vm = vs.vm;
  const vpn = va >>> PGSHIFT;
  const pageVa = (vpn << PGSHIFT) >>> 0;
  const write = ftype === VM_PROT_WRITE;
  const rel = (pageVa - e.start) / PAGE_SIZE;
  let pa: number;
  let prot = e.prot;

  if (e.shared) {
    if (!e.object || rel >= e.objPages) return KERN_INVALID_ADDRESS;
    pa = e.object.getPage(e.objOffset + rel);
  } else {
    const anon = e.anons.get(vpn);
    if (anon) {
      if (anon.ref > 1) {
        if (write) {
          const npa = vm.pages.alloc();
          vm.pages.copy(npa, anon.pa);
          anon.ref--;
          const a = vs.newAnonNoDrop(e, vpn, npa);
          pa = a.pa;
          if (cnt) cnt.cowCopy++;
        } else {
          pa = anon.pa;
          prot &= ~VM_PROT_WRITE;
        }
      } else {
        pa = anon.pa;
      }
    } else if (e.object && rel < e.objPages) {
      const before = e.object.pageins;
      const opa = e.object.getPage(e.objOffset + rel);
      if (cnt && e.object.pageins !== before) cnt.pageIn++;
      if (write) {
        const npa = vm.pages.alloc();
        vm.pages.copy(npa, opa);
        pa = vs.newAnonNoDrop(e, vpn, npa).pa;
        if (cnt) cnt.cowCopy++;
      } else {
        pa = opa;
        prot &= ~VM_PROT_WRITE; // private: the first write copies
      }
    } else {
      pa = vm.pages.allocZeroed();
      vs.newAnonNoDrop(e, vpn, pa);
      if (cnt) cnt.zeroFill++;
    }
  }
  vm.md.pmap_enter(vs.pmap, pageVa, pa, prot);
  if (out) out.pa = pa;
  return KERN_SUCCESS;
}
