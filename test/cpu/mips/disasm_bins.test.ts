/**
 * The disassembler against `objdump -d` on every shipped MIPS binary: the Linux- and BSD-flavour
 * builds of every guest program, both byte orders (built on demand by the images build driver).
 * objdump's branch-target symbol annotations are removed before comparing (docs/cpu-mips.md).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { disasm } from '../../../cpu/mips/disasm.js';
import { buildProgram, variant } from '../../../images/build.js';
import { programNames } from '../../../images/catalog.js';
import type { TargetName } from '../../../format/target.js';
import { parseElf, SHF_EXECINSTR } from '../../../format/elf.js';
import { toolsAvailable } from '../../support/tools.js';
import { objdumpFile } from './support/objdump.js';

const HAVE = toolsAvailable();

describe.skipIf(!HAVE)('MIPS disassembler equals objdump on the shipped binaries', () => {
  for (const target of ['mipsel', 'mips'] as TargetName[]) {
    for (const flavour of ['linux', 'bsd'] as const) {
      const exes = new Map<string, string>();
      beforeAll(async () => {
        for (const name of programNames()) exes.set(name, await buildProgram(variant(target, flavour), name));
      }, 1_200_000);
      it(`${flavour}-${target}`, () => {
        let total = 0;
        const bad: string[] = [];
        for (const [name, exe] of exes) {
          const elf = parseElf(readFileSync(exe), exe);
          const text = elf.sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0);
          expect(text.length).toBeGreaterThan(0);
          for (const l of objdumpFile(target, exe)) {
            total++;
            const mine = disasm(l.word, l.addr);
            if (mine !== l.text && bad.length < 20) bad.push(`${name} ${l.addr.toString(16)} ${l.word.toString(16)}: objdump "${l.text}" emu "${mine}"`);
          }
        }
        expect(bad).toEqual([]);
        expect(total).toBeGreaterThan(10_000);
      });
    }
  }
});
