/**
 * The launcher's word (bin/emu.js): this process runs dist/emu.cjs of this version (its size and
 * modification time), or null when the CLI was started otherwise. A module with no imports, so
 * that every command can be told it without loading what only `emu run` needs.
 */
let version: string | null = null;

export function setBundleVersion(v: string | null): void {
  version = v;
}

export function bundleVersion(): string | null {
  return version;
}
