/**
 * The schema cache (format/schema_cache.ts, docs/schema.md "The schema cache") on a small traced
 * bundle (the pipeline image, three traced processes):
 *   - a bundle opened from the cache regenerates exactly its ground truth (--verify's comparison),
 *     with the same events as the bundle opened without it; the cached schemas read as the parsed
 *     ones (every function, the code-address index);
 *   - a damaged, cut or misnamed entry is ignored and made again;
 *   - an entry whose checksum was forged around an invalid function is refused when that
 *     function is read, naming the entry (its functions are checked as they are parsed);
 *   - concurrent processes filling the same empty cache all succeed and leave whole entries only.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBundle } from '../../format/bundle.js';
import { SchemaError } from '../../format/schema.js';
import { schemaFunctions } from '../../format/schema_cache.js';
import { verifyBundle } from '../../regen/verify_multi.js';
import { ROOT_DIR } from '../../images/build.js';
import { BUILT } from './replay/support/cli.js';
import { toolsAvailable } from '../support/tools.js';
import { traceImage } from './support/bundle.js';

const work = mkdtempSync(join(tmpdir(), 'emu-schema-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let bundle = '';

/** A schema as plain data (a cached schema's functions are read through its getter). */
const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

describe.skipIf(!toolsAvailable())('the schema cache', () => {
  beforeAll(async () => {
    const t = await traceImage('pipeline-mipsel', { command: "textgen 2000 | egrep 'kernel|trace' | wc", keep: true });
    expect(t.run.exitCode).toBe(0);
    bundle = join(work, 'bundle');
    cpSync(join(t.dir, 'bundle'), bundle, { recursive: true });
    rmSync(t.dir, { recursive: true, force: true });
  });

  it('a bundle opened from the cache regenerates its ground truth, as one opened without it', () => {
    const cache = join(work, 'cache-1');
    const parsed = openBundle(bundle);
    const first = openBundle(bundle, { schemaCache: cache });
    const entries = readdirSync(cache).sort();
    expect(entries.length).toBe(parsed.programs.size);
    expect(entries.every((e) => /^[0-9a-f]{64}-[0-9a-f]{16}\.bin$/.test(e))).toBe(true);
    const cached = openBundle(bundle, { schemaCache: cache });
    expect(readdirSync(cache).sort()).toEqual(entries);
    for (const [h, p] of parsed.programs) {
      const c = cached.programs.get(h)!.schema;
      expect(plain(first.programs.get(h)!.schema)).toEqual(plain(p.schema));
      expect(schemaFunctions(c).codeAddrs).toEqual(schemaFunctions(p.schema).codeAddrs);
      expect(plain(c)).toEqual(plain(p.schema));
    }
    const a = verifyBundle(parsed);
    const b = verifyBundle(openBundle(bundle, { schemaCache: cache }));
    expect(b.events).toBe(a.events);
    expect(b.totals).toEqual(a.totals);
    expect(a.events).toBeGreaterThan(10_000);
  }, 120_000);

  it('a damaged, cut or misnamed entry is made again', () => {
    const cache = join(work, 'cache-2');
    const parsed = openBundle(bundle);
    openBundle(bundle, { schemaCache: cache });
    const entries = readdirSync(cache).sort();
    const good = entries.map((e) => readFileSync(join(cache, e)));
    const [e0, e1, e2] = entries.map((e) => join(cache, e));
    const flipped = Buffer.from(good[0]!);
    flipped[flipped.length >> 1] ^= 0x40;
    writeFileSync(e0!, flipped);
    writeFileSync(e1!, good[1]!.subarray(0, good[1]!.length - 100));
    writeFileSync(e2!, good[0]!); // another schema's entry under this one's name
    const again = openBundle(bundle, { schemaCache: cache });
    for (const [h, p] of parsed.programs) expect(plain(again.programs.get(h)!.schema)).toEqual(plain(p.schema));
    expect(readdirSync(cache).sort()).toEqual(entries);
    entries.forEach((e, i) => expect(readFileSync(join(cache, e)).equals(good[i]!), e).toBe(true));
  }, 120_000);

  it('an entry forged around an invalid function is refused when the function is read, naming the entry', () => {
    const cache = join(work, 'cache-3');
    openBundle(bundle, { schemaCache: cache });
    const file = join(cache, readdirSync(cache).sort()[0]!);
    const b = readFileSync(file);
    const at = b.indexOf('"wbytes":1');
    expect(at).toBeGreaterThan(0);
    b.write('"wbytes":3', at, 'latin1');
    b.writeUInt32LE(crc32(b.subarray(16)) >>> 0, 8);
    writeFileSync(file, b);
    const opened = openBundle(bundle, { schemaCache: cache });
    const forged = [...opened.programs.values()].find((p) => file.includes(p.info.schemaSha256!))!;
    expect(() => forged.schema.functions).toThrow(SchemaError);
    expect(() => forged.schema.functions).toThrow(new RegExp(`^${file}: functions\\[\\d+\\]\\.wbytes: must be 1 or 2 \\(a damaged schema cache entry`));
  }, 120_000);

  it.skipIf(!BUILT)('concurrent runs filling one cache all succeed and leave whole entries only', async () => {
    const cache = join(work, 'cache-4');
    const script = `const { openBundle } = await import(${JSON.stringify(join(ROOT_DIR, 'dist/format/bundle.js'))});
      const { regenerate } = await import(${JSON.stringify(join(ROOT_DIR, 'dist/regen/multi.js'))});
      const t = regenerate(openBundle(process.argv[1], { schemaCache: process.argv[2] }), { ref() {} });
      process.stdout.write(String(t.events));`;
    const run = promisify(execFile);
    const outs = await Promise.all([0, 1, 2, 3].map(() => run(process.execPath, ['--input-type=module', '-e', script, bundle, cache])));
    const counts = new Set(outs.map((o) => o.stdout));
    expect(counts.size).toBe(1);
    expect(Number([...counts][0])).toBeGreaterThan(10_000);
    // Each entry is byte for byte the one a single run makes (the built code's: the entries' names
    // carry a hash of the code that checks schemas, here the compiled files).
    const single = join(work, 'cache-5');
    await run(process.execPath, ['--input-type=module', '-e', script, bundle, single]);
    const entries = readdirSync(cache).sort();
    expect(entries).toEqual(readdirSync(single).sort());
    for (const e of entries) expect(readFileSync(join(cache, e)).equals(readFileSync(join(single, e))), e).toBe(true);
  }, 120_000);
});
