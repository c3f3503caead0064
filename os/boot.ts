/**
 * Building and booting a machine (4.4BSD's autoconf and init_main, for emu): the CPU and memory
 * of the image's architecture, the kernel configured from the manifest and the command line, the
 * root filesystem from the boot image (or a minimal one around a bare executable), then init.
 * Used by `emu run` (bin/run_cmd.ts), the tests and the benchmarks.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { PhysMem } from '../cpu/physmem.js';
import type { BootImage, DeviceModel } from '../format/image.js';
import type { TargetName } from '../format/target.js';
import type { Console } from './dev.js';
import { Kernel } from './kernel.js';
import type { MachDep } from './machdep.js';
import { MipsMachDep } from './mips/machdep.js';
import { SparcMachDep } from './sparc/machdep.js';

import { VDIR, VREG, type Vfs } from './vfs.js';
import type { TruthWriter } from '../format/truth.js';

export interface MachineConfig {
  arch: TargetName;
  /** Physical memory in bytes. */
  memory: number;
  hz: number;
  cpuHz: number;
  quantumCycles: number;
  maxproc?: number;
  seed: number | null;
  disk: DeviceModel;
  trbufSize: number;
  maxInstructions: number;
  /** Forced interrupt points (KernelConfig.intrAt; tests). */
  intrAt?: readonly number[];
  console: Console;
  log: Logger;
  truth: TruthWriter | null;
}

/** The CPU and machine-dependent layer of an architecture. */
export function createMachDep(arch: TargetName, memory: number): MachDep {
  if (arch === 'sparc') return new SparcMachDep(new PhysMem(memory, 'big'));
  return new MipsMachDep(new PhysMem(memory, arch === 'mips' ? 'big' : 'little'));
}

export function createKernel(cfg: MachineConfig): Kernel {
  const md = createMachDep(cfg.arch, cfg.memory);
  const k = new Kernel({
    md, hz: cfg.hz, cpuHz: cfg.cpuHz, quantumCycles: cfg.quantumCycles, maxproc: cfg.maxproc, seed: cfg.seed,
    disk: cfg.disk, trbufSize: cfg.trbufSize, console: cfg.console, maxInstructions: cfg.maxInstructions,
    log: cfg.log, truth: cfg.truth, reservedPages: md.arch === 'sparc' ? sparcTablePages(cfg.memory) : 0,
    ...(cfg.intrAt ? { intrAt: cfg.intrAt } : {}),
  });
  return k;
}

/** Frames the SPARC pmap keeps for page tables: 1/32 of memory, at most 4 MiB. */
export function sparcTablePages(memory: number): number {
  return Math.min(1024, Math.max(16, Math.floor(memory / 32 / 4096)));
}

/** Populates the root filesystem from a boot image. */
export function loadImage(vfs: Vfs, img: BootImage): void {
  for (const [path, d] of [...img.dirs].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (path === '/') continue;
    vfs.mkdirs(path, d.mode);
  }
  for (const [path, f] of [...img.files].sort((a, b) => a[0].localeCompare(b[0]))) vfs.installFile(path, f.data, f.mode);
}

/** Copies a host directory into the guest filesystem at `at` (sorted, so the result is deterministic). */
export function copyHostDir(vfs: Vfs, dir: string, at = '/'): void {
  for (const name of readdirSync(dir).sort()) {
    const host = join(dir, name);
    const guest = at === '/' ? `/${name}` : `${at}/${name}`;
    const st = statSync(host);
    if (st.isDirectory()) {
      vfs.mkdirs(guest, st.mode & 0o7777);
      copyHostDir(vfs, host, guest);
    } else if (st.isFile()) {
      vfs.installFile(guest, readFileSync(host), st.mode & 0o7777);
    }
  }
}

/** The standard directories of every guest system. */
export function baseDirs(vfs: Vfs): void {
  for (const d of ['/bin', '/dev', '/etc', '/sbin', '/tmp', '/usr']) vfs.mkdirs(d, d === '/tmp' ? 0o1777 : 0o755);
}

/** Writes every file the guests created or changed under `dir` (--out); returns their paths. */
export function exportFiles(vfs: Vfs, dir: string): string[] {
  const out: string[] = [];
  for (const [path, vp] of vfs.walk()) {
    if (path.startsWith('/dev/')) continue;
    if (vp.type === VDIR && vp.dirty) mkdirSync(join(dir, path), { recursive: true });
    if (vp.type === VREG && vp.dirty) {
      const host = join(dir, path);
      mkdirSync(join(host, '..'), { recursive: true });
      writeFileSync(host, vp.data.subarray(0, vp.size));
      out.push(path);
    }
  }
  return out;
}
