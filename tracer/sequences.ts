/**
 * Instrumentation sequences (DESIGN.md sections 3-4, mazieres-smith-1994 2.3.3 and 3.2.2).
 *
 * Every sequence is straight-line code that reads and writes only the trace-buffer pointer PTR
 * (MIPS k0, SPARC %g6), the temporary TMP (k1, %g7) and the recorded register; it never touches
 * the condition codes; it stores its bytes at PTR + 0.. and moves PTR last, with one
 * `addiu k0, k0, n` / `add %g6, n, %g6`. Re-executing a sequence from its first instruction
 * therefore rewrites the same bytes and moves the pointer once, which is what the kernel's
 * rollback relies on (os/trbuf_rollback.ts).
 *
 * Trace encoding: a witness is one byte, or two bytes high byte first when the function has more
 * than 256 witnessed edges; a recorded register value is 1, 2 or 4 bytes (as many as its range
 * needs, tracer/cut.ts) in the target's byte order (MIPS little-endian: low byte first;
 * big-endian MIPS and SPARC: high byte first).
 */
import { XLAT_BASE } from '../format/trbuf.js';
import type { Isa } from './isa.js';
import { K0, K1, mipsEnc } from './isa_mips.js';
import { G6, G7, sparcEnc } from './isa_sparc.js';

/**
 * Instructions of a witness sequence of `bytes` bytes. A zero byte is stored from the zero
 * register directly (the placement gives value 0 to the most frequent witnessed edge).
 */
export function witnessSeq(isa: Isa, value: number, bytes: 1 | 2): number[] {
  const parts = bytes === 1 ? [value & 0xff] : [(value >>> 8) & 0xff, value & 0xff];
  const out: number[] = [];
  if (isa.name === 'mips') {
    parts.forEach((v, i) => out.push(...(v === 0 ? [mipsEnc.sb(0, i, K0)] : [mipsEnc.ori(K1, 0, v), mipsEnc.sb(K1, i, K0)])));
    out.push(mipsEnc.addiu(K0, K0, bytes));
  } else {
    parts.forEach((v, i) => out.push(...(v === 0 ? [sparcEnc.stb(0, G6, i)] : [sparcEnc.orImm(G7, 0, v), sparcEnc.stb(G7, G6, i)])));
    out.push(sparcEnc.addImm(G6, G6, bytes));
  }
  return out;
}

/**
 * Instructions recording register `reg` in `width` bytes (1, 2 or 4; the low-order bytes, in the
 * target's byte order; a negative width records the same bytes of a sign-extended value).
 */
export function valueSeq(isa: Isa, reg: number, width = 4): number[] {
  if (reg === isa.PTR || reg === isa.TMP || reg === 0) throw new Error(`cannot record register ${isa.regName(reg)}`);
  const w = Math.abs(width);
  if (isa.name === 'mips') {
    if (w === 1) return [mipsEnc.sb(reg, 0, K0), mipsEnc.addiu(K0, K0, 1)];
    if (w === 2) {
      // Low byte at the lower address on little-endian, at the higher one on big-endian.
      const lo = isa.bigEndian ? 1 : 0;
      return [mipsEnc.sb(reg, lo, K0), mipsEnc.srl(K1, reg, 8), mipsEnc.sb(K1, 1 - lo, K0), mipsEnc.addiu(K0, K0, 2)];
    }
    return [...mipsWordPair(isa, reg), mipsEnc.addiu(K0, K0, 4)];
  }
  // SPARC has no unaligned stores: byte stores, most significant first.
  if (w === 1) return [sparcEnc.stb(reg, G6, 0), sparcEnc.addImm(G6, G6, 1)];
  if (w === 2) return [sparcEnc.srlImm(G7, reg, 8), sparcEnc.stb(G7, G6, 0), sparcEnc.stb(reg, G6, 1), sparcEnc.addImm(G6, G6, 2)];
  return [
    sparcEnc.srlImm(G7, reg, 24), sparcEnc.stb(G7, G6, 0),
    sparcEnc.srlImm(G7, reg, 16), sparcEnc.stb(G7, G6, 1),
    sparcEnc.srlImm(G7, reg, 8), sparcEnc.stb(G7, G6, 2),
    sparcEnc.stb(reg, G6, 3),
    sparcEnc.addImm(G6, G6, 4),
  ];
}

/**
 * MIPS: the unaligned-store pair (Kane & Heinrich, swl/swr) putting reg's word at k0 .. k0+3 in
 * the machine's byte order.
 */
function mipsWordPair(isa: Isa, reg: number): number[] {
  return isa.bigEndian ? [mipsEnc.swl(reg, 0, K0), mipsEnc.swr(reg, 3, K0)] : [mipsEnc.swl(reg, 3, K0), mipsEnc.swr(reg, 0, K0)];
}

/**
 * Instructions recording the address of a register + register reference (SPARC `[rs1 + rs2]`) as
 * one 4-byte value, most significant byte first: the sum into the temporary, then its bytes by
 * destructive shifts. Placed right before the reference (or before the transfer whose delay slot
 * holds it), so a load into rs1 or rs2 has not yet replaced them. Re-executed from its first
 * instruction it adds again from the unchanged registers.
 */
export function sumSeq(isa: Isa, rs1: number, rs2: number): number[] {
  if (isa.name !== 'sparc') throw new Error('address sums are recorded on the SPARC only');
  for (const r of [rs1, rs2]) if (r === isa.PTR || r === isa.TMP || r === 0) throw new Error(`cannot record a sum of register ${isa.regName(r)}`);
  return [sparcEnc.addReg(G7, rs1, rs2), ...sparcTempBytes()];
}

/** SPARC: the temporary's 4 bytes, most significant first, by destructive shifts; the pointer moved last. */
function sparcTempBytes(): number[] {
  return [
    sparcEnc.stb(G7, G6, 3), sparcEnc.srlImm(G7, G7, 8),
    sparcEnc.stb(G7, G6, 2), sparcEnc.srlImm(G7, G7, 8),
    sparcEnc.stb(G7, G6, 1), sparcEnc.srlImm(G7, G7, 8),
    sparcEnc.stb(G7, G6, 0),
    sparcEnc.addImm(G6, G6, 4),
  ];
}

/**
 * Instructions recording `reg + add` as one 4-byte value (a known loop's stopping value,
 * tracer/known.ts): the sum into the temporary, then its bytes as valueSeq stores a register's.
 * Re-executed from its first instruction it adds again from the unchanged register.
 */
export function offsetValueSeq(isa: Isa, reg: number, add: number): number[] {
  if (add === 0) return valueSeq(isa, reg, 4);
  if (reg === isa.PTR || reg === isa.TMP || reg === 0) throw new Error(`cannot record register ${isa.regName(reg)}`);
  if (isa.name === 'mips') {
    return [mipsEnc.addiu(K1, reg, add), ...mipsWordPair(isa, K1), mipsEnc.addiu(K0, K0, 4)];
  }
  return [sparcEnc.addImm(G7, reg, add), ...sparcTempBytes()];
}

/** Length in instructions of the sequences, for costing. */
export function witnessLen(isa: Isa, bytes: 1 | 2): number {
  return witnessSeq(isa, 0, bytes).length;
}
export function valueLen(isa: Isa, width = 4): number {
  return valueSeq(isa, isa.name === 'mips' ? 2 : 8, width).length;
}

/**
 * The translation table (tracer/rewrite.ts): one word per word of the original text, at
 * XLAT_BASE + original address, holding the new address control goes to for that original
 * address. XLAT_BASE + a for an address a that is no original text falls in unmapped memory for
 * every address a program holds (below the text, data, heap, trace buffer, new text, stack), so a
 * transfer to such an address faults in the lookup as it would have faulted in the fetch.
 */
export { XLAT_BASE };

/**
 * Instructions translating the target of an indirect transfer `w` (a jump or call through a
 * register, which the program computed from ORIGINAL code addresses) into the temporary: the
 * table word at XLAT_BASE + target, then a nop (MIPS: the load delay; SPARC: the same length, so
 * that the transfer, which reads the temporary, is never the rollback rule's sequence start).
 * Re-executed from its first instruction it reads the same table word from the unchanged
 * registers; the transfer that follows (translatedTransfer) jumps through the temporary.
 */
export function lookupSeq(isa: Isa, w: number): number[] {
  if (isa.name === 'mips') {
    const rs = (w >>> 21) & 31;
    return [mipsEnc.lui(K1, XLAT_BASE >>> 16), mipsEnc.addu(K1, K1, rs), mipsEnc.lw(K1, 0, K1), mipsEnc.nop()];
  }
  const rs1 = (w >>> 14) & 31;
  const ld = (w >>> 13) & 1 ? sparcEnc.ldImm(G7, G7, (w << 19) >> 19) : sparcEnc.ldReg(G7, G7, w & 31);
  return [sparcEnc.sethi(G7, XLAT_BASE >>> 10), sparcEnc.addReg(G7, G7, rs1), ld, sparcEnc.nop()];
}

/** The indirect transfer `word` (jr, jalr; jmpl) jumping through the temporary instead. */
export function translatedTransfer(isa: Isa, word: number): number {
  if (isa.name === 'mips') return mipsEnc.withTarget(word, K1);
  return sparcEnc.jmplImm((word >>> 25) & 31, G7, 0);
}
