/**
 * Rewriting (DESIGN.md sections 3-5, mazieres-smith-1994 2.3.3 and Figure 8): the new text of
 * every function, laid out in its own region, plus the process prologue.
 *
 * Per function, in order:
 *   - the entry stub of the root (its live-on-entry records), falling into the root block;
 *   - every block in address order: its instructions with value records after their defining
 *     instructions (address sums before their reference, slice.ts), its delay slot, then the code
 *     of its fall-through edge (witness, records), which falls into the next block or jumps to its
 *     target;
 *   - out of line: the code of every other edge that has some (a stub the branch or the jump
 *     table now targets, ending with a jump to the edge's target), and the entry stubs of the
 *     other external entries; a taken edge's stub goes right before its target block instead,
 *     falling into it, where nothing else falls into that block and it is no entry.
 * Branch, jump and call targets, jump-table words and the code addresses formed in code are
 * translated to the new addresses; the stack, data and heap addresses never change.
 *
 * The prologue is one system call, trbufmap (os/sys_trbuf.ts: what opening /dev/trbuf, BIOCMAP
 * and closing the descriptor do — the kernel maps the buffer, traces the process and sets the
 * pointer register — leaving no descriptor), and a branch on its failure: four instructions.
 * On success it falls into the entry point's stub, laid out right after it (or, when the entry
 * point is not its function's start, goes there by a jump, with the failure path right after it);
 * on failure it reports on descriptor 2 and exits with status 127.
 */
import { syscallTable } from '../format/syscalltab.js';
import { Assembler, ORIGIN_DATA, type Fixup } from './asm.js';
import type { Block, Cfg, Edge } from './cfg.js';
import type { Isa } from './isa.js';
import { A0, A1, A3, V0, mipsEnc } from './isa_mips.js';
import { G1, O0, O1, sparcEnc } from './isa_sparc.js';
import type { Func, Program } from './program.js';
import { lookupSeq, offsetValueSeq, sumSeq, translatedTransfer, valueSeq, witnessSeq } from './sequences.js';
import type { KnownPlan } from './known.js';
import type { PlanSlice } from './conservative.js';
import type { RecordItem } from './slice.js';
import type { Item } from '../format/schema.js';

/** Where the new text goes: above the trace buffer's guard page, below every stack. */
export const NEW_TEXT_BASE = 0x20100000;

export interface FuncPlan {
  func: Func;
  cfg: Cfg;
  slice: PlanSlice;
  /** Witness value per witnessed edge id. */
  witness: Map<number, number>;
  wbytes: 1 | 2;
  /** Call blocks whose call enters the callee past its entry records (the caller provides them). */
  bareCalls: ReadonlySet<number>;
  /** Loops traced by their stopping value (tracer/known.ts). */
  known?: KnownPlan;
}


export interface FuncLayout {
  /** New address of each block's code (NaN for virtual vertices). */
  blockAddr: number[];
  body: Item[][];
  edge: Item[][];
  /** Entry block -> stub items (records, glue). */
  entry: Map<number, Item[]>;
  /** New address of each entry (the stub, or the block itself). */
  entryAddr: Map<number, number>;
  /** New address of each edge stub. */
  stubAddr: Map<number, number>;
  /** New address of the code of each edge that has code after its delay slot (stub or in line). */
  edgeAddr: Map<number, number>;
  /** The record of each record item: what defined the value, a load's frame (statistics: bench/tracer_bytes.ts). */
  why: Map<Item, RecordItem>;
  /** The steps recording a known loop's stopping value, and their new addresses [start, end). */
  stops: Map<Item, [number, number]>;
}

export interface RewriteResult {
  base: number;
  words: Uint32Array;
  origin: Int32Array;
  sequences: number;
  prologue: { addr: number; count: number };
  funcs: FuncLayout[];
  /** Data words to patch: address -> new value (the words of switch jump tables). */
  patches: Map<number, number>;
  /** The translation table's words, one per word of the original text from `lo` (at XLAT_BASE + lo). */
  xlat: { lo: number; words: Uint32Array };
}

const PROLOGUE_MSG = 'emu: cannot trace: the kernel maps no trace buffer (trbufmap failed)\n';
const BAD_JUMP_MSG = 'emu: the traced program jumped to an original address that is no instruction the instrumenter translated\n';

const sysno = (name: string): number => {
  const e = syscallTable().find((x) => x.name === name);
  if (!e) throw new Error(`os/syscalls.master has no ${name}`);
  return e.number;
};

/** The labels of the prologue's code and strings; the functions' follow (labelSpace). */
const P_FAIL = 0;
const P_MSG = 1;
const P_BADMSG = 2;
const P_BAD = 3;
const FIXED_LABELS = ['P_fail', 'P_msg', 'P_badmsg', 'P_bad'];

/**
 * The label numbers of the new text: after the prologue's, per function index, the code of each of
 * its blocks (B), its entries (E, by entry block) and its edges' stubs (S, by edge), when it has a
 * plan; a function without one has only B of block 0 (a call past the entry records names it, and
 * resolve reports it undefined).
 */
function labelSpace(prog: Program, plans: FuncPlan[]): {
  count: number; B: (f: number, block: number) => number; E: (f: number, block: number) => number;
  S: (f: number, edge: number) => number; name: (label: number) => string;
} {
  const nf = prog.funcs.length;
  const blocks = new Int32Array(nf).fill(-1);
  const edges = new Int32Array(nf);
  for (const p of plans) {
    blocks[p.func.index] = p.cfg.blocks.length;
    edges[p.func.index] = p.cfg.edges.length;
  }
  const base = new Int32Array(nf + 1);
  let n = FIXED_LABELS.length;
  for (let f = 0; f < nf; f++) {
    base[f] = n;
    n += blocks[f]! < 0 ? 1 : 2 * blocks[f]! + edges[f]!;
  }
  base[nf] = n;
  const name = (label: number): string => {
    if (label < FIXED_LABELS.length) return FIXED_LABELS[label]!;
    let f = 0;
    while (base[f + 1]! <= label) f++;
    const k = label - base[f]!;
    const nb = Math.max(blocks[f]!, 1);
    return k < nb ? `B${f}_${k}` : k < 2 * nb ? `E${f}_${k - nb}` : `S${f}_${k - 2 * nb}`;
  };
  return {
    count: n,
    B: (f, block) => base[f]! + block,
    E: (f, block) => base[f]! + blocks[f]! + block,
    S: (f, edge) => base[f]! + 2 * blocks[f]! + edge,
    name,
  };
}

function takenEdge(b: Block): Edge | undefined {
  for (let k = 0; k < b.succ.length; k++) if (b.succ[k]!.kind === 'taken') return b.succ[k];
  return undefined;
}

function hasCode(p: FuncPlan, e: Edge): boolean {
  return p.witness.has(e.id) || (p.slice.edgeRecords.get(e.id)?.length ?? 0) > 0 || (p.known?.exitRecord.has(e.id) ?? false);
}

export function rewrite(prog: Program, plans: FuncPlan[]): RewriteResult {
  const isa = prog.isa;
  const lb = labelSpace(prog, plans);
  const asm = new Assembler(isa, NEW_TEXT_BASE, lb.count, lb.name);
  /** A NUL-terminated string as data words of the new text. */
  const str = (label: number, text: string): void => {
    asm.label(label);
    const b = Buffer.from(`${text}\0`, 'latin1');
    const padded = new Uint8Array(Math.ceil(b.length / 4) * 4);
    padded.set(b);
    const dv = new DataView(padded.buffer);
    for (let i = 0; i < padded.length; i += 4) asm.word(dv.getUint32(i, !isa.bigEndian), ORIGIN_DATA);
  };
  const funcIndex = new Map<number, FuncPlan>();
  for (const p of plans) funcIndex.set(p.func.addr, p);

  /** Label of an external entry address (function start or entry block). */
  const entryLabel = (addr: number): number => {
    const f = prog.funcAt(addr);
    const p = f ? funcIndex.get(f.addr) : undefined;
    if (!p) throw new Error(`code address 0x${addr.toString(16)} is in no function`);
    const bi = p.cfg.byAddr.get(addr);
    if (bi === undefined || !p.cfg.blocks[bi]!.entry) {
      throw new Error(`code address 0x${addr.toString(16)} (${f!.name}+0x${(addr - f!.addr).toString(16)}) is not an entry of the function`);
    }
    return lb.E(f!.index, bi);
  };
  // The prologue's success path falls into the entry point's stub when the entry point is its
  // function's root (the stub is the first thing laid out for that function); else it goes first
  // and goes there by a jump (emitPrologue), with the failure path right after it. A zero word (a
  // MIPS nop, a SPARC `unimp 0`, naming no register) precedes it either way, so the rollback
  // rule's scan back from its first instruction stops there.
  const entryFunc = prog.funcAt(prog.entry);
  const fallsIntoEntry = entryFunc !== undefined && entryFunc.addr === prog.entry && plans.some((p) => p.func.addr === entryFunc.addr);
  let prologue: { addr: number; count: number } | undefined;
  if (!fallsIntoEntry) {
    asm.word(0, ORIGIN_DATA);
    prologue = emitPrologue(asm, isa, entryLabel(prog.entry));
  }
  emitPrologueFail(asm, isa);
  emitBadJump(asm, isa);
  const layouts: FuncLayout[] = [];
  /**
   * The translation table (translationTable), filled as the code is laid out: the new address of
   * each original body instruction's first copy; P_bad where there is none yet.
   */
  const bad = asm.addr(P_BAD);
  const xlat = xlatRange(prog);
  const xlatWords = new Uint32Array(Math.ceil((xlat.hi - xlat.lo) / 4)).fill(bad);
  const xlatLo = xlat.lo;
  const tableFix: { word: number; label: number }[] = [];

  for (const p of plans) {
    const { cfg, func } = p;
    const fi = func.index;
    if (!prologue && func.addr === prog.entry) {
      // Nothing falls into the prologue (a function's layout ends in a transfer); the zero word
      // stops the rollback rule's scan back from its first instruction, as after the path.
      asm.word(0, ORIGIN_DATA);
      prologue = emitPrologue(asm, isa, undefined);
    }
    const nb = cfg.blocks.length;
    const blockAddr: number[] = [];
    const bodies: Item[][] = [];
    for (let k = 0; k < nb; k++) {
      blockAddr.push(NaN);
      bodies.push([]);
    }
    // The delay slot is the first item of every edge it executes on.
    const edgeItems: Item[][] = [];
    for (let k = 0; k < cfg.edges.length; k++) {
      const e = cfg.edges[k]!;
      edgeItems.push(e.ds && cfg.blocks[e.from]!.ds ? [['d']] : []);
    }
    const L: FuncLayout = {
      blockAddr, body: bodies, edge: edgeItems,
      entry: new Map(), entryAddr: new Map(), stubAddr: new Map(), edgeAddr: new Map(), why: new Map(), stops: new Map(),
    };
    layouts.push(L);
    const records = (items: Item[], list: RecordItem[] | undefined): void => {
      if (list === undefined) return;
      for (let k = 0; k < list.length; k++) {
        const r = list[k]!;
        if (r.nop) asm.nop();
        const seq = r.sum ? sumSeq(isa, r.sum[0], r.sum[1]) : valueSeq(isa, r.reg, r.width);
        asm.sequence(seq);
        const it: Item = ['r', r.reg, seq.length + (r.nop ? 1 : 0), r.width, r.nop ? 1 : 0];
        items.push(it);
        L.why.set(it, r);
      }
    };
    const edgeCode = (e: Edge): void => {
      const items = L.edge[e.id]!;
      L.edgeAddr.set(e.id, asm.here);
      // A known loop's stopping value first: regeneration read it ahead at the loop's entry,
      // before anything this edge writes.
      for (const [reg, add] of p.known?.exitRecord.get(e.id) ?? []) {
        const seq = offsetValueSeq(isa, reg, add);
        const at = asm.here;
        asm.sequence(seq);
        const it: Item = ['g', seq.length];
        items.push(it);
        L.stops.set(it, [at, asm.here]);
      }
      const w = p.witness.get(e.id);
      if (w !== undefined) {
        const seq = witnessSeq(isa, w, p.wbytes);
        asm.sequence(seq);
        items.push(['w', seq.length]);
      }
      records(items, p.slice.edgeRecords.get(e.id));
    };
    const isTail = (e: Edge): boolean => cfg.blocks[e.to]!.term === 'tail';
    const destLabel = (e: Edge): number => {
      const to = cfg.blocks[e.to]!;
      if (to.term === 'tail') {
        if (to.target === undefined) throw new Error(`${func.name}: a transfer to a recorded target has no static destination`);
        return entryLabel(to.target);
      }
      return lb.B(fi, to.id);
    };
    const needsStub = (e: Edge, viaBranch: boolean): boolean => hasCode(p, e) || (viaBranch && isTail(e) && isa.name === 'mips');
    const stubs: Edge[] = [];
    // The blocks in address order: the graph's own order as a rule (sorted only when it is not).
    const blocks: Block[] = [];
    let ordered = true;
    for (let k = 0; k < cfg.blocks.length; k++) {
      const b = cfg.blocks[k]!;
      if (b.term === 'tail' || b.term === 'exit') continue;
      if (blocks.length > 0 && blocks[blocks.length - 1]!.start > b.start) ordered = false;
      blocks.push(b);
    }
    if (!ordered) blocks.sort((a, b) => a.start - b.start);
    const secondaryEntries: Block[] = [];
    const fallsInto = (from: Block, to: Block): boolean => from.succ.some((e) => (e.kind === 'fall' || e.kind === 'return') && e.to === to.id);
    // A stub placed right before its edge's target falls into it: no jump back. That is possible
    // where nothing else falls into the target (its layout predecessor ends in a jump, a return or
    // a call that does not return there): gcc lays out most loops that way, the entry jumping to
    // the test at the bottom and the back edge branching to the top of the body. One stub per such
    // target, the first in layout order (the target's label is then the stub's fall-through).
    const inPlace = new Map<number, Edge>();
    /** Layout position of each block id (-1: a virtual vertex). */
    const position = new Int32Array(cfg.blocks.length).fill(-1);
    for (let k = 0; k < blocks.length; k++) position[blocks[k]!.id] = k;
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k]!;
      const t = b.term === 'branch' && !b.insns[b.insns.length - 1]!.never ? takenEdge(b) : undefined;
      if (!t || !hasCode(p, t)) continue;
      const to = cfg.blocks[t.to]!;
      if (to.term === 'tail' || to.term === 'exit' || to.entry || inPlace.has(to.id)) continue;
      const at = position[to.id]!;
      if (at <= 0 || fallsInto(blocks[at - 1]!, to) || at === k + 1) continue;
      inPlace.set(to.id, t);
    }
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k]!;
      const next = blocks[k + 1];
      const here = inPlace.get(b.id);
      if (here) {
        L.stubAddr.set(here.id, asm.here);
        asm.label(lb.S(fi, here.id));
        edgeCode(here);
      }
      if (b.entry) {
        const recs = p.slice.entryRecords.get(b.id) ?? [];
        if (b.id === 0) {
          const items: Item[] = [];
          L.entryAddr.set(b.id, asm.here);
          asm.label(lb.E(fi, b.id));
          records(items, recs);
          L.entry.set(b.id, items);
        } else if (recs.length > 0) {
          secondaryEntries.push(b);
        } else {
          L.entryAddr.set(b.id, asm.here);
          L.entry.set(b.id, []);
          asm.label(lb.E(fi, b.id));
        }
      }
      L.blockAddr[b.id] = asm.here;
      asm.label(lb.B(fi, b.id));
      const body = L.body[b.id]!;
      const insns = b.insns;
      const n = insns.length;
      const last = insns[n - 1]!;
      const bodyRecords = p.slice.bodyRecords[b.id]!;
      const recordsAfter = bodyRecords.size > 0;
      records(body, bodyRecords.get(-1));
      for (let i = 0; i < n; i++) {
        const d = insns[i]!;
        let fix: Fixup | undefined;
        let word = d.word;
        const isCti = i === n - 1 && d.cti !== 'none' && d.cti !== 'trap';
        if (isCti && (b.term === 'icall' || b.term === 'ijump')) {
          // The target is an original code address: translated through the table.
          const seq = lookupSeq(isa, d.word);
          asm.sequence(seq);
          body.push(['g', seq.length]);
          word = translatedTransfer(isa, d.word);
        }
        if (isCti) {
          if (b.term === 'branch' && !d.never) {
            const taken = takenEdge(b)!;
            const viaBranch = d.cti === 'branch';
            if (needsStub(taken, viaBranch)) {
              stubs.push(taken);
              fix = { kind: 'retarget', label: lb.S(fi, taken.id) };
            } else fix = { kind: 'retarget', label: destLabel(taken) };
          } else if (b.term === 'call' && prog.funcAt(b.target!)) {
            fix = { kind: 'retarget', label: p.bareCalls.has(b.id) ? lb.B(prog.funcAt(b.target!)!.index, 0) : entryLabel(b.target!) };
          }
          // A call to no function (a weak undefined symbol, address 0, behind a null test) keeps
          // its word: it can only fault, and regeneration reports it if it ever runs.
        }
        const x = (d.addr - xlatLo) >>> 2;
        if (xlatWords[x] === bad) xlatWords[x] = asm.here;
        asm.word(word, d.addr, fix);
        body.push(['o', i]);
        if (recordsAfter) records(body, bodyRecords.get(i));
      }
      if (last.delay) {
        if (b.ds) asm.word(b.ds.word, b.ds.addr);
        else if (last.dsMode === 'never') asm.nop(); // the annulled slot: never executed
      }
      if (b.unimpWord !== undefined) asm.word(prog.word(b.unimpWord), b.unimpWord);
      // Out-edges: the fall-through one here, the others out of line.
      for (let si = 0; si < b.succ.length; si++) {
        const e = b.succ[si]!;
        if (e.kind === 'case') {
          if (b.term === 'ijump' && hasCode(p, e)) {
            // A recorded jump lands where its target points: no stub can run edge code.
            throw new Error(`${func.name}: a value defined in the delay slot of the indirect jump at 0x${last.addr.toString(16)} would have to be recorded after it`);
          }
          if (b.term === 'table' && hasCode(p, e)) stubs.push(e);
          if (b.term === 'table') for (const w of e.tableWords ?? []) tableFix.push({ word: w, label: hasCode(p, e) ? lb.S(fi, e.id) : destLabel(e) });
          continue;
        }
        if (e.kind === 'taken') continue;
        if (cfg.blocks[e.to]!.term === 'exit') {
          // Returns, halts, tail calls, longjmp: the edge's code (blocking witnesses, records)
          // would run after control has left; the placement never puts any here.
          if (hasCode(p, e)) throw new Error(`${func.name}: code on an edge that leaves the function`);
          continue;
        }
        // 'fall' or 'return': straight after the block.
        edgeCode(e);
        const to = cfg.blocks[e.to]!;
        if (to.term === 'tail' || !next || next.id !== to.id) {
          L.edge[e.id]!.push(['g', asm.jump(destLabel(e), true)]);
        }
      }
    }
    for (const e of stubs) {
      if (L.stubAddr.has(e.id)) continue;
      L.stubAddr.set(e.id, asm.here);
      asm.label(lb.S(fi, e.id));
      edgeCode(e);
      L.edge[e.id]!.push(['g', asm.jump(destLabel(e), true)]);
    }
    for (const b of secondaryEntries) {
      const items: Item[] = [];
      L.entryAddr.set(b.id, asm.here);
      asm.label(lb.E(fi, b.id));
      records(items, p.slice.entryRecords.get(b.id));
      items.push(['g', asm.jump(lb.B(fi, b.id), true)]);
      L.entry.set(b.id, items);
    }
    // A known loop's stopping value, read ahead as the last step of each edge entering it.
    for (const [e, reads] of p.known?.ahead ?? []) for (const [reg, src, dir] of reads) L.edge[e]!.push(['a', reg, 4, src, dir]);
  }
  if (!prologue) throw new Error('the entry point\'s function was not laid out');
  // The messages go last: no instruction follows data, so the rollback rule never scans back into
  // it.
  str(P_MSG, PROLOGUE_MSG);
  str(P_BADMSG, BAD_JUMP_MSG);
  asm.resolve();

  // Jump tables of switches (compiler-private: only their dispatch reads them) hold the new
  // addresses of their cases; every other code address in data keeps its original value.
  const patches = new Map<number, number>();
  for (const t of tableFix) patches.set(t.word, asm.addr(t.label));
  return {
    base: NEW_TEXT_BASE, words: asm.code(), origin: asm.origins(),
    sequences: asm.sequences, prologue, funcs: layouts, patches, xlat: translationTable(plans, layouts, xlat.lo, xlatWords),
  };
}

/**
 * The translation table: for every word of the original text, where a transfer to that original
 * address goes. An entry goes to its entry stub (its records run, as regeneration expects when an
 * indirect transfer reaches it: regen/model.ts code()); any other instruction of a block to its
 * first copy in the new text, which runs the rest of the code as the original would (the trace
 * then holds no witness of that way in, so regeneration stops there with an error rather than
 * guess); everything else (data, padding, code the analysis found unreachable) to the bad-jump
 * stop, which reports and exits with status 127. `words` comes with the first copies filled in
 * (rewrite), the bad-jump stop's address elsewhere; this sets the blocks' and the entries'.
 */
function translationTable(plans: FuncPlan[], layouts: FuncLayout[], lo: number, words: Uint32Array): { lo: number; words: Uint32Array } {
  for (let pi = 0; pi < plans.length; pi++) {
    const L = layouts[pi]!;
    const blocks = plans[pi]!.cfg.blocks;
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k]!;
      if (b.term === 'tail' || b.term === 'exit') continue;
      const n = b.entry ? L.entryAddr.get(b.id) : L.blockAddr[b.id];
      if (n !== undefined && !Number.isNaN(n)) words[(b.start - lo) >>> 2] = n;
    }
  }
  return { lo, words };
}

/** The original text's word range the translation table covers: [lo, hi), lo word-aligned. */
function xlatRange(prog: Program): { lo: number; hi: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of prog.text) {
    lo = Math.min(lo, t.addr);
    hi = Math.max(hi, t.addr + t.size);
  }
  return { lo: lo & ~3, hi };
}

/** The bad-jump stop (translationTable): writes BAD_JUMP_MSG on descriptor 2, exits with 127. */
function emitBadJump(asm: Assembler, isa: Isa): void {
  const SYS_write = sysno('write');
  const SYS_exit = sysno('exit');
  asm.label(P_BAD);
  if (isa.name === 'mips') {
    asm.glue(mipsEnc.ori(A0, 0, 2));
    asm.glue(mipsEnc.lui(A1, 0), { kind: 'mipsHi', label: P_BADMSG, addend: 0 });
    asm.glue(mipsEnc.addiu(A1, A1, 0), { kind: 'mipsLo', label: P_BADMSG, addend: 0 });
    asm.glue(mipsEnc.ori(6, 0, BAD_JUMP_MSG.length));
    asm.glue(mipsEnc.ori(V0, 0, SYS_write));
    asm.glue(mipsEnc.syscall());
    asm.glue(mipsEnc.ori(A0, 0, 127));
    asm.glue(mipsEnc.ori(V0, 0, SYS_exit));
    asm.glue(mipsEnc.syscall());
    asm.glue(mipsEnc.brk(0));
  } else {
    asm.glue(sparcEnc.orImm(O0, 0, 2));
    asm.glue(sparcEnc.sethi(O1, 0), { kind: 'sparcHi', label: P_BADMSG, addend: 0 });
    asm.glue(sparcEnc.orImm(O1, O1, 0), { kind: 'sparcLo', label: P_BADMSG, addend: 0 });
    asm.glue(sparcEnc.orImm(10, 0, BAD_JUMP_MSG.length));
    asm.glue(sparcEnc.orImm(G1, 0, SYS_write));
    asm.glue(sparcEnc.ta(0));
    asm.glue(sparcEnc.orImm(O0, 0, 127));
    asm.glue(sparcEnc.orImm(G1, 0, SYS_exit));
    asm.glue(sparcEnc.ta(0));
    asm.glue(0); // unimp 0
  }
}

/**
 * The process prologue's success path (see the file comment); returns its address and length.
 * Without an entry label it falls into what follows (the entry point's stub) and branches to
 * P_fail on failure. With one it goes there on success (MIPS: `j` + nop after the failure branch,
 * 6 instructions; SPARC: `bcc` in place of `bcs`, whose 8 MB reach covers the new text) and P_fail
 * must follow it (the SPARC falls into it on failure).
 *
 * exec leaves every register but sp cleared (docs/abi.md), and so does the prologue: trbufmap
 * succeeds with 0 in both result registers and the error flag clear (MIPS v0, v1, a3; SPARC %o0,
 * %o1 and the carry); the SPARC delay slot clears %g1, which still holds the call's number (the
 * MIPS one has nothing left to clear). A failed call's path overwrites what the delay slot set.
 * Only sequences may name the pointer and the temporary (the rollback rule), so the prologue
 * leaves the pointer to the kernel (its return to user mode sets it).
 */
function emitPrologue(asm: Assembler, isa: Isa, entry: number | undefined): { addr: number; count: number } {
  const addr = asm.here;
  const SYS_trbufmap = sysno('trbufmap');
  if (isa.name === 'mips') {
    asm.glue(mipsEnc.ori(V0, 0, SYS_trbufmap));
    asm.glue(mipsEnc.syscall());
    asm.glue(mipsEnc.bne(A3, 0, 0, 0), { kind: 'retarget', label: P_FAIL });
    asm.glue(mipsEnc.nop());
    if (entry !== undefined) {
      // A `j` reaches the whole 256 MB region of the new text; a conditional branch 128 KB only.
      asm.glue(mipsEnc.j(0), { kind: 'retarget', label: entry });
      asm.glue(mipsEnc.nop());
    }
  } else {
    asm.glue(sparcEnc.orImm(G1, 0, SYS_trbufmap));
    asm.glue(sparcEnc.ta(0));
    if (entry === undefined) asm.glue(sparcEnc.bcs(0, 0), { kind: 'retarget', label: P_FAIL });
    else asm.glue(sparcEnc.bcc(0, 0), { kind: 'retarget', label: entry });
    asm.glue(sparcEnc.orReg(G1, 0, 0));
  }
  return { addr, count: (asm.here - addr) / 4 };
}

/** The prologue's failure path (P_fail): the message on descriptor 2, exit status 127. */
function emitPrologueFail(asm: Assembler, isa: Isa): void {
  const SYS_write = sysno('write');
  const SYS_exit = sysno('exit');
  const msg = PROLOGUE_MSG;
  asm.label(P_FAIL);
  if (isa.name === 'mips') {
    asm.glue(mipsEnc.ori(A0, 0, 2));
    asm.glue(mipsEnc.lui(A1, 0), { kind: 'mipsHi', label: P_MSG, addend: 0 });
    asm.glue(mipsEnc.addiu(A1, A1, 0), { kind: 'mipsLo', label: P_MSG, addend: 0 });
    asm.glue(mipsEnc.ori(6, 0, msg.length));
    asm.glue(mipsEnc.ori(V0, 0, SYS_write));
    asm.glue(mipsEnc.syscall());
    asm.glue(mipsEnc.ori(A0, 0, 127));
    asm.glue(mipsEnc.ori(V0, 0, SYS_exit));
    asm.glue(mipsEnc.syscall());
    asm.glue(mipsEnc.brk(0));
  } else {
    const O2 = 10;
    asm.glue(sparcEnc.orImm(O0, 0, 2));
    asm.glue(sparcEnc.sethi(O1, 0), { kind: 'sparcHi', label: P_MSG, addend: 0 });
    asm.glue(sparcEnc.orImm(O1, O1, 0), { kind: 'sparcLo', label: P_MSG, addend: 0 });
    asm.glue(sparcEnc.orImm(O2, 0, msg.length));
    asm.glue(sparcEnc.orImm(G1, 0, SYS_write));
    asm.glue(sparcEnc.ta(0));
    asm.glue(sparcEnc.orImm(O0, 0, 127));
    asm.glue(sparcEnc.orImm(G1, 0, SYS_exit));
    asm.glue(sparcEnc.ta(0));
    asm.glue(0); // unimp 0
  }
}
