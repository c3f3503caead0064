/**
 * Where `emu regen` and `emu replay` keep the schema cache (format/schema_cache.ts): $EMU_SCHEMA_CACHE,
 * else images/build/schema-cache in the checkout (git-ignored, beside the instrumentation cache).
 * `--no-schema-cache` leaves it alone (neither read nor written).
 */
import { fileURLToPath } from 'node:url';

export const SCHEMA_CACHE_DIR = process.env['EMU_SCHEMA_CACHE'] || fileURLToPath(new URL('../../images/build/schema-cache', import.meta.url));

/** The option both commands take. */
export const NO_SCHEMA_CACHE_HELP = `parse and check the bundle's schemas afresh: neither read nor write the schema cache (${SCHEMA_CACHE_DIR}, or $EMU_SCHEMA_CACHE)`;

/** The cache directory a command uses: none with --no-schema-cache (commander's `schemaCache: false`). */
export function schemaCacheDir(o: { schemaCache?: boolean }): string | undefined {
  return o.schemaCache === false ? undefined : SCHEMA_CACHE_DIR;
}
