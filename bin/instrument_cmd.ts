/**
 * `emu instrument PROG -o OUT [--schema FILE]`: the qpt-like instrumenter (tracer/instrument.ts):
 * writes the instrumented executable and its schema (docs/schema.md; gzip-compressed when FILE
 * ends in .gz). With --run, also runs the instrumented program alone on the emulator and writes
 * the recorded trace and markers (OUT.trace, OUT.sched; with --truth the ground truth of the
 * original program, OUT.truth) for `emu regen`. (`emu run --trace` of the multi-tasking work
 * runs whole images.) The result comes from the instrumentation cache when the same executable
 * was instrumented before by the same instrumenter (bin/qpt_cache.ts; --no-cache).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Command } from 'commander';
import { describe } from './commands.js';
import { serializeSchema } from '../format/schema.js';
import { encodeMarkers } from '../format/sched.js';
import { instrumentCached, QPT_CACHE_DIR } from './qpt_cache.js';
import type { Schema } from '../format/schema.js';
import { runExecutable } from './harness.js';

interface Opts {
  output: string;
  schema?: string;
  carrySp: boolean;
  cache: boolean;
  stats?: boolean;
  run?: boolean;
  truth?: boolean;
  stdin?: string;
  trbufSize?: string;
}

/** The --stats text: the schema's counters, then each function in conservative mode and why. */
export function statsText(prog: string, schema: Schema, ms: number, cached = false): string {
  const s = schema.stats;
  const lines = Object.entries(s).map(([k, v]) => `  ${k.padEnd(20)} ${v}`);
  const cons = schema.functions.filter((f) => f.conservative !== undefined)
    .map((f) => `  conservative: ${f.name} (0x${f.addr.toString(16)}): ${f.conservative}`);
  return `${prog}: ${cached ? 'from the instrumentation cache' : 'instrumented'} in ${ms.toFixed(0)} ms\n${lines.join('\n')}\n  codeGrowth           ${(s['newTextBytes']! / s['originalTextBytes']!).toFixed(2)}\n${cons.map((l) => `${l}\n`).join('')}`;
}

export function instrumentCommand(): Command {
  return new Command('instrument')
    .description(describe('instrument'))
    .argument('<prog>', 'executable (ELF32, static, with symbols and --emit-relocs relocations)')
    .argument('[args...]', 'arguments of the program, with --run')
    .requiredOption('-o, --output <file>', 'instrumented executable')
    .option('--schema <file>', 'schema file (default: OUTPUT.schema.json; .gz: compressed)')
    .option('--no-carry-sp', 'record the stack pointer at calls instead of carrying it across them (qpt)')
    .option('--no-cache', `instrument afresh: neither read nor write the instrumentation cache (${QPT_CACHE_DIR})`)
    .option('--stats', 'print the instrumentation statistics and the functions in conservative mode (standard error)')
    .option('--run', 'run the instrumented program on the emulator; write OUTPUT.trace and OUTPUT.sched')
    .option('--truth', 'with --run: also run the original program with ground truth (OUTPUT.truth)')
    .option('--stdin <file>', 'with --run: standard input of the program')
    .option('--trbuf-size <bytes>', 'with --run: trace buffer size (a multiple of 4096)')
    .action((prog: string, args: string[], o: Opts) => {
      const bytes = new Uint8Array(readFileSync(prog));
      const t0 = performance.now();
      const r = instrumentCached(bytes, prog, { carrySp: o.carrySp, noCache: !o.cache });
      const ms = performance.now() - t0;
      writeFileSync(o.output, r.elf, { mode: 0o755 });
      const schemaFile = o.schema ?? `${o.output}.schema.json`;
      writeFileSync(schemaFile, serializeSchema(r.schema, schemaFile.endsWith('.gz')));
      // Statistics go to standard error: with --run, standard output is the program's.
      if (o.stats) process.stderr.write(statsText(prog, r.schema, ms, r.cached));
      if (!o.run) return;
      const name = basename(prog);
      const stdin = o.stdin ? new Uint8Array(readFileSync(o.stdin)) : undefined;
      const trbufSize = o.trbufSize ? Number(o.trbufSize) : undefined;
      const run = runExecutable({ data: r.elf, name }, { args, ...(stdin ? { stdin } : {}), ...(trbufSize ? { trbufSize } : {}), trace: true });
      process.stdout.write(run.stdout);
      writeFileSync(`${o.output}.trace`, run.trace.bytes());
      writeFileSync(`${o.output}.sched`, encodeMarkers(run.trace.markers));
      if (o.truth) {
        const orig = runExecutable({ data: bytes, name }, { args, ...(stdin ? { stdin } : {}), truth: 'bin', trace: true });
        writeFileSync(`${o.output}.truth`, orig.truth!);
      }
      if (run.haltReason !== 'init exited') throw new Error(`${prog}: the instrumented run stopped: ${run.message}`);
      process.exitCode = run.exitCode;
    });
}
