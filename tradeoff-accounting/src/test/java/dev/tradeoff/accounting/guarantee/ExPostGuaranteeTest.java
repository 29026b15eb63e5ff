package dev.tradeoff.accounting.guarantee;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Ex-post DP and ex-post RDP [ExPost25, Definitions 2, 5, 6] and the conversions of its
 * Lemma 7, checked numerically on small discrete mechanisms: a mechanism is a pair of output
 * distributions (P, Q) = (M(D), M(D′)) on outcomes 0..m−1, and both orders of the pair are checked
 * since neighbouring is symmetric.
 */
class ExPostGuaranteeTest {

  /** Definition 5 by brute force over all subsets S: max_S Σ_{o∈S} (P(o) − e^{ε(o)} Q(o)). */
  private static double worstSubsetExcess(double[] p, double[] q, double[] eps) {
    int m = p.length;
    double worst = 0;
    for (int mask = 1; mask < (1 << m); mask++) {
      double sum = 0;
      for (int o = 0; o < m; o++) {
        if ((mask & (1 << o)) != 0) {
          sum += p[o] - Math.exp(eps[o]) * q[o];
        }
      }
      worst = Math.max(worst, sum);
    }
    return worst;
  }

  /** The same worst case in closed form: the subset of outcomes with a positive excess. */
  private static double positiveExcess(double[] p, double[] q, double[] eps) {
    double sum = 0;
    for (int o = 0; o < p.length; o++) {
      sum += Math.max(0, p[o] - Math.exp(eps[o]) * q[o]);
    }
    return sum;
  }

  /** Definition 6: Σ_o P(o)^α / (e^{ε(o)} Q(o))^{α−1}. */
  private static double renyiSum(double[] p, double[] q, double[] eps, double alpha) {
    double sum = 0;
    for (int o = 0; o < p.length; o++) {
      if (p[o] > 0) {
        sum += p[o] * Math.pow(p[o] / (Math.exp(eps[o]) * q[o]), alpha - 1);
      }
    }
    return sum;
  }

  private static double[] randomDistribution(SplittableRandom rng, int m) {
    double[] d = new double[m];
    double s = 0;
    for (int i = 0; i < m; i++) {
      d[i] = 0.05 + rng.nextDouble();
      s += d[i];
    }
    for (int i = 0; i < m; i++) {
      d[i] /= s;
    }
    return d;
  }

  private static double[] values(ExPostDp<Integer> g, int m) {
    double[] e = new double[m];
    for (int o = 0; o < m; o++) {
      e[o] = g.epsilonOf(o);
    }
    return e;
  }

  @Test
  void expostPureDpImpliesExpostRdpAtEveryOrder() {
    // Lemma 7, first part. The tightest ex-post pure DP function of the pair (both orders) is
    // eps(o) = |log P(o)/Q(o)|; the Definition 6 sum must then be <= 1 for every order.
    SplittableRandom rng = new SplittableRandom(61);
    for (int trial = 0; trial < 500; trial++) {
      int m = 2 + rng.nextInt(6);
      double[] p = randomDistribution(rng, m);
      double[] q = randomDistribution(rng, m);
      double[] eps = new double[m];
      double sup = 0;
      for (int o = 0; o < m; o++) {
        eps[o] = Math.abs(Math.log(p[o] / q[o]));
        sup = Math.max(sup, eps[o]);
      }
      ExPostDp<Integer> pure = ExPostDp.pure(o -> eps[o], sup);
      assertThat(worstSubsetExcess(p, q, eps)).isLessThanOrEqualTo(1e-15);
      assertThat(worstSubsetExcess(q, p, eps)).isLessThanOrEqualTo(1e-15);
      double alpha = 1 + 20 * rng.nextDouble() + 1e-9;
      ExPostRdp<Integer> rdp = pure.toExPostRdp(alpha);
      double[] rdpEps = new double[m];
      for (int o = 0; o < m; o++) {
        rdpEps[o] = rdp.epsilonOf(o);
      }
      assertThat(rdpEps).containsExactly(eps);
      assertThat(renyiSum(p, q, rdpEps, alpha)).isLessThanOrEqualTo(1 + 1e-12);
      assertThat(renyiSum(q, p, rdpEps, alpha)).isLessThanOrEqualTo(1 + 1e-12);
      assertThat(rdp.exAnte()).isEqualTo(RenyiDp.ofOrder(alpha, sup));
    }
  }

  @Test
  void expostRdpImpliesExpostApproximateDpWithTheLemma7Shift() {
    // Lemma 7, second part. Random eps(o) >= 0, shifted by the constant that makes the Definition 6
    // sums (both orders) exactly <= 1; then eps'(o) = eps(o) + log(1/delta)/(alpha - 1) must
    // satisfy Definition 5 with delta, checked over all subsets and by the closed form.
    SplittableRandom rng = new SplittableRandom(67);
    int nonTrivial = 0;
    for (int trial = 0; trial < 500; trial++) {
      int m = 2 + rng.nextInt(7);
      double[] p = randomDistribution(rng, m);
      double[] q = randomDistribution(rng, m);
      double alpha = 1.1 + 10 * rng.nextDouble();
      double[] eps = new double[m];
      for (int o = 0; o < m; o++) {
        eps[o] = 0.5 * rng.nextDouble();
      }
      double worstSum = Math.max(renyiSum(p, q, eps, alpha), renyiSum(q, p, eps, alpha));
      double shift = Math.max(0, Math.log(worstSum) / (alpha - 1));
      double sup = 0;
      for (int o = 0; o < m; o++) {
        eps[o] += shift;
        sup = Math.max(sup, eps[o]);
      }
      assertThat(renyiSum(p, q, eps, alpha)).isLessThanOrEqualTo(1 + 1e-12);
      assertThat(renyiSum(q, p, eps, alpha)).isLessThanOrEqualTo(1 + 1e-12);
      ExPostRdp<Integer> rdp = new ExPostRdp<>(alpha, o -> eps[o], sup);
      double delta = Math.pow(10, -1 - 5 * rng.nextDouble());
      ExPostDp<Integer> dp = rdp.toExPostDp(delta);
      double[] converted = values(dp, m);
      for (int o = 0; o < m; o++) {
        double shifted = eps[o] + Math.log(1 / delta) / (alpha - 1);
        assertThat(converted[o]).isCloseTo(shifted, within(1e-12));
      }
      assertThat(dp.delta()).isEqualTo(delta);
      assertThat(dp.exAnte())
          .isEqualTo(new ApproxDp(sup + Math.log(1 / delta) / (alpha - 1), delta));
      double forward = worstSubsetExcess(p, q, converted);
      double backward = worstSubsetExcess(q, p, converted);
      assertThat(forward).isCloseTo(positiveExcess(p, q, converted), within(1e-15));
      assertThat(forward).isLessThanOrEqualTo(delta);
      assertThat(backward).isLessThanOrEqualTo(delta);
      // The unshifted eps alone usually violates (eps, delta)-DP, so the lemma's shift matters.
      if (Math.max(positiveExcess(p, q, eps), positiveExcess(q, p, eps)) > delta) {
        nonTrivial++;
      }
    }
    assertThat(nonTrivial).isGreaterThan(50);
  }

  @Test
  void expostDpImpliesExAnteDpAtTheSupremum() {
    SplittableRandom rng = new SplittableRandom(71);
    for (int trial = 0; trial < 300; trial++) {
      int m = 2 + rng.nextInt(6);
      double[] p = randomDistribution(rng, m);
      double[] q = randomDistribution(rng, m);
      double[] eps = new double[m];
      double sup = 0;
      for (int o = 0; o < m; o++) {
        eps[o] = Math.abs(Math.log(p[o] / q[o]));
        sup = Math.max(sup, eps[o]);
      }
      ApproxDp exAnte = ExPostDp.<Integer>pure(o -> eps[o], sup).exAnte();
      assertThat(exAnte.isPure()).isTrue();
      double[] constant = new double[m];
      java.util.Arrays.fill(constant, exAnte.epsilon());
      assertThat(worstSubsetExcess(p, q, constant)).isLessThanOrEqualTo(1e-15);
      assertThat(worstSubsetExcess(q, p, constant)).isLessThanOrEqualTo(1e-15);
    }
  }

  @Test
  void refusesOutcomesBeyondTheStatedExAnteBound() {
    ExPostDp<Integer> g = ExPostDp.pure(o -> o * 0.5, 1.0);
    assertThat(g.epsilonOf(2)).isEqualTo(1.0);
    assertThatThrownBy(() -> g.epsilonOf(3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("ex-post epsilon of outcome 3 must be in [0, 1.0] (the stated ex-ante bound),"
            + " but was 1.5");
    ExPostDp<Integer> negative = ExPostDp.pure(o -> -0.1, 1.0);
    assertThatThrownBy(() -> negative.epsilonOf(0)).isInstanceOf(IllegalStateException.class);
    ExPostDp<Integer> nan = ExPostDp.pure(o -> Double.NaN, 1.0);
    assertThatThrownBy(() -> nan.epsilonOf(0)).hasMessageContaining("but was NaN");
    ExPostRdp<Integer> rdp = new ExPostRdp<>(2, o -> o * 1.0, 2.0);
    assertThatThrownBy(() -> rdp.epsilonOf(5))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ex-post RDP epsilon of outcome 5 must be in [0, 2.0]");
    // The converted guarantee carries the shifted bound and still refuses beyond it.
    ExPostDp<Integer> converted = rdp.toExPostDp(Math.exp(-1));
    assertThat(converted.epsilonOf(2)).isCloseTo(3.0, within(1e-15));
    assertThatThrownBy(() -> converted.epsilonOf(3)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void rejectsInvalidParameters() {
    assertThatThrownBy(() -> new ExPostDp<Integer>(o -> 0, -1, 0))
        .hasMessage("exAnteEpsilon must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new ExPostDp<Integer>(o -> 0, 1, 1))
        .hasMessage("delta must be in [0, 1), but was 1.0");
    assertThatThrownBy(() -> new ExPostDp<Integer>(null, 1, 0))
        .hasMessage("epsilonOfOutcome must not be null");
    assertThatThrownBy(() -> new ExPostDp<Integer>(o -> 0, Double.NaN, 0))
        .hasMessage("exAnteEpsilon must be >= 0 and finite, but was NaN");
    assertThatThrownBy(() -> new ExPostRdp<Integer>(1, o -> 0, 1))
        .hasMessage("alpha must be > 1 and finite, but was 1.0");
    assertThatThrownBy(() -> new ExPostRdp<Integer>(2, o -> 0, 1).toExPostDp(0))
        .hasMessage("delta must be in (0, 1), but was 0.0");
    assertThatThrownBy(() -> new ExPostDp<Integer>(o -> 0, 1, 0.1).toExPostRdp(2))
        .hasMessageContaining("delta must be 0 to convert ex-post DP to ex-post RDP");
    assertThatThrownBy(() -> ExPostDp.<Integer>pure(o -> 0, 1).toExPostRdp(0.5))
        .hasMessage("alpha must be > 1 and finite, but was 0.5");
  }
}
