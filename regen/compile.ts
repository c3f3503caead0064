/**
 * The schema compiler (the `aec` of larus-1990 4.2): each function of a schema becomes one
 * JavaScript function (new Function) that runs its blocks, edges and entry stubs as straight-line
 * code — instruction fetches and data references with their addresses computed inline, the
 * recomputed definitions as expressions (the operations' templates of cpu/semantics.ts, the
 * definitions the CPUs' opcode tables name), witnesses and recorded values read from the trace —
 * dispatching between them with a label switch, exactly as the reference interpreter
 * (regen/process.ts) would step through them.
 *
 * A unit (a block, an edge, an entry stub) runs whole when it fits before the stop count;
 * otherwise the compiled code returns with the process positioned at the unit's start and the
 * interpreter steps it item by item. Calls, returns and transfers out of the function return to
 * the driver, which continues in the next function's compiled code. Units the compiler leaves to
 * the interpreter: recorded indirect jumps and the end of edges that leave the function.
 */
import type { Item } from '../format/schema.js';
import type { SInsn, SSrc } from '../format/schema.js';
import { HELPER_NAMES, HELPER_VALUES, splice, valueOp } from '../cpu/semantics.js';
import { SLOT_BASE } from '../tracer/slots.js';
import type { RBlock, REdge, RFunc, RegenProgram } from './model.js';
import { itemCost } from './model.js';
import { decideSource } from './decide.js';
import type { RegenProcess } from './process.js';

export type Compiled = (S: RegenProcess, stop: number) => void;

const REG_Y = 65;

function hex(v: number): string {
  return `0x${(v >>> 0).toString(16)}`;
}

/** Generates the source of one function's code. */
export function compileSource(prog: RegenProgram, fn: RFunc): string {
  const sparc = prog.sparc;
  const nb = fn.blocks.length;
  const ne = fn.edges.length;
  const L = { block: (b: number) => b, edge: (e: number) => nb + e, resume: (e: number) => nb + ne + e, entry: (b: number) => nb + 2 * ne + b };
  const o: string[] = [];
  const rd = (r: number): string => {
    if (r === 0) return '0';
    if (r >= SLOT_BASE) return `(S.slots.get(${r}) ?? 0)`;
    if (!sparc) return `R[${r}]`;
    if (r === REG_Y) return 'S.y';
    if (r < 8) return `R[${r}]`;
    return r >= 24 ? `R[wb + ${r - 32}]` : `R[wb + ${r}]`;
  };
  const wr = (r: number, v: string): string => {
    if (r === 0) return '';
    if (r >= SLOT_BASE) return `S.slotSet(${r}, ${v});`;
    if (sparc && r === REG_Y) return `S.y = (${v}) | 0;`;
    return `${rd(r)} = ${v};`;
  };
  const src = (s: SSrc | null): string => (s === null ? '0' : typeof s === 'number' ? rd(s) : String(s.k | 0));
  const insn = (a: SInsn | null, pc: number): void => {
    o.push(`sink.ifetch(${hex(pc)});`);
    if (a === null) return;
    if (a.t) o.push(`S.target = (${[...a.t[0].map(rd), String(a.t[1])].join(' + ')}) >>> 0;`);
    if (a.m) {
      const [kind, size, base, index, off] = a.m;
      o.push(`va = (${rd(base)} + ${off}${index >= 0 ? ` + ${rd(index)}` : ''}) >>> 0;`);
      if (kind === 0) o.push(`sink.load(va, ${size});`);
      else if (kind === 1) o.push(`sink.store(va, ${size});`);
      else o.push(`sink.load(va, ${size}); sink.store(va, ${size});`);
      if (a.v) o.push(wr(a.v[0], `S.prog.roLoad(va, ${a.v[1]}, ${hex(pc)})`));
    }
    const c = a.c;
    const move = a.w ? `S.moveWindow(${a.w}); R = S.R; wb = S.wb;` : '';
    if (!c) {
      if (move) o.push(move);
      return;
    }
    const [op, d, sa, sb] = c;
    const outs = valueOp(op).out.map((t) => splice(t, src(sa), src(sb), 'S.y'));
    if (outs.length === 1) {
      o.push(`v = ${outs[0]};`);
      if (move) o.push(move);
      o.push(wr(d[0]!, 'v'));
    } else {
      o.push(`vs = [${outs.join(', ')}];`);
      if (move) o.push(move);
      d.forEach((r, i) => o.push(wr(r, `vs[${i}]`)));
    }
  };
  const items = (its: Item[], from: number, b: RBlock, unit: 'entry' | 'body' | 'edge', e?: REdge): void => {
    for (let k = from; k < its.length; k++) {
      const it = its[k]!;
      switch (it[0]) {
        case 'o': insn(b.insns[it[1]]!, b.addr + 4 * it[1]); break;
        case 'd': insn(b.ds, b.addr + 4 * b.n); break;
        case 'w':
          o.push(`if (S.pending >= 0) { w = S.pending; S.pending = -1; } else w = S.readWitness(${fn.wbytes});`);
          o.push(`if (w !== ${e!.witness}) throw S.error('witness ' + w + ' read where edge ${e!.id} writes ${e!.witness}');`);
          o.push(`S.counts.witness += ${fn.wbytes}; S.counts.witnessItems++;`);
          break;
        case 'r':
          o.push(`v = S.readValue(${it[3]});`, wr(it[1], 'v'), `S.counts.${unit} += ${Math.abs(it[3])}; S.counts.recordItems++;`);
          break;
        case 'g':
          break;
        case 'a':
          o.push(`v = S.readAhead(${it[2]}, (${rd(it[3])} - ${it[4]}) | 0);`, wr(it[1], 'v'), `S.counts.edge += ${it[2]}; S.counts.recordItems++;`);
          break;
      }
    }
  };
  const cost = (its: Item[], from = 0): number => its.slice(from).reduce((n, it) => n + itemCost(it), 0);
  const park = (at: number, id: number, item: number): string => `S.at = ${at}; S.id = ${id}; S.item = ${item};`;

  o.push('let L = S.at === 0 ? S.id : S.at === 1 ? (S.item === 0 ? ' + nb + ' + S.id : ' + (nb + ne) + ' + S.id) : ' + (nb + 2 * ne) + ' + S.id;');
  o.push('let R = S.R, wb = S.wb, va = 0, v = 0, w = 0, vs;');
  o.push('for (;;) switch (L) {');
  for (const b of fn.blocks) {
    if (b.term === 'tail' || b.term === 'exit' || Number.isNaN(b.naddr)) continue;
    o.push(`case ${L.block(b.id)}: {`);
    o.push(`if (S.ic + ${b.cost} > stop) { ${park(0, b.id, 0)} return; }`);
    o.push(`S.ic += ${b.cost};`);
    items(b.items, 0, b, 'body');
    const trap = b.term === 'trap' || b.term === 'halt';
    o.push(trap ? `S.lastSyscall = ${hex(b.addr + 4 * (b.n - 1))};` : 'S.lastSyscall = -1;');
    if (b.term === 'halt') {
      // Nothing continues after a halting trap: the process waits here for a signal.
      o.push(`${park(0, b.id, b.items.length)} return;`);
    } else if (b.wt) {
      o.push(`if (S.pending < 0) { if (S.ic >= stop || (S.pending = S.readWitnessAhead(${fn.wbytes})) < 0) { ${park(0, b.id, b.items.length)} return; } }`);
      o.push('switch (S.pending) {');
      for (const [wv, ei] of b.wt) o.push(`case ${wv}: L = ${L.edge(ei)}; continue;`);
      o.push(`default: ${park(0, b.id, b.items.length)} S.leaveBlock(S.fn.blocks[${b.id}]); return; }`);
    } else if (b.dc) {
      o.push(`L = ${decideSource(b.dc, src(b.dc[1]), src(b.dc[2]))} ? ${L.edge(b.dc[3])} : ${L.edge(b.dc[4])}; continue;`);
    } else if (b.term === 'ijump' || b.succ.length !== 1) {
      o.push(`${park(0, b.id, b.items.length)} S.leaveBlock(S.fn.blocks[${b.id}]); return;`);
    } else {
      o.push(`L = ${L.edge(b.succ[0]!)}; continue;`);
    }
    o.push('}');
  }
  for (const e of fn.edges) {
    const from = fn.blocks[e.from]!;
    const to = fn.blocks[e.to]!;
    const isCall = (from.term === 'call' || from.term === 'icall') && e.items[0]?.[0] === 'd';
    const inline = to.term !== 'tail' && to.term !== 'exit' && !(from.term === 'ijump');
    o.push(`case ${L.edge(e.id)}: {`);
    if (isCall) {
      o.push(`if (S.ic + 1 > stop) { ${park(1, e.id, 0)} return; }`);
      o.push('S.ic += 1;');
      items(e.items.slice(0, 1), 0, from, 'edge', e);
      o.push(`${park(1, e.id, 1)} S.callAfterDs(S.fn.blocks[${from.id}], S.fn.edges[${e.id}]); return; }`);
      o.push(`case ${L.resume(e.id)}: {`);
      o.push(`if (S.ic + ${cost(e.items, 1)} > stop) { ${park(1, e.id, 1)} return; }`);
      o.push(`S.ic += ${cost(e.items, 1)};`);
      items(e.items, 1, from, 'edge', e);
    } else {
      o.push(`if (S.ic + ${e.cost} > stop) { ${park(1, e.id, 0)} return; }`);
      o.push(`S.ic += ${e.cost};`);
      items(e.items, 0, from, 'edge', e);
    }
    if (inline) o.push(`L = ${L.block(to.id)}; continue; }`);
    else o.push(`${park(1, e.id, e.items.length)} S.leaveEdge(S.fn.blocks[${from.id}], S.fn.edges[${e.id}]); return; }`);
  }
  for (const en of fn.entries.values()) {
    const b = fn.blocks[en.block]!;
    o.push(`case ${L.entry(en.block)}: {`);
    o.push(`if (S.ic + ${en.cost} > stop) { ${park(2, en.block, 0)} return; }`);
    o.push(`S.ic += ${en.cost};`);
    items(en.items, 0, b, 'entry');
    o.push(`${park(0, en.block, 0)}`);
    if (fn.role === 'setjmp' || fn.role === 'longjmp') o.push('S.jmpEntry();');
    o.push(`L = ${L.block(en.block)}; continue; }`);
  }
  o.push(`default: throw S.error('no compiled code for label ' + L);`);
  o.push('}');
  return o.join('\n');
}

/** Compiles one function (cached on the function). */
export function compileFunc(prog: RegenProgram, fn: RFunc): Compiled {
  const body = compileSource(prog, fn);
  const make = new Function(...HELPER_NAMES, `return function ${sanitize(fn.name)}(S, stop) { const sink = S.sink;\n${body}\n};`) as (...h: unknown[]) => Compiled;
  return make(...HELPER_VALUES);
}

function sanitize(n: string): string {
  const s = n.replace(/[^A-Za-z0-9_$]/g, '_');
  return /^[A-Za-z_$]/.test(s) ? `f_${s}` : `f__${s}`;
}
