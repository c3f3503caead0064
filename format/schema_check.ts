/**
 * The structural check of a parsed schema (docs/schema.md): every field regeneration reads has
 * its type and range, and every index points at something (an edge's blocks, a block's
 * out-edges, an item's instruction). Regeneration compiles schemas into JavaScript
 * (regen/compile.ts), so a field that is not what it claims is refused here, before any of its
 * text could reach the generated code; after this check, the regeneration model and compiler
 * meet no value they do not expect.
 *
 * Errors are SchemaErrors naming the file and the path of the field: `functions[3].blocks[7].succ[1]`.
 */
import type { Item, SBlock, SEdge, SFunction, SInsn, Schema, SSrc } from './schema.js';
import { quoted } from './errtext.js';
import { TARGET_NAMES } from './target.js';

/** Registers are small integers; recorded slots start at tracer/slots.ts SLOT_BASE (2^20). */
const MAX_REG = 1 << 24;
const TERMS = new Set(['fall', 'branch', 'call', 'icall', 'return', 'table', 'ijump', 'trap', 'halt', 'longjmp', 'tail', 'exit']);
const EDGE_KINDS = new Set(['taken', 'fall', 'case', 'return', 'exit']);
const ROLES = new Set(['setjmp', 'longjmp', 'sigtramp', 'entry']);
const OPS = new Set([
  'add', 'sub', 'and', 'or', 'xor', 'nor', 'andn', 'orn', 'xnor', 'sll', 'srl', 'sra', 'slt', 'sltu', 'const',
  'mult', 'multu', 'div', 'divu', 'umul', 'smul', 'udiv', 'sdiv', 'wry', 'save', 'restore', 'ldro',
]);
const COMPARISONS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'ltu', 'leu', 'gtu', 'geu']);
const SHA256 = /^[0-9a-f]{64}$/;
/** Widths of recorded values and read-only loads (negative: sign-extended). */
const WIDTHS: ReadonlySet<unknown> = new Set([1, 2, 4, -1, -2, -4]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
const isU32 = (x: unknown): x is number => isInt(x) && x >= 0 && x <= 0xffffffff;
const isI32 = (x: unknown): x is number => isInt(x) && x >= -0x80000000 && x <= 0xffffffff;
const isCount = (x: unknown): x is number => isInt(x) && x >= 0;
const isIndex = (x: unknown, n: number): x is number => isInt(x) && x >= 0 && x < n;
const isReg = (x: unknown): x is number => isInt(x) && x >= 0 && x < MAX_REG;
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Throws `fail(path, what)` at the first field that is not as documented. */
export function checkSchema(j: Schema, fail: (path: string, what: string) => never): void {
  const { need, arr } = checkers(fail);
  need(TARGET_NAMES.includes(j.arch), () => 'arch', () => `must be one of ${TARGET_NAMES.join(', ')}`);
  need(j.isa === 'mips' || j.isa === 'sparc', () => 'isa', () => 'must be mips or sparc');
  need(j.byteOrder === 'little' || j.byteOrder === 'big', () => 'byteOrder', () => 'must be little or big');
  need(isObj(j.original) && typeof j.original.file === 'string' && SHA256.test(String(j.original.sha256)) && isCount(j.original.size), () => 'original', () => 'needs file, sha256 (64 hex digits) and size');
  need(isObj(j.instrumented) && SHA256.test(String(j.instrumented.sha256)) && isCount(j.instrumented.size), () => 'instrumented', () => 'needs sha256 (64 hex digits) and size');
  need(isObj(j.options) && typeof j.options.carrySp === 'boolean', () => 'options', () => 'needs carrySp (boolean)');
  need(isU32(j.entry), () => 'entry', () => 'must be an address');
  need(isObj(j.prologue) && isU32(j.prologue.addr) && isCount(j.prologue.count) && isU32(j.prologue.afterStart), () => 'prologue', () => 'needs addr, count and afterStart');
  need(isObj(j.newText) && isU32(j.newText.base) && isCount(j.newText.size), () => 'newText', () => 'needs base and size');
  need(isObj(j.stats), () => 'stats', () => 'must be an object');
  arr(j.rodata, () => 'rodata').forEach((r, i) => need(Array.isArray(r) && r.length === 2 && isU32(r[0]) && typeof r[1] === 'string' && BASE64.test(r[1]), () => `rodata[${i}]`, () => 'must be [address, base64]'));
  arr(j.addressMap, () => 'addressMap').forEach((r, i) => {
    need(Array.isArray(r) && r.length === 4 && isU32(r[0]) && isCount(r[1]) && (r[2] === 'o' || r[2] === 's' || r[2] === 'g') && isU32(r[3]), () => `addressMap[${i}]`, () => "must be [new address, words, 'o'|'s'|'g', value]");
  });
  arr(j.functions, () => 'functions').forEach((f, i) => checkFunction(f as SFunction, `functions[${i}]`, need, arr));
  need(j.functions.some((f) => f.addr === j.entry), () => 'entry', () => `0x${j.entry.toString(16)} is no function's address`);
}

/**
 * Throws `fail(path, what)` at the first field of function `index` of a schema that is not as
 * documented: checkSchema's check of one function (format/schema_cache.ts checks each cached
 * function this way when it is first parsed).
 */
export function checkSchemaFunction(f: SFunction, index: number, fail: (path: string, what: string) => never): void {
  const { need, arr } = checkers(fail);
  checkFunction(f, `functions[${index}]`, need, arr);
}

/** Path and message are built only for the field that fails (the check runs over every instruction). */
type Need = (ok: boolean, path: () => string, what: () => string) => void;

function checkers(fail: (path: string, what: string) => never): { need: Need; arr: (x: unknown, path: () => string) => unknown[] } {
  const need: Need = (ok, path, what) => {
    if (!ok) fail(path(), what());
  };
  const arr = (x: unknown, path: () => string): unknown[] => {
    need(Array.isArray(x), path, () => 'must be an array');
    return x as unknown[];
  };
  return { need, arr };
}

function checkFunction(f: SFunction, at: string, need: Need, arr: (x: unknown, path: () => string) => unknown[]): void {
  need(isObj(f), () => at, () => 'must be an object');
  need(typeof f.name === 'string', () => `${at}.name`, () => 'must be a string');
  need(isU32(f.addr) && isU32(f.end), () => at, () => 'needs addr and end addresses');
  need(f.role === undefined || ROLES.has(f.role), () => `${at}.role`, () => `must be one of ${[...ROLES].join(', ')}`);
  need(f.wbytes === 1 || f.wbytes === 2, () => `${at}.wbytes`, () => 'must be 1 or 2');
  need(f.degraded === undefined || typeof f.degraded === 'boolean', () => `${at}.degraded`, () => 'must be a boolean');
  need(f.conservative === undefined || typeof f.conservative === 'string', () => `${at}.conservative`, () => 'must be a string');
  const blocks = arr(f.blocks, () => `${at}.blocks`) as SBlock[];
  const edges = arr(f.edges, () => `${at}.edges`) as SEdge[];
  const nb = blocks.length;
  const ne = edges.length;
  edges.forEach((e, i) => {
    const p = `${at}.edges[${i}]`;
    need(isObj(e), () => p, () => 'must be an object');
    need(isIndex(e.from, nb) && isIndex(e.to, nb), () => p, () => `from and to must be block indices (0-${nb - 1})`);
    need(EDGE_KINDS.has(e.kind), () => `${p}.kind`, () => `must be one of ${[...EDGE_KINDS].join(', ')}`);
    need(typeof e.ds === 'boolean', () => `${p}.ds`, () => 'must be a boolean');
    need(e.witness === undefined || isCount(e.witness), () => `${p}.witness`, () => 'must be a witness value');
    need(e.naddr === undefined || isU32(e.naddr), () => `${p}.naddr`, () => 'must be an address');
  });
  blocks.forEach((b, i) => {
    const p = `${at}.blocks[${i}]`;
    need(isObj(b), () => p, () => 'must be an object');
    need(isU32(b.addr) && isCount(b.n) && b.n < 1 << 20, () => p, () => 'needs addr and n');
    need(b.naddr === undefined || isU32(b.naddr), () => `${p}.naddr`, () => 'must be an address');
    need(TERMS.has(b.term), () => `${p}.term`, () => `must be one of ${[...TERMS].join(', ')}`);
    arr(b.insns, () => `${p}.insns`).forEach((x, k) => checkInsn(x as SInsn | null, () => `${p}.insns[${k}]`, need));
    if (b.ds !== undefined) checkInsn(b.ds, () => `${p}.ds`, need);
    arr(b.succ, () => `${p}.succ`).forEach((s, k) => need(isIndex(s, ne), () => `${p}.succ[${k}]`, () => `must be an edge index (0-${ne - 1})`));
    need(b.target === undefined || isU32(b.target), () => `${p}.target`, () => 'must be an address');
    need(b.entry === undefined || typeof b.entry === 'boolean', () => `${p}.entry`, () => 'must be a boolean');
    if (b.wt !== undefined) {
      need(isObj(b.wt), () => `${p}.wt`, () => 'must map witness values to edges');
      for (const [w, e] of Object.entries(b.wt)) need(/^(0|[1-9][0-9]{0,9})$/.test(w) && isIndex(e, ne), () => `${p}.wt[${quoted(w)}]`, () => 'must map a witness value to an edge index');
    }
    if (b.dc !== undefined) {
      const d = b.dc;
      need(Array.isArray(d) && d.length === 5 && COMPARISONS.has(d[0]) && isSrc(d[1]) && isSrc(d[2]), () => `${p}.dc`, () => 'must be [comparison, source, source, edge, edge]');
      need(b.succ.includes(d[3]) && b.succ.includes(d[4]) && d[3] !== d[4], () => `${p}.dc`, () => `decides between edges ${d[3]} and ${d[4]}, which are not its two out-edges`);
    }
    checkItems(b.items, () => `${p}.items`, b, undefined, need, arr);
  });
  edges.forEach((e, i) => checkItems(e.items, () => `${at}.edges[${i}].items`, blocks[e.from]!, e, need, arr));
  arr(f.entries, () => `${at}.entries`).forEach((en, i) => {
    const p = `${at}.entries[${i}]`;
    const x = en as { block: unknown; naddr: unknown; items: unknown };
    need(isObj(x) && isIndex(x.block, nb) && isU32(x.naddr), () => p, () => `needs block (0-${nb - 1}) and naddr`);
    checkItems(x.items, () => `${p}.items`, blocks[x.block as number]!, undefined, need, arr);
  });
}

const isSrc = (s: unknown): s is SSrc => isReg(s) || (isObj(s) && isI32(s['k']));

function checkInsn(a: SInsn | null, p: () => string, need: Need): void {
  if (a === null) return;
  need(isObj(a),p, () => 'must be an object or null');
  if (a.m !== undefined) {
    const m = a.m;
    need(Array.isArray(m) && m.length === 5 && isIndex(m[0], 4) && isInt(m[1]) && m[1] > 0 && m[1] <= 64 && isReg(m[2]) && (m[3] === -1 || isReg(m[3])) && isI32(m[4]), () => `${p()}.m`, () => 'must be [kind 0-3, size, base, index or -1, offset]');
  }
  if (a.c !== undefined) {
    const c = a.c;
    need(Array.isArray(c) && c.length === 4 && OPS.has(c[0]) && Array.isArray(c[1]) && c[1].every(isReg) && (c[2] === null || isSrc(c[2])) && (c[3] === null || isSrc(c[3])), () => `${p()}.c`, () => 'must be [operation, destination registers, source or null, source or null]');
  }
  need(a.w === undefined || a.w === 1 || a.w === -1, () => `${p()}.w`, () => 'must be 1 or -1');
  if (a.t !== undefined) need(Array.isArray(a.t) && a.t.length === 2 && Array.isArray(a.t[0]) && a.t[0].every(isReg) && isI32(a.t[1]), () => `${p()}.t`, () => 'must be [registers, offset]');
  if (a.v !== undefined) need(Array.isArray(a.v) && a.v.length === 2 && isReg(a.v[0]) && WIDTHS.has(a.v[1]), () => `${p()}.v`, () => 'must be [register, width ±1, 2 or 4]');
}

function checkItems(its: unknown, p: () => string, b: SBlock, e: SEdge | undefined, need: Need, arr: (x: unknown, path: () => string) => unknown[]): void {
  arr(its, p).forEach((x, k) => {
    const it = x as Item;
    const q = (): string => `${p()}[${k}]`;
    need(Array.isArray(it) && typeof it[0] === 'string',q, () => 'must be a step [kind, ...]');
    switch (it[0]) {
      case 'o': need(it.length === 2 && isIndex(it[1], b.insns.length),q, () => `must name an instruction of its block (0-${b.insns.length - 1})`); break;
      case 'd': need(it.length === 1,q, () => "must be ['d']"); break;
      case 'w': need(it.length === 2 && isCount(it[1]) && e !== undefined && e.witness !== undefined,q, () => 'a witness step belongs to an edge with a witness'); break;
      case 'r': need(it.length === 5 && isReg(it[1]) && isCount(it[2]) && WIDTHS.has(it[3]) && isCount(it[4]),q, () => 'must be [r, register, n, width ±1, 2 or 4, nops]'); break;
      case 'g': need(it.length === 2 && isCount(it[1]),q, () => "must be ['g', n]"); break;
      case 'a': need(it.length === 5 && isReg(it[1]) && it[2] === 4 && isReg(it[3]) && (it[4] === 1 || it[4] === -1) && e !== undefined,q, () => 'must be [a, register, 4, register, ±1] on an edge'); break;
      default: need(false,q, () => `unknown step ${quoted(String(it[0]))}`);
    }
  });
}
