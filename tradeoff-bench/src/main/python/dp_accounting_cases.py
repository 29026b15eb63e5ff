#!/usr/bin/env python3
"""Times Google's dp_accounting on the cases of AccountingCasesBenchmark (tradeoff-bench).

Its PLD accountant at value_discretization_interval 1e-4 (the default of both libraries), at
delta 1e-5 and 1e-12: epsilon of 100 Gaussians (sigma 1) and of DP-SGD (q 0.004, sigma 1.1) over
1e4 and 1e5 steps, and the DP-SGD noise multiplier for target epsilon 2 over 1e4 and 1e5 steps by
its calibrate_dp_mechanism (tolerance 0.005 in sigma, at most 0.5% of the answers here, which
lie between 1 and 5; bracket [0.3, 10]). Prints one line per case: name, delta, mean wall-clock
seconds over the repetitions, mean CPU seconds of the process (on a loaded machine the fairer
figure: numpy's FFT runs on one thread), the value.

Usage (dp_accounting from github.com/google/differential-privacy/python/dp_accounting on
PYTHONPATH; numpy, scipy, attrs, absl, mpmath installed, e.g. Debian's python3-* packages):
  python3 dp_accounting_cases.py [repetitions]
"""

import sys
import time

import dp_accounting
from dp_accounting import dp_event
from dp_accounting import mechanism_calibration
from dp_accounting.pld import pld_privacy_accountant

Q = 0.004


def accountant():
  return pld_privacy_accountant.PLDAccountant(
      dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE, value_discretization_interval=1e-4)


def dp_sgd(sigma, steps):
  return dp_event.SelfComposedDpEvent(
      dp_event.PoissonSampledDpEvent(Q, dp_event.GaussianDpEvent(sigma)), steps)


def epsilon(event, delta):
  a = accountant()
  a.compose(event)
  return a.get_epsilon(delta)


def calibrate(steps, delta):
  return mechanism_calibration.calibrate_dp_mechanism(
      accountant, lambda s: dp_sgd(s, steps), 2.0, delta,
      bracket_interval=mechanism_calibration.ExplicitBracketInterval(0.3, 10.0), tol=0.005)


CASES = [
    ("hundredGaussians", lambda d: epsilon(
        dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(1.0), 100), d)),
    ("dpSgdTenThousandSteps", lambda d: epsilon(dp_sgd(1.1, 10_000), d)),
    ("dpSgdHundredThousandSteps", lambda d: epsilon(dp_sgd(1.1, 100_000), d)),
    ("calibrateTenThousandSteps", lambda d: calibrate(10_000, d)),
    ("calibrateHundredThousandSteps", lambda d: calibrate(100_000, d)),
]


def main():
  repetitions = int(sys.argv[1]) if len(sys.argv) > 1 else 3
  print("case,delta,seconds,cpu_seconds,value")
  for delta in (1e-5, 1e-12):
    for name, run in CASES:
      run(delta)  # warm-up (imports, caches)
      start = time.perf_counter()
      cpu = time.process_time()
      for _ in range(repetitions):
        value = run(delta)
      print("%s,%r,%.3f,%.3f,%r" % (name, delta, (time.perf_counter() - start) / repetitions,
                                    (time.process_time() - cpu) / repetitions, value))
      sys.stdout.flush()


if __name__ == "__main__":
  main()
