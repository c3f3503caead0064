/**
 * Structured logging (pino) for the CLI and the machine. Quiet by default: only warnings and
 * errors reach stderr unless --log-level asks for more. Kernel events (fork, exec, exit, signals)
 * log at debug level.
 *
 * pino (with its streams and worker threads) is loaded on the first message at an enabled level,
 * not at start-up: a run that logs nothing never loads it. Until then a logger's methods for
 * disabled levels do nothing, as pino's own do.
 */
import { createRequire } from 'node:module';
import type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** pino's level values (pino.levels.values); silent is above every level. */
const VALUES: Record<LogLevel, number> = { fatal: 60, error: 50, warn: 40, info: 30, debug: 20, trace: 10, silent: Infinity };
const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

let level: LogLevel = 'warn';
/** The root logger of each level in use, made on first use. */
const roots = new Map<LogLevel, Logger>();

function rootLogger(at: LogLevel): Logger {
  let root = roots.get(at);
  if (root === undefined) {
    const { pino } = createRequire(import.meta.url)('pino') as typeof import('pino');
    root = pino({ level: at, base: undefined, timestamp: false }, pino.destination(2));
    roots.set(at, root);
  }
  return root;
}

export function setLogLevel(l: string): void {
  if (!(LOG_LEVELS as readonly string[]).includes(l)) {
    throw new Error(`unknown log level '${l}' (one of ${LOG_LEVELS.join(', ')})`);
  }
  level = l as LogLevel;
}

/**
 * A child logger for one subsystem ('images', 'kernel', 'cpu', ...), at the level set when it is
 * made. It forwards messages at enabled levels (and child()) to pino's child logger.
 */
export function logger(subsystem: string): Logger {
  const at = level;
  let real: Logger | null = null;
  const get = (): Logger => (real ??= rootLogger(at).child({ sys: subsystem }));
  const noop = (): void => {};
  const l: Record<string, unknown> = {
    level: at,
    isLevelEnabled: (x: string) => (VALUES[x as LogLevel] ?? Infinity) >= VALUES[at],
    child: (bindings: Record<string, unknown>) => get().child(bindings),
  };
  for (const m of METHODS) l[m] = VALUES[m] >= VALUES[at] ? (...a: unknown[]) => (get()[m] as (...x: unknown[]) => void)(...a) : noop;
  return l as unknown as Logger;
}
