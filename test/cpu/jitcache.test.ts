/**
 * The translation cache (cpu/jitcache.ts) on both fast engines: a program run with the cache
 * empty, filled, filled after the code ran, damaged, or of another version retires the same
 * instructions and prints the same output as a run without it; a filled cache serves every
 * translation of the same run and V8 accepts its code cache.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, variant } from '../../images/build.js';
import type { TargetName } from '../../format/target.js';
import { configureJitCache, openJitCache, saveJitCaches } from '../../cpu/jitcache.js';
import { MipsLinuxProcess } from '../../bench/linuxuser_mips.js';
import { SparcLinuxProcess } from '../../bench/linuxuser_sparc.js';

const ARGS = ['60', '2'];

interface Outcome {
  insns: number;
  stdout: string;
  status: number | null;
}

function runOnce(target: TargetName, exe: string): Outcome {
  const sandbox = mkdtempSync(join(tmpdir(), 'emu-jit-'));
  const argv = [exe, ...ARGS];
  try {
    if (target === 'sparc') {
      const p = new SparcLinuxProcess({ elf: exe, engine: 'fast', argv, sandbox });
      const insns = p.run();
      p.user.closeAll();
      return { insns, stdout: p.user.stdout.toString('latin1'), status: p.user.exitStatus };
    }
    const p = new MipsLinuxProcess({ elf: exe, engine: 'fast', argv, sandbox });
    const insns = p.run();
    p.user.closeAll();
    return { insns, stdout: p.user.stdout.toString('latin1'), status: p.user.exitStatus };
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

describe('translation cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emu-jitcache-'));
  afterAll(() => {
    configureJitCache(null);
    rmSync(dir, { recursive: true, force: true });
  });
  for (const target of ['mipsel', 'mips', 'sparc'] as TargetName[]) {
    const engine = target === 'sparc' ? 'sparc' : 'mips';
    let exe = '';
    beforeAll(async () => {
      exe = await buildProgram(variant(target, 'linux'), 'sgefa');
    }, 1_200_000);
    it(`${target}: same run with the cache empty, filled, warm, damaged and of another version`, () => {
      configureJitCache(null);
      const plain = runOnce(target, exe);
      expect(plain.status).toBe(0);
      const cfg = { dir: join(dir, target), version: 'v1', bucket: 'sgefa' };
      const run = (version = 'v1'): { o: Outcome; hits: number; added: number; rejected: boolean } => {
        configureJitCache({ ...cfg, version });
        const o = runOnce(target, exe);
        const c = openJitCache(engine)!;
        const r = { o, hits: c.hits, added: c.added, rejected: c.rejected };
        saveJitCaches();
        return r;
      };
      const empty = run();
      expect(empty.o).toEqual(plain);
      expect(empty.hits).toBe(0);
      expect(empty.added).toBeGreaterThan(10);
      const filled = run();
      expect(filled.o).toEqual(plain);
      expect(filled.added).toBe(0);
      expect(filled.hits).toBe(empty.added);
      expect(filled.rejected).toBe(false);
      const warm = run();
      expect(warm.o).toEqual(plain);
      expect(warm.hits).toBe(empty.added);
      expect(warm.rejected).toBe(false);
      // Another version: nothing from the file.
      const other = run('v2');
      expect(other.o).toEqual(plain);
      expect(other.hits).toBe(0);
      // Damaged: one byte of the source changed (the same length: V8 alone would take its code cache), then the file cut.
      const [file] = readdirSync(cfg.dir).filter((f) => f.endsWith('.jit'));
      const path = join(cfg.dir, file!);
      const b = readFileSync(path);
      const nl = b.indexOf(10);
      b[nl + 200] = 0x28; // '(' in the middle of the source: a syntax error
      writeFileSync(path, b);
      const damaged = run('v2');
      expect(damaged.o).toEqual(plain);
      expect(damaged.hits).toBe(0);
      writeFileSync(path, readFileSync(path).subarray(0, 1000));
      const cut = run('v2');
      expect(cut.o).toEqual(plain);
      expect(cut.hits).toBe(0);
      configureJitCache(null);
    }, 300_000);
  }
});
