/**
 * The boot images this project ships (images/boot/<name>.tar): which programs and files each
 * holds, the command its /etc/rc runs, and which programs `emu run --trace` instruments.
 * Every image also holds the base system: /sbin/init, /bin/sh, echo, cat, wc.
 */
import { MACHINE_DEFAULTS, type ImageManifest } from './manifest.js';
import type { TargetName } from './toolchain.js';

export interface ImageSpec {
  name: string;
  target: TargetName;
  description: string;
  /** Programs installed in /bin (besides the base system). */
  programs: string[];
  /** Extra files: guest path <- file relative to images/programs/. */
  data: { guest: string; source: string }[];
  /** Text of /etc/rc. */
  command: string;
  /** Program names (in /bin) that `emu run --trace` instruments. */
  traced: string[];
}

export const BASE_PROGRAMS = ['init', 'sh', 'echo', 'cat', 'wc'] as const;

interface Workload {
  id: string;
  description: string;
  programs: string[];
  data?: { guest: string; source: string }[];
  command: string;
  traced: string[];
}

/** The workloads, each shipped as one image per target. */
export const WORKLOADS: readonly Workload[] = [];

/** The default image of `emu run`: a pipeline and a client/server pair running together. */
const DEMO: Workload = {
  id: 'demo',
  description: 'a pipeline (textgen | egrep | wc) and a client/server pair (cs) running together',
  programs: ['textgen', 'egrep', 'cs', 'client', 'server'],
  command: [
    '# demo: a pipeline and a client/server pair competing for the CPU',
    "textgen 400000 | egrep 'zebra|quux' | wc -l &",
    'cs 2000',
    'wait',
    '',
  ].join('\n'),
  traced: ['textgen', 'egrep', 'cs', 'client', 'server'],
};

export const DEMO_TARGETS: readonly TargetName[] = ['mipsel', 'sparc'];

export function imageSpecs(): ImageSpec[] {
  const out: ImageSpec[] = [];
  const mk = (w: Workload, target: TargetName): ImageSpec => ({
    name: `${w.id}-${target}`, target, description: w.description, programs: w.programs,
    data: w.data ?? [], command: w.command, traced: w.traced,
  });
  for (const t of DEMO_TARGETS) out.push(mk(DEMO, t));
  for (const w of WORKLOADS) for (const t of ['mipsel', 'mips', 'sparc'] as const) out.push(mk(w, t));
  return out;
}

export function manifestFor(spec: ImageSpec): ImageManifest {
  return {
    format: 'emu-image', version: 1, name: spec.name, description: spec.description, arch: spec.target,
    memory: MACHINE_DEFAULTS.memory,
    clock: { ...MACHINE_DEFAULTS.clock },
    devices: { disk: { ...MACHINE_DEFAULTS.devices.disk }, store: { ...MACHINE_DEFAULTS.devices.store } },
    trbuf_size: MACHINE_DEFAULTS.trbuf_size,
    traced: spec.traced.map((p) => `/bin/${p}`),
    init: ['/sbin/init'],
    env: [...MACHINE_DEFAULTS.env],
    command: spec.command,
  };
}
