/**
 * The schema: everything regeneration needs to rebuild the ORIGINAL program's trace from the
 * bytes the instrumented program records (docs/schema.md is the reference; keep them in step).
 * JSON, versioned, naming the SHA-256 of both executables. The instrumenter writes it
 * (serializeSchema), regeneration and the bundle reader read it (parseSchema).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { oneLine, shown } from './errtext.js';
import { checkSchema } from './schema_check.js';
import type { Isa, TargetName } from './target.js';

export const SCHEMA_FORMAT = 'emu-schema';
export const SCHEMA_VERSION = 6;

/** Memory reference: [kind, size, base, index (-1: none), offset]; kind 0 load, 1 store, 2 ldstub, 3 swap. */
export type SMem = [number, number, number, number, number];
/** Computed operation: [op, destinations, a, b]; a source is a register number or {k: immediate}. */
export type SSrc = number | { k: number };
/**
 * The operations regeneration can recompute (the instrumenter's ComputeOp names them): the names
 * of cpu/semantics.ts's value operations, which define what each computes for the CPUs' opcode
 * tables too, and ldro (a load from the original read-only image, the annotation `v`).
 */
export type ComputeName =
  | 'add' | 'sub' | 'and' | 'or' | 'xor' | 'nor' | 'andn' | 'orn' | 'xnor'
  | 'sll' | 'srl' | 'sra' | 'slt' | 'sltu' | 'const'
  | 'mult' | 'multu' | 'div' | 'divu' | 'umul' | 'smul' | 'udiv' | 'sdiv' | 'wry'
  | 'save' | 'restore' | 'ldro';
export type SCompute = [ComputeName, number[], SSrc | null, SSrc | null];
/**
 * A predicate regeneration decides (tracer/decide.ts): [comparison, a, b, edge when true, edge
 * when false]; the comparison of a with b is 32-bit, signed (eq ne lt le gt ge) or unsigned (ltu
 * leu gtu geu), on the registers as they are at the end of the block's body (before its delay
 * slot).
 */
export type SDecide = [Comparison, SSrc, SSrc, number, number];
/** The comparisons of decided predicates: cpu/semantics.ts's, those of the CPUs' conditional branches. */
export type Comparison = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'ltu' | 'leu' | 'gtu' | 'geu';

export interface SInsn {
  /** Memory reference. */
  m?: SMem;
  /** Regeneration computes the registers this instruction defines. */
  c?: SCompute;
  /** SPARC save (+1) / restore (-1): the window moves whether or not the value is computed. */
  w?: number;
  /** Registers whose sum (plus t[1]) is the target of an indirect call or recorded jump. */
  t?: [number[], number];
  /**
   * A load proven to read the original executable's read-only image (tracer/rodata.ts):
   * [register, width]; regeneration reads |width| bytes at the reference's address from
   * Schema.rodata (negative: sign-extended) into the register.
   */
  v?: [number, number];
}

/**
 * What one step of regeneration executes, with its cost in instrumented instructions:
 *   ['o', i]          original body instruction i (1)
 *   ['d']             the delay slot (1)
 *   ['w', n]          a witness sequence of n instructions
 *   ['r', reg, n, w, p]  a value record of reg in |w| bytes (w < 0: sign-extended) by n
 *                     instructions, the first p of them nops (MIPS load delay)
 *   ['g', n]          n glue instructions (jumps, delay nops; a known loop's stopping value, read
 *                     ahead by an 'a' step)
 *   ['a', reg, w, src, dir]  a known loop's stopping value (tracer/known.ts), read ahead: the next
 *                     w bytes of this context's stream into reg, or, when the context holds no more,
 *                     src - dir (0 instructions)
 */
export type Item = ['o', number] | ['d'] | ['w', number] | ['r', number, number, number, number] | ['g', number] | ['a', number, number, number, number];

export type STerm = 'fall' | 'branch' | 'call' | 'icall' | 'return' | 'table' | 'ijump' | 'trap' | 'halt' | 'longjmp' | 'tail' | 'exit';

export interface SBlock {
  /** Original address of the first instruction; n instructions follow (the transfer included). */
  addr: number;
  n: number;
  /** Address of the block's new code (absent for the virtual tail and EXIT vertices). */
  naddr?: number;
  term: STerm;
  /** Per body instruction: its annotation, or null for an instruction with no data event. */
  insns: (SInsn | null)[];
  /** The delay slot (original address addr + 4n) and its annotation. */
  ds?: SInsn | null;
  /** Out-edges (edge indices). */
  succ: number[];
  /** Body steps in order (rewrite.ts Item): instructions and the records after them. */
  items: Item[];
  /**
   * Call: the callee's original address (entered through its root entry's records), or the new
   * address of its root block (entered past them: the caller provides those registers). Tail
   * vertex: where control goes (absent: recorded).
   */
  target?: number;
  /** Predicate: witness value -> out-edge index (ball-larus-1994 Figure 15's witness sets). */
  wt?: Record<string, number>;
  /** Decided predicate: regeneration evaluates this condition instead of reading a witness. */
  dc?: SDecide;
  /** Entered from outside the function. */
  entry?: boolean;
}

export interface SEdge {
  from: number;
  to: number;
  kind: 'taken' | 'fall' | 'case' | 'return' | 'exit';
  /** The source's delay slot executes on this edge. */
  ds: boolean;
  witness?: number;
  /** Steps of the edge: delay slot, witness, value records, glue (rewrite.ts Item). */
  items: Item[];
  /** Address of the edge's code after the delay slot (stub or fall-through code), when it has any. */
  naddr?: number;
}

export interface SEntry {
  block: number;
  /** New address the entry is reached at (its stub or the block). */
  naddr: number;
  items: Item[];
}

export interface SFunction {
  name: string;
  addr: number;
  end: number;
  role?: 'setjmp' | 'longjmp' | 'sigtramp' | 'entry';
  /** Bytes per witness in this function. */
  wbytes: 1 | 2;
  blocks: SBlock[];
  edges: SEdge[];
  entries: SEntry[];
  /** SPARC: the window depth is not static (_longjmp); values of save/restore are not computed. */
  degraded?: boolean;
  /** Instrumented in conservative mode (tracer/conservative.ts), and why. */
  conservative?: string;
}

export interface Schema {
  format: typeof SCHEMA_FORMAT;
  version: typeof SCHEMA_VERSION;
  arch: TargetName;
  isa: Isa;
  original: { file: string; sha256: string; size: number };
  instrumented: { sha256: string; size: number };
  options: { carrySp: boolean };
  /** Byte order of recorded values in the trace. */
  byteOrder: 'little' | 'big';
  /** Original entry point; the prologue jumps to its entry stub. */
  entry: number;
  prologue: { addr: number; count: number; afterStart: number };
  newText: { base: number; size: number };
  /**
   * The original bytes every `v` load can read: [address, base64] runs in address order, each
   * inside one read-only section of the original executable.
   */
  rodata: [number, string][];
  functions: SFunction[];
  /**
   * Address map of the new text, run-length: [new address, words, kind, value] with kind 'o' (an
   * original instruction run starting at original address value), 's' (instrumentation
   * sequence number value; one run per sequence) or 'g' (glue: value 0 instructions, 1 data).
   */
  addressMap: [number, number, 'o' | 's' | 'g', number][];
  stats: Record<string, number>;
}

/**
 * node:zlib, loaded on first use: only gzip-compressed schemas need it, and `emu instrument`
 * writing plain JSON does not load it.
 */
let zlibModule: typeof import('node:zlib') | undefined;
function zlib(): typeof import('node:zlib') {
  return (zlibModule ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'));
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class SchemaError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'SchemaError';
  }
}

/** Parses a schema file (JSON, optionally gzip-compressed); errors name the file. */
export function parseSchema(bytes: Uint8Array, file: string): Schema {
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib().gunzipSync(bytes) : Buffer.from(bytes)).toString('utf8');
  } catch (e) {
    throw new SchemaError(file, `cannot decompress: ${oneLine((e as Error).message)}`);
  }
  let j: Schema;
  try {
    j = JSON.parse(text) as Schema;
  } catch (e) {
    throw new SchemaError(file, `not JSON: ${oneLine((e as Error).message)}`);
  }
  if (typeof j !== 'object' || j === null || Array.isArray(j)) throw new SchemaError(file, 'not a JSON object');
  if (j.format !== SCHEMA_FORMAT) throw new SchemaError(file, `not an emu schema (format ${shown(j.format)})`);
  if (j.version !== SCHEMA_VERSION) throw new SchemaError(file, `schema version ${shown(j.version)}, this emu reads version ${SCHEMA_VERSION} (instrument the program again with this emu)`);
  if (!Array.isArray(j.functions) || !Array.isArray(j.addressMap) || !Array.isArray(j.rodata)) throw new SchemaError(file, 'functions, addressMap or rodata missing');
  checkSchema(j, (path, what) => {
    throw new SchemaError(file, `${path}: ${what}`);
  });
  return j;
}

/** A schema file's bytes: JSON, gzip-compressed when `gzip` (the bundle's schemas/<H>.json.gz). */
export function serializeSchema(schema: Schema, gzip: boolean): Uint8Array {
  // UTF-8 in one pass (Node encodes a one-byte string as fast as it copies it), and the bytes as a
  // view: a copy of a schema of a megabyte costs half a millisecond.
  const json = Buffer.from(JSON.stringify(schema), 'utf8');
  return gzip ? new Uint8Array(zlib().gzipSync(json)) : new Uint8Array(json.buffer, json.byteOffset, json.length);
}
