#!/usr/bin/env python3
"""The analyses behind docs/accounting.md's paragraph on fixed-size batches under PLD.

One DP-SGD step on a batch of m of n records (gamma = m/n), Gaussian noise sigma in units of the
replace-one sensitivity. With R = gamma N(1, s^2) + (1 - gamma) N(0, s^2) and Q = N(0, s^2):

  sym       the symmetrized pair (Dong, Roth and Su 2022, Thm 4.2), composed k times: the upper end
  RQ^k      (R, Q) composed k times, attained by datasets: the lower end
  mix       j steps of (R, Q) and k - j of (Q, R), also attained
  mid       (gamma N(1/2) + (1 - gamma) N(0), gamma N(-1/2) + (1 - gamma) N(0)): contributions
            +1/2 and -1/2 with every other record at 0, attained
  adaptive  an adversary that picks (R, Q) or (Q, R) at each step from the privacy loss so far
            (backward dynamic programming on the loss grid), attained

Plain numerical evaluation on a loss grid of width h (rounding to the nearest point, no error
bounds): figures to compare analyses, not certified values.

Usage: python3 without_replacement_analyses.py SIGMA GAMMA STEPS DELTA [H] [--adaptive]
(numpy and scipy; --adaptive takes minutes at 100 steps and grows linearly in the steps).
"""

import sys

import numpy as np
from scipy.optimize import brentq
from scipy.signal import fftconvolve
from scipy.special import erf
from scipy.stats import norm

args = [a for a in sys.argv[1:] if not a.startswith("--")]
sigma, gamma, k, target = float(args[0]), float(args[1]), int(args[2]), float(args[3])
h = float(args[4]) if len(args) > 4 else 2e-4

xs = np.linspace(-14 * sigma, 1 + 14 * sigma, 400001)
dx = xs[1] - xs[0]
mixed = np.log(gamma * np.exp((2 * xs - 1) / (2 * sigma**2)) + 1 - gamma)  # log dR/dQ
fR = gamma * norm.pdf(xs, 1, sigma) + (1 - gamma) * norm.pdf(xs, 0, sigma)
fQ = norm.pdf(xs, 0, sigma)


def pld(losses, masses):
  index = np.round(losses / h).astype(np.int64)
  return index.min(), np.bincount(index - index.min(), weights=masses)


def convolve(a, b):
  return a[0] + b[0], np.clip(fftconvolve(a[1], b[1]), 0, None)


def power(d, n):
  result, base = (0, np.array([1.0])), d
  while n:
    if n & 1:
      result = convolve(result, base)
    n >>= 1
    if n:
      base = convolve(base, base)
  return result


def delta(d, eps):
  losses = (d[0] + np.arange(len(d[1]))) * h
  above = losses > eps
  return np.sum(d[1][above] * -np.expm1(eps - losses[above]))


def epsilon(d):
  return 0.0 if delta(d, 0) <= target else brentq(lambda e: delta(d, e) - target, 0, 50, xtol=1e-7)


RQ = pld(mixed, fR * dx)
QR = pld(-mixed, fQ * dx)
upper = xs > 0.5
atom = (1 - gamma) * erf(1 / (2 * np.sqrt(2) * sigma))
SYM = pld(np.concatenate([mixed[upper], [0.0], -mixed[upper]]),
          np.concatenate([fR[upper] * dx, [atom], fQ[upper] * dx]))
fP = gamma * norm.pdf(xs, 0.5, sigma) + (1 - gamma) * norm.pdf(xs, 0, sigma)
fM = gamma * norm.pdf(xs, -0.5, sigma) + (1 - gamma) * norm.pdf(xs, 0, sigma)
MID = pld(np.log(fP) - np.log(fM), fP * dx)

print("sym", epsilon(power(SYM, k)))
print("RQ^k", epsilon(power(RQ, k)), "QR^k", epsilon(power(QR, k)))
for j in sorted({k // 4, k // 2, 3 * k // 4}):
  print("mix j=%d" % j, epsilon(convolve(power(RQ, j), power(QR, k - j))))
print("mid", epsilon(power(MID, k)))

if "--adaptive" in sys.argv:
  def trim(d):
    nz = np.nonzero(d[1] > 1e-30)[0]
    return d[0] + nz[0], d[1][nz[0]:nz[-1] + 1]

  choices = [trim(RQ), trim(QR)]
  span = int(np.ceil(0.6 * k * max(max(abs(lo), abs(lo + len(p))) for lo, p in choices)))
  grid = np.arange(-span, span + 1)

  def adaptive(eps):
    value = np.maximum(0, -np.expm1(eps - grid * h))  # what is left to gain at the last step
    for _ in range(k):
      best = None
      for lo, p in choices:
        n = len(p)
        pad = n + abs(lo) + 1
        padded = np.concatenate([np.zeros(pad), value, np.full(pad, value[-1])])
        expected = fftconvolve(padded, p[::-1])[pad + np.arange(len(grid)) + lo + n - 1]
        best = expected if best is None else np.maximum(best, expected)
      value = np.clip(best, 0, 1)
    return value[span]

  print("adaptive", brentq(lambda e: adaptive(e) - target, 0, 10, xtol=1e-4))
