package dev.tradeoff.experiments.expost;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.selection.baseline.TruncatedNegativeBinomial;
import dev.tradeoff.selection.expost.RunCountDistribution;
import java.util.ArrayList;
import java.util.List;

/**
 * [ExPost25, Figure 1]: standard deviation against mean of the number of invocations of
 * one ε-DP mechanism, (a) under Theorem 11 with d copies and 𝓔 = Geom_{e^{−ε′}} (privacy 2ε + ε′)
 * and (b) under Papernot and Steinke's truncated negative binomial with η = ε′/ε (Corollary 3,
 * privacy (2 + η)ε = 2ε + ε′, the same), sweeping d and γ respectively.
 */
public final class InvocationCurves {

  /** One point of a curve: the parameter swept (d, or γ), mean and standard deviation. */
  public record Point(double parameter, double mean, double standardDeviation) {}

  private InvocationCurves() {}

  /** Theorem 11 for d = 1..maxCopies. */
  public static List<Point> theorem11(double epsilon, double epsilonPrime, int maxCopies) {
    Require.positive("maxCopies", maxCopies);
    List<Point> points = new ArrayList<>();
    for (int d = 1; d <= maxCopies; d++) {
      points.add(
          new Point(
              d,
              RunCountDistribution.mean(epsilon, epsilonPrime, d),
              Math.sqrt(RunCountDistribution.variance(epsilon, epsilonPrime, d))));
    }
    return points;
  }

  /**
   * Papernot–Steinke with η = ε′/ε, for γ on a logarithmic grid from {@code maxMean}-ish means down
   * to a mean near 1 ({@code count} points, γ from 1e−4 to 0.999).
   */
  public static List<Point> papernotSteinke(double epsilon, double epsilonPrime, int count) {
    Require.positive("epsilon", epsilon);
    Require.positive("epsilonPrime", epsilonPrime);
    Require.positive("count", count);
    double eta = epsilonPrime / epsilon;
    List<Point> points = new ArrayList<>();
    double lo = Math.log(1e-4);
    double hi = Math.log(0.999);
    for (int i = 0; i < count; i++) {
      double gamma = Math.exp(hi + (lo - hi) * i / Math.max(1, count - 1));
      TruncatedNegativeBinomial k = new TruncatedNegativeBinomial(eta, gamma);
      points.add(new Point(gamma, k.mean(), Math.sqrt(k.variance())));
    }
    return points;
  }

  /** The smallest d whose Theorem 11 mean reaches {@code mean}. */
  public static int copiesForMean(double epsilon, double epsilonPrime, double mean) {
    Require.positive("mean", mean);
    int d = 1;
    while (RunCountDistribution.mean(epsilon, epsilonPrime, d) < mean) {
      d++;
    }
    return d;
  }
}
