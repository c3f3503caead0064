#!/bin/sh
# Oracle check of cc1's code generator: compiles input.mc with cc1, assembles the output with
# GNU as for MIPS I, links it with rt.s and runs it under qemu-mipsel; the same source compiled
# by the host's gcc (it is C) must print the same. Needs gcc, mipsel-linux-gnu-{as,ld} and
# qemu-mipsel.
#   sh check.sh [path/to/cc1]     (default: builds cc1 natively into a temporary directory)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../input.mc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc1=${1:-}
if [ -z "$cc1" ]; then
	gcc -O2 -std=gnu11 -o "$tmp/cc1" "$here"/../*.c
	cc1="$tmp/cc1"
fi
"$cc1" -o "$tmp/mc.s" "$src" > /dev/null
mipsel-linux-gnu-as -march=r2000 -o "$tmp/mc.o" "$tmp/mc.s"
mipsel-linux-gnu-as -march=r2000 -o "$tmp/rt.o" "$here/rt.s"
mipsel-linux-gnu-ld -o "$tmp/mc" "$tmp/rt.o" "$tmp/mc.o"
qemu-mipsel "$tmp/mc" > "$tmp/guest.out"
# The sample's own names for library functions are renamed away from the host C library's.
{
	echo '#include <stdio.h>'
	echo '#include <stdlib.h>'
	for f in strlen strcmp strcpy atoi random heapsort; do echo "#define $f mc_$f"; done
	grep -v '^int putchar(int c);$\|^int getchar(void);$\|^void exit(int status);$' "$src"
} > "$tmp/native.c"
gcc -w -O0 -fwrapv -o "$tmp/native" "$tmp/native.c"
"$tmp/native" > "$tmp/native.out"
if cmp -s "$tmp/guest.out" "$tmp/native.out"; then
	echo "cc1 oracle check: compiled input.mc runs and prints the same as the host gcc build ($(wc -l < "$tmp/native.out") lines)"
else
	echo "cc1 oracle check: FAILED" >&2
	diff "$tmp/guest.out" "$tmp/native.out" >&2 || true
	exit 1
fi
