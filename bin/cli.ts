/**
 * The emu command line. Each command's work lives in its subsystem; this file only parses.
 */
import { Command, CommanderError, Option } from 'commander';
import { LOG_LEVELS, setLogLevel } from './log.js';
import { imagesCommand } from './images_cmd.js';
import { runCommand } from './run_cmd.js';
import { instrumentCommand } from './instrument_cmd.js';
import { regenCommand } from './regen_cmd.js';
import { disasmCommand } from './disasm_cmd.js';
import { replayCommand } from './replay_cmd.js';

export function makeProgram(): Command {
  const program = new Command('emu')
    .description('Full-system MIPS R2000 / SPARC v8 emulator with a 4.4BSD-like kernel and abstract-execution tracing')
    .addOption(new Option('--log-level <level>', 'log level on stderr').choices(LOG_LEVELS).default('warn'))
    .hook('preAction', (cmd) => setLogLevel(cmd.opts()['logLevel'] as string))
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(imagesCommand());
  program.addCommand(runCommand());
  program.addCommand(instrumentCommand());
  program.addCommand(regenCommand());
  program.addCommand(disasmCommand());
  program.addCommand(replayCommand());
  return program;
}

/** Runs the CLI; returns the process exit status. */
export async function main(argv: string[]): Promise<number> {
  const program = makeProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    process.stderr.write(`emu: ${(e as Error).message}\n`);
    return 1;
  }
}
