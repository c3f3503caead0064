/**
 * The instrumentation cache (issue 20): `emu instrument` and `emu run --trace` instrument an
 * executable once per content and instrumenter. An entry is the instrumented executable and its
 * gzip-compressed schema, in QPT_CACHE_DIR (images/build/qpt-cache, git-ignored; EMU_QPT_CACHE
 * overrides it), named `<sha256 of the executable>-<options>-<instrumenter hash>`, where the
 * instrumenter hash covers the code whose output it is (tracer/, and the opcode tables, queries
 * and formats it reads in cpu/ and format/). Safe under concurrent runs: each file is written
 * under a name of its own (pid) and renamed into place, so a reader sees a whole old file or a
 * whole new one; a pair whose schema does not name the executable beside it (sha256) is made again.
 * `--no-cache` bypasses it (neither read nor written).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR } from '../images/dirs.js';
import { instrument, type InstrumentOptions } from '../tracer/instrument.js';
import { parseSchema, serializeSchema, sha256, type Schema } from '../format/schema.js';
import { SYSCALLS_MASTER } from '../format/syscalltab.js';

export const QPT_CACHE_DIR = process.env['EMU_QPT_CACHE'] || join(BUILD_DIR, 'qpt-cache');

let instrumenterKey: string | null = null;
/**
 * A hash of the instrumenter's code — tracer/ and what it reads: the opcode tables and queries of
 * cpu/, the formats of format/, and os/syscalls.master (the system-call numbers of the prologue
 * and of its failure paths) — so a cached instrumentation is valid for that code only.
 */
export function instrumenterHash(): string {
  if (instrumenterKey) return instrumenterKey;
  const h = createHash('sha256');
  const add = (dir: string, name: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.isDirectory()) add(join(dir, e.name), `${name}/${e.name}`);
      else if (e.name.endsWith('.js') || e.name.endsWith('.ts')) {
        h.update(`${name}/${e.name}`);
        h.update(readFileSync(join(dir, e.name)));
      }
    }
  };
  for (const d of ['tracer', 'cpu', 'format']) add(fileURLToPath(new URL(`../${d}/`, import.meta.url)), d);
  h.update('os/syscalls.master');
  h.update(readFileSync(SYSCALLS_MASTER));
  return (instrumenterKey = h.digest('hex').slice(0, 16));
}

export interface Instrumented {
  path: string;
  original: Uint8Array;
  elf: Uint8Array;
  schema: Schema;
  /** The schema as stored (gzip JSON): made on first use (an `emu instrument` that writes plain JSON never needs it). */
  readonly schemaGz: Uint8Array;
  cached: boolean;
}

export interface CacheOptions extends InstrumentOptions {
  /** The cache directory (default QPT_CACHE_DIR). */
  cacheDir?: string;
  /** Neither read nor write the cache. */
  noCache?: boolean;
}

/** An Instrumented whose gzip schema is `gz`, or is serialized from `schema` when first read. */
function instrumented(path: string, original: Uint8Array, elf: Uint8Array, schema: Schema, cached: boolean, gz?: Uint8Array): Instrumented {
  let z = gz;
  return {
    path, original, elf, schema, cached,
    get schemaGz(): Uint8Array {
      return (z ??= serializeSchema(schema, true));
    },
  };
}

/** Instruments an executable, or takes the result from the cache. */
export function instrumentCached(bytes: Uint8Array, path: string, opts: CacheOptions = {}): Instrumented {
  const io: InstrumentOptions = opts.carrySp === false ? { carrySp: false } : {};
  const made = (): Instrumented => {
    const r = instrument(bytes, path, io);
    return instrumented(path, bytes, r.elf, r.schema, false);
  };
  if (opts.noCache) return made();
  const dir = opts.cacheDir ?? QPT_CACHE_DIR;
  const key = `${sha256(bytes)}-${io.carrySp === false ? 'nocarry' : 'carry'}-${instrumenterHash()}`;
  const exeF = join(dir, `${key}.qpt`);
  const schF = join(dir, `${key}.schema.json.gz`);
  if (existsSync(exeF) && existsSync(schF)) {
    const elf = new Uint8Array(readFileSync(exeF));
    const schemaGz = new Uint8Array(readFileSync(schF));
    try {
      const schema = parseSchema(schemaGz, schF);
      if (schema.instrumented.sha256 === sha256(elf)) {
        // The entry may have been made for the same bytes under another name.
        if (schema.original.file === path) return instrumented(path, bytes, elf, schema, true, schemaGz);
        schema.original.file = path;
        return instrumented(path, bytes, elf, schema, true);
      }
    } catch {
      // A damaged entry is made again.
    }
  }
  const r = made();
  mkdirSync(dir, { recursive: true });
  const tmp = `.${process.pid}.tmp`;
  writeFileSync(exeF + tmp, r.elf);
  writeFileSync(schF + tmp, r.schemaGz);
  renameSync(exeF + tmp, exeF);
  renameSync(schF + tmp, schF);
  return r;
}
