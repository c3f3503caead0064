/**
 * The instrumentation cache (bin/qpt_cache.ts): keyed by the executable's content, the options and
 * the instrumenter; a second instrumentation is read from it; --no-cache neither reads nor writes
 * it; a damaged entry is made again; two processes instrumenting the same program at once both
 * get whole, identical results.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { instrumentCached } from '../../bin/qpt_cache.js';
import { sha256 } from '../../format/schema.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf } from './support/trace.js';

const have = toolsAvailable();
const dir = mkdtempSync(join(tmpdir(), 'emu-qpt-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function emu(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [join(__dirname, '../../bin/emu.js'), ...args], { env: { ...process.env, ...env } });
    let stderr = '';
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    p.on('close', (status) => done({ status, stderr }));
  });
}

describe.skipIf(!have)('instrumentation cache', () => {
  it('hit, miss, --no-cache, a damaged entry, the options in the key', { timeout: 300_000 }, async () => {
    const { path, exe } = await exeOf('mipsel', 'hello');
    const cacheDir = join(dir, 'one');
    const a = instrumentCached(exe, path, { cacheDir });
    expect(a.cached).toBe(false);
    const b = instrumentCached(exe, path, { cacheDir });
    expect(b.cached).toBe(true);
    expect(sha256(b.elf)).toBe(sha256(a.elf));
    expect(b.schema).toEqual(a.schema);
    expect(readdirSync(cacheDir).sort().map((f) => f.replace(/^[0-9a-f]{64}-carry-[0-9a-f]{16}/, 'KEY'))).toEqual(['KEY.qpt', 'KEY.schema.json.gz']);
    // Another name for the same bytes: the schema names the file it was asked for.
    expect(instrumentCached(exe, '/elsewhere/hello', { cacheDir }).schema.original.file).toBe('/elsewhere/hello');
    const c = instrumentCached(exe, path, { cacheDir: join(dir, 'none'), noCache: true });
    expect(c.cached).toBe(false);
    expect(() => readdirSync(join(dir, 'none'))).toThrow();
    const schemaFile = readdirSync(cacheDir).find((f) => f.endsWith('.gz'))!;
    writeFileSync(join(cacheDir, schemaFile), readFileSync(join(cacheDir, schemaFile)).subarray(0, 100));
    const d = instrumentCached(exe, path, { cacheDir });
    expect(d.cached).toBe(false);
    expect(sha256(d.elf)).toBe(sha256(a.elf));
    const e = instrumentCached(exe, path, { cacheDir, carrySp: false });
    expect(e.cached).toBe(false);
    expect(e.schema.options.carrySp).toBe(false);
    expect(instrumentCached(exe, path, { cacheDir, carrySp: false }).cached).toBe(true);
  });

  it('two emu instrument processes at once: both succeed with the same bytes; one entry', { timeout: 300_000 }, async () => {
    const { path } = await exeOf('sparc', 'hello');
    const env = { EMU_QPT_CACHE: join(dir, 'two') };
    const outs = [join(dir, 'a.qpt'), join(dir, 'b.qpt')];
    const rs = await Promise.all(outs.map((o) => emu(['instrument', path, '-o', o], env)));
    for (const r of rs) expect(r.status, r.stderr).toBe(0);
    expect(sha256(readFileSync(outs[0]!))).toBe(sha256(readFileSync(outs[1]!)));
    expect(readdirSync(env.EMU_QPT_CACHE).filter((f) => !f.includes('.tmp'))).toHaveLength(2);
    const again = await emu(['instrument', path, '-o', join(dir, 'c.qpt'), '--stats'], env);
    expect(again.stderr).toMatch(/from the instrumentation cache/);
    expect(sha256(readFileSync(join(dir, 'c.qpt')))).toBe(sha256(readFileSync(outs[0]!)));
  });
});
