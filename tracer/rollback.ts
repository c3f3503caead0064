/**
 * Recognising an interrupted instrumentation sequence from the code alone (mazieres-smith-1994
 * 3.2.2), the rule the kernel applies on every trap taken by a traced process.
 *
 * Facts the instrumenter guarantees (tracer/sequences.ts, DESIGN.md section 4):
 *   - no original instruction names the pointer or the temporary register (MIPS k0/k1, SPARC
 *     %g6/%g7): the guest ABI reserves them;
 *   - every instruction of a sequence names the pointer or the temporary, and the last one — and
 *     only that one — moves the pointer (`addiu k0, k0, n` / `add %g6, n, %g6`);
 *   - sequences are straight-line and never in a delay slot; control only ever enters one at
 *     its first instruction;
 *   - the only transfers that name the temporary are indirect jumps and calls through it right
 *     after a translation lookup (tracer/sequences.ts lookupSeq), which ends with an instruction
 *     naming neither register.
 * Hence, for the resume address pc: scan back while the previous instruction names the pointer
 * or the temporary, is not a pointer move and is no transfer; the first instruction reached is
 * the sequence start. When the instruction before pc is original code, a pointer move (an
 * earlier sequence is complete), a transfer (pc is its delay slot) or unreadable (pc was reached
 * by a transfer), pc is not inside a sequence. The rule is idempotent: applied to its own result
 * it returns it unchanged.
 */
import type { IsaName } from './isa.js';
import { decodeMips } from './isa_mips.js';
import { decodeSparc } from './isa_sparc.js';

const REGS: Record<IsaName, { ptr: number; tmp: number }> = { mips: { ptr: 26, tmp: 27 }, sparc: { ptr: 6, tmp: 7 } };

/** True when `word` names the trace pointer or the temporary register. */
export function isSequenceInsn(isa: IsaName, word: number): boolean {
  const d = isa === 'mips' ? decodeMips(word, 0) : decodeSparc(word, 0);
  if (!d.valid) return false;
  const { ptr, tmp } = REGS[isa];
  return d.uses.includes(ptr) || d.uses.includes(tmp) || d.defs.includes(ptr) || d.defs.includes(tmp);
}

/** True when `word` is a control transfer (it ends any scan back: what follows is its delay slot). */
function isTransfer(isa: IsaName, word: number): boolean {
  const d = isa === 'mips' ? decodeMips(word, 0) : decodeSparc(word, 0);
  return d.valid && d.cti !== 'none';
}

/** True when `word` moves the pointer: the last instruction of every sequence. */
export function isPointerMove(isa: IsaName, word: number): boolean {
  const d = isa === 'mips' ? decodeMips(word, 0) : decodeSparc(word, 0);
  const c = d.compute;
  const { ptr } = REGS[isa];
  return c !== undefined && c.op === 'add' && c.d.length === 1 && c.d[0] === ptr && c.a !== undefined && 'r' in c.a && c.a.r === ptr
    && c.b !== undefined && 'k' in c.b;
}

export interface Rollback {
  /** Where execution must resume: the sequence start, or pc itself. */
  pc: number;
  /** Instructions of the sequence that had completed (pc - start) / 4. */
  undone: number;
}

/**
 * The resume address for a trap taken with user PC `pc`. `fetch` returns the instruction word at
 * a user address, or undefined when that page is not readable (the scan never crosses it).
 */
export function sequenceStart(isa: IsaName, pc: number, fetch: (va: number) => number | undefined): Rollback {
  let start = pc >>> 0;
  for (;;) {
    const prev = fetch((start - 4) >>> 0);
    if (prev === undefined) break;
    if (!isSequenceInsn(isa, prev) || isPointerMove(isa, prev) || isTransfer(isa, prev)) break;
    start = (start - 4) >>> 0;
  }
  return { pc: start, undone: (pc - start) >>> 2 };
}
