/**
 * Runs one bare executable on the emulator the way the tracer's tests and benchmarks need it:
 * a minimal root filesystem (/bin/<name>, /dev, /tmp), /dev/trbuf attached, optional ground truth,
 * deterministic settings. The executable is installed as /bin/<name> whatever file it came from,
 * so an instrumented program sees exactly the stack the original saw (argv[0] and the strings).
 */
import { pino } from 'pino';
import { baseDirs, createKernel } from '../os/boot.js';
import type { IntrRecord } from '../os/kernel.js';
import { MemoryTrbufSink, TrbufDevice, TRBUF_SIZE_DEFAULT, type TrbufStats } from '../os/trbuf.js';
import { BinTruthWriter, MemorySink } from '../os/truth.js';
import type { TargetName } from '../format/target.js';

export interface RunOptions {
  arch: TargetName;
  /** Program name: installed as /bin/<name>, argv[0]. */
  name: string;
  exe: Uint8Array;
  args?: string[];
  stdin?: Uint8Array;
  /** Record the ground truth (binary format). */
  truth?: boolean;
  /** Extra files in the guest filesystem (path -> contents). */
  files?: Record<string, Uint8Array>;
  memory?: number;
  quantumCycles?: number;
  maxInstructions?: number;
  trbufSize?: number;
  /** Forced interrupt points: machine-wide user instruction counts (KernelConfig.intrAt). */
  intrAt?: readonly number[];
}

export interface RunResult {
  stdout: Buffer;
  /** init's wait status (exit code << 8, or the signal). */
  status: number;
  exitCode: number;
  haltReason: string | null;
  haltMessage: string;
  /** User instructions of the whole machine. */
  insns: number;
  trace: MemoryTrbufSink;
  truth?: Uint8Array;
  /** The forced interrupts as taken (RunOptions.intrAt). */
  intrs: IntrRecord[];
  /** /dev/trbuf's counters (rollbacks, overflows). */
  trbuf: TrbufStats;
}

export function runProgram(o: RunOptions): RunResult {
  const out: Buffer[] = [];
  let input = Buffer.from(o.stdin ?? new Uint8Array(0));
  const truthSink = o.truth ? new MemorySink() : null;
  const truth = truthSink ? new BinTruthWriter(truthSink, o.arch) : null;
  const k = createKernel({
    arch: o.arch, memory: o.memory ?? 64 << 20, hz: 100, cpuHz: 25_000_000, quantumCycles: o.quantumCycles ?? 250_000,
    seed: null, disk: { latency_us: 1000, bandwidth: 1_000_000 }, trbufSize: o.trbufSize ?? TRBUF_SIZE_DEFAULT,
    maxInstructions: o.maxInstructions ?? 5e9,
    console: {
      write: (b) => void out.push(Buffer.from(b)),
      read: (max) => {
        const r = input.subarray(0, max);
        input = input.subarray(r.length);
        return r;
      },
    },
    log: pino({ level: 'silent' }), truth, ...(o.intrAt ? { intrAt: o.intrAt } : {}),
  });
  baseDirs(k.vfs);
  for (const [path, data] of Object.entries(o.files ?? {})) k.vfs.installFile(path, data, 0o644);
  k.vfs.installFile(`/bin/${o.name}`, o.exe, 0o755);
  const sink = new MemoryTrbufSink();
  const dev = TrbufDevice.attach(k, sink);
  k.boot([`/bin/${o.name}`, ...(o.args ?? [])], ['PATH=/bin'], '/tmp');
  k.run();
  truth?.finish();
  const status = k.exitStatus;
  return {
    stdout: Buffer.concat(out), status, exitCode: (status >> 8) & 0xff, haltReason: k.haltReason, haltMessage: k.haltMessage,
    insns: k.insns, trace: sink, ...(truthSink ? { truth: truthSink.bytes() } : {}), intrs: k.intrLog, trbuf: dev.stats,
  };
}
