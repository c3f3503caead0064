/**
 * The read-only load proof (tracer/rodata.ts, tracer/induction.ts) on functions of built programs
 * whose code is quoted in the comments (mipsel-linux-gnu-objdump -d, sparc64-linux-gnu-objdump
 * -d): the ranges expected are worked out from the disassembly and the C source, not taken from
 * the implementation's output. Loads it must refuse: an index bounded on one side only, a base
 * loaded from memory, a constant address in a writable section. And regeneration's side: the
 * image the schema carries gives the original bytes, and an address outside it is an error
 * naming the pc and the address; a schema of another version is refused naming both versions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILD_DIR } from '../../images/build.js';
import { RegenProgram } from '../../regen/model.js';
import { buildCfg, externalEntries } from '../../tracer/cfg.js';
import { Dataflow } from '../../tracer/dataflow.js';
import { instrument } from '../../tracer/instrument.js';
import { loadProgram, type Program } from '../../tracer/program.js';
import { RangeAnalysis, readOnlyLoads, readOnlySections, type RoLoad } from '../../tracer/rodata.js';
import { parseSchema, SCHEMA_VERSION } from '../../format/schema.js';
import { buildBsd, loadBsd } from '../support/built.js';
import { toolsAvailable } from '../support/tools.js';


function analyse(prog: Program, func: string): { loads: Map<number, RoLoad>; range: (pc: number) => { lo: number; hi: number } | undefined } {
  const f = prog.funcs.find((x) => x.name === func);
  if (!f) throw new Error(`no function ${func}`);
  const cfg = buildCfg({ prog, externalEntries: externalEntries(prog) }, f);
  const isa = prog.isa;
  const df = new Dataflow(cfg, isa, { carried: [isa.SP], callPreserved: isa.callPreserves });
  const ra = new RangeAnalysis(cfg, isa, df);
  const range = (pc: number): { lo: number; hi: number } | undefined => {
    for (const b of cfg.blocks) {
      const i = b.insns.findIndex((d) => d.addr === pc);
      if (i >= 0) return ra.address(b, i, df.sites[df.insnSite[b.id]![i]!]!.depth, b.insns[i]!.mem!);
    }
    throw new Error(`no instruction at 0x${pc.toString(16)}`);
  };
  return { loads: readOnlyLoads(cfg, isa, df, readOnlySections(prog.elf)), range };
}

describe.skipIf(!toolsAvailable())('read-only loads (tracer/rodata.ts)', () => {
  // The binaries read below, built (or found in the build cache) before any test reads them: the
  // suite's files run in parallel, so none may count on another having built them.
  beforeAll(() => buildBsd([['mipsel', 'cc1'], ['mipsel', 'textgen'], ['sparc', 'cc1']]), 600_000);

  it('the read-only sections are those of the PT_LOAD without PF_W, never .data or .bss', () => {
    const names = readOnlySections(loadBsd('mipsel', 'cc1').elf).map((s) => s.name);
    expect(names).toContain('.text');
    expect(names).toContain('.rodata');
    expect(names).not.toContain('.data');
    expect(names).not.toContain('.bss');
  });

  it('cc1 scan (MIPS): the operator table walked by s8 in lockstep with the counter s5', () => {
    // 4076e4 lui s6,0x41; 4076e8 addiu s6,s6,13348 (T = 0x413424); 4076ec move s8,s6; 4076f4 move
    // s5,zero; 407718 lw a1,0(s8); 407728 bnez v0,407700 / 40772c addiu s5,s5,1; 407700 beq
    // s5,s7(43),exit / 407704 addiu s8,s8,8; 407708 lw a0,0(s8). At 407718 s5 is 0..42 and s8 =
    // T + 8 s5; at 407708 s5 is 1..42. 43 entries of 8 bytes: T .. T + 344.
    const { loads } = analyse(loadBsd('mipsel', 'cc1'), 'scan');
    const T = 0x413424;
    expect(loads.get(0x407718)).toMatchObject({ lo: T, hi: T + 8 * 42 });
    expect(loads.get(0x407708)).toMatchObject({ lo: T + 8, hi: T + 8 * 42 });
    expect(loads.get(0x407708)!.section.name).toBe('.rodata');
  });

  it('cc1 tok_name (MIPS): the keyword loop is bounded by its counter; the punct[k - 17] index is not', () => {
    // 407aa8 lui v0,0x41; addiu v0,v0,13868 (0x41362c); li a2,12; 407ab4 lw a1,0(v0); ... addiu
    // v0,v0,8 (delay slot); 407ac4 addiu v1,v1,1; bne v1,a2,407ab4: v1 is 0..11 at the load.
    // 407a9c sltiu v0,a0,17; beqz v0,407ae8: 407ae8 addiu a0,a0,-17; sll; addu 0x41357c; 407afc
    // lw v0,0(a0): k >= 17 bounds the index below only.
    const { loads, range } = analyse(loadBsd('mipsel', 'cc1'), 'tok_name');
    expect(loads.get(0x407ab4)).toMatchObject({ lo: 0x41362c, hi: 0x41362c + 8 * 11 });
    expect(loads.has(0x407afc)).toBe(false);
    expect(range(0x407afc)).toBeUndefined();
  });

  it('cc1 emit_code (MIPS): a table whose address is loaded from the stack is refused', () => {
    // 401534 lw v1,16(sp); 40153c addu v0,v1,v0; 401540 lw v0,0(v0) (it does read .rodata at run
    // time, but only the spilled value says so).
    const { loads, range } = analyse(loadBsd('mipsel', 'cc1'), 'emit_code');
    expect(loads.has(0x401540)).toBe(false);
    expect(range(0x401540)).toBeUndefined();
  });

  it('textgen noun_phrase (MIPS): ONE_OF(a) indexes by (17 * (x >> 16)) >> 16; lcg_state is in .bss', () => {
    // 400934 srl a0,v1,0x10; 400948 sll v0,a0,0x4; addu v0,v0,a0; srl v0,v0,0x10 (0..16); lui a0,0x41;
    // addiu a0,a0,-20928 (0x40ae40); sll v0,v0,0x2; addu; 400964 lw a0,0(v0).
    // 4008f8 lui s3,0x42; 400904 lw v0,-14708(s3): lcg_state at 0x41c68c, writable.
    const { loads, range } = analyse(loadBsd('mipsel', 'textgen'), 'noun_phrase');
    expect(loads.get(0x400964)).toMatchObject({ lo: 0x40ae40, hi: 0x40ae40 + 4 * 16 });
    expect(range(0x400904)).toEqual({ lo: 0x41c68c, hi: 0x41c68c });
    expect(loads.has(0x400904)).toBe(false);
  });

  it('cc1 scan (SPARC): the same table, one load in the delay slot of the call to strlen', () => {
    // 16d50 sethi %hi(0x21800),%l1; or %l1,0x2ec,%l1 (T = 0x21aec); clr %l0; b 16d80 / mov %l1,%i2;
    // 16d68 cmp %l0,0x2b; be exit / add %i2,8,%i2; 16d74 call strlen / 16d78 ld [%i2],%o0;
    // 16d84 ld [%i2],%o1; 16d94 bne,a 16d68 / inc %l0.
    const { loads } = analyse(loadBsd('sparc', 'cc1'), 'scan');
    const T = 0x21aec;
    expect(loads.get(0x16d84)).toMatchObject({ lo: T, hi: T + 8 * 42 });
    expect(loads.get(0x16d78)).toMatchObject({ lo: T + 8, hi: T + 8 * 42 });
  });

  it('regeneration reads the original bytes and refuses an address outside the image', () => {
    const path = join(BUILD_DIR, 'bsd-mipsel', 'bin', 'textgen');
    const bytes = new Uint8Array(readFileSync(path));
    const inst = instrument(bytes, path);
    expect(inst.schema.rodata.length).toBeGreaterThan(0);
    const prog = new RegenProgram(inst.schema, 'textgen.schema');
    const orig = loadProgram(bytes, path);
    const [addr] = inst.schema.rodata[0]!;
    expect(prog.roLoad(addr, 4, 0x400964) >>> 0).toBe(orig.word(addr) >>> 0);
    expect(prog.roLoad(addr, 1, 0x400964)).toBe(orig.word(addr) & 0xff);
    expect(() => prog.roLoad(0x41c68c, 4, 0x400904)).toThrow(/0x400904.*0x41c68c/);
  });

  it('a schema of another version is refused, naming the file and both versions', () => {
    const old = Buffer.from(JSON.stringify({ format: 'emu-schema', version: SCHEMA_VERSION - 1, functions: [], addressMap: [], rodata: [] }));
    expect(() => parseSchema(old, 'old.schema.json')).toThrow(new RegExp(`old\\.schema\\.json.*version ${SCHEMA_VERSION - 1}.*version ${SCHEMA_VERSION}`));
  });
});
