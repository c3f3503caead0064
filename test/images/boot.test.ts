/**
 * The committed boot images (images/boot/*.tar): each one is valid, matches its spec, holds
 * executables of its architecture, and — where the toolchain is installed (always in CI) — a fresh
 * rebuild from source reproduces it byte for byte.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elfArch, parseElf } from '../../format/elf.js';
import { readImage } from '../../format/image.js';
import { BOOT_DIR, packImages } from '../../images/pack.js';
import { imageSpecs, manifestFor } from '../../images/specs.js';
import { toolsAvailable } from '../support/tools.js';

const specs = imageSpecs();

describe('committed boot images', () => {
  it('exist for every image spec and nothing else', () => {
    const have = existsSync(BOOT_DIR) ? readdirSync(BOOT_DIR).filter((f) => f.endsWith('.tar')).sort() : [];
    expect(have).toEqual(specs.map((s) => `${s.name}.tar`).sort());
  });
  for (const s of specs) {
    it(`${s.name}: valid, as specified, executables for ${s.target}`, () => {
      const img = readImage(join(BOOT_DIR, `${s.name}.tar`));
      expect(img.manifest).toEqual(manifestFor(s));
      expect(Buffer.from(img.files.get('/etc/rc')!.data).toString()).toBe(s.command);
      for (const [path, f] of img.files) {
        if (!(path.startsWith('/bin/') || path.startsWith('/sbin/'))) continue;
        expect(elfArch(parseElf(f.data, `${s.name}:${path}`)), path).toBe(s.target);
        expect(f.mode).toBe(0o755);
      }
    });
  }
});

describe.skipIf(!toolsAvailable())('boot image rebuild', () => {
  it('reproduces every committed image byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-boot-'));
    try {
      const written = await packImages(dir);
      expect(written.length).toBe(specs.length);
      const differ: string[] = [];
      for (const s of specs) {
        const a = readFileSync(join(dir, `${s.name}.tar`));
        const b = readFileSync(join(BOOT_DIR, `${s.name}.tar`));
        if (!a.equals(b)) differ.push(`${s.name}.tar (${a.length} vs committed ${b.length} bytes)`);
      }
      expect(differ, 'rebuilt images differ from the committed ones; run `npm run images` and commit').toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 1_200_000);
});
