/**
 * Shared by the replay CLI tests: running the built CLI, building the demo image, and the
 * checks every timeline must pass (Chrome trace-event JSON schema, intervals that tile the run).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { expect } from 'vitest';
import { ROOT_DIR } from '../../../../images/build.js';
import { writeImage } from '../../../../format/image.js';
import { assembleImage } from '../../../../images/pack.js';
import { imageSpecs } from '../../../../images/specs.js';

export const EMU = join(ROOT_DIR, 'bin', 'emu.js');
export const BUILT = existsSync(join(ROOT_DIR, 'dist', 'bin', 'replay_cmd.js')) || process.env['CI'] === 'true'; // under CI a missing build fails, never skips

/** A short multi-process command of the demo image: a pipeline in the background and a client/server pair. */
export const COMMAND = "textgen 2000 | egrep 'zebra|quux' | wc -l & cs 20; wait";
/** A small quantum so the processes interleave. */
export const QUANTUM = '20000';

export function emu(args: string[]): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [EMU, ...args], { encoding: 'latin1', timeout: 300_000, maxBuffer: 1 << 28 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** Writes the demo image of `target` into dir; returns its path. */
export async function demoImage(dir: string, target: 'mipsel' | 'sparc'): Promise<string> {
  const spec = imageSpecs().find((s) => s.name === `demo-${target}`)!;
  const img = join(dir, `demo-${target}.tar`);
  writeFileSync(img, writeImage(await assembleImage(spec)));
  return img;
}

export interface XEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur: number;
  args: { cycle: number; cycles: number; events: number; exit?: number; name?: string };
}
export interface TimelineDoc {
  traceEvents: XEvent[];
  otherData: Record<string, unknown>;
}

const schema = JSON.parse(readFileSync(join(ROOT_DIR, 'test', 'regen', 'replay', 'support', 'chrome_trace.schema.json'), 'utf8')) as object;

/**
 * Reads a timeline and checks it: valid against the trace-event schema (which must also reject
 * a damaged copy); complete events in time order, each starting exactly where the previous one
 * ended (in cycles, and in nanosecond-rounded microseconds), consecutive ones of different
 * processes, timestamps equal to cycle * 1e6 / cpuHz; the last one ending at `endCycle`.
 * Returns the document and its complete events.
 */
export function checkTimeline(file: string, cpuHz: number, endCycle: number): { doc: TimelineDoc; x: XEvent[] } {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as TimelineDoc;
  const ajv = new Ajv({ allErrors: true });
  const valid = ajv.validate(schema, doc);
  expect(ajv.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  const broken = structuredClone(doc);
  delete (broken.traceEvents.find((e) => e.ph === 'X') as Partial<XEvent>).dur;
  expect(ajv.validate(schema, broken)).toBe(false);
  const timed = structuredClone(doc);
  (timed.traceEvents.find((e) => e.ph === 'M') as XEvent).ts = 0;
  expect(ajv.validate(schema, timed)).toBe(false);

  const x = doc.traceEvents.filter((e) => e.ph === 'X');
  expect(x.length).toBeGreaterThan(10);
  for (let i = 1; i < x.length; i++) {
    expect(x[i]!.args.cycle).toBe(x[i - 1]!.args.cycle + x[i - 1]!.args.cycles);
    expect(Math.round(x[i - 1]!.ts * 1000) + Math.round(x[i - 1]!.dur * 1000)).toBe(Math.round(x[i]!.ts * 1000));
    expect(x[i]!.pid).not.toBe(x[i - 1]!.pid);
  }
  for (const e of x) expect(Math.abs(e.ts - (e.args.cycle * 1e6) / cpuHz)).toBeLessThan(0.001);
  const last = x[x.length - 1]!;
  expect(last.args.cycle + last.args.cycles).toBe(endCycle);
  expect(doc.otherData['cpuHz']).toBe(cpuHz);
  // Every track is named, and every named track has intervals.
  const named = new Set(doc.traceEvents.filter((e) => e.name === 'process_name').map((e) => e.pid));
  expect(named).toEqual(new Set(x.map((e) => e.pid)));
  return { doc, x };
}

/** The din lines of a file, checked against Dinero's din syntax; counts by label. */
export function readDin(file: string): { lines: string[]; counts: { I: number; L: number; S: number } } {
  const lines = readFileSync(file, 'latin1').split('\n');
  expect(lines.pop()).toBe('');
  const c = [0, 0, 0];
  for (const l of lines) {
    const m = /^([012]) ([0-9a-f]{1,8})$/.exec(l);
    if (!m) throw new Error(`${file}: not a din line: '${l}'`);
    c[Number(m[1])]!++;
  }
  return { lines, counts: { I: c[2]!, L: c[0]!, S: c[1]! } };
}
