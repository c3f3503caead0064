/**
 * Taken-edge stubs placed right before their target (tracer/rewrite.ts): where nothing else falls
 * into a branch's target, the stub with the edge's code is laid out just before it and falls into
 * it, with no jump back. Checked on the schema (every taken edge's code either ends with its glue
 * jump or ends exactly at its target block's new address, and some do the latter) and by exact
 * regeneration, the reference interpreter and the compiled code alike.
 */
import { describe, expect, it } from 'vitest';
import { TARGET_NAMES } from '../../format/target.js';
import { itemCost } from '../../regen/model.js';
import { toolsAvailable } from '../support/tools.js';
import { regenAgainst, traced } from './support/trace.js';

describe.skipIf(!toolsAvailable())('stubs that fall into their target', () => {
  for (const target of TARGET_NAMES) {
    it(`${target} textgen: in-place stubs end at their target; regeneration is exact`, { timeout: 600_000 }, async () => {
      const t = await traced(target, 'textgen', 'small');
      let inPlace = 0;
      let jumping = 0;
      for (const f of t.inst.schema.functions) {
        for (const e of f.edges) {
          if (e.kind !== 'taken' || e.naddr === undefined) continue;
          const code = e.items.filter((it) => it[0] !== 'd');
          if (code.length === 0) continue;
          if (code[code.length - 1]![0] === 'g') {
            jumping++;
            continue;
          }
          inPlace++;
          const end = e.naddr + 4 * code.reduce((n, it) => n + itemCost(it), 0);
          expect(end, `${f.name}: edge ${e.from} -> ${e.to}`).toBe(f.blocks[e.to]!.naddr);
        }
      }
      expect(inPlace).toBeGreaterThan(0);
      expect(jumping).toBeGreaterThan(0);
      const a = regenAgainst(t, 'original');
      const b = regenAgainst(t, 'original', { interpret: true });
      expect(b.events).toBe(a.events);
      expect(a.bytes).toBe(t.run.trace.bytes().length);
    });
  }
});
