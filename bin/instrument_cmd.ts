/**
 * `emu instrument PROG -o OUT [--schema FILE]`: the qpt-like instrumenter (tracer/instrument.ts):
 * writes the instrumented executable and its schema (docs/schema.md; gzip-compressed when FILE
 * ends in .gz), for inspection and for use elsewhere. The result comes from the instrumentation
 * cache when the same executable was instrumented before by the same instrumenter
 * (bin/qpt_cache.ts; --no-cache). Running a program traced is `emu run PROG --trace`
 * (bin/trace_run.ts), which instruments it the same way and writes a trace bundle with the ground
 * truth of that same run.
 */
import { chmodSync } from 'node:fs';
import { Command, Option } from 'commander';
import { describe } from './commands.js';
import { serializeSchema } from '../format/schema.js';
import { instrumentCached, QPT_CACHE_DIR } from './qpt_cache.js';
import type { Schema } from '../format/schema.js';
import { OutputFile, readInput } from './outputs.js';

interface Opts {
  output: string;
  schema?: string;
  carrySp: boolean;
  cache: boolean;
  stats?: boolean;
  run?: boolean;
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
    .requiredOption('-o, --output <file>', 'instrumented executable')
    .option('--schema <file>', 'schema file (default: OUTPUT.schema.json; .gz: compressed)')
    .option('--no-carry-sp', 'record the stack pointer at calls instead of carrying it across them (qpt)')
    .option('--no-cache', `instrument afresh: neither read nor write the instrumentation cache (${QPT_CACHE_DIR})`)
    .option('--stats', 'print the instrumentation statistics and the functions in conservative mode (standard error)')
    .addOption(new Option('--run').hideHelp())
    .action((prog: string, o: Opts) => {
      if (o.run) throw new Error(`--run is gone: trace a run with 'emu run ${prog} --trace --truth --out DIR -- ARGS', then 'emu regen DIR --verify' (docs/trace-bundle.md)`);
      const bytes = new Uint8Array(readInput(prog));
      const schemaFile = o.schema ?? `${o.output}.schema.json`;
      if (schemaFile === o.output) throw new Error(`--schema: ${schemaFile} is also the instrumented executable (-o)`);
      const outs: OutputFile[] = [];
      try {
        outs.push(new OutputFile(o.output, '-o', [prog]), new OutputFile(schemaFile, '--schema', [prog]));
        // process.hrtime, not the global performance, which loads node:perf_hooks.
        const t0 = process.hrtime.bigint();
        const r = instrumentCached(bytes, prog, { carrySp: o.carrySp, noCache: !o.cache });
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        chmodSync(outs[0]!.tmp ?? o.output, 0o755);
        outs[0]!.writeAll(r.elf);
        outs[1]!.writeAll(serializeSchema(r.schema, schemaFile.endsWith('.gz')));
        if (o.stats) process.stderr.write(statsText(prog, r.schema, ms, r.cached));
      } catch (e) {
        for (const f of outs) f.abandon();
        throw e;
      }
    });
}
