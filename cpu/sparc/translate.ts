/**
 * The fast engine: translates runs of SPARC code ("blocks", within one 4 KiB page, ending at a
 * delayed CTI and its delay slot, with side exits at forward conditional branches: codegen.ts)
 * into JavaScript functions with `new Function`, caches them by (physical address, virtual
 * address, mode) and runs them from a dispatch loop.
 *
 * Contracts shared with the reference interpreter (interp.ts), checked in lockstep by the tests:
 *   - same architectural state after every block, same traps with the same PC/nPC, exact retired
 *     counts (a block function returns how many instructions it retired);
 *   - a block runs only if its longest path (Block.len, an upper bound) fits the remaining
 *     budget; otherwise the interpreter steps, so the budget can end between any two instructions;
 *   - instruction fetch uses the fetch-page rule of SparcState.ifPage; data accesses inline the
 *     software-map fast path and share the slow paths, so the TLB model sees the same references;
 *     a load or store after a block's first instruction that the map does not serve leaves the
 *     block before it (before its branch in a delay slot) like any exit, and the dispatch loop
 *     runs the block starting there, which takes the slow path in place (codegen.ts, slow exits);
 *   - with a sink set (and S = 0), blocks come from a separate cache and report every retired
 *     instruction's fetch and data references; without one they contain no hook calls.
 * Block exits write PC only: nPC is PC + 4 at every exit, and the dispatch loop makes it explicit
 * before the interpreter runs or a trap is taken (a fetch fault gets it as an argument); at the end
 * of the budget it returns NPC_IMPLICIT and its caller (SparcCpu.run, cpu.ts) makes it explicit. The generated code is
 * codegen.ts's. Addresses reached fewer than COLD_RUNS times run on the interpreter.
 * Blocks are not made for: a CTI whose delay slot is another delayed CTI (a CTI couple) or lies
 * on the next page, RETT, or a start with nPC != PC + 4. The interpreter runs those.
 * Stores to a page that holds translations drop them (SparcMmu.codePages keeps such pages out of
 * the write map); FLUSH drops the translations of its page and ends the block.
 */
import type { SparcCore } from './core.js';
import { step } from './interp.js';
import { ICOND, FCOND } from './ops.js';
import { emitScanned, scanBlock } from './codegen.js';
import { jitCache, type JitCache } from '../jitcache.js';
import { TT_INTERRUPT_LEVEL } from './traps.js';
import { HELPER_NAMES, HELPER_VALUES } from '../semantics.js';

/** SparcTranslator.run's result: budget used up, nPC implicit (PC + 4). */

/** Parameters of a block's factory (what its code names; translate passes their values). */
const FACTORY_PARAMS = ['r', 'M', 'M8', 'M16', 'FR', 'F32', 'F64', 'ICOND', 'FCOND', ...HELPER_NAMES];
export const NPC_IMPLICIT = -1;

/** Dispatches to an address before its block is translated (see lookup). */
const COLD_RUNS = 4;
const JC_BITS = 14;
const JC_MASK = (1 << JC_BITS) - 1;

type BlockFn = (c: SparcCore, left: number) => number;

interface Block {
  va: number;
  pa: number;
  mode: number;
  /** Longest path (per iteration for loop blocks), in instructions. */
  len: number;
  /** No translation: the interpreter executes the instruction at va. */
  interp: boolean;
  fn: BlockFn | undefined;
  valid: boolean;
}

/** The block of code not translated yet: the dispatch loop runs one instruction on the interpreter. */
const COLD: Block = { va: -1, pa: -1, mode: -1, len: 0, interp: true, fn: undefined, valid: false };

export class SparcTranslator {
  private readonly cache = new Map<number, Block>();
  private readonly cold = new Map<number, number>();
  private readonly pageBlocks = new Map<number, Block[]>();
  private readonly jc: (Block | undefined)[] = new Array<Block | undefined>(1 << JC_BITS).fill(undefined);
  private readonly factoryArgs: unknown[];
  /** The translation cache (../jitcache.ts), when the command keeps one. */
  private readonly jit: JitCache | null = jitCache('sparc', FACTORY_PARAMS);
  /** Statistics: blocks translated, blocks invalidated, block runs. */
  translated = 0;
  invalidated = 0;
  blockRuns = 0;

  constructor(private readonly cpu: SparcCore) {
    this.factoryArgs = [cpu.rf, cpu.u32, cpu.u8, cpu.u16, cpu.fpu.fr, cpu.fpu.f32, cpu.fpu.f64, ICOND, FCOND, ...HELPER_VALUES];
  }

  flushAll(): void {
    for (const b of this.cache.values()) b.valid = false;
    this.cache.clear();
    this.cold.clear();
    for (const p of this.pageBlocks.keys()) this.cpu.mmu.unprotectCodePage(p);
    this.pageBlocks.clear();
    this.jc.fill(undefined);
  }

  /** Drops every translation of physical page ppage (a store reached it, or FLUSH). */
  invalidatePage(ppage: number): void {
    const l = this.pageBlocks.get(ppage);
    if (!l) return;
    for (const b of l) {
      b.valid = false;
      this.cache.delete(b.pa * 4 + b.mode);
      this.invalidated++;
    }
    this.pageBlocks.delete(ppage);
    this.cpu.mmu.unprotectCodePage(ppage);
    this.jc.fill(undefined);
  }

  /**
   * Runs until the budget is used or a trap is taken; returns the budget left, or NPC_IMPLICIT:
   * the budget is used up (0 left) and nPC is implicit (PC + 4), for the caller to make explicit.
   *
   * V8 compiles this loop on-stack (OSR) during the first long call, before any code after the
   * loop has run; an operation there without type feedback (a property access, an addition)
   * deoptimised the loop at the end of every budget slice (58 times on compress 4000000) and
   * recompiled it. So the exits carry no such operation: every trapping exit leaves nPC
   * explicit (checkNpc is set before the break), and the budget exit returns a constant.
   */
  run(left: number): number {
    const c = this.cpu;
    const jc = this.jc;
    // After a block, nPC = PC + 4 and the mode is unchanged (blocks end at PSR writes, and
    // traps leave the loop): only the interpreter's steps need the full checks.
    let mode = c.s === 0 && c.sinkOn ? 1 : c.s << 1;
    let checkNpc = true;
    while (left > 0) {
      // One PC + 4 for every use below (each use site of its own would be a rarely run operation).
      const pc = c.pc;
      const pc4 = (pc + 4) | 0;
      if (c.pollInterrupts) {
        c.pollInterrupts = false;
        if (c.interruptPending()) {
          if (!checkNpc) c.npc = pc4;
          c.trap(TT_INTERRUPT_LEVEL + c.irl);
          checkNpc = true;
          break;
        }
        mode = c.s === 0 && c.sinkOn ? 1 : c.s << 1;
      }
      if (checkNpc && c.npc !== pc4) {
        left -= step(c);
        if (c.trapped) break;
        mode = c.s === 0 && c.sinkOn ? 1 : c.s << 1;
        continue;
      }
      let pa: number;
      if ((pc >>> 12) === c.ifPage) pa = (pc + c.ifDelta) | 0;
      else {
        // nPC is passed, not stored: a fetch fault stores it with the trap (trapAt).
        pa = c.fetchPa(pc, checkNpc ? c.npc : pc4);
        if (pa < 0) {
          checkNpc = true;
          break;
        }
      }
      let b = jc[(pa >>> 2) & JC_MASK];
      if (b === undefined || b.pa !== pa || b.va !== pc || b.mode !== mode) b = this.lookup(pc, pa, mode);
      if (b.fn === undefined || b.len > left) {
        c.npc = pc4;
        checkNpc = true;
        left -= step(c);
        if (c.trapped) break;
        mode = c.s === 0 && c.sinkOn ? 1 : c.s << 1;
        continue;
      }
      left -= b.fn(c, left);
      this.blockRuns++;
      checkNpc = false;
      if (c.trapped) {
        checkNpc = true;
        break;
      }
    }
    // Blocks retire at most the budget they are given and a step at most 1, so a budget exit
    // has exactly 0 left; block exits leave nPC implicit (PC + 4).
    if (checkNpc) return left;
    return NPC_IMPLICIT;
  }

  private lookup(va: number, pa: number, mode: number): Block {
    const key = pa * 4 + mode;
    let b = this.cache.get(key);
    if (b === undefined || b.va !== va || !b.valid) {
      // Code reached fewer than COLD_RUNS times runs on the interpreter: most code that runs once
      // (start-up, error paths) is never worth a translation.
      const seen = this.cold.get(key) ?? 0;
      if (seen < COLD_RUNS - 1) {
        if (this.cold.size > 1 << 20) this.cold.clear();
        this.cold.set(key, seen + 1);
        return COLD;
      }
      b = this.translate(va, pa, mode);
      this.cache.set(key, b);
      const pp = pa >>> 12;
      let l = this.pageBlocks.get(pp);
      if (!l) {
        this.pageBlocks.set(pp, (l = []));
        this.cpu.mmu.protectCodePage(pp);
      }
      l.push(b);
    }
    this.jc[(pa >>> 2) & JC_MASK] = b;
    return b;
  }

  private translate(va: number, pa: number, mode: number): Block {
    const blk: Block = { va, pa, mode, len: 0, interp: true, fn: undefined, valid: true };
    const scan = scanBlock(this.cpu, va, pa);
    if (!scan) return blk;
    // The key holds every input of the generated source: the scan's result at this va, and the mode.
    const key = this.jit === null ? '' : `${mode} ${va} ${scan.cti} ${[...scan.side].join(',')} ${scan.insns.map((d) => d.word).join(',')}`;
    let factory = this.jit === null ? undefined : (this.jit.get(key) as ((...a: unknown[]) => BlockFn) | undefined);
    if (factory === undefined) {
      const src = emitScanned(scan, va, mode).src;
      factory = (this.jit === null ? new Function(...FACTORY_PARAMS, src) : this.jit.add(key, src)) as (...a: unknown[]) => BlockFn;
    }
    blk.fn = factory(...this.factoryArgs);
    blk.len = scan.insns.length;
    blk.interp = false;
    this.translated++;
    return blk;
  }


  /** Source of the translation of the block at va (any mode, or the given one), for debugging. */
  debugSource(va: number, mode?: number): string | undefined {
    for (const b of this.cache.values()) if (b.va === (va | 0) && b.fn && (mode === undefined || b.mode === mode)) return b.fn.toString();
    return undefined;
  }
}
