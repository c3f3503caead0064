/*
 * The program parent.c's child execs (test/regen/own.test.ts): reads numbers from its standard
 * input, prints their count, sum and largest, exits with the count modulo 256.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char line[64];
	long count = 0, sum = 0, max = 0;

	while (fgets(line, sizeof line, stdin) != NULL) {
		long v = strtol(line, NULL, 10);
		count++;
		sum += v;
		if (v > max)
			max = v;
	}
	printf("%s: %ld %s, sum %ld, largest %ld\n", argc > 1 ? argv[1] : "child", count, argc > 1 ? argv[1] : "numbers", sum, max);
	return (int)(count % 256);
}
