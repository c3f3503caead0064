/**
 * Structured logging (pino) for the CLI and the machine. Quiet by default: only warnings and
 * errors reach stderr unless --log-level asks for more. Kernel events (fork, exec, exit, signals)
 * log at debug level.
 */
import { pino, type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

let root: Logger = pino({ level: 'warn', base: undefined, timestamp: false }, pino.destination(2));

export function setLogLevel(level: string): void {
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`unknown log level '${level}' (one of ${LOG_LEVELS.join(', ')})`);
  }
  root = pino({ level, base: undefined, timestamp: false }, pino.destination(2));
}

/** A child logger for one subsystem ('images', 'kernel', 'cpu', ...). */
export function logger(subsystem: string): Logger {
  return root.child({ sys: subsystem });
}
