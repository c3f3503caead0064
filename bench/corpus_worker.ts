/**
 * Runs corpus programs on emu in-process: a few long-lived worker processes (one per core), each
 * booting a fresh machine per program through the kernel's run API (os/run.ts, by way of
 * bin/harness.ts), which is what `emu run PROG` does, without a process start-up per program. A
 * worker that exceeds the wall limit is killed and replaced; the program is reported as an error
 * of the harness.
 *
 * Parent side: `EmuPool`. Worker side: this file run as a child process (`fork`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runExecutable } from '../bin/harness.js';
import { ROOT_DIR, pool } from '../images/build.js';

/** The compiled tree the workers run (also when the harness itself runs from TypeScript, as in vitest). */
export const DIST_DIR = join(ROOT_DIR, 'dist');
const WORKER = join(DIST_DIR, 'bench', 'corpus_worker.js');

export interface EmuRequest {
  id: number;
  exe: string;
  maxInstructions: number;
}

export interface EmuReply {
  id: number;
  exitCode?: number;
  message?: string;
  insns?: number;
  stdout?: string;
  stderr?: string;
  /** A host exception: an emulator bug, never a guest's fault. */
  error?: string;
}

/** Runs one program as the only process, in /tmp, with empty standard input (bin/harness.ts). */
export function runOne(req: EmuRequest): EmuReply {
  try {
    const r = runExecutable(req.exe, { maxInstructions: req.maxInstructions });
    return {
      id: req.id, exitCode: r.exitCode, message: r.message, insns: r.insns,
      stdout: r.stdout.toString('latin1'), stderr: r.stderr.toString('latin1'),
    };
  } catch (e) {
    return { id: req.id, error: (e as Error).stack ?? String(e) };
  }
}

interface Worker {
  proc: ChildProcess;
  busy: boolean;
}

/** A pool of worker processes; `run` takes a slot of the build driver's pool (one per core). */
export class EmuPool {
  private workers: Worker[] = [];
  private waiting = new Map<number, { resolve: (r: EmuReply) => void; timer: NodeJS.Timeout; worker: Worker }>();
  /** Runs waiting for a worker: the build driver's pool may run more at once than `size`. */
  private queue: (() => void)[] = [];
  private seq = 0;

  constructor(private readonly size: number, private readonly wallLimitMs: number) {}

  private spawnWorker(): Worker {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run npm run build`);
    const proc = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    const w: Worker = { proc, busy: false };
    proc.on('message', (m: EmuReply) => {
      const p = this.waiting.get(m.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.waiting.delete(m.id);
      w.busy = false;
      this.wake();
      p.resolve(m);
    });
    proc.on('exit', (code, signal) => {
      this.workers = this.workers.filter((x) => x !== w);
      for (const [id, p] of this.waiting) {
        if (p.worker !== w) continue;
        clearTimeout(p.timer);
        this.waiting.delete(id);
        p.resolve({ id, error: `emu worker exited (${signal ?? `status ${code}`})` });
      }
      this.wake();
    });
    this.workers.push(w);
    return w;
  }

  private wake(): void {
    this.queue.shift()?.();
  }

  /** An idle worker, marked busy before it is handed out; waits while all `size` are busy. */
  private async idle(): Promise<Worker> {
    for (;;) {
      const w = this.workers.find((x) => !x.busy) ?? (this.workers.length < this.size ? this.spawnWorker() : undefined);
      if (w) {
        w.busy = true;
        return w;
      }
      await new Promise<void>((r) => this.queue.push(r));
    }
  }

  run(exe: string, maxInstructions: number): Promise<EmuReply> {
    return pool.run(async () => {
      const w = await this.idle();
      return new Promise<EmuReply>((resolve) => {
        const id = ++this.seq;
        const timer = setTimeout(() => {
          this.waiting.delete(id);
          this.workers = this.workers.filter((x) => x !== w);
          w.proc.kill('SIGKILL');
          this.wake();
          resolve({ id, error: `no result within ${this.wallLimitMs / 1000} s of wall time (worker killed)` });
        }, this.wallLimitMs);
        this.waiting.set(id, { resolve, timer, worker: w });
        w.proc.send({ id, exe, maxInstructions } satisfies EmuRequest);
      });
    });
  }

  close(): void {
    for (const w of this.workers) w.proc.kill();
    this.workers = [];
  }
}

// Worker side: answer requests until the parent goes away.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  process.on('message', (req: EmuRequest) => process.send!(runOne(req)));
  process.on('disconnect', () => process.exit(0));
}
