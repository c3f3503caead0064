#!/usr/bin/env node
// Launcher for the emu command line: runs the compiled CLI from dist/ (built by `npm install`,
// which runs the `prepare` script, or by `npm run build`).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'dist', 'bin', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write(`emu: ${cli} is missing; run 'npm install' (or 'npm run build') in ${root} first\n`);
  process.exit(2);
}
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(process.argv);
