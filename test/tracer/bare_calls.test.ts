/**
 * Calls whose caller provides the callee's entry records (tracer/cut.ts Bundle): the schema names
 * the callee's root block by its new address, the callee does record something at its entry (so
 * the call skips real records), the count matches the schema's statistics, and regeneration —
 * the reference interpreter and the compiled code — equals the ground truth.
 */
import { describe, expect, it } from 'vitest';
import { TARGET_NAMES } from '../../format/target.js';
import { toolsAvailable } from '../support/tools.js';
import { regenAgainst, traced } from './support/trace.js';

describe.skipIf(!toolsAvailable())('calls entering past their callee\'s entry records', () => {
  for (const target of TARGET_NAMES) {
    it(`${target} textgen: bare calls name the callee's root block; regeneration is exact`, { timeout: 600_000 }, async () => {
      const t = await traced(target, 'textgen', 'small');
      const s = t.inst.schema;
      const rootAt = new Map(s.functions.map((f) => [f.blocks[0]!.naddr, f]));
      let bare = 0;
      for (const f of s.functions) {
        for (const b of f.blocks) {
          if (b.term !== 'call' || b.target === undefined || b.target < s.newText.base) continue;
          bare++;
          const callee = rootAt.get(b.target);
          expect(callee, `${f.name}: call to 0x${b.target.toString(16)}`).toBeDefined();
          const entry = callee!.entries.find((e) => e.block === 0)!;
          expect(entry.items.some((it) => it[0] === 'r')).toBe(true);
        }
      }
      expect(bare).toBeGreaterThan(0);
      expect(bare).toBe(s.stats['bareCalls']);
      const a = regenAgainst(t, 'original');
      const b = regenAgainst(t, 'original', { interpret: true });
      expect(b.events).toBe(a.events);
      expect(a.bytes).toBe(t.run.trace.bytes().length);
    });
  }
});
