/**
 * The MIPS I decoder: a word -> the one opcode-table row it matches (or none: Reserved Instruction)
 * plus its fields. Built from OPCODES only; no instruction knowledge lives here.
 */
import {
  OPCODES, fCode20, fImm, fOp, fRd, fRs, fRt, fSa, fSimm, fTarget, type OpSpec,
} from './opcodes.js';

/**
 * Candidate rows per primary opcode. Groups with many rows (SPECIAL, REGIMM, COP0, COP1) are
 * sub-indexed by the bits every row of the group tests, so a decode is two array lookups and a
 * short scan.
 */
interface Group {
  key: number; // mask common to all rows of the group
  rows: Map<number, OpSpec[]> | OpSpec[];
}

const groups: Group[] = [];
for (let op = 0; op < 64; op++) {
  const rows = OPCODES.filter((r) => fOp(r.match) === op && ((r.mask >>> 26) === 63));
  if (rows.length <= 4) {
    groups.push({ key: 0, rows });
    continue;
  }
  let key = 0xffffffff;
  for (const r of rows) key &= r.mask;
  key = (key & 0x03ffffff) >>> 0;
  const m = new Map<number, OpSpec[]>();
  for (const r of rows) {
    const k = (r.match & key) >>> 0;
    let l = m.get(k);
    if (!l) m.set(k, (l = []));
    l.push(r);
  }
  groups.push({ key, rows: m });
}

/** The opcode-table row a word encodes, or undefined for a reserved encoding. */
export function lookup(word: number): OpSpec | undefined {
  const w = word >>> 0;
  const g = groups[w >>> 26]!;
  const list = Array.isArray(g.rows) ? g.rows : g.rows.get((w & g.key) >>> 0);
  if (!list) return undefined;
  // Specific rows precede catch-all rows in OPCODES, so the first match is the right one.
  for (const r of list) if (((w & r.mask) >>> 0) === r.match) return r;
  return undefined;
}

/** A decoded instruction: its row and every field, extracted once. */
export class Insn {
  readonly word: number;
  /** undefined: no row matches (a Reserved Instruction exception when executed). */
  readonly spec: OpSpec | undefined;
  readonly rs: number;
  readonly rt: number;
  readonly rd: number;
  readonly sa: number;
  /** Zero-extended 16-bit immediate. */
  readonly imm: number;
  /** Sign-extended 16-bit immediate (also the load/store offset and branch displacement). */
  readonly simm: number;
  /** 26-bit jump target field. */
  readonly target: number;
  /** syscall/break code (bits 6..25). */
  readonly code: number;

  constructor(word: number) {
    this.word = word >>> 0;
    this.spec = lookup(this.word);
    this.rs = fRs(word);
    this.rt = fRt(word);
    this.rd = fRd(word);
    this.sa = fSa(word);
    this.imm = fImm(word);
    this.simm = fSimm(word);
    this.target = fTarget(word);
    this.code = fCode20(word);
  }

  /** Floating-point register fields (COP1): fs = rd, ft = rt, fd = sa. */
  get fs(): number { return this.rd; }
  get ft(): number { return this.rt; }
  get fd(): number { return this.sa; }
  /** Mnemonic, or '' for a reserved encoding. */
  get name(): string { return this.spec?.name ?? ''; }
}

export function decode(word: number): Insn {
  return new Insn(word);
}
