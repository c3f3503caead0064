/**
 * SPARC v8 trap types (the tt field of TBR) and their priorities, manual section 7.4, Table 7-1.
 * A lower priority number wins when one instruction raises several exceptions; an engine checks
 * conditions in priority order, so the first trap it raises is the architectural one.
 */

export const TT_RESET = 0x00;
export const TT_INSTRUCTION_ACCESS_EXCEPTION = 0x01;
export const TT_ILLEGAL_INSTRUCTION = 0x02;
export const TT_PRIVILEGED_INSTRUCTION = 0x03;
export const TT_FP_DISABLED = 0x04;
export const TT_WIN_OVF = 0x05;
export const TT_WIN_UNF = 0x06;
export const TT_MEM_ADDRESS_NOT_ALIGNED = 0x07;
export const TT_FP_EXCEPTION = 0x08;
export const TT_DATA_ACCESS_EXCEPTION = 0x09;
export const TT_TAG_OVERFLOW = 0x0a;
export const TT_WATCHPOINT_DETECTED = 0x0b;
/** interrupt_level_n is TT_INTERRUPT_LEVEL + n, n = 1..15. */
export const TT_INTERRUPT_LEVEL = 0x10;
export const TT_R_REGISTER_ACCESS_ERROR = 0x20;
export const TT_INSTRUCTION_ACCESS_ERROR = 0x21;
export const TT_CP_DISABLED = 0x24;
export const TT_UNIMPLEMENTED_FLUSH = 0x25;
export const TT_CP_EXCEPTION = 0x28;
export const TT_DATA_ACCESS_ERROR = 0x29;
export const TT_DIVISION_BY_ZERO = 0x2a;
export const TT_DATA_STORE_ERROR = 0x2b;
export const TT_DATA_ACCESS_MMU_MISS = 0x2c;
export const TT_INSTRUCTION_ACCESS_MMU_MISS = 0x3c;
/** trap_instruction (Ticc) is TT_TRAP_INSTRUCTION + ((rs1 + rs2|imm7) & 0x7f). */
export const TT_TRAP_INSTRUCTION = 0x80;

/** FSR.ftt values (manual 4.4, Table 4-4). */
export const FTT_NONE = 0;
export const FTT_IEEE_754_EXCEPTION = 1;
export const FTT_UNFINISHED_FPOP = 2;
export const FTT_UNIMPLEMENTED_FPOP = 3;
export const FTT_SEQUENCE_ERROR = 4;
export const FTT_HARDWARE_ERROR = 5;
export const FTT_INVALID_FP_REGISTER = 6;

const NAMES: Record<number, string> = {
  [TT_RESET]: 'reset',
  [TT_INSTRUCTION_ACCESS_EXCEPTION]: 'instruction_access_exception',
  [TT_ILLEGAL_INSTRUCTION]: 'illegal_instruction',
  [TT_PRIVILEGED_INSTRUCTION]: 'privileged_instruction',
  [TT_FP_DISABLED]: 'fp_disabled',
  [TT_WIN_OVF]: 'window_overflow',
  [TT_WIN_UNF]: 'window_underflow',
  [TT_MEM_ADDRESS_NOT_ALIGNED]: 'mem_address_not_aligned',
  [TT_FP_EXCEPTION]: 'fp_exception',
  [TT_DATA_ACCESS_EXCEPTION]: 'data_access_exception',
  [TT_TAG_OVERFLOW]: 'tag_overflow',
  [TT_WATCHPOINT_DETECTED]: 'watchpoint_detected',
  [TT_R_REGISTER_ACCESS_ERROR]: 'r_register_access_error',
  [TT_INSTRUCTION_ACCESS_ERROR]: 'instruction_access_error',
  [TT_CP_DISABLED]: 'cp_disabled',
  [TT_UNIMPLEMENTED_FLUSH]: 'unimplemented_FLUSH',
  [TT_CP_EXCEPTION]: 'cp_exception',
  [TT_DATA_ACCESS_ERROR]: 'data_access_error',
  [TT_DIVISION_BY_ZERO]: 'division_by_zero',
  [TT_DATA_STORE_ERROR]: 'data_store_error',
  [TT_DATA_ACCESS_MMU_MISS]: 'data_access_MMU_miss',
  [TT_INSTRUCTION_ACCESS_MMU_MISS]: 'instruction_access_MMU_miss',
};

/** The manual's name of a trap type, e.g. 'window_overflow', 'interrupt_level_10', 'trap_instruction_0x10'. */
export function trapName(tt: number): string {
  if (tt >= TT_TRAP_INSTRUCTION) return `trap_instruction_0x${(tt - TT_TRAP_INSTRUCTION).toString(16)}`;
  if (tt > TT_INTERRUPT_LEVEL && tt < TT_INTERRUPT_LEVEL + 16) return `interrupt_level_${tt - TT_INTERRUPT_LEVEL}`;
  return NAMES[tt] ?? `tt_0x${tt.toString(16)}`;
}
