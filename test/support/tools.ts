/**
 * Test gating on external tools. Tests that need the Debian cross toolchain or qemu-user call
 * `toolsAvailable()` and skip (with the reason printed) when they are absent — except under CI,
 * where CI=true makes a missing tool a failure: CI installs them, so a skip there would hide a
 * broken set-up.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { missingTools } from '../../images/toolchain.js';

export const IN_CI = process.env['CI'] === 'true' || process.env['CI'] === '1';

const reported = new Set<string>();

/**
 * What every gate does when something is absent: under CI throws `CI=true but <inCi>: <msg>`;
 * otherwise prints once `SKIPPING <tests> tests: <msg>` and returns false.
 */
function absent(tests: string, inCi: string, msg: string): false {
  if (IN_CI) throw new Error(`CI=true but ${inCi}: ${msg}`);
  if (!reported.has(msg)) {
    reported.add(msg);
    process.stderr.write(`[emu tests] SKIPPING ${tests} tests: ${msg}\n`);
  }
  return false;
}

/**
 * True when every cross tool (and qemu, if asked) is installed. Under CI a missing tool throws.
 * Otherwise prints once why the dependent tests are skipped.
 */
export function toolsAvailable(opts: { qemu?: boolean } = {}): boolean {
  const missing = missingTools(opts);
  if (missing.length === 0) return true;
  const msg = `missing ${missing.join(', ')} (install: apt-get install gcc-mipsel-linux-gnu gcc-mips-linux-gnu gcc-sparc64-linux-gnu qemu-user)`;
  return absent('toolchain/qemu', 'the guest toolchain is incomplete', msg);
}

/**
 * True when the cross compilers find the Linux UAPI headers (`asm/unistd.h`), which Debian ships
 * in linux-libc-dev-<arch>-cross, pulled in by the compilers' recommended packages: the tests
 * that check the Linux flavour's constants against Linux read them. prefixes: the compilers'
 * tool prefixes (e.g. `mipsel-linux-gnu-`). Gated like toolsAvailable.
 */
export function uapiHeadersAvailable(prefixes: { prefix: string; flags: string[]; pkg: string }[]): boolean {
  if (!toolsAvailable()) return false;
  const missing = prefixes.filter(
    (p) => spawnSync(`${p.prefix}gcc`, [...p.flags, '-E', '-x', 'c', '-', '-o', '/dev/null'], { input: '#include <asm/unistd.h>\n' }).status !== 0,
  );
  if (missing.length === 0) return true;
  const gccs = missing.map((p) => `${p.prefix}gcc`).join(', ');
  const msg = `the cross compilers ${gccs} find no Linux UAPI headers (install: apt-get install ${missing.map((p) => p.pkg).join(' ')})`;
  return absent('Linux UAPI', 'the Linux UAPI headers are missing', msg);
}

/** Debian's gcc-12-source: the GCC sources, with the torture tests (gcc.c-torture/execute). */
export const GCC_SOURCE_TARBALL = '/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz';

/** True when gcc-12-source is installed (and the cross tools); gated like toolsAvailable. */
export function gccSourceAvailable(): boolean {
  if (!toolsAvailable()) return false;
  if (existsSync(GCC_SOURCE_TARBALL)) return true;
  return absent('gcc.c-torture', 'gcc-12-source is missing', `${GCC_SOURCE_TARBALL} does not exist (install: apt-get install gcc-12-source)`);
}
