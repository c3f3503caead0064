/**
 * The schema cache (docs/schema.md, "The schema cache"): a bundle's schema kept in a form that
 * opens without decompressing, parsing and checking all of its JSON. Regeneration enters a small
 * part of a program's functions (a sixth of them on the demo bundles), so a cached schema is its
 * header (everything but the functions) parsed at once, the index of its code addresses as
 * integers, and one JSON text per function, parsed and checked (checkSchemaFunction) the first
 * time someone asks for that function.
 *
 * An entry is named by the sha256 of the schema file as stored in the bundle and a hash of the
 * code that decides whether a schema is valid (this file, format/schema.ts, schema_check.ts), so
 * an entry is only ever made from bytes that passed parseSchema's whole check by the same code.
 * It is written under a name of its own (pid) and renamed into place: concurrent runs see a whole
 * entry or none. An entry that is damaged (CRC-32), cut, or not what its name says is ignored and
 * made again. The cache directory is chosen by the command (bin/schema_cache_dir.ts); entries can
 * be deleted at any time.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { checkSchemaFunction } from './schema_check.js';
import { parseSchema, SchemaError, type SFunction, type Schema } from './schema.js';

const MAGIC = 'EMUSCHC1';
/** Bytes before the header JSON: magic, CRC-32 of everything after these 16 bytes, header length. */
const HEAD = 16;
const ROLES: readonly (SFunction['role'] | null)[] = [null, 'setjmp', 'longjmp', 'sigtramp', 'entry'];

/** A schema's functions as regeneration reads them: by index, each parsed on first use. */
export interface SchemaFunctions {
  readonly count: number;
  addr(i: number): number;
  role(i: number): SFunction['role'];
  /** Blocks of function i. */
  blocks(i: number): number;
  get(i: number): SFunction;
  /**
   * Where code addresses lead, in the schema's order (a later entry for the same address wins):
   * triples [address (as int32), function, block * 2 + 1 when reached through the entry's stub].
   * Blocks at their original and new addresses (tail and EXIT vertices have none), then entries.
   */
  readonly codeAddrs: Int32Array;
}

const sources = new WeakMap<Schema, SchemaFunctions>();

/** The functions of a schema, parsed or cached (the code-address index is computed once). */
export function schemaFunctions(s: Schema): SchemaFunctions {
  let f = sources.get(s);
  if (!f) {
    const fs = s.functions;
    f = { count: fs.length, addr: (i) => fs[i]!.addr, role: (i) => fs[i]!.role, blocks: (i) => fs[i]!.blocks.length, get: (i) => fs[i]!, codeAddrs: codeAddresses(fs) };
    sources.set(s, f);
  }
  return f;
}

function codeAddresses(fs: readonly SFunction[]): Int32Array {
  const out: number[] = [];
  fs.forEach((f, fi) => {
    f.blocks.forEach((b, bi) => {
      if (b.term === 'tail' || b.term === 'exit') return;
      out.push(b.addr | 0, fi, 2 * bi + (b.entry === true ? 1 : 0));
      if (b.naddr !== undefined && !Number.isNaN(b.naddr)) out.push(b.naddr | 0, fi, 2 * bi);
    });
    for (const en of f.entries) out.push(en.naddr | 0, fi, 2 * en.block + 1);
  });
  return Int32Array.from(out);
}

let codeKey: string | null | undefined;
/**
 * A hash of the code that decides what a valid schema is (an entry is valid for that code only),
 * or null when that code cannot be read (then no entry is used).
 */
function checkerHash(): string | null {
  if (codeKey !== undefined) return codeKey;
  const h = createHash('sha256');
  // The compiled files (dist/format/*.js), or the sources where they run as such (the tests).
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  try {
    for (const f of ['schema', 'schema_check', 'schema_cache']) h.update(readFileSync(fileURLToPath(new URL(`./${f}.${ext}`, import.meta.url))));
  } catch {
    return (codeKey = null);
  }
  return (codeKey = h.digest('hex').slice(0, 16));
}

/**
 * A schema from its stored bytes (gzip JSON or JSON) whose sha256 is `sha`: from the cache in
 * `cacheDir` when it holds a valid entry, else parsed and checked whole (parseSchema) and written
 * there. Without `cacheDir`, parseSchema alone. Errors are parseSchema's, naming `file`.
 */
export function openSchema(stored: Uint8Array, sha: string, file: string, cacheDir?: string): Schema {
  const code = checkerHash();
  if (cacheDir === undefined || code === null) return parseSchema(stored, file);
  const key = `${sha}-${code}`;
  const entry = join(cacheDir, `${key}.bin`);
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(entry);
  } catch {
    bytes = null;
  }
  const cached = bytes ? readEntry(bytes, key, entry) : null;
  if (cached) return cached;
  const schema = parseSchema(stored, file);
  try {
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${entry}.${process.pid}`;
    writeFileSync(tmp, makeEntry(schema, key));
    renameSync(tmp, entry);
  } catch {
    // No cache this time (a read-only or full disk): the schema is parsed all the same.
    rmSync(`${entry}.${process.pid}`, { force: true });
  }
  return schema;
}

/** An entry's bytes (docs/schema.md, "The schema cache"). */
function makeEntry(schema: Schema, key: string): Uint8Array {
  const fs = schema.functions;
  const codeAddrs = schemaFunctions(schema).codeAddrs;
  const texts = fs.map((f) => Buffer.from(JSON.stringify(f), 'utf8'));
  let off = 0;
  const funcs = fs.map((f, i) => {
    const d = [f.addr, ROLES.indexOf(f.role ?? null), f.blocks.length, off, texts[i]!.length];
    off += texts[i]!.length;
    return d;
  });
  const { functions: _, ...rest } = schema;
  const header = Buffer.from(JSON.stringify({ key, schema: rest, functions: funcs, codeAddrs: codeAddrs.length }), 'utf8');
  const at = (HEAD + header.length + 3) & ~3;
  const out = Buffer.alloc(at + 4 * codeAddrs.length + off);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(header.length, 12);
  header.copy(out, HEAD);
  for (let i = 0; i < codeAddrs.length; i++) out.writeInt32LE(codeAddrs[i]!, at + 4 * i);
  let p = at + 4 * codeAddrs.length;
  for (const t of texts) {
    t.copy(out, p);
    p += t.length;
  }
  out.writeUInt32LE(crc32(out.subarray(HEAD)) >>> 0, 8);
  return out;
}

const isIndex = (x: unknown, n: number): x is number => Number.isSafeInteger(x) && (x as number) >= 0 && (x as number) < n;

/** The schema an entry holds, or null when the entry is damaged, cut or not the one named `key`. */
function readEntry(b: Buffer, key: string, entry: string): Schema | null {
  if (b.length < HEAD || b.toString('latin1', 0, 8) !== MAGIC || (crc32(b.subarray(HEAD)) >>> 0) !== b.readUInt32LE(8)) return null;
  const hlen = b.readUInt32LE(12);
  if (HEAD + hlen > b.length) return null;
  let h: { key: string; schema: Omit<Schema, 'functions'>; functions: number[][]; codeAddrs: number };
  try {
    h = JSON.parse(b.toString('utf8', HEAD, HEAD + hlen));
  } catch {
    return null;
  }
  if (!h || h.key !== key || typeof h.schema !== 'object' || h.schema === null || !Array.isArray(h.functions) || !Number.isSafeInteger(h.codeAddrs) || h.codeAddrs % 3 !== 0) return null;
  const at = (HEAD + hlen + 3) & ~3;
  const textAt = at + 4 * h.codeAddrs;
  if (textAt > b.length) return null;
  const n = h.functions.length;
  const textLen = b.length - textAt;
  for (const d of h.functions) {
    if (!Array.isArray(d) || d.length !== 5 || !Number.isSafeInteger(d[0]) || !isIndex(d[1], ROLES.length) || !isIndex(d[2], 2 ** 31)
      || !isIndex(d[3], textLen + 1) || !isIndex(d[4], textLen + 1 - d[3]!)) return null;
  }
  const codeAddrs = new Int32Array(h.codeAddrs);
  for (let i = 0; i < codeAddrs.length; i++) codeAddrs[i] = b.readInt32LE(at + 4 * i);
  for (let i = 0; i < codeAddrs.length; i += 3) {
    const fi = codeAddrs[i + 1]!;
    if (!isIndex(fi, n) || !isIndex(codeAddrs[i + 2]!, 2 * h.functions[fi]![2]!)) return null;
  }
  const parsed = new Array<SFunction | undefined>(n);
  const get = (i: number): SFunction => {
    const had = parsed[i];
    if (had) return had;
    const d = h.functions[i]!;
    let f: SFunction;
    try {
      f = JSON.parse(b.toString('utf8', textAt + d[3]!, textAt + d[3]! + d[4]!)) as SFunction;
    } catch (e) {
      throw new SchemaError(entry, `functions[${i}]: not JSON (a damaged schema cache entry: delete it, or run with --no-cache): ${(e as Error).message}`);
    }
    checkSchemaFunction(f, i, (path, what) => {
      throw new SchemaError(entry, `${path}: ${what} (a damaged schema cache entry: delete it, or run with --no-cache)`);
    });
    if (f.addr !== d[0] || (f.role ?? null) !== ROLES[d[1]!] || f.blocks.length !== d[2]) {
      throw new SchemaError(entry, `functions[${i}]: differs from the entry's index (a damaged schema cache entry: delete it, or run with --no-cache)`);
    }
    return (parsed[i] = f);
  };
  const schema = { ...h.schema } as Schema;
  let all: SFunction[] | null = null;
  Object.defineProperty(schema, 'functions', {
    enumerable: true,
    get: () => (all ??= Array.from({ length: n }, (_, i) => get(i))),
  });
  sources.set(schema, {
    count: n, addr: (i) => h.functions[i]![0]!, role: (i) => ROLES[h.functions[i]![1]!] ?? undefined, blocks: (i) => h.functions[i]![2]!, get, codeAddrs,
  });
  return schema;
}
