/**
 * The boot image container: ustar round trips, readers reject malformed archives with the file
 * name and the problem, and the manifest validator names the bad field. GNU tar reads our
 * archives, as an independent check of the ustar encoding, and our reader reads GNU tar's own
 * formats (gnu, pax, ustar) with long names, hard links and './' paths.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

const hasTar = process.env['CI'] === 'true' || existsSync('/usr/bin/tar') || existsSync('/bin/tar');

describe.skipIf(!hasTar)('archives made by GNU tar', () => {
  /** Longer than ustar's 100-byte name field; ustar splits it into prefix and name. */
  const longOf = (format: string): [string, string] => (format === 'ustar' ? ['d'.repeat(90), 'f'.repeat(60)] : ['d'.repeat(120), 'f'.repeat(110)]);
  /** A tree with a long path, an empty file, a hard link; archived by tar in `format`. */
  function archive(format: string): Uint8Array {
    const d = mkdtempSync(join(tmpdir(), 'emu-gnutar-'));
    const [dir, name] = longOf(format);
    try {
      const t = join(d, 't');
      mkdirSync(join(t, 'a', dir), { recursive: true });
      writeFileSync(join(t, 'a', 'file.txt'), 'hello\n', { mode: 0o640 });
      writeFileSync(join(t, 'a', 'empty'), '');
      writeFileSync(join(t, 'a', dir, name), Buffer.alloc(3000, 9), { mode: 0o755 });
      linkSync(join(t, 'a', 'file.txt'), join(t, 'a', 'hard'));
      execFileSync('tar', [`--format=${format}`, '--sort=name', '-C', t, '-cf', join(d, 'x.tar'), '.']);
      return new Uint8Array(readFileSync(join(d, 'x.tar')));
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  }
  for (const format of ['gnu', 'pax', 'ustar', 'oldgnu']) {
    it(`reads --format=${format}`, () => {
      const [dir, name] = longOf(format);
      const long = `${dir}/${name}`;
      const back = new Map(readTar(archive(format), 'g.tar').map((e) => [e.path, e]));
      expect([...back.keys()].sort()).toEqual(['a', `a/${dir}`, 'a/empty', 'a/file.txt', 'a/hard', `a/${long}`].sort());
      expect(back.get('a')!.type).toBe('dir');
      expect(back.get('a/file.txt')!.mode).toBe(0o640);
      expect(Buffer.from(back.get('a/hard')!.data!).toString()).toBe('hello\n');
      expect(back.get('a/empty')!.data!.length).toBe(0);
      expect(Buffer.from(back.get(`a/${long}`)!.data!).equals(Buffer.alloc(3000, 9))).toBe(true);
    });
  }
  it('names a symbolic link, which it does not support', () => {
    const d = mkdtempSync(join(tmpdir(), 'emu-gnutar-'));
    try {
      mkdirSync(join(d, 't'));
      symlinkSync('elsewhere', join(d, 't', 'ln'));
      execFileSync('tar', ['--format=gnu', '-C', join(d, 't'), '-cf', join(d, 'x.tar'), 'ln']);
      expect(() => readTar(readFileSync(join(d, 'x.tar')), 's.tar')).toThrow(/s\.tar: 'ln' is a symbolic link \(-> 'elsewhere'\): only regular files, hard links and directories are supported/);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
  it('rejects an archive of another kind', () => {
    const b = writeTar(entries);
    b.set(Buffer.from('xxxxx'), 257);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : b[i]!;
    b.set(Buffer.from(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    expect(() => readTar(b, 'v7.tar')).toThrow(/v7\.tar: not a ustar, GNU or pax archive \(magic 'xxxxx' at byte 257\)/);
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
    expect(() => parseImage(writeImage(img), 'i.tar')).toThrow(/i\.tar: init program \/sbin\/init is not in the image/);
  });
  it('rejects an archive without a manifest, or with two', () => {
    expect(() => parseImage(writeTar(entries), 'n.tar')).toThrow(/n\.tar: no manifest.json file entry \(not a boot image\)/);
    const two = readTar(writeImage(sampleImage()), 'x');
    expect(() => parseImage(writeTar([...two, two[0]!]), 'two.tar')).toThrow(/two\.tar: more than one manifest.json entry/);
  });
});
