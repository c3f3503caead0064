/*
 * execve for the Linux flavour, with the qemu-user rule of docs/abi.md "Linux flavour".
 *
 * qemu-user runs one foreign binary; without binfmt_misc the host kernel cannot exec another.
 * So when the calling process's environment has EMU_QEMU (the path of the qemu-user binary for
 * this target), execve(path, argv, envp) execs
 *	EMU_QEMU -0 argv[0] path argv[1] ... argv[n]
 * instead, and keeps EMU_QEMU in the new environment so the rule applies to its own execs.
 * The file is checked first (exists, executable, ELF) so that the caller sees the errno a
 * kernel would give (ENOENT, EACCES, ENOEXEC) rather than a qemu failure after the exec. An ELF
 * file for another machine than this one (the host's own /bin/sh, which system and popen run)
 * is exec'ed directly: the host kernel runs it.
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

/* ELF e_machine values of this target (EM_SPARC32PLUS: V8+ code, which qemu-sparc also runs). */
#ifdef __mips__
#define IS_OUR_MACHINE(m)	((m) == 8)
#else
#define IS_OUR_MACHINE(m)	((m) == 2 || (m) == 18)
#endif

/* 1 when path is an executable ELF file for this target, 0 for another machine's, -1 (errno) else. */
static int
check_elf(const char *path)
{
	unsigned char hdr[20];
	int fd, n, machine;

	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	n = read(fd, hdr, sizeof hdr);
	close(fd);
	if (access(path, X_OK) < 0)
		return -1;
	if (n != (int)sizeof hdr || hdr[0] != 0x7f || hdr[1] != 'E' || hdr[2] != 'L' || hdr[3] != 'F') {
		errno = ENOEXEC;
		return -1;
	}
	/* e_machine at 18, in the byte order EI_DATA (byte 5) names: 1 little-endian, 2 big. */
	machine = hdr[5] == 1 ? hdr[18] | hdr[19] << 8 : hdr[18] << 8 | hdr[19];
	return IS_OUR_MACHINE(machine);
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
	switch (check_elf(path)) {
	case -1:
		return -1;
	case 0:
		return __lsys_ret(__lsys3(LNR_execve, path, argv, envp));
	}
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
