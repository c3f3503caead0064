/**
 * Every guest executable the project builds (both syscall flavours, all targets) is pure MIPS I +
 * R2010 / SPARC v8 user code, never touches the tracer's reserved registers, and contains nothing
 * but this project's own code.
 */
import { describe, expect, it } from 'vitest';
import { checkBuilt } from '../../images/checkall.js';
import { programs } from '../../images/catalog.js';
import { TARGET_NAMES } from '../../format/target.js';
import { toolsAvailable } from '../support/tools.js';

const have = toolsAvailable();

describe.skipIf(!have)('ISA purity of every built program', () => {
  for (const t of TARGET_NAMES) {
    it(`${t}: all programs, bsd and linux flavours`, async () => {
      const r = await checkBuilt({ targets: [t] });
      expect(r.checked).toBe(2 * programs().length);
      expect(r.failures.join('\n\n')).toBe('');
    }, 600_000);
  }
});
