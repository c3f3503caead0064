/**
 * Guest build driver: the project's libc, crt0 and programs for each target and syscall flavour,
 * plus host-native builds of the portable programs (a second oracle for golden outputs).
 *
 * Layout of images/ sources:
 *   libc/include/                 headers every guest sees (BSD-flavoured)
 *   libc/src/**.c                 portable libc (every target, every flavour)
 *   libc/arch/<isa>/              crt0.S (linked first, not archived), setjmp, compiler support...
 *   libc/arch/<isa>/include/      ISA-specific headers (machine/*.h)
 *   libc/sys/<flavour>/           the syscall layer: all that differs between emu's kernel and Linux
 *   libc/sys/<flavour>/<isa>/     ... and its ISA-specific part
 *   libc/sys/<flavour>[/<isa>]/include/   headers of the syscall layer (private to libc)
 *   programs/<name>/              one program per folder: its .c/.S files and program.json
 * Outputs go to images/build/<flavour>-<target>/{obj,lib,bin}/ and images/build/native/bin/.
 *
 * Every object is cached under a key hashing its source, every header the build can see, the
 * flags and the compiler version; a rebuild with nothing changed runs no compiler.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { COMMON_CFLAGS, COMMON_LDFLAGS, TARGETS, gccIncludeDir, gccVersion, tool, type Flavour, type Target } from './toolchain.js';
import type { TargetName } from '../format/target.js';
import { generateSyscallHeader } from '../format/syscalltab.js';
import { BUILD_DIR, IMAGES_DIR, LIBC_DIR, PROGRAMS_DIR, ROOT_DIR } from './dirs.js';

export { BUILD_DIR, IMAGES_DIR, LIBC_DIR, PROGRAMS_DIR, ROOT_DIR } from './dirs.js';

export class BuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildError';
  }
}

/** Recursively lists files under dir whose names end in one of exts, sorted, as absolute paths. */
export function listFiles(dir: string, exts: readonly string[], recursive = true): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) {
      if (recursive && name !== 'include') out.push(...listFiles(p, exts, true));
    } else if (exts.some((e) => name.endsWith(e))) out.push(p);
  }
  return out;
}

export function sha256(...parts: (string | Uint8Array)[]): string {
  const h = createHash('sha256');
  for (const p of parts) {
    h.update(p);
    h.update('\0');
  }
  return h.digest('hex');
}

/** Runs a command, resolving with its output; rejects with the tool's stderr in the message. */
export function run(cmd: string, args: readonly string[], cwd = ROOT_DIR): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', (e) => reject(new BuildError(`${cmd}: ${e.message}`)));
    p.on('close', (code) => {
      if (code === 0) resolve(out + err);
      else reject(new BuildError(`${cmd} ${args.join(' ')}\n${err || out}`.trimEnd()));
    });
  });
}

/** A small job pool: at most `limit` tool processes at once. */
export class Pool {
  private active = 0;
  private queue: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await job();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

/** The pool every compiler and linker run of the build driver goes through. */
export const pool = new Pool(Math.max(1, cpus().length));

/**
 * Outputs under images/build may be produced by several processes at once (vitest runs test
 * files in parallel forks, and each asks the build driver for what it needs). Every tool writes
 * to a name of its own in the output's directory, which is then renamed over the output: rename
 * is atomic, so a reader sees the old file or a complete new one, never a half-written one, and
 * two builders of the same output (same inputs, same bytes) do not interleave their writes.
 */
let privateSeq = 0;
function privateName(out: string): string {
  return `${out}.${process.pid}.${privateSeq++}.tmp`;
}

/** Writes a key stamp (or any small file) through a private name and a rename. */
export function writeAtomic(path: string, data: string): void {
  const tmp = privateName(path);
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** Runs `produce(tmp)` to write a private file, then renames it over `out`. */
export async function produceAtomic(out: string, produce: (tmp: string) => Promise<unknown>): Promise<void> {
  const tmp = privateName(out);
  try {
    await produce(tmp);
    renameSync(tmp, out);
  } finally {
    rmSync(tmp, { force: true });
  }
}

export interface Variant {
  target: Target;
  flavour: Flavour;
}

export function variantDir(v: Variant): string {
  return join(BUILD_DIR, `${v.flavour}-${v.target.name}`);
}

function includeDirs(v: Variant): string[] {
  const { isa } = v.target;
  return [
    join(variantDir(v), 'gen', 'include'),
    join(LIBC_DIR, 'sys', v.flavour, isa, 'include'),
    join(LIBC_DIR, 'sys', v.flavour, 'include'),
    join(LIBC_DIR, 'arch', isa, 'include'),
    join(LIBC_DIR, 'include'),
  ].filter((d) => existsSync(d));
}

export function cflags(v: Variant): string[] {
  return [
    ...COMMON_CFLAGS, ...v.target.cflags,
    `-ffile-prefix-map=${ROOT_DIR}/=`,
    ...includeDirs(v).map((d) => `-I${d}`),
    '-isystem', gccIncludeDir(v.target),
  ];
}

/**
 * Hash of every header visible to a variant's compilations (the cache key covers them all),
 * the included lists too (the BSD flavour's syscalls.list, which its syscalls.S includes).
 */
export function headersKey(v: Variant): string {
  const parts: string[] = [];
  for (const d of includeDirs(v)) for (const f of listFiles(d, ['.h', '.list'])) parts.push(relative(ROOT_DIR, f), readFileSync(f, 'latin1'));
  return sha256(...parts, gccVersion(v.target));
}

export async function compile(v: Variant, src: string, obj: string, hkey: string, extra: readonly string[] = []): Promise<string> {
  const flags = [...cflags(v), ...v.target.asflags.filter(() => src.endsWith('.S')), ...extra];
  // Private headers are part of the key: for the portable libc every header under libc/src (its
  // directories share some), for anything else the headers beside the source.
  const libcSrc = join(LIBC_DIR, 'src');
  const shared = src.startsWith(libcSrc + '/');
  const local = listFiles(shared ? libcSrc : dirname(src), ['.h'], shared).map((h) => readFileSync(h, 'latin1'));
  return compileObject(v.target, flags, src, obj, hkey, local);
}

/**
 * Compiles src to obj with exactly these flags unless obj's key stamp says it is up to date. The
 * key covers the flags, the source, `headers` (the caller's hash of the headers on the include
 * path and of the compiler) and `local` (the text of private headers the source may include).
 */
export async function compileObject(t: Target, flags: readonly string[], src: string, obj: string, headers: string, local: readonly string[] = []): Promise<string> {
  const key = sha256(headers, flags.join(' '), relative(ROOT_DIR, src), readFileSync(src), ...local);
  const stamp = `${obj}.key`;
  if (existsSync(obj) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return obj;
  mkdirSync(dirname(obj), { recursive: true });
  await produceAtomic(obj, (tmp) => pool.run(() => run(tool(t, 'gcc'), [...flags, '-c', relative(ROOT_DIR, src), '-o', tmp])));
  writeAtomic(stamp, key);
  return obj;
}

export function objPath(v: Variant, src: string): string {
  return join(variantDir(v), 'obj', relative(IMAGES_DIR, src).replace(/\.(c|S)$/, '.o'));
}

export interface Runtime {
  crt0: string;
  libc: string;
}

/** Sources of the runtime for a variant: crt0 separately, the rest archived into libc.a. */
export function runtimeSources(v: Variant): { crt0: string; lib: string[] } {
  const { isa } = v.target;
  const archDir = join(LIBC_DIR, 'arch', isa);
  const crt0 = join(archDir, 'crt0.S');
  const lib = [
    ...listFiles(join(LIBC_DIR, 'src'), ['.c', '.S']),
    ...listFiles(archDir, ['.c', '.S'], false).filter((f) => f !== crt0),
    ...listFiles(join(LIBC_DIR, 'sys', v.flavour), ['.c', '.S'], false),
    ...listFiles(join(LIBC_DIR, 'sys', v.flavour, isa), ['.c', '.S'], false),
  ];
  return { crt0, lib };
}

const runtimeCache = new Map<string, Promise<Runtime>>();

/** Builds crt0.o and libc.a for a variant (memoised per process). */
export function buildRuntime(v: Variant): Promise<Runtime> {
  const id = `${v.flavour}-${v.target.name}`;
  let p = runtimeCache.get(id);
  if (!p) {
    p = buildRuntimeUncached(v);
    runtimeCache.set(id, p);
  }
  return p;
}

/**
 * <sys/syscall.h> of the Linux flavour: SYS_<name> for every Linux call the flavour's layer uses
 * (its linux_nr.h), with Linux's number, for syscall(); Linux spells the 64-bit lseek _llseek.
 */
export function linuxSyscallHeader(isa: string): string {
  const nr = join(LIBC_DIR, 'sys', 'linux', isa, 'include', 'linux_nr.h');
  const lines = [
    `/* Generated from ${relative(ROOT_DIR, nr)} by images/build.ts; do not edit. */`,
    '#ifndef _SYS_SYSCALL_H_',
    '#define _SYS_SYSCALL_H_',
    '',
  ];
  for (const m of readFileSync(nr, 'utf8').matchAll(/^#define\s+LNR_(\w+)\s+(\d+)/gm)) {
    lines.push(`#define SYS_${m[1] === 'llseek' ? '_llseek' : m[1]!}\t${m[2]}`);
  }
  lines.push('', '#endif /* !_SYS_SYSCALL_H_ */', '');
  return lines.join('\n');
}

async function buildRuntimeUncached(v: Variant): Promise<Runtime> {
  const hdr = join(variantDir(v), 'gen', 'include', 'sys', 'syscall.h');
  const text = v.flavour === 'bsd' ? generateSyscallHeader() : linuxSyscallHeader(v.target.isa);
  if (!existsSync(hdr) || readFileSync(hdr, 'utf8') !== text) {
    mkdirSync(dirname(hdr), { recursive: true });
    writeFileSync(hdr, text);
  }
  const hkey = headersKey(v);
  const { crt0, lib } = runtimeSources(v);
  if (!existsSync(crt0)) throw new BuildError(`missing ${relative(ROOT_DIR, crt0)}`);
  const objs = await Promise.all(lib.map((s) => compile(v, s, objPath(v, s), hkey)));
  const crt0o = await compile(v, crt0, objPath(v, crt0), hkey);
  const libc = join(variantDir(v), 'lib', 'libc.a');
  const key = sha256(...objs.map((o) => readFileSync(`${o}.key`, 'utf8')));
  if (!(existsSync(libc) && existsSync(`${libc}.key`) && readFileSync(`${libc}.key`, 'utf8') === key)) {
    mkdirSync(dirname(libc), { recursive: true });
    // 'D': deterministic archive (zero timestamps, uids, modes).
    await produceAtomic(libc, (tmp) => run(tool(v.target, 'ar'), ['rcsD', tmp, ...objs]));
    writeAtomic(`${libc}.key`, key);
  }
  return { crt0: crt0o, libc };
}

/** Source files of a program: every .c and .S in its folder. */
export function programSources(name: string): string[] {
  const dir = join(PROGRAMS_DIR, name);
  if (!existsSync(dir)) throw new BuildError(`no program '${name}' (expected ${relative(ROOT_DIR, dir)}/)`);
  const srcs = listFiles(dir, ['.c', '.S'], false);
  if (srcs.length === 0) throw new BuildError(`program '${name}' has no .c or .S sources in ${relative(ROOT_DIR, dir)}/`);
  return srcs;
}

/** Builds one program for a variant; returns the executable's path. */
export async function buildProgram(v: Variant, name: string): Promise<string> {
  const rt = await buildRuntime(v);
  const hkey = headersKey(v);
  const objs = await Promise.all(programSources(name).map((s) => compile(v, s, objPath(v, s), hkey)));
  const exe = join(variantDir(v), 'bin', name);
  const ldflags = linkFlags(v);
  const inputs = [rt.crt0, ...objs, rt.libc];
  const key = sha256(ldflags.join(' '), ...inputs.map((i) => readFileSync(`${i}.key`, 'utf8')));
  if (existsSync(exe) && existsSync(`${exe}.key`) && readFileSync(`${exe}.key`, 'utf8') === key) return exe;
  mkdirSync(dirname(exe), { recursive: true });
  await produceAtomic(exe, (tmp) => pool.run(() => run(tool(v.target, 'gcc'), [...ldflags, ...inputs, '-o', tmp])));
  writeAtomic(`${exe}.key`, key);
  return exe;
}

export function linkFlags(v: Variant): string[] {
  return [...COMMON_CFLAGS, ...v.target.cflags, ...COMMON_LDFLAGS, ...v.target.ldflags];
}

/** Host build of a portable program with the host's gcc and C library (golden-output oracle). */
export async function buildNative(name: string): Promise<string> {
  const srcs = programSources(name).filter((s) => s.endsWith('.c'));
  const exe = join(BUILD_DIR, 'native', 'bin', name);
  const flags = ['-O2', '-std=gnu11', '-w', '-D_GNU_SOURCE'];
  const hdrs = listFiles(join(PROGRAMS_DIR, name), ['.h'], false);
  const key = sha256(flags.join(' '), ...srcs.map((s) => readFileSync(s)), ...hdrs.map((h) => readFileSync(h)));
  if (existsSync(exe) && existsSync(`${exe}.key`) && readFileSync(`${exe}.key`, 'utf8') === key) return exe;
  mkdirSync(dirname(exe), { recursive: true });
  await produceAtomic(exe, (tmp) => pool.run(() => run('gcc', [...flags, ...srcs, '-o', tmp, '-lm'])));
  writeAtomic(`${exe}.key`, key);
  return exe;
}

export function variant(target: TargetName, flavour: Flavour): Variant {
  return { target: TARGETS[target], flavour };
}
