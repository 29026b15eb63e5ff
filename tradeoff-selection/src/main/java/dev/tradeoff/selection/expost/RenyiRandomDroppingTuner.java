package dev.tradeoff.selection.expost;

import dev.tradeoff.accounting.guarantee.ExPostRdp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.Exponential;
import dev.tradeoff.mechanisms.sampling.Rational;
import java.util.Comparator;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * [ExPost25, Algorithm 3] with exponential dropping level 𝓔 = Exp_{ε′}, for candidates
 * given in Rényi DP (Theorem 13).
 *
 * <p>The tuner is built for one Rényi order α: candidate i drops with probability 1 − e^{−ε_i x}
 * where ε_i = ε_i(α) is its RDP ε at α (read with {@link
 * dev.tradeoff.accounting.guarantee.RenyiDp#epsilonAt(double)}, conservative off the grid), and
 * Theorem 13 then gives ex-post (α, ε̃)-RDP with
 *
 * <pre>
 *   ε̃(o, i) = (2 + ℓ_i)ε_i + (1 + ℓ_i)ε′ + (log(τ + 1) + Σ_{j≠i} e^{−ε_j(1 + αℓ_i)}) / (α − 1)
 *   ε̃(⊥)    = log(τ + 1) / (α − 1),        τ = Σ_i τ_i,  τ_i = E[e^{−ε_i x}] = ε′/(ε′ + ε_i)
 * </pre>
 *
 * and each ℓ_i ≥ 0 chosen to minimise ε̃(·, i) (the closing remark of Section 4.2: ε̃(o, i) does
 * not depend on ℓ_j for j ≠ i). The minimisation is a one-dimensional convex problem solved by
 * bisection on the derivative; any ℓ_i ≥ 0 gives a valid bound, so the optimiser's tolerance only
 * affects tightness. Every reported ε̃ is the double evaluation inflated by a relative margin of
 * 4(d + 8)·2^−53, which covers the rounding of the d-term sums (rounded up). The level x is drawn by
 * {@link Exponential} (integer part exact, fractional part to 2^−53); the drops are exact given x.
 *
 * @param <O> the artefact type
 */
public final class RenyiRandomDroppingTuner<O> {

  private final List<RdpCandidate<O>> candidates;
  private final double epsilonPrime;
  private final double alpha;
  private final double[] epsilons;
  private final double[] offsets;
  private final double[] outcomeEpsilons;
  private final double bottomEpsilon;
  private final double exAnte;
  private final double expectedRuns;

  private RenyiRandomDroppingTuner(
      List<RdpCandidate<O>> candidates, double epsilonPrime, double alpha) {
    this.candidates = RandomDropping.nonEmpty(candidates);
    this.epsilonPrime = Require.positive("epsilonPrime", epsilonPrime);
    this.alpha = Require.renyiOrder("alpha", alpha);
    int d = this.candidates.size();
    this.epsilons = new double[d];
    double tau = 0;
    for (int i = 0; i < d; i++) {
      double e = this.candidates.get(i).guarantee().epsilonAt(alpha);
      Require.that(
          e > 0 && Double.isFinite(e),
          "candidates[" + i + "] RDP epsilon at alpha " + alpha,
          "must be > 0 and finite",
          e);
      epsilons[i] = e;
      tau += epsilonPrime / (epsilonPrime + e);
    }
    this.expectedRuns = tau;
    double margin = 1 + 4.0 * (d + 8) * 0x1.0p-53;
    double logTauPlusOne = Math.log1p(tau);
    this.bottomEpsilon = margin * logTauPlusOne / (alpha - 1);
    this.offsets = new double[d];
    this.outcomeEpsilons = new double[d];
    double max = bottomEpsilon;
    for (int i = 0; i < d; i++) {
      offsets[i] = optimalOffset(i);
      outcomeEpsilons[i] = margin * epsilonTilde(i, offsets[i], logTauPlusOne);
      max = Math.max(max, outcomeEpsilons[i]);
    }
    this.exAnte = max;
  }

  /**
   * Algorithm 3 with Exp_{ε′} dropping over RDP candidates, accounted at order α.
   *
   * @throws IllegalArgumentException if the list is empty, ε′ ≤ 0, α ≤ 1, or a candidate's RDP ε
   *     at α is not positive and finite
   */
  public static <O> RenyiRandomDroppingTuner<O> of(
      List<RdpCandidate<O>> candidates, double epsilonPrime, double alpha) {
    return new RenyiRandomDroppingTuner<>(candidates, epsilonPrime, alpha);
  }

  /** One execution. */
  public TuningRun<O> run(RandomGenerator random) {
    Require.nonNull("random", random);
    Rational x = Rational.exactly(new Exponential(epsilonPrime).sample(random));
    Comparator<TuningOutcome<O>> order = TuningOutcome.order();
    TuningOutcome<O> best = new TuningOutcome.None<>();
    int runs = 0;
    for (int i = 0; i < candidates.size(); i++) {
      if (RandomDropping.keep(random, epsilons[i], x)) {
        runs++;
        TuningOutcome<O> o =
            new TuningOutcome.Selected<>(
                RandomDropping.runChecked(candidates.get(i).mechanism(), i, random), i);
        if (order.compare(o, best) > 0) {
          best = o;
        }
      }
    }
    return new TuningRun<>(best, runs);
  }

  /** Theorem 13's ex-post (α, ε̃)-RDP guarantee with the minimising ℓ_i. */
  public ExPostRdp<TuningOutcome<O>> guarantee() {
    double[] eps = outcomeEpsilons.clone();
    double bottom = bottomEpsilon;
    return new ExPostRdp<>(
        alpha, o -> o instanceof TuningOutcome.Selected<O> s ? eps[s.index()] : bottom, exAnte);
  }

  /** ε̃(o, i) for any o from candidate {@code index} (rounded up). */
  public double epsilonOfCandidate(int index) {
    return outcomeEpsilons[index];
  }

  /** ε̃(⊥) = log(τ + 1)/(α − 1) (rounded up). */
  public double epsilonOfNone() {
    return bottomEpsilon;
  }

  /** The minimising ℓ_i. */
  public double offset(int index) {
    return offsets[index];
  }

  /** ε̃(o, i) of Theorem 13 for a given ℓ_i ≥ 0 (unrounded, for comparison and tests). */
  public double epsilonOfCandidate(int index, double offset) {
    Require.nonNegative("offset", offset);
    return epsilonTilde(index, offset, Math.log1p(expectedRuns));
  }

  /** τ = Σ_i ε′/(ε′ + ε_i), the expected number of candidate runs. */
  public double expectedRuns() {
    return expectedRuns;
  }

  /** The order α. */
  public double alpha() {
    return alpha;
  }

  /** ε_i = ε_i(α), the dropping rate and RDP ε of candidate i. */
  public double epsilonOf(int index) {
    return epsilons[index];
  }

  private double epsilonTilde(int i, double l, double logTauPlusOne) {
    double others = 0;
    for (int j = 0; j < epsilons.length; j++) {
      if (j != i) {
        others += Math.exp(-epsilons[j] * (1 + alpha * l));
      }
    }
    return (2 + l) * epsilons[i] + (1 + l) * epsilonPrime + (logTauPlusOne + others) / (alpha - 1);
  }

  /** d/dℓ of ε̃(·, i): (ε_i + ε′) − α/(α − 1)·Σ_{j≠i} ε_j e^{−ε_j(1+αℓ)}; increasing in ℓ. */
  private double slope(int i, double l) {
    double s = 0;
    for (int j = 0; j < epsilons.length; j++) {
      if (j != i) {
        s += epsilons[j] * Math.exp(-epsilons[j] * (1 + alpha * l));
      }
    }
    return epsilons[i] + epsilonPrime - alpha / (alpha - 1) * s;
  }

  private double optimalOffset(int i) {
    if (slope(i, 0) >= 0) {
      return 0;
    }
    double hi = 1;
    while (slope(i, hi) < 0) {
      hi *= 2;
    }
    double lo = 0;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
      double mid = 0.5 * (lo + hi);
      if (slope(i, mid) < 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }
}
