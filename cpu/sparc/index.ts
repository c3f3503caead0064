/**
 * The SPARC v8 CPU: public entry points. See docs/cpu-sparc.md.
 *
 * Layering inside cpu/sparc: state.ts < memops.ts < ops.ts < core.ts hold the architectural
 * state and the services both engines call; the engines (interp.ts; translate.ts with codegen.ts,
 * fpgen.ts, jsgen.ts) see only SparcCore; cpu.ts's SparcCpu runs them. Nothing below cpu.ts
 * imports it.
 */
export { SparcCpu, RUN_BUDGET, RUN_ERROR, RUN_TRAP, type EngineName, type RunExit, type SparcCpuConfig } from './cpu.js';
export type { SparcCore, SparcRefSink } from './core.js';
