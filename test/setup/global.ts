/**
 * vitest global setup: nothing is built here; suites that need guest builds call the build
 * driver themselves (it caches, so repeated requests are cheap).
 */
export default function setup(): void {
  process.env['EMU_TEST'] = '1';
}
