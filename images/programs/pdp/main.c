/*
 * pdp: a connectionist simulator workload (larus-1990 section 6 traced "pdp", a connectionism
 * simulator, as its example of irregular memory references).
 *
 *   pdp [scale]        default 1: back propagation for 8 * scale epochs, then 6 * scale
 *                      content-addressable-memory probes
 *
 * Self-checking: the connection lists must be consistent and the training error must fall; the
 * Hopfield goodness must rise at every flip, match a recount, and every settled state must be
 * stable. Exit status 1 if any check fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include "pdp.h"

int main(int argc, char **argv)
{
	struct bp_options bp = { 32, 64, 32, 32, 60, 8, 0.1, 0.9 };
	struct cs_options cs = { 1000, 40, 10, 6, 20 };
	int scale = 1, status = 0;
	char *end;
	if (argc > 2) {
		fprintf(stderr, "usage: pdp [scale]\n");
		return 2;
	}
	if (argc > 1) {
		scale = (int)strtol(argv[1], &end, 10);
		if (*end || scale < 1 || scale > 10000) {
			fprintf(stderr, "pdp: scale must be 1..10000\n");
			return 2;
		}
	}
	bp.epochs *= scale;
	cs.nprobes *= scale;
	rnd_seed(1);
	status |= bp_run(&bp);
	rnd_seed(2);
	status |= cs_run(&cs);
	return status;
}
