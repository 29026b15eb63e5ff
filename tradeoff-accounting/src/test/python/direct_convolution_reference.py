#!/usr/bin/env python3
"""A reference for PldSmallDeltaTest: delta(eps) of DP-SGD by direct (FFT-free) convolution.

The remove direction of the Poisson-sampled Gaussian (sigma 1.74, q 1.57e-4, 594 steps, add/remove
one): P = (1 - q)N(0, sigma^2) + qN(1, sigma^2), loss L(x) = log(1 - q + q exp((2x - 1)/(2 sigma^2))).
The P-mass of each loss bin [i dx, (i + 1) dx) comes from differences of log Phi (scipy's
log_ndtr) and is put at i dx (rounding down: the true pair dominates the result, so delta is a
lower bound) or at (i + 1) dx ("up": the result dominates the true pair, an upper bound). The
steps are composed by repeated squaring with numpy.convolve, a direct sum of non-negative
products (relative error about n u, unlike an FFT's absolute error), keeping losses in
[-0.03, 0.1]: rounding down drops the rest, rounding up moves the lower part to the lowest point
kept and the upper part to +infinity. Masses are scaled by 1 -/+ 1e-9 at every step against the
floating-point error. The add direction is not needed for these bounds (delta is the larger of
the two directions; its lower bound holds for the remove direction alone, and the upper bound is
checked against the accountant, whose add direction is smaller here).

Usage: python3 direct_convolution_reference.py EPS DX [up|down [HIGH]]
  e.g. 0.0180 1e-6 (prints 1.22e-15: above 1e-15, so eps(1e-15) > 0.0180)
       0.0190 1e-6 up (prints 4.73e-16: below 1e-15, so eps(1e-15) < 0.0190 in this direction)
HIGH (default 0.1) is the largest loss kept; it must lie above EPS (0.7 for eps near 0.58).
"""

import sys

import numpy as np
from scipy.special import log_ndtr

SIGMA, Q, STEPS = 1.74, 1.57e-4, 594
LOW, HIGH = -0.03, 0.1


def main():
  eps, dx = float(sys.argv[1]), float(sys.argv[2])
  up = len(sys.argv) > 3 and sys.argv[3] == "up"
  global HIGH
  if len(sys.argv) > 4:
    HIGH = float(sys.argv[4])
  scale = 1 + 1e-9 if up else 1 - 1e-9
  s2 = SIGMA * SIGMA

  def x_of(loss):
    with np.errstate(divide="ignore"):
      return s2 * np.log((np.expm1(loss) + Q) / Q) + 0.5

  def survival_mass(a, b, shift):
    la, lb = log_ndtr(-(a - shift) / SIGMA), log_ndtr(-(b - shift) / SIGMA)
    return np.exp(la) * -np.expm1(lb - la)

  lowest = np.log1p(-Q)
  first, last = int(np.floor(lowest / dx)), int(np.ceil(HIGH / dx))
  index = np.arange(first, last + 1)
  a = np.where(index * dx <= lowest, -np.inf, x_of(np.maximum(index * dx, lowest)))
  b = x_of((index + 1) * dx)
  masses = np.maximum((1 - Q) * survival_mass(a, b, 0.0) + Q * survival_mass(a, b, 1.0), 0) * scale
  offset = first + (1 if up else 0)
  infinity = 0.0
  if up:
    top = x_of(HIGH + dx)
    infinity = float(np.exp(log_ndtr(-top / SIGMA)) + Q * np.exp(log_ndtr(-(top - 1) / SIGMA)))

  def convolve(x, y):
    c = np.convolve(x[0], y[0])
    o = x[1] + y[1]
    lo = max(0, int(np.ceil(LOW / dx)) - o)
    hi = min(len(c), int(np.floor(HIGH / dx)) - o + 1)
    inf = 0.0
    if up:
      c[lo] += c[:lo].sum()
      inf = (x[2] + y[2] + c[hi:].sum()) * scale
    return c[lo:hi] * scale, o + lo, inf

  result, base, k = None, (masses, offset, infinity), STEPS
  while k:
    if k & 1:
      result = base if result is None else convolve(result, base)
    k >>= 1
    if k:
      base = convolve(base, base)
  values, start, inf = result
  losses = (start + np.arange(len(values))) * dx
  above = losses > eps
  delta = (np.sum(values[above] * -np.expm1(eps - losses[above])) + inf) * scale
  print("eps %r dx %r %s bound on delta(eps): %r" % (eps, dx, "upper" if up else "lower", delta))


if __name__ == "__main__":
  main()
