/**
 * newlib as a second guest C library: built here from Debian's newlib-source for each target,
 * with the project's code-generation flags (MIPS I + R2010 / SPARC v8, %g5-%g7 reserved), and
 * linked with a system layer made of the project's own syscall layer (either flavour) and the
 * two halves of images/libc/newlib/ (glue.h explains them). docs/toolchain.md "newlib".
 *
 * Outputs (images/build, git-ignored):
 *   newlib-<target>/{include,lib/libc.a,lib/libm.a}   newlib itself; flavour-independent
 *   <flavour>-<target>/newlib/lib/libglue.a            newlib.c + emu.c + the renamed syscall layer
 *   <flavour>-<target>/newlib/lib/libsupport.a         the project's compiler-support routines
 * newlib's build is keyed by the source tarball's hash, the configure flags, the tool wrappers and
 * the compiler version; a build with the same key is never repeated, and concurrent builders of
 * the same target (test workers) wait for one another through a lock directory.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, join, relative } from 'node:path';
import {
  BUILD_DIR, BuildError, LIBC_DIR, ROOT_DIR, buildRuntime, compile, compileObject, headersKey, objPath,
  produceAtomic, run, runtimeSources, sha256, variantDir, writeAtomic, type Variant,
} from './build.js';
import { COMMON_CFLAGS, CODEGEN_CFLAGS, gccIncludeDir, gccVersion, tool, type Target } from './toolchain.js';

/**
 * The catalog programs (images/programs) that are also built against newlib, by the ISA check and
 * the newlib tests: the portable ones. The others use what newlib's headers lack: sigjmp_buf and
 * SA_RESTART (sigtest, ttest-sig, systest), <dirent.h> (systest), <fenv.h> and CLOCK_MONOTONIC
 * (libctest, which tests the project libc's own C99 and POSIX surface).
 */
export const NEWLIB_PROGRAMS: readonly string[] = [
  'arith64', 'cat', 'cc1', 'client', 'compress', 'cs', 'echo', 'egrep', 'hello', 'init', 'jmptest', 'li',
  'pdp', 'pmake', 'server', 'sgefa', 'sh', 'textgen', 'wc',
];

/** Where Debian's newlib-source installs the tarball. */
export const NEWLIB_SOURCE_DIR = '/usr/src/newlib';

/** The newlib source tarball ($EMU_NEWLIB_SOURCE, else Debian's), or undefined when absent. */
export function newlibSource(): string | undefined {
  const env = process.env['EMU_NEWLIB_SOURCE'];
  if (env) return existsSync(env) ? env : undefined;
  if (!existsSync(NEWLIB_SOURCE_DIR)) return undefined;
  const t = readdirSync(NEWLIB_SOURCE_DIR).filter((n) => /^newlib-.*\.tar\.(xz|gz|bz2)$/.test(n)).sort();
  return t.length ? join(NEWLIB_SOURCE_DIR, t[t.length - 1]!) : undefined;
}

function requireSource(): string {
  const src = newlibSource();
  if (!src) throw new BuildError(`newlib's source is not installed (no ${NEWLIB_SOURCE_DIR}/newlib-*.tar.xz): apt-get install newlib-source, or set EMU_NEWLIB_SOURCE`);
  return src;
}

/**
 * configure flags: no libgloss and no newlib-supplied system calls (the system layer is ours;
 * newlib then calls read, write ... by their POSIX names, MISSING_SYSCALL_NAMES), one multilib,
 * and printf/scanf with long long and the C99 length modifiers on every target (mips-elf has
 * long long by default, sparc-elf does not).
 */
const CONFIGURE_FLAGS = [
  '--disable-newlib-supplied-syscalls', '--disable-libgloss', '--disable-multilib',
  '--enable-newlib-io-long-long', '--enable-newlib-io-c99-formats',
];
/**
 * newlib's own optimisation flags; no debug information (host paths); SIGNAL_PROVIDED: signals
 * are the kernel's, through the system layer's signal and sigaction (newlib's own would only
 * simulate them in-process, so a SIGFPE from a division by zero could never reach a handler).
 */
const NEWLIB_CFLAGS = '-O2 -g0 -DSIGNAL_PROVIDED';

export interface NewlibBuild {
  include: string;
  libc: string;
  libm: string;
  /** The build's key (it covers every header in `include`). */
  key: string;
}

function newlibDir(t: Target): string {
  return join(BUILD_DIR, `newlib-${t.name}`);
}

/** The GNU triple newlib is configured for: the bare-metal ELF target of the same CPU. */
function triple(t: Target): string {
  return `${t.name}-elf`;
}

/**
 * Wrapper scripts named as configure expects (<triple>-gcc ...): the Debian cross tools with the
 * project's code-generation flags, so every compilation of newlib's build gets them.
 */
function wrappers(t: Target): Map<string, string> {
  const q = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const w = new Map<string, string>();
  const sh = (cmd: string, flags: readonly string[]) => `#!/bin/sh\nexec ${cmd} ${flags.map(q).join(' ')} "$@"\n`;
  w.set('gcc', sh(tool(t, 'gcc'), [...CODEGEN_CFLAGS, ...t.cflags]));
  w.set('cc', w.get('gcc')!);
  for (const x of ['ar', 'nm', 'ranlib', 'objdump', 'readelf', 'strip', 'objcopy']) w.set(x, sh(`${t.prefix}${x}`, []));
  w.set('as', sh(`${t.prefix}as`, t.isa === 'sparc' ? ['--32', '-Av8'] : []));
  w.set('ld', sh(`${t.prefix}ld`, t.isa === 'sparc' ? ['-m', 'elf32_sparc'] : []));
  return w;
}

const sourceHashes = new Map<string, string>();
function sourceHash(file: string): string {
  let h = sourceHashes.get(file);
  if (!h) {
    h = sha256(readFileSync(file));
    sourceHashes.set(file, h);
  }
  return h;
}

function newlibKey(t: Target, src: string): string {
  const w = [...wrappers(t)].map(([k, v]) => `${k}=${v}`);
  return sha256('newlib-build-1', sourceHash(src), triple(t), CONFIGURE_FLAGS.join(' '), NEWLIB_CFLAGS, ...w, gccVersion(t));
}

/** Runs a build step with its output appended to a log file; the error names the log. */
function step(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    p.stdout.on('data', (d: Buffer) => chunks.push(d));
    p.stderr.on('data', (d: Buffer) => chunks.push(d));
    p.on('error', (e) => reject(new BuildError(`${cmd}: ${e.message}`)));
    p.on('close', (code) => {
      const out = Buffer.concat(chunks);
      writeFileSync(logFile, out, { flag: 'a' });
      if (code === 0) resolve();
      else {
        const tail = out.toString('utf8').trimEnd().split('\n').slice(-25).join('\n');
        reject(new BuildError(`newlib build: ${cmd} ${args.join(' ')} failed (exit ${code}); log ${relative(ROOT_DIR, logFile)}:\n${tail}`));
      }
    });
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Holds a lock directory while `work` runs. A lock whose owner process is gone is taken over;
 * otherwise waits, polling, for the owner to finish.
 */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        /* being created or removed */
      }
      if (Number.isInteger(owner) && !pidAlive(owner)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function builtNewlib(t: Target, key: string): NewlibBuild | undefined {
  const dir = newlibDir(t);
  const stamp = join(dir, 'newlib.key');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== key) return undefined;
  return { include: join(dir, 'include'), libc: join(dir, 'lib', 'libc.a'), libm: join(dir, 'lib', 'libm.a'), key };
}

/** One newlib build at a time in a process: each runs make with a job per core already. */
let newlibChain: Promise<unknown> = Promise.resolve();
const newlibBuilds = new Map<string, Promise<NewlibBuild>>();

/**
 * newlib's libc.a, libm.a and headers for a target, built from the tarball unless a build with
 * the same key exists. `log` hears about a build that is about to take a while.
 */
export function buildNewlib(t: Target, log?: (msg: string) => void): Promise<NewlibBuild> {
  let p = newlibBuilds.get(t.name);
  if (!p) {
    const src = requireSource();
    const key = newlibKey(t, src);
    const done = builtNewlib(t, key);
    if (done) p = Promise.resolve(done);
    else {
      p = newlibChain.then(() => withLock(`${newlibDir(t)}.lock`, async () => builtNewlib(t, key) ?? buildNewlibUncached(t, src, key, log)));
      newlibChain = p.catch(() => undefined);
    }
    newlibBuilds.set(t.name, p);
  }
  return p;
}

async function buildNewlibUncached(t: Target, src: string, key: string, log?: (msg: string) => void): Promise<NewlibBuild> {
  log?.(`building newlib for ${t.name} from ${src} (about a minute per target)`);
  mkdirSync(BUILD_DIR, { recursive: true });
  const work = mkdtempSync(join(BUILD_DIR, `newlib-${t.name}.work-`));
  const logFile = join(work, 'build.log');
  const bin = join(work, 'bin');
  mkdirSync(bin);
  for (const [name, text] of wrappers(t)) writeFileSync(join(bin, `${triple(t)}-${name}`), text, { mode: 0o755 });
  const env = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, LC_ALL: 'C' };
  await step('tar', ['-xf', src, '-C', work], work, env, logFile);
  const top = readdirSync(work).filter((n) => n !== 'bin' && n !== 'build.log' && existsSync(join(work, n, 'newlib')));
  if (top.length !== 1) throw new BuildError(`${src}: expected one source tree with a newlib/ folder, found ${top.join(', ') || 'none'}`);
  const objdir = join(work, 'obj');
  const stage = join(work, 'install');
  mkdirSync(objdir);
  await step(join(work, top[0]!, 'configure'), [`--target=${triple(t)}`, `--prefix=${stage}`, ...CONFIGURE_FLAGS, `CFLAGS_FOR_TARGET=${NEWLIB_CFLAGS}`], objdir, env, logFile);
  await step('make', [`-j${Math.max(1, cpus().length)}`, 'all-target-newlib'], objdir, env, logFile);
  await step('make', ['install-target-newlib'], objdir, env, logFile);
  const installed = join(stage, triple(t));
  for (const f of ['include', 'lib/libc.a', 'lib/libm.a']) {
    if (!existsSync(join(installed, f))) throw new BuildError(`newlib build for ${t.name}: ${f} was not installed (log ${relative(ROOT_DIR, logFile)})`);
  }
  const dir = newlibDir(t);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'lib'), { recursive: true });
  renameSync(join(installed, 'include'), join(dir, 'include'));
  renameSync(join(installed, 'lib', 'libc.a'), join(dir, 'lib', 'libc.a'));
  renameSync(join(installed, 'lib', 'libm.a'), join(dir, 'lib', 'libm.a'));
  // Key stamps beside the archives, as every build output has: links that use them are keyed by them.
  for (const lib of ['libc.a', 'libm.a']) writeAtomic(join(dir, 'lib', `${lib}.key`), key);
  writeAtomic(join(dir, 'newlib.key'), key);
  rmSync(work, { recursive: true, force: true });
  log?.(`newlib for ${t.name} built`);
  return builtNewlib(t, key)!;
}

/** Compiler flags of a program built against newlib: newlib's headers, then gcc's own. */
export function newlibCflags(t: Target, nl: NewlibBuild): string[] {
  return [...COMMON_CFLAGS, ...t.cflags, `-ffile-prefix-map=${ROOT_DIR}/=`, '-isystem', nl.include, '-isystem', gccIncludeDir(t)];
}

export interface NewlibRuntime {
  newlib: NewlibBuild;
  crt0: string;
  /** Archives linked as one group after the program's objects. */
  libs: string[];
}

const GLUE_DIR = join(LIBC_DIR, 'newlib');

/** Updates an archive from members unless its key stamp matches. */
async function archive(t: Target, out: string, members: readonly string[]): Promise<string> {
  const key = sha256(...members.map((m) => readFileSync(`${m}.key`, 'utf8')));
  if (existsSync(out) && existsSync(`${out}.key`) && readFileSync(`${out}.key`, 'utf8') === key) return out;
  mkdirSync(join(out, '..'), { recursive: true });
  await produceAtomic(out, (tmp) => run(tool(t, 'ar'), ['rcsD', tmp, ...members]));
  writeAtomic(`${out}.key`, key);
  return out;
}

/**
 * The objects of the project's runtime that newlib's system layer links, renamed: the syscall
 * layer of the variant's flavour, isatty, the exec family, and emu.c (compiled against the
 * project's headers).
 */
async function renamedSyscallLayer(v: Variant): Promise<string[]> {
  const { lib } = runtimeSources(v);
  const sysDir = join(LIBC_DIR, 'sys', v.flavour);
  const sys = [...lib.filter((s) => s.startsWith(sysDir + '/')), ...['isatty.c', 'exec.c'].map((f) => join(LIBC_DIR, 'src', 'gen', f))];
  const hkey = headersKey(v);
  const sysObjs = await Promise.all(sys.map((s) => compile(v, s, objPath(v, s), hkey)));
  const emuSrc = join(GLUE_DIR, 'emu.c');
  const emuObj = await compile(v, emuSrc, objPath(v, emuSrc), hkey);
  const defined = await run(tool(v.target, 'nm'), ['-g', '--defined-only', ...sysObjs]);
  const names = [...new Set(defined.split('\n').map((l) => /^[0-9a-f]+ [A-Z] (\S+)$/.exec(l)?.[1]).filter((n): n is string => !!n))].sort();
  const map = names.map((n) => `${n} __emu_${n}\n`).join('');
  const dir = join(variantDir(v), 'newlib', 'obj');
  mkdirSync(dir, { recursive: true });
  const mapFile = join(dir, 'rename.map');
  if (!existsSync(mapFile) || readFileSync(mapFile, 'utf8') !== map) writeAtomic(mapFile, map);
  return Promise.all([...sysObjs, emuObj].map(async (o) => {
    const out = join(dir, `${relative(variantDir(v), o).replace(/[/]/g, '_')}`);
    const key = sha256(readFileSync(`${o}.key`, 'utf8'), map);
    if (!(existsSync(out) && existsSync(`${out}.key`) && readFileSync(`${out}.key`, 'utf8') === key)) {
      await produceAtomic(out, (tmp) => run(tool(v.target, 'objcopy'), [`--redefine-syms=${mapFile}`, o, tmp]));
      writeAtomic(`${out}.key`, key);
    }
    return out;
  }));
}

const newlibRuntimes = new Map<string, Promise<NewlibRuntime>>();

/** newlib, its system layer for the variant's flavour, and the compiler-support routines. */
export function newlibRuntime(v: Variant, log?: (msg: string) => void): Promise<NewlibRuntime> {
  const id = `${v.flavour}-${v.target.name}`;
  let p = newlibRuntimes.get(id);
  if (!p) {
    p = newlibRuntimeUncached(v, log);
    newlibRuntimes.set(id, p);
  }
  return p;
}

async function newlibRuntimeUncached(v: Variant, log?: (msg: string) => void): Promise<NewlibRuntime> {
  const [nl, rt] = await Promise.all([buildNewlib(v.target, log), buildRuntime(v)]);
  const lib = join(variantDir(v), 'newlib', 'lib');
  const glueSrc = join(GLUE_DIR, 'newlib.c');
  const glueObj = await compileObject(v.target, newlibCflags(v.target, nl), glueSrc, join(variantDir(v), 'newlib', 'obj', 'newlib.o'),
    sha256(nl.key, gccVersion(v.target)), [readFileSync(join(GLUE_DIR, 'glue.h'), 'latin1')]);
  const renamed = await renamedSyscallLayer(v);
  const glue = await archive(v.target, join(lib, 'libglue.a'), [glueObj, ...renamed]);
  const supportDir = join(LIBC_DIR, 'src', 'support');
  const support = runtimeSources(v).lib.filter((s) => s.startsWith(supportDir + '/')).map((s) => objPath(v, s));
  const supportLib = await archive(v.target, join(lib, 'libsupport.a'), support);
  return { newlib: nl, crt0: rt.crt0, libs: [nl.libc, nl.libm, glue, supportLib] };
}

/** The name newlib's tarball unpacks to, for messages. */
export function newlibVersion(): string | undefined {
  const s = newlibSource();
  return s ? basename(s).replace(/\.tar\.\w+$/, '') : undefined;
}
