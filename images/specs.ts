/**
 * The boot images this project ships (images/boot/<name>.tar): which programs and files each
 * holds, the command its /etc/rc runs, and which programs `emu run --trace` instruments.
 * Every image also holds the base system: /sbin/init, /bin/sh, echo, cat, wc.
 */
import { MACHINE_DEFAULTS, type ImageManifest } from '../format/image.js';
import type { TargetName } from '../format/target.js';

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

/**
 * The workloads, each shipped as one image per target: the programs of mazieres-smith-1994 Figure 11
 * (li, gcc -> cc1, egrep) and larus-1990 section 6 (compress, sgefa, pdp), and the multi-tasking
 * workloads.
 */
export const WORKLOADS: readonly Workload[] = [
  {
    id: 'li', description: 'li: a Lisp interpreter solving 7-queens (the SPEC xlisp run of mazieres-smith-1994 Figure 11)',
    programs: ['li'], data: [{ guest: '/usr/share/li/queens.lsp', source: 'li/queens.lsp' }],
    command: 'li /usr/share/li/queens.lsp 7\n', traced: ['li'],
  },
  {
    id: 'cc1', description: 'cc1: a compiler-like workload (lex, parse, check, fold, allocate registers, emit assembly), 6 compilations',
    programs: ['cc1'], data: [{ guest: '/usr/share/cc1/input.mc', source: 'cc1/input.mc' }],
    command: 'cc1 -k 6 /usr/share/cc1/input.mc\n', traced: ['cc1'],
  },
  {
    id: 'egrep', description: 'egrep: search a generated 3 MB file for a pattern it does not contain',
    programs: ['textgen', 'egrep'],
    command: "textgen 3000000 > /tmp/big.txt\negrep -c 'zebra.*quux' /tmp/big.txt\n", traced: ['egrep'],
  },
  {
    id: 'compress', description: 'compress: LZW compress and decompress of generated data with a round-trip check',
    programs: ['compress'], command: 'compress\n', traced: ['compress'],
  },
  {
    id: 'sgefa', description: 'sgefa: LINPACK Gaussian elimination (dgefa/dgesl) in double precision with residual checks',
    programs: ['sgefa'], command: 'sgefa\n', traced: ['sgefa'],
  },
  {
    id: 'pdp', description: 'pdp: connectionist simulation with irregular pointer chasing (back propagation, Hopfield memory)',
    programs: ['pdp'], command: 'pdp\n', traced: ['pdp'],
  },
  {
    id: 'cs', description: 'cs: a client/server pair exchanging many small messages over pipes (frequent context switches)',
    programs: ['cs', 'client', 'server'], command: 'cs\n', traced: ['cs', 'client', 'server'],
  },
  {
    id: 'pipeline', description: 'pipeline: textgen | egrep | wc, three traced processes connected by pipes',
    programs: ['textgen', 'egrep'], command: "textgen 2000000 | egrep 'kernel|trace' | wc\n", traced: ['textgen', 'egrep', 'wc'],
  },
  {
    id: 'pmake', description: 'pmake: a fork-heavy parallel make driver running workloads as jobs, 4 at a time',
    programs: ['pmake', 'textgen', 'compress', 'egrep', 'jmptest', 'cs', 'client', 'server', 'sigtest'],
    data: [{ guest: '/usr/share/pmake/workload.mk', source: 'pmake/tests/workload.mk' }],
    command: 'pmake -j 4 -f /usr/share/pmake/workload.mk\n',
    traced: ['pmake', 'textgen', 'compress', 'egrep', 'wc', 'jmptest', 'cs', 'client', 'server', 'sigtest'],
  },
  {
    id: 'sigtest', description: 'sigtest: handlers installed with sigaction and called by the kernel (SIGUSR1, SIGCHLD, SIGPIPE, SIGSEGV, SIGFPE)',
    programs: ['sigtest'], command: 'sigtest\n', traced: ['sigtest'],
  },
  {
    id: 'jmptest', description: 'jmptest: setjmp/longjmp, calls through function pointers, switch tables, recursion',
    programs: ['jmptest'], command: 'jmptest\n', traced: ['jmptest'],
  },
];

/** The default image of `emu run`: a pipeline and a client/server pair running together. */
const DEMO: Workload = {
  id: 'demo',
  description: 'a pipeline (textgen | egrep | wc) and a client/server pair (cs) running together',
  programs: ['textgen', 'egrep', 'cs', 'client', 'server'],
  command: [
    '# demo: a pipeline and a client/server pair competing for the CPU',
    "echo 'demo: wc -l counts the lines of textgen | egrep matching zebra|quux, while cs runs a client and a server'",
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
