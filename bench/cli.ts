/**
 * Command lines of the benchmark scripts: every script takes `--help`, rejects an unknown option
 * or workload with a message and exit status 1 (commander's), and validates its numbers.
 */
import { Command, InvalidArgumentError } from 'commander';
import { TARGETS } from '../images/toolchain.js';

/** A commander command for a benchmark script: `node dist/bench/<name>`. */
export function benchCommand(name: string, description: string): Command {
  return new Command(name).description(description).showHelpAfterError('(run with --help for usage)').allowExcessArguments(false);
}

/** Option value parser: an integer >= 1. */
export function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`'${v}' is not an integer >= 1`);
  return n;
}

/** Option value parser: an integer >= 0. */
export function count(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`'${v}' is not an integer >= 0`);
  return n;
}

/** Checks each of `names` against `known`; a command error names the first unknown one. */
export function checkNames(cmd: Command, what: string, names: string[], known: readonly string[]): void {
  for (const n of names) if (!known.includes(n)) cmd.error(`error: unknown ${what} '${n}' (known: ${known.join(', ')})`);
}

/** A comma-separated list option parsed into its items. */
export function list(v: string): string[] {
  return v.split(',').filter((x) => x !== '');
}

/** The target names (images/toolchain.ts TARGETS). */
export const TARGET_NAMES: readonly string[] = Object.keys(TARGETS);
