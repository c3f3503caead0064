/**
 * trbufmap(2) (os/sys_trbuf.ts) on the scripted machine: it leaves a process in the state that
 * open("/dev/trbuf"), ioctl(fd, BIOCMAP) and close(fd) leave it in — the same mapping of the
 * buffer, traced, the same START record, the same descriptors — with 0 in both result registers;
 * and a kernel without the trace buffer answers ENXIO and traces nothing, as opening the device
 * finds no /dev/trbuf there.
 */
import { describe, expect, it } from 'vitest';
import { ENOENT, ENXIO } from '../../os/errno.js';
import type { Kernel } from '../../os/kernel.js';
import { TRBUF_END } from '../../os/param.js';
import { MemoryTrbufSink, PRTRC_TRC, TrbufDevice } from '../../os/trbuf.js';
import { BIOCMAP, TRBUF_PATH } from '../../format/trbuf.js';
import type { Marker } from '../../format/sched.js';
import { bootScript } from './support/boot.js';
import { type ScriptCtx, sys } from './support/scriptmd.js';

const O_RDWR = 2;

/** What a process's mapping request leaves behind, read from the kernel at exit. */
interface After {
  result: { error: number; rv0: number; rv1: number };
  traced: boolean;
  /** The map entry covering the buffer: [start, end, protection], or null. */
  entry: [number, number, number] | null;
  /** The descriptor the next open returns. */
  nextFd: number;
  markers: Marker[];
}

function run(how: 'trbufmap' | 'device', attach: boolean): After {
  const sink = new MemoryTrbufSink();
  let after: Omit<After, 'markers'> | undefined;
  const m = bootScript({
    attach: attach ? (k: Kernel) => void TrbufDevice.attach(k, sink) : undefined,
    programs: {
      '/sbin/init': function* (c: ScriptCtx) {
        let result;
        if (how === 'trbufmap') {
          result = yield* sys('trbufmap');
        } else {
          const open = yield* sys('open', c.md.putStr(c.scratch, TRBUF_PATH), O_RDWR, 0);
          result = open;
          if (open.error === 0) {
            result = yield* sys('ioctl', open.rv0, BIOCMAP, 0);
            expect((yield* sys('close', open.rv0)).error).toBe(0);
          }
        }
        const p = c.k.curproc!;
        const e = p.p_vmspace!.lookup(TRBUF_END - c.k.trbufSize);
        const fd = yield* sys('open', c.md.putStr(c.scratch, '/sbin/init'), 0, 0);
        expect(fd.error).toBe(0);
        after = { result, traced: (p.p_trace_stat & PRTRC_TRC) !== 0, entry: e ? [e.start, e.end, e.prot] : null, nextFd: fd.rv0 };
        yield* sys('exit', 0);
      },
    },
  });
  m.run();
  expect(m.k.exitStatus).toBe(0);
  return { ...after!, markers: sink.markers };
}

describe('trbufmap', () => {
  it('leaves the process as open + BIOCMAP + close do, with 0 in both result registers', () => {
    const call = run('trbufmap', true);
    const dev = run('device', true);
    expect(call.result).toEqual({ error: 0, rv0: 0, rv1: 0 });
    expect(dev.result.error).toBe(0);
    expect(call.traced).toBe(true);
    expect(call.entry).not.toBeNull();
    expect(call.entry).toEqual(dev.entry);
    expect(call.entry![1]).toBe(TRBUF_END);
    // No descriptor left: the next open gets the lowest free one, as after close.
    expect(call.nextFd).toBe(dev.nextFd);
    // Traced from the return to user mode: START, then the exit; the instruction counts differ
    // by the two extra calls of the device's way.
    expect(call.markers.map((x) => [x.kind, x.pid])).toEqual(dev.markers.map((x) => [x.kind, x.pid]));
    expect(call.markers.map((x) => x.kind)).toEqual(['start', 'exit']);
  });

  it('fails with ENXIO without the trace buffer and traces nothing, where the device is not found', () => {
    const call = run('trbufmap', false);
    const dev = run('device', false);
    expect(call.result.error).toBe(ENXIO);
    expect(dev.result.error).toBe(ENOENT);
    for (const r of [call, dev]) {
      expect(r.traced).toBe(false);
      expect(r.entry).toBeNull();
      expect(r.markers).toEqual([]);
    }
    expect(call.nextFd).toBe(dev.nextFd);
  });
});
