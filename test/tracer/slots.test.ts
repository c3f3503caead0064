/**
 * The frame analysis of tracer/slots.ts on functions of built programs whose code is quoted in the
 * comments (mipsel-linux-gnu-objdump -d): which frames escape, which loads are based on the entry
 * stack pointer and at what offset from it, which slots are tracked. The expected offsets are
 * worked out from the disassembly (the frame size of the prologue's `addiu sp,sp,-N`), not taken
 * from the implementation's output.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCfg, externalEntries } from '../../tracer/cfg.js';
import { Dataflow } from '../../tracer/dataflow.js';
import { analyzeFrame, slotOffset, trackedSlots, type FrameInfo } from '../../tracer/slots.js';
import { resolveFunction, type Resolution } from '../../tracer/switches.js';
import { buildBsd, loadBsd } from '../support/built.js';
import { toolsAvailable } from '../support/tools.js';

function frameOf(program: string, func: string): FrameInfo {
  const prog = loadBsd('mipsel', program);
  const f = prog.funcs.find((x) => x.name === func);
  if (!f) throw new Error(`${prog.file}: no function ${func}`);
  const cfg = buildCfg({ prog, externalEntries: externalEntries(prog) }, f);
  const isa = prog.isa;
  return analyzeFrame(cfg, isa, new Dataflow(cfg, isa, { carried: [isa.SP], callPreserved: isa.callPreserves }));
}

describe.skipIf(!toolsAvailable())('stack frames (tracer/slots.ts)', () => {
  // Built (or found in the build cache) before any test reads them: the suite's files run in
  // parallel, so none may count on another having built them.
  beforeAll(() => buildBsd([['mipsel', 'compress'], ['mipsel', 'li'], ['mipsel', 'cc1']]), 600_000);

  it("compress lzw_compress: &e (sp+16) reaches put_code, so the frame escapes and nothing is tracked", () => {
    // 401354 addiu sp,sp,-136; 40142c addiu v0,sp,16; 401434 sw v0,76(sp); 4014d8 lw a0,76(sp);
    // 4014dc jal put_code; 401554 lw v0,80(sp); 401374 lw a1,152(sp) (the fifth argument).
    const fr = frameOf('compress', 'lzw_compress');
    expect(fr.escaped).toBe(true);
    expect(fr.slots.size).toBe(0);
    expect(fr.stackLoads.get(0x401554)).toBe(80 - 136);
    expect(fr.stackLoads.get(0x4014d8)).toBe(76 - 136);
    expect(fr.stackLoads.get(0x401374)).toBe(152 - 136);
  });

  it('compress put_code: its frame does not escape; the saved registers are tracked slots', () => {
    // 401154 addiu sp,sp,-32; 40116c sw ra,28(sp); 401270 lw ra,28(sp); 401150 lw v0,24(a0)
    // (based on the argument, not on the stack pointer).
    const fr = frameOf('compress', 'put_code');
    expect(fr.escaped).toBe(false);
    expect(fr.stackLoads.get(0x401270)).toBe(28 - 32);
    expect(fr.stackLoads.has(0x401150)).toBe(false);
    const ld = fr.slots.get(0x401270);
    const st = fr.slots.get(0x40116c);
    expect(ld?.kind).toBe('load');
    expect(st?.kind).toBe('store');
    expect(slotOffset(ld!.slot)).toBe(-4);
    expect(st!.slot).toBe(ld!.slot);
  });

  it("li eval: the home area of its arguments is the caller's frame (offsets >= 0)", () => {
    // 403be4 addiu sp,sp,-64; 403c00 sw a1,68(sp); 403c9c addiu v1,sp,68 (PROTECT: stored into
    // gc_roots); 403c8c lw a1,68(sp).
    const fr = frameOf('li', 'eval');
    expect(fr.escaped).toBe(true);
    expect(fr.stackLoads.get(0x403c8c)).toBe(68 - 64);
  });

  it('cc1 emit_code: a jump table whose address is spilled to 16(sp) is resolved through the tracked slot', () => {
    // 401368 addiu sp,sp,-72; 401410 lui s5,0x41; 401414 addiu v0,s5,10784 (0x412a20); 40141c sw
    // v0,16(sp); ... 401520 lw v0,0(s3); sltiu a0,v0,42; beqz a0,401668 / sll v0,v0,0x2; 401534
    // lw v1,16(sp); 40153c addu v0,v1,v0; 401540 lw v0,0(v0); 401548 jr v0. The words from
    // 0x412a20 on are code addresses inside emit_code (`objdump -s -j .rodata`: 0x401668, 0x401948,
    // ...) up to 0x412ac8, which holds 0x23: 42 words, the 42 cases the sltiu admits. Without the
    // slot the table's address is a load from the stack and the jump's target stays recorded.
    const prog = loadBsd('mipsel', 'cc1');
    const f = prog.funcs.find((x) => x.name === 'emit_code')!;
    // The first pass of tracer/instrument.ts: entries are function starts and call targets only.
    const cfg = buildCfg({ prog, externalEntries: externalEntries(prog) }, f);
    const df = new Dataflow(cfg, prog.isa, { carried: [], callPreserved: prog.isa.callPreserves });
    const tracked = trackedSlots(cfg, prog.isa, df);
    expect(tracked?.opts.slots?.get(0x40141c)).toMatchObject({ kind: 'store', reg: 2 });
    expect(slotOffset(tracked!.opts.slots!.get(0x401534)!.slot)).toBe(16 - 72);
    const res: Resolution = { tables: new Map(), mipsPairs: new Map() };
    resolveFunction(prog, cfg, df, res);
    const words = res.tables.get(0x401548)?.words;
    expect(words?.[0]).toBe(0x412a20);
    expect(words?.length).toBe(42);
    expect(words?.every((w, i) => w === 0x412a20 + 4 * i)).toBe(true);
    expect(prog.codeWords.get(0x412a20)).toBe(0x401668);
  });
});
