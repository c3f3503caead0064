/**
 * vitest global setup, once before any test file: the BSD- and Linux-flavour builds of every guest
 * program on the three targets and the host-native builds (images/make.ts buildAll), when the
 * cross toolchain is installed. The test files run in parallel and each asks the build driver for
 * what it reads (the build cache makes that a key check); building everything here first means a
 * clean checkout builds each runtime and program once, with the driver's own parallelism, instead
 * of two test files building the same runtime at the same time. About 3 s when the cache is warm.
 * Builds the tests make of their own (newlib, the torture and corpus sources, test programs)
 * stay with them.
 */
import { buildAll } from '../../images/make.js';
import { missingTools } from '../../images/toolchain.js';

export default async function setup(): Promise<void> {
  process.env['EMU_TEST'] = '1';
  if (missingTools().length > 0) return; // the tests that need them say so (test/support/tools.ts)
  const t0 = Date.now();
  process.stderr.write('[emu tests] building the guest programs (images/build; cached)...\n');
  await buildAll({ flavours: ['bsd', 'linux'], native: true });
  process.stderr.write(`[emu tests] guest programs built in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
