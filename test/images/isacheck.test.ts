/**
 * The ISA-purity / reserved-register / foreign-code check must catch each kind of violation: every
 * case below builds a small executable that breaks exactly one rule (plus a clean control).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkArchive, checkExecutable, definedSymbols, type Violation } from '../../images/isacheck.js';
import { COMMON_LDFLAGS, TARGETS, tool } from '../../images/toolchain.js';
import type { TargetName } from '../../format/target.js';
import { toolsAvailable } from '../support/tools.js';

const have = toolsAvailable();
const dir = have ? mkdtempSync(join(tmpdir(), 'emu-isacheck-')) : '';
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Assembles/compiles `src` (file name decides the language) and links it alone. */
function build(target: TargetName, name: string, src: string, extra: string[] = [], libs: string[] = []): { exe: string; obj: string } {
  const t = TARGETS[target];
  const srcPath = join(dir, name);
  writeFileSync(srcPath, src);
  const obj = `${srcPath}.o`;
  const exe = `${srcPath}.exe`;
  // The violating cases make the tools warn (mixed -march, abicalls): keep that off the test output.
  const quiet = { stdio: 'pipe' } as const;
  execFileSync(tool(t, 'gcc'), [...t.cflags, '-O2', '-fno-pie', ...extra, '-c', srcPath, '-o', obj], quiet);
  execFileSync(tool(t, 'gcc'), [...t.cflags, ...COMMON_LDFLAGS.filter((f) => f !== '-Wl,--no-undefined'), ...t.ldflags, obj, ...libs, '-o', exe], quiet);
  return { exe, obj };
}

async function check(target: TargetName, b: { exe: string; obj: string }): Promise<Violation[]> {
  return checkExecutable(b.exe, { target, ownSymbols: await definedSymbols(target, [b.obj]) });
}

const MIPS_START = (body: string) => `\t.set noreorder\n\t.text\n\t.globl __start\n__start:\n${body}\n\tli $2, 4001\n\tsyscall\n\tnop\n`;
const SPARC_START = (body: string) => `\t.text\n\t.globl _start\n_start:\n${body}\n\tmov 1, %g1\n\tta 0x10\n\tnop\n`;

describe.skipIf(!have)('isacheck catches every rule', () => {
  it('accepts a clean MIPS I program', async () => {
    expect(await check('mipsel', build('mipsel', 'clean.S', MIPS_START('\taddiu $4, $0, 3\n\tmult $4, $4\n\tmflo $4\n\tsubu $4, $0, $4\n\tsub $5, $0, $4')))).toEqual([]);
  });
  it('accepts a clean SPARC v8 program', async () => {
    expect(await check('sparc', build('sparc', 'clean-s.S', SPARC_START('\tmov 3, %o0\n\tumul %o0, %o0, %o0\n\trd %y, %o1')))).toEqual([]);
  });
  it('flags a MIPS II instruction hidden in a MIPS I object (teq)', async () => {
    const v = await check('mipsel', build('mipsel', 'teq.S', MIPS_START('\t.set mips2\n\tteq $4, $5\n\t.set mips0')));
    expect(v.map((x) => x.rule)).toContain('isa');
    expect(v.find((x) => x.rule === 'isa')!.text).toMatch(/^teq/);
  });
  it('flags MIPS32 code by its ELF flags', async () => {
    const v = await check('mips', build('mips', 'mul.S', MIPS_START('\tmul $2, $3, $4'), ['-march=mips32r2', '-mfp32']));
    expect(v.map((x) => x.rule)).toContain('elf');
    expect(v.some((x) => x.rule === 'isa' && x.text.startsWith('mul'))).toBe(true);
  });
  it('flags MIPS k0/k1', async () => {
    const v = await check('mipsel', build('mipsel', 'k0.S', MIPS_START('\tmove $26, $4')));
    expect(v.map((x) => x.rule)).toEqual(['reserved-register']);
  });
  it('lets the trace consumer use the pointer register only (k0 yes, k1 no; %g6 yes, %g5/%g7 no)', async () => {
    const consumer = async (target: TargetName, b: { exe: string; obj: string }): Promise<Violation[]> =>
      checkExecutable(b.exe, { target, ownSymbols: await definedSymbols(target, [b.obj]), traceConsumer: true });
    expect(await consumer('mipsel', build('mipsel', 'c-k0.S', MIPS_START('\tmove $16, $26\n\tmove $26, $2')))).toEqual([]);
    expect((await consumer('mipsel', build('mipsel', 'c-k1.S', MIPS_START('\tmove $27, $4')))).map((x) => x.rule)).toEqual(['reserved-register']);
    expect(await consumer('sparc', build('sparc', 'c-g6.S', SPARC_START('\tmov %g6, %o0\n\tmov %o1, %g6')))).toEqual([]);
    for (const g of ['%g5', '%g7']) {
      const v = await consumer('sparc', build('sparc', `c-${g.slice(1)}.S`, SPARC_START(`\tmov 1, ${g}`)));
      expect(v.map((x) => x.rule)).toEqual(['reserved-register']);
    }
  });
  it('flags a privileged MIPS instruction', async () => {
    const v = await check('mipsel', build('mipsel', 'cp0.S', MIPS_START('\tmfc0 $2, $12')));
    expect(v.map((x) => x.rule)).toEqual(['privileged']);
  });
  it('flags SPARC %g5, %g6 and %g7', async () => {
    for (const g of ['%g5', '%g6', '%g7']) {
      const v = await check('sparc', build('sparc', `g-${g.slice(1)}.S`, SPARC_START(`\tmov 1, ${g}`)));
      expect(v.map((x) => x.rule)).toEqual(['reserved-register']);
    }
  });
  it('flags a V9 instruction in a v8 object (srlx as a raw word)', async () => {
    // srlx %o0, 1, %o0 = 0x91323001; the v8 assembler rejects the mnemonic, so emit the word.
    const v = await check('sparc', build('sparc', 'srlx.S', SPARC_START('\t.word 0x91323001')));
    expect(v.some((x) => x.rule === 'isa' && x.text.includes('0x91323001'))).toBe(true);
  });
  it('flags V8+ code by its ELF machine', async () => {
    const v = await check('sparc', build('sparc', 'v9.S', SPARC_START('\tsrlx %o0, 1, %o0'), ['-Wa,-Av9']));
    expect(v.map((x) => x.rule)).toContain('elf');
  });
  it('flags SPARC vendor extensions (SPARClite umac) and V9 fmovd', async () => {
    const v = await check('sparc', build('sparc', 'umac.S', SPARC_START('\t.word 0x83f00003\n\t.word 0x81a00040')));
    expect(v.map((x) => x.rule)).toEqual(['isa', 'isa']);
  });
  it('flags a privileged SPARC instruction', async () => {
    const v = await check('sparc', build('sparc', 'psr.S', SPARC_START('\trd %psr, %o0')));
    expect(v.map((x) => x.rule)).toEqual(['privileged']);
  });
  it('checks every member of an archive, naming the member (a k1 in one of two)', async () => {
    const t = TARGETS.mipsel;
    const good = build('mipsel', 'ar-good.S', MIPS_START('\taddiu $4, $0, 3')).obj;
    const bad = build('mipsel', 'ar-bad.S', '\t.text\n\t.globl f\nf:\n\tmove $27, $4\n\tjr $31\n\tnop\n').obj;
    const lib = join(dir, 'libmix.a');
    execFileSync(tool(t, 'ar'), ['rcsD', lib, good, bad]);
    const v = await checkArchive(lib, 'mipsel');
    expect(v.map((x) => x.rule)).toEqual(['reserved-register']);
    expect(v[0]!.text).toMatch(/^ar-bad\.S\.o: /);
    expect(await checkArchive(good, 'mipsel')).toEqual([]);
  });
  it("flags Debian's libgcc linked in (foreign symbols and MIPS32 code)", async () => {
    const t = TARGETS.mipsel;
    const libgcc = execFileSync(tool(t, 'gcc'), [...t.cflags, '-print-libgcc-file-name'], { encoding: 'utf8' }).trim();
    const src = 'unsigned long long q(unsigned long long a, unsigned long long b) { return a / b; }\n' +
      'void __start(void) { volatile unsigned long long x = q(1000000000000ULL, 7); (void)x; for (;;); }\n';
    const v = await check('mipsel', build('mipsel', 'libgcc.c', src, [], [libgcc]));
    expect(v.some((x) => x.rule === 'foreign-symbol' && /__udivdi3/.test(x.text))).toBe(true);
  });
});
