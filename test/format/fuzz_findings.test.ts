/**
 * The findings of `npm run fuzz` (test/fuzz/), each as the smallest input that showed it, built
 * here: every reader throws its documented error type, with a one-line message naming the file,
 * quickly. Each of these failed before its fix (a hang, a TypeError, code injection into the
 * compiled schema, a message over several lines, a damaged ground truth accepted).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockCrc, BundleError, checkedTruthFile, openBundleHead, type Bundle } from '../../format/bundle.js';
import { ElfError, parseElf } from '../../format/elf.js';
import { ImageError, parseImage } from '../../format/image.js';
import { parseSchema, SchemaError, type Schema } from '../../format/schema.js';
import { TarError, writeTar } from '../../format/tar.js';
import { readRunStats } from '../../regen/replay/open.js';
import { compileFunc } from '../../regen/compile.js';
import { RegenProgram } from '../../regen/model.js';

const work = mkdtempSync(join(tmpdir(), 'emu-fuzz-findings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `fn`, which must throw `cls` with a one-line message containing `file`; returns the message. */
function refuses(fn: () => unknown, cls: new (...a: never[]) => Error, file: string): string {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'throws').toBeInstanceOf(cls);
  const msg = (err as Error).message;
  expect(msg).not.toMatch(/\n/);
  expect(msg).toContain(file);
  return msg;
}

/** An ELF32 header (little-endian MIPS) followed by `shdrs` section headers of 40 bytes. */
function elf(shdrs: number[][], shstrndx: number): Uint8Array {
  const b = new Uint8Array(52 + 40 * shdrs.length);
  const dv = new DataView(b.buffer);
  b.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1]);
  dv.setUint16(16, 2, true);
  dv.setUint16(18, 8, true);
  dv.setUint32(20, 1, true);
  dv.setUint32(32, 52, true); // e_shoff
  dv.setUint16(40, 52, true);
  dv.setUint16(46, 40, true);
  dv.setUint16(48, shdrs.length, true);
  dv.setUint16(50, shstrndx, true);
  shdrs.forEach((h, i) => h.forEach((v, k) => dv.setUint32(52 + 40 * i + 4 * k, v >>> 0, true)));
  return b;
}

describe('ELF32 (fuzz target elf)', () => {
  it('a section-name table with no contents and a 4 GiB size: an error at once, not a 4-billion-step scan', () => {
    // [name, type, flags, addr, offset, size, link, info, align, entsize]: section 1 is the
    // name table, of type SHT_NULL (never range-checked) and size 0xffffffff.
    const b = elf([[0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [1 << 20, 0, 0, 0, 0, 0xffffffff, 0, 0, 0, 0]], 1);
    const t = performance.now();
    const msg = refuses(() => parseElf(b, 'bad.elf'), ElfError, 'bad.elf');
    expect(performance.now() - t).toBeLessThan(100);
    expect(msg).toContain('e_shstrndx links to section 1, which has no contents');
  });

  it('a name offset past its string table names the section', () => {
    const b = elf([[0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [99, 3, 0, 0, 0, 52, 0, 0, 0, 0]], 1);
    expect(refuses(() => parseElf(b, 'bad.elf'), ElfError, 'bad.elf')).toContain('section 1: name offset 99 is outside its string table (section 1, 52 bytes)');
  });
});

const MANIFEST = {
  format: 'emu-image', version: 1, name: 't', description: '', arch: 'mipsel', memory: 1 << 20,
  clock: { hz: 100, cpu_hz: 1000, quantum_ms: 10 }, devices: { disk: { latency_us: 0, bandwidth: 1 }, store: { latency_us: 0, bandwidth: 1 } },
  trbuf_size: 4096, traced: [], init: ['/sbin/init'], env: [], command: '',
};
const image = (manifest: string): Uint8Array => writeTar([
  { path: 'manifest.json', type: 'file', mode: 0o644, data: Buffer.from(manifest) },
  { path: 'root', type: 'dir', mode: 0o755 },
  { path: 'root/sbin', type: 'dir', mode: 0o755 },
  { path: 'root/sbin/init', type: 'file', mode: 0o755, data: Buffer.from('x') },
]);

describe('boot images (fuzz targets image, image-manifest)', () => {
  it('the valid image reads', () => {
    expect(parseImage(image(JSON.stringify(MANIFEST)), 'ok.tar').manifest.name).toBe('t');
  });

  it('a header checksum field with a newline: one line', () => {
    const b = image(JSON.stringify(MANIFEST));
    b.set(Buffer.from('1\n2'), 148);
    expect(refuses(() => parseImage(b, 'bad.tar'), TarError, 'bad.tar')).toContain('bad checksum field "1\\n2');
  });

  it('a manifest whose version is a text of several lines, or that is not JSON: one line', () => {
    refuses(() => parseImage(image(JSON.stringify({ ...MANIFEST, version: 'a\nb\nc' })), 'bad.tar'), ImageError, 'bad.tar');
    refuses(() => parseImage(image('{\n "format": t\n}'), 'bad.tar'), ImageError, 'bad.tar');
  });
});

describe('bundle manifests (fuzz target bundle-manifest)', () => {
  const stream = (file: string) => ({ file, bytes: 0, block: 65536, crc32: [] });
  const good = {
    format: 'emu-trace-bundle', version: 1, arch: 'mipsel', cpuHz: 25e6, run: { cycles: 10 }, programs: [],
    streams: { trace: stream('trace'), sched: stream('sched') },
  };
  const open = (m: unknown): string => {
    const dir = mkdtempSync(join(work, 'b-'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    return refuses(() => openBundleHead(dir), BundleError, join(dir, 'manifest.json'));
  };

  it('a program without its schema file name: a BundleError naming the field (was a TypeError from path.join)', () => {
    expect(open({ ...good, programs: [{ path: '/bin/x', instrumented: { sha256: 'a'.repeat(64) } }] })).toContain('"programs[0]".schema must name a file inside the bundle');
  });

  it('a schema or stream file outside the bundle, a checksum list of the wrong length, no run.cycles', () => {
    expect(open({ ...good, programs: [{ path: '/bin/x', schema: '../../etc/passwd', instrumented: { sha256: 'a'.repeat(64) } }] })).toContain('inside the bundle');
    expect(open({ ...good, streams: { ...good.streams, trace: { ...stream('/etc/passwd') } } })).toContain('"streams.trace"');
    expect(open({ ...good, streams: { ...good.streams, sched: { ...stream('sched'), bytes: 70000 } } })).toContain('must hold 2 CRC-32 values');
    expect(open({ ...good, run: {} })).toContain('"run.cycles"');
  });
});

/** The smallest valid schema: one function of one halting block with a load. */
function schema(m: unknown = [0, 4, 29, -1, 8]): Schema {
  const h = 'ab'.repeat(32);
  return {
    format: 'emu-schema', version: 6, arch: 'mipsel', isa: 'mips', original: { file: 'x', sha256: h, size: 1 }, instrumented: { sha256: h, size: 1 },
    options: { carrySp: false }, byteOrder: 'little', entry: 0x400000, prologue: { addr: 0x500000, count: 0, afterStart: 0x500000 },
    newText: { base: 0x500000, size: 16 }, rodata: [], addressMap: [], stats: {},
    functions: [{
      name: 'main', addr: 0x400000, end: 0x400004, wbytes: 1, edges: [], entries: [],
      blocks: [{ addr: 0x400000, n: 1, naddr: 0x500000, term: 'halt', insns: [{ m: m as [number, number, number, number, number] }], succ: [], items: [['o', 0]] }],
    }],
  } as Schema;
}
const bytes = (s: unknown): Uint8Array => new Uint8Array(Buffer.from(JSON.stringify(s)));

describe('schemas (fuzz target schema)', () => {
  it('the smallest schema reads and compiles', () => {
    const p = new RegenProgram(parseSchema(bytes(schema()), 'ok.json'), 'ok.json');
    expect(typeof compileFunc(p, p.funcs[0]!)).toBe('function');
  });

  it('text where the offset of a memory reference belongs is refused, never compiled into the regenerator', () => {
    const g = globalThis as { emuFuzzInjected?: number };
    const evil = schema([0, 4, 29, -1, '0) + (globalThis.emuFuzzInjected = 1']);
    const msg = refuses(() => parseSchema(bytes(evil), 'evil.json'), SchemaError, 'evil.json');
    expect(msg).toContain('functions[0].blocks[0].insns[0].m: must be [kind 0-3, size, base, index or -1, offset]');
    expect(g.emuFuzzInjected).toBeUndefined();
  });

  it('a step naming an instruction the block lacks, an edge index out of range, a non-array where edges belong', () => {
    const s1 = schema();
    s1.functions[0]!.blocks[0]!.items = [['o', 3]];
    expect(refuses(() => parseSchema(bytes(s1), 's.json'), SchemaError, 's.json')).toContain('functions[0].blocks[0].items[0]');
    const s2 = schema();
    s2.functions[0]!.blocks[0]!.succ = [0];
    expect(refuses(() => parseSchema(bytes(s2), 's.json'), SchemaError, 's.json')).toContain('functions[0].blocks[0].succ[0]: must be an edge index');
    const s3 = schema() as unknown as { functions: { edges: unknown }[] };
    s3.functions[0]!.edges = {};
    expect(refuses(() => parseSchema(bytes(s3), 's.json'), SchemaError, 's.json')).toContain('functions[0].edges: must be an array');
  });
});

describe('the ground truth of a bundle (issue 23 item 3)', () => {
  const truth = (): { b: Bundle; file: string; data: Buffer } => {
    const data = Buffer.alloc(150_000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
    const file = join(work, 'truth');
    writeFileSync(file, data);
    const c = new BlockCrc();
    c.update(data);
    const b = { dir: work, truthFile: file, manifest: { streams: { truth: c.info('truth') } } } as unknown as Bundle;
    return { b, file, data };
  };

  it('an intact truth passes; a flipped byte names the file, the block and its bytes', () => {
    const { b, file, data } = truth();
    expect(checkedTruthFile(b)).toBe(file);
    data[70_000]! ^= 1;
    writeFileSync(file, data);
    expect(refuses(() => checkedTruthFile(b), BundleError, file)).toContain('damaged: block 1 (bytes 65536-131071) does not match its CRC-32 in the manifest');
  });

  it('a truncated truth and a bundle without one', () => {
    const { b, file, data } = truth();
    writeFileSync(file, data.subarray(0, 100_000));
    expect(refuses(() => checkedTruthFile(b), BundleError, file)).toContain('truncated: 100000 of the 150000 bytes');
    expect(refuses(() => checkedTruthFile({ ...b, truthFile: null }), BundleError, work)).toContain('has no ground truth');
  });
});

describe('emu run --stats reports read back (fuzz target stats-json)', () => {
  it('an infinite clock rate is refused; a JSON error is one line', () => {
    const f = join(work, 'stats.json');
    writeFileSync(f, '{"machine": {"cpuHz": 1e400, "cycles": 0}}');
    expect(() => readRunStats(f)).toThrow(/machine.cpuHz is not a positive number/);
    writeFileSync(f, '{\n "machine": x\n}');
    refuses(() => readRunStats(f), Error, f);
  });
});
