/*
 * Builtin commands: those that must change the shell itself (cd, exit, wait, export, unset,
 * shift) and the trivial ones (:, true, false). exec is handled by the command runner. NAME=value
 * prefixes of a special builtin stay set in the shell; those of the others last for the command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

static int b_colon(char **argv)
{
	(void)argv;
	return 0;
}

static int b_false(char **argv)
{
	(void)argv;
	return 1;
}

static int b_cd(char **argv)
{
	const char *dir = argv[1];

	if (dir == NULL && (dir = var_get("HOME")) == NULL) {
		sh_error("cd: HOME not set");
		return 1;
	}
	if (chdir(dir) < 0) {
		sh_error("cd: %s: cannot change directory", dir);
		return 1;
	}
	return 0;
}

static int b_exit(char **argv)
{
	int status = laststatus;

	if (argv[1]) {
		char *end;
		long v = strtol(argv[1], &end, 10);
		if (*end != '\0' || end == argv[1] || v < 0) {
			sh_error("exit: %s: bad number", argv[1]);
			status = 2;
		} else
			status = (int)(v & 0xff);
	}
	exit(status);
}

static int b_export(char **argv)
{
	int status = 0;

	if (argv[1] == NULL) {
		var_print_exports();
		return 0;
	}
	for (argv++; *argv; argv++) {
		char *eq = strchr(*argv, '=');
		size_t n = eq ? (size_t)(eq - *argv) : strlen(*argv);

		if (!is_name(*argv, n)) {
			sh_error("export: %s: bad variable name", *argv);
			status = 1;
		} else if (eq) {
			*eq = '\0';
			var_set(*argv, eq + 1, 1);
			*eq = '=';
		} else
			var_export(*argv);
	}
	return status;
}

static int b_unset(char **argv)
{
	for (argv++; *argv; argv++)
		var_unset(*argv);
	return 0;
}

static int b_shift(char **argv)
{
	int n = argv[1] ? atoi(argv[1]) : 1;

	if (n < 0 || n > nposargs) {
		sh_error("shift: cannot shift %d", n);
		return 1;
	}
	posargs += n;
	nposargs -= n;
	return 0;
}

/* special: a POSIX special builtin, whose NAME=value prefixes stay set in the shell */
static const struct {
	const char *name;
	builtin_fn fn;
	int special;
} builtins[] = {
	{ ":", b_colon, 1 },
	{ "cd", b_cd, 0 },
	{ "exit", b_exit, 1 },
	{ "export", b_export, 1 },
	{ "false", b_false, 0 },
	{ "shift", b_shift, 1 },
	{ "true", b_colon, 0 },
	{ "unset", b_unset, 1 },
	{ "wait", builtin_wait, 0 },
};

builtin_fn builtin_lookup(const char *name, int *special)
{
	size_t i;

	for (i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(builtins[i].name, name) == 0) {
			*special = builtins[i].special;
			return builtins[i].fn;
		}
	return NULL;
}
