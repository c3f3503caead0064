/**
 * JavaScript generation for the FPU instructions of a translated block (codegen.ts): the EF and
 * queue guards, the FP loads and stores, and the FPops.
 *
 * The common FPops are computed inline on the FPU's register file, seen as Int32 words (FR),
 * singles (F32) and doubles (F64) over one buffer — `%f[i]` is `FR[i ^ 1]`/`F32[i ^ 1]`, the
 * double `%f[2k]:%f[2k+1]` is `F64[k]` (fpu.ts). An inline FPop repeats, expression for
 * expression, the fast path of SparcFpu.exec for its case (the same host operations in the same
 * order, so results and flags are bit for bit the interpreter's), and only where that fast path
 * applies: round-to-nearest, operands and result in the range where host doubles and the
 * error-free transformations are exact, current exceptions not enabled in TEM. Everything else —
 * NaN operands, infinities, zeros where exec treats them apart, directed rounding, results near
 * the subnormal or overflow thresholds, traps, misaligned double registers, quad and unknown
 * opf values — calls SparcFpu.exec, which recomputes the FPop from its operands (untouched: an
 * inline path writes nothing before it has decided to complete).
 *
 * The queue needs no test per FPop: the guard checks it once per block, and the queue only fills
 * when an FP instruction traps, which leaves the block. FP loads and stores take their slow path
 * while `k0` is set (codegen.ts, COLD_CALLS), so that V8 has seen it before it optimises.
 */
import type { DInsn } from './interp.js';
import { FTT_SEQUENCE_ERROR, TT_FP_DISABLED, TT_FP_EXCEPTION, TT_PRIVILEGED_INSTRUCTION } from './traps.js';
import { FAST_D_MAX, FAST_D_MIN, FAST_S_QUOT_MIN } from './fpu.js';
import { EXC_NX, SPLIT } from '../softfloat.js';
import { R, I, type Gen } from './jsgen.js';

/** Smallest normal single, 2^-126: fmuls below it is tiny (fpu.ts arithS). */
const S_MIN_NORMAL = 2 ** -126;

/**
 * The EF check, and with `queue` (FP loads, stores and FPops; not FBfcc, which only needs EF)
 * the sequence_error check; once per block once both are done (neither can change inside a
 * block without leaving it: EF by WRPSR, which ends blocks, the queue by an FP trap).
 */
export function fpGuard(g: Gen, P: string, npc: string, k: number, queue: boolean): void {
  if (g.fpChecked) return;
  g.usesF = true;
  g.emit(`if (!c.ef) { ${g.flushCc()}c.trapAt(${TT_FP_DISABLED}, ${P}, ${npc}); ${g.ret(k)} }`);
  if (queue) {
    g.emit(`if (f.queue !== undefined) { ${g.flushCc()}f.ftt = ${FTT_SEQUENCE_ERROR}; c.trapAt(${TT_FP_EXCEPTION}, ${P}, ${npc}); ${g.ret(k)} }`);
    g.fpChecked = true;
  }
}

/** FBfcc condition (after the guard). */
export function fcondExpr(cond: number): string {
  if (cond === 8) return 'true';
  if (cond === 0) return 'false';
  return `FCOND[${cond << 2} | f.fcc] !== 0`;
}

/** LDF, LDDF, LDFSR, STF, STDF, STFSR, STDFQ; the effective address is left in `a`. */
export function emitFmem(g: Gen, d: DInsn, P: string, npc: string, k: number): boolean {
  const m = d.spec!.mem!;
  const rd = d.rd;
  if (m.unit === 'fq') {
    if (!g.sup) {
      g.emit(`${g.flushCc()}c.trapAt(${TT_PRIVILEGED_INSTRUCTION}, ${P}, ${npc}); ${g.ret(k)}`);
      return false;
    }
    // STDFQ: rare; the interpreter's semantics via a one-instruction helper path.
    g.settleCc();
    g.emit(`if (!c.ef) { c.trapAt(${TT_FP_DISABLED}, ${P}, ${npc}); ${g.ret(k)} }`);
    g.emit(`a = (${R(d.rs1)} + ${d.i ? I(d.simm13) : R(d.rs2)}) | 0;`);
    g.emit(`if (c.fpu.queue === undefined) { c.fpu.ftt = ${FTT_SEQUENCE_ERROR}; c.trapAt(${TT_FP_EXCEPTION}, ${P}, ${npc}); ${g.ret(k)} }`);
    g.emit(`c.store64(a, c.fpu.queue.address | 0, c.fpu.queue.instruction | 0, ${P}, ${npc}); if (c.trapped) ${g.ret(k)} c.fpu.queue = undefined;`);
    return true;
  }
  fpGuard(g, P, npc, k, true);
  g.usesCold = true;
  g.emit(`a = (${R(d.rs1)} + ${d.i ? I(d.simm13) : R(d.rs2)}) | 0;`);
  const slow = g.trapRet(k);
  if (m.kind === 'load') {
    g.usesRM = true;
    g.emit('e = RM[a >>> 12];');
    if (m.width === 8) {
      const hiI = (rd & 30) + 1;
      const loI = rd & 30;
      g.emit(`if ((((e | a) & 7) | k0) === 0) { e = (a + e) | 0; FR[${hiI}] = M[e >>> 2]; FR[${loI}] = M[(e + 4) >>> 2]; } else { e = c.load64Slow(a, ${P}, ${npc}); if (c.trapped) ${slow} FR[${hiI}] = e; FR[${loI}] = c.lo; }`);
    } else {
      const t = g.tmp();
      g.emit(`if ((((e | a) & 3) | k0) === 0) ${t} = M[(a + e) >>> 2]; else { ${t} = c.loadSlow(a, 4, ${P}, ${npc}); if (c.trapped) ${slow} }`);
      g.emit(m.unit === 'fsr' ? `f.fsr = ${t};` : `FR[${rd ^ 1}] = ${t};`);
    }
    return true;
  }
  g.usesWM = true;
  g.emit('e = WM[a >>> 12];');
  if (m.width === 8) {
    const hiI = (rd & 30) + 1;
    const loI = rd & 30;
    g.emit(`if ((((e | a) & 7) | k0) === 0) { e = (a + e) | 0; M[e >>> 2] = FR[${hiI}]; M[(e + 4) >>> 2] = FR[${loI}]; } else { c.store64Slow(a, FR[${hiI}], FR[${loI}], ${P}, ${npc}); if (c.trapped) ${slow} }`);
  } else {
    const V = m.unit === 'fsr' ? '(f.fsr | 0)' : `FR[${rd ^ 1}]`;
    g.emit(`if ((((e | a) & 3) | k0) === 0) M[(a + e) >>> 2] = ${V}; else { c.storeSlow(a, 4, ${V}, ${P}, ${npc}); if (c.trapped) ${slow} }`);
  }
  return true;
}

/**
 * Inline form of one FPop: `compute` sets fe to its current exceptions, or to -1 where exec's
 * fast path does not apply; `store` writes the destination. `nearest`: the result depends on
 * the rounding direction (exec's fast path is for round-to-nearest only).
 */
interface Inline {
  compute: string;
  store: string;
  nearest: boolean;
}

/** Dekker's product error of a * b = p, left in fv (cpu/softfloat.ts productError, same order). */
function productError(a: string, b: string, p: string): string {
  return `fv = ${SPLIT} * ${a}; fa = fv - (fv - ${a}); fb = ${a} - fa; `
    + `fv = ${SPLIT} * ${b}; fc = fv - (fv - ${b}); fd = ${b} - fc; `
    + `fv = ((fa * fc - ${p}) + fa * fd + fb * fc) + fb * fd;`;
}

/** The inline form of FPop1 `opf` (registers already checked for alignment), or undefined. */
function inlineFpop1(opf: number, rs1: number, rs2: number, rd: number): Inline | undefined {
  const S = (i: number): string => `F32[${i ^ 1}]`;
  const D = (i: number): string => `F64[${i >> 1}]`;
  switch (opf) {
    case 0x001: return { compute: 'fe = 0;', store: `FR[${rd ^ 1}] = FR[${rs2 ^ 1}];`, nearest: false };
    case 0x005: return { compute: 'fe = 0;', store: `FR[${rd ^ 1}] = FR[${rs2 ^ 1}] ^ 0x80000000;`, nearest: false };
    case 0x009: return { compute: 'fe = 0;', store: `FR[${rd ^ 1}] = FR[${rs2 ^ 1}] & 0x7fffffff;`, nearest: false };
    case 0x041: case 0x045: case 0x042: case 0x046: {
      // TwoSum; singles round the exact double sum once more (fpu.ts arithS/arithD).
      const dbl = (opf & 3) === 2;
      const X = dbl ? D : S;
      const y = (opf & 4) ? `-${X(rs2)}` : X(rs2);
      let compute = `fx = ${X(rs1)}; fy = ${y}; fz = fx + fy; fv = fz - fx; fv = (fx - (fz - fv)) + (fy - fv); `;
      if (dbl) {
        compute += `fe = fz - fz === 0 ? (fv !== 0 ? ${EXC_NX} : 0) : -1;`;
        return { compute, store: `${D(rd)} = fz;`, nearest: true };
      }
      compute += `fr = Math.fround(fz); fe = fr - fr === 0 ? (fv !== 0 || fr !== fz ? ${EXC_NX} : 0) : -1;`;
      return { compute, store: `${S(rd)} = fr;`, nearest: true };
    }
    case 0x049:
      // The product of two singles is exact in double; a tiny product goes to exec.
      return {
        compute: `fx = ${S(rs1)}; fy = ${S(rs2)}; fz = fx * fy; fr = Math.fround(fz); `
          + `fe = fr - fr === 0 && (fz === 0 || Math.abs(fz) >= ${S_MIN_NORMAL}) ? (fr !== fz ? ${EXC_NX} : 0) : -1;`,
        store: `${S(rd)} = fr;`,
        nearest: true,
      };
    case 0x04a:
      return {
        compute: `fx = ${D(rs1)}; fy = ${D(rs2)}; fz = fx * fy; fv = Math.abs(fz); `
          + `if (fv >= ${FAST_D_MIN} && fv < Infinity && Math.abs(fx) < ${FAST_D_MAX} && Math.abs(fy) < ${FAST_D_MAX}) { ${productError('fx', 'fy', 'fz')} fe = fv !== 0 ? ${EXC_NX} : 0; } `
          + 'else fe = fz === 0 && (fx === 0 || fy === 0) ? 0 : -1;',
        store: `${D(rd)} = fz;`,
        nearest: true,
      };
    case 0x04d:
      // r * y is exact in double: the quotient was exact iff it gives x back.
      return {
        compute: `fx = ${S(rs1)}; fy = ${S(rs2)}; fz = fx / fy; fr = Math.fround(fz); `
          + `fe = fr - fr === 0 && fy - fy === 0 && (fz === 0 || Math.abs(fz) > ${FAST_S_QUOT_MIN}) ? (fr * fy !== fx ? ${EXC_NX} : 0) : -1;`,
        store: `${S(rd)} = fr;`,
        nearest: true,
      };
    case 0x04e:
      return {
        compute: `fx = ${D(rs1)}; fy = ${D(rs2)}; fz = fx / fy; fv = Math.abs(fz); fa = Math.abs(fy); `
          + `if (fv >= ${FAST_D_MIN} && fv < ${FAST_D_MAX} && fa < ${FAST_D_MAX} && fa >= ${FAST_D_MIN} && Math.abs(fx) >= ${FAST_D_MIN}) { `
          + `fr = fz * fy; ${productError('fz', 'fy', 'fr')} fe = (fx - fr) - fv !== 0 ? ${EXC_NX} : 0; } else fe = -1;`,
        store: `${D(rd)} = fz;`,
        nearest: true,
      };
    case 0x0c4:
      return { compute: `fx = FR[${rs2 ^ 1}]; fr = Math.fround(fx); fe = fr !== fx ? ${EXC_NX} : 0;`, store: `${S(rd)} = fr;`, nearest: true };
    case 0x0c8:
      return { compute: 'fe = 0;', store: `${D(rd)} = FR[${rs2 ^ 1}];`, nearest: false };
    case 0x0c9:
      // Not a NaN (a signalling one would need quieting and invalid): widening is exact.
      return { compute: `fe = (FR[${rs2 ^ 1}] & 0x7fffffff) <= 0x7f800000 ? 0 : -1;`, store: `${D(rd)} = ${S(rs2)};`, nearest: false };
    case 0x0c6:
      return {
        compute: `fx = ${D(rs2)}; fr = Math.fround(fx); fe = fr - fr === 0 && Math.abs(fx) >= ${FAST_S_QUOT_MIN} ? (fr !== fx ? ${EXC_NX} : 0) : -1;`,
        store: `${S(rd)} = fr;`,
        nearest: true,
      };
    case 0x0d1: case 0x0d2:
      // Truncation whatever FSR.RD says; NaN and out-of-range operands go to exec (invalid).
      return {
        compute: `fx = ${opf === 0x0d1 ? S(rs2) : D(rs2)}; fz = Math.trunc(fx); fe = fz >= -2147483648 && fz <= 2147483647 ? (fz !== fx ? ${EXC_NX} : 0) : -1;`,
        store: `FR[${rd ^ 1}] = fz | 0;`,
        nearest: false,
      };
    default: return undefined;
  }
}

/** Double-register operands an FPop1 requires even (exec's invalid_fp_register checks). */
function pairFields(opf: number, rs1: number, rs2: number, rd: number): number {
  switch (opf) {
    case 0x042: case 0x046: case 0x04a: case 0x04e: return rs1 | rs2 | rd;
    case 0x0c8: case 0x0c9: return rd;
    case 0x0c6: case 0x0d2: return rs2;
    default: return 0;
  }
}

export function emitFpop(g: Gen, d: DInsn, pc: number, npc: string, k: number): boolean {
  const P = I(pc);
  fpGuard(g, P, npc, k, true);
  const op3 = (d.word >>> 19) & 0x3f;
  const exec = `f.exec(${op3 === 0x35}, ${d.opf}, ${d.rs1}, ${d.rs2}, ${d.rd}, ${P}, ${d.word | 0}) !== 0`;
  const trap = `{ ${g.flushCc()}c.trapAt(${TT_FP_EXCEPTION}, ${P}, ${npc}); ${g.ret(k)} }`;
  let inl: Inline | undefined;
  if (op3 === 0x34) {
    if ((pairFields(d.opf, d.rs1, d.rs2, d.rd) & 1) === 0) inl = inlineFpop1(d.opf, d.rs1, d.rs2, d.rd);
  } else if (d.opf === 0x51 || d.opf === 0x55 || ((d.opf === 0x52 || d.opf === 0x56) && ((d.rs1 | d.rs2) & 1) === 0)) {
    // FCMP/FCMPE on ordered operands (no exception either way); unordered goes to exec.
    const X = d.opf & 2 ? (i: number): string => `F64[${i >> 1}]` : (i: number): string => `F32[${i ^ 1}]`;
    inl = {
      compute: `fx = ${X(d.rs1)}; fy = ${X(d.rs2)}; fe = fx === fx && fy === fy ? 0 : -1;`,
      store: 'f.fcc = fx === fy ? 0 : fx < fy ? 1 : 2;',
      nearest: false,
    };
  }
  if (inl) {
    g.usesFpTemps = true;
    if (inl.compute === 'fe = 0;') {
      // No exception possible: completes whatever TEM and RD say.
      g.emit(`${inl.store} f.cexc = 0; f.ftt = 0;`);
      if (g.hooks) g.emit(`h.ifetch(${pc >>> 0});`);
      return true;
    }
    const ok = inl.nearest ? `fe >= 0 && ((fe & f.tem) | f.rd) === 0` : `fe >= 0 && (fe & f.tem) === 0`;
    g.emit(inl.compute);
    g.emit(`if (${ok}) { ${inl.store} f.cexc = fe; f.aexc |= fe; f.ftt = 0; } else if (${exec}) ${trap}`);
  } else {
    g.emit(`if (${exec}) ${trap}`);
  }
  if (g.hooks) g.emit(`h.ifetch(${pc >>> 0});`);
  return true;
}
