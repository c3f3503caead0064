/**
 * Runs the ISA check (images/isacheck.ts) over built executables: each is checked against the
 * symbols of the very objects it was linked from (its crt0.o, libc.a and program objects).
 */
import { relative } from 'node:path';
import { ROOT_DIR, buildProgram, buildRuntime, objPath, programSources, variant } from './build.js';
import { program, programs } from './catalog.js';
import { checkExecutable, definedSymbols, formatViolations } from './isacheck.js';
import { FLAVOURS, type Flavour } from './toolchain.js';
import { TARGET_NAMES, type TargetName } from '../format/target.js';

export interface CheckRequest {
  targets?: readonly TargetName[];
  flavours?: readonly Flavour[];
  programs?: readonly string[];
}

export async function checkBuilt(req: CheckRequest = {}): Promise<{ checked: number; failures: string[] }> {
  const failures: string[] = [];
  let checked = 0;
  const names = req.programs ?? programs().map((p) => p.name);
  for (const f of req.flavours ?? FLAVOURS) {
    for (const t of req.targets ?? TARGET_NAMES) {
      const v = variant(t, f);
      const rt = await buildRuntime(v);
      const runtimeSyms = await definedSymbols(t, [rt.crt0, rt.libc]);
      for (const n of names) {
        const exe = await buildProgram(v, n);
        const objs = programSources(n).map((s) => objPath(v, s));
        const own = new Set([...runtimeSyms, ...(await definedSymbols(t, objs))]);
        const viol = await checkExecutable(exe, { target: t, ownSymbols: own, traceConsumer: program(n).traceConsumer });
        checked++;
        if (viol.length) failures.push(formatViolations(relative(ROOT_DIR, exe), viol));
      }
    }
  }
  return { checked, failures };
}
