/**
 * Boot images of your own, as a user makes them with the built CLI (bin/emu.js): `emu images
 * create` from a program and a host directory with every manifest option, `show` prints the
 * manifest and the files, the image boots, traces and verifies, `extract` and `create
 * --manifest --dir --no-base` give back the same bytes, and the extracted tree packed by GNU tar
 * (gnu and pax formats) boots. Refusals name the file or option.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAll } from '../../images/make.js';
import { openBundle } from '../../format/bundle.js';
import { BASE_ETC_FILES } from '../../format/image.js';
import { built, emu } from '../support/cli.js';
import { toolsAvailable } from '../support/tools.js';

const COMMAND = 'hello\necho piped | cat\nmywc < /data/in.txt\n';
const INPUT = 'two lines\nof three words\n';
const OUTPUT = `hello, world\npiped\n       2       5      ${INPUT.length}\n`;

describe.skipIf(!toolsAvailable() || !built)('emu images create / show / extract (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emu-create-'));
  const image = join(dir, 'own.tar');
  let bin: Map<string, string>;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const b = await buildAll({ flavours: ['bsd'], targets: ['sparc'], programs: ['hello', 'wc', 'init', 'sh', 'echo', 'cat'], native: false });
    bin = b.executables.get('bsd-sparc')!;
    const host = join(dir, 'host');
    mkdirSync(join(host, 'usr', 'local', 'bin'), { recursive: true });
    mkdirSync(join(host, 'data'));
    copyFileSync(bin.get('wc')!, join(host, 'usr', 'local', 'bin', 'mywc'));
    writeFileSync(join(host, 'data', 'in.txt'), INPUT, { mode: 0o640 });
  }, 600_000);

  it('creates an image from a program and a host directory with the manifest options; show prints them', () => {
    const r = emu([
      'images', 'create', '-o', image, bin.get('hello')!, '-d', join(dir, 'host'), '-c', COMMAND,
      '--traced', '/bin/hello,/usr/local/bin/mywc', '--name', 'own-sparc', '--description', 'a test image',
      '--mem', '32M', '--hz', '50', '--cpu-hz', '20000000', '--quantum-ms', '20', '--trbuf-size', '64K',
      '--disk', '5000:1000000', '--store', '0:500000', '--env', 'PATH=/bin:/usr/local/bin', '--env', 'HOME=/',
    ]);
    expect(r.stderr).toBe(`emu images create: ${image}: sparc, 11 files, traced /bin/hello /usr/local/bin/mywc\n`);
    expect(r.status).toBe(0);
    const s = emu(['images', 'show', image]);
    expect(s.status).toBe(0);
    const [head, files] = s.stdout.split('files:\n');
    expect(JSON.parse(head!.replace(/^manifest.json:\n/, ''))).toEqual({
      format: 'emu-image', version: 1, name: 'own-sparc', description: 'a test image', arch: 'sparc', memory: 32 << 20,
      clock: { hz: 50, cpu_hz: 20000000, quantum_ms: 20 },
      devices: { disk: { latency_us: 5000, bandwidth: 1000000 }, store: { latency_us: 0, bandwidth: 500000 } },
      trbuf_size: 65536, traced: ['/bin/hello', '/usr/local/bin/mywc'], init: ['/sbin/init'], env: ['PATH=/bin:/usr/local/bin', 'HOME=/'],
      command: COMMAND,
    });
    const size = (p: string): number => readFileSync(p).length;
    expect(files).toContain(`-rwxr-xr-x ${String(size(bin.get('hello')!)).padStart(8)} /bin/hello   (traced)\n`);
    expect(files).toContain(`-rwxr-xr-x ${String(size(bin.get('wc')!)).padStart(8)} /usr/local/bin/mywc   (traced)\n`);
    expect(files).toContain(`-rw-r----- ${String(INPUT.length).padStart(8)} /data/in.txt\n`);
    expect(files).toContain(`-rwxr-xr-x ${String(size(bin.get('sh')!)).padStart(8)} /bin/sh\n`);
    expect(files).toContain(`/sbin/init   (init)\n`);
    expect(files).toContain(`drwxrwxrwt          /tmp\n`);
    expect(files).toContain(`drwxr-xr-x          /root\n`);
    for (const f of BASE_ETC_FILES) expect(files).toContain(`-rw-r--r-- ${String(f.text.length).padStart(8)} ${f.path}\n`);
    expect(files).toContain(`-rw-r--r--       ${COMMAND.length} /etc/rc   (the command)\n`);
  });

  it('the image boots, traces and verifies', () => {
    const r = emu(['run', image]);
    expect(r.stdout).toBe(OUTPUT);
    expect(r.status).toBe(0);
    const bundle = join(dir, 'own.trace');
    const t = emu(['run', image, '--trace', '--truth', '--out', bundle]);
    expect(t.stdout).toBe(OUTPUT);
    expect(t.status).toBe(0);
    const b = openBundle(bundle);
    expect(b.manifest.image?.name).toBe('own-sparc');
    expect(b.manifest.options.trbufSize).toBe(65536);
    expect(b.manifest.programs.map((p) => p.path)).toEqual(['/bin/hello', '/usr/local/bin/mywc']);
    const v = emu(['regen', bundle, '--verify', '--stats']);
    expect(v.stderr).toMatch(/verified \d+ events of 2 traced processes/);
    expect(v.status).toBe(0);
  });

  it('extract, then create --manifest --dir --no-base, gives the same bytes; GNU tar and pax repacks boot', () => {
    const ex = join(dir, 'ex');
    expect(emu(['images', 'extract', image, ex]).status).toBe(0);
    expect(readFileSync(join(ex, 'root', 'etc', 'rc'), 'utf8')).toBe(COMMAND);
    const again = join(dir, 'again.tar');
    const c = emu(['images', 'create', '--manifest', join(ex, 'manifest.json'), '-d', join(ex, 'root'), '--no-base', '-o', again]);
    expect(c.status).toBe(0);
    expect(readFileSync(again).equals(readFileSync(image))).toBe(true);
    for (const format of ['gnu', 'pax']) {
      const t = join(dir, `${format}.tar`);
      execFileSync('tar', [`--format=${format}`, '-C', ex, '-cf', t, '.']);
      const r = emu(['run', t]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(OUTPUT);
      expect(r.status).toBe(0);
    }
  });

  it('refusals name the file or option and write nothing', () => {
    const out = join(dir, 'bad.tar');
    const arch = emu(['images', 'create', '-o', out, '-t', 'mips', bin.get('hello')!]);
    expect(arch.stderr).toMatch(/hello \(\/bin\/hello\): a sparc executable in a mips image/);
    expect(arch.status).toBe(1);
    const none = emu(['images', 'create', '-o', out, '-t', 'sparc']);
    expect(none.stderr).toMatch(/no command: give --command or --rc/);
    const traced = emu(['images', 'create', '-o', out, bin.get('hello')!, '--traced', '/bin/nope']);
    expect(traced.stderr).toMatch(/bad\.tar: traced program \/bin\/nope is not in the image/);
    const disk = emu(['images', 'create', '-o', out, bin.get('hello')!, '--disk', '10ms']);
    expect(disk.stderr).toMatch(/--disk: '10ms' is not LATENCY_US:BYTES_PER_SECOND/);
    expect(existsSync(out)).toBe(false);
    const ex = emu(['images', 'extract', image, join(dir, 'host')]);
    expect(ex.stderr).toMatch(/host: exists and is not an empty directory/);
    expect(ex.status).toBe(1);
  });
});
