/**
 * The fuzz targets: every reader of untrusted input, each with the error type its module
 * documents (engine.ts checks the contract). Seeds are shipped files: the boot images
 * (images/boot/*.tar), the BSD builds (images/build/bsd-*), and small traced bundles that
 * prepareSeeds makes with `emu run demo-ARCH --trace --truth -- 'textgen 20'`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { assembleBundle, BlockCrc, BundleError, openBundle, openBundleHead, type BundleHead, type BundleManifest } from '../../format/bundle.js';
import { elfArch, ElfError, findSymbol, parseElf, sectionData } from '../../format/elf.js';
import { ImageError, parseImage } from '../../format/image.js';
import { decodeSchedule, encodeMarkers, SchedError } from '../../format/sched.js';
import { parseSchema, SchemaError, sha256 } from '../../format/schema.js';
import { openSchema } from '../../format/schema_cache.js';
import { TarError, writeTar } from '../../format/tar.js';
import { readTruth, TruthFormatError } from '../../format/truth.js';
import { compileSource } from '../../regen/compile.js';
import { RegenProgram } from '../../regen/model.js';
import { MultiRegenError, regenerateInput } from '../../regen/multi.js';
import { readRunStats } from '../../regen/replay/open.js';
import { planContexts } from '../../regen/stream.js';
import type { Target } from './engine.js';

/** The checkout (this file is dist/test/fuzz/targets.js). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SEEDS = join(ROOT, 'images/build/fuzz/seeds');
const ARCHES = ['mipsel', 'sparc'] as const;

const read = (f: string): Uint8Array => new Uint8Array(readFileSync(f));
const existing = (fs: string[]): string[] => fs.filter((f) => existsSync(f));
const bundleDir = (arch: string): string => join(SEEDS, `bundle-${arch}`);

/**
 * Makes the seeds that are not shipped as they are: a small traced bundle per architecture
 * (only the schemas its schedule STARTs: one), and a schema cut to a few functions.
 */
export function prepareSeeds(log: (m: string) => void): void {
  // A clean checkout has no images/build/fuzz: `emu run --out` makes only the last directory.
  mkdirSync(SEEDS, { recursive: true });
  for (const arch of ARCHES) {
    const dir = bundleDir(arch);
    if (existsSync(join(dir, 'manifest.json'))) continue;
    const full = join(SEEDS, `full-${arch}`);
    log(`making the seed bundle ${dir}`);
    execFileSync(process.execPath, [join(ROOT, 'bin/emu.js'), 'run', `demo-${arch}`, '--trace', '--truth', '--out', full, '--', 'textgen 20'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const m = JSON.parse(readFileSync(join(full, 'manifest.json'), 'utf8')) as BundleManifest;
    const started = new Set(decodeSchedule(read(join(full, 'sched')), 'sched').markers.flatMap((x) => (x.kind === 'start' ? [x.hash] : [])));
    m.programs = m.programs.filter((p) => started.has(p.instrumented.sha256));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    for (const f of ['trace', 'sched', 'truth', 'console.out', 'stats.json']) cpSync(join(full, f), join(dir, f));
    for (const p of m.programs) cpSync(join(full, p.schema), join(dir, p.schema));
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(m, null, 1)}\n`);
    rmSync(full, { recursive: true, force: true });
  }
  // Archives made by GNU tar in its GNU and pax formats (a long name, a hard link): the other
  // kinds readTar reads.
  for (const format of ['gnu', 'pax']) {
    const file = join(SEEDS, `${format}.tar`);
    if (existsSync(file)) continue;
    const src = join(SEEDS, `tar-${format}`);
    const long = `root/${'d'.repeat(60)}/${'n'.repeat(90)}`;
    mkdirSync(join(src, long), { recursive: true });
    writeFileSync(join(src, 'manifest.json'), shippedManifest());
    mkdirSync(join(src, 'root/sbin'), { recursive: true });
    writeFileSync(join(src, 'root/sbin/init'), 'x');
    writeFileSync(join(src, long, 'f'), 'y');
    execFileSync('ln', [join(src, long, 'f'), join(src, 'root/sbin/link')]);
    execFileSync('tar', [`--format=${format}`, '-cf', file, '-C', src, 'manifest.json', 'root']);
    rmSync(src, { recursive: true, force: true });
  }
  for (const arch of ARCHES) {
    const file = join(SEEDS, `schema-${arch}.json`);
    if (existsSync(file)) continue;
    const m = JSON.parse(readFileSync(join(bundleDir(arch), 'manifest.json'), 'utf8')) as BundleManifest;
    const s = parseSchema(read(join(bundleDir(arch), m.programs[0]!.schema)), 'schema');
    // The entry function and a dozen small ones: what the schema reader checks, at a size
    // that parses in a millisecond.
    const functions = s.functions.filter((f) => f.addr === s.entry || f.blocks.length < 40).slice(0, 12);
    if (!functions.some((f) => f.addr === s.entry)) functions.push(s.functions.find((f) => f.addr === s.entry)!);
    writeFileSync(file, JSON.stringify({ ...s, functions, addressMap: s.addressMap.slice(0, 64), rodata: s.rodata.slice(0, 2) }));
  }
}

const isAny = (...cls: (new (...a: never[]) => Error)[]) => (e: unknown): boolean => cls.some((c) => e instanceof c);

/** A tiny image of the shape images/pack.ts writes (manifest first, root/ tree). */
function tinyImage(manifest: string): Uint8Array {
  return writeTar([
    { path: 'manifest.json', type: 'file', mode: 0o644, data: Buffer.from(manifest) },
    { path: 'root', type: 'dir', mode: 0o755 },
    { path: 'root/sbin', type: 'dir', mode: 0o755 },
    { path: 'root/sbin/init', type: 'file', mode: 0o755, data: Buffer.from('\x7fELF') },
    { path: 'root/etc', type: 'dir', mode: 0o755 },
    { path: 'root/etc/rc', type: 'file', mode: 0o644, data: Buffer.from('echo hi\n') },
  ]);
}

function shippedManifest(): string {
  const tar = read(join(ROOT, 'images/boot/demo-mipsel.tar'));
  const size = parseInt(Buffer.from(tar.subarray(124, 135)).toString('latin1'), 8);
  // The shipped manifest, naming what tinyImage holds (the shipped image's own programs are not there).
  const m = JSON.parse(Buffer.from(tar.subarray(512, 512 + size)).toString('utf8')) as { traced: string[]; init: string[] };
  return `${JSON.stringify({ ...m, traced: ['/sbin/init'], init: ['/sbin/init'] }, null, 2)}\n`;
}

const STREAM_DICT = ['EMUSCHED', 'EMUTRUTH', '\x01', '\x02', '\x10', '\x20', '\x21', '\x05', '\x06', '\x07', '\x80', '\x81', '\x89', '\x90', '\x92', '\xff'];

/** The regen target's input: [u32 length of sched][sched][trace]; flag bit 0 of byte 4 keeps the manifest's checksums. */
function splitStreams(input: Uint8Array): { sched: Uint8Array; trace: Uint8Array } {
  const n = input.length >= 4 ? new DataView(input.buffer, input.byteOffset, input.length).getUint32(0, true) : 0;
  const body = input.subarray(4);
  const k = Math.min(n, body.length);
  return { sched: body.subarray(0, k), trace: body.subarray(k) };
}

const heads = new Map<string, { head: BundleHead; programs: Map<string, RegenProgram> }>();
/** A seed bundle's manifest and schemas, and their regeneration programs (compiled once, not per input). */
function head(arch: string): { head: BundleHead; programs: Map<string, RegenProgram> } {
  let h = heads.get(arch);
  if (!h) {
    const head = openBundleHead(bundleDir(arch));
    heads.set(arch, (h = { head, programs: new Map([...head.programs].map(([k, p]) => [k, new RegenProgram(p.schema, p.file)])) }));
  }
  return h;
}

/**
 * The bundle-manifest target's bundle: both seed bundles' streams and, as their schemas, the cut
 * schemas (schema-ARCH.json, gzip'ed), so each input parses a few functions, not a whole libc.
 * Returns the arch's manifest, its schemaSha256 that of the cut schema.
 */
const MANIFEST_BUNDLE = join(SEEDS, 'fuzz-bundle');
function manifestSeed(arch: string): Uint8Array {
  if (!existsSync(MANIFEST_BUNDLE)) cpSync(bundleDir('mipsel'), MANIFEST_BUNDLE, { recursive: true });
  const m = JSON.parse(readFileSync(join(bundleDir(arch), 'manifest.json'), 'utf8')) as BundleManifest;
  const cut = gzipSync(readFileSync(join(SEEDS, `schema-${arch}.json`)));
  for (const p of m.programs) {
    writeFileSync(join(MANIFEST_BUNDLE, p.schema), cut);
    p.schemaSha256 = sha256(cut);
  }
  if (arch !== 'mipsel') {
    // The streams of the second architecture beside the first's, under their own names.
    for (const k of ['trace', 'sched', 'truth'] as const) {
      const info = m.streams[k]!;
      cpSync(join(bundleDir(arch), info.file), join(MANIFEST_BUNDLE, `${info.file}-${arch}`));
      info.file = `${info.file}-${arch}`;
    }
  }
  return new Uint8Array(Buffer.from(`${JSON.stringify(m, null, 1)}\n`));
}

const counter = { n: 0, ref(): void { this.n++; } };

let cacheCase: { dir: string; stored: Uint8Array; sha: string; entry: string } | null = null;
/** The schema-cache target's directory (its path names the target's file) and the mipsel seed schema as stored. */
function schemaCacheCase(): { dir: string; stored: Uint8Array; sha: string; entry: string } {
  if (cacheCase) return cacheCase;
  const dir = join(mkdtempSync(join(tmpdir(), 'emu-fuzz-')), 'fuzz.schemacache');
  const stored = new Uint8Array(gzipSync(readFileSync(join(SEEDS, 'schema-mipsel.json'))));
  const sha = sha256(stored);
  openSchema(stored, sha, 'fuzz.schema', dir);
  const entry = join(dir, readdirSync(dir).find((e) => e.startsWith(sha))!);
  return (cacheCase = { dir, stored, sha, entry });
}

export const TARGETS: Target[] = [
  {
    name: 'elf',
    about: 'ELF32 executables: format/elf.ts parseElf, elfArch, sections and symbols',
    file: 'fuzz.elf',
    maxLen: 96 << 10,
    cover: ['/format/elf.js'],
    dict: ['\x7fELF', '\x01\x01\x01', '\x01\x02\x01', '.symtab', '.strtab', '.text', '.rel.text', '.rela.text', '\x00\x08', '\x00\x02'],
    seeds: () => existing(['bsd-mipsel/bin/hello', 'bsd-mips/bin/hello', 'bsd-sparc/bin/hello', 'bsd-mipsel/bin/init', 'linux-mipsel/bin/hello', 'linux-sparc/bin/hello'].map((f) => join(ROOT, 'images/build', f))).map(read),
    run(input) {
      const e = parseElf(input, 'fuzz.elf');
      elfArch(e);
      for (const s of e.sections) sectionData(e, s);
      findSymbol(e, 'main');
    },
    expected: isAny(ElfError),
  },
  {
    name: 'image',
    about: 'boot images: format/tar.ts readTar and format/image.ts parseImage (tar + manifest)',
    file: 'fuzz.tar',
    maxLen: 512 << 10,
    cover: ['/format/tar.js', '/format/image.js'],
    dict: ['ustar', 'ustar\x0000', 'ustar  \x00', 'manifest.json', 'root/', '0000644\x00', '00000000000\x00', '5', '0', '1', '2', 'x', 'g', 'L', 'K', '..', '././@LongLink', ' path=', ' size=', ' linkpath=', '\x80\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\xff'],
    seeds: () => [tinyImage(shippedManifest()), ...existing(['gnu.tar', 'pax.tar'].map((f) => join(SEEDS, f))).map(read), ...existing([join(ROOT, 'images/boot/sgefa-sparc.tar')]).map(read)],
    run(input) {
      parseImage(input, 'fuzz.tar');
    },
    expected: isAny(ImageError, TarError),
  },
  {
    name: 'image-manifest',
    about: "a boot image's manifest.json (structure-aware), read through parseImage",
    file: 'fuzz.tar',
    maxLen: 16 << 10,
    json: true,
    cover: ['/format/tar.js', '/format/image.js'],
    seeds: () => [new Uint8Array(Buffer.from(shippedManifest()))],
    run(input) {
      parseImage(tinyImage(Buffer.from(input).toString('latin1')), 'fuzz.tar');
    },
    expected: isAny(ImageError, TarError),
  },
  {
    name: 'bundle-manifest',
    about: "a trace bundle's manifest.json (structure-aware): format/bundle.ts openBundle",
    file: 'fuzz-bundle',
    maxLen: 64 << 10,
    json: true,
    cover: ['/format/bundle.js', '/format/sched.js'],
    seeds: () => ARCHES.map((a) => manifestSeed(a)),
    run(input) {
      writeFileSync(join(MANIFEST_BUNDLE, 'manifest.json'), input);
      openBundle(MANIFEST_BUNDLE);
    },
    expected: isAny(BundleError),
  },
  {
    name: 'sched',
    about: 'schedule streams, versions 1 and 2: format/sched.ts decodeSchedule, regen/stream.ts planContexts',
    file: 'fuzz.sched',
    maxLen: 4096,
    cover: ['/format/sched.js', '/regen/stream.js'],
    dict: STREAM_DICT,
    seeds: () => [
      ...ARCHES.map((a) => read(join(bundleDir(a), 'sched'))),
      encodeMarkers([{ kind: 'start', pid: 1, pos: 0, icount: 0, sp: 0x7fffe000 }, { kind: 'signal', pid: 1, pos: 8, icount: 9, sig: 2, handler: 0x400100, pc: 0x400200 }, { kind: 'sigreturn', pid: 1, pos: 12, icount: 20 }, { kind: 'exit', pid: 1, pos: 20, icount: 30, status: 0 }]),
    ],
    run(input) {
      const d = decodeSchedule(input, 'fuzz.sched');
      const pids = new Set(d.markers.map((m) => m.pid));
      for (const p of pids) planContexts(d.markers.filter((m) => m.pid === p), d.drains.reduce((s, x) => s + x, 0));
    },
    expected: isAny(SchedError),
  },
  {
    name: 'truth',
    about: 'binary ground truth: format/truth.ts TruthReader (readTruth)',
    file: 'fuzz.truth',
    maxLen: 64 << 10,
    cover: ['/format/truth.js'],
    dict: STREAM_DICT,
    seeds: () => ARCHES.map((a) => read(join(bundleDir(a), 'truth'))),
    run(input) {
      readTruth(input, 'fuzz.truth', () => {});
    },
    expected: isAny(TruthFormatError),
  },
  {
    name: 'schema',
    about: 'schemas (structure-aware): format/schema.ts parseSchema, then the regeneration model and compiler that trust it',
    file: 'fuzz.schema',
    maxLen: 256 << 10,
    json: true,
    cover: ['/format/schema.js', '/regen/model.js', '/regen/compile.js', '/regen/decide.js'],
    seeds: () => ARCHES.map((a) => read(join(SEEDS, `schema-${a}.json`))),
    run(input) {
      const s = parseSchema(input, 'fuzz.schema');
      const p = new RegenProgram(s, 'fuzz.schema');
      for (const f of p.funcs) new Function('S', 'stop', compileSource(p, f));
    },
    expected: isAny(SchemaError),
  },
  {
    name: 'schema-cache',
    about: 'schema cache entries: format/schema_cache.ts openSchema reading an entry, then every function through the regeneration model',
    file: 'fuzz.schemacache',
    maxLen: 256 << 10,
    cover: ['/format/schema_cache.js', '/regen/model.js'],
    dict: ['EMUSCHC1', '"key"', '"functions"', '"codeAddrs"', '"wbytes"'],
    seeds: () => ARCHES.map((a) => {
      const c = schemaCacheCase();
      const stored = gzipSync(readFileSync(join(SEEDS, `schema-${a}.json`)));
      openSchema(stored, sha256(stored), 'fuzz.schema', c.dir);
      const entry = readdirSync(c.dir).find((e) => e.startsWith(sha256(stored)))!;
      return read(join(c.dir, entry));
    }),
    run(input) {
      // The input as the cache's entry for the mipsel seed schema: a valid entry is read lazily,
      // any other is ignored and the schema parsed (and the entry written again).
      const c = schemaCacheCase();
      writeFileSync(c.entry, input);
      const s = openSchema(c.stored, c.sha, 'fuzz.schema', c.dir);
      void new RegenProgram(s, 'fuzz.schemacache').funcs;
    },
    expected: isAny(SchemaError),
  },
  {
    name: 'regen',
    about: "a bundle's trace and schedule streams, regenerated: format/bundle.ts and regen/multi.ts",
    file: 'bundle-',
    maxLen: 8192,
    cover: ['/format/bundle.js', '/format/sched.js', '/regen/'],
    dict: STREAM_DICT,
    seeds: () => ARCHES.map((a) => {
      const s = read(join(bundleDir(a), 'sched'));
      const t = read(join(bundleDir(a), 'trace'));
      const n = new Uint8Array(4);
      new DataView(n.buffer).setUint32(0, s.length, true);
      const out = new Uint8Array(4 + s.length + t.length);
      out.set(n);
      out.set(s, 4);
      out.set(t, 4 + s.length);
      return out;
    }),
    run(input) {
      const { sched, trace } = splitStreams(input);
      const arch = sched[10] === 3 ? 'sparc' : 'mipsel';
      const { head: h, programs } = head(arch);
      // A consistent bundle (checksums of these bytes) unless the length's top bit asks for the
      // manifest's own checksums (then the damaged-stream paths run).
      const keep = input.length >= 4 && (input[3]! & 0x80) !== 0;
      const info = (bytes: Uint8Array, file: string) => {
        const c = new BlockCrc();
        c.update(bytes);
        return c.info(file);
      };
      const manifest = keep ? h.manifest : { ...h.manifest, streams: { ...h.manifest.streams, trace: info(trace, 'trace'), sched: info(sched, 'sched') } };
      const b = assembleBundle({ ...h, manifest }, trace, sched);
      // regen/multi.ts bundleInput, with the programs built once for all inputs.
      regenerateInput({
        markers: b.sched.markers, offsets: b.sched.offsets, trace: b.trace, usable: b.traceUsable, traceFile: b.traceFile,
        schedFile: b.schedFile, traceProblem: b.traceProblem, schedProblem: b.schedProblem,
        program: (m) => programs.get(m.hash ?? '')!, path: (m) => b.programs.get(m.hash ?? '')!.info.path, endCycle: b.manifest.run.cycles,
      }, counter);
    },
    expected: isAny(BundleError, MultiRegenError),
  },
  {
    name: 'stats-json',
    about: "an emu run --stats report read back (structure-aware): regen/replay/open.ts readRunStats",
    file: 'fuzz-stats.json',
    maxLen: 16 << 10,
    json: true,
    cover: ['/regen/replay/open.js'],
    seeds: () => ARCHES.map((a) => read(join(bundleDir(a), 'stats.json'))),
    run(input) {
      const f = join(SEEDS, 'fuzz-stats.json');
      writeFileSync(f, input);
      const s = readRunStats(f);
      if (!(s.cpuHz > 0 && Number.isFinite(s.cpuHz)) || !(s.cycles >= 0 && Number.isFinite(s.cycles))) throw new TypeError(`readRunStats accepted cpuHz ${s.cpuHz}, cycles ${s.cycles}`);
    },
    // Its documented error is a plain Error naming the file (emu replay prints it).
    expected: (e) => e instanceof Error && e.constructor === Error,
  },
];
