/**
 * Test gating on external tools. Tests that need the Debian cross toolchain or qemu-user call
 * `toolsAvailable()` and skip (with the reason printed) when they are absent — except under CI,
 * where CI=true makes a missing tool a failure: CI installs them, so a skip there would hide a
 * broken set-up.
 */
import { missingTools } from '../../images/toolchain.js';

export const IN_CI = process.env['CI'] === 'true' || process.env['CI'] === '1';

const reported = new Set<string>();

/**
 * True when every cross tool (and qemu, if asked) is installed. Under CI a missing tool throws.
 * Otherwise prints once why the dependent tests are skipped.
 */
export function toolsAvailable(opts: { qemu?: boolean } = {}): boolean {
  const missing = missingTools(opts);
  if (missing.length === 0) return true;
  const msg = `missing ${missing.join(', ')} (install: apt-get install gcc-mipsel-linux-gnu gcc-mips-linux-gnu gcc-sparc64-linux-gnu qemu-user)`;
  if (IN_CI) throw new Error(`CI=true but the guest toolchain is incomplete: ${msg}`);
  if (!reported.has(msg)) {
    reported.add(msg);
    process.stderr.write(`[emu tests] SKIPPING toolchain/qemu tests: ${msg}\n`);
  }
  return false;
}
