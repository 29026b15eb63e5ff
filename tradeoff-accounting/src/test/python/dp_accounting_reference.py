#!/usr/bin/env python3
"""Writes the reference values of PldReferenceLibraryTest.

Runs the PLD accountant of Google's dp_accounting library (the Python package in
github.com/google/differential-privacy, directory python/dp_accounting) on the cases below and
prints one CSV line per case: name, delta, and the library's pessimistic epsilon (an upper bound
on the true epsilon at its default discretization interval 1e-4).

Usage (dp_accounting on PYTHONPATH, with numpy, scipy, attrs, absl and mpmath installed):
  python3 dp_accounting_reference.py > ../resources/dev/tradeoff/accounting/pld/dp-accounting-reference.csv
"""

import math
import subprocess
import sys

import dp_accounting
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant

ADD_REMOVE = dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
REPLACE = dp_accounting.NeighboringRelation.REPLACE_ONE


def rr(epsilon, categories):
  # Tradeoff's k-ary randomized response keeps the truth with probability e^eps/(e^eps + k - 1);
  # dp_accounting's keeps it with probability 1 - p + p/k, so p = k/(e^eps + k - 1).
  return dp_event.RandomizedResponseDpEvent(
      noise_parameter=categories / (math.exp(epsilon) + categories - 1), num_buckets=categories)


def dp_sgd(q, sigma, steps):
  return dp_event.SelfComposedDpEvent(
      dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), steps)


# name, neighbouring relation, event, delta. The names are parsed by the Java test.
CASES = [
    ("gaussian:sigma=1;count=100", ADD_REMOVE,
     dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(1.0), 100), 1e-5),
    ("gaussian:sigma=2;count=2000", ADD_REMOVE,
     dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(2.0), 2000), 1e-10),
    ("dpsgd:q=0.004,sigma=1.1;count=1000", ADD_REMOVE, dp_sgd(0.004, 1.1, 1000), 1e-6),
    ("dpsgd:q=0.004,sigma=1.1;count=10000", ADD_REMOVE, dp_sgd(0.004, 1.1, 10000), 1e-6),
    ("dpsgd:q=0.01,sigma=0.8;count=10000", ADD_REMOVE, dp_sgd(0.01, 0.8, 10000), 1e-5),
    ("laplace:scale=1;count=50", ADD_REMOVE,
     dp_event.SelfComposedDpEvent(dp_event.LaplaceDpEvent(1.0), 50), 1e-6),
    ("laplace:scale=10;count=1000", ADD_REMOVE,
     dp_event.SelfComposedDpEvent(dp_event.LaplaceDpEvent(10.0), 1000), 1e-6),
    # Randomized response is composed as a list of events: dp_accounting 0.6.0's PLDAccountant
    # composes a RandomizedResponseDpEvent once whatever the count of an enclosing
    # SelfComposedDpEvent (see REPRODUCTION.md).
    ("rr:epsilon=1,categories=2;count=100", REPLACE, dp_event.ComposedDpEvent([rr(1.0, 2)] * 100),
     1e-6),
    ("rr:epsilon=0.5,categories=10;count=200", REPLACE,
     dp_event.ComposedDpEvent([rr(0.5, 10)] * 200), 1e-6),
    ("pure:epsilon=0.3;count=100", ADD_REMOVE,
     dp_event.SelfComposedDpEvent(dp_event.EpsilonDeltaDpEvent(0.3, 0.0), 100), 1e-6),
    ("mixture:gaussian(2)x10+laplace(2)x10+dpsgd(0.01,1)x500", ADD_REMOVE,
     dp_event.ComposedDpEvent([
         dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(2.0), 10),
         dp_event.SelfComposedDpEvent(dp_event.LaplaceDpEvent(2.0), 10),
         dp_sgd(0.01, 1.0, 500)]), 1e-6),
    ("mixture:laplace(5)x20+dpsgd(0.02,1.5)x300+pure(0.1)x10", ADD_REMOVE,
     dp_event.ComposedDpEvent([
         dp_event.SelfComposedDpEvent(dp_event.LaplaceDpEvent(5.0), 20),
         dp_sgd(0.02, 1.5, 300),
         dp_event.SelfComposedDpEvent(dp_event.EpsilonDeltaDpEvent(0.1, 0.0), 10)]), 1e-6),
]


def main():
  print("# Reference values for PldReferenceLibraryTest, written by")
  print("# tradeoff-accounting/src/test/python/dp_accounting_reference.py")
  print("# Library: dp_accounting %s (github.com/google/differential-privacy, commit %s)" %
        (open_version(), sys.argv[1] if len(sys.argv) > 1 else "unknown"))
  print("# epsilon: its PLDAccountant's pessimistic epsilon at value_discretization_interval 1e-4")
  print("name,delta,epsilon")
  for name, relation, event, delta in CASES:
    accountant = pld_privacy_accountant.PLDAccountant(relation, value_discretization_interval=1e-4)
    accountant.compose(event)
    print("%s,%r,%r" % (name, delta, accountant.get_epsilon(delta)))
    sys.stdout.flush()


def open_version():
  import os
  root = os.path.dirname(os.path.dirname(dp_accounting.__file__))
  with open(os.path.join(root, "VERSION")) as f:
    return [line.strip() for line in f if line.strip() and not line.startswith('"')][-1]


if __name__ == "__main__":
  main()
