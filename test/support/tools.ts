/**
 * Test gating on external tools. Tests that need the Debian cross toolchain or qemu-user call
 * `toolsAvailable()` and skip (with the reason printed) when they are absent — except under CI,
 * where CI=true makes a missing tool a failure: CI installs them, so a skip there would hide a
 * broken set-up.
 */
import { spawnSync } from 'node:child_process';
import { gccSource } from '../../images/corpus.js';
import { newlibSource } from '../../images/newlib.js';
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

/**
 * True when newlib's source (Debian's newlib-source) is installed, which the newlib builds and
 * the torture corpus need. Gated like toolsAvailable.
 */
export function newlibSourceAvailable(): boolean {
  if (!toolsAvailable({ qemu: true })) return false;
  if (newlibSource()) return true;
  return absent('newlib', 'newlib-source is not installed', 'no /usr/src/newlib/newlib-*.tar.xz (install: apt-get install newlib-source)');
}

/**
 * True when GCC's source (Debian's gcc-12-source), newlib's source and the toolchain with qemu
 * are installed: what the torture corpus needs. Gated like toolsAvailable.
 */
export function corpusSourcesAvailable(): boolean {
  if (!newlibSourceAvailable()) return false;
  if (gccSource()) return true;
  return absent('torture corpus', 'gcc-12-source is not installed', 'no /usr/src/gcc-12/gcc-*.tar.xz (install: apt-get install gcc-12-source)');
}

/** True when gcc-12-source (the GCC sources, with gcc.c-torture/execute) and the cross tools are installed; gated like toolsAvailable. */
export function gccSourceAvailable(): boolean {
  if (!toolsAvailable()) return false;
  if (gccSource()) return true;
  return absent('gcc.c-torture', 'gcc-12-source is not installed', 'no /usr/src/gcc-12/gcc-*.tar.xz (install: apt-get install gcc-12-source)');
}
