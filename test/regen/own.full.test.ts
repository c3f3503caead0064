/** Tracing your own program as a bare executable on mips and sparc (mipsel: own.test.ts). */
import { ownProgramSuite } from './own/suite.js';

ownProgramSuite(['mips', 'sparc']);
