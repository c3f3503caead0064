/**
 * A tiny assembler for the new text: words appended in order, labels (numbered by the caller,
 * which names them for messages), and fixups resolved when every label's address is known (branch and jump targets, %hi/%lo halves of code addresses).
 * Every word carries its origin for the address map (docs/schema.md "Address map"):
 *   - an original instruction (its original address),
 *   - instrumentation sequence k (a witness or a value record; the kernel's rollback unit),
 *   - glue: jumps and delay-slot nops the layout adds, the nops before MIPS records, the process
 *     prologue and its strings.
 */
import type { Schema } from '../format/schema.js';
import type { Isa } from './isa.js';
import { mipsEnc, retargetMips } from './isa_mips.js';
import { retargetSparc, sparcEnc } from './isa_sparc.js';

/** The annul bit of a SPARC Bicc. */
const SPARC_ANNUL = 0x20000000;

export const ORIGIN_GLUE = -1;
/** Data in the new text (the prologue's strings): never executed. */
export const ORIGIN_DATA = -2 - 0x40000000;

export type Fixup =
  | { kind: 'retarget'; label: number } // PC-relative / region transfer in the word
  | { kind: 'mipsHi'; label: number; addend: number } // lui: (addr + 0x8000) >> 16
  | { kind: 'mipsLo'; label: number; addend: number } // addiu/ori: low 16 bits
  | { kind: 'sparcHi'; label: number; addend: number } // sethi: addr >> 10
  | { kind: 'sparcLo'; label: number; addend: number } // or/add simm13: addr & 0x3ff
  | { kind: 'sparc13'; label: number; addend: number }; // simm13: the whole address

export class Assembler {
  /** The words so far: words[0 .. count - 1] (the arrays grow by doubling). */
  private words = new Uint32Array(4096);
  /** Per word: original address (>= 0), -1 (glue), ORIGIN_DATA (data), or -2 - k (sequence k). */
  private origin = new Int32Array(4096);
  private count = 0;
  /** Address of each label 0 .. labels - 1 (NaN: not defined yet). */
  private readonly at: Float64Array;
  private readonly fixups: { index: number; f: Fixup }[] = [];
  sequences = 0;

  /** Labels are 0 .. labels - 1; `name` names one in messages. */
  constructor(readonly isa: Isa, readonly base: number, labels: number, private readonly name: (label: number) => string) {
    this.at = new Float64Array(labels).fill(NaN);
  }

  get here(): number {
    return this.base + this.count * 4;
  }

  label(label: number): void {
    if (!(label >= 0 && label < this.at.length)) throw new Error(`label ${label} out of range`);
    if (!Number.isNaN(this.at[label]!)) throw new Error(`label ${this.name(label)} defined twice`);
    this.at[label] = this.here;
  }

  /** Appends a word; returns its index. */
  word(w: number, origin: number, fix?: Fixup): number {
    const i = this.count;
    if (i === this.words.length) {
      const words = new Uint32Array(2 * i);
      words.set(this.words);
      this.words = words;
      const o = new Int32Array(2 * i);
      o.set(this.origin);
      this.origin = o;
    }
    this.words[i] = w;
    this.origin[i] = origin;
    this.count = i + 1;
    if (fix) this.fixups.push({ index: i, f: fix });
    return i;
  }

  glue(w: number, fix?: Fixup): void {
    this.word(w, ORIGIN_GLUE, fix);
  }

  /** Appends one instrumentation sequence; returns its number. */
  sequence(ws: number[]): number {
    const k = this.sequences++;
    for (const w of ws) this.word(w, -2 - k);
    return k;
  }

  nop(): void {
    this.glue(this.isa.name === 'mips' ? mipsEnc.nop() : sparcEnc.nop());
  }

  /**
   * An unconditional transfer to a label with a nop in its delay slot (2 words). Returns the
   * instructions it executes: 2, or 1 with `annul` on the SPARC (`ba,a`: the slot never executes).
   */
  jump(label: number, annul = false): number {
    if (this.isa.name === 'mips') this.glue(mipsEnc.j(0), { kind: 'retarget', label });
    else this.glue((sparcEnc.ba(0, 0) | (annul ? SPARC_ANNUL : 0)) >>> 0, { kind: 'retarget', label });
    this.nop();
    return this.isa.name === 'sparc' && annul ? 1 : 2;
  }

  /** Resolves every fixup; throws naming the label when one is undefined. */
  resolve(): void {
    for (let k = 0; k < this.fixups.length; k++) {
      const { index, f } = this.fixups[k]!;
      const at = this.addr(f.label);
      const pc = this.base + index * 4;
      const w = this.words[index]!;
      switch (f.kind) {
        case 'retarget':
          this.words[index] = this.isa.name === 'mips' ? retargetMips(w, pc, at) : retargetSparc(w, pc, at);
          break;
        case 'mipsHi': {
          const v = (at + f.addend) >>> 0;
          this.words[index] = ((w & 0xffff0000) | (((v + 0x8000) >>> 16) & 0xffff)) >>> 0;
          break;
        }
        case 'mipsLo': {
          const v = (at + f.addend) >>> 0;
          this.words[index] = ((w & 0xffff0000) | (v & 0xffff)) >>> 0;
          break;
        }
        case 'sparcHi': {
          const v = (at + f.addend) >>> 0;
          this.words[index] = ((w & 0xffc00000) | (v >>> 10)) >>> 0;
          break;
        }
        case 'sparcLo': {
          const v = (at + f.addend) >>> 0;
          this.words[index] = ((w & ~0x3ff) | (v & 0x3ff)) >>> 0;
          break;
        }
        case 'sparc13': {
          const v = (at + f.addend) | 0;
          if (v < -4096 || v > 4095) throw new Error(`address 0x${(v >>> 0).toString(16)} does not fit a 13-bit immediate`);
          this.words[index] = ((w & ~0x1fff) | (v & 0x1fff)) >>> 0;
          break;
        }
      }
    }
  }

  /** The words laid out (a copy). */
  code(): Uint32Array {
    return this.words.slice(0, this.count);
  }

  /** Each word's origin (a copy; see `origin`). */
  origins(): Int32Array {
    return this.origin.slice(0, this.count);
  }

  /** Address of a label (after layout). */
  addr(label: number): number {
    const a = this.at[label];
    if (a === undefined || Number.isNaN(a)) throw new Error(`undefined label ${this.name(label)}`);
    return a;
  }
}

type AddressMap = Schema['addressMap'];

/** Builds the schema's run-length address map from the assembler's per-word origins. */
export function addressMap(base: number, origin: Int32Array): AddressMap {
  const out: AddressMap = [];
  for (let i = 0; i < origin.length;) {
    const o = origin[i]!;
    let j = i + 1;
    if (o >= 0) {
      while (j < origin.length && origin[j] === o + (j - i) * 4) j++;
      out.push([base + i * 4, j - i, 'o', o]);
    } else if (o === -1 || o === ORIGIN_DATA) {
      while (j < origin.length && origin[j] === o) j++;
      out.push([base + i * 4, j - i, 'g', o === ORIGIN_DATA ? 1 : 0]);
    } else {
      while (j < origin.length && origin[j] === o) j++;
      out.push([base + i * 4, j - i, 's', -2 - o]);
    }
    i = j;
  }
  return out;
}
