/**
 * Bad bundles (issue 7): `emu regen BUNDLE --verify -o FILE` and `emu replay BUNDLE` on a damaged
 * copy of a small traced bundle (the pipeline image, three traced processes) —
 *   - a truncated trace, a truncated schedule, a flipped byte in the middle of the trace: a
 *     non-zero exit, the damaged file's path and what is wrong with it, and the index of the event
 *     where regeneration stopped (inside the run: after some events, before the last);
 *   - a schema edited (its stored hash no longer what the manifest records), a schema that
 *     describes another executable, a manifest whose program hash no longer matches its schema:
 *     refused before regeneration starts, naming the file(s) and "schema hash mismatch";
 *   - no partial output file is left behind by -o (nor any temporary file beside it);
 * and an untouched copy still verifies and replays; -o onto a FIFO (like /dev/null, not a regular
 * file) writes through it and leaves it in place.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, emu } from './replay/support/cli.js';
import { toolsAvailable } from '../support/tools.js';
import { SMALL, traceImage } from './support/bundle.js';

const work = mkdtempSync(join(tmpdir(), 'emu-bad-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Manifest {
  programs: { path: string; schema: string; instrumented: { sha256: string } }[];
}

/** The events the untouched bundle verifies (set by the first test). */
let verified = 0;
let good = '';

/** A copy of the good bundle, damaged by `fn`; returns its directory. */
function damaged(name: string, fn: (dir: string) => void): string {
  const dir = join(work, name);
  cpSync(good, dir, { recursive: true });
  fn(dir);
  return dir;
}

function truncate(file: string): number {
  const b = readFileSync(file);
  writeFileSync(file, b.subarray(0, b.length >> 1));
  return b.length >> 1;
}

/** Runs regen --verify -o and replay on a bundle; both must fail; returns their messages. */
function refused(dir: string): { regen: string; replay: string } {
  const out = join(work, `${dir.slice(dir.lastIndexOf('/') + 1)}.out`);
  const before = readdirSync(work);
  const r = emu(['regen', dir, '--verify', '-o', out]);
  expect(r.status, r.stderr).not.toBe(0);
  expect(r.stderr).toMatch(/^emu: /m);
  expect(existsSync(out), 'no partial output').toBe(false);
  expect(readdirSync(work), 'no temporary file left').toEqual(before);
  const p = emu(['replay', dir]);
  expect(p.status, p.stderr).not.toBe(0);
  expect(p.stderr).toMatch(/^emu: /m);
  return { regen: r.stderr, replay: p.stderr };
}

/** The event index of a message: present, after some events, before the end of the run. */
function eventIndex(msg: string): number {
  const m = /\(event (\d+), pid -?\d+\)/.exec(msg) ?? /\(event (\d+)\)/.exec(msg);
  expect(m, msg).not.toBeNull();
  const n = Number(m![1]);
  expect(n).toBeGreaterThan(0);
  expect(n).toBeLessThan(verified);
  return n;
}

describe.skipIf(!toolsAvailable() || !BUILT)('damaged trace bundles on the command line', () => {
  beforeAll(async () => {
    const t = await traceImage('pipeline-mipsel', { command: SMALL['pipeline']!, keep: true });
    expect(t.run.exitCode).toBe(0);
    good = join(work, 'good');
    cpSync(join(t.dir, 'bundle'), good, { recursive: true });
    rmSync(t.dir, { recursive: true, force: true });
  }, 300_000);

  it('an untouched copy verifies and replays', () => {
    const dir = damaged('untouched', () => {});
    const out = join(work, 'untouched.out');
    const r = emu(['regen', dir, '--verify', '-o', out]);
    expect(r.status, r.stderr).toBe(0);
    const m = /verified (\d+) events of 3 traced processes/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    verified = Number(m![1]);
    expect(verified).toBeGreaterThan(100_000);
    // The output is the whole regenerated trace: its END record counts every event.
    expect(readdirSync(work).filter((f) => f.includes('.partial'))).toEqual([]);
    const bytes = readFileSync(out);
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('EMUTRUTH');
    const p = emu(['replay', dir, '--json']);
    expect(p.status, p.stderr).toBe(0);
    expect((JSON.parse(p.stdout) as { events: number }).events).toBe(verified);
  }, 120_000);

  it('-o onto a FIFO writes through it and leaves it a FIFO (a rename would replace /dev/null)', async () => {
    const fifo = join(work, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('sh', ['-c', `wc -c < '${fifo}'`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let got = '';
    reader.stdout.on('data', (d: Buffer) => void (got += d.toString()));
    const done = new Promise<number | null>((res) => reader.on('close', res));
    const r = emu(['regen', good, '-o', fifo]);
    const still = statSync(fifo).isFIFO();
    if (!still) reader.kill(); // replaced by a plain file: the reader would wait for ever
    expect(still).toBe(true);
    expect(r.status, r.stderr).toBe(0);
    expect(await done).toBe(0);
    expect(Number(got.trim())).toBe(statSync(join(work, 'untouched.out')).size);
    expect(readdirSync(work).filter((f) => f.includes('.partial'))).toEqual([]);
  }, 120_000);

  it('a flipped byte in the ground truth: regen --verify and replay --truth name the truth file and its block, not regeneration', () => {
    const dir = damaged('truth-flip', (d) => {
      const f = join(d, 'truth');
      const b = readFileSync(f);
      b[b.length >> 1]! ^= 0x10;
      writeFileSync(f, b);
    });
    const out = join(work, 'truth-flip.out');
    const r = emu(['regen', dir, '--verify', '-o', out]);
    expect(r.status, r.stderr).not.toBe(0);
    expect(existsSync(out), 'no partial output').toBe(false);
    const p = emu(['replay', dir, '--truth']);
    expect(p.status, p.stderr).not.toBe(0);
    for (const msg of [r.stderr, p.stderr]) {
      expect(msg).toMatch(new RegExp(`${join(dir, 'truth')}: damaged: block \\d+ \\(bytes \\d+-\\d+\\) does not match its CRC-32 in the manifest`));
      expect(msg).not.toMatch(/divergence/);
    }
  }, 120_000);

  it('a truncated trace: the trace file, "truncated", the event index', () => {
    const dir = damaged('trace-cut', (d) => truncate(join(d, 'trace')));
    const { regen, replay } = refused(dir);
    for (const msg of [regen, replay]) {
      expect(msg).toContain(join(dir, 'trace'));
      expect(msg).toMatch(/truncated: \d+ of the \d+ bytes the manifest lists/);
      eventIndex(msg);
    }
  }, 120_000);

  it('a truncated schedule: the schedule file, "truncated", the event index', () => {
    const dir = damaged('sched-cut', (d) => truncate(join(d, 'sched')));
    const { regen, replay } = refused(dir);
    for (const msg of [regen, replay]) {
      expect(msg).toContain(join(dir, 'sched'));
      expect(msg).toMatch(/truncated/);
      eventIndex(msg);
    }
  }, 120_000);

  it('a flipped byte in the middle of the trace: the file, the damaged bytes, the event index', () => {
    let at = 0;
    const dir = damaged('trace-flip', (d) => {
      const f = join(d, 'trace');
      const b = readFileSync(f);
      at = b.length >> 1;
      b[at] ^= 0x5a;
      writeFileSync(f, b);
    });
    const { regen, replay } = refused(dir);
    for (const msg of [regen, replay]) {
      expect(msg).toContain(join(dir, 'trace'));
      const m = /bytes (\d+)-(\d+) are damaged/.exec(msg);
      expect(m, msg).not.toBeNull();
      expect(Number(m![1])).toBeLessThanOrEqual(at);
      expect(Number(m![2])).toBeGreaterThanOrEqual(at);
      eventIndex(msg);
    }
  }, 120_000);

  it('a flipped byte in the schedule: the file, the damaged bytes, regeneration refused where it would start', () => {
    let size = 0;
    const dir = damaged('sched-flip', (d) => {
      const f = join(d, 'sched');
      const b = readFileSync(f);
      size = b.length;
      b[b.length >> 1] ^= 0x5a;
      writeFileSync(f, b);
    });
    // The small run's schedule is one checksum block: nothing before the damage is readable.
    expect(size).toBeLessThan(65536);
    const { regen, replay } = refused(dir);
    for (const msg of [regen, replay]) {
      expect(msg).toContain(join(dir, 'sched'));
      expect(msg).toMatch(/bytes 0-\d+ are damaged \(checksum of block 0 differs from the manifest\)/);
      expect(msg).toContain('(event 0)');
    }
  }, 120_000);

  it('schema hash mismatches: the schema (and manifest) named, nothing regenerated', () => {
    const m0 = JSON.parse(readFileSync(join(good, 'manifest.json'), 'utf8')) as Manifest;
    const prog = m0.programs[0]!;
    // The schema rewritten (same content, another encoding): its hash is not the manifest's.
    const edited = damaged('schema-edit', (d) => {
      const f = join(d, prog.schema);
      writeFileSync(f, gzipSync(Buffer.from(`${gunzipSync(readFileSync(f)).toString('utf8')}\n`)));
    });
    // The schema claims another instrumented executable.
    const other = damaged('schema-other', (d) => {
      const f = join(d, prog.schema);
      const j = JSON.parse(gunzipSync(readFileSync(f)).toString('utf8')) as { instrumented: { sha256: string } };
      j.instrumented.sha256 = j.instrumented.sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      writeFileSync(f, gzipSync(Buffer.from(JSON.stringify(j))));
    });
    // The manifest's program hash edited: its schema no longer matches.
    const manifest = damaged('manifest-hash', (d) => {
      const f = join(d, 'manifest.json');
      const m = JSON.parse(readFileSync(f, 'utf8')) as Manifest;
      const h = m.programs[0]!.instrumented;
      h.sha256 = h.sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      writeFileSync(f, JSON.stringify(m, null, 1));
    });
    for (const dir of [edited, other, manifest]) {
      const { regen, replay } = refused(dir);
      for (const msg of [regen, replay]) {
        expect(msg).toContain(join(dir, prog.schema));
        expect(msg).toContain('schema hash mismatch');
        expect(msg).not.toMatch(/\(event \d+/);
        if (dir === manifest) expect(msg).toContain(join(dir, 'manifest.json'));
      }
    }
  }, 120_000);
});
