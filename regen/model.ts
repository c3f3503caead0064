/**
 * A schema prepared for regeneration: functions, blocks and edges with their out-edge lists and
 * witness tables as maps, the instruction counts of every step, and the lookup from a code
 * address — original or instrumented — to the function, block and way in (through the entry's
 * records or not) an indirect transfer reaches.
 */
import type { Item } from '../format/schema.js';
import { SchemaError } from '../format/schema.js';
import { schemaFunctions, type SchemaFunctions } from '../format/schema_cache.js';
import { COMPARISONS } from './decide.js';
import type { UnitTable } from './units.js';
import type { SBlock, SDecide, SEdge, SFunction, SInsn, STerm, Schema } from '../format/schema.js';

export interface RBlock {
  id: number;
  addr: number;
  n: number;
  naddr: number;
  term: STerm;
  insns: (SInsn | null)[];
  ds: SInsn | null;
  succ: number[];
  items: Item[];
  /** Instrumented instructions of the body. */
  cost: number;
  /** A direct call's or tail jump's target (undefined for the others: every block has the property, one V8 map). */
  target: number | undefined;
  /** Witness value -> edge index (predicates). */
  wt: Map<number, number> | null;
  /** Decided predicate: the condition regeneration evaluates (regen/decide.ts). */
  dc: SDecide | null;
  entry: boolean;
}

export interface REdge {
  id: number;
  from: number;
  to: number;
  kind: SEdge['kind'];
  ds: boolean;
  witness: number | undefined;
  items: Item[];
  cost: number;
  naddr: number | undefined;
  /** A direct call edge's target, looked up the first time the call runs (RegenProcess.callAfterDs). */
  callee: CodeTarget | undefined;
}

export interface REntry {
  block: number;
  naddr: number;
  items: Item[];
  cost: number;
}

export interface RFunc {
  index: number;
  name: string;
  addr: number;
  end: number;
  role: SFunction['role'];
  wbytes: 1 | 2;
  blocks: RBlock[];
  edges: REdge[];
  entries: Map<number, REntry>;
  degraded: boolean;
  exit: number;
  /** Compiled code (regen/compile.ts), made on first use. */
  code?: (S: any, stop: number) => void;
  /** The units as data for the table engine (regen/units.ts), made on first use. */
  units?: UnitTable;
}

/** Where a code address leads. */
export interface CodeTarget {
  fn: RFunc;
  block: number;
  /** Reached through the entry's stub (its records run first). */
  viaEntry: boolean;
}

export function itemCost(it: Item): number {
  switch (it[0]) {
    case 'o': case 'd': return 1;
    case 'w': return it[1];
    case 'r': return it[2];
    case 'g': return it[1];
    case 'a': return 0;
  }
}

const sum = (items: Item[]): number => items.reduce((n, it) => n + itemCost(it), 0);

/** A regeneration that cannot go on: what the trace says contradicts the schema. */
export class RegenError extends Error {}

export class RegenProgram {
  /** The functions, each built when regeneration first needs it (func). */
  private readonly built: (RFunc | undefined)[];
  private readonly fns: SchemaFunctions;
  /**
   * Code address -> where it leads, packed: function index * 2^22 + block * 2 + (1 when reached
   * through the entry's stub). Made from the schema without building the functions.
   */
  private readonly byAddr = new Map<number, number>();
  private readonly funcByAddr = new Map<number, number>();
  private readonly targets = new Map<number, CodeTarget>();
  readonly entryFunc: RFunc;
  readonly littleEndian: boolean;
  readonly sparc: boolean;
  /** The runs of the original read-only image the schema carries (Schema.rodata), in address order. */
  private readonly ro: { addr: number; end: number; view: DataView }[];

  constructor(readonly schema: Schema, readonly file: string) {
    this.littleEndian = schema.byteOrder === 'little';
    this.sparc = schema.isa === 'sparc';
    this.ro = (schema.rodata ?? []).map(([addr, b64]) => {
      const bytes = Buffer.from(b64, 'base64');
      return { addr, end: addr + bytes.length, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.length) };
    });
    // The functions are read (parsed, from a cached schema) only when regeneration first needs
    // them; the index of code addresses comes without them (format/schema_cache.ts).
    const fs = (this.fns = schemaFunctions(schema));
    this.built = new Array<RFunc | undefined>(fs.count);
    for (let fi = 0; fi < fs.count; fi++) {
      const n = fs.blocks(fi);
      if (n >= BLOCKS) throw new SchemaError(file, `${fs.get(fi).name}: ${n} blocks, more than regeneration indexes (${BLOCKS})`);
      this.funcByAddr.set(fs.addr(fi) >>> 0, fi);
    }
    const ca = fs.codeAddrs;
    for (let k = 0; k < ca.length; k += 3) this.byAddr.set(ca[k]! >>> 0, ca[k + 1]! * BLOCKS * 2 + ca[k + 2]!);
    const ef = this.funcByAddr.get(schema.entry >>> 0);
    if (ef === undefined) throw new SchemaError(file, `the entry point 0x${schema.entry.toString(16)} is no function of the schema`);
    this.entryFunc = this.func(ef);
  }

  /** Function `index` of the schema, prepared for regeneration. */
  func(index: number): RFunc {
    return this.built[index] ?? (this.built[index] = buildFunc(this.fns.get(index), index, this.file));
  }

  /** The first function of that role (schema.md: entry, sigtramp, setjmp, longjmp). */
  funcWithRole(role: NonNullable<SFunction['role']>): RFunc | undefined {
    for (let i = 0; i < this.fns.count; i++) if (this.fns.role(i) === role) return this.func(i);
    return undefined;
  }

  /** Every function (built now if not yet). */
  get funcs(): RFunc[] {
    return Array.from({ length: this.fns.count }, (_, i) => this.func(i));
  }

  /** Where a code address (original or instrumented) leads, or undefined. */
  code(addr: number): CodeTarget | undefined {
    const a = addr >>> 0;
    const known = this.targets.get(a);
    if (known) return known;
    const v = this.byAddr.get(a);
    if (v === undefined) return undefined;
    const fi = Math.floor(v / (BLOCKS * 2));
    const r = v - fi * BLOCKS * 2;
    const t: CodeTarget = { fn: this.func(fi), block: r >> 1, viaEntry: (r & 1) === 1 };
    this.targets.set(a, t);
    return t;
  }

  funcAt(addr: number): RFunc | undefined {
    const fi = this.funcByAddr.get(addr >>> 0);
    return fi === undefined ? undefined : this.func(fi);
  }

  /**
   * The value a load proven to read the read-only image (schema annotation `v`, tracer/rodata.ts)
   * reads at `va`: |width| bytes in the target's byte order, sign-extended when width < 0. An
   * address outside the image the schema carries contradicts the instrumenter's proof: an error
   * naming the load's pc and the address, never a guess.
   */
  roLoad(va: number, width: number, pc: number): number {
    const n = Math.abs(width);
    for (const r of this.ro) {
      if (va < r.addr || va + n > r.end) continue;
      const o = va - r.addr;
      const le = this.littleEndian;
      switch (width) {
        case 1: return r.view.getUint8(o);
        case -1: return r.view.getInt8(o);
        case 2: return r.view.getUint16(o, le);
        case -2: return r.view.getInt16(o, le);
        default: return r.view.getInt32(o, le);
      }
    }
    throw new RegenError(`${this.file}: the load at 0x${pc.toString(16)} reads 0x${(va >>> 0).toString(16)} (${n} bytes), outside the read-only image the schema carries (the instrumenter proved it inside)`);
  }
}

/** Blocks a function may have (the code-address index packs the block number below it). */
const BLOCKS = 1 << 21;

function checkDecided(b: SBlock, f: SFunction, file: string): void {
  const dc = b.dc!;
  if (!(b.succ.includes(dc[3]) && b.succ.includes(dc[4]) && dc[3] !== dc[4])) {
    throw new SchemaError(file, `${f.name}: block 0x${b.addr.toString(16)} decides between edges ${dc[3]} and ${dc[4]}, which are not its two out-edges`);
  }
  if (!COMPARISONS.has(dc[0])) throw new SchemaError(file, `${f.name}: block 0x${b.addr.toString(16)} decides by an unknown comparison ${JSON.stringify(dc[0])}`);
}

function buildFunc(f: SFunction, index: number, file: string): RFunc {
  for (const b of f.blocks) if (b.dc) checkDecided(b, f, file);
  const blocks = f.blocks.map((b: SBlock, id): RBlock => ({
    id, addr: b.addr, n: b.n, naddr: b.naddr ?? NaN, term: b.term, insns: b.insns, ds: b.ds ?? null, succ: b.succ,
    items: b.items, cost: sum(b.items), target: b.target,
    wt: b.wt ? new Map(Object.entries(b.wt).map(([w, e]) => [Number(w), e])) : null, dc: b.dc ?? null, entry: b.entry === true,
  }));
  const edges = f.edges.map((e: SEdge, id): REdge => ({
    id, from: e.from, to: e.to, kind: e.kind, ds: e.ds, witness: e.witness, items: e.items, cost: sum(e.items), naddr: e.naddr, callee: undefined,
  }));
  const entries = new Map<number, REntry>();
  for (const en of f.entries) entries.set(en.block, { block: en.block, naddr: en.naddr, items: en.items, cost: sum(en.items) });
  return {
    index, name: f.name, addr: f.addr, end: f.end, role: f.role, wbytes: f.wbytes, blocks, edges, entries,
    degraded: f.degraded === true, exit: blocks.findIndex((b) => b.term === 'exit'),
    // Present from the start, so every function object has one shape (V8's maps: a property
    // added later would give the engine's call sites several and deoptimise them).
    code: undefined, units: undefined,
  };
}
