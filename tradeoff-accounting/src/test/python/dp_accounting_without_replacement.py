#!/usr/bin/env python3
"""Writes the reference values of WithoutReplacementReferenceTest.

Runs the RDP accountant of Google's dp_accounting library (github.com/google/differential-privacy,
directory python/dp_accounting) on DP-SGD with fixed-size batches drawn without replacement
(SampledWithoutReplacementDpEvent of a Gaussian, neighbouring relation REPLACE_ONE; its bound is
Wang, Balle and Kasiviswanathan 2019, Theorem 27 of the arXiv version, for the Gaussian) and prints
one CSV line per case and order: the case, the order, the one-step RDP at that order, and the
case's epsilon at delta after all steps (its default order grid and conversion).

Usage (dp_accounting on PYTHONPATH, with numpy, scipy, attrs, absl and mpmath installed):
  python3 dp_accounting_without_replacement.py COMMIT > \
    ../resources/dev/tradeoff/accounting/rdp/dp-accounting-without-replacement.csv
"""

import sys

import dp_accounting
from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant

REPLACE = dp_accounting.NeighboringRelation.REPLACE_ONE

# sigma, dataset size n, batch size m, steps, delta
CASES = [
    (1.1, 60000, 256, 1000, 1e-5),
    (0.8, 10000, 100, 5000, 1e-6),
    (2.0, 1000, 10, 100, 1e-5),
    (1.5, 50000, 500, 20000, 1e-10),
]
ORDERS = [2, 3, 4, 5, 8, 12, 16, 24, 32, 48, 64]


def main():
  print("# Reference values for WithoutReplacementReferenceTest, written by")
  print("# tradeoff-accounting/src/test/python/dp_accounting_without_replacement.py")
  print("# Library: dp_accounting 0.6.0 (github.com/google/differential-privacy, commit %s)" %
        (sys.argv[1] if len(sys.argv) > 1 else "unknown"))
  print("sigma,n,m,steps,delta,order,stepRdp,epsilon")
  for sigma, n, m, steps, delta in CASES:
    event = dp_event.SampledWithoutReplacementDpEvent(n, m, dp_event.GaussianDpEvent(sigma))
    one = rdp_privacy_accountant.RdpAccountant(ORDERS, REPLACE)
    one.compose(event)
    total = rdp_privacy_accountant.RdpAccountant(neighboring_relation=REPLACE)
    total.compose(dp_event.SelfComposedDpEvent(event, steps))
    epsilon = total.get_epsilon(delta)
    for order, rdp in zip(ORDERS, one._rdp):
      print("%r,%d,%d,%d,%r,%d,%r,%r" % (sigma, n, m, steps, delta, order, rdp, epsilon))


if __name__ == "__main__":
  main()
