/**
 * The guest toolchain: targets and every compiler, assembler and linker flag, in one place.
 *
 * Guest code is built with Debian's cross gcc/binutils but links nothing of Debian's: no crt*.o, no
 * libgcc.a, no glibc (they are MIPS32R2 / SPARC V8+ code). Everything a guest links comes from
 * images/libc (crt0, syscall layer, libc, compiler-support routines), built here for each target
 * and each syscall flavour:
 *   - 'bsd'   the 4.4BSD-like ABI of emu's kernel (os/syscalls.master); what boot images hold;
 *   - 'linux' Linux numbers and structures, so the same programs run under qemu-user, the oracle.
 * The flavours differ only in images/libc/sys/<flavour>/.
 *
 * docs/toolchain.md explains each flag; keep it in step with this file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { TARGET_NAMES, type Isa, type TargetName } from '../format/target.js';

export type Flavour = 'bsd' | 'linux';

export interface Target {
  name: TargetName;
  isa: Isa;
  endian: 'little' | 'big';
  /** Debian cross tool prefix, e.g. 'mipsel-linux-gnu-'. */
  prefix: string;
  /** qemu-user binary that runs the Linux-flavour build. */
  qemu: string;
  /** ISA-specific compiler flags. */
  cflags: readonly string[];
  /** ISA-specific assembler-with-cpp flags (in addition to cflags). */
  asflags: readonly string[];
  /** ISA-specific link flags. */
  ldflags: readonly string[];
  /** Entry symbol crt0 defines (the linker's default for the target). */
  entry: string;
}

/**
 * MIPS I + R2010 FPU (R2000/R3000 class): -march=r2000 needs -mfp32; -mno-abicalls -fno-pic gives
 * absolute non-PIC code; -G0 disables $gp-relative small data; -mno-llsc keeps ll/sc (MIPS II) out
 * of atomics; -mno-check-zero-division is NOT used: gcc's divide-by-zero check on MIPS I is
 * `bnez; break 7`, which the kernel turns into SIGFPE as 4.4BSD/Ultrix did.
 */
const MIPS_CFLAGS = ['-march=r2000', '-mfp32', '-mhard-float', '-mno-abicalls', '-fno-pic', '-G0', '-mno-shared', '-mno-llsc'];

/**
 * SPARC v8: -m32 -mcpu=v8 gives pure v8 objects (EM_SPARC); %g5-%g7 are reserved for
 * instrumentation (DESIGN.md section 3); -mlong-double-64 keeps the _Q_* soft-quad routines out.
 */
const SPARC_CFLAGS = ['-m32', '-mcpu=v8', '-ffixed-g5', '-ffixed-g6', '-ffixed-g7', '-mlong-double-64'];

export const TARGETS: Readonly<Record<TargetName, Target>> = {
  mipsel: {
    name: 'mipsel', isa: 'mips', endian: 'little', prefix: 'mipsel-linux-gnu-', qemu: 'qemu-mipsel',
    cflags: [...MIPS_CFLAGS, '-EL'], asflags: [], ldflags: ['-EL'], entry: '__start',
  },
  mips: {
    name: 'mips', isa: 'mips', endian: 'big', prefix: 'mips-linux-gnu-', qemu: 'qemu-mips',
    cflags: [...MIPS_CFLAGS, '-EB'], asflags: [], ldflags: ['-EB'], entry: '__start',
  },
  sparc: {
    name: 'sparc', isa: 'sparc', endian: 'big', prefix: 'sparc64-linux-gnu-', qemu: 'qemu-sparc',
    cflags: SPARC_CFLAGS, asflags: [], ldflags: ['-m32'], entry: '_start',
  },
};

export const FLAVOURS: readonly Flavour[] = ['bsd', 'linux'];

/**
 * The code-generation part of the common flags (below), which also builds newlib
 * (images/newlib.ts), whose own build chooses the optimisation, dialect and include flags.
 */
export const CODEGEN_CFLAGS: readonly string[] = [
  '-fno-pie', '-fno-stack-protector', '-fno-asynchronous-unwind-tables', '-fno-unwind-tables',
  '-fno-common', '-fno-ident',
];

/**
 * Flags common to every target. -nostdinc plus gcc's own include directory gives stdarg.h,
 * stddef.h and float.h from the compiler and everything else from images/libc/include.
 * Unwind tables are off (no .eh_frame), stack protector off (no libssp), and no path or time
 * reaches the output: builds are byte-for-byte reproducible.
 */
export const COMMON_CFLAGS: readonly string[] = ['-O2', '-std=gnu11', '-Wall', '-nostdinc', ...CODEGEN_CFLAGS];

/**
 * Static, non-PIE, no start files and no default libraries; --emit-relocs keeps the relocations
 * the instrumenter needs; no build-id so the output depends on the inputs only.
 */
export const COMMON_LDFLAGS: readonly string[] = [
  '-nostdlib', '-nostartfiles', '-static', '-no-pie', '-Wl,--emit-relocs', '-Wl,--build-id=none',
  '-Wl,-z,noexecstack', '-Wl,--no-undefined',
];

/** Tool path for a target, e.g. tool(TARGETS.mips, 'gcc') -> 'mips-linux-gnu-gcc'. */
export function tool(t: Target, name: 'gcc' | 'ar' | 'objdump' | 'readelf' | 'nm' | 'strip' | 'objcopy'): string {
  return `${t.prefix}${name}`;
}

function onPath(cmd: string): boolean {
  const dirs = (process.env['PATH'] ?? '').split(':');
  return dirs.some((d) => d && existsSync(`${d}/${cmd}`));
}

/** Names of the missing cross tools and qemu binaries (empty when everything is installed). */
export function missingTools(opts: { qemu?: boolean } = {}): string[] {
  const missing: string[] = [];
  for (const n of TARGET_NAMES) {
    const t = TARGETS[n];
    for (const x of ['gcc', 'ar', 'objdump', 'readelf'] as const) if (!onPath(tool(t, x))) missing.push(tool(t, x));
    if (opts.qemu && !onPath(t.qemu)) missing.push(t.qemu);
  }
  return missing;
}

const gccIncludeCache = new Map<TargetName, string>();

/** gcc's private include directory (stdarg.h, stddef.h, float.h) for a target. */
export function gccIncludeDir(t: Target): string {
  let d = gccIncludeCache.get(t.name);
  if (!d) {
    d = execFileSync(tool(t, 'gcc'), [...t.cflags, '-print-file-name=include'], { encoding: 'utf8' }).trim();
    gccIncludeCache.set(t.name, d);
  }
  return d;
}

/** The version line of a target's gcc (recorded in build stamps). */
export function gccVersion(t: Target): string {
  return execFileSync(tool(t, 'gcc'), ['--version'], { encoding: 'utf8' }).split('\n')[0]!.trim();
}
