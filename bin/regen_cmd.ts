/**
 * `emu regen SCHEMA TRACE SCHED [--verify TRUTH] [--format bin|text|din] [-o FILE]`: abstract
 * execution (regen/) of one traced process from its schema, its recorded bytes and its markers,
 * producing the original program's instruction fetches and data references in the ground-truth
 * event model (docs/kernel.md section 10). --verify compares them with a ground-truth file and
 * reports the first divergence (event index, instruction, function, expected and regenerated).
 * (Issue 7's trace bundles extend this to many processes.)
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { decodeMarkers } from '../os/trbuf.js';
import { FileSink, TRUTH_FORMATS, makeTruthWriter, type ByteSink, type TruthFormat } from '../os/truth.js';
import { RegenProgram } from '../regen/model.js';
import { RegenError, type EventSink } from '../regen/process.js';
import { StreamError } from '../regen/stream.js';
import { regenerateProcess } from '../regen/run.js';
import { TruthCursor } from '../regen/truth_cursor.js';
import { DivergenceError, VerifySink, funcNamer } from '../regen/verify.js';
import { parseSchema } from '../tracer/schema.js';

interface Opts {
  verify?: string;
  format: TruthFormat;
  output?: string;
  interpret?: boolean;
  stats?: boolean;
}

/** Standard output as a byte sink (text and din formats). */
class StdoutSink implements ByteSink {
  write(bytes: Uint8Array): void {
    process.stdout.write(Buffer.from(bytes));
  }
  close(): void {}
}

export function regenCommand(): Command {
  return new Command('regen')
    .description('regenerate the full trace of a traced program from its schema, trace and markers')
    .argument('<schema>', 'schema written by `emu instrument` (JSON, optionally gzip-compressed)')
    .argument('<trace>', 'recorded trace bytes')
    .argument('<sched>', 'markers (the schedule stream)')
    .option('--verify <truth>', 'compare with a ground-truth file (emu run --truth, bin format)')
    .addOption(new Option('--format <format>', 'output format').choices(TRUTH_FORMATS).default('bin'))
    .option('-o, --output <file>', 'write the regenerated trace (bin needs a file; text and din default to standard output)')
    .option('--interpret', 'use the reference interpreter instead of the compiled schema')
    .option('--stats', 'print instruction, byte and event counts')
    .action((schemaFile: string, traceFile: string, schedFile: string, o: Opts) => {
      const schema = parseSchema(new Uint8Array(readFileSync(schemaFile)), schemaFile);
      const prog = new RegenProgram(schema, schemaFile);
      const trace = new Uint8Array(readFileSync(traceFile));
      const markers = decodeMarkers(new Uint8Array(readFileSync(schedFile)), schedFile);
      const sinks: EventSink[] = [];
      let verify: VerifySink | undefined;
      if (o.verify) {
        const start = markers.find((m) => m.kind === 'start');
        verify = new VerifySink(new TruthCursor(new Uint8Array(readFileSync(o.verify)), o.verify, start?.pid ?? 1), funcNamer(schema));
        sinks.push(verify);
      }
      const arch = schema.arch;
      let writer: ReturnType<typeof makeTruthWriter> | undefined;
      if (o.output || o.format !== 'bin') {
        if (o.format === 'bin' && !o.output) throw new Error('--format bin needs -o FILE');
        writer = makeTruthWriter(o.format, o.output ? new FileSink(o.output) : new StdoutSink(), arch);
        writer.switchTo(markers.find((m) => m.kind === 'start')?.pid ?? 1, 0);
        sinks.push(writer);
      }
      const sink: EventSink = sinks.length === 1 ? sinks[0]! : {
        ifetch: (pc) => { for (const s of sinks) s.ifetch(pc); },
        load: (a, n) => { for (const s of sinks) s.load(a, n); },
        store: (a, n) => { for (const s of sinks) s.store(a, n); },
      };
      const t0 = performance.now();
      try {
        const sum = regenerateProcess(prog, trace, markers, sinks.length ? sink : { ifetch() {}, load() {}, store() {} }, { interpret: o.interpret === true });
        verify?.finish();
        writer?.finish();
        const s = (performance.now() - t0) / 1000;
        if (verify) process.stderr.write(`${schemaFile}: verified ${verify.index} events against ${o.verify}\n`);
        if (o.stats) {
          const c = sum.counts;
          process.stderr.write(
            `pid ${sum.pid}: ${sum.icount} instrumented instructions, ${sum.bytes} trace bytes (witnesses ${c.witness}, values ${c.entry + c.body + c.edge}), ` +
            `${sum.signals} signals, ${s.toFixed(2)} s\n`,
          );
        }
      } catch (e) {
        if (e instanceof DivergenceError) {
          writer?.finish();
          throw new Error(`${traceFile}: ${e.message}`);
        }
        if (e instanceof RegenError || e instanceof StreamError) throw new Error(`${traceFile}: ${e.message}`);
        throw e;
      }
    });
}
