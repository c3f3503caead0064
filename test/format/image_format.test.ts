/**
 * The boot image container: ustar round trips, readers reject malformed archives with the file
 * name and the problem, and the manifest validator names the bad field. GNU tar (when present) reads
 * our archives, as an independent check of the ustar encoding.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTar, writeTar, type TarEntry } from '../../format/tar.js';
import { parseImage, writeImage, type BootImage } from '../../format/image.js';
import { imageSpecs, manifestFor } from '../../images/specs.js';

const entries: TarEntry[] = [
  { path: 'a', type: 'dir', mode: 0o755 },
  { path: 'a/file.txt', type: 'file', mode: 0o644, data: Buffer.from('hello\n') },
  { path: 'a/empty', type: 'file', mode: 0o600, data: new Uint8Array() },
  { path: `a/${'d'.repeat(90)}/${'f'.repeat(60)}`, type: 'file', mode: 0o755, data: new Uint8Array(1000).fill(7) },
];

function sampleImage(): BootImage {
  const spec = imageSpecs()[0]!;
  const m = manifestFor(spec);
  m.traced = ['/bin/sh'];
  return {
    manifest: m,
    files: new Map([['/sbin/init', { mode: 0o755, data: Buffer.from('\x7fELF...') }], ['/bin/sh', { mode: 0o755, data: Buffer.from('sh') }], ['/etc/rc', { mode: 0o644, data: Buffer.from('echo hi\n') }]]),
    dirs: new Map([['/', { mode: 0o755 }], ['/sbin', { mode: 0o755 }], ['/bin', { mode: 0o755 }], ['/etc', { mode: 0o755 }]]),
  };
}

describe('ustar', () => {
  it('round-trips entries, including a path that needs the prefix field', () => {
    const back = readTar(writeTar(entries), 'x.tar');
    expect(back.map((e) => [e.path, e.type, e.mode, e.data ? Buffer.from(e.data).toString('hex') : null]))
      .toEqual(entries.map((e) => [e.path, e.type, e.mode, e.type === 'file' ? Buffer.from(e.data!).toString('hex') : null]));
  });
  it('is deterministic', () => {
    expect(Buffer.from(writeTar(entries)).equals(Buffer.from(writeTar(entries)))).toBe(true);
  });
  it('rejects a flipped header byte with the file name and offset', () => {
    const b = writeTar(entries);
    b[512 + 10] ^= 1;
    expect(() => readTar(b, 'bad.tar')).toThrow(/bad\.tar: header checksum mismatch at byte 512/);
  });
  it('rejects a truncated archive', () => {
    const b = writeTar(entries).subarray(0, 1024 + 100);
    expect(() => readTar(b, 't.tar')).toThrow(/t\.tar: truncated archive/);
  });
  it.skipIf(process.env['CI'] !== 'true' && !existsSync('/usr/bin/tar') && !existsSync('/bin/tar'))('is read by GNU tar', () => {
    const d = mkdtempSync(join(tmpdir(), 'emu-tar-'));
    try {
      writeFileSync(join(d, 'x.tar'), writeTar(entries));
      const list = execFileSync('tar', ['-tvf', join(d, 'x.tar')], { encoding: 'utf8' });
      expect(list).toContain(`a/${'d'.repeat(90)}/${'f'.repeat(60)}`);
      expect(list).toMatch(/-rw-r--r-- root\/root\s+6 1970-01-01 00:00 a\/file.txt/);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('boot image', () => {
  it('round-trips through writeImage/parseImage', () => {
    const img = sampleImage();
    const back = parseImage(writeImage(img), 'img.tar');
    expect(back.manifest).toEqual(img.manifest);
    expect([...back.files.keys()].sort()).toEqual([...img.files.keys()].sort());
    expect([...back.dirs.keys()].sort()).toEqual([...img.dirs.keys()].sort());
  });
  it('names the bad manifest field', () => {
    const img = sampleImage();
    (img.manifest as unknown as Record<string, unknown>)['memory'] = 1000;
    expect(() => parseImage(writeImage(img), 'm.tar')).toThrow(/m\.tar: manifest.json: "memory" must be a positive multiple of 4096/);
  });
  it('rejects an image whose init is missing', () => {
    const img = sampleImage();
    img.files.delete('/sbin/init');
    expect(() => parseImage(writeImage(img), 'i.tar')).toThrow(/i\.tar: init program "\/sbin\/init" is not in the image/);
  });
  it('rejects an archive without a manifest first', () => {
    expect(() => parseImage(writeTar(entries), 'n.tar')).toThrow(/n\.tar: the first archive entry must be manifest.json/);
  });
});
