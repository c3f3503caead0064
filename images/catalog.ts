/**
 * The catalog of guest programs: every folder under images/programs/ with its program.json.
 *
 * program.json (documented in docs/images.md):
 *   {
 *     "description": "one line",
 *     "kind": "system" | "workload" | "multitask" | "test",
 *     "native": true,            // portable C: also built with the host gcc as a golden oracle
 *     "traceConsumer": true,     // may use the trace pointer register (k0 / %g6): bdump only
 *     "tests": [{
 *       "name": "default",
 *       "args": ["8"],           // argv[1..]
 *       "stdin": "input.txt",    // optional file in the program folder fed to stdin
 *       "golden": "golden/default.out",  // expected stdout, file in the program folder
 *       "status": 0,             // expected exit status (default 0)
 *       "shell": "textgen 1000 > t && egrep -c x t",  // instead of args: a host /bin/sh
 *                                // command line in which every guest program name runs the guest
 *                                // build (wrapper scripts on PATH); runs in a fresh temp directory
 *       "needs": ["cat", "wc"],  // other programs that must be on PATH (multi-process tests)
 *       "qemu": true             // run under qemu-user (default true); false where Linux semantics differ
 *     }]
 *   }
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROGRAMS_DIR, ROOT_DIR } from './build.js';

export type ProgramKind = 'system' | 'workload' | 'multitask' | 'test';

export interface ProgramTest {
  name: string;
  args: string[];
  stdin?: string;
  /** Host shell command line (replaces args/stdin when present). */
  shell?: string;
  golden: string;
  status: number;
  needs: string[];
  qemu: boolean;
}

export interface ProgramSpec {
  name: string;
  dir: string;
  description: string;
  kind: ProgramKind;
  native: boolean;
  /** The trace consumer (bdump): allowed to read and reset the shared pointer register. */
  traceConsumer: boolean;
  tests: ProgramTest[];
}

const KINDS: readonly ProgramKind[] = ['system', 'workload', 'multitask', 'test'];

function bad(file: string, msg: string): never {
  throw new Error(`${relative(ROOT_DIR, file)}: ${msg}`);
}

function parseProgram(name: string): ProgramSpec {
  const dir = join(PROGRAMS_DIR, name);
  const file = join(dir, 'program.json');
  if (!existsSync(file)) bad(file, 'missing (every program folder needs a program.json)');
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    bad(file, `not valid JSON: ${(e as Error).message}`);
  }
  const kind = j['kind'] as ProgramKind;
  if (!KINDS.includes(kind)) bad(file, `"kind" must be one of ${KINDS.join(', ')}`);
  if (typeof j['description'] !== 'string') bad(file, '"description" must be a string');
  const tests = (j['tests'] ?? []) as Record<string, unknown>[];
  if (!Array.isArray(tests)) bad(file, '"tests" must be an array');
  return {
    name,
    dir,
    description: j['description'] as string,
    kind,
    native: j['native'] === true,
    traceConsumer: j['traceConsumer'] === true,
    tests: tests.map((t, i) => {
      const tname = typeof t['name'] === 'string' ? t['name'] : `test${i}`;
      if (typeof t['golden'] !== 'string') bad(file, `tests[${i}] needs a "golden" file`);
      const golden = t['golden'] as string;
      if (!existsSync(join(dir, golden))) bad(file, `tests[${i}]: golden file ${golden} does not exist`);
      const stdin = t['stdin'];
      if (stdin !== undefined && (typeof stdin !== 'string' || !existsSync(join(dir, stdin)))) bad(file, `tests[${i}]: stdin file ${String(stdin)} does not exist`);
      const args = (t['args'] ?? []) as unknown[];
      if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) bad(file, `tests[${i}]: "args" must be an array of strings`);
      const needs = (t['needs'] ?? []) as unknown[];
      if (!Array.isArray(needs) || !needs.every((a) => typeof a === 'string')) bad(file, `tests[${i}]: "needs" must be an array of program names`);
      const test: ProgramTest = {
        name: tname,
        args: args as string[],
        golden,
        status: typeof t['status'] === 'number' ? t['status'] : 0,
        needs: needs as string[],
        qemu: t['qemu'] !== false,
      };
      if (typeof stdin === 'string') test.stdin = stdin;
      const shell = t['shell'];
      if (shell !== undefined) {
        if (typeof shell !== 'string' || shell.trim() === '') bad(file, `tests[${i}]: "shell" must be a non-empty command line`);
        if (t['args'] !== undefined) bad(file, `tests[${i}]: "shell" excludes "args" (stdin, when given, feeds the shell)`);
        test.shell = shell;
      }
      return test;
    }),
  };
}

/** Names of all program folders, sorted. */
export function programNames(): string[] {
  if (!existsSync(PROGRAMS_DIR)) return [];
  return readdirSync(PROGRAMS_DIR).filter((n) => statSync(join(PROGRAMS_DIR, n)).isDirectory()).sort();
}

/** All programs, sorted by name. */
export function programs(): ProgramSpec[] {
  return programNames().map(parseProgram);
}

export function program(name: string): ProgramSpec {
  if (!programNames().includes(name)) throw new Error(`no program '${name}' in ${relative(ROOT_DIR, PROGRAMS_DIR)}/`);
  return parseProgram(name);
}
