/**
 * A scripted machine for unit tests of the machine-independent kernel: it implements MachDep
 * (os/machdep.ts) with "user programs" that are JavaScript generators instead of guest code. A
 * script yields operations — compute for n cycles, a system call, a load or store through the
 * pmap (which faults like a real MMU), a fault that becomes a signal — and receives each
 * result. Everything else is the real kernel: exec parses a real ELF32 file and builds the
 * address space and stack (the script's argv comes from that stack), fork duplicates it
 * copy-on-write, memory is cpu/physmem.ts.
 *
 * This is a test double of the CPU only; the guest-program kernel tests (test/os/ktest.test.ts)
 * exercise the same paths on the real CPUs.
 */
import { PhysMem } from '../../../cpu/physmem.js';
import { EJUSTRETURN, ERESTART } from '../../../os/errno.js';
import type { Kernel } from '../../../os/kernel.js';
import {
  type ExecStackInfo, type MachDep, type Pmap, T_INTR, T_PAGEFLT, T_SIGNAL, T_SYSCALL, type TrapInfo, type TrapKind,
  type TruthSink, VM_PROT_READ, VM_PROT_WRITE,
} from '../../../os/machdep.js';
import { MIPS_LAYOUT } from '../../../os/param.js';
import type { Proc } from '../../../os/proc.js';
import { syscallTable } from '../../../format/syscalltab.js';
import { copyin, copyinstr, copyout, fuword } from '../../../os/vm/copyio.js';

export type Op =
  | { op: 'compute'; n: number }
  | { op: 'sys'; name: string; args: number[]; child?: ScriptFactory }
  | { op: 'load'; va: number }
  | { op: 'store'; va: number; v: number }
  | { op: 'trap'; sig: number; code: number };

export interface SysResult {
  error: number;
  rv0: number;
  rv1: number;
}

export type Script = Generator<Op, void, SysResult>;

export interface ScriptCtx {
  k: Kernel;
  md: ScriptMachine;
  pid: number;
  argv: string[];
  envp: string[];
  /** Start of the image's bss: scratch memory the script may use. */
  scratch: number;
}

export type ScriptFactory = (ctx: ScriptCtx) => Script;

const CODES = new Map(syscallTable().map((e) => [e.name, e.number]));

/** One system call: `const r = yield* sys('getpid')`. */
export function* sys(name: string, ...args: number[]): Generator<Op, SysResult, SysResult> {
  if (!CODES.has(name) && name !== 'bogus') throw new Error(`no system call ${name}`);
  return yield { op: 'sys', name, args };
}

/** fork with the child's script. */
export function* fork(child: ScriptFactory): Generator<Op, SysResult, SysResult> {
  return yield { op: 'sys', name: 'fork', args: [], child };
}

export function* compute(n: number): Generator<Op, void, SysResult> {
  yield { op: 'compute', n };
}

export function* load(va: number): Generator<Op, number, SysResult> {
  const r = yield { op: 'load', va };
  return r.rv0;
}

export function* store(va: number, v: number): Generator<Op, void, SysResult> {
  yield { op: 'store', va, v };
}

interface Frame {
  scp: number;
  mask: number;
  script: Script;
  pending: Op | null;
  result: SysResult | undefined;
  computeLeft: number;
}

class Pcb {
  script: Script | null = null;
  pending: Op | null = null;
  result: SysResult | undefined = undefined;
  computeLeft = 0;
  pc = 0x400000;
  frames: Frame[] = [];
}

class TestPmap implements Pmap {
  readonly map = new Map<number, { pa: number; prot: number }>();
  constructor(readonly id: number) {}
}

/** Base of the test executable's bss (see makeTestElf). */
export const TEST_BSS = 0x10000000;

/**
 * A minimal static MIPS I little-endian ELF32 executable: text at 0x00400000 (4 KiB of
 * `marker` words), data at 0x10000000 (16 bytes of file data, 256 KiB of memory).
 */
export function makeTestElf(marker = 0x1234): Uint8Array {
  const textOff = 0x1000;
  const dataOff = 0x2ff0; // congruent to the data address modulo the page size
  const b = new Uint8Array(dataOff + 16);
  const dv = new DataView(b.buffer);
  b.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1], 0);
  dv.setUint16(16, 2, true); // ET_EXEC
  dv.setUint16(18, 8, true); // EM_MIPS
  dv.setUint32(20, 1, true);
  dv.setUint32(24, 0x00400000, true); // entry
  dv.setUint32(28, 52, true); // phoff
  dv.setUint16(40, 52, true);
  dv.setUint16(42, 32, true);
  dv.setUint16(44, 2, true); // phnum
  dv.setUint16(46, 40, true);
  const ph = (o: number, off: number, va: number, filesz: number, memsz: number, flags: number): void => {
    dv.setUint32(o, 1, true);
    dv.setUint32(o + 4, off, true);
    dv.setUint32(o + 8, va, true);
    dv.setUint32(o + 12, va, true);
    dv.setUint32(o + 16, filesz, true);
    dv.setUint32(o + 20, memsz, true);
    dv.setUint32(o + 24, flags, true);
    dv.setUint32(o + 28, 0x1000, true);
  };
  ph(52, textOff, 0x00400000, 0x1000, 0x1000, 5);
  ph(84, dataOff, TEST_BSS - 16, 16, 16 + 256 * 1024, 6);
  for (let i = 0; i < 0x1000; i += 4) dv.setUint32(textOff + i, marker, true);
  for (let i = 0; i < 16; i += 4) dv.setUint32(dataOff + i, 0xd0d0d0d0 + i, true);
  return b;
}

export class ScriptMachine implements MachDep {
  readonly arch = 'mips' as const;
  readonly layout = MIPS_LAYOUT;
  readonly stackBias = 0;
  readonly mem: PhysMem;
  k!: Kernel;
  /** Scripts by executable path (what exec runs). */
  readonly programs = new Map<string, ScriptFactory>();
  /** Signal handlers by address: a script run with the signal number. */
  readonly handlers = new Map<number, (sig: number, code: number) => Script>();
  private cur: Pcb | null = null;
  private pmaps = 0;
  private active: TestPmap | null = null;
  private nextScp = 0x7f000000;

  constructor(memBytes = 8 * 1024 * 1024) {
    this.mem = new PhysMem(memBytes, 'little');
  }

  attach(k: Kernel): void {
    this.k = k;
  }
  pcbNew(): object {
    return new Pcb();
  }
  private pcb(p: Proc): Pcb {
    return p.p_md as Pcb;
  }

  cpu_fork(parent: Proc, child: Proc, rv0: number, rv1: number): boolean {
    const pp = this.pcb(parent);
    const cp = this.pcb(child);
    const op = pp.pending;
    if (!op || op.op !== 'sys' || !op.child) throw new Error('scriptmd: fork without a child script');
    const factory = op.child;
    cp.result = { error: 0, rv0, rv1 };
    cp.pc = pp.pc;
    cp.script = factory({ k: this.k, md: this, pid: child.p_pid, argv: [], envp: [], scratch: TEST_BSS });
    return true;
  }

  setregs(p: Proc, entry: number, stack: ExecStackInfo): void {
    const pcb = this.pcb(p);
    const f = this.programs.get(p.p_path);
    if (!f) throw new Error(`scriptmd: no script for ${p.p_path}`);
    // argv and envp from the stack exec built, as crt0 would read them.
    const vs = p.p_vmspace!;
    const argc = fuword(vs, stack.sp)!;
    const argv: string[] = [];
    for (let i = 0; i < argc; i++) argv.push(copyinstr(vs, fuword(vs, stack.argv + 4 * i)! >>> 0, 4096) as string);
    const envp: string[] = [];
    for (let i = 0; ; i++) {
      const ptr = fuword(vs, stack.envp + 4 * i)!;
      if (ptr === 0) break;
      envp.push(copyinstr(vs, ptr >>> 0, 4096) as string);
    }
    pcb.pc = entry;
    pcb.pending = null;
    pcb.result = undefined;
    pcb.computeLeft = 0;
    pcb.frames = [];
    pcb.script = f({ k: this.k, md: this, pid: p.p_pid, argv, envp, scratch: TEST_BSS });
  }

  cpu_save(_p: Proc): boolean {
    this.cur = null;
    return true;
  }
  cpu_restore(p: Proc): void {
    this.cur = this.pcb(p);
    this.active = (p.p_vmspace?.pmap as TestPmap | undefined) ?? null;
  }
  cpu_exit(_p: Proc): void {
    this.cur = null;
    this.active = null;
  }
  pmap_activate(p: Proc): void {
    this.active = p.p_vmspace!.pmap as TestPmap;
  }

  run(p: Proc, budget: number, ti: TrapInfo): TrapKind {
    const pcb = this.pcb(p);
    if (pcb !== this.cur) throw new Error(`scriptmd: run of pid ${p.p_pid} whose state is not loaded`);
    let used = 0;
    const done = (kind: TrapKind): TrapKind => {
      ti.cycles = used;
      ti.insns = used;
      return kind;
    };
    for (;;) {
      if (pcb.computeLeft > 0) {
        const n = Math.min(pcb.computeLeft, budget - used);
        pcb.computeLeft -= n;
        used += n;
        pcb.pc += 4 * n;
      }
      if (used >= budget) return done(T_INTR);
      if (!pcb.pending) {
        if (!pcb.script) throw new Error(`scriptmd: pid ${p.p_pid} has no program`);
        const r = pcb.script.next(pcb.result!);
        pcb.result = undefined;
        if (r.done) {
          const f = pcb.frames[pcb.frames.length - 1];
          // A handler returned: its trampoline calls sigreturn; a program returned: exit(0).
          pcb.pending = f ? { op: 'sys', name: 'sigreturn', args: [f.scp] } : { op: 'sys', name: 'exit', args: [0] };
        } else {
          pcb.pending = r.value;
        }
      }
      const op = pcb.pending!;
      used++;
      pcb.pc += 4;
      switch (op.op) {
        case 'compute':
          pcb.computeLeft = op.n - 1;
          pcb.pending = null;
          break;
        case 'sys':
          return done(T_SYSCALL);
        case 'trap':
          pcb.pending = null;
          ti.sig = op.sig;
          ti.code = op.code;
          ti.va = 0;
          return done(T_SIGNAL);
        case 'load':
        case 'store': {
          const write = op.op === 'store';
          const m = this.active?.map.get(op.va >>> 12);
          if (!m || (write && (m.prot & VM_PROT_WRITE) === 0)) {
            used--;
            pcb.pc -= 4;
            ti.va = op.va;
            ti.ftype = write ? VM_PROT_WRITE : VM_PROT_READ;
            return done(T_PAGEFLT);
          }
          const pa = m.pa + (op.va & 0xfff);
          if (write) {
            this.mem.write32(pa, op.v);
            pcb.result = { error: 0, rv0: 0, rv1: 0 };
          } else {
            pcb.result = { error: 0, rv0: this.mem.read32(pa), rv1: 0 };
          }
          pcb.pending = null;
          break;
        }
      }
      if (used >= budget) return done(T_INTR);
    }
  }

  getpc(p: Proc): number {
    return this.pcb(p).pc;
  }
  setpc(p: Proc, pc: number): void {
    this.pcb(p).pc = pc;
  }
  getnpc(p: Proc): number {
    return this.pcb(p).pc + 4;
  }
  getreg(_p: Proc, _n: number): number {
    return 0;
  }
  setreg(_p: Proc, _n: number, _v: number): void {}

  syscallCode(p: Proc): number {
    const op = this.pcb(p).pending;
    if (!op || op.op !== 'sys') throw new Error('scriptmd: no system call pending');
    return CODES.get(op.name) ?? 999;
  }
  syscallArgs(p: Proc, nargs: number, out: Int32Array): number {
    const op = this.pcb(p).pending as Extract<Op, { op: 'sys' }>;
    for (let i = 0; i < nargs; i++) out[i] = op.args[i] ?? 0;
    return 0;
  }
  syscallReturn(p: Proc, error: number, rv0: number, rv1: number): void {
    const pcb = this.pcb(p);
    if (error === ERESTART) return; // the same call is issued again
    if (error === EJUSTRETURN) return; // exec or sigreturn set the state
    pcb.pending = null;
    pcb.result = { error, rv0, rv1 };
  }

  pmap_create(): Pmap {
    return new TestPmap(++this.pmaps);
  }
  pmap_destroy(pm: Pmap): void {
    (pm as TestPmap).map.clear();
  }
  pmap_enter(pm: Pmap, va: number, pa: number, prot: number): void {
    (pm as TestPmap).map.set(va >>> 12, { pa, prot });
  }
  pmap_remove(pm: Pmap, sva: number, eva: number): void {
    for (const vpn of [...(pm as TestPmap).map.keys()]) if (vpn >= sva >>> 12 && vpn < Math.ceil(eva / 4096)) (pm as TestPmap).map.delete(vpn);
  }
  pmap_protect(pm: Pmap, sva: number, eva: number, prot: number): void {
    for (const [vpn, m] of (pm as TestPmap).map) if (vpn >= sva >>> 12 && vpn < Math.ceil(eva / 4096)) m.prot &= prot;
  }

  sendsig(p: Proc, catcher: number, sig: number, mask: number, code: number, _tramp: number): boolean {
    const pcb = this.pcb(p);
    const h = this.handlers.get(catcher);
    if (!h) return false;
    const scp = this.nextScp++;
    pcb.frames.push({ scp, mask, script: pcb.script!, pending: pcb.pending, result: pcb.result, computeLeft: pcb.computeLeft });
    pcb.script = h(sig, code);
    pcb.pending = null;
    pcb.result = undefined;
    pcb.computeLeft = 0;
    return true;
  }

  sigreturn(p: Proc, scp: number): number {
    const pcb = this.pcb(p);
    const f = pcb.frames.pop();
    if (!f || f.scp !== scp) return -22; // EINVAL
    pcb.script = f.script;
    pcb.pending = f.pending;
    pcb.result = f.result;
    pcb.computeLeft = f.computeLeft;
    return f.mask;
  }

  setTruth(_sink: TruthSink | null): void {}

  // --- helpers for scripts: user memory of curproc through the kernel's copyin/copyout ---

  putStr(va: number, s: string): number {
    const b = Buffer.from(`${s}\0`, 'latin1');
    if (copyout(this.k.curproc!.p_vmspace!, b, va)) throw new Error(`putStr at ${va.toString(16)}: EFAULT`);
    return va;
  }
  putBytes(va: number, b: Uint8Array): number {
    if (copyout(this.k.curproc!.p_vmspace!, b, va)) throw new Error(`putBytes at ${va.toString(16)}: EFAULT`);
    return va;
  }
  getBytes(va: number, n: number): Uint8Array {
    const r = copyin(this.k.curproc!.p_vmspace!, va, n);
    if (typeof r === 'number') throw new Error(`getBytes at ${va.toString(16)}: EFAULT`);
    return r;
  }
  getWord(va: number): number {
    return new DataView(this.getBytes(va, 4).buffer).getInt32(0, true);
  }
}
