/**
 * Rollback tested directly (issue 7): an interrupt forced at every instruction of a witness
 * sequence and of a value (record) sequence, on MIPS and SPARC.
 *
 * The instrumented ttest-asm (and, for SPARC's address sum, ttest-code) runs once as a reference; its ground truth gives, for every
 * instrumentation sequence of the schema's address map, the machine instruction count at which
 * the sequence's first instruction is about to execute (single process: the truth's instruction
 * fetches are the machine's retired user instructions, in order). Executions that a page fault
 * inside the sequence rolled back (the first store into a trace-buffer page) are not used: there
 * the truth shows the sequence's start right after one of its own instructions. For one sequence of every shape the program
 * executes (witness or value, and length: 1-byte witnesses of 2 and 3 instructions, 1-byte
 * values, and the 4-byte value, 3 instructions on MIPS and 8 on SPARC; SPARC's address sum, 9), at its
 * last clean execution, and for each k from 0 to the sequence's length n, the program is run
 * again with an interrupt forced (KernelConfig.intrAt, docs/kernel.md section 5)
 * when instruction k of that execution is about to run. Then:
 *   - the interrupt hit the instruction chosen (the kernel's log: PC = start + 4k);
 *   - the kernel resumed at the sequence start for 0 < k < n (rolled back: the partly written
 *     bytes are rewritten, the pointer moved once), and at the interrupted PC for k = 0 (nothing
 *     done yet) and k = n (the sequence complete);
 *   - the instructions undone were subtracted from the process's instruction count: the EXIT
 *     marker carries the same count as the reference run's;
 *   - the program's output is unchanged;
 *   - regeneration equals, event for event, the original program's ground truth and the
 *     instrumented run's ground truth mapped back through the address map.
 * `npm test` runs mipsel and sparc (test/os/rollback_forced.test.ts), `npm run test:full` mips
 * (test/os/rollback_forced.full.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { TargetName } from '../../../format/target.js';
import { parseElf } from '../../../format/elf.js';
import { readTruth } from '../../../format/truth.js';
import { decodeMips } from '../../../tracer/isa_mips.js';
import { decodeSparc } from '../../../tracer/isa_sparc.js';
import { runExecutable, type TracedRun } from '../../../bin/harness.js';
import { toolsAvailable } from '../../support/tools.js';
import { inPart, type Part } from '../../support/part.js';
import { regenAgainst, traced, type Traced } from '../../tracer/support/trace.js';

const have = toolsAvailable();

interface Seq {
  start: number;
  n: number;
  /** Records a program value (uses a register other than the pointer, the temporary and zero). */
  value: boolean;
  /** Machine instruction count before its last clean execution in the reference run. */
  at: number;
}

/** The instrumentation sequences of the new text, classified, with their last clean execution. */
function executedSequences(t: Traced, target: TargetName): Seq[] {
  const e = parseElf(t.inst.elf, `${t.path}.qpt`);
  const sec = e.sections.find((s) => s.name === '.qpt.text')!;
  const dv = new DataView(t.inst.elf.buffer, t.inst.elf.byteOffset + sec.offset, sec.size);
  const word = (va: number): number => dv.getUint32(va - sec.addr, !e.bigEndian);
  const sparc = target === 'sparc';
  const own = sparc ? [0, 6, 7] : [0, 26, 27];
  const seqs = new Map<number, Seq>();
  for (const [addr, n, kind] of t.inst.schema.addressMap) {
    if (kind !== 's') continue;
    let value = false;
    for (let i = 0; i < n; i++) {
      const d = sparc ? decodeSparc(word(addr + 4 * i), addr + 4 * i) : decodeMips(word(addr + 4 * i), addr + 4 * i);
      expect(d.valid).toBe(true);
      if (d.uses.some((r) => !own.includes(r))) value = true;
    }
    seqs.set(addr, { start: addr, n, value, at: -1 });
  }
  // The reference run's instruction fetches: the last time each sequence runs start to end, not
  // right after a fault inside it rolled it back (its start fetched after one of its own
  // instructions).
  let index = 0;
  let prev = -1;
  let open: { s: Seq; at: number; next: number } | null = null;
  readTruth(t.run.truth!, `${t.path} (instrumented run)`, (r) => {
    if (r.kind !== 'I') return;
    if (open && r.addr === open.next) {
      open.next += 4;
      if (open.next === open.s.start + 4 * open.s.n) {
        open.s.at = open.at;
        open = null;
      }
    } else {
      open = null;
      const s = seqs.get(r.addr);
      // Not a restart after a rollback: the fetch before is outside the sequence.
      if (s && !(prev >= s.start && prev < s.start + 4 * s.n)) open = { s, at: index, next: r.addr + 4 };
    }
    prev = r.addr;
    index++;
  });
  return [...seqs.values()].filter((s) => s.at >= 0);
}

function exitIcount(r: TracedRun): number {
  const exits = r.trace.markers.filter((m) => m.kind === 'exit');
  expect(exits).toHaveLength(1);
  return exits[0]!.icount;
}

export function rollbackForcedSuite(part: Part): void {
  describe.skipIf(!have)('an interrupt forced at every instruction of a sequence', () => {
    // `npm test` runs one target per ISA (rollback_forced.test.ts); big-endian MIPS, whose code and
    // sequences are mipsel's, is rollback_forced.full.test.ts's.
    // ttest-asm executes every shape but SPARC's address sum (`add rs1,rs2,%g7` and its bytes: 9
    // instructions), whose operands its regeneration computes; ttest-code executes it.
    const cases: [TargetName, string, string][] = [
      ['mipsel', 'ttest-asm', 'witness and value sequences'], ['mips', 'ttest-asm', 'witness and value sequences'],
      ['sparc', 'ttest-asm', 'witness and value sequences'], ['sparc', 'ttest-code', 'address sums'],
    ];
    for (const [target, name, shapesOf] of cases.filter(([t]) => inPart(part, t !== 'mips'))) {
      it(`${target} ${name}: ${shapesOf} rolled back, regeneration exact`, { timeout: 300_000 }, async () => {
        const t = await traced(target, name);
        expect(t.run.stdout.toString('latin1')).toBe(t.orig.stdout.toString('latin1'));
        const refIcount = exitIcount(t.run);
        const seqs = executedSequences(t, target);
        // One sequence of every shape the run executes: witnesses and values, each length (the
        // widths of docs/tracer.md's table), the most often interrupted kind of code.
        const shapes = new Map<string, Seq>();
        for (const s of seqs) if (!shapes.has(`${s.value}/${s.n}`)) shapes.set(`${s.value}/${s.n}`, s);
        let chosen = [...shapes.values()];
        for (const s of chosen) expect(s.n).toBeGreaterThanOrEqual(2);
        if (name === 'ttest-asm') {
          expect(chosen.some((s) => s.value)).toBe(true);
          expect(chosen.some((s) => !s.value)).toBe(true);
        } else {
          chosen = chosen.filter((s) => s.value && s.n === 9);
          expect(chosen).toHaveLength(1);
        }
        for (const s of chosen) {
          for (let k = 0; k <= s.n; k++) {
            const what = `${s.value ? 'value' : 'witness'} sequence at 0x${s.start.toString(16)} (${s.n} instructions), k = ${k}`;
            const run = runExecutable({ data: t.inst.elf, name }, {
              args: t.args, ...(t.stdin ? { stdin: t.stdin } : {}), truth: 'bin', trace: true, intrAt: [s.at + k],
            });
            expect(run.intrs, what).toEqual([{ insns: s.at + k, pid: 1, pc: s.start + 4 * k, resume: k > 0 && k < s.n ? s.start : s.start + 4 * k }]);
            if (k > 0 && k < s.n) {
              expect(run.trbuf.rollbacks, what).toBeGreaterThanOrEqual(1);
            }
            expect(exitIcount(run), what).toBe(refIcount);
            expect(run.stdout.toString('latin1'), what).toBe(t.orig.stdout.toString('latin1'));
            expect(run.exitCode, what).toBe(t.orig.exitCode);
            const forced: Traced = { ...t, run };
            const o = regenAgainst(forced, 'original');
            const m = regenAgainst(forced, 'mapped');
            expect(o.events, what).toBeGreaterThan(0);
            expect(m.events, what).toBe(o.events);
          }
        }
      });
    }
  });
}
