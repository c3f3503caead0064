/**
 * Programs of GCC's torture suite (gcc.c-torture/execute, from Debian's gcc-12-source), extracted
 * on demand into images/build/torture (never committed) and built with `emu images cc`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DIR, variant } from '../../images/build.js';
import { buildUserProgram } from '../../images/runtime.js';
import type { TargetName } from '../../format/target.js';
import { gccSource } from '../../images/corpus.js';

const DIR = join(BUILD_DIR, 'torture');

/** The sources of the named tests (e.g. `pr70460`), extracted once. */
export function tortureSources(names: string[]): Map<string, string> {
  const src = join(DIR, 'src');
  const want = names.filter((n) => !existsSync(join(src, `${n}.c`)));
  if (want.length > 0) {
    const tmp = join(DIR, `tmp-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    const tarball = gccSource();
    if (!tarball) throw new Error('gcc-12-source is not installed (apt-get install gcc-12-source)');
    const r = spawnSync('tar', ['-xJf', tarball, '-C', tmp, '--wildcards', ...want.map((n) => `*/gcc.c-torture/execute/${n}.c`)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tar -xJf ${tarball}: ${r.stderr}`);
    mkdirSync(src, { recursive: true });
    const found = spawnSync('find', [tmp, '-name', '*.c'], { encoding: 'utf8' }).stdout.trim().split('\n');
    for (const f of found) renameSync(f, join(src, f.slice(f.lastIndexOf('/') + 1)));
    rmSync(tmp, { recursive: true, force: true });
  }
  return new Map(names.map((n) => [n, join(src, `${n}.c`)]));
}

/** Builds one torture test for a target (BSD flavour) with extra flags; returns the executable. */
export async function buildTorture(target: TargetName, source: string, flags: string[]): Promise<string> {
  const name = source.slice(source.lastIndexOf('/') + 1).replace(/\.c$/, '');
  const out = join(DIR, `${target}${flags.join('')}`, name);
  await buildUserProgram(variant(target, 'bsd'), [source], out, ['-w', ...flags]);
  return out;
}
