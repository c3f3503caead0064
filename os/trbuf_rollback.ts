/**
 * Recognising an interrupted instrumentation sequence from the code alone (mazieres-smith-1994
 * 3.2.2: the kernel "checks whether the previous instruction uses %g7"), the rule the kernel
 * applies on every trap taken by a traced process. It reads the instructions through the CPU
 * packages' decoders and queries (the registers an instruction names), as the paper's kernel reads
 * the code; it knows nothing of the instrumenter.
 *
 * Facts the instrumenter guarantees (tracer/sequences.ts, DESIGN.md section 4):
 *   - no original instruction names the pointer or the temporary register (MIPS k0/k1, SPARC
 *     %g6/%g7): the guest ABI reserves them;
 *   - every instruction of a sequence names the pointer or the temporary, and the last one — and
 *     only that one — moves the pointer (`addiu k0, k0, n` / `add %g6, n, %g6`);
 *   - sequences are straight-line and never in a delay slot; control only ever enters one at
 *     its first instruction;
 *   - the only transfers that name the temporary jump or call through it right after a
 *     translation lookup (a sequence that ends with an instruction naming neither register).
 * Hence, for the resume address pc: scan back while the previous instruction names the pointer
 * or the temporary, is not a pointer move and is no transfer; the first instruction reached is
 * the sequence start. When the instruction before pc is original code, a pointer move (an
 * earlier sequence is complete), a transfer (pc is its delay slot) or unreadable (pc was reached
 * by a transfer), pc is not inside a sequence. The rule is idempotent: applied to its own result
 * it returns it unchanged.
 */
import { decode as decodeMips } from '../cpu/mips/decode.js';
import { controlKind, isaClass, regsDefined as mipsDefs, regsUsed as mipsUses } from '../cpu/mips/query.js';
import { decode as decodeSparc } from '../cpu/sparc/decode.js';
import { ctiClass, isSparcV8Word, regsDefined as sparcDefs, regsUsed as sparcUses } from '../cpu/sparc/query.js';
import type { Isa } from '../format/target.js';

/** The pointer register (MIPS k0, SPARC %g6) and the instrumentation temporary (k1, %g7). */
const MIPS_PTR = 26;
const MIPS_TMP = 27;
const SPARC_PTR = 6;
const SPARC_TMP = 7;

const names = (regs: readonly number[], ptr: number, tmp: number): boolean => regs.includes(ptr) || regs.includes(tmp);

/**
 * What the rule needs to know of one user-mode instruction word: whether it names the pointer or
 * the temporary, whether it moves the pointer (adds an immediate to it, in place), and whether it
 * transfers control.
 */
function classify(isa: Isa, word: number): { sequence: boolean; move: boolean; transfer: boolean } {
  if (isa === 'mips') {
    const i = decodeMips(word);
    const s = i.spec;
    if (!s || isaClass(word) !== 'user') return { sequence: false, move: false, transfer: false };
    return {
      sequence: names(mipsUses(i), MIPS_PTR, MIPS_TMP) || names(mipsDefs(i), MIPS_PTR, MIPS_TMP),
      move: (s.op === 'ADDIU' || s.op === 'ADDI') && i.rt === MIPS_PTR && i.rs === MIPS_PTR,
      transfer: controlKind(i) !== 'none',
    };
  }
  const d = decodeSparc(word);
  const s = d.spec;
  if (!s || !isSparcV8Word(word, { user: true })) return { sequence: false, move: false, transfer: false };
  return {
    sequence: names(sparcUses(d), SPARC_PTR, SPARC_TMP) || names(sparcDefs(d), SPARC_PTR, SPARC_TMP),
    move: (s.sem === 'add' || s.sem === 'addcc') && d.i && d.rd === SPARC_PTR && d.rs1 === SPARC_PTR,
    transfer: ctiClass(d) !== 'none',
  };
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
export function sequenceStart(isa: Isa, pc: number, fetch: (va: number) => number | undefined): Rollback {
  let start = pc >>> 0;
  for (;;) {
    const prev = fetch((start - 4) >>> 0);
    if (prev === undefined) break;
    const c = classify(isa, prev);
    if (!c.sequence || c.move || c.transfer) break;
    start = (start - 4) >>> 0;
  }
  return { pc: start, undone: (pc - start) >>> 2 };
}
