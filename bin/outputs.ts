/**
 * The host files a command reads and writes. Contract of every output (file or bundle directory):
 *   - checked before any work: its directory exists and takes a new entry, it is not one of the
 *     command's inputs (an output never writes over an input), an existing bundle directory is
 *     replaced only when it is a trace bundle;
 *   - written under a temporary name in the same directory (`.NAME.PID.partial`) and renamed into
 *     place only when the command succeeded; any failure, an interrupt included, removes it, so no
 *     partial output is left behind and an earlier output stays as it was.
 * Node's file-system errors become one-line messages naming the file the user gave.
 *
 * Directories are made one level at a time: Node's recursive mkdir loops forever under /proc
 * (mkdir there fails with ENOENT, which the recursion takes for a missing parent).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { FileSink } from '../format/sink.js';
import { reason } from './host_errors.js';

export { reason };

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** An input file's bytes; a missing or unreadable file gives "FILE: why". */
export function readInput(file: string): Buffer {
  const st = statOrNull(file);
  if (st === null) throw new Error(`${file}: no such file`);
  if (st.isDirectory()) throw new Error(`${file}: is a directory, not a file`);
  try {
    return readFileSync(file);
  } catch (e) {
    throw new Error(`${file}: cannot read: ${reason(e)}`);
  }
}

/** True when both paths exist and are the same file (or directory). */
function sameFile(a: string, b: string): boolean {
  const x = statOrNull(a);
  const y = statOrNull(b);
  return x !== null && y !== null && x.dev === y.dev && x.ino === y.ino;
}

/**
 * The checks every output gets before work: not an input, its directory exists and is a
 * directory. `what` names the option ("--stats", "-o").
 */
function checkPlace(path: string, what: string, inputs: readonly string[]): void {
  for (const i of inputs) {
    if (sameFile(path, i) || resolve(path) === resolve(i)) throw new Error(`${what}: ${path} is an input of this command (${i}); it is not overwritten`);
  }
  const dir = dirname(path);
  const d = statOrNull(dir);
  if (d === null) throw new Error(`${what}: ${path}: the directory ${dir} does not exist`);
  if (!d.isDirectory()) throw new Error(`${what}: ${path}: ${dir} is not a directory`);
}

function partialName(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
}

/**
 * An output file, created (under its temporary name) by the constructor, before any work. A path
 * that exists and is not a regular file (/dev/null, a FIFO, a terminal) is written directly:
 * renaming over it would replace the device node with a plain file.
 */
export class OutputFile {
  readonly tmp: string | null;
  readonly sink: FileSink;
  private settled = false;
  constructor(readonly path: string, what: string, inputs: readonly string[] = []) {
    const st = statOrNull(path);
    if (st?.isDirectory()) throw new Error(`${what}: ${path} is a directory`);
    const special = st !== null && !st.isFile();
    if (!special) checkPlace(path, what, inputs);
    this.tmp = special ? null : partialName(path);
    try {
      this.sink = new FileSink(this.tmp ?? path);
    } catch (e) {
      throw new Error(`${what}: ${path}: cannot create it in ${dirname(path)}: ${reason(e)}`);
    }
  }
  /** Writes everything at once and keeps it. */
  writeAll(bytes: Uint8Array | string): void {
    this.sink.write(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    this.sink.close();
    this.settle(true);
  }
  /** After the writer finished (the sink is closed): keep (rename into place) or drop the output. */
  settle(ok: boolean): void {
    if (this.settled) return;
    this.settled = true;
    if (this.tmp === null) return;
    if (ok) renameSync(this.tmp, this.path);
    else rmSync(this.tmp, { force: true });
  }
  /** Drops the output whatever state the sink is in (error paths). */
  abandon(): void {
    if (this.settled) return;
    try {
      this.sink.close();
    } catch {
      // closed already
    }
    this.settle(false);
  }
}

/** True when a directory is empty or its manifest.json has this "format" (an output of the same kind). */
function replaceable(dir: string, format: string): boolean {
  if (readdirSync(dir).length === 0) return true;
  try {
    return (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { format?: unknown }).format === format;
  } catch {
    return false;
  }
}

/**
 * A bundle directory: made (under its temporary name) by the constructor, before any work; an
 * existing directory at `path` is replaced by commit() when it is empty or a bundle of the same
 * `format` (its manifest.json's), anything else there is refused.
 */
export class OutputDir {
  readonly tmp: string;
  private settled = false;
  constructor(readonly path: string, what: string, format: string, inputs: readonly string[] = []) {
    const st = statOrNull(path);
    if (st !== null && !st.isDirectory()) throw new Error(`${what}: ${path} exists and is not a directory`);
    checkPlace(path, what, inputs);
    if (st !== null && !replaceable(path, format)) throw new Error(`${what}: ${path} exists and is not a trace bundle; it is not replaced`);
    this.tmp = partialName(path);
    rmSync(this.tmp, { recursive: true, force: true });
    try {
      mkdirSync(this.tmp);
    } catch (e) {
      throw new Error(`${what}: ${path}: cannot create it in ${dirname(path)}: ${reason(e)}`);
    }
  }
  commit(): void {
    if (this.settled) return;
    this.settled = true;
    if (existsSync(this.path)) {
      const old = `${this.tmp}.old`;
      renameSync(this.path, old);
      renameSync(this.tmp, this.path);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(this.tmp, this.path);
    }
  }
  abandon(): void {
    if (this.settled) return;
    this.settled = true;
    rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** Checks that a file can be created at `path` (for outputs written by others, e.g. a directory tree). */
export function checkOutputDirPlace(path: string, what: string, inputs: readonly string[] = []): void {
  const st = statOrNull(path);
  if (st !== null && !st.isDirectory()) throw new Error(`${what}: ${path} exists and is not a directory`);
  checkPlace(path, what, inputs);
}
