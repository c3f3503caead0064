/**
 * break(2) (4.4BSD vm_mmap.c obreak): moves the end of the data segment. The heap is a zero-fill
 * entry from the page after bss up to round_page(break); growth commits memory, and stops at the
 * data-size limit, at the next mapping (the stack zone, the trace-buffer range): ENOMEM.
 */
import { EINVAL, ENOMEM } from '../errno.js';
import type { Kernel } from '../kernel.js';
import { VM_PROT_ALL } from '../machdep.js';
import { MAXDSIZ, round_page } from '../param.js';
import type { Proc } from '../proc.js';
import { VM_INHERIT_COPY, VmMapEntry } from './vm_map.js';

export function sys_break(_k: Kernel, p: Proc, a: Int32Array): number {
  const vs = p.p_vmspace!;
  const nbrk = a[0]! >>> 0;
  if (nbrk < vs.brkBase) return EINVAL;
  if (nbrk - vs.daddr > MAXDSIZ) return ENOMEM;
  const heapStart = round_page(vs.brkBase);
  const newEnd = round_page(nbrk);
  if (newEnd > 0xffffffff) return ENOMEM;
  if (newEnd <= heapStart) {
    if (vs.heap) vs.remove(vs.heap);
  } else if (!vs.heap) {
    const e = new VmMapEntry(heapStart, newEnd, VM_PROT_ALL, VM_INHERIT_COPY, 'heap', null, 0, 0, false);
    if (!vs.insert(e)) return ENOMEM;
    vs.heap = e;
  } else if (!vs.resizeEnd(vs.heap, newEnd)) {
    return ENOMEM;
  }
  vs.brk = nbrk;

  return 0;
}
