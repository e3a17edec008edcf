#!/usr/bin/env python3
"""BDI compression ratios of the ETC benchmarks' own input data (seed 002 §4.4 uses LCP + BDI).

The paper gives no per-application compression ratio; this computes what Base-Delta-Immediate compression
(Pekhimenko et al., PACT 2012: 64 B lines; zero line, repeated 8-byte value, base8-delta1/2/4, base4-delta1/2,
base2-delta1, each with an implicit zero base beside the explicit one) would make of the arrays the benchmarks
initialise, as their host code fills them (PolyBench/GPU float, Rodinia lud's create_matrix): the input arrays of
2DCONV, 3DCONV, ATAX, BICG, GESUMMV, MVT and LUD, not their outputs or temporaries. Sizes are scaled down (BICG and
ATAX at N = 4096 give the same); the values follow the same formulas. Usage: python3 tools/bdi_ratios.py
"""
import math
import random
import struct

LINE = 64


def words(line, size):
    return [int.from_bytes(line[i:i + size], 'little', signed=True) for i in range(0, LINE, size)]


def fits(delta, nbytes):
    lim = 1 << (8 * nbytes - 1)
    return -lim <= delta < lim


def wrapped(value, nbytes):
    """value as the hardware's nbytes-wide subtraction leaves it, sign-extended."""
    bits = 8 * nbytes
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def bdi_size(line):
    if not any(line):
        return 1
    w8 = words(line, 8)
    if all(w == w8[0] for w in w8):
        return 8
    best = LINE
    for base_size, delta_size in ((8, 1), (8, 2), (8, 4), (4, 1), (4, 2), (2, 1)):
        ws = words(line, base_size)
        base = next((w for w in ws if not fits(w, delta_size)), 0)  # the first word not an immediate
        if all(fits(w, delta_size) or fits(wrapped(w - base, base_size), delta_size) for w in ws):
            size = base_size + len(ws) * delta_size + math.ceil(len(ws) / 8)  # base, deltas, base-select bits
            best = min(best, size)
    return best


def ratio(floats):
    data = b''.join(struct.pack('<f', v) for v in floats)
    lines = [data[i:i + LINE] for i in range(0, len(data) - LINE + 1, LINE)]
    return LINE * len(lines) / sum(bdi_size(l) for l in lines)


def main():
    n = 512
    random.seed(1)
    arrays = {
        '2DCONV A (rand()/RAND_MAX)': [random.random() for _ in range(n * n)],
        '3DCONV A (i%12 + 2(j%7) + 3(k%13))': [float(i % 12 + 2 * (j % 7) + 3 * (k % 13))
                                               for i in range(64) for j in range(64) for k in range(64)],
        'ATAX A (i(j+1)/N)': [i * (j + 1) / n for i in range(n) for j in range(n)],
        'BICG / GESUMMV / MVT A (ij/N)': [i * j / n for i in range(n) for j in range(n)],
        'ATAX x, BICG r, p (i*pi)': [i * math.pi for i in range(n * 16)],
        'LUD (create_matrix: 10 exp(-0.001 |i-j|))': [10 * math.exp(-0.001 * abs(i - j)) for i in range(n) for j in range(n)],
    }
    for name, values in arrays.items():
        print(f'{name:48s} BDI ratio {ratio(values):.3f}')


if __name__ == '__main__':
    main()
