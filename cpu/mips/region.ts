/**
 * Regions for the fast engine: a hot block and the blocks it was seen to lead to on the same
 * 4 KiB page, compiled into one JavaScript function whose branches between those blocks are JS
 * control flow (cpu/structured.ts) instead of returns to the dispatch loop. translate.ts forms a
 * region when a block has been dispatched often enough, and runs it in place of the block.
 *
 * The nodes are the engine's superblocks (translate.ts's scan), restricted to blocks that have
 * already run often (translate.ts: REGION_NODE_SHARE): a branch to code that did not leaves the
 * region. Regions are kept small (REGION_MAX_INSNS): V8's optimising compiler runs in the same CPU
 * time as the guest, its time grows faster than the function, and optimised code deoptimises —
 * and the whole function is compiled again — when it first reaches a path that had not run
 * before it was compiled. Measured with bench/cpu-mips.ts, larger regions made li faster but
 * compress and sgefa slower than plain blocks.
 *
 * Contracts (on top of translate.ts's):
 *   - Only user-mode code without a ground-truth sink, and only "plain" instructions: the
 *     instructions that end blocks (syscall, break, CP0, ctc1, reserved and coprocessor-unusable
 *     encodings), coprocessor-0 branches and the branches whose re-execution would not be exact
 *     (jalr rd = rs, bltzal/bgezal rs = $ra: the architecture leaves them unpredictable) stay in
 *     blocks: the region exits before them.
 *   - Retired counts and the budget: each node checks that it fits in the budget (`end`), then
 *     adds its length to a local count in advance; a side exit and an exit in its middle take
 *     back what did not retire (`back` of an exit, subtracted by the dispatch loop). A node that
 *     does not fit leaves before its first instruction, so a region never overruns the budget and
 *     stops at a block boundary. The function writes the count to cpu.icount and returns the
 *     index of the exit taken; exits[i] says where execution continues.
 *   - Slow paths never run inside a region: a memory access the page map does not serve, an
 *     overflow, an FPU operation that traps or a disabled coprocessor 1 leaves the region at that
 *     instruction — or, in a delay slot, at its branch — and the dispatch loop runs it through a
 *     block (exact: the instruction, and a branch before its delay slot, are re-executable from
 *     the state the region leaves). Every path that rarely runs is a jump to the common exit,
 *     which needs no type feedback.
 *   - Every exit leaves the address where execution continues in cpu.pc and the retired count in
 *     cpu.icount. An exit only assigns constants (d, the address, unless an indirect jump set it;
 *     bk, instructions counted in advance that did not retire) and the common epilogue, which
 *     every call runs, does the arithmetic: an exit first taken after V8 optimised the region
 *     then needs no type feedback (`ic -= back` at the exits deoptimised li's regions 72 times in
 *     one run).
 */
import { Insn } from './decode.js';
import { Emitter, branchCond, endsAfter, hexa, type BlockInfo } from './emit.js';
import { structure } from '../structured.js';

/** A region stops growing once its nodes hold this many instructions (see above). */
export const REGION_MAX_INSNS = 48;

export interface RegionExit {
  /** Continue at the address in cpu.pc (an indirect jump) rather than at `pc`. */
  dyn: boolean;
  pc: number;
  /** Instructions counted in advance that did not retire. */
  back: number;
  /** A slow path: the instruction at pc runs through its block, never a region, next. */
  slow: boolean;
}

export interface RegionCode {
  src: string;
  exits: RegionExit[];
  /** Instructions in the region's nodes. */
  insns: number;
  nodes: number;
  /** Start addresses of the nodes (the entry first). */
  pcs: number[];
  /** Length of the entry node: the region runs only when at least this much budget is left. */
  entryLen: number;
}

/** Instructions a region does not contain (the region exits before them). */
function excluded(i: Insn): boolean {
  const s = i.spec;
  if (!s || endsAfter(i)) return true;
  if (s.delaySlot && s.cop === 0) return true;
  if (s.op === 'JALR' && i.rd === i.rs && i.rd !== 0) return true;
  if ((s.op === 'BLTZAL' || s.op === 'BGEZAL') && i.rs === 31) return true;
  return false;
}

/** A region node: a superblock cut before its first excluded instruction. */
interface Node {
  pc: number;
  b: BlockInfo;
  /** Instructions the node executes (a prefix of b.insns). */
  len: number;
  /** b's final branch is kept (the node ends with it), or the node falls to pc + 4 * len. */
  branch: boolean;
  /** Side exits kept (indices of their branches). */
  exits: number[];
}

function jtarget(pc: number, i: Insn): number {
  return ((((pc + 4) & 0xf0000000) | (i.target << 2)) >>> 0);
}

function cut(b: BlockInfo): Node {
  const n = b.insns.length;
  let len = n;
  for (let k = 0; k < n; k++) {
    if (excluded(b.insns[k]!)) {
      len = k;
      break;
    }
  }
  // A side exit or final branch must keep its delay slot.
  const exits = b.exits.filter((k) => k + 1 < len);
  const finalBranch = b.kind === 'branch' && len === n;
  if (!finalBranch && len > 0 && b.insns[len - 1]!.spec!.delaySlot) len--;
  return { pc: b.pc, b, len, branch: finalBranch, exits };
}

/** Static successors of a node inside the page, in the order its code branches to them. */
function targets(nd: Node): number[] {
  const { b, len } = nd;
  const out: number[] = [];
  for (const k of nd.exits) out.push((b.pc + 4 * k + 4 + (b.insns[k]!.simm << 2)) >>> 0);
  if (!nd.branch) {
    out.push((b.pc + 4 * len) >>> 0);
    return out;
  }
  const k = len - 2;
  const bpc = (b.pc + 4 * k) >>> 0;
  const br = b.insns[k]!;
  const op = br.spec!.op;
  if (op === 'J') out.push(jtarget(bpc, br));
  else if (br.spec!.cls === 'branch') out.push((bpc + 4 + (br.simm << 2)) >>> 0, (bpc + 8) >>> 0);
  return out;
}

/**
 * Generates the region entered at pc. `block(a)` is the superblock at a if a block starting
 * there has already run (null otherwise). Returns null when no branch stays inside the region.
 */
export function buildRegion(pc: number, block: (a: number) => BlockInfo | null, bx: number, hx: number): RegionCode | null {
  const base = (pc & ~0xfff) >>> 0;
  const onPage = (a: number): boolean => ((a ^ base) >>> 0) < 4096;
  const first = block(pc);
  if (!first) return null;
  const nodes: Node[] = [cut(first)];
  if (nodes[0]!.len === 0) return null;
  const index = new Map<number, number>([[pc, 0]]);
  let size = nodes[0]!.len;
  // Breadth first over the blocks that ran, until the region is big enough.
  for (let q = 0; q < nodes.length; q++) {
    for (const t of targets(nodes[q]!)) {
      if (index.has(t) || !onPage(t) || size >= REGION_MAX_INSNS) continue;
      const b = block(t);
      if (!b) continue;
      const nd = cut(b);
      if (nd.len === 0) continue;
      index.set(t, nodes.length);
      nodes.push(nd);
      size += nd.len;
    }
  }
  const succs = nodes.map((nd) => targets(nd).filter((t) => index.has(t)).map((t) => index.get(t)!));
  if (succs.every((l) => l.length === 0)) return null;

  // Exit 0 is never taken: the generated code ends every path with a transfer.
  const exits: RegionExit[] = [{ dyn: false, pc: -1, back: 0, slow: false }];
  const exitIds = new Map<string, number>();
  const exitTo = (dyn: boolean, target: number, back: number, slow = false): string => {
    const key = `${dyn ? 'd' : target}:${back}:${slow}`;
    let id = exitIds.get(key);
    if (id === undefined) {
      id = exits.length;
      exits.push({ dyn, pc: target >>> 0, back, slow });
      exitIds.set(key, id);
    }
    return `{ ${back !== 0 ? `bk = ${back}; ` : ''}${dyn ? '' : `d = ${hexa(target)}; `}xt = ${id}; break out; }`;
  };

  const e = new Emitter(true, false, bx, hx);
  let total = 0;
  const body = structure({
    n: nodes.length,
    succs: (v) => succs[v]!,
    exit: (_v, w) => exitTo(false, nodes[w]!.pc, 0),
    node: (v, branch) => {
      const nd = nodes[v]!;
      const { b, len: n } = nd;
      total += n;
      // Transfer to t after `done` of the node's n instructions retired.
      const go = (t: number, done: number): string => {
        const w = index.get(t);
        if (w === undefined) return exitTo(false, t, n - done);
        return n === done ? branch(w) : `ic -= ${n - done};\n${branch(w)}`;
      };
      const o = e.out;
      const saved = o.length;
      e.usedCop1 = false;
      o.push('{', `if (ic > end - ${n}) ${exitTo(false, nd.pc, 0)}`, `ic += ${n};`);
      const body = nd.branch ? n - 2 : n;
      for (let k = 0; k < body; k++) {
        const ipc = (b.pc + 4 * k) >>> 0;
        if (nd.exits.includes(k)) {
          const br = b.insns[k]!;
          // A slow path in the delay slot leaves at the branch: branch and slot run again.
          e.slowExit = () => exitTo(false, ipc, n - k, true);
          e.copCheck(br, ipc, k, false);
          o.push(`const c${k} = ${branchCond(br)};`);
          e.insn(b.insns[k + 1]!, (ipc + 4) >>> 0, k + 1, true);
          o.push(`if (c${k}) {`, go((ipc + 4 + (br.simm << 2)) >>> 0, k + 2), '}');
          k++;
          continue;
        }
        e.slowExit = () => exitTo(false, ipc, n - k, true);
        e.insn(b.insns[k]!, ipc, k, false);
      }
      if (!nd.branch) {
        o.push(go((b.pc + 4 * n) >>> 0, n));
      } else {
        const k = n - 2;
        const bpc = (b.pc + 4 * k) >>> 0;
        const br = b.insns[k]!;
        e.slowExit = () => exitTo(false, bpc, n - k, true);
        e.copCheck(br, bpc, k, false);
        const s = br.spec!;
        if (s.cls === 'branch') {
          o.push(`const c${k} = ${branchCond(br)};`);
          if (s.op === 'BLTZAL' || s.op === 'BGEZAL') o.push(`r[31] = ${(bpc + 8) | 0};`);
        } else if (s.op === 'JAL') {
          o.push(`r[31] = ${(bpc + 8) | 0};`);
        } else if (s.op === 'JR' || s.op === 'JALR') {
          o.push(`const dst = ${e.R(br.rs)} >>> 0;`);
          if (s.op === 'JALR' && br.rd !== 0) o.push(`r[${br.rd}] = ${(bpc + 8) | 0};`);
        }
        e.insn(b.insns[k + 1]!, (bpc + 4) >>> 0, k + 1, true);
        if (s.cls === 'branch') {
          const t = (bpc + 4 + (br.simm << 2)) >>> 0;
          const f = (bpc + 8) >>> 0;
          if (t === f) o.push(go(f, n));
          else o.push(`if (c${k}) {`, go(t, n), '} else {', go(f, n), '}');
        } else if (s.op === 'J') {
          o.push(go(jtarget(bpc, br), n));
        } else if (s.op === 'JAL') {
          o.push(exitTo(false, jtarget(bpc, br), 0));
        } else {
          o.push(`d = dst; ${exitTo(true, 0, 0)}`);
        }
      }
      o.push('}');
      e.slowExit = null;
      return o.splice(saved).join('\n');
    },
  });
  const src = `return function region_${pc.toString(16)}(end) {\nlet ic = cpu.icount, xt = 0, d = 0, bk = 0;\nout: {\n${body}\n}\ncpu.icount = ic - bk;\ncpu.pc = d;\nreturn xt;\n};`;
  return { src, exits, insns: total, nodes: nodes.length, pcs: nodes.map((nd) => nd.pc), entryLen: nodes[0]!.len };
}
