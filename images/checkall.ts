/**
 * Runs the ISA check (images/isacheck.ts) over built executables: each is checked against the
 * symbols of the very objects it was linked from (its crt0.o, libraries and program objects).
 * With newlib, every member of every library a program may link (newlib's libc.a and libm.a, the
 * system-layer and support archives) is checked too, not only what the programs link.
 */
import { relative } from 'node:path';
import { ROOT_DIR, variant } from './build.js';
import { program, programs } from './catalog.js';
import { checkArchive, checkExecutable, definedSymbols, formatViolations } from './isacheck.js';
import { NEWLIB_PROGRAMS } from './newlib.js';
import { buildProgramWith, linkRuntime, programObjects, type Libc } from './runtime.js';
import { FLAVOURS, type Flavour } from './toolchain.js';
import { TARGET_NAMES, type TargetName } from '../format/target.js';

export interface CheckRequest {
  targets?: readonly TargetName[];
  flavours?: readonly Flavour[];
  programs?: readonly string[];
  /** Default: the project's libc. With newlib, the programs default to NEWLIB_PROGRAMS. */
  libc?: Libc;
  log?: (msg: string) => void;
}

export async function checkBuilt(req: CheckRequest = {}): Promise<{ checked: number; failures: string[] }> {
  const failures: string[] = [];
  let checked = 0;
  const libc = req.libc ?? 'emu';
  const names = req.programs ?? (libc === 'newlib' ? NEWLIB_PROGRAMS : programs().map((p) => p.name));
  const archivesChecked = new Set<string>();
  for (const f of req.flavours ?? FLAVOURS) {
    for (const t of req.targets ?? TARGET_NAMES) {
      const v = variant(t, f);
      const rt = await linkRuntime(v, libc, req.log);
      if (libc !== 'emu') {
        for (const a of [rt.crt0, ...rt.libs].filter((x) => !archivesChecked.has(x))) {
          archivesChecked.add(a);
          const viol = await checkArchive(a, t);
          checked++;
          if (viol.length) failures.push(formatViolations(relative(ROOT_DIR, a), viol));
        }
      }
      const runtimeSyms = await definedSymbols(t, [rt.crt0, ...rt.libs]);
      for (const n of names) {
        const exe = await buildProgramWith(v, n, libc);
        const own = new Set([...runtimeSyms, ...(await definedSymbols(t, programObjects(v, n, libc)))]);
        const viol = await checkExecutable(exe, { target: t, ownSymbols: own, traceConsumer: program(n).traceConsumer });
        checked++;
        if (viol.length) failures.push(formatViolations(relative(ROOT_DIR, exe), viol));
      }
    }
  }
  return { checked, failures };
}
