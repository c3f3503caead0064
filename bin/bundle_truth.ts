/**
 * A bundle's ground truth, checked against the manifest before anything reads it (`emu regen
 * --verify`, `emu replay --truth`): the manifest holds its size and the CRC-32 of every block, so
 * a damaged or truncated truth is reported as such, first, instead of as a divergence of
 * regeneration or as statistics of damaged events.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BundleError, checkStream, type Bundle } from '../format/bundle.js';

/** The truth file's bytes; throws BundleError naming the file, the block and the cause. */
export function readBundleTruth(b: Bundle): Uint8Array {
  const info = b.manifest.streams.truth;
  if (!info || !b.truthFile) throw new BundleError(`${b.dir}: the bundle has no ground truth (record it with emu run --trace --truth)`);
  const file = b.truthFile;
  if (!existsSync(file) || !statSync(file).isFile()) throw new BundleError(`${file}: missing (the manifest lists a ground truth of ${info.bytes} bytes)`);
  if (!Array.isArray(info.crc32) || typeof info.bytes !== 'number' || typeof info.block !== 'number' || !(info.block > 0)) {
    throw new BundleError(`${join(b.dir, 'manifest.json')}: "streams.truth" needs file, bytes, block and crc32`);
  }
  const bytes = new Uint8Array(readFileSync(file));
  if (bytes.length > info.bytes) throw new BundleError(`${file}: ${bytes.length} bytes, the manifest says ${info.bytes}: data after the end`);
  const { damagedAt } = checkStream(bytes, info);
  if (damagedAt >= 0) {
    const end = Math.min(bytes.length, damagedAt + info.block) - 1;
    throw new BundleError(`${file}: damaged: block ${damagedAt / info.block} (bytes ${damagedAt}-${end}) does not match its CRC-32 in the manifest`);
  }
  if (bytes.length < info.bytes) throw new BundleError(`${file}: truncated: ${bytes.length} of the ${info.bytes} bytes the manifest lists`);
  return bytes;
}
