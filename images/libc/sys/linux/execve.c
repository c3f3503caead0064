/*
 * execve for the Linux flavour, with the qemu-user rule of docs/abi.md "Linux flavour".
 *
 * qemu-user runs one foreign binary; without binfmt_misc the host kernel cannot exec another.
 * So when the calling process's environment has EMU_QEMU (the path of the qemu-user binary for
 * this target), execve(path, argv, envp) execs
 *	EMU_QEMU -0 argv[0] path argv[1] ... argv[n]
 * instead, and keeps EMU_QEMU in the new environment so the rule applies to its own execs.
 * The file is checked first (exists, executable, ELF) so that the caller sees the errno a
 * kernel would give (ENOENT, EACCES, ENOEXEC) rather than a qemu failure after the exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <lsys.h>
#include <unistd.h>

#define QEMU_VAR	"EMU_QEMU="
#define QEMU_VARLEN	(sizeof QEMU_VAR - 1)

/* The "EMU_QEMU=..." entry of env, or NULL. */
static char *
qemu_entry(char *const *env)
{
	char *const *e;
	size_t i;

	if (env == 0)
		return 0;
	for (e = env; *e; e++) {
		for (i = 0; i < QEMU_VARLEN && (*e)[i] == QEMU_VAR[i]; i++)
			;
		if (i == QEMU_VARLEN)
			return *e;
	}
	return 0;
}

static int
check_elf(const char *path)
{
	unsigned char hdr[4];
	int fd, n;

	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	n = read(fd, hdr, sizeof hdr);
	close(fd);
	if (access(path, X_OK) < 0)
		return -1;
	if (n != 4 || hdr[0] != 0x7f || hdr[1] != 'E' || hdr[2] != 'L' || hdr[3] != 'F') {
		errno = ENOEXEC;
		return -1;
	}
	return 0;
}

int
execve(const char *path, char *const argv[], char *const envp[])
{
	char *entry = qemu_entry(environ);
	const char *qemu;
	int argc, envc, i, j;

	if (entry == 0 || entry[QEMU_VARLEN] == '\0')
		return __lsys_ret(__lsys3(LNR_execve, path, argv, envp));
	qemu = entry + QEMU_VARLEN;
	if (check_elf(path) < 0)
		return -1;
	for (argc = 0; argv && argv[argc]; argc++)
		;
	for (envc = 0; envp && envp[envc]; envc++)
		;
	{
		const char *nargv[argc + 5];
		const char *nenvp[envc + 2];

		i = 0;
		nargv[i++] = qemu;
		nargv[i++] = "-0";
		nargv[i++] = argc > 0 ? argv[0] : path;
		nargv[i++] = path;
		for (j = 1; j < argc; j++)
			nargv[i++] = argv[j];
		nargv[i] = 0;
		for (j = 0; j < envc; j++)
			nenvp[j] = envp[j];
		if (qemu_entry(envp) == 0)
			nenvp[j++] = entry;
		nenvp[j] = 0;
		return __lsys_ret(__lsys3(LNR_execve, qemu, nargv, nenvp));
	}
}
