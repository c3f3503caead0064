/**
 * GCC's execution torture tests (gcc.c-torture/execute of Debian's gcc-12-source) as an external
 * corpus: extracting them, reading each test's DejaGnu directives, and building each test for a
 * configuration (target, libc, optimisation level) in both syscall flavours. Running them is
 * bench/corpus.ts's job (docs/corpus.md).
 *
 * The tests are self-checking: `abort()` on a wrong result, exit status 0 otherwise. Since GCC 11
 * they carry their requirements as DejaGnu comments (`{ dg-options ... }`, `{ dg-skip-if ... }`,
 * `{ dg-require-effective-target ... }`) instead of the old `.x` files; `plan` interprets them for
 * these targets the way GCC's testsuite (gcc-dg-runtest) would, and names the reason when a test
 * is not built. Nothing extracted is committed: it lives under images/build/corpus/.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUILD_DIR, BuildError, ROOT_DIR, compileObject, run, sha256, variant, writeAtomic } from './build.js';
import { linkExecutable, linkRuntime, type Libc, type LinkRuntime } from './runtime.js';
import { TARGETS, type Flavour } from './toolchain.js';
import type { TargetName } from '../format/target.js';

/** Where Debian's gcc-12-source installs the GCC tarball. */
export const GCC_SOURCE_DIR = '/usr/src/gcc-12';
export const TORTURE_SUBDIR = 'gcc/testsuite/gcc.c-torture/execute';
export const CORPUS_DIR = join(BUILD_DIR, 'corpus');

/** The GCC source tarball ($EMU_GCC_SOURCE, else Debian's), or undefined when absent. */
export function gccSource(): string | undefined {
  const env = process.env['EMU_GCC_SOURCE'];
  if (env) return existsSync(env) ? env : undefined;
  if (!existsSync(GCC_SOURCE_DIR)) return undefined;
  const t = readdirSync(GCC_SOURCE_DIR).filter((n) => /^gcc-[\d.]+(-dfsg)?\.tar\.(xz|gz|bz2)$/.test(n)).sort();
  return t.length ? join(GCC_SOURCE_DIR, t[t.length - 1]!) : undefined;
}

const hashes = new Map<string, string>();
function fileHash(file: string): string {
  let h = hashes.get(file);
  if (!h) {
    h = createHash('sha256').update(readFileSync(file)).digest('hex');
    hashes.set(file, h);
  }
  return h;
}

/**
 * Extracts gcc.c-torture/execute (its .c files and subfolders) from the tarball into
 * images/build/corpus/execute, once per tarball; returns that folder.
 */
export async function extractTorture(log?: (msg: string) => void): Promise<string> {
  const src = gccSource();
  if (!src) throw new BuildError(`GCC's source is not installed (no ${GCC_SOURCE_DIR}/gcc-*.tar.xz): apt-get install gcc-12-source, or set EMU_GCC_SOURCE`);
  const dir = join(CORPUS_DIR, 'execute');
  const stamp = join(CORPUS_DIR, 'execute.key');
  const key = sha256('torture-extract-1', fileHash(src));
  if (existsSync(dir) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return dir;
  log?.(`extracting ${TORTURE_SUBDIR} from ${src}`);
  mkdirSync(CORPUS_DIR, { recursive: true });
  const work = mkdtempSync(join(CORPUS_DIR, 'extract-'));
  try {
    await run('tar', ['-xf', src, '-C', work, '--wildcards', `*/${TORTURE_SUBDIR}/*`]);
    const top = readdirSync(work);
    if (top.length !== 1 || !existsSync(join(work, top[0]!, TORTURE_SUBDIR))) throw new BuildError(`${src}: no ${TORTURE_SUBDIR} inside`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, top[0]!, TORTURE_SUBDIR), dir);
    writeAtomic(stamp, key);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

export interface TortureTest {
  /** File name without .c, e.g. "pr12345" or "20000112-1". */
  name: string;
  file: string;
  /** The test's DejaGnu directives, each a parsed Tcl list: ["dg-options", "-fwrapv"]. */
  directives: Tcl[];
}

/** The tests: every .c file directly in the folder (not builtins/ and ieee/), sorted by name. */
export function tortureTests(dir: string): TortureTest[] {
  return readdirSync(dir).filter((n) => n.endsWith('.c') && statSync(join(dir, n)).isFile()).sort().map((n) => {
    const file = join(dir, n);
    return { name: n.slice(0, -2), file, directives: directives(readFileSync(file, 'latin1')) };
  });
}

/** A Tcl list as DejaGnu reads it: words (bare or quoted) and braced sub-lists. */
export type Tcl = string | Tcl[];

/** Parses the inside of one `{ ... }` Tcl list. */
export function parseTcl(text: string): Tcl[] {
  let i = 0;
  const list = (close: string | null): Tcl[] => {
    const out: Tcl[] = [];
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (i >= text.length) {
        if (close) throw new Error(`unbalanced braces in ${JSON.stringify(text)}`);
        return out;
      }
      const c = text[i]!;
      if (c === close) {
        i++;
        return out;
      }
      if (c === '{') {
        i++;
        out.push(list('}'));
      } else if (c === '"') {
        let s = '';
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\' && i + 1 < text.length) i++;
          s += text[i++];
        }
        i++;
        out.push(s);
      } else {
        const start = i;
        while (i < text.length && !/[\s{}]/.test(text[i]!)) i++;
        out.push(text.slice(start, i));
      }
    }
  };
  return list(null);
}

/** Every `{ dg-... }` directive of a source file, in order. */
export function directives(src: string): Tcl[] {
  const out: Tcl[] = [];
  const re = /\{\s*dg-[a-z-]+/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    // The directive ends at the brace matching its opening one (quotes may hold braces).
    let depth = 0;
    let j = m.index;
    let quoted = false;
    for (; j < src.length; j++) {
      const c = src[j];
      if (c === '\\') j++;
      else if (c === '"') quoted = !quoted;
      else if (!quoted && c === '{') depth++;
      else if (!quoted && c === '}' && --depth === 0) break;
    }
    out.push(parseTcl(src.slice(m.index + 1, j)));
    re.lastIndex = j;
  }
  return out;
}

export interface CorpusConfig {
  target: TargetName;
  libc: Libc;
  /** Optimisation level without the dash: "O0", "O2", "Os". */
  opt: string;
}

export function configId(c: CorpusConfig): string {
  return `${c.target}-${c.libc}-${c.opt}`;
}

/** The stack a guest may use: emu's MAXSSIZ (os/param.ts) and Linux's default RLIMIT_STACK. */
const STACK_LIMIT = 8 * 1024 * 1024;

/**
 * DejaGnu's effective-target keywords as they hold for these targets (static, non-PIC, 32-bit
 * MIPS I / SPARC v8 ELF with a hosted C library): true, or the reason the property is missing.
 * Properties of the C library (fileio, mmap, c99_runtime) count as present: whether the libc
 * really has them shows in the build, which names what is missing.
 */
const EFFECTIVE: Record<string, true | string> = {
  int32plus: true, int32: true, size32plus: true, ilp32: true, longlong64: true, double64: true, double64plus: true,
  stdint_types: true, label_values: true, indirect_jumps: true, alloca: true, untyped_assembly: true,
  return_address: true, nonlocal_goto: true, unwrapped: true, signal: true, fileio: true, mmap: true, c99_runtime: true,
  // Nested functions whose address is taken: trampolines on the stack (plan links these tests
  // with an executable stack, as the toolchain does by default for objects that ask for one).
  trampolines: true,
  int128: 'needs __int128, which only 64-bit targets have',
  lp64: 'needs 64-bit long and pointers',
  dfp: 'needs decimal floating point',
  freestanding: 'the guests are hosted', newlib_nano_io: "newlib's nano formatted I/O is not used",
  fpic: 'the guests are non-PIC (-fno-pic -mno-abicalls on MIPS)', ia32: 'not x86', vxworks_kernel: 'not VxWorks',
};

class Unknown extends Error {}

/** The GNU-style triplet DejaGnu's target globs are matched against. */
function triplet(t: TargetName): string {
  return `${t}-unknown-elf`;
}

function glob(pattern: string, s: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(s);
}

/** Whether a DejaGnu selector (triplet globs, effective-target keywords, !, &&, ||) holds. */
function selects(sel: Tcl[], t: TargetName): boolean {
  const ors = splitOn(sel, '||');
  if (ors.length > 1) return ors.some((x) => selects(x, t));
  const ands = splitOn(sel, '&&');
  if (ands.length > 1) return ands.every((x) => selects(x, t));
  if (sel[0] === '!') return !selects(sel.slice(1), t);
  // A plain list: any of its words.
  return sel.some((w) => (Array.isArray(w) ? selects(w, t) : word(w, t)));
}

function splitOn(sel: Tcl[], op: string): Tcl[][] {
  const out: Tcl[][] = [[]];
  for (const w of sel) {
    if (w === op) out.push([]);
    else out[out.length - 1]!.push(w);
  }
  return out;
}

function word(w: string, t: TargetName): boolean {
  if (w.includes('-')) return glob(w, triplet(t));
  const e = EFFECTIVE[w];
  if (e === undefined) throw new Unknown(`effective target '${w}'`);
  return e === true;
}

/** `{ target SEL }` (or absent: true). */
function targetSelector(x: Tcl | undefined, t: TargetName): boolean {
  if (x === undefined) return true;
  const l = Array.isArray(x) ? x : [x];
  if (l[0] !== 'target') throw new Unknown(`selector ${JSON.stringify(x)}`);
  return selects(l.slice(1), t);
}

/** The words of a Tcl value, sub-lists flattened. */
function words(x: Tcl): string[] {
  return Array.isArray(x) ? x.flatMap(words) : [x];
}

/** dg's flag check: an include pattern matches a flag, and no exclude pattern does. */
function flagsMatch(flags: readonly string[], include: Tcl | undefined, exclude: Tcl | undefined): boolean {
  const inc = include === undefined ? ['*'] : words(include);
  const exc = exclude === undefined ? [''] : words(exclude);
  const any = (pats: string[]) => pats.some((p) => p === '*' || (p !== '' && flags.some((f) => glob(p, f))));
  return any(inc) && !any(exc);
}

/** Evaluates `8*100*100`, `0x12000`, `40000 * 4 + 256`. */
function arith(e: string): number {
  if (!/^[\d\sx*+a-fA-F()-]+$/.test(e)) throw new Unknown(`stack size ${JSON.stringify(e)}`);
  return Number(new Function(`return (${e});`)());
}

export interface TorturePlan {
  /** Why the test is not built for this configuration (DejaGnu would not run it). */
  skip?: string;
  /** Compiler flags after the libc's: the optimisation level, -w, and the test's options. */
  flags: string[];
  /** The test is expected to fail here (dg-xfail-if / dg-xfail-run-if), and why. */
  xfail?: string;
  /** Linker driver flags after the libc's. */
  ldflags?: string[];
}

/**
 * The guests link with -z noexecstack (images/toolchain.ts). gcc marks an object whose nested
 * functions need trampolines as needing an executable stack, which the toolchain's default would
 * grant; a test that requires trampolines gets it back (qemu-user honours PT_GNU_STACK; emu's
 * stack is always executable, as 4.4BSD's was).
 */
const EXEC_STACK = ['-Wl,-z,execstack'];

/**
 * How GCC's testsuite would build one test for a configuration: `-w` and the optimisation level
 * (gcc-dg-runtest's defaults for gcc.c-torture/execute), dg-options replacing `-w`,
 * dg-additional-options appended; or the reason it would not run it.
 */
export function plan(test: TortureTest, c: CorpusConfig): TorturePlan {
  const opt = `-${c.opt}`;
  let options: string[] = ['-w'];
  const additional: string[] = [];
  let xfail: string | undefined;
  let ldflags: string[] | undefined;
  try {
    for (const d of test.directives) {
      if (!Array.isArray(d) || typeof d[0] !== 'string') continue;
      const [name, a, b, c2, d2] = d as [string, Tcl?, Tcl?, Tcl?, Tcl?];
      const str = (x: Tcl | undefined) => (x === undefined ? '' : words(x).join(' '));
      switch (name) {
        case 'dg-do':
          if (a !== 'run') return { skip: `dg-do ${str(a)}: not an execution test`, flags: [] };
          break;
        case 'dg-options':
          if (targetSelector(b, c.target)) options = str(a).split(/\s+/).filter(Boolean);
          break;
        case 'dg-additional-options':
          if (targetSelector(b, c.target)) additional.push(...str(a).split(/\s+/).filter(Boolean));
          break;
        case 'dg-add-options':
          // stack_size: only for targets with a small stack; ieee: only alpha, sh, rx and the like.
          if (a !== 'stack_size' && a !== 'ieee') throw new Unknown(`dg-add-options ${str(a)}`);
          break;
        case 'dg-require-effective-target': {
          if (!targetSelector(b, c.target)) break;
          const e = EFFECTIVE[str(a)];
          if (e === undefined) throw new Unknown(`effective target '${str(a)}'`);
          if (e !== true) return { skip: e, flags: [] };
          if (str(a) === 'trampolines') ldflags = EXEC_STACK;
          break;
        }
        case 'dg-skip-if':
          if (selects(Array.isArray(b) ? b : [b ?? ''], c.target) && flagsMatch([opt, ...options, ...additional], c2, d2)) {
            return { skip: `dg-skip-if: ${str(a) || `selects this target (${str(b)})`}`, flags: [] };
          }
          break;
        case 'dg-xfail-if':
        case 'dg-xfail-run-if':
          if (selects(Array.isArray(b) ? b : [b ?? ''], c.target) && flagsMatch([opt, ...options, ...additional], c2, d2)) xfail = str(a) || name;
          break;
        case 'dg-require-stack-size':
          if (arith(str(a)) > STACK_LIMIT) return { skip: `needs a stack of ${str(a)} bytes`, flags: [] };
          break;
        case 'dg-require-alias':
        case 'dg-require-weak':
        case 'dg-prune-output':
        case 'dg-timeout-factor':
          break;
        default:
          throw new Unknown(`directive ${name}`);
      }
    }
  } catch (e) {
    if (e instanceof Unknown) return { skip: `its DejaGnu directives name ${e.message}, which the corpus does not interpret`, flags: [] };
    throw e;
  }
  const p: TorturePlan = { flags: [opt, ...options, ...additional] };
  if (xfail) p.xfail = xfail;
  if (ldflags) p.ldflags = ldflags;
  return p;
}

export interface TortureBuilt {
  ok: true;
  /** The executables, one per syscall flavour. */
  exe: Record<Flavour, string>;
}

export interface TortureBuildFailure {
  ok: false;
  stage: 'compile' | 'link';
  /** One line: a missing header or function, or the compiler's first error. */
  reason: string;
  /** The tool's output, shortened. */
  detail: string;
}

interface Runtimes {
  /** Compiles (the program-visible headers are the same in both flavours: one object serves both). */
  compile: LinkRuntime;
  link: Record<Flavour, LinkRuntime>;
}

const runtimes = new Map<string, Promise<Runtimes>>();

function runtimesFor(c: CorpusConfig, log?: (msg: string) => void): Promise<Runtimes> {
  const id = `${c.target}-${c.libc}`;
  let p = runtimes.get(id);
  if (!p) {
    p = Promise.all([linkRuntime(variant(c.target, 'bsd'), c.libc, log), linkRuntime(variant(c.target, 'linux'), c.libc, log)])
      .then(([bsd, linux]) => ({ compile: linux, link: { bsd, linux } }));
    runtimes.set(id, p);
  }
  return p;
}

function stampOf(f: string): string {
  return readFileSync(`${f}.key`, 'utf8');
}

/**
 * The key of a test's build for a configuration: its source, the flags, and everything of the
 * runtimes the compile and the links read. Equal keys give the same executables.
 */
export async function buildKey(test: TortureTest, c: CorpusConfig, flags: readonly string[], ldflags: readonly string[] = [], log?: (msg: string) => void): Promise<string> {
  const rt = await runtimesFor(c, log);
  const linkParts = (['bsd', 'linux'] as const).flatMap((f) => [rt.link[f].crt0, ...rt.link[f].libs].map(stampOf));
  // Without link flags the key is the one earlier runs stored.
  return sha256('torture-build-1', readFileSync(test.file, 'latin1'), [...rt.compile.cflags, ...flags].join(' '), rt.compile.headersKey, ...linkParts, ...(ldflags.length ? [ldflags.join(' ')] : []));
}

/** Where a configuration's objects and executables go. */
export function configDir(c: CorpusConfig): string {
  return join(CORPUS_DIR, 'build', configId(c));
}

/** Turns a compiler or linker failure into one line. */
export function failureReason(output: string): string {
  const header = /fatal error: ([^:\n]+): No such file or directory/.exec(output);
  if (header) return `missing header <${header[1]}>`;
  const undef = [...new Set([...output.matchAll(/undefined reference to `([^']+)'/g)].map((m) => m[1]!))];
  if (undef.length) return `missing ${undef.sort().join(', ')}`;
  const err = /error: (.*)/.exec(output);
  if (err) return `compile error: ${err[1]!.trim()}`;
  return output.trim().split('\n').slice(-1)[0] ?? 'failed';
}

/** Compiles a test once and links it for both flavours; a failure is a result, not an exception. */
export async function buildTorture(test: TortureTest, c: CorpusConfig, flags: readonly string[], ldflags: readonly string[] = [], log?: (msg: string) => void): Promise<TortureBuilt | TortureBuildFailure> {
  const rt = await runtimesFor(c, log);
  const dir = configDir(c);
  const obj = join(dir, 'obj', `${test.name}.o`);
  // A BuildError's first line is the command; the rest is the tool's output.
  const shorten = (m: string) => m.split('\n').slice(1, 41).join('\n').slice(0, 4000);
  try {
    await compileObject(TARGETS[c.target], [...rt.compile.cflags, ...flags], test.file, obj, rt.compile.headersKey);
  } catch (e) {
    if (!(e instanceof BuildError)) throw e;
    return { ok: false, stage: 'compile', reason: failureReason(e.message), detail: shorten(e.message) };
  }
  const exe = {} as Record<Flavour, string>;
  for (const f of ['bsd', 'linux'] as const) {
    try {
      exe[f] = await linkExecutable(variant(c.target, f), rt.link[f], [obj], join(dir, f, test.name), ldflags);
    } catch (e) {
      if (!(e instanceof BuildError)) throw e;
      return { ok: false, stage: 'link', reason: failureReason(e.message), detail: shorten(e.message) };
    }
  }
  return { ok: true, exe };
}

/** For messages: a path relative to the repository. */
export function rel(p: string): string {
  return relative(ROOT_DIR, p);
}
