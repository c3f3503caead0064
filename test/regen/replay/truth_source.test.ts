/**
 * The ground-truth replay source (regen/replay/truth_source.ts) against format/truth.ts's readTruth:
 * the same records in the same order (refs, switches with absolute cycles, fork, exec, exit),
 * across its 4 MiB read chunks; damaged files rejected naming the file, byte and event index.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Prng } from '../../../format/prng.js';
import { BinTruthWriter, readTruth } from '../../../format/truth.js';
import { MemorySink } from '../../../format/sink.js';
import { REF_KINDS } from '../../../regen/replay/consumer.js';
import { TruthSource } from '../../../regen/replay/truth_source.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-replay-src-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a random run; returns the file's bytes. Long data runs make files past one chunk. */
function randomTruth(seed: number, n: number, dataHeavy = false): Uint8Array {
  const r = new Prng(seed);
  const sink = new MemorySink();
  const w = new BinTruthWriter(sink, 'sparc');
  let now = 100;
  let pid = 1;
  w.switchTo(pid, now);
  w.exec(pid, '/sbin/init');
  const pcs = new Map<number, number>();
  let pc = 0x10000;
  const live = [1];
  let next = 2;
  for (let i = 0; i < n; i++) {
    const x = r.u32() % 100;
    if (x < (dataHeavy ? 1 : 50)) {
      const k = 1 + (r.u32() % (dataHeavy ? 20 : 300));
      for (let j = 0; j < k; j++, pc = (pc + 4) >>> 0) w.ifetch(pc);
    } else if (x < (dataHeavy ? 6 : 60)) {
      pc = (r.u32() & ~3) >>> 0;
      w.ifetch(pc);
      pc = (pc + 4) >>> 0;
    } else if (x < 94) {
      const size = [1, 2, 4, 8, 3, 16][r.u32() % 6]!;
      if (r.u32() & 1) w.load(r.u32(), size);
      else w.store(r.u32(), size);
    } else if (x < 97) {
      pcs.set(pid, pc);
      pid = live[r.u32() % live.length]!;
      pc = pcs.get(pid) ?? 0x10000;
      now += r.u32() % 100000;
      w.switchTo(pid, now);
    } else if (x < 98) {
      w.fork(pid, next);
      live.push(next++);
    } else if (x < 99) {
      w.exec(pid, `/bin/prog${r.u32() % 7}`);
    } else if (live.length > 1 && pid !== 1) {
      w.exit(pid, r.u32() % 256);
      live.splice(live.indexOf(pid), 1);
    }
  }
  w.finish();
  return sink.bytes();
}

function viaReadTruth(b: Uint8Array): string[] {
  const out: string[] = [];
  let cycle = 0;
  readTruth(b, 'x', (e) => {
    switch (e.kind) {
      case 'I': case 'L': case 'S': out.push(`${e.pid} ${e.kind} ${e.addr} ${e.size}`); break;
      case 'switch': cycle += e.cycles; out.push(`switch ${e.pid} ${cycle}`); break;
      case 'fork': out.push(`fork ${e.parent} ${e.child}`); break;
      case 'exec': out.push(`exec ${e.pid} ${e.path}`); break;
      case 'exit': out.push(`exit ${e.pid} ${e.status}`); break;
    }
  });
  return out;
}

/**
 * Runs the source; every record is compared with `exp` as it arrives (throwing at the first
 * difference, so big files need no second copy). Returns the records' count, the refs, `end`.
 */
function viaSource(file: string, exp: string[]): { records: number; events: number; ends: string[] } {
  let i = 0;
  const ends: string[] = [];
  let refs = 0;
  const check = (line: string): void => {
    if (exp[i] !== line) throw new Error(`record ${i}: expected ${exp[i]}, got ${line}`);
    i++;
  };
  const events = new TruthSource(file).run(
    {
      ref: (pid, kind, addr, size) => {
        refs++;
        check(`${pid} ${REF_KINDS[kind]} ${addr} ${size}`);
      },
    },
    {
      switchTo: (pid, cycle, n) => {
        // `events` counts the refs delivered before the switch.
        if (n !== refs) throw new Error(`switch after ${refs} refs reports ${n}`);
        check(`switch ${pid} ${cycle}`);
      },
      fork: (a, b) => check(`fork ${a} ${b}`),
      exec: (p, path) => check(`exec ${p} ${path}`),
      exit: (p, s) => check(`exit ${p} ${s}`),
      end: (c, n) => void ends.push(`${c} ${n}`),
    },
  );
  return { records: i, events, ends };
}

describe('TruthSource', () => {
  it('delivers exactly what os/truth.ts reads (small file)', () => {
    const b = randomTruth(11, 8000);
    const f = join(dir, 'small.bin');
    writeFileSync(f, b);
    const exp = viaReadTruth(b);
    const got = viaSource(f, exp);
    expect(got.records).toBe(exp.length);
    expect(got.events).toBe(exp.filter((l) => !/^[a-z]/.test(l)).length);
    expect(got.ends).toEqual([`NaN ${got.events}`]);
  });

  it('across read chunks (a file of several MiB)', () => {
    const b = randomTruth(12, 1_500_000, true);
    expect(b.length).toBeGreaterThan(8 << 20); // more than two 4 MiB chunks
    const f = join(dir, 'big.bin');
    writeFileSync(f, b);
    const exp = viaReadTruth(b);
    expect(viaSource(f, exp).records).toBe(exp.length);
  }, 60_000);

  it('rejects damaged files naming the file, the byte and the event', () => {
    const b = randomTruth(13, 5000);
    const f = join(dir, 'bad.bin');
    writeFileSync(f, b.subarray(0, b.length - 4));
    expect(() => viaSource(f, viaReadTruth(b))).toThrow(new RegExp(`^${f}: byte \\d+ \\(event \\d+\\): (truncated|the end record counts)`));
    const t = new Uint8Array(b);
    // The first record (the initial switch, 3 bytes: tag, pid 1, uleb 100) then the exec; break the exec's tag.
    t[19] = 0xa7;
    writeFileSync(f, t);
    expect(() => viaSource(f, viaReadTruth(b))).toThrow(`${f}: byte 19 (event 0): bad record tag 0xa7`);
    writeFileSync(f, Buffer.concat([b, Buffer.from([0])]));
    expect(() => viaSource(f, viaReadTruth(b))).toThrow(/data after the end record/);
    writeFileSync(f, Buffer.from('EMUTRUTX\x01\x01\0\0\0\0\0\0'));
    expect(() => new TruthSource(f)).toThrow(`${f}: byte 0: not a ground-truth file`);
    writeFileSync(f, Buffer.from('EMUTRUTH\x01\x09\0\0\0\0\0\0'));
    expect(() => new TruthSource(f)).toThrow(`${f}: byte 9: unknown architecture code 9`);
  });
});
