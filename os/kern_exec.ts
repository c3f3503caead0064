/**
 * execve (4.4BSD kern_exec.c with the ELF32 loader of a static-executable system): checks the
 * file, copies the arguments in, builds a new address space — text read-only and shared through
 * the executable's vm_object, data copy-on-write from it, bss and heap demand-zero, the stack
 * with argc/argv/envp as crt0 expects (docs/abi.md "Process start") — then replaces the old image.
 * Failure before the point of no return leaves the caller's image untouched. A pipeline may put
 * another image in place of the file's at exec (Kernel.execImage: the traced run of a bare
 * executable instruments the programs it execs); the kernel knows nothing of what it is.
 */
import { COST } from './cost.js';
import { E2BIG, EACCES, EFAULT, ENOEXEC, ENOMEM, ETXTBSY, EJUSTRETURN } from './errno.js';
import { EF_MIPS_ARCH, EF_MIPS_ARCH_1, EM_MIPS, EM_SPARC, ET_EXEC, PF_W, PF_X, PT_INTERP, PT_LOAD, parseElf, type ElfFile } from '../format/elf.js';
import { fdcloseexec } from './kern_descrip.js';
import type { Kernel } from './kernel.js';
import { VM_PROT_ALL, VM_PROT_EXECUTE, VM_PROT_READ } from './machdep.js';
import { ARG_MAX, MAXCOMLEN, MAXPATHLEN, MAXSSIZ, PAGE_SIZE, round_page, trunc_page } from './param.js';
import { type KGen, P_EXEC, type Proc } from './proc.js';
import { execsigs } from './kern_sig.js';
import { LOOKUP, VREG, Vnode } from './vfs.js';
import { copyinstr, copyout, fuword } from './vm/copyio.js';
import { VM_INHERIT_COPY, VmMapEntry, VmSpace } from './vm/vm_map.js';
import { VmObject } from './vm/vm_object.js';

/** Why a file is not an executable of this machine (for the log), or null when it is. */
export function execCheck(k: Kernel, e: ElfFile): string | null {
  const h = e.header;
  if (k.md.arch === 'mips') {
    if (h.machine !== EM_MIPS) return `e_machine ${h.machine} is not MIPS`;
    if (e.bigEndian !== !k.littleEndian) return `byte order differs from the machine's`;
    if ((h.flags & EF_MIPS_ARCH) >>> 0 !== EF_MIPS_ARCH_1) return `not MIPS I code (e_flags 0x${(h.flags >>> 0).toString(16)})`;
  } else {
    if (h.machine !== EM_SPARC) return `e_machine ${h.machine} is not SPARC v8 (EM_SPARC)`;
    if (!e.bigEndian) return 'little-endian SPARC';
  }
  if (h.type !== ET_EXEC) return `e_type ${h.type} is not ET_EXEC (emu runs static executables)`;
  if (e.programHeaders.some((ph) => ph.type === PT_INTERP)) return 'dynamically linked (PT_INTERP)';
  if (!e.programHeaders.some((ph) => ph.type === PT_LOAD)) return 'no PT_LOAD segment';
  return null;
}

interface Loaded {
  vs: VmSpace;
  entry: number;
  sp: number;
  argv: number;
  envp: number;
}

/** Builds the new address space; returns it or an errno (nothing of the caller changed). */
function buildImage(k: Kernel, vp: Vnode, path: string, elf: ElfFile, argv: string[], envp: string[]): Loaded | number {
  const md = k.md;
  const lay = md.layout;
  const vs = new VmSpace(k.vm);
  vs.reserved.push(k.trbufRange());
  let obj = vp.v_object;
  let fresh = false;
  if (!obj) {
    obj = VmObject.create(k.pages, path, vp.data.subarray(0, vp.size), vp.size);
    if (!obj) {
      vs.destroy();
      return ENOMEM;
    }
    fresh = true;
  }
  const fail = (e: number): number => {
    // Entries hold the object's references: destroying them frees a fresh object that one of
    // them referenced; a fresh object no entry took is released here.
    const referenced = obj!.ref > 0;
    vs.destroy();
    if (fresh && !referenced) {
      obj!.ref = 1;
      obj!.deallocate();
    }
    return e;
  };
  let brk = 0;
  let textEnd = 0;
  let daddr = 0xffffffff;
  const segs = elf.programHeaders.filter((ph) => ph.type === PT_LOAD && ph.memsz > 0).sort((a, b) => a.vaddr - b.vaddr);
  for (const ph of segs) {
    const vaddr = ph.vaddr >>> 0;
    const start = trunc_page(vaddr);
    const end = round_page(vaddr + ph.memsz);
    const fileEnd = vaddr + ph.filesz;
    if (ph.filesz > ph.memsz || ph.offset + ph.filesz > vp.size) return fail(ENOEXEC);
    if (vaddr % PAGE_SIZE !== ph.offset % PAGE_SIZE) return fail(ENOEXEC);
    if (start < lay.minUser || end > lay.maxUser) return fail(ENOEXEC);
    const objOffset = trunc_page(ph.offset) / PAGE_SIZE;
    let e: VmMapEntry;
    if ((ph.flags & PF_W) === 0) {
      if (ph.memsz > ph.filesz) return fail(ENOEXEC); // a read-only segment with zero fill
      const prot = VM_PROT_READ | (ph.flags & PF_X ? VM_PROT_EXECUTE : 0);
      e = new VmMapEntry(start, end, prot, VM_INHERIT_COPY, 'text', obj, objOffset, (end - start) / PAGE_SIZE, false);
      if (!vs.insert(e)) return fail(vs.isFree(start, end) ? ENOMEM : ENOEXEC);
    } else {
      const objPages = Math.max(0, Math.floor((fileEnd - start) / PAGE_SIZE));
      e = new VmMapEntry(start, end, VM_PROT_ALL, VM_INHERIT_COPY, 'data', obj, objOffset, objPages, false);
      if (!vs.insert(e)) return fail(vs.isFree(start, end) ? ENOMEM : ENOEXEC);
      // The page where the file part ends holds file bytes then zeros (the start of bss).
      if (fileEnd % PAGE_SIZE !== 0 && ph.filesz > 0 && fileEnd < end) {
        const pageVa = trunc_page(fileEnd);
        const pa = k.pages.allocZeroed();
        const foff = ph.offset + (pageVa - vaddr);
        const from = Math.max(foff, ph.offset);
        const bytes = vp.data.subarray(from, ph.offset + ph.filesz);
        k.md.mem.writeBytes(pa + (from - foff), bytes);
        vs.newAnon(e, pageVa / PAGE_SIZE, pa);
      }
      daddr = Math.min(daddr, start);
    }
    // The heap follows the data segment (bss): a read-only segment elsewhere — an instrumented
    // executable's new text above the trace buffer — does not move the break.
    if ((ph.flags & PF_W) !== 0) brk = Math.max(brk, vaddr + ph.memsz);
    else textEnd = Math.max(textEnd, vaddr + ph.memsz);
  }
  if (brk === 0) brk = textEnd;
  vs.brk = brk;
  vs.brkBase = brk;
  vs.daddr = daddr === 0xffffffff ? round_page(brk) : daddr;

  // The stack: strings at the top, then the pointer vectors, argc at sp + stackBias.
  const enc = (s: string): Uint8Array => {
    const b = new Uint8Array(s.length + 1);
    for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 0xff;
    return b;
  };
  const strs = [...argv, ...envp].map(enc);
  const strBytes = strs.reduce((n, b) => n + b.length, 0);
  const top = lay.usrstack;
  const strStart = ((top - strBytes) & ~3) >>> 0;
  const vecBytes = 4 * (1 + argv.length + 1 + envp.length + 1);
  const sp = ((strStart - vecBytes - md.stackBias) & ~7) >>> 0;
  const stackStart = trunc_page(sp) - PAGE_SIZE;
  const st = new VmMapEntry(stackStart, top, VM_PROT_ALL, VM_INHERIT_COPY, 'stack', null, 0, 0, false);
  if (!vs.insert(st)) return fail(ENOMEM);
  vs.stack = st;
  vs.stackLimit = top - MAXSSIZ;
  const img = new Uint8Array(top - sp);
  const dv = new DataView(img.buffer);
  const le = k.littleEndian;
  const argcAt = md.stackBias;
  dv.setUint32(argcAt, argv.length, le);
  let sptr = strStart;
  const put = (i: number, b: Uint8Array): void => {
    dv.setUint32(argcAt + 4 + 4 * i, sptr, le);
    img.set(b, sptr - sp);
    sptr += b.length;
  };
  argv.forEach((_, i) => put(i, strs[i]!));
  const envBase = argv.length + 1;
  envp.forEach((_, i) => put(envBase + i, strs[argv.length + i]!));
  if (copyout(vs, img, sp)) return fail(ENOMEM);
  return { vs, entry: elf.header.entry >>> 0, sp, argv: sp + argcAt + 4, envp: sp + argcAt + 4 + 4 * envBase };
}

/**
 * The work of execve with the arguments already in the kernel: used by the system call and by
 * boot to start init. Returns 0 with the new image installed in curproc, or an errno.
 */
export function* kern_execve(k: Kernel, p: Proc, path: string, argv: string[], envp: string[]): KGen<number> {
  const r = k.vfs.namei(p.p_fd.cwd, path, LOOKUP);
  if (r.error) return r.error;
  const vp = r.vp!;
  if (vp.type !== VREG || (vp.mode & 0o111) === 0) return EACCES;
  if (vp.v_writecount > 0) return ETXTBSY;
  vp.usecount++;
  try {
    yield* k.disk.bread(p, vp, 0, vp.size);
    if (vp.v_writecount > 0) return ETXTBSY;
    let elf: ElfFile;
    try {
      elf = parseElf(vp.data.subarray(0, vp.size), path);
    } catch (e) {
      k.log.debug({ pid: p.p_pid, path, why: (e as Error).message }, 'exec: ENOEXEC');
      return ENOEXEC;
    }
    const why = execCheck(k, elf);
    if (why) {
      k.log.debug({ pid: p.p_pid, path, why }, 'exec: ENOEXEC');
      return ENOEXEC;
    }
    // The image that runs: the file's, or the one the exec-image hook puts in its place.
    let ivp = vp;
    if (k.execImage) {
      const sub = k.execImage(k.vfs.absolute(p.p_fd.cwd, path), vp.data.subarray(0, vp.size));
      if (sub) {
        ivp = substituteVnode(k, sub, vp.mode);
        elf = parseElf(sub, `${path} (substituted image)`);
        const bad = execCheck(k, elf);
        if (bad) throw new Error(`exec ${path}: the substituted image is not an executable of this machine: ${bad}`);
      }
    }
    const ld = buildImage(k, ivp, path, elf, argv, envp);
    if (typeof ld === 'number') {
      k.log.debug({ pid: p.p_pid, path, errno: ld }, 'exec failed');
      return ld;
    }
    // The point of no return.
    const obj = ld.vs.entries.find((e) => e.object)?.object ?? null;
    if (obj && !ivp.v_object) {
      ivp.v_object = obj;
      obj.onFree = () => {
        if (ivp.v_object === obj) ivp.v_object = null;
      };
    }
    p.p_vmspace?.destroy();
    p.p_vmspace = ld.vs;
    k.md.pmap_activate(p);
    fdcloseexec(k, p);
    execsigs(p);
    p.p_flag |= P_EXEC;
    p.p_path = path;
    const base = path.slice(path.lastIndexOf('/') + 1);
    p.p_comm = base.slice(0, MAXCOMLEN);
    k.md.setregs(p, ld.entry, { sp: ld.sp, argc: argv.length, argv: ld.argv, envp: ld.envp });
    k.charge(COST.exec);
    for (const h of k.hooks) h.exec?.(p, path);
    k.truth?.exec(p.p_pid, path);
    k.log.debug({ pid: p.p_pid, path, argv }, 'exec');
    return 0;
  } finally {
    vp.usecount--;
  }
}

/**
 * The vnode a substituted image runs from: not in any directory, one per image array, so that
 * every exec of the same image shares its text object as execs of one file do.
 */
function substituteVnode(k: Kernel, image: Uint8Array, mode: number): Vnode {
  let vp = k.execImages.get(image);
  if (!vp) {
    vp = new Vnode(0, VREG, mode);
    vp.data = image;
    vp.size = image.length;
    k.execImages.set(image, vp);
  }
  return vp;
}

/** Copies a NULL-terminated vector of user strings in; adds their bytes to `total`. */
function copyVector(p: Proc, uvec: number, out: string[], total: { n: number }): number {
  if (uvec === 0) return 0;
  const vs = p.p_vmspace!;
  for (let i = 0; ; i++) {
    const ptr = fuword(vs, (uvec + 4 * i) >>> 0);
    if (ptr === undefined) return EFAULT;
    if (ptr === 0) return 0;
    const s = copyinstr(vs, ptr >>> 0, ARG_MAX - total.n);
    if (typeof s === 'number') return s === EFAULT ? EFAULT : E2BIG;
    total.n += s.length + 1;
    if (total.n > ARG_MAX) return E2BIG;
    out.push(s);
  }
}

/** execve(path, argv, envp) */
export function* sys_execve(k: Kernel, p: Proc, a: Int32Array): KGen<number> {
  const path = copyinstr(p.p_vmspace!, a[0]! >>> 0, MAXPATHLEN);
  if (typeof path === 'number') return path;
  const argv: string[] = [];
  const envp: string[] = [];
  const total = { n: 0 };
  let e = copyVector(p, a[1]! >>> 0, argv, total);
  if (!e) e = copyVector(p, a[2]! >>> 0, envp, total);
  if (e) return e;
  e = yield* kern_execve(k, p, path, argv, envp);
  return e ? e : EJUSTRETURN;
}
