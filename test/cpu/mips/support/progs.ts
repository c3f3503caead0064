/**
 * Builds the CPU test programs of test/cpu/mips/progs/ with the guest toolchain flags of
 * images/toolchain.ts and the tiny crt of that folder (no libc). Outputs are cached in the
 * system's temp directory under a hash of the sources and flags.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMON_CFLAGS, COMMON_LDFLAGS, TARGETS, gccIncludeDir, tool } from '../../../../images/toolchain.js';
import type { TargetName } from '../../../../format/target.js';
import { buildAsmText } from '../../../support/rowcheck.js';

export const PROGS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'progs');

/** Test programs: name -> sources (crt.S is always linked first). */
export const PROGRAMS: Record<string, string[]> = {
  intops: ['intops.c'],
  control: ['control.c'],
  partial: ['partial.S'],
  fpu: ['fpu.c'],
  fpregs: ['fpregs.S'],
  divzero: ['divzero.S'],
};

export function buildProg(target: TargetName, name: string, extra: string[] = []): string {
  const t = TARGETS[target];
  const srcs = ['crt.S', ...(PROGRAMS[name] ?? [`${name}.c`])].map((s) => join(PROGS_DIR, s));
  const flags = [...COMMON_CFLAGS, ...t.cflags, '-isystem', gccIncludeDir(t), ...COMMON_LDFLAGS, ...t.ldflags, ...extra];
  const h = createHash('sha256');
  for (const s of [...srcs, join(PROGS_DIR, 'util.h')]) h.update(readFileSync(s));
  h.update(flags.join(' '));
  const dir = join(tmpdir(), 'emu-mips-progs');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${name}-${target}-${h.digest('hex').slice(0, 16)}`);
  if (!existsSync(out)) {
    const tmp = `${out}.${process.pid}.tmp`;
    execFileSync(tool(t, 'gcc'), [...flags, '-o', tmp, ...srcs], { stdio: ['ignore', 'pipe', 'pipe'] });
    renameSync(tmp, out);
  }
  return out;
}

/** Builds a stand-alone assembly program given as text (no crt; entry __start), cached by hash. */
export function buildAsm(target: TargetName, name: string, text: string): string {
  const t = TARGETS[target];
  return buildAsmText(tool(t, 'gcc'), [...COMMON_CFLAGS, ...t.cflags, ...COMMON_LDFLAGS, ...t.ldflags], join(tmpdir(), 'emu-mips-progs'), `${name}-${target}`, text);
}
