/* hello: the smallest guest program; a greeting through write(2) alone. */
#include <unistd.h>

int
main(void)
{
	static const char msg[] = "hello, world\n";

	if (write(STDOUT_FILENO, msg, sizeof msg - 1) != (ssize_t)(sizeof msg - 1))
		return 1;
	return 0;
}
