/**
 * emu's commands as `emu --help` lists them: name, the rest of the command's term in that list
 * (its options and arguments, as commander writes them) and description. The CLI (bin/cli.ts)
 * lists them from here without loading the commands' modules; each command module describes
 * itself with describe(), and a test checks the terms against the commands' own.
 */
export const COMMANDS = [
  ['images', '', 'build and check guest programs and boot images'],
  ['run', '[options] [target] [args...]', 'boot an image (default: the demo) or run one guest executable under the 4.4BSD-like kernel'],
  ['instrument', '[options] <prog>', 'instrument a static MIPS or SPARC executable for abstract-execution tracing (to trace a run: emu run PROG --trace)'],
  ['regen', '[options] <bundle>', 'regenerate the full trace of the traced programs of a trace bundle (emu run IMAGE|PROG --trace)'],
  ['disasm', '<file>', 'disassemble a MIPS or SPARC ELF executable (objdump -d layout)'],
  ['replay', '[options] <input>', 'replay a multi-process trace into a shared cache simulator; write the schedule as a Chrome/Perfetto timeline'],
] as const;

export type CommandName = (typeof COMMANDS)[number][0];

/** The term of a command in `emu --help`: its name and the options and arguments it takes. */
export function term(name: CommandName): string {
  const t = COMMANDS.find((c) => c[0] === name)![1];
  return t === '' ? name : `${name} ${t}`;
}

/** The description of a command. */
export function describe(name: CommandName): string {
  return COMMANDS.find((c) => c[0] === name)![2];
}
