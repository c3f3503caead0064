/**
 * Where `emu run` keeps the translation cache (cpu/jitcache.ts): $EMU_JIT_CACHE, else
 * images/build/jit-cache in the checkout (git-ignored, beside the other caches). Only a run
 * started through the launcher (bin/emu.js) uses it: the launcher names the bundle's version
 * (size and modification time of dist/emu.cjs), which is the version of the code generators.
 * `--no-jit-cache` and EMU_JIT_CACHE=off leave it alone (neither read nor written).
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { configureJitCache, saveJitCaches } from '../cpu/jitcache.js';
import { bundleVersion } from './bundle_version.js';

const env = process.env['EMU_JIT_CACHE'];
export const JIT_CACHE_DIR = env && env !== 'off' ? env : fileURLToPath(new URL('../../images/build/jit-cache', import.meta.url));

/**
 * Turns the cache on for a run of `program` (its bytes: an executable or a boot image) unless
 * `off`; returns the function that writes it at the end of the run.
 */
export function useJitCache(program: Uint8Array, off: boolean): () => void {
  const version = bundleVersion();
  if (off || env === 'off' || version === null) return () => {};
  const bucket = createHash('sha256').update(program).digest('hex').slice(0, 24);
  configureJitCache({ dir: JIT_CACHE_DIR, version, bucket });
  return saveJitCaches;
}
