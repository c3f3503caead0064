/**
 * The machine-independent kernel on the scripted machine (support/scriptmd.ts): processes,
 * scheduling, virtual time, signals, pipes, files, VM. Every expectation is derived from the
 * scenario (pids, statuses, byte counts), not recorded from a run.
 */
import { describe, expect, it } from 'vitest';
import { EAGAIN, ECHILD, EINTR, ENOEXEC, ENOMEM, ENOSPC, EPIPE } from '../../os/errno.js';
import { SIGKILL, SIGSEGV, SIGTERM, SIGUSR1, W_EXITCODE, WCOREFLAG, WNOHANG } from '../../os/signal.js';
import { VmObject } from '../../os/vm/vm_object.js';
import { bootScript } from './support/boot.js';
import { type ScriptCtx, TEST_BSS, compute, fork, load, store, sys } from './support/scriptmd.js';

const O_RDONLY = 0;
const O_WRONLY = 1;
const O_RDWR = 2;
const O_CREAT = 0x200;
const O_TRUNC = 0x400;

describe('processes', () => {
  it('init writes to the console and its exit status ends the run', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c: ScriptCtx) {
          const buf = c.md.putStr(c.scratch, 'hello from init\n');
          const r = yield* sys('write', 1, buf, 16);
          expect(r).toEqual({ error: 0, rv0: 16, rv1: 0 });
          yield* sys('exit', 3);
        },
      },
    });
    m.run();
    expect(m.output()).toBe('hello from init\n');
    expect(m.k.haltReason).toBe('init exited');
    expect(m.k.exitStatus).toBe(W_EXITCODE(3, 0));
  });

  it('exec passes argv and envp through the new stack', () => {
    let seen: string[] = [];
    let env: string[] = [];
    const m = bootScript({
      init: ['/sbin/init', 'a', 'bc'],
      programs: {
        '/sbin/init': function* (c) {
          seen = c.argv;
          env = c.envp;
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(seen).toEqual(['/sbin/init', 'a', 'bc']);
    expect(env).toEqual(['PATH=/bin']);
  });

  it('fork, exit and wait4: pids, statuses, ECHILD, rv1 marks the child', () => {
    const events: string[] = [];
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const kids: number[] = [];
          for (let i = 0; i < 3; i++) {
            const r = yield* fork(function* (cc) {
              events.push(`child ${cc.pid}`);
              yield* compute(1000 * (i + 1));
              yield* sys('exit', 10 + i);
            });
            expect(r.error).toBe(0);
            expect(r.rv1).toBe(0);
            kids.push(r.rv0);
          }
          const st = c.scratch;
          const got: [number, number][] = [];
          for (let i = 0; i < 3; i++) {
            const r = yield* sys('wait4', -1, st, 0, 0);
            expect(r.error).toBe(0);
            got.push([r.rv0, c.md.getWord(st)]);
          }
          expect(got.map((g) => g[0]).sort()).toEqual([...kids].sort());
          for (const [pid, status] of got) expect(status).toBe(W_EXITCODE(10 + kids.indexOf(pid), 0));
          expect((yield* sys('wait4', -1, 0, 0, 0)).error).toBe(ECHILD);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
    expect(events).toHaveLength(3);
  });

  it('the child of fork sees rv1 = 1 and its parent pid', () => {
    let childView: [number, number] = [0, 0];
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          yield* fork(function* (cc) {
            const r = yield* sys('getppid');
            childView = [r.rv0, cc.pid];
            yield* sys('exit', 0);
          });
          yield* sys('wait4', -1, 0, 0, 0);
          yield* sys('exit', c.pid);
        },
      },
    });
    m.run();
    expect(childView[0]).toBe(1);
    expect(childView[1]).toBe(2);
  });

  it('orphans are reparented to init, which reaps the zombie', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const r = yield* fork(function* () {
            yield* fork(function* () {
              yield* compute(50_000);
              const pp = yield* sys('getppid');
              yield* sys('exit', pp.rv0); // 1 after reparenting
            });
            yield* sys('exit', 0);
          });
          const st = c.scratch;
          const a = yield* sys('wait4', -1, st, 0, 0);
          expect(a.rv0).toBe(r.rv0);
          const b = yield* sys('wait4', -1, st, 0, 0);
          expect(b.error).toBe(0);
          expect(c.md.getWord(st)).toBe(W_EXITCODE(1, 0));
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });

  it('fork beyond maxproc fails with EAGAIN and the machine stays responsive', () => {
    const maxproc = 8;
    const m = bootScript({
      maxproc,
      programs: {
        '/sbin/init': function* () {
          let made = 0;
          for (;;) {
            const r = yield* fork(function* () {
              yield* sys('nanosleep', 0); // EFAULT, then sleep via pause
              yield* compute(10_000);
              yield* sys('exit', 0);
            });
            if (r.error) {
              expect(r.error).toBe(EAGAIN);
              break;
            }
            made++;
          }
          expect(made).toBe(maxproc - 1);
          for (let i = 0; i < made; i++) expect((yield* sys('wait4', -1, 0, 0, 0)).error).toBe(0);
          const again = yield* fork(function* () {
            yield* sys('exit', 5);
          });
          expect(again.error).toBe(0);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });
});

describe('exec', () => {
  it('ENOEXEC for a file that is not an executable; the caller continues', () => {
    const m = bootScript({
      files: { '/bin/script': 'echo hi\n' },
      programs: {
        '/sbin/init': function* (c) {
          const path = c.md.putStr(c.scratch, '/bin/script');
          const argv = c.scratch + 64;
          c.md.putBytes(argv, new Uint8Array(8));
          c.k.vfs.namei(c.k.vfs.root, '/bin/script', 0).vp!.mode |= 0o111;
          const r = yield* sys('execve', path, argv, 0);
          expect(r.error).toBe(ENOEXEC);
          yield* sys('exit', 9);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(W_EXITCODE(9, 0));
  });

  it('replaces the image: the new program runs in the same process', () => {
    let newPid = 0;
    let args: string[] = [];
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const r = yield* fork(function* (cc) {
            const path = cc.md.putStr(cc.scratch, '/bin/two');
            const s1 = cc.md.putStr(cc.scratch + 32, 'two');
            const s2 = cc.md.putStr(cc.scratch + 48, 'x y');
            const argv = cc.scratch + 96;
            const b = new Uint8Array(12);
            new DataView(b.buffer).setUint32(0, s1, true);
            new DataView(b.buffer).setUint32(4, s2, true);
            cc.md.putBytes(argv, b);
            yield* sys('execve', path, argv, 0);
            throw new Error('exec returned');
          });
          const st = c.scratch;
          yield* sys('wait4', r.rv0, st, 0, 0);
          expect(c.md.getWord(st)).toBe(W_EXITCODE(42, 0));
          newPid = r.rv0;
          yield* sys('exit', 0);
        },
        '/bin/two': function* (c) {
          args = c.argv;
          expect(c.pid).toBe(newPid || c.pid);
          yield* sys('exit', 42);
        },
      },
    });
    m.run();
    expect(args).toEqual(['two', 'x y']);
    expect(m.k.exitStatus).toBe(0);
  });
});

describe('virtual memory', () => {
  it('copy-on-write: parent and child write the same page and each sees its own', () => {
    const a = TEST_BSS + 8192;
    const m = bootScript({
      programs: {
        '/sbin/init': function* () {
          yield* store(a, 111);
          const r = yield* fork(function* () {
            expect(yield* load(a)).toBe(111);
            yield* store(a, 222);
            expect(yield* load(a)).toBe(222);
            yield* sys('exit', 0);
          });
          yield* compute(10);
          yield* store(a, 333);
          yield* sys('wait4', r.rv0, 0, 0, 0);
          expect(yield* load(a)).toBe(333);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });

  it('device memory mapped shared (the trace buffer) is shared by fork, not copied', () => {
    const base = 0x20000000 - 8192;
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const vs = c.k.curproc!.p_vmspace!;
          const obj = VmObject.create(c.k.pages, 'trbuf', null, 8192)!;
          obj.reference();
          // Inside the reserved trace-buffer range, which ordinary mappings may not enter.
          expect(vs.isFree(base, base + 8192)).toBe(false);
          expect(vs.mapShared(base, base + 8192, obj, 0, 3)).not.toBeNull();
          yield* store(base + 4100, 5);
          const r = yield* fork(function* () {
            expect(yield* load(base + 4100)).toBe(5);
            yield* store(base + 4100, 6);
            yield* sys('exit', 0);
          });
          yield* sys('wait4', r.rv0, 0, 0, 0);
          expect(yield* load(base + 4100)).toBe(6);
          // The guard page above stays unmapped.
          const g = yield* fork(function* () {
            yield* store(0x20000000, 1);
          });
          yield* sys('wait4', g.rv0, c.scratch, 0, 0);
          expect(c.md.getWord(c.scratch)).toBe(SIGSEGV | WCOREFLAG);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });

  it('data comes from the file, bss is zero, and text is shared between processes', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* () {
          expect((yield* load(TEST_BSS - 16)) >>> 0).toBe(0xd0d0d0d0);
          expect((yield* load(TEST_BSS - 4)) >>> 0).toBe(0xd0d0d0dc);
          expect(yield* load(TEST_BSS)).toBe(0);
          expect(yield* load(0x00400000)).toBe(1);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });

  it('a store to text or an unmapped address kills with SIGSEGV (core flag)', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const st = c.scratch;
          for (const va of [0x00400010, 0x30000000, 0]) {
            const r = yield* fork(function* () {
              yield* store(va, 1);
              yield* sys('exit', 0);
            });
            yield* sys('wait4', r.rv0, st, 0, 0);
            expect(c.md.getWord(st)).toBe(SIGSEGV | WCOREFLAG);
          }
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });

  it('break grows the heap, fails with ENOMEM past memory, and the stack grows on faults', () => {
    const m = bootScript({
      memory: 4 * 1024 * 1024,
      programs: {
        '/sbin/init': function* () {
          const end = TEST_BSS + 256 * 1024;
          expect((yield* sys('break', end + 100_000)).error).toBe(0);
          yield* store(end + 99_996, 7);
          expect(yield* load(end + 99_996)).toBe(7);
          expect((yield* sys('break', end + 64 * 1024 * 1024)).error).toBe(ENOMEM);
          expect(yield* load(end + 99_996)).toBe(7);
          // The stack below the initial page grows on a fault.
          yield* store(0x80000000 - 200_000, 5);
          expect(yield* load(0x80000000 - 200_000)).toBe(5);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });
});

describe('pipes', () => {
  it('transfers far more than the pipe buffer, then EOF', () => {
    const total = 200_000;
    let got = 0;
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const fds = c.scratch;
          const p = yield* sys('pipe');
          expect(p.error).toBe(0);
          const [rfd, wfd] = [p.rv0, p.rv1];
          const buf = c.scratch + 4096;
          yield* fork(function* (cc) {
            yield* sys('close', rfd);
            const b = new Uint8Array(3000);
            for (let i = 0; i < b.length; i++) b[i] = i & 0xff;
            cc.md.putBytes(buf, b);
            for (let sent = 0; sent < total; ) {
              const n = Math.min(3000, total - sent);
              const r = yield* sys('write', wfd, buf, n);
              expect(r).toEqual({ error: 0, rv0: n, rv1: 0 });
              sent += n;
            }
            yield* sys('exit', 0);
          });
          yield* sys('close', wfd);
          for (;;) {
            const r = yield* sys('read', rfd, buf, 7000);
            expect(r.error).toBe(0);
            if (r.rv0 === 0) break;
            got += r.rv0;
          }
          void fds;
          yield* sys('wait4', -1, 0, 0, 0);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(got).toBe(total);
  });

  it('writing to a pipe with no reader: SIGPIPE kills; ignored, EPIPE', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const st = c.scratch;
          const p = yield* sys('pipe');
          yield* sys('close', p.rv0);
          const r = yield* fork(function* () {
            yield* sys('write', p.rv1, st, 1);
            yield* sys('exit', 0);
          });
          yield* sys('wait4', r.rv0, st, 0, 0);
          expect(c.md.getWord(st)).toBe(13); // SIGPIPE
          const sa = c.scratch + 64;
          c.md.putBytes(sa, new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])); // SIG_IGN
          yield* sys('sigaction', 13, sa, 0, 0);
          expect((yield* sys('write', p.rv1, st, 1)).error).toBe(EPIPE);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });
});

describe('signals', () => {
  it('a handler runs and the interrupted computation resumes; kill with default action terminates', () => {
    const log: string[] = [];
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const H = 0x400100;
          c.md.handlers.set(H, function* (sig) {
            log.push(`handler ${sig}`);
            yield* compute(10);
          });
          const sa = c.scratch;
          const b = new Uint8Array(12);
          new DataView(b.buffer).setUint32(0, H, true);
          c.md.putBytes(sa, b);
          expect((yield* sys('sigaction', SIGUSR1, sa, 0, 0x400200)).error).toBe(0);
          yield* sys('kill', c.pid, SIGUSR1);
          log.push('after kill');
          const st = c.scratch + 64;
          const r = yield* fork(function* () {
            yield* compute(1e6);
            yield* sys('exit', 0);
          });
          yield* sys('kill', r.rv0, SIGTERM);
          yield* sys('wait4', r.rv0, st, 0, 0);
          expect(c.md.getWord(st)).toBe(SIGTERM);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(log).toEqual(['handler 30', 'after kill']);
    expect(m.k.exitStatus).toBe(0);
  });

  it('a signal interrupts a blocking read: EINTR without SA_RESTART, restarted with it', () => {
    const results: number[] = [];
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const H = 0x400100;
          c.md.handlers.set(H, function* () {
            yield* compute(1);
          });
          const p = yield* sys('pipe');
          for (const flags of [0, 2 /* SA_RESTART */]) {
            const b = new Uint8Array(12);
            const dv = new DataView(b.buffer);
            dv.setUint32(0, H, true);
            dv.setInt32(8, flags, true);
            c.md.putBytes(c.scratch, b);
            yield* sys('sigaction', SIGUSR1, c.scratch, 0, 0);
            const me = c.pid;
            const kid = yield* fork(function* (cc) {
              yield* compute(20_000);
              yield* sys('kill', me, SIGUSR1);
              yield* compute(20_000);
              cc.md.putStr(cc.scratch, 'z');
              yield* sys('write', p.rv1, cc.scratch, 1);
              yield* sys('exit', 0);
            });
            const r = yield* sys('read', p.rv0, c.scratch + 100, 10);
            results.push(r.error ? -r.error : r.rv0);
            yield* sys('wait4', kid.rv0, 0, 0, 0);
            if (r.error) yield* sys('read', p.rv0, c.scratch + 100, 10);
          }
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(results).toEqual([-EINTR, 1]);
  });

  it('SIGKILL ends a process sleeping in wait4; WNOHANG returns 0 for a live child', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const st = c.scratch;
          const r = yield* fork(function* () {
            yield* fork(function* () {
              yield* compute(1e7);
            });
            yield* sys('wait4', -1, 0, 0, 0);
            yield* sys('exit', 0);
          });
          yield* compute(50_000);
          expect(yield* sys('wait4', r.rv0, st, WNOHANG, 0)).toEqual({ error: 0, rv0: 0, rv1: 0 });
          yield* sys('kill', r.rv0, SIGKILL);
          yield* sys('wait4', r.rv0, st, 0, 0);
          expect(c.md.getWord(st)).toBe(SIGKILL);
          yield* sys('kill', -1, SIGKILL);
          yield* sys('wait4', -1, st, 0, 0);
          expect(c.md.getWord(st)).toBe(SIGKILL);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });
});

describe('files', () => {
  it('create, write, lseek, read back, rename, stat, unlink', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const path = c.md.putStr(c.scratch, '/tmp/f');
          const path2 = c.md.putStr(c.scratch + 16, '/tmp/g');
          const buf = c.scratch + 1024;
          const fd = (yield* sys('open', path, O_RDWR | O_CREAT | O_TRUNC, 0o644)).rv0;
          c.md.putBytes(buf, Buffer.from('0123456789'));
          expect((yield* sys('write', fd, buf, 10)).rv0).toBe(10);
          const off = yield* sys('lseek', fd, 0, 3, 0, 0);
          expect(off.rv0).toBe(3);
          const r = yield* sys('read', fd, buf + 100, 100);
          expect(r.rv0).toBe(7);
          expect(Buffer.from(c.md.getBytes(buf + 100, 7)).toString()).toBe('3456789');
          yield* sys('close', fd);
          expect((yield* sys('rename', path, path2)).error).toBe(0);
          expect((yield* sys('open', path, O_RDONLY, 0)).error).toBe(2);
          expect((yield* sys('stat', path2, buf)).error).toBe(0);
          expect(new DataView(c.md.getBytes(buf + 48, 8).buffer).getUint32(0, true)).toBe(10);
          expect((yield* sys('unlink', path2)).error).toBe(0);
          expect((yield* sys('stat', path2, buf)).error).toBe(2);
          const fd2 = (yield* sys('open', path2, O_WRONLY | O_CREAT, 0o600)).rv0;
          expect(fd2).toBe(fd);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });

  it('a full filesystem gives ENOSPC; removing a file gives the space back', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          c.k.vfs.space = c.k.vfs.used + 100_000;
          const path = c.md.putStr(c.scratch, '/tmp/big');
          const buf = c.scratch + 4096;
          const fd = (yield* sys('open', path, O_WRONLY | O_CREAT, 0o644)).rv0;
          expect((yield* sys('write', fd, buf, 60_000)).rv0).toBe(60_000);
          expect((yield* sys('write', fd, buf, 60_000)).error).toBe(ENOSPC);
          yield* sys('close', fd);
          yield* sys('unlink', path);
          const fd2 = (yield* sys('open', path, O_WRONLY | O_CREAT, 0o644)).rv0;
          expect((yield* sys('write', fd2, buf, 90_000)).rv0).toBe(90_000);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
  });

  it('reading an image file sleeps for the disk while another process runs', () => {
    const data = 'x'.repeat(100_000);
    let ranWhileAsleep = 0;
    let readerDone = false;
    const m = bootScript({
      files: { '/big': data },
      programs: {
        '/sbin/init': function* (c) {
          const path = c.md.putStr(c.scratch, '/big');
          yield* fork(function* () {
            while (!readerDone) {
              yield* compute(100);
              ranWhileAsleep++;
            }
            yield* sys('exit', 0);
          });
          const fd = (yield* sys('open', path, O_RDONLY, 0)).rv0;
          const t0 = c.k.clock.now;
          const r = yield* sys('read', fd, c.scratch + 4096, 100_000);
          expect(r.rv0).toBe(100_000);
          // latency 1 ms + 13 blocks of 8 KiB at 1 MB/s, at 1 MHz: at least 100 000 cycles.
          expect(c.k.clock.now - t0).toBeGreaterThan(100_000);
          readerDone = true;
          yield* sys('wait4', -1, 0, 0, 0);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(m.k.exitStatus).toBe(0);
    expect(ranWhileAsleep).toBeGreaterThan(100);
  });
});

describe('scheduler and virtual time', () => {
  it('nanosleep advances virtual time by at least the request; the idle loop jumps there', () => {
    let slept = 0;
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const ts = c.scratch;
          const b = new Uint8Array(8);
          new DataView(b.buffer).setInt32(0, 2, true);
          new DataView(b.buffer).setInt32(4, 500_000_000, true);
          c.md.putBytes(ts, b);
          const t0 = c.k.clock.now;
          expect((yield* sys('nanosleep', ts, 0)).error).toBe(0);
          slept = c.k.clock.now - t0;
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    expect(slept).toBeGreaterThanOrEqual(2_500_000);
    expect(slept).toBeLessThan(2_500_000 + 30_000);
    expect(m.k.idleCycles).toBeGreaterThan(2_400_000);
  });

  it('round robin: two CPU-bound processes share the CPU in quanta', () => {
    const trace: number[] = [];
    const m = bootScript({
      quantum: 5000,
      programs: {
        '/sbin/init': function* () {
          yield* fork(function* (cc) {
            for (let i = 0; i < 40; i++) {
              yield* compute(1000);
              trace.push(cc.pid);
            }
            yield* sys('exit', 0);
          });
          for (let i = 0; i < 40; i++) {
            yield* compute(1000);
            trace.push(1);
          }
          yield* sys('wait4', -1, 0, 0, 0);
          yield* sys('exit', 0);
        },
      },
    });
    m.run();
    let changes = 0;
    for (let i = 1; i < trace.length; i++) if (trace[i] !== trace[i - 1]) changes++;
    // 80 000 cycles of work in 5 000-cycle quanta: about 16 slices while both run.
    expect(changes).toBeGreaterThanOrEqual(8);
  });

  it('a process waiting on a pipe nobody writes: the machine reports the deadlock', () => {
    const m = bootScript({
      programs: {
        '/sbin/init': function* (c) {
          const p = yield* sys('pipe');
          yield* sys('read', p.rv0, c.scratch, 1);
        },
      },
    });
    m.run();
    expect(m.k.haltReason).toBe('deadlock');
    expect(m.k.haltMessage).toMatch(/pid 1 \(init\) SLEEP on piperd/);
  });

  it('the same scenario twice, and with the same seed, gives the same cycle counts', () => {
    const scenario = (seed: number | null): string => {
      const m = bootScript({
        seed,
        quantum: 700,
        programs: {
          '/sbin/init': function* (c) {
            const p = yield* sys('pipe');
            for (let k = 0; k < 3; k++) {
              yield* fork(function* (cc) {
                for (let i = 0; i < 20; i++) {
                  yield* compute(333 + k);
                  cc.md.putStr(cc.scratch, String.fromCharCode(97 + k));
                  yield* sys('write', p.rv1, cc.scratch, 1);
                }
                yield* sys('exit', 0);
              });
            }
            yield* sys('close', p.rv1);
            let s = '';
            for (;;) {
              const r = yield* sys('read', p.rv0, c.scratch, 10);
              if (r.rv0 === 0) break;
              s += Buffer.from(c.md.getBytes(c.scratch, r.rv0)).toString();
            }
            for (let k = 0; k < 3; k++) yield* sys('wait4', -1, 0, 0, 0);
            c.md.putStr(c.scratch, s);
            yield* sys('write', 1, c.scratch, s.length);
            yield* sys('exit', 0);
          },
        },
      });
      m.run();
      return `${m.output()} ${m.k.clock.now} ${m.k.history.map((p) => `${p.p_pid}:${p.stats.cycles}:${p.stats.switches}`).join(',')}`;
    };
    expect(scenario(null)).toBe(scenario(null));
    expect(scenario(7)).toBe(scenario(7));
    expect(scenario(7)).not.toBe(scenario(8));
  });
});
