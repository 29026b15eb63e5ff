#!/usr/bin/env python3
"""Reference values for PldSmallDeltaTest: Google's dp_accounting at a fine grid.

For DP-SGD (Poisson-sampled Gaussian, add/remove-one) sigma 0.5, q 1e-4, 1e5 steps at delta 1e-10
and sigma 1.74, q 1.57e-4, 594 steps at delta 1e-15: epsilon from dp_accounting's pessimistic PLD
(connect the dots, an upper bound up to its floating-point error) and from its optimistic PLD
(rounding down, a lower bound), at value_discretization_interval INTERVAL, with tails truncated far
below delta (log_mass_truncation_bound -80 per step, tail_mass_truncation 1e-25 when composing)
so that the truncation does not swamp delta. Prints one CSV line per case and bound.

Usage (dp_accounting from github.com/google/differential-privacy/python/dp_accounting on
PYTHONPATH; numpy and scipy, e.g. Debian's python3-numpy and python3-scipy):
  python3 dp_accounting_small_delta.py
"""

from dp_accounting.pld import privacy_loss_distribution as pld_lib

CASES = [
    # sigma, q, steps, delta, interval
    (0.5, 1e-4, 100_000, 1e-10, 1e-5),
    (1.74, 1.57e-4, 594, 1e-15, 1e-6),
]


def main():
  print("sigma,q,steps,delta,interval,bound,epsilon")
  for sigma, q, steps, delta, interval in CASES:
    for pessimistic in (True, False):
      pld = pld_lib.from_gaussian_mechanism(
          standard_deviation=sigma, sampling_prob=q, pessimistic_estimate=pessimistic,
          value_discretization_interval=interval, log_mass_truncation_bound=-80)
      composed = pld.self_compose(steps, tail_mass_truncation=1e-25)
      print("%r,%r,%d,%r,%r,%s,%r" % (
          sigma, q, steps, delta, interval, "pessimistic" if pessimistic else "optimistic",
          composed.get_epsilon_for_delta(delta)), flush=True)


if __name__ == "__main__":
  main()
