/**
 * `emu instrument PROG -o OUT [--schema FILE]`: the qpt-like instrumenter (tracer/instrument.ts):
 * writes the instrumented executable and its schema (docs/schema.md; gzip-compressed when FILE
 * ends in .gz), for inspection and for use elsewhere. Running a program traced is `emu run PROG
 * --trace` (bin/trace_run.ts), which instruments it the same way and writes a trace bundle with
 * the ground truth of that same run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { describe } from './commands.js';
import { serializeSchema } from '../format/schema.js';
import { instrument } from '../tracer/instrument.js';

interface Opts {
  output: string;
  schema?: string;
  carrySp: boolean;
  stats?: boolean;
  run?: boolean;
}

export function instrumentCommand(): Command {
  return new Command('instrument')
    .description(describe('instrument'))
    .argument('<prog>', 'executable (ELF32, static, with symbols and --emit-relocs relocations)')
    .requiredOption('-o, --output <file>', 'instrumented executable')
    .option('--schema <file>', 'schema file (default: OUTPUT.schema.json; .gz: compressed)')
    .option('--no-carry-sp', 'record the stack pointer at calls instead of carrying it across them (qpt)')
    .option('--stats', 'the instrumentation statistics, on standard error')
    .addOption(new Option('--run').hideHelp())
    .action((prog: string, o: Opts) => {
      if (o.run) throw new Error(`--run is gone: trace a run with 'emu run ${prog} --trace --truth --out DIR -- ARGS', then 'emu regen DIR --verify' (docs/trace-bundle.md)`);
      const bytes = new Uint8Array(readFileSync(prog));
      const t0 = performance.now();
      const r = instrument(bytes, prog, { carrySp: o.carrySp });
      const ms = performance.now() - t0;
      writeFileSync(o.output, r.elf, { mode: 0o755 });
      const schemaFile = o.schema ?? `${o.output}.schema.json`;
      writeFileSync(schemaFile, serializeSchema(r.schema, schemaFile.endsWith('.gz')));
      if (o.stats) {
        const s = r.schema.stats;
        const lines = Object.entries(s).map(([k, v]) => `  ${k.padEnd(20)} ${v}`);
        process.stderr.write(`${prog}: instrumented in ${ms.toFixed(0)} ms\n${lines.join('\n')}\n  codeGrowth           ${(s['newTextBytes']! / s['originalTextBytes']!).toFixed(2)}\n`);
      }
    });
}
