/**
 * SPARC v8 decoder: a 32-bit instruction word to its opcode-table entry and fields.
 *
 * Decoding follows the hardware, not the purity scan: fields the manual marks unused are ignored
 * here (query.ts's isSparcV8Word checks them). A word that matches no entry decodes with
 * `spec === undefined`; executing it raises illegal_instruction.
 */
import { OPCODES, type OpSpecFull } from './opcodes.js';

export interface Insn {
  /** The instruction word, unsigned. */
  word: number;
  spec: OpSpecFull | undefined;
  op: number;
  rd: number;
  rs1: number;
  rs2: number;
  /** The i bit of format 3: second operand is simm13 (true) or rs2. */
  i: boolean;
  /** Sign-extended 13-bit immediate. */
  simm13: number;
  /** sethi / unimp 22-bit constant (unsigned). */
  imm22: number;
  /** Branch (disp22) or call (disp30) displacement in bytes, sign-extended (call: modulo 2^32). */
  disp: number;
  cond: number;
  /** Annul bit of Bicc/FBfcc/CBccc. */
  a: boolean;
  /** Alternate space identifier (bits 12:5). */
  asi: number;
  /** FPop opf field (bits 13:5). */
  opf: number;
}

function popcount(x: number): number {
  x >>>= 0;
  let n = 0;
  while (x) {
    x &= x - 1;
    n++;
  }
  return n;
}

/** Candidates per primary key, most specific mask first. */
const byKey = new Map<number, OpSpecFull[]>();

/**
 * Key of a word: op (2 bits) and then op2 (format 2), op3 (format 3) and opf (FPops). Call words
 * all share key 1 << 16.
 */
function keyOf(word: number): number {
  const op = word >>> 30;
  if (op === 1) return 1 << 16;
  if (op === 0) return (op << 16) | ((word >>> 22) & 7);
  const op3 = (word >>> 19) & 0x3f;
  if (op === 2 && (op3 === 0x34 || op3 === 0x35)) return (op << 16) | (op3 << 9) | ((word >>> 5) & 0x1ff);
  return (op << 16) | (op3 << 9);
}

for (const spec of OPCODES) {
  const k = keyOf(spec.match);
  let l = byKey.get(k);
  if (!l) byKey.set(k, (l = []));
  l.push(spec);
}
for (const l of byKey.values()) l.sort((x, y) => popcount(y.mask) - popcount(x.mask));

/** The opcode-table entry of a word, or undefined if it encodes no v8 instruction. */
export function lookup(word: number): OpSpecFull | undefined {
  const l = byKey.get(keyOf(word));
  if (!l) return undefined;
  for (const s of l) if (((word & s.mask) >>> 0) === s.match) return s;
  return undefined;
}

export function decode(word: number): Insn {
  word >>>= 0;
  const op = word >>> 30;
  const spec = lookup(word);
  let disp: number;
  if (op === 1) disp = (word << 2) | 0;
  else disp = ((word << 10) >> 10) << 2;
  return {
    word, spec, op,
    rd: (word >>> 25) & 31,
    rs1: (word >>> 14) & 31,
    rs2: word & 31,
    i: (word & 0x2000) !== 0,
    simm13: (word << 19) >> 19,
    imm22: word & 0x3fffff,
    disp,
    cond: (word >>> 25) & 15,
    a: (word & 0x20000000) !== 0,
    asi: (word >>> 5) & 0xff,
    opf: (word >>> 5) & 0x1ff,
  };
}
