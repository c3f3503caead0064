/**
 * A tiny assembler for the new text: words appended in order, labels, and fixups resolved when
 * every label's address is known (branch and jump targets, %hi/%lo halves of code addresses).
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
  | { kind: 'retarget'; label: string } // PC-relative / region transfer in the word
  | { kind: 'mipsHi'; label: string; addend: number } // lui: (addr + 0x8000) >> 16
  | { kind: 'mipsLo'; label: string; addend: number } // addiu/ori: low 16 bits
  | { kind: 'sparcHi'; label: string; addend: number } // sethi: addr >> 10
  | { kind: 'sparcLo'; label: string; addend: number } // or/add simm13: addr & 0x3ff
  | { kind: 'sparc13'; label: string; addend: number }; // simm13: the whole address

export class Assembler {
  readonly words: number[] = [];
  /** Per word: original address (>= 0), -1 (glue), ORIGIN_DATA (data), or -2 - k (sequence k). */
  readonly origin: number[] = [];
  readonly labels = new Map<string, number>();
  private readonly fixups: { index: number; f: Fixup }[] = [];
  sequences = 0;

  constructor(readonly isa: Isa, readonly base: number) {}

  get here(): number {
    return this.base + this.words.length * 4;
  }

  label(name: string): void {
    if (this.labels.has(name)) throw new Error(`label ${name} defined twice`);
    this.labels.set(name, this.here);
  }

  /** Appends a word; returns its index. */
  word(w: number, origin: number, fix?: Fixup): number {
    const i = this.words.length;
    this.words.push(w >>> 0);
    this.origin.push(origin);
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
  jump(label: string, annul = false): number {
    if (this.isa.name === 'mips') this.glue(mipsEnc.j(0), { kind: 'retarget', label });
    else this.glue((sparcEnc.ba(0, 0) | (annul ? SPARC_ANNUL : 0)) >>> 0, { kind: 'retarget', label });
    this.nop();
    return this.isa.name === 'sparc' && annul ? 1 : 2;
  }

  /** Resolves every fixup; throws naming the label when one is undefined. */
  resolve(): void {
    for (const { index, f } of this.fixups) {
      const at = this.labels.get(f.label);
      if (at === undefined) throw new Error(`undefined label ${f.label}`);
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

  /** Address of a label (after layout). */
  addr(label: string): number {
    const a = this.labels.get(label);
    if (a === undefined) throw new Error(`undefined label ${label}`);
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
