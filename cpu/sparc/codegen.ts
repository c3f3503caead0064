/**
 * JavaScript generation for the block translator (translate.ts): a block — a run within one
 * 4 KiB page up to a delayed CTI and its delay slot, followed through up to MAX_EXITS forward
 * conditional branches along their fall-through path (side exits) — becomes the source of one
 * function `(c, left) => retired`. What the generated code knows statically: PC and nPC of every
 * instruction (branch targets, link values and trap PCs are constants), the condition-code
 * producer within the block (icc kept as locals: a `cmp` and branch become one JS comparison;
 * icc is written back lazily — at exits, before helpers that read or replace it, and inside the
 * slow paths that may trap), and whether the block branches to its own start (it then iterates
 * inside one call while the budget allows). A conditional branch becomes both arms, each with its
 * copy of the delay slot (an annulled arm leaves it out); at a side exit the taken arm leaves and
 * the other goes on. Exits write PC only (nPC = PC + 4). A trap returns at once with the count of
 * instructions retired before it on its path (a Ticc counts itself).
 *
 * Slow exits: an integer load or store after the block's first instruction calls no slow path in
 * place. When the page map does not serve it (TLB miss, first touch, M bit clear, a fault,
 * misalignment) the block exits before it — before its branch when it sits in a delay slot —
 * with icc written back and the count retired so far, and the dispatch loop runs the block
 * starting there, whose first instruction takes the slow path (the walk, or the trap with exact
 * PC/nPC). V8 compiles a hot block with the type feedback its runs gathered; a slow-path call
 * first reached after that deoptimised the block, which was then compiled again. A delay slot
 * calls its slow path in place after a CALL or a JMPL that wrote its link register (going back
 * before the branch would not be exact) and with the ground-truth sink (the branch's fetch was
 * reported). Conditional branches (annulled or not) and JMPL to %g0 have no effect before their
 * slot but the decision, which re-execution makes again from the same state. Atomics and
 * alternate-space accesses, which have no fast path, call theirs in place.
 */
import type { SparcCore } from './core.js';
import { decodeCached, type DInsn } from './interp.js';
import { CC_ADD, CC_LOGIC, CC_SUB } from './state.js';
import { emitFmem, emitFpop, fcondExpr, fpGuard } from './fpgen.js';
import { Gen, I, R, RL, type PendingCc } from './jsgen.js';
import {
  TT_CP_DISABLED, TT_DIVISION_BY_ZERO, TT_ILLEGAL_INSTRUCTION, TT_MEM_ADDRESS_NOT_ALIGNED,
  TT_PRIVILEGED_INSTRUCTION, TT_TRAP_INSTRUCTION,
} from './traps.js';
import { CC_DIV, iccOf, valueCode } from './values.js';
import { int32Store } from '../semantics.js';

/** Longest block, in instructions (keeps generated functions well below V8's size limits). */
export const MAX_BLOCK = 48;
/**
 * Most side exits per block: forward conditional branches followed along their fall-through path
 * (a backward one usually closes a loop and is mostly taken). Measured with bench/cpu-sparc.ts:
 * faster on the longer runs (li 8, compress 4M), within noise on the short ones.
 */
export const MAX_EXITS = 4;
/**
 * Calls of a new translation whose first iteration takes the slow paths that have a fast path
 * (FP memory references, FPops: the shared reference code, with the same effects). V8 optimises
 * a hot block with the type feedback its runs have gathered, and deoptimises it the first time a
 * path without feedback runs — a slow path taken only after a TLB miss, say — then compiles it
 * again: on sgefa 300 (27,000 TLB misses) the daxpy block was compiled eight times. Taking the
 * slow paths once at the start gives them feedback before the first optimisation.
 */
export const COLD_CALLS = 16;

export interface GeneratedBlock {
  /**
   * Source of a function body `return function (c, left) {...}` over r, M, M8, M16, FR, F32, F64,
   * ICOND, FCOND and cpu/semantics.ts's helpers.
   */
  src: string;
  /** Longest path in instructions (per iteration for a self-loop). */
  len: number;
}

const CTI_DELAYED = new Set(['bicc', 'fbfcc', 'cbccc', 'call', 'jmpl', 'rett']);

function isDelayed(d: DInsn): boolean {
  return d.spec !== undefined && CTI_DELAYED.has(d.spec.sem);
}

/** Condition expression over a pending icc producer (see ICOND for the flag definitions). */
function condExpr(cond: number, cc: PendingCc | null): string {
  if (cond === 8) return 'true';
  if (cond === 0) return 'false';
  if (!cc) return `ICOND[${cond << 4} | c.icc] !== 0`;
  const { a, b, r } = cc;
  if (cc.op === CC_SUB) {
    switch (cond) {
      case 1: return `${a} === ${b}`;
      case 9: return `${a} !== ${b}`;
      case 3: return `${a} < ${b}`;
      case 11: return `${a} >= ${b}`;
      case 2: return `${a} <= ${b}`;
      case 10: return `${a} > ${b}`;
      case 5: return `(${a} >>> 0) < (${b} >>> 0)`;
      case 13: return `(${a} >>> 0) >= (${b} >>> 0)`;
      case 4: return `(${a} >>> 0) <= (${b} >>> 0)`;
      case 12: return `(${a} >>> 0) > (${b} >>> 0)`;
      case 6: return `${r} < 0`;
      case 14: return `${r} >= 0`;
      case 7: return `((${a} ^ ${b}) & (${a} ^ ${r})) < 0`;
      case 15: return `((${a} ^ ${b}) & (${a} ^ ${r})) >= 0`;
    }
  }
  if (cc.op === CC_LOGIC) {
    switch (cond) {
      case 1: case 4: return `${r} === 0`;
      case 9: case 12: return `${r} !== 0`;
      case 3: case 6: return `${r} < 0`;
      case 11: case 14: return `${r} >= 0`;
      case 2: return `${r} <= 0`;
      case 10: return `${r} > 0`;
      case 5: case 7: return 'false';
      case 13: case 15: return 'true';
    }
  }
  // CC_ADD: build NZVC and use the table.
  return `ICOND[${cond << 4} | ((${r} < 0 ? 8 : 0) | (${r} === 0 ? 4 : 0) | ((~(${a} ^ ${b}) & (${a} ^ ${r})) < 0 ? 2 : 0) | ((${r} >>> 0) < (${a} >>> 0) ? 1 : 0))] !== 0`;
}

/**
 * Scans and generates the block at va (physical pa) for mode (bit 1: S, bit 0: sink). Returns
 * undefined when it cannot be translated: its first instruction is RETT, or a CTI whose delay
 * slot is a delayed CTI or lies on the next page.
 */
export function generateBlock(c: SparcCore, va: number, pa: number, mode: number): GeneratedBlock | undefined {
  const b = scanBlock(c, va, pa);
  return b === undefined ? undefined : emitScanned(b, va, mode);
}

/** What the scan of a block found: its instructions, side exits and final CTI (-1: none). */
export interface ScannedBlock {
  insns: DInsn[];
  side: Set<number>;
  cti: number;
}

/** The scan of generateBlock: undefined when the block cannot be translated. */
export function scanBlock(c: SparcCore, va: number, pa: number): ScannedBlock | undefined {
  // Scan: instructions of the block and why it ends. A forward conditional branch is followed
  // along its fall-through path as a side exit.
  const insns: DInsn[] = [];
  const side = new Set<number>();
  let cti = -1;
  for (let i = 0; i < MAX_BLOCK; i++) {
    const ipc = (va + i * 4) | 0;
    if (i > 0 && (ipc & 0xfff) === 0) break;
    const d = decodeCached(c.u32[(pa + i * 4) >>> 2]! >>> 0);
    if (isDelayed(d)) {
      const slotOnPage = ((ipc + 4) & 0xfff) !== 0;
      const slot = slotOnPage ? decodeCached(c.u32[(pa + i * 4 + 4) >>> 2]! >>> 0) : undefined;
      if (d.spec!.sem === 'rett' || !slot || isDelayed(slot)) break;
      insns.push(d, slot);
      if (isCondBranch(d) && d.disp > 0 && side.size < MAX_EXITS && i + 2 < MAX_BLOCK) {
        side.add(i);
        i++;
        continue;
      }
      cti = i;
      break;
    }
    insns.push(d);
    if (endsBlock(d)) break;
  }
  if (insns.length === 0) return undefined;
  return { insns, side, cti };
}

/** The code generation of generateBlock, from the scan's result (a function of it, va and mode alone). */
export function emitScanned(b: ScannedBlock, va: number, mode: number): GeneratedBlock {
  const { insns, side, cti } = b;
  const g = new Gen((mode & 2) !== 0, (mode & 1) !== 0, va);
  const loops = cti >= 0 && isSelfLoop(insns[cti]!, (va + cti * 4) | 0, va);
  const body: string[] = [];
  if (loops) {
    g.base = 'n + ';
    g.emit('let n = 0;');
    g.emit('for (;;) {');
  }
  const loopHead = g.out.length - 1;
  const n = cti >= 0 ? cti : insns.length;
  // k: instructions retired before the one emitted next on the fall-through path (an annulled
  // delay slot of a side exit does not retire).
  let k = 0;
  let open = true;
  for (let i = 0; i < n && open; i++) {
    const ipc = (va + i * 4) | 0;
    if (side.has(i)) {
      open = emitSideExit(g, insns[i]!, insns[i + 1]!, ipc, k);
      k += insns[i]!.a ? 1 : 2;
      i++;
      continue;
    }
    g.memExit = g.slowExit(ipc, k, false);
    open = emitInsn(g, insns[i]!, ipc, String((ipc + 4) | 0), k);
    g.memExit = null;
    k++;
  }
  if (open) {
    if (cti >= 0) emitCti(g, insns[cti]!, insns[cti + 1]!, (va + cti * 4) | 0, k, loops, va);
    else {
      const next = (va + n * 4) | 0;
      g.emit(`${g.flushCc()}c.pc = ${I(next)}; ${g.ret(k)}`);
    }
  }
  if (loops) g.emit('}');
  if (loops && g.usesCold) g.out[loopHead] = 'for (;; k0 = 0) {';
  const temps = g.temps();
  const decl = temps > 0 ? `let ${Array.from({ length: temps }, (_, k) => `t${k} = 0`).join(', ')};` : '';
  const pre = [
    decl,
    'let e = 0, a = 0, w = c.wb;',
    g.usesRM ? 'const RM = c.RM;' : '',
    g.usesWM ? 'const WM = c.WM;' : '',
    g.hooks ? 'const h = c.sink;' : '',
    g.usesF ? 'const f = c.fpu;' : '',
    g.usesFpTemps ? 'let fx = 0, fy = 0, fz = 0, fv = 0, fr = 0, fa = 0, fb = 0, fc = 0, fd = 0, fe = 0;' : '',
    g.usesCold ? 'let k0 = 0; if (cold !== 0) { cold--; k0 = 1; }' : '',
  ];
  body.push(...pre, ...g.out);
  // `cold` lives in the factory's scope: one counter per translation.
  const src = `${g.usesCold ? `let cold = ${COLD_CALLS};\n` : ''}return function blk_${(va >>> 0).toString(16)}(c, left) {\n${body.join('\n')}\n};`;
  // Longest path: the fall-through one, with every instruction (an upper bound).
  return { src, len: insns.length };
}


/**
 * Emits one non-CTI instruction at `pc` whose nPC is the JS expression `npc`; `k` instructions
 * precede it on this path. Returns false when the code after it is unreachable (it always
 * traps) — the caller then stops emitting.
 */
function emitInsn(g: Gen, d: DInsn, pc: number, npc: string, k: number): boolean {
  const s = d.spec;
  const P = I(pc);
  const trap = (tt: number | string): void => {
    g.emit(`${g.flushCc()}c.trapAt(${tt}, ${P}, ${npc}); ${g.ret(k)}`);
  };
  const fetchHook = (): string => (g.hooks ? `h.ifetch(${pc >>> 0}); ` : '');
  const done = (extra = ''): void => {
    const hk = fetchHook() + extra;
    if (hk) g.emit(hk);
  };
  if (!s) {
    const op3 = (d.word >>> 19) & 0x3f;
    if (d.op === 2 && (op3 === 0x34 || op3 === 0x35)) return emitFpop(g, d, pc, npc, k);
    trap(TT_ILLEGAL_INSTRUCTION);
    return false;
  }
  const rd = d.rd;
  const A = R(d.rs1);
  const B = d.i ? I(d.simm13) : R(d.rs2);
  const W = (expr: string): void => {
    if (rd !== 0) g.emit(`${RL(rd)} = ${expr};`);
  };
  if (s.value && s.sem !== 'save' && s.sem !== 'restore') {
    emitValue(g, d, P, npc, k, A, B);
    done();
    return true;
  }
  switch (s.sem) {
    case 'unimp': trap(TT_ILLEGAL_INSTRUCTION); return false;
    case 'addx': case 'subx': case 'addxcc': case 'subxcc': case 'mulscc': {
      g.settleCc();
      const f = s.sem.startsWith('addx') ? 'addx' : s.sem.startsWith('subx') ? 'subx' : 'mulscc';
      const call = f === 'mulscc' ? `c.mulscc(${A}, ${B})` : `c.${f}(${A}, ${B}, ${s.sem.endsWith('cc')})`;
      if (rd !== 0) g.emit(`${RL(rd)} = ${call};`);
      else g.emit(`${call};`);
      break;
    }
    case 'taddcc': case 'tsubcc': case 'taddcctv': case 'tsubcctv': {
      g.settleCc();
      const t = g.tmp();
      g.emit(`${t} = c.tagged(${s.sem.startsWith('tsub')}, ${s.sem.endsWith('tv')}, ${A}, ${B}, ${P}, ${npc}); if (c.trapped) ${g.ret(k)}`);
      W(t);
      break;
    }
    case 'stbar': break;
    case 'rdasr': case 'wrasr': trap(TT_ILLEGAL_INSTRUCTION); return false;
    case 'rdpsr': case 'rdwim': case 'rdtbr': case 'wrpsr': case 'wrwim': case 'wrtbr': {
      if (!g.sup) {
        trap(TT_PRIVILEGED_INSTRUCTION);
        return false;
      }
      g.settleCc();
      if (s.sem === 'rdpsr') W('c.psr | 0');
      else if (s.sem === 'rdwim') W('c.wim | 0');
      else if (s.sem === 'rdtbr') W('c.tbr | 0');
      else if (s.sem === 'wrpsr') g.emit(`if (!c.wrpsr(${A} ^ ${B}, ${P}, ${npc})) ${g.ret(k)}`);
      else if (s.sem === 'wrwim') g.emit(`c.setWim(${A} ^ ${B});`);
      else g.emit(`c.tba = (${A} ^ ${B}) & ~4095;`);
      break;
    }
    case 'flush': g.emit(`c.flushInsn((${A} + ${B}) | 0);`); break;
    case 'save': case 'restore':
      g.emit(`if (!c.${s.sem}(${valueCode(s, d, A, B, () => g.tmp()).rd}, ${rd}, ${P}, ${npc})) ${g.trapRet(k)} w = c.wb;`);
      break;
    case 'ticc': {
      const cond = condExpr(d.cond, g.cc);
      g.emit(`if (${cond}) { ${g.flushCc()}${fetchHook()}c.trapAt(${TT_TRAP_INSTRUCTION} + ((${A} + ${B}) & 127), ${P}, ${npc}); ${g.ret(k + 1)} }`);
      break;
    }
    case 'load': case 'store': case 'ldstub': case 'swap':
      if (!emitMem(g, d, P, npc, k)) return false;
      return finish(g, d, pc);
    case 'fload': case 'fstore':
      if (!emitFmem(g, d, P, npc, k)) return false;
      return finish(g, d, pc);
    case 'cpmem': case 'cpop':
      if (s.priv && !g.sup) trap(TT_PRIVILEGED_INSTRUCTION);
      else trap(TT_CP_DISABLED);
      return false;
    default:
      // FPop classes.
      return emitFpop(g, d, pc, npc, k);
  }
  done();
  return true;
}

/**
 * A row with a value binding (opcodes.ts `value`, spliced in by values.ts) and the condition
 * codes it sets: add/sub and logic forms stay pending (the block's icc locals); udivcc/sdivcc
 * set them in the CPU. udiv/sdiv trap on a zero divisor.
 */
function emitValue(g: Gen, d: DInsn, P: string, npc: string, k: number, A: string, B: string): void {
  const s = d.spec!;
  const rd = d.rd;
  const icc = iccOf(s);
  const op = s.value!.op;
  if (op === 'udiv' || op === 'sdiv') {
    if (icc === CC_DIV) g.settleCc();
    g.emit(`if (${B} === 0) { ${g.flushCc()}c.trapAt(${TT_DIVISION_BY_ZERO}, ${P}, ${npc}); ${g.ret(k)} }`);
  }
  if (icc === CC_ADD || icc === CC_SUB) {
    const ta = g.tmp(), tb = g.tmp(), tr = g.tmp();
    g.emit(`${ta} = ${A}; ${tb} = ${B}; ${tr} = ${valueCode(s, d, ta, tb, () => g.tmp()).rd};`);
    if (rd !== 0) g.emit(`${RL(rd)} = ${tr};`);
    g.cc = { op: icc, a: ta, b: tb, r: tr };
    return;
  }
  const v = valueCode(s, d, A, B, () => g.tmp());
  if (v.pre) g.emit(v.pre);
  if (icc === undefined) {
    if (v.rd !== null && rd !== 0) g.emit(`${RL(rd)} = ${int32Store(v.rd)};`);
    return;
  }
  const tr = g.tmp();
  g.emit(`${tr} = ${v.rd};`);
  if (icc === CC_DIV) g.emit(`c.setFlags(${tr} < 0, ${tr} === 0, ${op}Overflows(c.y, ${A}, ${B}), false);`);
  if (rd !== 0) g.emit(`${RL(rd)} = ${tr};`);
  if (icc === CC_LOGIC) g.cc = { op: CC_LOGIC, a: '0', b: '0', r: tr };
}

/** After a memory instruction: its hooks (fetch, then the reference recorded in `a`). */
function finish(g: Gen, d: DInsn, pc: number): boolean {
  if (!g.hooks) return true;
  const m = d.spec!.mem!;
  let h = `h.ifetch(${pc >>> 0});`;
  if (m.kind !== 'store') h += ` h.load(a >>> 0, ${m.width});`;
  if (m.kind !== 'load') h += ` h.store(a >>> 0, ${m.width});`;
  g.emit(h);
  return true;
}

/** Integer loads, stores and atomics; the effective address is left in `a`. */
function emitMem(g: Gen, d: DInsn, P: string, npc: string, k: number): boolean {
  const m = d.spec!.mem!;
  const rd = d.rd;
  const A = R(d.rs1);
  const B = d.i ? I(d.simm13) : R(d.rs2);
  const trap = (tt: number): boolean => {
    g.emit(`${g.flushCc()}c.trapAt(${tt}, ${P}, ${npc}); ${g.ret(k)}`);
    return false;
  };
  if (m.alt) {
    if (!g.sup) return trap(TT_PRIVILEGED_INSTRUCTION);
    if (d.i) return trap(TT_ILLEGAL_INSTRUCTION);
  }
  if (m.width === 8 && (rd & 1)) return trap(TT_ILLEGAL_INSTRUCTION);
  g.emit(`a = (${A} + ${B}) | 0;`);
  const size = m.width;
  const slow = g.trapRet(k);
  // The slow path of a load or store the page map does not serve: in place, or a slow exit.
  const x = g.memExit;
  const slowPath = (call: string): string => (x ? `{ ${g.flushCc()}c.pc = ${I(x.pc)}; ${g.ret(x.count)} }` : `{ ${call} }`);
  if (m.alt) {
    const t = g.tmp();
    if (m.kind === 'load') {
      g.emit(`${t} = c.loadAlt(${d.asi}, a, ${size}, ${P}, ${npc}); if (c.trapped) ${slow}`);
      if (size === 8) {
        if (rd !== 0) g.emit(`${RL(rd)} = ${t};`);
        g.emit(`${RL(rd + 1)} = c.lo;`);
      } else if (rd !== 0) {
        g.emit(`${RL(rd)} = ${size === 4 ? t : size === 2 ? (m.signed ? `(${t} << 16) >> 16` : t) : (m.signed ? `(${t} << 24) >> 24` : t)};`);
      }
    } else if (m.kind === 'store') {
      g.emit(`c.storeAlt(${d.asi}, a, ${size}, ${R(rd)}, ${size === 8 ? R(rd + 1) : '0'}, ${P}, ${npc}); if (c.trapped) ${slow}`);
    } else {
      g.emit(`${t} = c.atomicAlt(${d.asi}, a, ${size}, ${R(rd)}, ${P}, ${npc}); if (c.trapped) ${slow}`);
      if (rd !== 0) g.emit(`${RL(rd)} = ${t};`);
    }
    return true;
  }
  if (m.kind === 'load') {
    g.usesRM = true;
    const t = g.tmp();
    g.emit('e = RM[a >>> 12];');
    if (size === 8) {
      const lo = g.tmp();
      g.emit(`if (((e | a) & 7) === 0) { e = (a + e) | 0; ${t} = M[e >>> 2]; ${lo} = M[(e + 4) >>> 2]; } else ${slowPath(`${t} = c.load64Slow(a, ${P}, ${npc}); if (c.trapped) ${slow} ${lo} = c.lo;`)}`);
      if (rd !== 0) g.emit(`${RL(rd)} = ${t};`);
      g.emit(`${RL(rd + 1)} = ${lo};`);
      return true;
    }
    let fast: string;
    if (size === 4) fast = `if (((e | a) & 3) === 0) ${t} = M[(a + e) >>> 2];`;
    else if (size === 2) fast = `if (((e | a) & 1) === 0) ${t} = M16[(((a + e) | 0) ^ 2) >>> 1];`;
    else fast = `if (e !== 1) ${t} = M8[((a + e) | 0) ^ 3];`;
    g.emit(`${fast} else ${slowPath(`${t} = c.loadSlow(a, ${size}, ${P}, ${npc}); if (c.trapped) ${slow}`)}`);
    if (rd !== 0) {
      const v = size === 4 ? t : size === 2 ? (m.signed ? `(${t} << 16) >> 16` : t) : (m.signed ? `(${t} << 24) >> 24` : t);
      g.emit(`${RL(rd)} = ${v};`);
    }
    return true;
  }
  if (m.kind === 'store') {
    g.usesWM = true;
    g.emit('e = WM[a >>> 12];');
    const V = R(rd);
    if (size === 8) {
      g.emit(`if (((e | a) & 7) === 0) { e = (a + e) | 0; M[e >>> 2] = ${V}; M[(e + 4) >>> 2] = ${R(rd + 1)}; } else ${slowPath(`c.store64Slow(a, ${V}, ${R(rd + 1)}, ${P}, ${npc}); if (c.trapped) ${slow}`)}`);
      return true;
    }
    let fast: string;
    if (size === 4) fast = `if (((e | a) & 3) === 0) M[(a + e) >>> 2] = ${V};`;
    else if (size === 2) fast = `if (((e | a) & 1) === 0) M16[(((a + e) | 0) ^ 2) >>> 1] = ${V};`;
    else fast = `if (e !== 1) M8[((a + e) | 0) ^ 3] = ${V};`;
    g.emit(`${fast} else ${slowPath(`c.storeSlow(a, ${size}, ${V}, ${P}, ${npc}); if (c.trapped) ${slow}`)}`);
    return true;
  }
  // ldstub / swap: always through the atomic slow path (write permission, code pages).
  const t = g.tmp();
  g.emit(`${t} = c.atomicSlow(a, ${size}, ${R(rd)}, ${P}, ${npc}); if (c.trapped) ${slow}`);
  if (rd !== 0) g.emit(`${RL(rd)} = ${t};`);
  return true;
}

/**
 * A conditional Bicc/FBfcc at pc followed along its fall-through path (a side exit): the taken
 * arm runs the delay slot and leaves for the target; the fall-through arm runs the slot unless
 * the branch annuls it, and the block goes on. `k` instructions precede the branch on this path.
 * Returns false when the code after it is unreachable.
 */
function emitSideExit(g: Gen, d: DInsn, slot: DInsn, pc: number, k: number): boolean {
  const P = I(pc);
  const slotPc = (pc + 4) | 0;
  const target = (pc + d.disp) | 0;
  const fall = (pc + 8) | 0;
  let cond: string;
  if (d.spec!.sem === 'fbfcc') {
    fpGuard(g, P, I(slotPc), k, false);
    cond = fcondExpr(d.cond);
  } else {
    cond = condExpr(d.cond, g.cc);
  }
  const tc = g.tmp();
  g.emit(`${tc} = (${cond}) ? 1 : 0; ${g.hooks ? `h.ifetch(${pc >>> 0}); ` : ''}`);
  g.emit(`if (${tc}) {`);
  const saved = g.cc;
  const savedFp = g.fpChecked;
  g.memExit = g.slowExit(pc, k, true);
  if (emitInsn(g, slot, slotPc, I(target), k + 1)) g.emit(`${g.flushCc()}c.pc = ${I(target)}; ${g.ret(k + 2)}`);
  g.cc = saved;
  g.fpChecked = savedFp;
  g.emit('}');
  if (d.a) {
    g.memExit = null;
    return true;
  }
  const open = emitInsn(g, slot, slotPc, I(fall), k + 1);
  g.memExit = null;
  return open;
}

/** The delayed CTI at index k (at pc) with its delay slot; emits every exit of the block. */
function emitCti(g: Gen, d: DInsn, slot: DInsn, pc: number, k: number, loops: boolean, blockVa: number): void {
  const s = d.spec!;
  const P = I(pc);
  const slotPc = (pc + 4) | 0;
  const fall = (pc + 8) | 0;
  const hook = g.hooks ? `h.ifetch(${pc >>> 0}); ` : '';
  const exitTo = (target: string, count: number): void => {
    g.emit(`${g.flushCc()}c.pc = ${target}; ${g.ret(count)}`);
  };
  /** The slot (with nPC = its target) and then the exit, on one path; cc state restored after. */
  const slotThenExit = (target: number | string, loopBack: boolean): void => {
    const saved = g.cc;
    const savedFp = g.fpChecked;
    const t = typeof target === 'number' ? I(target) : target;
    // Re-executing a CALL or a JMPL that wrote its link register would not be exact.
    g.memExit = g.slowExit(pc, k, true, s.sem !== 'call' && !(s.sem === 'jmpl' && d.rd !== 0));
    const ok = emitInsn(g, slot, slotPc, t, k + 1);
    g.memExit = null;
    if (ok) {
      if (loopBack) {
        const len = k + 2;
        g.emit(`n += ${len}; if (n + ${len} > left) { ${g.flushCc()}c.pc = ${I(blockVa)}; return n; } ${g.flushCc()}continue;`);
      } else {
        exitTo(t, k + 2);
      }
    }
    g.cc = saved;
    g.fpChecked = savedFp;
  };
  switch (s.sem) {
    case 'call':
      g.emit(`r[w + 15] = ${P}; ${hook}`);
      slotThenExit((pc + d.disp) | 0, false);
      return;
    case 'jmpl': {
      const t = g.tmp();
      g.emit(`${t} = (${R(d.rs1)} + ${d.i ? I(d.simm13) : R(d.rs2)}) | 0;`);
      g.emit(`if (${t} & 3) { ${g.flushCc()}c.trapAt(${TT_MEM_ADDRESS_NOT_ALIGNED}, ${P}, ${I(slotPc)}); ${g.ret(k)} }`);
      if (d.rd !== 0) g.emit(`${RL(d.rd)} = ${P};`);
      if (hook) g.emit(hook);
      slotThenExit(t, false);
      return;
    }
    case 'cbccc':
      g.emit(`${g.flushCc()}c.trapAt(${TT_CP_DISABLED}, ${P}, ${I(slotPc)}); ${g.ret(k)}`);
      return;
    default: break;
  }
  // Bicc / FBfcc.
  const target = (pc + d.disp) | 0;
  let cond: string;
  if (s.sem === 'fbfcc') {
    fpGuard(g, P, I(slotPc), k, false);
    cond = fcondExpr(d.cond);
  } else {
    cond = condExpr(d.cond, g.cc);
  }
  const loopBack = loops;
  const always = d.cond === 8;
  const never = d.cond === 0;
  if (always) {
    if (hook) g.emit(hook);
    if (d.a) {
      // ba,a: the delay instruction is annulled.
      if (loopBack) g.emit(`n += ${k + 1}; if (n + ${k + 1} > left) { ${g.flushCc()}c.pc = ${I(blockVa)}; return n; } ${g.flushCc()}continue;`);
      else exitTo(I(target), k + 1);
    } else {
      slotThenExit(target, loopBack);
    }
    return;
  }
  if (never) {
    if (hook) g.emit(hook);
    if (d.a) exitTo(I(fall), k + 1);
    else slotThenExit(fall, false);
    return;
  }
  const tc = g.tmp();
  g.emit(`${tc} = (${cond}) ? 1 : 0; ${hook}`);
  g.emit(`if (${tc}) {`);
  slotThenExit(target, loopBack);
  g.emit('} else {');
  if (d.a) exitTo(I(fall), k + 1);
  else slotThenExit(fall, false);
  g.emit('}');
}

/**
 * Instructions after which a block stops: their effects may change what follows (PSR: mode, EF,
 * PIL; FLUSH: translations; alternate-space stores and atomics: the MMU's registers and
 * mappings, which decide where the next instruction comes from), or they always trap.
 */
function endsBlock(d: DInsn): boolean {
  const s = d.spec;
  if (!s) return true;
  if (s.mem?.alt && s.mem.kind !== 'load') return true;
  switch (s.sem) {
    case 'wrpsr': case 'flush': case 'unimp': case 'rdasr': case 'wrasr': case 'cpop': case 'cpmem':
      return true;
    default:
      return false;
  }
}

/** A conditional Bicc or FBfcc (neither "always" nor "never"). */
function isCondBranch(d: DInsn): boolean {
  const sem = d.spec!.sem;
  return (sem === 'bicc' || sem === 'fbfcc') && d.cond !== 0 && d.cond !== 8;
}

/** A branch back to the start of its own block (a loop the block can iterate by itself). */
function isSelfLoop(d: DInsn, pc: number, blockVa: number): boolean {
  const s = d.spec!;
  if (s.sem !== 'bicc' && s.sem !== 'fbfcc') return false;
  if (d.cond === 0) return false;
  return ((pc + d.disp) | 0) === (blockVa | 0);
}
