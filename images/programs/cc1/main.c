/*
 * cc1: compiles MC source files to assembly text for the MIPS-like target (see cc1.h).
 *
 *   cc1 [-S] [-o out.s] [-k K] file.mc...     "-" reads stdin
 *
 * Each file is compiled K times (default 1), every time from scratch; the summary gives, per
 * file, the sizes and statistics of the output and a CRC-32 of the assembly text, which must be
 * the same for every repetition. -S writes the text to stdout after the summary, -o to a file.
 * Exit status 1 if any file has errors (they are reported on stderr with file and line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc1.h"

static unsigned int crc_table[256];

static unsigned int crc32(const char *p, size_t n)
{
	unsigned int c = 0xffffffffu;
	if (!crc_table[1]) {
		unsigned int i, k, x;
		for (i = 0; i < 256; i++) {
			x = i;
			for (k = 0; k < 8; k++)
				x = x & 1 ? 0xedb88320u ^ (x >> 1) : x >> 1;
			crc_table[i] = x;
		}
	}
	while (n--)
		c = crc_table[(c ^ (unsigned char)*p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

static char *read_file(const char *name)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	size_t cap = 65536, n = 0, k;
	char *buf;
	if (!f) {
		perror(name);
		exit(1);
	}
	buf = malloc(cap + 1);
	while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	}
	if (!buf) {
		fprintf(stderr, "cc1: out of memory\n");
		exit(1);
	}
	if (ferror(f)) {
		perror(name);
		exit(1);
	}
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

static long count_lines(const struct out *o)
{
	long n = 0;
	size_t i;
	for (i = 0; i < o->len; i++)
		n += o->buf[i] == '\n';
	return n;
}

/* One compilation: parse, check, generate. Returns the number of errors. */
static int compile(const char *file, const char *src, struct out *o, struct gen_stats *st)
{
	struct parser ps;
	struct program prog;
	memset(&ps, 0, sizeof ps);
	memset(&prog, 0, sizeof prog);
	memset(st, 0, sizeof *st);
	folded_count = 0;
	o->len = 0;
	lex_init(&ps.lx, file, src);
	parse_program(&ps, &prog);
	if (prog.errors == 0)
		gen_program(&prog, o, st);
	st->folded += folded_count;
	arena_reset();
	return prog.errors;
}

int main(int argc, char **argv)
{
	const char *outfile = 0;
	int print = 0, i, k, repeats = 1, status = 0, nfiles = 0;
	char **files = malloc(sizeof *files * (size_t)argc);
	struct out o = { 0, 0, 0 }, keep = { 0, 0, 0 };
	char *end;
	if (!files)
		return 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-S")) {
			print = 1;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			outfile = argv[++i];
		} else if (!strcmp(argv[i], "-k") && i + 1 < argc) {
			repeats = (int)strtol(argv[++i], &end, 10);
			if (*end || repeats < 1) {
				fprintf(stderr, "cc1: -k needs a positive count\n");
				return 2;
			}
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "usage: cc1 [-S] [-o out.s] [-k K] file.mc...\n");
			return 2;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (nfiles == 0) {
		fprintf(stderr, "usage: cc1 [-S] [-o out.s] [-k K] file.mc...\n");
		return 2;
	}
	for (i = 0; i < nfiles; i++) {
		const char *name = strcmp(files[i], "-") ? files[i] : "(stdin)";
		char *src = read_file(files[i]);
		struct gen_stats st;
		unsigned int crc = 0, first_crc = 0;
		int errors = 0;
		for (k = 0; k < repeats; k++) {
			errors = compile(name, src, &o, &st);
			if (errors)
				break;
			crc = crc32(o.buf, o.len);
			if (k == 0)
				first_crc = crc;
			else if (crc != first_crc) {
				printf("%s: FAILED, repetition %d gave different output\n", name, k + 1);
				status = 1;
				break;
			}
		}
		if (errors) {
			printf("%s: %d error%s\n", name, errors, errors == 1 ? "" : "s");
			status = 1;
			free(src);
			continue;
		}
		printf("%s: %ld functions, %ld instructions, %ld lines, %lu bytes of assembly, crc32 %08x\n",
		       name, st.functions, st.instructions, count_lines(&o), (unsigned long)o.len, crc);
		printf("%s: %ld registers allocated, %ld spills, %ld constants folded, %ld instructions removed by peephole\n",
		       name, st.regs_allocated, st.spills, st.folded, st.peephole_removed);
		for (k = 0; (size_t)k < o.len; k++)
			out_char(&keep, o.buf[k]);
		free(src);
	}
	printf("%d file%s compiled %d time%s\n", nfiles, nfiles == 1 ? "" : "s", repeats, repeats == 1 ? "" : "s");
	if (outfile) {
		FILE *f = fopen(outfile, "w");
		if (!f || fwrite(keep.buf, 1, keep.len, f) != keep.len || fclose(f) != 0) {
			perror(outfile);
			return 1;
		}
	}
	if (print && keep.len)
		fwrite(keep.buf, 1, keep.len, stdout);
	return status;
}
