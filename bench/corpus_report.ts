/**
 * The corpus table (docs/corpus.md): per configuration, how many tests were built, passed under
 * qemu-user and under emu; every test where qemu-user passes and emu does not, with emu's error;
 * every test where emu passes and qemu-user does not; every test not built, with the reason;
 * tracing (stage `trace`): of the tests that pass on emu, how many were instrumented, how many of
 * their functions are in conservative mode, how many ran traced as untraced and regenerated equal
 * to ground truth, and every failure with its reason (the first divergence for regeneration).
 * The same content as JSON (for tools) and markdown (for people); nothing in it depends on the
 * host or the time of the run.
 */
import { configId } from '../images/corpus.js';
import { STAGES, traceVerdict, verdict, type CorpusRecord } from './corpus_stages.js';

export interface ConfigSummary {
  config: string;
  tests: number;
  /** Not built because DejaGnu would not run the test here (plan). */
  skipped: number;
  buildFailed: number;
  built: number;
  qemuPass: number;
  emuPass: number;
  /** qemu-user passes and emu does not. */
  emuOnlyFails: number;
  /** emu passes and qemu-user does not. */
  qemuOnlyFails: number;
  /** Every stage's results by status (stages added later count here too). */
  stages: Record<string, Record<string, number>>;
  trace: TraceSummary;
}

/** The trace stage of one configuration. */
export interface TraceSummary {
  /** Tests that pass on emu (the trace stage runs on them). */
  eligible: number;
  /** Of those, traced so far (the stage has a result). */
  run: number;
  instrumented: number;
  /** Functions of the instrumented programs, and those in conservative mode. */
  functions: number;
  conservativeFunctions: number;
  /** Programs with at least one function in conservative mode. */
  conservativePrograms: number;
  /** Ran traced as untraced and regenerated equal to its ground truth (bench/corpus_stages.ts traceVerdict). */
  regenEqual: number;
  /** Of those, regeneration differs from the untraced run's ground truth (the run departs from the untraced one). */
  departs: number;
}

export interface Mismatch {
  program: string;
  config: string;
  error: string;
  /** The other side's result. */
  other: string;
}

export interface NotBuilt {
  program: string;
  reason: string;
  /** The configurations (all, or a list) this reason holds for. */
  configs: string[];
}

export interface CorpusSummary {
  configs: ConfigSummary[];
  totals: Omit<ConfigSummary, 'config' | 'stages' | 'trace'>;
  traceTotals: TraceSummary;
  /** Tests that pass on emu and fail the trace stage, with its reason. */
  traceFails: Mismatch[];
  /** Tests that pass it but whose regeneration differs from the untraced run's ground truth. */
  traceDeparts: Mismatch[];
  emuFails: Mismatch[];
  qemuFails: Mismatch[];
  notBuilt: NotBuilt[];
  /** Tests that fail under both (not a difference between them; listed for completeness). */
  bothFail: Mismatch[];
}

export function summarize(records: readonly CorpusRecord[]): CorpusSummary {
  const byConfig = new Map<string, ConfigSummary>();
  const emuFails: Mismatch[] = [];
  const qemuFails: Mismatch[] = [];
  const bothFail: Mismatch[] = [];
  const traceFails: Mismatch[] = [];
  const traceDeparts: Mismatch[] = [];
  const notBuilt = new Map<string, NotBuilt>();
  for (const r of records) {
    const id = configId(r.config);
    let c = byConfig.get(id);
    if (!c) {
      c = { config: id, tests: 0, skipped: 0, buildFailed: 0, built: 0, qemuPass: 0, emuPass: 0, emuOnlyFails: 0, qemuOnlyFails: 0, stages: {}, trace: noTrace() };
      byConfig.set(id, c);
    }
    c.tests++;
    for (const s of STAGES) {
      const st = r.stages[s.name];
      if (!st) continue;
      const m = (c.stages[s.name] ??= {});
      m[st.status] = (m[st.status] ?? 0) + 1;
    }
    const b = r.stages['build'];
    if (b?.status === 'skip') c.skipped++;
    if (b?.status === 'fail' || b?.status === 'error' || b?.status === 'skip') {
      if (b.status !== 'skip') c.buildFailed++;
      const k = `${r.program}\0${b.reason}`;
      const nb = notBuilt.get(k) ?? { program: r.program, reason: b.reason ?? b.status, configs: [] };
      nb.configs.push(id);
      notBuilt.set(k, nb);
    }
    const v = verdict(r);
    if (v.built) c.built++;
    if (v.qemuPass) c.qemuPass++;
    if (v.emuPass) c.emuPass++;
    const qReason = r.stages['qemu']?.reason ?? r.stages['qemu']?.status ?? 'not run';
    if (v.built && v.qemuPass && !v.emuPass && r.stages['emu']) {
      c.emuOnlyFails++;
      emuFails.push({ program: r.program, config: id, error: v.emuError, other: 'qemu-user passes' });
    }
    if (v.built && !v.qemuPass && v.emuPass && r.stages['qemu']) {
      c.qemuOnlyFails++;
      qemuFails.push({ program: r.program, config: id, error: qReason, other: 'emu passes' });
    }
    if (v.built && !v.qemuPass && !v.emuPass && r.stages['qemu'] && r.stages['emu']) {
      bothFail.push({ program: r.program, config: id, error: v.emuError, other: `qemu-user: ${qReason}` });
    }
    const t = r.stages['trace'];
    if (v.emuPass) {
      c.trace.eligible++;
      if (t) {
        c.trace.run++;
        const d = t.data ?? {};
        if (d['functions'] !== undefined) {
          c.trace.instrumented++;
          c.trace.functions += d['functions'] as number;
          const cons = (d['conservative'] as string[] | undefined)?.length ?? 0;
          c.trace.conservativeFunctions += cons;
          if (cons > 0) c.trace.conservativePrograms++;
        }
        const tv = t.status === 'error' ? { pass: false, reason: t.reason ?? t.status } : traceVerdict(d);
        if (tv.pass) c.trace.regenEqual++;
        else traceFails.push({ program: r.program, config: id, error: tv.reason ?? t.status, other: 'emu passes' });
        if (tv.departs) {
          c.trace.departs++;
          traceDeparts.push({ program: r.program, config: id, error: tv.departs, other: 'regen equals the traced run\'s ground truth' });
        }
      }
    }
  }
  const configs = [...byConfig.values()].sort((a, b) => a.config.localeCompare(b.config));
  const totals = { tests: 0, skipped: 0, buildFailed: 0, built: 0, qemuPass: 0, emuPass: 0, emuOnlyFails: 0, qemuOnlyFails: 0 };
  for (const c of configs) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += c[k];
  const traceTotals = noTrace();
  for (const c of configs) for (const k of Object.keys(traceTotals) as (keyof TraceSummary)[]) traceTotals[k] += c.trace[k];
  const all = configs.map((c) => c.config);
  const order = (a: { program: string; config?: string }, b: { program: string; config?: string }) =>
    a.program.localeCompare(b.program) || (a.config ?? '').localeCompare(b.config ?? '');
  return {
    configs, totals, traceTotals, traceFails: traceFails.sort(order), traceDeparts: traceDeparts.sort(order),
    emuFails: emuFails.sort(order), qemuFails: qemuFails.sort(order), bothFail: bothFail.sort(order),
    notBuilt: [...notBuilt.values()].map((n) => ({ ...n, configs: n.configs.length === all.length ? ['all'] : n.configs.sort() })).sort((a, b) => order(a, b) || a.reason.localeCompare(b.reason)),
  };
}

function noTrace(): TraceSummary {
  return { eligible: 0, run: 0, instrumented: 0, functions: 0, conservativeFunctions: 0, conservativePrograms: 0, regenEqual: 0, departs: 0 };
}

function esc(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function toMarkdown(s: CorpusSummary): string {
  const out: string[] = [];
  out.push('| configuration | tests | not run (DejaGnu) | build failed | built | qemu-user passes | emu passes | qemu passes, emu not | emu passes, qemu not |');
  out.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  const row = (name: string, c: CorpusSummary['totals']) =>
    out.push(`| ${name} | ${c.tests} | ${c.skipped} | ${c.buildFailed} | ${c.built} | ${c.qemuPass} | ${c.emuPass} | ${c.emuOnlyFails} | ${c.qemuOnlyFails} |`);
  for (const c of s.configs) row(c.config, c);
  row('**total**', s.totals);
  if (s.traceTotals.run > 0) {
    out.push('', '| configuration | emu passes | traced | instrumented | functions | conservative functions (programs) | traced as untraced, regen == truth | of which depart from the untraced run |');
    out.push('|---|--:|--:|--:|--:|--:|--:|--:|');
    const trow = (name: string, t: TraceSummary) =>
      out.push(`| ${name} | ${t.eligible} | ${t.run} | ${t.instrumented} | ${t.functions} | ${t.conservativeFunctions} (${t.conservativePrograms}) | ${t.regenEqual} | ${t.departs} |`);
    for (const c of s.configs) trow(c.config, c.trace);
    trow('**total**', s.traceTotals);
  }
  const extra = [...new Set(s.configs.flatMap((c) => Object.keys(c.stages)))].filter((n) => !['build', 'qemu', 'emu', 'trace'].includes(n));
  if (extra.length) {
    out.push('', '| configuration | ' + extra.join(' | ') + ' |', '|---|' + extra.map(() => '---|').join(''));
    for (const c of s.configs) out.push(`| ${c.config} | ${extra.map((n) => Object.entries(c.stages[n] ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')).join(' | ')} |`);
  }
  const list = (title: string, items: Mismatch[]) => {
    out.push('', `### ${title} (${items.length})`, '');
    if (items.length === 0) out.push('None.');
    else for (const m of items) out.push(`- \`${m.program}\` ${m.config}: ${esc(m.error)} (${m.other})`);
  };
  if (s.traceTotals.run > 0) {
    list('emu passes, tracing fails', s.traceFails);
    list('traced, regeneration departs from the untraced run', s.traceDeparts);
  }
  list('qemu-user passes, emu does not', s.emuFails);
  list('emu passes, qemu-user does not', s.qemuFails);
  list('both fail', s.bothFail);
  out.push('', `### Not built (${s.notBuilt.length} test/reason pairs)`, '');
  if (s.notBuilt.length === 0) out.push('None.');
  for (const n of s.notBuilt) out.push(`- \`${n.program}\`: ${esc(n.reason)} (${n.configs.join(', ')})`);
  return `${out.join('\n')}\n`;
}
