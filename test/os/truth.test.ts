/**
 * The ground-truth formats (format/truth.ts, docs/kernel.md section 10): the binary writer and reader
 * round-trip any event sequence; damaged files are rejected with the byte offset; on a real run
 * the fetch events equal the retired user instructions, and the text and din formats carry the
 * same events.
 */
import { describe, expect, it } from 'vitest';
import { Prng } from '../../format/prng.js';
import { BATCH_FETCH, BATCH_FETCH_RUN, BATCH_LOAD, BATCH_STORE, BinTruthWriter, type TruthRecord, readTruth, TruthFormatError } from '../../format/truth.js';
import { MemorySink } from '../../format/sink.js';
import { buildAll } from '../../images/make.js';
import { toolsAvailable } from '../support/tools.js';
import { runExecutable } from '../../bin/harness.js';

type Ev = TruthRecord;

/** A random event sequence with the shapes programs produce (sequential runs, jumps, data). */
function randomEvents(seed: number, n: number): Ev[] {
  const r = new Prng(seed);
  const out: Ev[] = [];
  const pcs = new Map<number, number>();
  let pid = 1;
  out.push({ kind: 'switch', pid, cycles: 0 });
  let pc = 0x400000;
  for (let i = 0; i < n; i++) {
    const x = r.u32() % 100;
    if (x < 60) {
      const run = 1 + (r.u32() % 300);
      for (let k = 0; k < run; k++) {
        out.push({ kind: 'I', pid, addr: pc, size: 4 });
        pc = (pc + 4) >>> 0;
      }
    } else if (x < 70) {
      pc = (r.u32() & ~3) >>> 0;
      out.push({ kind: 'I', pid, addr: pc, size: 4 });
      pc = (pc + 4) >>> 0;
    } else if (x < 90) {
      const sizes = [1, 2, 4, 8, 3];
      out.push({ kind: r.u32() & 1 ? 'L' : 'S', pid, addr: r.u32() >>> 0, size: sizes[r.u32() % 5]! });
    } else if (x < 96) {
      pcs.set(pid, pc);
      pid = 1 + (r.u32() % 5);
      pc = pcs.get(pid) ?? 0x400000;
      out.push({ kind: 'switch', pid, cycles: r.u32() % 100000 });
    } else if (x < 97) {
      out.push({ kind: 'fork', parent: pid, child: 6 + (r.u32() % 10) });
    } else if (x < 98) {
      out.push({ kind: 'exec', pid, path: '/bin/prog' });
    } else {
      out.push({ kind: 'exit', pid: 6 + (r.u32() % 10), status: r.u32() % 256 });
    }
  }
  return out;
}

/**
 * The bytes of the events; `runs`: consecutive fetches go through ifetchRun, in pieces of 1-300;
 * `batches`: fetches, loads and stores go through batch, in batches of 1-40 entries whose runs
 * hold 0-255 fetches (a batch entry's size is a byte).
 */
function write(events: Ev[], runs = false, batches = false): Uint8Array {
  const sink = new MemorySink();
  const w = new BinTruthWriter(sink, 'mipsel');
  let now = 0;
  const kind = new Uint8Array(64);
  const addr = new Uint32Array(64);
  const size = new Uint8Array(64);
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (batches && (e.kind === 'I' || e.kind === 'L' || e.kind === 'S')) {
      let n = 0;
      const most = 1 + (i % 40);
      for (let x = events[i]; n < most && x && (x.kind === 'I' || x.kind === 'L' || x.kind === 'S'); x = events[i]) {
        addr[n] = x.addr;
        if (x.kind !== 'I') {
          kind[n] = x.kind === 'L' ? BATCH_LOAD : BATCH_STORE;
          size[n] = x.size;
          i++;
        } else {
          if (i % 7 === 0 && n + 1 < most) {
            // A run of no fetches, anywhere: it writes nothing.
            kind[n] = BATCH_FETCH_RUN;
            size[n] = 0;
            addr[n++] = 0x1234;
            addr[n] = x.addr;
          }
          // A single fetch or a run.
          let m = 1;
          for (let y = events[i + m]; m < (i % 256) && y?.kind === 'I' && y.addr === (x.addr + 4 * m) >>> 0; y = events[i + m]) m++;
          if (n % 2 === 0 && m === 1) kind[n] = BATCH_FETCH;
          else {
            kind[n] = BATCH_FETCH_RUN;
            size[n] = m;
          }
          i += m;
        }
        n++;
      }
      w.batch(n, kind, addr, size);
      i--;
      continue;
    }
    if (runs && e.kind === 'I') {
      let n = 1;
      for (let x = events[i + n]; n < 1 + (i % 300) && x?.kind === 'I' && x.addr === (e.addr + 4 * n) >>> 0; x = events[i + n]) n++;
      w.ifetchRun(e.addr, n);
      i += n - 1;
      continue;
    }
    switch (e.kind) {
      case 'I': w.ifetch(e.addr); break;
      case 'L': w.load(e.addr, e.size); break;
      case 'S': w.store(e.addr, e.size); break;
      case 'switch': now += e.cycles; w.switchTo(e.pid, now); break;
      case 'fork': w.fork(e.parent, e.child); break;
      case 'exec': w.exec(e.pid, e.path); break;
      case 'exit': w.exit(e.pid, e.status); break;
    }
  }
  w.finish();
  expect(sink.closed).toBe(true);
  return sink.bytes();
}

function read(bytes: Uint8Array): Ev[] {
  const out: Ev[] = [];
  readTruth(bytes, 'test', (r) => out.push(r));
  return out;
}

describe('binary ground truth', () => {
  for (const seed of [1, 2, 3]) {
    it(`round-trips a random event sequence (seed ${seed})`, () => {
      const ev = randomEvents(seed, 5000);
      const got = read(write(ev));
      // Fetch, load and store events carry the pid of the last switch; the reader reproduces them.
      expect(got).toEqual(ev);
    });
  }

  it('ifetchRun writes the bytes of as many ifetch calls', () => {
    for (const seed of [5, 6]) {
      const ev = randomEvents(seed, 5000);
      expect(write(ev, true)).toEqual(write(ev));
    }
  });

  it('batch writes the bytes of the calls one by one', () => {
    for (const seed of [7, 8]) {
      const ev = randomEvents(seed, 5000);
      expect(write(ev, false, true)).toEqual(write(ev));
    }
  });

  it('rejects damaged files, naming the byte offset', () => {
    const b = write(randomEvents(4, 2000));
    expect(() => read(b.subarray(0, b.length - 3))).toThrow(TruthFormatError);
    expect(() => read(b.subarray(0, b.length - 3))).toThrow(/byte \d+ \(event \d+\): (truncated|the end record counts)/);
    const bad = new Uint8Array(b);
    bad[0] = 0x41;
    expect(() => read(bad)).toThrow(/not a ground-truth file/);
    const tag = new Uint8Array(b);
    // The first record after the header is the initial switch; make its tag invalid.
    tag[16] = 0xa0;
    expect(() => read(tag)).toThrow(/byte 16 \(event 0\): bad record tag 0xa0/);
  });

  it('is compact: about a byte per sequential instruction fetch', () => {
    const ev: Ev[] = [{ kind: 'switch', pid: 1, cycles: 0 }];
    for (let i = 0; i < 100000; i++) ev.push({ kind: 'I', pid: 1, addr: 0x400000 + 4 * i, size: 4 });
    expect(write(ev).length).toBeLessThan(100000 / 128 + 64);
  });
});

describe.skipIf(!toolsAvailable())('ground truth of a run', () => {
  it('has one fetch per retired user instruction, in every format', async () => {
    const built = await buildAll({ flavours: ['bsd'], targets: ['mipsel', 'sparc'], programs: ['ktest-io', 'sh', 'echo', 'cat', 'wc'], native: false });
    for (const target of ['mipsel', 'sparc'] as const) {
      const bin = built.executables.get(`bsd-${target}`)!;
      const r = runExecutable(bin.get('ktest-io')!, { args: ['files', 'share'], bin, truth: 'bin' });
      expect(r.exitCode).toBe(0);
      const counts = { I: 0, L: 0, S: 0, switch: 0 };
      const pids = new Set<number>();
      const { arch, events } = readTruth(r.truth!, 'run', (e) => {
        if (e.kind === 'I' || e.kind === 'L' || e.kind === 'S') {
          counts[e.kind]++;
          pids.add(e.pid);
        } else if (e.kind === 'switch') {
          counts.switch++;
        }
      });
      expect(arch).toBe(target);
      expect(counts.I).toBe(r.result.kernel.insns);
      expect(events).toBe(counts.I + counts.L + counts.S);
      expect(counts.L).toBeGreaterThan(0);
      expect(counts.S).toBeGreaterThan(0);
      // Every process that ran user code appears, and the switch records match the kernel's count.
      expect([...pids].sort((a, b) => a - b)).toEqual(r.result.stats.processes.filter((p) => p.instructions > 0).map((p) => p.pid));
      expect(counts.switch).toBe(r.result.kernel.nswitch);
      const text = runExecutable(bin.get('ktest-io')!, { args: ['files', 'share'], bin, truth: 'text' });
      const lines = Buffer.from(text.truth!).toString('latin1').trimEnd().split('\n');
      expect(lines.filter((l) => / [ILS] [0-9a-f]{8} \d+$/.test(l)).length).toBe(events);
      expect(lines.at(-1)).toBe(`end ${events}`);
      const din = runExecutable(bin.get('ktest-io')!, { args: ['files', 'share'], bin, truth: 'din' });
      const dl = Buffer.from(din.truth!).toString('latin1').trimEnd().split('\n');
      expect(dl.length).toBe(events);
      expect(dl.every((l) => /^[012] [0-9a-f]+$/.test(l))).toBe(true);
      expect(dl.filter((l) => l.startsWith('2 ')).length).toBe(counts.I);
      expect(dl.filter((l) => l.startsWith('0 ')).length).toBe(counts.L);
      expect(dl.filter((l) => l.startsWith('1 ')).length).toBe(counts.S);
    }
  }, 600_000);
});

