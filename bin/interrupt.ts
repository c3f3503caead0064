/**
 * Ctrl-C (SIGINT) and SIGTERM during a long command. The work runs in slices that return to the
 * event loop (os/run.ts finishSliced), where the handler can run:
 *   - the first signal restores the terminal at once (the progress line is cleared and ended, line
 *     wrap is switched back on) and asks the work to stop; the next slice boundary throws
 *     Interrupted, the command's error paths remove its partial outputs, and emu exits with
 *     128 + the signal (130 for SIGINT, 143 for SIGTERM);
 *   - the handler is then removed, so a second signal takes the default action: emu exits at once.
 * Outside the sliced work signals keep their default action (emu ends at once).
 */
import { constants } from 'node:os';

export class Interrupted extends Error {
  readonly exitCode: number;
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted (${signal})`);
    this.name = 'Interrupted';
    this.exitCode = 128 + (constants.signals[signal as keyof typeof constants.signals] ?? 2);
  }
}

/** What a terminal needs after a progress display: line wrap on (DECAWM), the cursor shown. */
export const TERMINAL_RESTORE = '\x1b[?7h\x1b[?25h';

export interface Interruptible {
  /** Awaited between slices of work: lets the event loop run; throws Interrupted after a signal. */
  between(): Promise<void>;
  /** Removes the handlers (the work is over). */
  dispose(): void;
}

/**
 * Handlers for SIGINT and SIGTERM while work runs; `restore` puts the terminal right (stops a
 * progress bar) and is called once, in the handler.
 */
export function interruptible(restore: () => void = () => {}): Interruptible {
  let got: NodeJS.Signals | null = null;
  const onSignal = (sig: NodeJS.Signals): void => {
    got = sig;
    dispose();
    try {
      restore();
    } finally {
      if (process.stderr.isTTY) process.stderr.write(`${TERMINAL_RESTORE}\n`);
    }
  };
  const dispose = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    async between() {
      await new Promise<void>((r) => setImmediate(r));
      if (got !== null) throw new Interrupted(got);
    },
    dispose,
  };
}
