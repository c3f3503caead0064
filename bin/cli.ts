/**
 * The emu command line. Each command's work lives in its subsystem; this file only parses.
 *
 * Start-up cost is paid by every command, so the CLI loads only the module of the command it
 * runs: the others appear in `emu --help` by name and description (bin/commands.ts) and are never
 * imported. `emu help CMD` and `emu CMD --help` load CMD's module for its options.
 */
import { setBundleVersion } from './bundle_version.js';
import { Command, CommanderError, Help, Option } from 'commander';
import { COMMANDS, term, type CommandName } from './commands.js';
import { LOG_LEVELS, setLogLevel } from './log.js';
import { hostErrorMessage } from './host_errors.js';

/** Imports a command's module and makes its command. */
const LOADERS: Record<CommandName, () => Promise<Command>> = {
  images: async () => (await import('./images_cmd.js')).imagesCommand(),
  run: async () => (await import('./run_cmd.js')).runCommand(),
  instrument: async () => (await import('./instrument_cmd.js')).instrumentCommand(),
  regen: async () => (await import('./regen_cmd.js')).regenCommand(),
  disasm: async () => (await import('./disasm_cmd.js')).disasmCommand(),
  replay: async () => (await import('./replay_cmd.js')).replayCommand(),
};

/**
 * The name of the command argv selects (argv as process.argv): the first operand after the global
 * options, or the operand after `help`; undefined when there is none, or with `known` when it is
 * not one of emu's commands.
 */
export function selectedCommand(argv: readonly string[], known = false): string | undefined {
  let name: string | undefined;
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--log-level') i++;
    else if (a === '--') break;
    else if (!a.startsWith('-')) {
      name = a === 'help' ? argv.slice(i + 1).find((x) => !x.startsWith('-')) : a;
      break;
    }
  }
  return known && !COMMANDS.some((c) => c[0] === name) ? undefined : name;
}

/**
 * The program with every command: the one named `load` (all of them when it is true) with
 * its options and action, the others by name and description only.
 */
export async function makeProgram(load: string | true | undefined): Promise<Command> {
  const program = new Command('emu')
    .description('Full-system MIPS R2000 / SPARC v8 emulator with a 4.4BSD-like kernel and abstract-execution tracing')
    .addOption(new Option('--log-level <level>', 'log level on stderr').choices(LOG_LEVELS).default('warn'))
    .hook('preAction', (cmd) => setLogLevel(cmd.opts()['logLevel'] as string))
    .showHelpAfterError()
    .exitOverride()
    .configureHelp({
      subcommandTerm(c: Command): string {
        return COMMANDS.some((x) => x[0] === c.name()) ? term(c.name() as CommandName) : Help.prototype.subcommandTerm.call(this, c);
      },
    });
  for (const [name, , description] of COMMANDS) {
    if (load === true || load === name) program.addCommand(await LOADERS[name]());
    else program.command(name).description(description);
  }
  return program;
}

/** Runs the CLI; returns the process exit status. */
export async function main(argv: string[], bundleVersion?: string): Promise<number> {
  setBundleVersion(bundleVersion ?? null);
  try {
    const program = await makeProgram(selectedCommand(argv));
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    if ((e as Error).name === 'Interrupted') {
      process.stderr.write(`emu: ${(e as Error).message}; no output file kept\n`);
      return (e as { exitCode: number }).exitCode;
    }
    // A host file-system error that no command turned into a message of its own: one line, its file.
    process.stderr.write(`emu: ${hostErrorMessage(e) ?? (e as Error).message}\n`);
    return 1;
  }
}
