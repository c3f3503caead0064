/**
 * Memory access slow paths shared by both engines, plus the alternate address spaces.
 *
 * The engines inline the fast path: `e = RM[va >>> 12]`, and when `((e | va) & (size - 1)) ===
 * 0` (present and aligned; MAP_INVALID is odd) the physical address is `(va + e) | 0`. Anything
 * else lands here: alignment (mem_address_not_aligned), translation through the MMU (which may
 * walk the tables and install the map entry), faults (data_access_exception, or
 * data_access_error for addresses outside physical memory), and stores to pages holding
 * translated code (the translations are dropped). A slow path that traps sets `trapped`, enters
 * the trap for the instruction at (pc, npc) and returns 0; the engine stops the instruction.
 *
 * Alternate spaces (lda/sta... , supervisor only): 0x8/0x9 user/supervisor instruction,
 * 0xA/0xB user/supervisor data, 0x20 MMU bypass (physical), 0x03 SRMMU flush (store) and probe
 * (load), 0x04 SRMMU registers (0x000 control, 0x100 CTPR, 0x200 context, 0x300 SFSR, 0x400
 * SFAR). Other ASIs raise data_access_exception.
 */
import { ACCESS_EXEC, ACCESS_READ, ACCESS_WRITE, FT_ACCESS_BUS, MAP_INVALID, type Access } from './mmu.js';
import { SparcState } from './state.js';
import {
  TT_DATA_ACCESS_ERROR, TT_DATA_ACCESS_EXCEPTION, TT_INSTRUCTION_ACCESS_ERROR,
  TT_INSTRUCTION_ACCESS_EXCEPTION, TT_MEM_ADDRESS_NOT_ALIGNED,
} from './traps.js';

export const ASI_USER_INSN = 0x08;
export const ASI_SUPER_INSN = 0x09;
export const ASI_USER_DATA = 0x0a;
export const ASI_SUPER_DATA = 0x0b;
export const ASI_MMU_FLUSH_PROBE = 0x03;
export const ASI_MMU_REGS = 0x04;
export const ASI_MMU_BYPASS = 0x20;

export class SparcMemory extends SparcState {
  /** Second word of the last 64-bit slow-path load. */
  lo = 0;
  /** Called when a store reaches a physical page that holds translated code, and by FLUSH. */
  onCodeWrite: (pa: number) => void = () => {};

  /** Translation for a data access by mode `sup`; traps and returns -1 on failure. */
  private dataPa(va: number, access: Access, sup: boolean, pc: number, npc: number): number {
    const pa = this.mmu.translate(va, access, sup);
    if (pa < 0) this.trapAt(this.mmu.fault.ft === FT_ACCESS_BUS ? TT_DATA_ACCESS_ERROR : TT_DATA_ACCESS_EXCEPTION, pc, npc);
    return pa;
  }

  /**
   * Physical address of the instruction at pc (user or supervisor per S), or -1 after entering
   * instruction_access_exception / instruction_access_error for (pc, npc). Uses and refreshes
   * the instruction-fetch page (see SparcState.ifPage).
   */
  fetchPa(pc: number, npc: number): number {
    const vp = pc >>> 12;
    if (vp === this.ifPage) return (pc + this.ifDelta) | 0;
    const e = this.XM[vp]!;
    let pa: number;
    if (e !== MAP_INVALID) {
      pa = (pc + e) | 0;
    } else {
      pa = this.mmu.translate(pc, ACCESS_EXEC, this.s !== 0);
      if (pa < 0) {
        this.trapAt(this.mmu.fault.ft === FT_ACCESS_BUS ? TT_INSTRUCTION_ACCESS_ERROR : TT_INSTRUCTION_ACCESS_EXCEPTION, pc, npc);
        return -1;
      }
    }
    this.ifPage = vp;
    this.ifDelta = (pa - pc) | 0;
    return pa;
  }

  /** Raw load of `size` (1, 2, 4) bytes: unsigned byte/halfword, signed word. */
  loadSlow(va: number, size: number, pc: number, npc: number): number {
    if (va & (size - 1)) {
      this.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
      return 0;
    }
    const pa = this.dataPa(va, ACCESS_READ, this.s !== 0, pc, npc);
    if (pa < 0) return 0;
    return this.readPhys(pa, size);
  }

  /** 64-bit load (ldd, lddf): returns the first word, the second in `lo`. */
  load64Slow(va: number, pc: number, npc: number): number {
    if (va & 7) {
      this.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
      return 0;
    }
    const pa = this.dataPa(va, ACCESS_READ, this.s !== 0, pc, npc);
    if (pa < 0) return 0;
    this.lo = this.u32[(pa + 4) >>> 2]!;
    return this.u32[pa >>> 2]!;
  }

  storeSlow(va: number, size: number, v: number, pc: number, npc: number): void {
    if (va & (size - 1)) {
      this.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
      return;
    }
    const pa = this.dataPa(va, ACCESS_WRITE, this.s !== 0, pc, npc);
    if (pa < 0) return;
    this.writePhys(pa, size, v);
  }

  store64Slow(va: number, hi: number, lo: number, pc: number, npc: number): void {
    if (va & 7) {
      this.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
      return;
    }
    const pa = this.dataPa(va, ACCESS_WRITE, this.s !== 0, pc, npc);
    if (pa < 0) return;
    this.writePhys(pa, 4, hi);
    this.writePhys(pa + 4, 4, lo);
  }

  /**
   * Atomic load-store: ldstub (size 1, stores 0xff) and swap (size 4, stores v). Both need write
   * permission (an SRMMU atomic is checked as a store). Returns the old value.
   */
  atomicSlow(va: number, size: number, v: number, pc: number, npc: number): number {
    if (va & (size - 1)) {
      this.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
      return 0;
    }
    const pa = this.dataPa(va, ACCESS_WRITE, this.s !== 0, pc, npc);
    if (pa < 0) return 0;
    const old = this.readPhys(pa, size);
    this.writePhys(pa, size, size === 1 ? 0xff : v);
    return old;
  }

  readPhys(pa: number, size: number): number {
    if (size === 4) return this.u32[pa >>> 2]!;
    if (size === 1) return this.u8[pa ^ 3]!;
    return this.u16[(pa ^ 2) >>> 1]!;
  }

  /** Physical store; stores into pages holding translated code drop those translations. */
  writePhys(pa: number, size: number, v: number): void {
    if (size === 4) this.u32[pa >>> 2] = v;
    else if (size === 1) this.u8[pa ^ 3] = v;
    else this.u16[(pa ^ 2) >>> 1] = v;
    if (this.mmu.codePages[pa >>> 12]) this.onCodeWrite(pa);
  }

  // ---- alternate spaces ----

  /**
   * Load from alternate space (privilege and i = 0 already checked). Returns the first/only
   * word; for size 8 the second word is in `lo`.
   */
  loadAlt(asi: number, va: number, size: number, pc: number, npc: number): number {
    va >>>= 0;
    const align = size - 1;
    if (va & align) {
      this.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
      return 0;
    }
    let pa: number;
    switch (asi) {
      case ASI_USER_INSN: case ASI_SUPER_INSN:
        pa = this.mmu.translate(va, ACCESS_EXEC, asi === ASI_SUPER_INSN);
        if (pa < 0) this.trapAt(this.mmu.fault.ft === FT_ACCESS_BUS ? TT_DATA_ACCESS_ERROR : TT_DATA_ACCESS_EXCEPTION, pc, npc);
        break;
      case ASI_USER_DATA: case ASI_SUPER_DATA:
        pa = this.dataPa(va, ACCESS_READ, asi === ASI_SUPER_DATA, pc, npc);
        break;
      case ASI_MMU_BYPASS:
        pa = va + size <= this.mem.size ? va : -1;
        if (pa < 0) this.trapAt(TT_DATA_ACCESS_ERROR, pc, npc);
        break;
      case ASI_MMU_FLUSH_PROBE: {
        // Probe: the PTE for va (types 0..4 all walk to the entry that maps va).
        const v = this.mmu.probe(va & ~0xfff);
        this.lo = 0;
        return v | 0;
      }
      case ASI_MMU_REGS: {
        this.lo = 0;
        switch ((va >>> 8) & 0x1f) {
          case 0: return this.mmu.readControl() | 0;
          case 1: return this.mmu.ctpr | 0;
          case 2: return this.mmu.ctx;
          case 3: return this.mmu.readSfsr() | 0;
          case 4: return this.mmu.sfar | 0;
          default: return 0;
        }
      }
      default:
        this.trapAt(TT_DATA_ACCESS_EXCEPTION, pc, npc);
        return 0;
    }
    if (pa < 0) return 0;
    if (size === 8) {
      this.lo = this.u32[(pa + 4) >>> 2]!;
      return this.u32[pa >>> 2]!;
    }
    return this.readPhys(pa, size);
  }

  /** Store to alternate space; size 8 stores (v, lo). */
  storeAlt(asi: number, va: number, size: number, v: number, lo: number, pc: number, npc: number): void {
    va >>>= 0;
    if (va & (size - 1)) {
      this.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
      return;
    }
    let pa: number;
    switch (asi) {
      case ASI_USER_INSN: case ASI_SUPER_INSN: case ASI_USER_DATA: case ASI_SUPER_DATA:
        pa = this.dataPa(va, ACCESS_WRITE, asi === ASI_SUPER_DATA || asi === ASI_SUPER_INSN, pc, npc);
        break;
      case ASI_MMU_BYPASS:
        pa = va + size <= this.mem.size ? va : -1;
        if (pa < 0) this.trapAt(TT_DATA_ACCESS_ERROR, pc, npc);
        break;
      case ASI_MMU_FLUSH_PROBE:
        this.mmu.flush((va >>> 8) & 0xf, va & ~0xfff);
        return;
      case ASI_MMU_REGS:
        switch ((va >>> 8) & 0x1f) {
          case 0: this.mmu.setControl(v); break;
          case 1: this.mmu.setCtpr(v); break;
          case 2: this.mmu.setContext(v); break;
          case 3: this.mmu.sfsr = 0; break;
          case 4: this.mmu.sfar = v >>> 0; break;
          default: break;
        }
        return;
      default:
        this.trapAt(TT_DATA_ACCESS_EXCEPTION, pc, npc);
        return;
    }
    if (pa < 0) return;
    if (size === 8) {
      this.writePhys(pa, 4, v);
      this.writePhys(pa + 4, 4, lo);
    } else {
      this.writePhys(pa, size, v);
    }
  }

  /** Atomic load-store in an alternate space (ldstuba, swapa). */
  atomicAlt(asi: number, va: number, size: number, v: number, pc: number, npc: number): number {
    const old = this.loadAlt(asi, va, size, pc, npc);
    if (this.trapped) return 0;
    this.storeAlt(asi, va, size, size === 1 ? 0xff : v, 0, pc, npc);
    return old;
  }

  // ---- kernel access to user memory ----

  /**
   * Physical address of user virtual address va for a read or write with user permissions, or -1
   * (no trap is taken; SFSR/SFAR are left alone). For the kernel's copyin/copyout.
   */
  userPa(va: number, write: boolean): number {
    return this.mmu.translate(va >>> 0, write ? ACCESS_WRITE : ACCESS_READ, false, true) < 0
      ? -1
      : this.mmu.translate(va >>> 0, write ? ACCESS_WRITE : ACCESS_READ, false, false);
  }

  /** Copies n bytes from user space; undefined if any byte is not readable by the user. */
  copyFromUser(va: number, n: number): Uint8Array | undefined {
    const out = new Uint8Array(n);
    let i = 0;
    while (i < n) {
      const a = (va + i) >>> 0;
      const pa = this.userPa(a, false);
      if (pa < 0) return undefined;
      const chunk = Math.min(n - i, 4096 - (a & 4095));
      for (let k = 0; k < chunk; k++) out[i + k] = this.u8[(pa + k) ^ 3]!;
      i += chunk;
    }
    return out;
  }

  /** Copies bytes to user space; false (with nothing guaranteed written) on a fault. */
  copyToUser(va: number, bytes: Uint8Array): boolean {
    let i = 0;
    while (i < bytes.length) {
      const a = (va + i) >>> 0;
      const pa = this.userPa(a, true);
      if (pa < 0) return false;
      const chunk = Math.min(bytes.length - i, 4096 - (a & 4095));
      for (let k = 0; k < chunk; k++) this.u8[(pa + k) ^ 3] = bytes[i + k]!;
      if (this.mmu.codePages[pa >>> 12]) this.onCodeWrite(pa);
      i += chunk;
    }
    return true;
  }
}
