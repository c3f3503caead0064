#!/usr/bin/env python3
"""
Measures the libm's accuracy: reads `libctest math-dump [N]` output (lines "name argbits...
resultbits", hex IEEE doubles) on stdin and prints, per function, the largest error in ulps
against mpmath (300-bit arithmetic) and how many results were not correctly rounded.

    qemu-mipsel images/build/linux-mipsel/bin/libctest math-dump 1000 | python3 images/libc/src/math/ulpcheck.py

Needs python3 with mpmath. The host's glibc can be measured the same way with the native build.
"""
import struct
import sys

import mpmath
from mpmath import mpf

mpmath.mp.prec = 300

FUNCS = {
    'exp': mpmath.exp, 'exp2': lambda x: mpf(2) ** x, 'expm1': mpmath.expm1, 'log': mpmath.log,
    'log10': mpmath.log10, 'log2': lambda x: mpmath.log(x, 2), 'log1p': mpmath.log1p, 'sin': mpmath.sin,
    'cos': mpmath.cos, 'tan': mpmath.tan, 'atan': mpmath.atan, 'asin': mpmath.asin, 'acos': mpmath.acos,
    'sinh': mpmath.sinh, 'cosh': mpmath.cosh, 'tanh': mpmath.tanh, 'sqrt': mpmath.sqrt,
    'pow': mpmath.power, 'atan2': mpmath.atan2, 'hypot': mpmath.hypot, 'fmod': mpmath.fmod,
    'cbrt': mpmath.cbrt, 'asinh': mpmath.asinh, 'acosh': mpmath.acosh, 'atanh': mpmath.atanh, 'erf': mpmath.erf,
    'erfc': mpmath.erfc, 'lgamma': lambda x: mpmath.log(abs(mpmath.gamma(x))), 'tgamma': mpmath.gamma,
    'remainder': lambda x, y: exact_remainder(x, y),
}


def exact_remainder(x, y):
    """x - n*y for n = x/y rounded to nearest, ties to even, exactly (x/y may need 2000 bits)."""
    from fractions import Fraction
    fx, fy = Fraction(float(x)), Fraction(float(y))
    n = round(fx / fy)
    r = fx - n * fy
    return mpf(r.numerator) / r.denominator
DBL_MAX = mpf('1.7976931348623157e308')


def dbl(h):
    return struct.unpack('>d', bytes.fromhex(h))[0]


def ulps(got, exact):
    """|got - exact| in units of the last place of exact (subnormal spacing below 2^-1022)."""
    if abs(exact) > DBL_MAX:
        return 0.0 if abs(got) == float('inf') else float('inf')
    if got != got or abs(got) == float('inf'):
        return float('inf')
    if exact == 0:
        return 0.0 if got == 0 else float('inf')
    e = max(int(mpmath.floor(mpmath.log(abs(exact), 2))), -1022)
    return float(abs(mpf(got) - exact) / mpf(2) ** (e - 52))


worst, count, wrong = {}, {}, {}
for line in sys.stdin:
    p = line.split()
    if len(p) < 3 or p[0] not in FUNCS:
        continue
    args = [mpf(dbl(h)) for h in p[1:-1]]
    got = dbl(p[-1])
    try:
        exact = FUNCS[p[0]](*args)
    except (ValueError, ZeroDivisionError):
        continue
    if isinstance(exact, mpmath.mpc) or mpmath.isnan(exact):
        continue
    u = ulps(got, exact)
    name = p[0]
    count[name] = count.get(name, 0) + 1
    if u > worst.get(name, (-1,))[0]:
        worst[name] = (u, [float(a) for a in args])
    if u > 0.5:
        wrong[name] = wrong.get(name, 0) + 1
for name in count:
    u, args = worst[name]
    print(f"{name:6s} {count[name]:6d} cases  max {u:.4f} ulp  not correctly rounded {wrong.get(name, 0):4d}  worst at {args}")
