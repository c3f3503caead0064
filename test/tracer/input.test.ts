/**
 * instrument() leaves its input as it was: the CLI and `emu run --trace` pass the Node Buffer
 * that readFileSync returned, whose slice() shares memory. Patching code addresses in data (jump
 * tables, function pointers) once wrote into that Buffer, so the schema named the hash of the
 * patched bytes instead of the file's, and a second instrumentation in the same process saw
 * jump-table words that no longer pointed into their function.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TARGET_NAMES } from '../../format/target.js';
import { instrument } from '../../tracer/instrument.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf } from './support/trace.js';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe.skipIf(!toolsAvailable())('instrument() and its input', () => {
  for (const target of TARGET_NAMES) {
    it(`${target} li from a Buffer: input unchanged, the file's hash in the schema, the same output twice`, { timeout: 300_000 }, async () => {
      const { path } = await exeOf(target, 'li');
      const buf = readFileSync(path);
      const before = sha256(buf);
      const a = instrument(buf, path);
      expect(sha256(buf)).toBe(before);
      expect(a.schema.original.sha256).toBe(before);
      const b = instrument(buf, path);
      expect(sha256(b.elf)).toBe(sha256(a.elf));
      expect(JSON.stringify(b.schema)).toBe(JSON.stringify(a.schema));
    });
  }
});
