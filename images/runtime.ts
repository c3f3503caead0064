/**
 * The C library a guest program links: the project's own (images/libc, the default) or newlib
 * (images/newlib.ts). Both give a program the same start-up (the project's crt0) and the same
 * system calls (the project's syscall layer of the chosen flavour); they differ in headers and in
 * the library code. `emu images cc --libc`, the corpus and the tests build through here.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  BuildError, IMAGES_DIR, buildProgram, buildRuntime, cflags, compileObject, headersKey, linkFlags, listFiles, objPath, pool,
  produceAtomic, programSources, run, sha256, variantDir, writeAtomic, type Variant,
} from './build.js';
import { newlibCflags, newlibRuntime } from './newlib.js';
import { gccVersion, tool } from './toolchain.js';

export type Libc = 'emu' | 'newlib';
export const LIBCS: readonly Libc[] = ['emu', 'newlib'];

export interface LinkRuntime {
  libc: Libc;
  /** Flags that compile a program against this libc (the caller adds its own after them). */
  cflags: string[];
  /** Hash of every header those flags can reach, and of the compiler (for object cache keys). */
  headersKey: string;
  /** Linked first. */
  crt0: string;
  /** Linked after the program's objects, as one group. */
  libs: string[];
}

/** Builds (or finds up to date) everything a program needs to link against a libc. */
export async function linkRuntime(v: Variant, libc: Libc, log?: (msg: string) => void): Promise<LinkRuntime> {
  if (libc === 'emu') {
    const rt = await buildRuntime(v);
    return { libc, cflags: cflags(v), headersKey: headersKey(v), crt0: rt.crt0, libs: [rt.libc] };
  }
  const rt = await newlibRuntime(v, log);
  return { libc, cflags: newlibCflags(v.target, rt.newlib), headersKey: sha256(rt.newlib.key, gccVersion(v.target)), crt0: rt.crt0, libs: rt.libs };
}

/** The compiler-driver arguments that link objects into `out` against a runtime. */
export function linkArgs(v: Variant, rt: LinkRuntime, objs: readonly string[], out: string, extra: readonly string[] = []): string[] {
  return [...linkFlags(v), ...extra, rt.crt0, ...objs, '-Wl,--start-group', ...rt.libs, '-Wl,--end-group', '-o', out];
}

/**
 * Links objects (each with its key stamp) into `exe` against a runtime, with `extra` linker
 * driver flags, unless exe's stamp says it is up to date. Returns exe.
 */
export async function linkExecutable(v: Variant, rt: LinkRuntime, objs: readonly string[], exe: string, extra: readonly string[] = []): Promise<string> {
  const inputs = [rt.crt0, ...objs, ...rt.libs];
  const key = sha256(linkArgs(v, rt, [], '', extra).join(' '), ...inputs.map((i) => readFileSync(`${i}.key`, 'utf8')));
  if (existsSync(exe) && existsSync(`${exe}.key`) && readFileSync(`${exe}.key`, 'utf8') === key) return exe;
  mkdirSync(dirname(exe), { recursive: true });
  await produceAtomic(exe, (tmp) => pool.run(() => run(tool(v.target, 'gcc'), linkArgs(v, rt, objs, tmp, extra))));
  writeAtomic(`${exe}.key`, key);
  return exe;
}

/**
 * A catalog program (images/programs/<name>) built against a libc: the project's is the catalog
 * build (images/build/<flavour>-<target>/bin); newlib's goes to .../newlib/bin.
 */
export async function buildProgramWith(v: Variant, name: string, libc: Libc): Promise<string> {
  if (libc === 'emu') return buildProgram(v, name);
  const rt = await linkRuntime(v, libc);
  const srcs = programSources(name);
  const objs = programObjects(v, name, libc);
  await Promise.all(srcs.map((s, i) => {
    const local = listFiles(dirname(s), ['.h'], false).map((h) => readFileSync(h, 'latin1'));
    return compileObject(v.target, rt.cflags, s, objs[i]!, rt.headersKey, local);
  }));
  return linkExecutable(v, rt, objs, join(variantDir(v), libc, 'bin', name));
}

/** The objects of a catalog program's build against a libc, in programSources order. */
export function programObjects(v: Variant, name: string, libc: Libc): string[] {
  return programSources(name).map((s) => libc === 'emu' ? objPath(v, s) : join(variantDir(v), libc, 'obj', relative(IMAGES_DIR, s).replace(/\.(c|S)$/, '.o')));
}

/**
 * Builds a user's own program (C and assembly files anywhere on the host) against a libc for a
 * variant: `emu images cc`. Objects go to a temporary directory; `out` is written only when the
 * link succeeds.
 */
export async function buildUserProgram(
  v: Variant, sources: readonly string[], out: string, extraCflags: readonly string[] = [], libc: Libc = 'emu', log?: (msg: string) => void,
  show: UserBuildOutput = {},
): Promise<void> {
  if (sources.length === 0) throw new BuildError('no source files given');
  for (const s of sources) {
    if (!/\.(c|S|s)$/.test(s)) throw new BuildError(`${s}: not a .c, .S or .s file`);
    if (!existsSync(s)) throw new BuildError(`${s}: no such file`);
  }
  const rt = await linkRuntime(v, libc, log);
  const tmp = mkdtempSync(join(tmpdir(), 'emu-cc-'));
  // Each tool run: its command line shown first (when asked), its diagnostics after it.
  const step = async (args: string[]): Promise<void> => {
    const gcc = tool(v.target, 'gcc');
    show.command?.([gcc, ...args].join(' '));
    const text = await run(gcc, args, process.cwd());
    if (text.trim() !== '') show.diagnostics?.(text);
  };
  try {
    const objs = await Promise.all(sources.map((src, i) => {
      const obj = join(tmp, `${i}-${basename(src).replace(/\.\w+$/, '')}.o`);
      return pool.run(() => step([...rt.cflags, ...extraCflags, '-c', resolve(src), '-o', obj])).then(() => obj);
    }));
    const linked = join(tmp, 'a.out');
    await step(linkArgs(v, rt, objs, linked));
    mkdirSync(dirname(resolve(out)), { recursive: true });
    writeFileSync(out, readFileSync(linked), { mode: 0o755 });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Where `emu images cc` shows what the compiler did (both optional). */
export interface UserBuildOutput {
  /** The compiler's diagnostics (warnings) of a run that succeeded; a failed run throws them. */
  diagnostics?: (text: string) => void;
  /** Each command line, before it runs (--verbose). */
  command?: (line: string) => void;
}
