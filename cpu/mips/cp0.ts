/**
 * CP0 of the R2000: register numbers, Status and Cause fields, exception codes and vectors, and the
 * TLB entry layout (Kane & Heinrich chapter 6; R2000 only: no Wired, no page pairs, 6-bit ASIDs).
 */

// CP0 register numbers.
export const C0_INDEX = 0;
export const C0_RANDOM = 1;
export const C0_ENTRYLO = 2;
export const C0_CONTEXT = 4;
export const C0_BADVADDR = 8;
export const C0_ENTRYHI = 10;
export const C0_STATUS = 12;
export const C0_CAUSE = 13;
export const C0_EPC = 14;
export const C0_PRID = 15;

/** PRId: implementation 1 (R2000), revision 2.1 (the R2000A of the DECstation 3100). */
export const PRID_R2000A = 0x00000121;

// Status register (Kane & Heinrich Figure 6-4).
export const SR_IEC = 1 << 0; // interrupt enable, current
export const SR_KUC = 1 << 1; // user mode, current
export const SR_IEP = 1 << 2;
export const SR_KUP = 1 << 3;
export const SR_IEO = 1 << 4;
export const SR_KUO = 1 << 5;
export const SR_KUIE_MASK = 0x3f;
export const SR_IM_MASK = 0xff00; // interrupt mask, one bit per Cause.IP bit
export const SR_ISC = 1 << 16; // isolate cache
export const SR_SWC = 1 << 17; // swap caches
export const SR_PZ = 1 << 18;
export const SR_CM = 1 << 19;
export const SR_PE = 1 << 20;
export const SR_TS = 1 << 21; // TLB shutdown
export const SR_BEV = 1 << 22; // bootstrap exception vectors
export const SR_CU0 = 1 << 28;
export const SR_CU1 = 1 << 29;
export const SR_CU2 = 1 << 30;
export const SR_CU3 = 1 << 31;
/** Status bits software can write (TS and the read-only bits excluded). */
export const SR_WRITABLE = (0xf0000000 | SR_BEV | SR_PE | SR_CM | SR_PZ | SR_SWC | SR_ISC | SR_IM_MASK | SR_KUIE_MASK) >>> 0;

// Cause register (Kane & Heinrich Figure 6-5).
export const CAUSE_BD = 0x80000000 | 0; // exception taken in a branch delay slot
export const CAUSE_CE_SHIFT = 28; // coprocessor number of a CpU
export const CAUSE_CE_MASK = 3 << 28;
export const CAUSE_IP_MASK = 0xff00; // pending interrupts: IP0-1 software, IP2-7 hardware lines 0-5
export const CAUSE_SW_MASK = 0x0300; // the software-writable IP bits
export const CAUSE_EXC_SHIFT = 2;
export const CAUSE_EXC_MASK = 0x7c;

// Exception codes (Kane & Heinrich Table 6-5).
export const EXC_INT = 0;
export const EXC_MOD = 1;
export const EXC_TLBL = 2;
export const EXC_TLBS = 3;
export const EXC_ADEL = 4;
export const EXC_ADES = 5;
export const EXC_IBE = 6;
export const EXC_DBE = 7;
export const EXC_SYS = 8;
export const EXC_BP = 9;
export const EXC_RI = 10;
export const EXC_CPU = 11;
export const EXC_OV = 12;

export const EXC_NAMES: readonly string[] = ['Int', 'Mod', 'TLBL', 'TLBS', 'AdEL', 'AdES', 'IBE', 'DBE', 'Sys', 'Bp', 'RI', 'CpU', 'Ov'];

// Exception vectors (Kane & Heinrich Table 6-6).
export const VEC_UTLB = 0x80000000; // TLB refill of a kuseg address
export const VEC_GENERAL = 0x80000080; // everything else
export const VEC_UTLB_BEV = 0xbfc00100;
export const VEC_GENERAL_BEV = 0xbfc00180;
export const VEC_RESET = 0xbfc00000;

// Segments.
export const KSEG0 = 0x80000000;
export const KSEG1 = 0xa0000000;
export const KSEG2 = 0xc0000000;

// TLB: 64 entries, each one 4 KiB page (Kane & Heinrich Figure 6-2).
export const TLB_ENTRIES = 64;
/** Random counts down from 63 to TLB_WIRED; entries below are never chosen by tlbwr. */
export const TLB_WIRED = 8;
export const ENTRYHI_VPN_MASK = 0xfffff000 | 0;
export const ENTRYHI_ASID_MASK = 0xfc0;
export const ENTRYHI_ASID_SHIFT = 6;
export const ENTRYLO_PFN_MASK = 0xfffff000 | 0;
export const ENTRYLO_N = 1 << 11; // non-cacheable
export const ENTRYLO_D = 1 << 10; // dirty = writable
export const ENTRYLO_V = 1 << 9; // valid
export const ENTRYLO_G = 1 << 8; // global: ignore ASID
export const ENTRYLO_MASK = 0xffffff00 | 0;
export const INDEX_P = 0x80000000 | 0; // probe failure
export const INDEX_MASK = 0x3f00; // Index field, bits 8..13
export const CONTEXT_PTEBASE_MASK = 0xffe00000 | 0;
export const CONTEXT_BADVPN_MASK = 0x001ffffc;

/** Hardware interrupt line of the R2010 FPA (hardware interrupt 5 = Cause.IP7, as on the DECstation 3100). */
export const FPU_INT_LINE = 5;
