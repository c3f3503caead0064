/**
 * A bundle's ground truth, checked against the manifest before anything reads it (`emu regen
 * --verify`, `emu replay --truth`): the manifest holds its size and the CRC-32 of every block, so
 * a damaged or truncated truth is reported as such, first, instead of as a divergence of
 * regeneration or as statistics of damaged events.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { BundleError, checkStream, type Bundle, type StreamInfo } from '../format/bundle.js';

/** The truth's manifest entry and file, present and well-formed; throws BundleError. */
function truthOf(b: Bundle): { info: StreamInfo; file: string } {
  const info = b.manifest.streams.truth;
  if (!info || !b.truthFile) throw new BundleError(`${b.dir}: the bundle has no ground truth (record it with emu run --trace --truth)`);
  const file = b.truthFile;
  if (!existsSync(file) || !statSync(file).isFile()) throw new BundleError(`${file}: missing (the manifest lists a ground truth of ${info.bytes} bytes)`);
  if (!Array.isArray(info.crc32) || typeof info.bytes !== 'number' || typeof info.block !== 'number' || !(info.block > 0)) {
    throw new BundleError(`${join(b.dir, 'manifest.json')}: "streams.truth" needs file, bytes, block and crc32`);
  }
  return { info, file };
}

function damaged(file: string, info: StreamInfo, at: number, size: number): BundleError {
  const end = Math.min(size, at + info.block) - 1;
  return new BundleError(`${file}: damaged: block ${at / info.block} (bytes ${at}-${end}) does not match its CRC-32 in the manifest`);
}

/** Data after the end is found before the checksums; truncation after them (damage before the cut comes first). */
function tooLong(file: string, info: StreamInfo, size: number): void {
  if (size > info.bytes) throw new BundleError(`${file}: ${size} bytes, the manifest says ${info.bytes}: data after the end`);
}

function truncated(file: string, info: StreamInfo, size: number): void {
  if (size < info.bytes) throw new BundleError(`${file}: truncated: ${size} of the ${info.bytes} bytes the manifest lists`);
}

/** The truth file's bytes, checked (regen --verify); throws BundleError naming the file, the block and the cause. */
export function readBundleTruth(b: Bundle): Uint8Array {
  const { info, file } = truthOf(b);
  const bytes = new Uint8Array(readFileSync(file));
  tooLong(file, info, bytes.length);
  const { damagedAt } = checkStream(bytes, info);
  if (damagedAt >= 0) throw damaged(file, info, damagedAt, bytes.length);
  truncated(file, info, bytes.length);
  return bytes;
}

/** The same checks, a block at a time, without keeping the file (replay --truth reads it itself). */
export function checkBundleTruth(b: Bundle): void {
  const { info, file } = truthOf(b);
  const size = statSync(file).size;
  tooLong(file, info, size);
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(info.block);
    for (let i = 0, at = 0; at < size; i++, at += info.block) {
      const n = readSync(fd, buf, 0, Math.min(info.block, size - at), at);
      // A short last block of a truncated file differs only because it is short: the size says so below.
      if (crc32(buf.subarray(0, n)) >>> 0 !== info.crc32[i] && !(at + n === size && size < info.bytes)) throw damaged(file, info, at, size);
    }
  } finally {
    closeSync(fd);
  }
  truncated(file, info, size);
}
