/**
 * Builds CoreMark from a source tree the user fetched (never committed) with `emu images cc`
 * and the port in this folder (core_portme.h, core_portme.c), for bench/cold.ts and
 * bench/where.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '../../images/build.js';
import type { TargetName } from '../../format/target.js';

const EMU = join(ROOT_DIR, 'bin', 'emu.js');
const PORT = join(ROOT_DIR, 'bench', 'coremark');
const FILES = ['core_list_join.c', 'core_main.c', 'core_matrix.c', 'core_state.c', 'core_util.c'];

/** Builds CoreMark (-O2, the 2K performance run, `iterations` iterations) into `out`. */
export function buildCoremark(src: string, t: TargetName, flavour: 'bsd' | 'linux', iterations: number, out: string): void {
  const files = FILES.map((f) => join(src, f));
  for (const f of files) if (!existsSync(f)) throw new Error(`--coremark ${src}: ${f} is missing (a CoreMark source tree, e.g. a clone of eembc/coremark)`);
  const flags = ['-O2', `-DITERATIONS=${iterations}`, '-DPERFORMANCE_RUN=1', '-DFLAGS_STR="-O2"', `-I${PORT}`, `-I${src}`];
  const r = spawnSync(process.execPath, [EMU, 'images', 'cc', ...files, join(PORT, 'core_portme.c'), '-t', t, '-f', flavour, ...flags.flatMap((f) => ['-X', f]), '-o', out], { encoding: 'latin1' });
  if (r.status !== 0) throw new Error(`emu images cc (CoreMark, ${t}, ${flavour}): ${r.stderr.trim()}`);
}

/** The size and CRC lines of a CoreMark report: what must agree between emu and qemu-user. */
export function coremarkCheck(out: string): string {
  const lines = out.split('\n').filter((l) => /^(CoreMark Size|seedcrc|\[0\]crc|Iterations  )/.test(l));
  if (!lines.some((l) => l.startsWith('[0]crcfinal'))) throw new Error(`CoreMark printed no CRCs:\n${out}`);
  return lines.join('\n');
}
