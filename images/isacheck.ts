/**
 * ISA-purity and reserved-register check of guest executables.
 *
 * Proves, for one executable, that
 *   1. the ELF header is that of the target ISA level: EM_MIPS with EF_MIPS_ARCH_1 (MIPS I), or
 *      EM_SPARC (v8; EM_SPARC32PLUS means V8+ code was linked in);
 *   2. every instruction of every executable section is MIPS I + R2010 FPU, or SPARC v8 (integer +
 *      FPU, without the quad FPops real v8 chips do not implement), by an allow-list of objdump
 *      mnemonics. MIPS code is decoded as MIPS32r2 so later-ISA instructions appear under their
 *      own names; SPARC code is decoded in objdump's default v8 mode, which prints V9-only words
 *      as "unknown" (a V9 decode would misread v8's rd %psr as rdhpr), and vendor extensions
 *      (SPARClite umac...) under names the allow-list lacks;
 *   3. no instruction is privileged (user programs run in user mode);
 *   4. no instruction names a register reserved for the tracer (SPARC %g5-%g7, MIPS k0/k1);
 *   5. nothing foreign was linked: every defined symbol of the executable comes from an object built
 *      from this project's sources (crt0.o, libc.a, the program's objects) or is one the linker
 *      script defines.
 * A violation list names the address, the instruction and the rule.
 */
import { run } from './build.js';
import { EF_MIPS_ARCH, EF_MIPS_ARCH_1, EM_MIPS, EM_SPARC, machineName, parseElf, SHF_EXECINSTR } from '../format/elf.js';
import { tool, TARGETS } from './toolchain.js';
import type { TargetName } from '../format/target.js';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * MIPS I user instructions and the R2010 FPU, as objdump prints them with -M no-aliases. objdump
 * keeps two names even then: `negu` (subu rd, $0, rt) and `neg` (sub rd, $0, rt).
 */
const MIPS_I = new Set(`
negu neg sll srl sra sllv srlv srav jr jalr syscall break mfhi mthi mflo mtlo mult multu div divu add addu
sub subu and or xor nor slt sltu bltz bgez bltzal bgezal j jal beq bne blez bgtz addi addiu slti
sltiu andi ori xori lui lb lh lwl lw lbu lhu lwr sb sh swl sw swr
lwc1 swc1 mfc1 mtc1 cfc1 ctc1 bc1f bc1t
add.s add.d sub.s sub.d mul.s mul.d div.s div.d abs.s abs.d mov.s mov.d neg.s neg.d
cvt.s.d cvt.s.w cvt.d.s cvt.d.w cvt.w.s cvt.w.d
c.f.s c.un.s c.eq.s c.ueq.s c.olt.s c.ult.s c.ole.s c.ule.s c.sf.s c.ngle.s c.seq.s c.ngl.s c.lt.s c.nge.s c.le.s c.ngt.s
c.f.d c.un.d c.eq.d c.ueq.d c.olt.d c.ult.d c.ole.d c.ule.d c.sf.d c.ngle.d c.seq.d c.ngl.d c.lt.d c.nge.d c.le.d c.ngt.d
`.trim().split(/\s+/));

/** MIPS I system-control (CP0) instructions: valid MIPS I, but privileged. */
const MIPS_PRIVILEGED = new Set(['mfc0', 'mtc0', 'rfe', 'tlbr', 'tlbwi', 'tlbwr', 'tlbp']);

/**
 * SPARC v8 user instructions as objdump prints them, synthetic forms included (SPARC v8 manual,
 * Appendix A, "Suggested Assembly Language Syntax"). Branch mnemonics are checked after removing an
 * ",a" annul suffix; v9 prediction suffixes (",pt", ",pn") are not v8 and fail.
 */
const SPARC_V8 = new Set(`
ld ldub ldsb lduh ldsh ldd st stb sth std ldstub swap clrb clrh clr
sethi nop and andcc andn andncc or orcc orn orncc xor xorcc xnor xnorcc sll srl sra
add addcc addx addxcc sub subcc subx subxcc taddcc taddcctv tsubcc tsubcctv mulscc
umul umulcc smul smulcc udiv udivcc sdiv sdivcc save restore call jmpl jmp ret retl
ba bn bne be bg ble bge bl bgu bleu bcc bcs bpos bneg bvc bvs bnz bz bgeu blu b
fba fbn fbu fbg fbug fbl fbul fblg fbne fbe fbue fbge fbuge fble fbule fbo fbnz fbz fb
ta tn tne te tg tle tge tl tgu tleu tcc tcs tpos tneg tvc tvs tnz tz tgeu tlu t
rd wr mov cmp tst not neg inc inccc dec deccc btst bset bclr btog flush unimp illtrap stbar
fitos fitod fstoi fdtoi fstod fdtos fmovs fnegs fabss fsqrts fsqrtd fadds faddd fsubs fsubd
fmuls fmuld fsmuld fdivs fdivd fcmps fcmpd fcmpes fcmped
`.trim().split(/\s+/));

/** Register names that make rd/wr (or a synthetic mov from/to them) privileged on SPARC. */
const SPARC_PRIV_REGS = /%(psr|wim|tbr)\b/;
/** Alternate-space loads/stores and rett are privileged. */
const SPARC_PRIVILEGED = new Set(['rett', 'lda', 'ldba', 'ldsba', 'lduba', 'ldha', 'ldsha', 'lduha', 'ldda', 'sta', 'stba', 'stha', 'stda', 'ldstuba', 'swapa']);

const MIPS_RESERVED = /\bk[01]\b|\$2[67]\b/;
const SPARC_RESERVED = /%g[567]\b/;
/**
 * The same with the shared trace pointer (MIPS k0, SPARC %g6) allowed: the trace consumer
 * (bdump) reads the pointer the kernel restores on return to user mode and resets it after a
 * drain (mazieres-smith-1994 section 3.2.3); the sequence scratch registers stay forbidden.
 */
const MIPS_RESERVED_BUT_POINTER = /\bk1\b|\$27\b/;
const SPARC_RESERVED_BUT_POINTER = /%g[57]\b/;

/** Symbols the GNU linker scripts of these targets define (not from any object). */
const LINKER_SYMBOLS = new Set([
  '_gp', '_gp_disp', '_end', 'end', '_edata', 'edata', '_etext', 'etext', '__etext', '_fdata', '_ftext', '_fbss',
  '__bss_start', '_bss_end__', '__bss_end__', '__end__', '_DYNAMIC', '_GLOBAL_OFFSET_TABLE_', '__dso_handle',
  '_PROCEDURE_LINKAGE_TABLE_', '__data_start', 'data_start', '__executable_start', '_stack', '__start_of_data',
  '__rel_iplt_start', '__rel_iplt_end', '__rela_iplt_start', '__rela_iplt_end', '__preinit_array_start',
  '__preinit_array_end', '__init_array_start', '__init_array_end', '__fini_array_start', '__fini_array_end',
  '__RLD_MAP', '_DYNAMIC_LINKING', '__tls_get_addr', '__TMC_END__', '__FRAME_END__',
]);

export interface Violation {
  rule: 'elf' | 'isa' | 'privileged' | 'reserved-register' | 'foreign-symbol';
  address?: number;
  text: string;
}

interface Insn {
  address: number;
  word: string;
  mnemonic: string;
  operands: string;
  line: string;
}

/** Parses `objdump -d` output into instructions. */
export function parseObjdump(text: string): Insn[] {
  const out: Insn[] = [];
  const re = /^\s*([0-9a-f]+):\t([0-9a-f ]+)\t(\S+)\s*(.*)$/;
  for (const line of text.split('\n')) {
    const m = re.exec(line);
    if (!m) continue;
    out.push({ address: parseInt(m[1]!, 16), word: m[2]!.replace(/\s+/g, ''), mnemonic: m[3]!, operands: m[4]!.trim(), line: line.trim() });
  }
  return out;
}

function checkMipsInsn(i: Insn, consumer: boolean): Violation | undefined {
  if ((consumer ? MIPS_RESERVED_BUT_POINTER : MIPS_RESERVED).test(i.operands)) return { rule: 'reserved-register', address: i.address, text: `${i.mnemonic} ${i.operands}: k0/k1 are reserved for the tracer` };
  if (MIPS_PRIVILEGED.has(i.mnemonic)) return { rule: 'privileged', address: i.address, text: `${i.mnemonic} ${i.operands}: CP0 instruction in user code` };
  if (!MIPS_I.has(i.mnemonic)) return { rule: 'isa', address: i.address, text: `${i.mnemonic} ${i.operands}: not a MIPS I / R2010 instruction (word 0x${i.word})` };
  return undefined;
}

function checkSparcInsn(i: Insn, consumer: boolean): Violation | undefined {
  if ((consumer ? SPARC_RESERVED_BUT_POINTER : SPARC_RESERVED).test(i.operands)) return { rule: 'reserved-register', address: i.address, text: `${i.mnemonic} ${i.operands}: %g5-%g7 are reserved for the tracer` };
  if (SPARC_PRIVILEGED.has(i.mnemonic) || SPARC_PRIV_REGS.test(i.operands)) return { rule: 'privileged', address: i.address, text: `${i.mnemonic} ${i.operands}: privileged instruction in user code` };
  const base = i.mnemonic.replace(/,a$/, '');
  if (!SPARC_V8.has(base)) return { rule: 'isa', address: i.address, text: `${i.mnemonic} ${i.operands}: not a SPARC v8 instruction (word 0x${i.word})` };
  if (/%[xi]cc\b|%fcc[0-3]\b|%asi\b/.test(i.operands)) return { rule: 'isa', address: i.address, text: `${i.mnemonic} ${i.operands}: V9 operand` };
  return undefined;
}

/** objdump flags that disassemble every executable section in the decoding rule 2 describes. */
function disassembleFlags(target: TargetName): string[] {
  return ['-d', '-z', ...(TARGETS[target].isa === 'mips' ? ['-m', 'mips:isa32r2', '-M', 'no-aliases'] : [])];
}

/** Rules 2-4 over disassembled instructions. */
function checkInstructions(target: TargetName, insns: readonly Insn[], traceConsumer: boolean): Violation[] {
  const check = TARGETS[target].isa === 'mips' ? checkMipsInsn : checkSparcInsn;
  const v: Violation[] = [];
  for (const insn of insns) {
    const bad = check(insn, traceConsumer);
    if (bad) v.push(bad);
  }
  return v;
}

/**
 * Rules 2-4 over every member of an archive (or one relocatable object): everything a program
 * could link from a library, not only what one program happens to link. Violations name the
 * member; their addresses are offsets in its section.
 */
export async function checkArchive(file: string, target: TargetName): Promise<Violation[]> {
  const dump = await run(tool(TARGETS[target], 'objdump'), [...disassembleFlags(target), file]);
  const v: Violation[] = [];
  // objdump starts each member with "<member>:     file format ..."; each is checked on its own.
  for (const part of dump.split(/^(?=\S+:\s+file format )/m)) {
    const member = /^(\S+):\s+file format /.exec(part)?.[1];
    if (!member) continue;
    for (const x of checkInstructions(target, parseObjdump(part), false)) v.push({ ...x, text: `${basename(member)}: ${x.text}` });
  }
  return v;
}

/** Symbols defined by a set of object files or archives (nm). */
export async function definedSymbols(target: TargetName, files: readonly string[]): Promise<Set<string>> {
  const out = await run(tool(TARGETS[target], 'nm'), ['--defined-only', '-A', ...files]);
  const s = new Set<string>();
  for (const line of out.split('\n')) {
    const m = /\s[A-Za-z]\s(\S+)$/.exec(line);
    if (m) s.add(m[1]!);
  }
  return s;
}

export interface CheckOptions {
  target: TargetName;
  /** Symbols defined by the project's objects the executable was linked from; omit to skip rule 5. */
  ownSymbols?: Set<string>;
  /** The program is the trace consumer (program.json `traceConsumer`): it may use the pointer register. */
  traceConsumer?: boolean;
}

/** Checks one executable; returns its violations (empty = pure). */
export async function checkExecutable(file: string, opts: CheckOptions): Promise<Violation[]> {
  const t = TARGETS[opts.target];
  const elf = parseElf(readFileSync(file), file);
  const v: Violation[] = [];
  if (t.isa === 'mips') {
    if (elf.header.machine !== EM_MIPS) v.push({ rule: 'elf', text: `machine is ${machineName(elf.header.machine)}, expected MIPS` });
    if ((elf.header.flags & EF_MIPS_ARCH) >>> 0 !== EF_MIPS_ARCH_1) v.push({ rule: 'elf', text: `e_flags 0x${(elf.header.flags >>> 0).toString(16)} is not MIPS I (EF_MIPS_ARCH_1)` });
  } else if (elf.header.machine !== EM_SPARC) {
    v.push({ rule: 'elf', text: `machine is ${machineName(elf.header.machine)}, expected SPARC (EM_SPARC, v8)` });
  }
  if (elf.bigEndian !== (t.endian === 'big')) v.push({ rule: 'elf', text: `byte order is ${elf.bigEndian ? 'big' : 'little'}-endian, target ${t.name} is ${t.endian}-endian` });

  const execSections = elf.sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0 && s.size > 0).map((s) => s.name);
  for (const sec of execSections) {
    const dump = await run(tool(t, 'objdump'), [...disassembleFlags(opts.target), '-j', sec, file]);
    v.push(...checkInstructions(opts.target, parseObjdump(dump), opts.traceConsumer === true));
  }

  if (opts.ownSymbols) {
    for (const s of elf.symbols) {
      if (s.shndx === 0 || s.name === '' || s.type === 3 /* STT_SECTION */ || s.type === 4 /* STT_FILE */) continue;
      if (!opts.ownSymbols.has(s.name) && !LINKER_SYMBOLS.has(s.name)) {
        v.push({ rule: 'foreign-symbol', address: s.value, text: `symbol ${s.name} is not defined by any object built from this project's sources` });
      }
    }
  }
  return v;
}

export function formatViolations(file: string, v: readonly Violation[], max = 20): string {
  const lines = v.slice(0, max).map((x) => `  ${x.rule}${x.address !== undefined ? ` @0x${x.address.toString(16)}` : ''}: ${x.text}`);
  if (v.length > max) lines.push(`  ... and ${v.length - max} more`);
  return `${file}: ${v.length} violation(s)\n${lines.join('\n')}`;
}
