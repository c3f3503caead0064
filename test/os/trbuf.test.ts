/**
 * /dev/trbuf in its single-process form (os/trbuf.ts):
 *   - <sys/trbuf.h> and os/trbuf.ts agree on the ioctl numbers, the path and the layout, as the
 *     cross compiler computes them;
 *   - a one-page buffer overflows hundreds of times (the guard-page fault drains it, the store
 *     re-executes after rollback) and regeneration is still exact;
 *   - markers survive their binary encoding.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBC_DIR } from '../../images/build.js';
import { TARGETS, tool } from '../../images/toolchain.js';
import { TRBUF_SIZE_DEFAULT } from '../../os/trbuf.js';
import { decodeMarkers, encodeMarkers, type Marker } from '../../format/sched.js';
import { BIOCMAP, BIOCSMAP, TRBUF_PATH } from '../../format/trbuf.js';
import { TRBUF_END } from '../../os/param.js';
import { toolsAvailable } from '../support/tools.js';
import { regenAgainst, traced } from '../tracer/support/trace.js';

const have = toolsAvailable();

describe.skipIf(!have)('<sys/trbuf.h>', () => {
  it('matches os/trbuf.ts (values the cross compiler computes)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-trbuf-'));
    try {
      const c = join(dir, 't.c');
      writeFileSync(c, [
        '#include <sys/trbuf.h>',
        'unsigned int v_map = BIOCMAP, v_smap = BIOCSMAP, v_end = TRBUF_END, v_size = TRBUF_SIZE, v_info = sizeof(struct trbuf_info);',
        'const char path[] = TRBUF_PATH;',
      ].join('\n'));
      const t = TARGETS.mipsel;
      const asm = execFileSync(tool(t, 'gcc'), ['-S', '-O2', '-nostdinc', '-I', join(LIBC_DIR, 'include'), ...t.cflags, '-o', '-', c], { encoding: 'utf8' });
      const word = (name: string): number => {
        const m = new RegExp(`${name}:\\s*\\n\\s*\\.word\\s+(-?\\d+)`).exec(asm);
        if (!m) throw new Error(`no ${name} in the compiler's output`);
        return Number(m[1]) >>> 0;
      };
      expect(word('v_map')).toBe(BIOCMAP);
      expect(word('v_smap')).toBe(BIOCSMAP);
      expect(word('v_end')).toBe(TRBUF_END);
      expect(word('v_size')).toBe(TRBUF_SIZE_DEFAULT);
      expect(word('v_info')).toBe(16);
      expect(asm).toContain(`.ascii\t"${TRBUF_PATH}\\000"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!have)('buffer overflow', () => {
  for (const target of ['mipsel', 'mips', 'sparc'] as const) {
    it(`${target}: a one-page buffer drains on every guard-page fault; regeneration is exact`, { timeout: 300_000 }, async () => {
      const t = await traced(target, 'textgen', 'small', { trbufSize: 4096 });
      expect(t.run.stdout.equals(t.orig.stdout)).toBe(true);
      // Every drain but the last (at exit) delivers a full page, less at most the 3 bytes of a
      // record that did not fit; textgen's MIPS trace fills three pages and part of a fourth
      // (since the cut decides counted loops): at least three full drains.
      const chunks = t.run.trace.chunks;
      expect(chunks.length).toBeGreaterThan(3);
      for (const c of chunks.slice(0, -1)) {
        expect(c.length).toBeLessThanOrEqual(4096);
        expect(c.length).toBeGreaterThanOrEqual(4093);
      }
      const s = regenAgainst(t, 'original');
      expect(s.bytes).toBe(t.run.trace.bytes().length);
    });
  }
});

describe('schedule markers', () => {
  it('round-trip through their binary encoding; errors name the file and offset', () => {
    const ms: Marker[] = [
      { kind: 'start', pid: 1, pos: 0, icount: 12, sp: 0xf7ffffa0 },
      { kind: 'signal', pid: 1, pos: 1000, icount: 123456789012, sig: 30, handler: 0x20100044, pc: 0xfffffffc },
      { kind: 'sigreturn', pid: 1, pos: 2000, icount: 123456789999 },
      { kind: 'exit', pid: 1, pos: 3000, icount: 2 ** 40, status: 0x100 },
    ];
    const b = encodeMarkers(ms);
    expect(decodeMarkers(b, 'sched')).toEqual(ms);
    expect(() => decodeMarkers(b.subarray(0, b.length - 1), 'sched')).toThrow(/^sched: byte \d+: truncated marker/);
    expect(() => decodeMarkers(Buffer.from('NOTSCHED\u0001'), 'x.sched')).toThrow(/^x\.sched: not a schedule stream/);
  });
});
