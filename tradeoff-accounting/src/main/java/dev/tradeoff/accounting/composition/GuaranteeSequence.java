package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.List;

/**
 * An adaptive sequence of (ε, δ)-DP mechanisms, stored as runs of identical guarantees with their
 * multiplicities, and the sums the composition theorems need. Trusted inside the package.
 */
record GuaranteeSequence(List<Run> runs) {

  /**
   * {@code count} consecutive mechanisms with the same guarantee.
   *
   * @param tight whether the guarantee is the exact worst case of what the event states (a stated
   *     (ε, δ) guarantee, or binary randomized response, which is the canonical pair itself); false
   *     where it only bounds the mechanism (Laplace, k-ary randomized response, amplification,
   *     shuffled epochs), and then no composition of it is a lower bound on the event's privacy
   */
  record Run(ApproxDp guarantee, long count, boolean tight) {
    Run(ApproxDp guarantee, long count) {
      this(guarantee, count, true);
    }
  }

  GuaranteeSequence {
    runs = List.copyOf(runs);
  }

  static GuaranteeSequence homogeneous(ApproxDp guarantee, long count) {
    return new GuaranteeSequence(List.of(new Run(guarantee, count)));
  }

  static GuaranteeSequence of(List<ApproxDp> guarantees) {
    Require.nonNull("guarantees", guarantees);
    if (guarantees.isEmpty()) {
      throw new IllegalArgumentException("guarantees must not be empty");
    }
    for (int i = 0; i < guarantees.size(); i++) {
      Require.nonNull("guarantees[" + i + "]", guarantees.get(i));
    }
    return new GuaranteeSequence(guarantees.stream().map(g -> new Run(g, 1)).toList());
  }

  /** Number of mechanisms k, saturating at {@link Long#MAX_VALUE}. */
  long length() {
    long total = 0;
    for (Run r : runs) {
      total = r.count() > Long.MAX_VALUE - total ? Long.MAX_VALUE : total + r.count();
    }
    return total;
  }

  /** Number of floating-point terms summed; sizes the rounding margin. */
  double termCount() {
    return runs.size() + 4;
  }

  /** True when every run's guarantee is tight ({@link Run#tight}). */
  boolean isTight() {
    return runs.stream().allMatch(Run::tight);
  }

  /** True when every mechanism has the same (ε, δ). */
  boolean isHomogeneous() {
    return runs.stream().map(Run::guarantee).distinct().count() == 1;
  }

  /** The common guarantee of a homogeneous sequence. */
  ApproxDp first() {
    return runs.get(0).guarantee();
  }

  /** Σ ε_l. */
  double sumEpsilon() {
    double sum = 0;
    for (Run r : runs) {
      sum += r.count() * r.guarantee().epsilon();
    }
    return sum;
  }

  /** Σ δ_l. */
  double sumDelta() {
    double sum = 0;
    for (Run r : runs) {
      sum += r.count() * r.guarantee().delta();
    }
    return sum;
  }

  /** Σ ε_l². */
  double sumEpsilonSquared() {
    double sum = 0;
    for (Run r : runs) {
      double e = r.guarantee().epsilon();
      sum += r.count() * e * e;
    }
    return sum;
  }

  /**
   * Σ ε_l (e^{ε_l} − 1)/(e^{ε_l} + 1) = Σ ε_l tanh(ε_l / 2): the mean privacy loss of the k-fold
   * randomized-response pair, evaluated through tanh so that small ε_l lose nothing.
   */
  double sumMeanLoss() {
    double sum = 0;
    for (Run r : runs) {
      double e = r.guarantee().epsilon();
      sum += r.count() * e * Math.tanh(e / 2);
    }
    return sum;
  }

  /** log Π (1 − δ_l) = Σ log1p(−δ_l) ≤ 0. */
  double logNoFailure() {
    double sum = 0;
    for (Run r : runs) {
      sum += r.count() * Math.log1p(-r.guarantee().delta());
    }
    return sum;
  }
}
