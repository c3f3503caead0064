/**
 * Packs the boot images from the BSD-flavour builds (images/boot/<name>.tar).
 * Deterministic: the same sources and compiler give the same bytes (see format/tar.ts).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IMAGES_DIR, PROGRAMS_DIR, buildProgram, variant } from './build.js';
import { BASE_ETC_FILES, writeImage, type BootImage } from '../format/image.js';
import { BASE_PROGRAMS, imageSpecs, manifestFor, type ImageSpec } from './specs.js';

export const BOOT_DIR = join(IMAGES_DIR, 'boot');

function addDirs(img: BootImage, path: string): void {
  const parts = path.split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const d = `/${parts.slice(0, i).join('/')}`;
    if (!img.dirs.has(d)) img.dirs.set(d, { mode: 0o755 });
  }
}

export function addFile(img: BootImage, path: string, data: Uint8Array, mode: number): void {
  addDirs(img, path);
  img.files.set(path, { mode, data });
}

/** Assembles one image from the BSD-flavour executables of its target. */
export async function assembleImage(spec: ImageSpec): Promise<BootImage> {
  const v = variant(spec.target, 'bsd');
  const img: BootImage = { manifest: manifestFor(spec), files: new Map(), dirs: new Map([['/', { mode: 0o755 }]]) };
  for (const d of ['/bin', '/dev', '/etc', '/sbin', '/tmp', '/usr']) img.dirs.set(d, { mode: d === '/tmp' ? 0o1777 : 0o755 });
  const progs = [...new Set([...BASE_PROGRAMS, ...spec.programs])];
  for (const p of progs) {
    const exe = await buildProgram(v, p);
    addFile(img, p === 'init' ? '/sbin/init' : `/bin/${p}`, readFileSync(exe), 0o755);
  }
  for (const f of BASE_ETC_FILES) addFile(img, f.path, Buffer.from(f.text), 0o644);
  img.dirs.set('/root', { mode: 0o755 });
  for (const d of spec.data) addFile(img, d.guest, readFileSync(join(PROGRAMS_DIR, d.source)), 0o644);
  addFile(img, '/etc/rc', Buffer.from(spec.command), 0o644);
  return img;
}

/** Builds every image into outDir (default images/boot); returns the written paths. */
export async function packImages(outDir = BOOT_DIR, names?: readonly string[]): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const specs = imageSpecs().filter((s) => !names || names.includes(s.name));
  const written: string[] = [];
  for (const spec of specs) {
    const bytes = writeImage(await assembleImage(spec));
    const out = join(outDir, `${spec.name}.tar`);
    writeFileSync(`${out}.tmp`, bytes);
    renameSync(`${out}.tmp`, out);
    written.push(out);
  }
  return written;
}
