/**
 * `npm run images` / `emu images build`: builds the runtime and every program for the selected
 * targets and flavours (and the host-native oracle builds), then packs the boot images.
 */
import { program, programs } from './catalog.js';
import { buildNative, buildProgram, buildRuntime, variant } from './build.js';
import { FLAVOURS, type Flavour } from './toolchain.js';
import { TARGET_NAMES, type TargetName } from '../format/target.js';

export interface BuildRequest {
  targets?: readonly TargetName[];
  flavours?: readonly Flavour[];
  /** Program names; all when absent. */
  programs?: readonly string[];
  /** Also build host-native versions of the portable programs. */
  native?: boolean;
  /** Called after each finished executable (for progress display). */
  onProgress?: (done: number, total: number, what: string) => void;
}

export interface BuildResult {
  /** `${flavour}-${target}` -> program name -> executable path */
  executables: Map<string, Map<string, string>>;
  native: Map<string, string>;
}

export async function buildAll(req: BuildRequest = {}): Promise<BuildResult> {
  const targets = req.targets ?? TARGET_NAMES;
  const flavours = req.flavours ?? FLAVOURS;
  const specs = req.programs ? req.programs.map(program) : programs();
  const names = specs.map((p) => p.name);
  const nativeNames = req.native ? specs.filter((p) => p.native).map((p) => p.name) : [];
  const total = targets.length * flavours.length * names.length + nativeNames.length;
  let done = 0;
  const tick = (what: string) => req.onProgress?.(++done, total, what);
  const result: BuildResult = { executables: new Map(), native: new Map() };
  const jobs: Promise<void>[] = [];
  for (const f of flavours) {
    for (const t of targets) {
      const v = variant(t, f);
      const m = new Map<string, string>();
      result.executables.set(`${f}-${t}`, m);
      jobs.push(buildRuntime(v).then(() => undefined));
      for (const n of names) {
        jobs.push(buildProgram(v, n).then((exe) => {
          m.set(n, exe);
          tick(`${f}-${t}/${n}`);
        }));
      }
    }
  }
  for (const n of nativeNames) {
    jobs.push(buildNative(n).then((exe) => {
      result.native.set(n, exe);
      tick(`native/${n}`);
    }));
  }
  const settled = await Promise.allSettled(jobs);
  const errors = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => (s.reason as Error).message);
  if (errors.length) throw new Error(`${errors.length} build step(s) failed:\n${[...new Set(errors)].join('\n\n')}`);
  return result;
}
