/**
 * The torture corpus's reading of GCC's DejaGnu directives (images/corpus.ts): the Tcl lists, and
 * the plan for a configuration (flags, skips with reasons, selectors). No toolchain needed.
 */
import { describe, expect, it } from 'vitest';
import { directives, failureReason, parseTcl, plan, type CorpusConfig, type TortureTest } from '../../images/corpus.js';

const test = (src: string): TortureTest => ({ name: 't', file: 't.c', directives: directives(src) });
const mipsO0: CorpusConfig = { target: 'mipsel', libc: 'emu', opt: 'O0' };
const sparcO2: CorpusConfig = { target: 'sparc', libc: 'newlib', opt: 'O2' };

describe('torture corpus: DejaGnu directives', () => {
  it('parses Tcl lists: words, quoted strings, nested braces', () => {
    expect(parseTcl('dg-skip-if "a {b}" { ! { i?86-*-* x86_64-*-* } } { "-O0" } { "" }')).toEqual(
      ['dg-skip-if', 'a {b}', ['!', ['i?86-*-*', 'x86_64-*-*']], ['-O0'], ['']]);
    expect(directives('/* { dg-do run } */\nint x; /* { dg-options "-fwrapv" } */')).toEqual([['dg-do', 'run'], ['dg-options', '-fwrapv']]);
  });

  it('default flags: the level and -w; dg-options replace -w, dg-additional-options add', () => {
    expect(plan(test(''), mipsO0)).toEqual({ flags: ['-O0', '-w'] });
    expect(plan(test('/* { dg-options "-fwrapv -std=gnu89" } */'), sparcO2).flags).toEqual(['-O2', '-fwrapv', '-std=gnu89']);
    expect(plan(test('/* { dg-additional-options "-fno-inline" } */'), sparcO2).flags).toEqual(['-O2', '-w', '-fno-inline']);
  });

  it('target selectors: triplet globs, effective targets, !, &&', () => {
    expect(plan(test('/* { dg-options "-mno-mmx" { target { x86_64-*-* i?86-*-* } } } */'), mipsO0).flags).toEqual(['-O0', '-w']);
    expect(plan(test('/* { dg-additional-options "-DX" { target mips*-*-* } } */'), mipsO0).flags).toEqual(['-O0', '-w', '-DX']);
    expect(plan(test('/* { dg-additional-options "-DX" { target mips*-*-* } } */'), sparcO2).flags).toEqual(['-O2', '-w']);
    expect(plan(test('/* { dg-options "-m" { target { { i?86-*-* x86_64-*-* } && ia32 } } } */'), mipsO0).flags).toEqual(['-O0', '-w']);
    expect(plan(test('/* { dg-additional-options "-fpic" { target fpic } } */'), mipsO0).flags).toEqual(['-O0', '-w']);
  });

  it('skips, with the reason: effective targets, dg-skip-if with flags, stack sizes', () => {
    expect(plan(test('/* { dg-require-effective-target int128 } */'), mipsO0).skip).toMatch(/__int128/);
    expect(plan(test('/* { dg-require-effective-target trampolines } */'), mipsO0)).toEqual({ flags: ['-O0', '-w'], ldflags: ['-Wl,-z,execstack'] });
    expect(plan(test('/* { dg-require-effective-target int32plus } */'), mipsO0).skip).toBeUndefined();
    const onlyO0 = test('/* { dg-skip-if "slow" { *-*-* } { "-O0" } { "" } } */');
    expect(plan(onlyO0, mipsO0).skip).toBe('dg-skip-if: slow');
    expect(plan(onlyO0, sparcO2).skip).toBeUndefined();
    expect(plan(test('/* { dg-skip-if "" { ! { i?86-*-* x86_64-*-* } } } */'), sparcO2).skip).toMatch(/^dg-skip-if: selects this target/);
    expect(plan(test('/* { dg-skip-if "freestanding" { freestanding } } */'), sparcO2).skip).toBeUndefined();
    expect(plan(test('/* { dg-require-stack-size "0x80100" } */'), mipsO0).skip).toBeUndefined();
    expect(plan(test('/* { dg-require-stack-size "64 * 1024 * 1024" } */'), mipsO0).skip).toMatch(/stack/);
  });

  it('an unknown directive or keyword is a stated reason, never a guess', () => {
    expect(plan(test('/* { dg-require-effective-target avx512f } */'), mipsO0).skip).toMatch(/effective target 'avx512f'.*does not interpret/);
    expect(plan(test('/* { dg-final { scan-assembler "x" } } */'), mipsO0).skip).toMatch(/directive dg-final/);
  });

  it('names the reason of a failed build', () => {
    expect(failureReason('x.c:1:10: fatal error: complex.h: No such file or directory')).toBe('missing header <complex.h>');
    expect(failureReason("ld: a.o: in function `main':\na.c:(.text+0x8): undefined reference to `tmpnam'\nundefined reference to `__ffssi2'")).toBe('missing __ffssi2, tmpnam');
    expect(failureReason("x.c:3:1: error: unknown type name '__int128'")).toBe("compile error: unknown type name '__int128'");
  });
});
