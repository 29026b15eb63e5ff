package dev.tradeoff.mechanisms.selection;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.ALPHA;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.chiSquarePValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class SelectionMechanismsTest {

  private static final double[] UTILITIES = {3.0, 1.0, 2.5, -0.5};
  private static final int N = 60_000;

  @Test
  void exponentialMechanismProbabilitiesAreProportionalToExpOfHalfEpsilonUtility() {
    ExponentialMechanism m = ExponentialMechanism.of(1.2, 1);
    double[] p = m.probabilities(UTILITIES);
    double total = 0;
    for (double u : UTILITIES) {
      total += Math.exp(0.6 * u);
    }
    for (int r = 0; r < UTILITIES.length; r++) {
      assertThat(p[r]).isCloseTo(Math.exp(0.6 * UTILITIES[r]) / total, within(1e-14));
    }
    ExponentialMechanism monotone =
        ExponentialMechanism.of(1.2, 2, true);
    assertThat(monotone.probabilities(UTILITIES)).containsExactly(p, within(1e-14));
  }

  @Test
  void exponentialMechanismSamplesFitItsProbabilities() {
    ExponentialMechanism m = ExponentialMechanism.of(1.2, 1);
    assertThat(chiSquarePValue(counts(m, UTILITIES, 70), m.probabilities(UTILITIES)))
        .isGreaterThan(ALPHA);
  }

  @Test
  void exponentialMechanismHandlesHugeUtilitiesWithoutOverflow() {
    ExponentialMechanism m = ExponentialMechanism.of(1, 1e300);
    double[] u = {1e300, -1e300, 0};
    double[] p = m.probabilities(u);
    assertThat(p[0]).isCloseTo(1 / (1 + Math.exp(-1) + Math.exp(-0.5)), within(1e-12));
    assertThat(chiSquarePValue(counts(m, u, 71), p)).isGreaterThan(ALPHA);
  }

  @Test
  void permuteAndFlipFitsItsLawEnumeratedOverAllOrders() {
    double eps = 1.2;
    PermuteAndFlip m = PermuteAndFlip.of(eps, 1, false);
    double[] p = permuteAndFlipLaw(UTILITIES, eps / 2);
    double total = 0;
    for (double q : p) {
      total += q;
    }
    assertThat(total).isCloseTo(1, within(1e-12));
    assertThat(chiSquarePValue(counts(m, UTILITIES, 72), p)).isGreaterThan(ALPHA);
    // permute-and-flip puts at least as much mass on the best candidate (McKenna–Sheldon)
    assertThat(p[0]).isGreaterThan(ExponentialMechanism.of(eps, 1).probabilities(UTILITIES)[0]);
  }

  @Test
  void reportNoisyMaxWithLaplaceNoiseFitsTheIntegratedLaw() {
    double eps = 1.0;
    ReportNoisyMax m = ReportNoisyMax.of(eps, 1, false, ReportNoisyMax.Noise.LAPLACE);
    double[] p = laplaceNoisyMaxLaw(UTILITIES, 2 / eps);
    assertThat(chiSquarePValue(counts(m, UTILITIES, 73), p)).isGreaterThan(ALPHA);
    ReportNoisyMax monotone = ReportNoisyMax.of(eps, 1, true, ReportNoisyMax.Noise.LAPLACE);
    assertThat(chiSquarePValue(counts(monotone, UTILITIES, 74), laplaceNoisyMaxLaw(UTILITIES, 1 / eps)))
        .isGreaterThan(ALPHA);
  }

  @Test
  void reportNoisyMaxWithGumbelOrExponentialNoiseMatchesExpMechAndPermuteAndFlip() {
    ReportNoisyMax gumbel =
        ReportNoisyMax.of(0.8, 1, false, ReportNoisyMax.Noise.GUMBEL);
    double[] expMech = ExponentialMechanism.of(0.8, 1).probabilities(UTILITIES);
    assertThat(chiSquarePValue(counts(gumbel, UTILITIES, 75), expMech)).isGreaterThan(ALPHA);
    ReportNoisyMax exponential =
        ReportNoisyMax.of(0.8, 1, false, ReportNoisyMax.Noise.EXPONENTIAL);
    assertThat(chiSquarePValue(counts(exponential, UTILITIES, 76), permuteAndFlipLaw(UTILITIES, 0.4)))
        .isGreaterThan(ALPHA);
  }

  @Test
  void eachSelectionMechanismStatesPureDp() {
    assertThat(ExponentialMechanism.of(0.3, 1).guarantee()).isEqualTo(new PureDp(0.3));
    assertThat(PermuteAndFlip.of(0.3, 1, true).event()).isEqualTo(new GuaranteeEvent(new PureDp(0.3)));
    assertThat(ReportNoisyMax.of(0.3, 1, false, ReportNoisyMax.Noise.LAPLACE).guarantee()).isEqualTo(new PureDp(0.3));
  }

  @Test
  void selectionMechanismsRejectBadCandidates() {
    ExponentialMechanism m = ExponentialMechanism.of(1, 1);
    RandomGenerator random = Randomness.seeded(1);
    assertThatThrownBy(() -> m.select(new double[0], random)).hasMessage("utilities must not be empty");
    assertThatThrownBy(() -> m.select(new double[] {1, Double.NaN}, random))
        .hasMessage("utilities[1] must be finite, but was NaN");
    assertThatThrownBy(() -> PermuteAndFlip.of(1, 1, false).select(null, random))
        .hasMessage("utilities must not be null");
    assertThatThrownBy(() -> ReportNoisyMax.of(1, 0, false, ReportNoisyMax.Noise.LAPLACE))
        .hasMessage("sensitivity must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> ExponentialMechanism.of(Double.NaN, 1))
        .hasMessage("epsilon must be > 0 and finite, but was NaN");
  }

  @Test
  void aSingleCandidateIsAlwaysSelected() {
    RandomGenerator random = Randomness.seeded(77);
    assertThat(ExponentialMechanism.of(1, 1).select(new double[] {5}, random)).isZero();
    assertThat(PermuteAndFlip.of(1, 1, false).select(new double[] {5}, random)).isZero();
    assertThat(ReportNoisyMax.of(1, 1, false, ReportNoisyMax.Noise.LAPLACE).select(new double[] {5}, random)).isZero();
  }

  private static long[] counts(Mechanism<double[], Integer> m, double[] u, long seed) {
    RandomGenerator random = Randomness.seeded(seed);
    long[] counts = new long[u.length];
    for (int i = 0; i < N; i++) {
      counts[m.release(u, random)]++;
    }
    return counts;
  }

  /** Pr[r] = Σ over orders (1/n!) Π_{j before r} (1 − a_j) a_r with a_j = e^{rate (u_j − u*)}. */
  static double[] permuteAndFlipLaw(double[] u, double rate) {
    double max = Double.NEGATIVE_INFINITY;
    for (double x : u) {
      max = Math.max(max, x);
    }
    double[] a = new double[u.length];
    for (int j = 0; j < u.length; j++) {
      a[j] = Math.exp(rate * (u[j] - max));
    }
    double[] p = new double[u.length];
    enumerate(a, new boolean[u.length], 1.0, p, factorial(u.length));
    return p;
  }

  private static void enumerate(double[] a, boolean[] used, double reach, double[] p, double orders) {
    int remaining = 0;
    for (boolean b : used) {
      remaining += b ? 0 : 1;
    }
    if (remaining == 0) {
      return;
    }
    for (int r = 0; r < a.length; r++) {
      if (!used[r]) {
        // r is next with probability 1/remaining
        double here = reach / remaining;
        p[r] += here * a[r];
        used[r] = true;
        enumerate(a, used, here * (1 - a[r]), p, orders);
        used[r] = false;
      }
    }
  }

  private static double factorial(int n) {
    double f = 1;
    for (int i = 2; i <= n; i++) {
      f *= i;
    }
    return f;
  }

  /** Pr[r wins] = ∫ f(x − u_r) Π_{j≠r} F(x − u_j) dx for Laplace(b) noise, by Simpson's rule. */
  static double[] laplaceNoisyMaxLaw(double[] u, double b) {
    double lo = -60 * b - 10;
    double hi = 60 * b + 10;
    int steps = 400_000;
    double h = (hi - lo) / steps;
    double[] p = new double[u.length];
    for (int r = 0; r < u.length; r++) {
      double sum = 0;
      for (int s = 0; s <= steps; s++) {
        double x = lo + s * h;
        double w = (s == 0 || s == steps) ? 1 : (s % 2 == 1 ? 4 : 2);
        double value = Math.exp(-Math.abs(x - u[r]) / b) / (2 * b);
        for (int j = 0; j < u.length; j++) {
          if (j != r) {
            double z = x - u[j];
            value *= z < 0 ? 0.5 * Math.exp(z / b) : 1 - 0.5 * Math.exp(-z / b);
          }
        }
        sum += w * value;
      }
      p[r] = sum * h / 3;
    }
    return p;
  }
}
