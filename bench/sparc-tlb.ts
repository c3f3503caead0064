/**
 * Micro-benchmark of the SPARC MMU's TLB-miss path (a script, not a test): the cost of one data
 * load that misses the 64-entry TLB, as the fast engine's generated code pays it (the load's slow
 * path: `SparcCpu.loadSlow` → `SparcMmu.translate`: TLB look-up, table walk, FIFO eviction and
 * insertion, permission check, software-map install). compress 4000000 takes 3.9 M such misses.
 *
 *   npm run build && node dist/bench/sparc-tlb.js [--pages N] [--reps N]
 *
 * A process of `hello` under the test Linux layer provides the page tables; N pages below its
 * initial %sp (more than the TLB holds) are touched, then loads cycle through them so that every
 * load misses. Prints the best of --reps timings (CPU time) in ns per miss, and the miss count.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_DIR } from '../images/build.js';
import { SparcLinuxProcess } from './linuxuser_sparc.js';
import { benchCommand, positiveInt } from './cli.js';

const LOADS = 4_000_000;

function main(): void {
  const cmd = benchCommand('sparc-tlb.js', 'SPARC data-load slow path through a TLB miss: every load of a loop over --pages pages misses')
    .option('--pages <n>', 'pages the loop touches (more than the TLB holds)', positiveInt, 100)
    .option('--reps <n>', 'runs (the best is printed)', positiveInt, 7)
    .parse(process.argv);
  const { pages, reps } = cmd.opts<{ pages: number; reps: number }>();
  const exe = join(BUILD_DIR, 'linux-sparc', 'bin', 'hello');
  if (!existsSync(exe)) {
    process.stderr.write(`missing ${exe}: build the guest programs first (node bin/emu.js images build -f linux -t sparc)\n`);
    process.exitCode = 2;
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'emu-bench-'));
  try {
    const p = new SparcLinuxProcess({ elf: exe, engine: 'fast', argv: [exe], sandbox: dir });
    const c = p.cpu;
    const top = (c.getReg(14) & ~4095) >>> 0;
    const vas: number[] = [];
    for (let i = 1; i <= pages; i++) {
      const va = (top - i * 4096) >>> 0;
      p.copyOut(va, new Uint8Array(4)); // maps the demand-zero stack page
      vas.push(va);
    }
    if (c.mmu.tlbSize >= pages) throw new Error(`--pages ${pages} fits the ${c.mmu.tlbSize}-entry TLB: no misses`);
    let best = Infinity;
    let misses = 0;
    let sum = 0;
    for (let r = 0; r < reps; r++) {
      const m0 = c.mmu.tlbMisses;
      const t0 = process.cpuUsage();
      for (let i = 0; i < LOADS; i++) sum += c.loadSlow(vas[i % pages]! + (i & 0xffc), 4, 0, 4);
      const t = process.cpuUsage(t0);
      if (c.trapped) throw new Error('a benchmark load trapped');
      misses = c.mmu.tlbMisses - m0;
      best = Math.min(best, ((t.user + t.system) * 1000) / misses);
    }
    process.stdout.write(`${pages} pages, ${LOADS} loads, ${misses} TLB misses per rep: ${best.toFixed(1)} ns per miss (best of ${reps}, CPU time) [${sum & 1}]\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
