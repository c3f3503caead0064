/**
 * The layering of DESIGN.md section 1, enforced: every TypeScript file of the product folders
 * imports only its own folder and the folders below it —
 *   format < cpu < os < tracer < regen < bin < bench;  images uses format and cpu;  tracer does
 *   not import os;  regen does not import os —
 * and no TypeScript file of the repository (tests included) reaches itself through the imports
 * that load code. Every import counts for the layering: static imports, `import type`, re-exports
 * and import() of a string literal. The circle rule reads the graph the compiled program loads, as
 * dependency-cruiser does by default (`tsPreCompilationDeps: false`): an import whose names are all
 * types (`import type`, `export type`, `import { type A, type B }`) is erased by the compiler and
 * orders no module's initialisation; it is a declaration the file refers to, as a C file includes
 * the header that declares `struct proc`. Failures name the files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What each product folder may import besides itself. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  format: [],
  cpu: ['format'],
  os: ['format', 'cpu'],
  tracer: ['format', 'cpu'],
  regen: ['format', 'cpu', 'tracer'],
  images: ['format', 'cpu'],
  bin: ['format', 'cpu', 'os', 'tracer', 'regen', 'images'],
  bench: ['format', 'cpu', 'os', 'tracer', 'regen', 'images', 'bin'],
};
const FOLDERS = [...Object.keys(MAY_IMPORT), 'test'];

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && relative(ROOT, p) !== join('images', 'build')) out.push(...tsFiles(p));
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/**
 * The module specifiers a TypeScript source imports. A small lexer: comments are skipped, string
 * and template literals read whole (so neither can fake an import), a `/` after an operand is a
 * division and otherwise starts a regular expression, read whole too.
 */
export function importsOf(src: string): string[] {
  return importsWithKinds(src).map((i) => i.spec);
}

/** An import's specifier, and whether every name it brings in is a type (the compiler erases it). */
export interface Import { spec: string; typeOnly: boolean }

/** importsOf, with the kind of each import. */
export function importsWithKinds(src: string): Import[] {
  const toks: { t: string; s?: string }[] = [];
  let i = 0;
  const n = src.length;
  const operand = (): boolean => {
    const p = toks[toks.length - 1];
    return p !== undefined && (p.s !== undefined || /^[\w$)\]]/.test(p.t)) && !/^(return|typeof|case|in|of|new|delete|void|throw|yield|await|else|do)$/.test(p.t);
  };
  while (i < n) {
    const c = src[i]!;
    if (/\s/.test(c)) i++;
    else if (src.startsWith('//', i)) i = src.indexOf('\n', i) < 0 ? n : src.indexOf('\n', i);
    else if (src.startsWith('/*', i)) i = src.indexOf('*/', i + 2) < 0 ? n : src.indexOf('*/', i + 2) + 2;
    else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let depth = 0;
      while (j < n && (src[j] !== c || depth > 0)) {
        if (src[j] === '\\') j++;
        else if (c === '`' && src.startsWith('${', j)) depth++;
        else if (c === '`' && depth > 0 && src[j] === '}') depth--;
        j++;
      }
      toks.push({ t: c, s: src.slice(i + 1, j) });
      i = j + 1;
    } else if (c === '/' && !operand()) {
      let j = i + 1;
      let cls = false;
      while (j < n && (src[j] !== '/' || cls) && src[j] !== '\n') {
        if (src[j] === '\\') j++;
        else if (src[j] === '[') cls = true;
        else if (src[j] === ']') cls = false;
        j++;
      }
      toks.push({ t: 'regex' });
      i = j + 1;
    } else {
      const m = /^[\w$]+/.exec(src.slice(i, i + 64));
      toks.push({ t: m ? m[0] : c });
      i += m ? m[0].length : 1;
    }
  }
  const specs: Import[] = [];
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!.t;
    if ((t !== 'import' && t !== 'export') || toks[k - 1]?.t === '.') continue;
    if (t === 'import' && toks[k + 1]?.t === '(' && toks[k + 2]?.s !== undefined && toks[k + 3]?.t === ')') specs.push({ spec: toks[k + 2]!.s!, typeOnly: false });
    else if (t === 'import' && toks[k + 1]?.s !== undefined) specs.push({ spec: toks[k + 1]!.s!, typeOnly: false });
    else {
      // import CLAUSE from 'x' / export CLAUSE from 'x': a clause is names, braces, commas, `*`.
      // It is type-only when it starts with `type`, or when it is braces only and every name
      // in them is preceded by `type`.
      const clause: string[] = [];
      for (let j = k + 1; j < toks.length; j++) {
        const u = toks[j]!;
        if (u.t === 'from' && toks[j + 1]?.s !== undefined) {
          specs.push({ spec: toks[j + 1]!.s!, typeOnly: typeOnlyClause(clause) });
          break;
        }
        if (u.s !== undefined || !/^([\w$]+|[{},*])$/.test(u.t)) break;
        clause.push(u.t);
      }
    }
  }
  return specs;
}

/** `type …`, or `{ type A, type B as C }`: names that are all types. */
function typeOnlyClause(clause: readonly string[]): boolean {
  if (clause[0] === 'type') return true;
  if (clause[0] !== '{' || clause[clause.length - 1] !== '}') return false;
  const items: string[][] = [[]];
  for (const t of clause.slice(1, -1)) {
    if (t === ',') items.push([]);
    else items[items.length - 1]!.push(t);
  }
  const names = items.filter((i) => i.length > 0);
  return names.length > 0 && names.every((i) => i[0] === 'type' && i.length > 1);
}

interface Edge { from: string; to: string; typeOnly: boolean }

/** Every relative import of every TypeScript file, resolved to a repository path. */
function importGraph(): { files: string[]; edges: Edge[] } {
  const files = FOLDERS.flatMap((f) => tsFiles(join(ROOT, f))).map((p) => relative(ROOT, p)).sort();
  const edges: Edge[] = [];
  for (const f of files) {
    for (const { spec, typeOnly } of importsWithKinds(readFileSync(join(ROOT, f), 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const to = relative(ROOT, resolve(ROOT, dirname(f), spec)).replace(/\.js$/, '.ts');
      edges.push({ from: f, to, typeOnly });
    }
  }
  return { files, edges };
}

const top = (p: string): string => p.split(/[\\/]/)[0]!;

/**
 * The import circles: for every strongly connected component of more than one file (or a file
 * importing itself), one circle through its first file, then all its files.
 */
function circles(files: string[], edges: Edge[]): string[] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) if (next.has(e.to)) next.get(e.from)!.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[] = [];
  /** A shortest path from v back to v inside the component (breadth first). */
  const circle = (v: string, scc: Set<string>): string[] => {
    const from = new Map<string, string>();
    const queue = [v];
    for (let q = 0; q < queue.length; q++) {
      for (const w of next.get(queue[q]!)!) {
        if (!scc.has(w) || from.has(w)) continue;
        from.set(w, queue[q]!);
        if (w === v) {
          const path = [v];
          for (let x = from.get(v)!; x !== v; x = from.get(x)!) path.unshift(x);
          return [v, ...path];
        }
        queue.push(w);
      }
    }
    return [v];
  };
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || next.get(v)!.includes(v)) {
        scc.sort();
        out.push(`${circle(scc[0]!, new Set(scc)).join(' -> ')} (the circle's files: ${scc.join(', ')})`);
      }
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return out;
}

describe('layers', () => {
  it('the import reader finds every form of import and nothing in comments, strings or regexes', () => {
    const src = [
      "import a from './a.js';", "import type { B } from '../b.js';", "import {\n  c,\n  type D,\n} from './c.js';",
      "import './side.js';", "export { e } from './e.js';", "export * from './f.js';", "export type { G } from './g.js';",
      "const h = await import('./h.js');", "// import x from './no1.js';", "/* import('./no2.js') */",
      "const s = \"import y from './no3.js'\";", "const r = /import '.\\/no4.js'/; const q = a / 2 / 1;",
      'const t = `${import.meta.url} from \'./no5.js\'`;', "export const k = 1;", "x.import('./no6.js');",
    ].join('\n');
    expect(importsOf(src)).toEqual(['./a.js', '../b.js', './c.js', './side.js', './e.js', './f.js', './g.js', './h.js']);
  });

  it('the import reader tells imports the compiler erases (all names types) from those that load code', () => {
    const src = [
      "import type { A } from './a.js';", "import { type B, type C as D } from './b.js';", "import { type E, f } from './c.js';",
      "export type { G } from './g.js';", "import h, { type I } from './h.js';", "import {} from './j.js';", "import * as k from './k.js';",
    ].join('\n');
    expect(importsWithKinds(src).map((i) => `${i.spec} ${i.typeOnly}`)).toEqual([
      './a.js true', './b.js true', './c.js false', './g.js true', './h.js false', './j.js false', './k.js false',
    ]);
  });

  const { files, edges } = importGraph();

  it('every product folder imports only the folders below it', () => {
    // The graph is the whole tree: a reader that found nothing would pass vacuously.
    expect(files.length).toBeGreaterThan(200);
    expect(edges.length).toBeGreaterThan(1000);
    const bad: string[] = [];
    for (const e of edges) {
      const a = top(e.from);
      const b = top(e.to);
      const allowed = MAY_IMPORT[a];
      if (allowed && a !== b && !allowed.includes(b)) bad.push(`${e.from} imports ${e.to} (${a}/ may import ${allowed.join(', ') || 'nothing else'})`);
    }
    expect(bad, bad.join('\n')).toEqual([]);
  });

  it('every relative import names a file of the tree', () => {
    const known = new Set(files);
    const missing = edges.filter((e) => !known.has(e.to) && !e.to.endsWith('.json')).map((e) => `${e.from} imports ${e.to}, which is not a TypeScript file of the tree`);
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it('no import circle among the TypeScript files (through imports that load code)', () => {
    const loads = edges.filter((e) => !e.typeOnly);
    expect(edges.length - loads.length).toBeGreaterThan(100);
    const found = circles(files, loads);
    expect(found, found.join('\n')).toEqual([]);
  });
});
