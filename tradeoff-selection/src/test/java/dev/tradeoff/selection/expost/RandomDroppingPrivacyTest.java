package dev.tradeoff.selection.expost;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.ExPostRdp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * [ExPost25, Theorems 10, 11 and 13] checked on exact output laws of small instances
 * (Algorithm 1, Theorems 8 and 9, is checked the same way in tradeoff-mechanisms'
 * ExPostAboveThresholdTest). Relative tolerance 1e-9 on ratios (the laws are double sums of ≤ 10^4
 * positive terms).
 */
class RandomDroppingPrivacyTest {

  private static final double TOLERANCE = 1e-9;

  private static List<PureDpCandidate<Integer>> pure(double[] eps) {
    List<PureDpCandidate<Integer>> list = new ArrayList<>();
    for (double e : eps) {
      list.add(new PureDpCandidate<>(r -> new Scored<>(0, 0), e));
    }
    return list;
  }

  private static TuningOutcome<Integer> outcome(int i, int o) {
    return new TuningOutcome.Selected<>(new Scored<>(o, o), i);
  }

  private record Instance(double[][] q, double[][] qNeighbour, double[] eps, double epsPrime) {}

  private static Instance pureInstance(SplittableRandom r) {
    int d = 1 + r.nextInt(4);
    int m = 2 + r.nextInt(3);
    double[][] q = new double[d][];
    double[][] qn = new double[d][];
    double[] eps = new double[d];
    for (int i = 0; i < d; i++) {
      eps[i] = 0.05 + 1.5 * r.nextDouble();
      q[i] = ExactLaws.randomLaw(r, m);
      qn[i] = ExactLaws.tilt(r, q[i], eps[i]);
      assertThat(ExactLaws.pureDistance(q[i], qn[i])).isLessThanOrEqualTo(eps[i] * (1 + 1e-12));
    }
    return new Instance(q, qn, eps, 0.05 + r.nextDouble());
  }

  @Test
  void algorithm3WithGeometricDroppingNeverExceedsTheorem11() {
    SplittableRandom r = new SplittableRandom(11);
    double worst = 0;
    for (int trial = 0; trial < 150; trial++) {
      Instance in = pureInstance(r);
      ExPostDp<TuningOutcome<Integer>> g =
          RandomDroppingTuner.of(pure(in.eps()), in.epsPrime()).guarantee();
      double[][] a = ExactLaws.algorithm3Geometric(in.q(), in.eps(), in.epsPrime());
      double[][] b = ExactLaws.algorithm3Geometric(in.qNeighbour(), in.eps(), in.epsPrime());
      int d = in.eps().length;
      assertThat(a[d][0]).isCloseTo(b[d][0], org.assertj.core.api.Assertions.within(1e-15));
      assertThat(g.epsilonOf(new TuningOutcome.None<>())).isZero();
      for (int i = 0; i < d; i++) {
        for (int o = 0; o < a[i].length; o++) {
          double bound = Math.exp(g.epsilonOf(outcome(i, o)));
          assertThat(a[i][o]).isLessThanOrEqualTo(bound * b[i][o] * (1 + TOLERANCE));
          assertThat(b[i][o]).isLessThanOrEqualTo(bound * a[i][o] * (1 + TOLERANCE));
          worst = Math.max(worst, Math.log(a[i][o] / b[i][o]) / g.epsilonOf(outcome(i, o)));
        }
      }
      double total = a[d][0];
      for (int i = 0; i < d; i++) {
        for (double p : a[i]) {
          total += p;
        }
      }
      assertThat(total).isCloseTo(1, org.assertj.core.api.Assertions.within(1e-12));
    }
    // the bound is used (not vacuous): some instance spends at least a third of it
    assertThat(worst).isGreaterThan(0.3).isLessThanOrEqualTo(1 + TOLERANCE);
  }

  @Test
  void algorithm2NeverExceedsTheorem10() {
    SplittableRandom r = new SplittableRandom(10);
    for (int trial = 0; trial < 150; trial++) {
      Instance in = pureInstance(r);
      int m = in.q()[0].length;
      int tau = r.nextInt(m);
      ExPostDp<TuningOutcome<Integer>> g =
          RandomDroppingAboveThreshold.of(pure(in.eps()), in.epsPrime(), tau).guarantee();
      double[][] a = ExactLaws.algorithm2(in.q(), in.eps(), in.epsPrime(), tau);
      double[][] b = ExactLaws.algorithm2(in.qNeighbour(), in.eps(), in.epsPrime(), tau);
      int d = in.eps().length;
      double bottom = Math.exp(g.epsilonOf(new TuningOutcome.None<>()));
      assertThat(bottom).isEqualTo(Math.exp(in.epsPrime()));
      assertThat(a[d][0]).isLessThanOrEqualTo(bottom * b[d][0] * (1 + TOLERANCE));
      assertThat(b[d][0]).isLessThanOrEqualTo(bottom * a[d][0] * (1 + TOLERANCE));
      for (int i = 0; i < d; i++) {
        for (int o = 0; o < m; o++) {
          if (o < tau) {
            assertThat(a[i][o]).isZero();
            continue;
          }
          double bound = Math.exp(g.epsilonOf(outcome(i, o)));
          assertThat(a[i][o]).isLessThanOrEqualTo(bound * b[i][o] * (1 + TOLERANCE));
          assertThat(b[i][o]).isLessThanOrEqualTo(bound * a[i][o] * (1 + TOLERANCE));
        }
      }
    }
  }

  /** p^α q^{1−α} e^{−(α−1)ε}, with 0^α·q^{1−α} = 0 (also for q = 0). */
  private static double term(double p, double q, double alpha, double epsilon) {
    if (p == 0) {
      return 0;
    }
    return Math.exp(alpha * Math.log(p) + (1 - alpha) * Math.log(q) - (alpha - 1) * epsilon);
  }

  /** Σ_õ 𝒜(õ)^α 𝒜′(õ)^{1−α} e^{−(α−1)ε̃(õ)} of Definition 6. */
  private static double definition6Sum(
      double[][] a, double[][] b, ExPostRdp<TuningOutcome<Integer>> g) {
    double alpha = g.alpha();
    int d = a.length - 1;
    double s = term(a[d][0], b[d][0], alpha, g.epsilonOf(new TuningOutcome.None<>()));
    for (int i = 0; i < d; i++) {
      for (int o = 0; o < a[i].length; o++) {
        s += term(a[i][o], b[i][o], alpha, g.epsilonOf(outcome(i, o)));
      }
    }
    return s;
  }

  @Test
  void algorithm3WithExponentialDroppingSatisfiesDefinition6AsTheorem13States() {
    SplittableRandom r = new SplittableRandom(13);
    double[] orders = {1.5, 2, 3, 5, 10, 32};
    double largest = 0;
    for (int trial = 0; trial < 200; trial++) {
      int d = 1 + r.nextInt(5);
      int m = 2 + r.nextInt(3);
      double alpha = orders[r.nextInt(orders.length)];
      double[][] q = new double[d][];
      double[][] qn = new double[d][];
      double[] eps = new double[d];
      List<RdpCandidate<Integer>> candidates = new ArrayList<>();
      for (int i = 0; i < d; i++) {
        q[i] = ExactLaws.randomLaw(r, m);
        qn[i] = ExactLaws.tilt(r, q[i], 0.1 + 2 * r.nextDouble());
        // a valid RDP ε of the pair (floored at 1e-3: any larger ε is also valid)
        eps[i] =
            Math.max(
                1e-3,
                Math.max(ExactLaws.renyi(q[i], qn[i], alpha), ExactLaws.renyi(qn[i], q[i], alpha))
                    * (1 + 1e-12));
        candidates.add(new RdpCandidate<>(x -> new Scored<>(0, 0), RenyiDp.ofOrder(alpha, eps[i])));
      }
      double epsPrime = 0.01 + r.nextDouble();
      RenyiRandomDroppingTuner<Integer> tuner = RenyiRandomDroppingTuner.of(candidates, epsPrime, alpha);
      double[][] a = ExactLaws.algorithm3Exponential(q, eps, epsPrime);
      double[][] b = ExactLaws.algorithm3Exponential(qn, eps, epsPrime);
      double sab = definition6Sum(a, b, tuner.guarantee());
      double sba = definition6Sum(b, a, tuner.guarantee());
      assertThat(sab).isLessThanOrEqualTo(1 + 1e-10);
      assertThat(sba).isLessThanOrEqualTo(1 + 1e-10);
      largest = Math.max(largest, Math.max(sab, sba));
    }
    assertThat(largest).isGreaterThan(0.2);
  }

  @Test
  void exponentialLawIntegratesToOne() {
    SplittableRandom r = new SplittableRandom(5);
    for (int trial = 0; trial < 50; trial++) {
      int d = 1 + r.nextInt(5);
      double[][] q = new double[d][];
      double[] eps = new double[d];
      for (int i = 0; i < d; i++) {
        q[i] = ExactLaws.randomLaw(r, 3);
        eps[i] = 0.05 + r.nextDouble();
      }
      double[][] a = ExactLaws.algorithm3Exponential(q, eps, 0.05 + r.nextDouble());
      double total = 0;
      for (double[] row : a) {
        for (double p : row) {
          assertThat(p).isGreaterThanOrEqualTo(-1e-15);
          total += p;
        }
      }
      assertThat(total).isCloseTo(1, org.assertj.core.api.Assertions.within(1e-12));
    }
  }
}
