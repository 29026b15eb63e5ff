package dev.tradeoff.mechanisms.sparsevector;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.ALPHA;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.chiSquarePValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.mechanisms.sparsevector.ExPostAboveThreshold.Above;
import dev.tradeoff.mechanisms.sparsevector.ExPostAboveThreshold.Bottom;
import dev.tradeoff.mechanisms.sparsevector.ExPostAboveThreshold.Outcome;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Checks [ExPost25, Algorithm 1] against its exact output law, computed by summing
 * geometric pmfs over the threshold noise k (equation (2) of the paper and its ⊥ analogue).
 */
class ExPostAboveThresholdTest {

  private static final double[] EPS = {0.3, 0.7, 0.5};
  private static final double EPS_PRIME = 0.4;
  private static final int MAX_ESTIMATE = 40;

  /** Pr[M(f) = (o, i)] by equation (2): Σ_k Geom'(k) Geom_i(o + k − f_i) Π_{j<i} Geom_j(< k − f_j). */
  static double probabilityAbove(long[] f, double[] eps, double epsPrime, long o, int i) {
    double pPrime = Math.exp(-epsPrime);
    int kMax = (int) Math.ceil(80 / epsPrime) + 50;
    double total = 0;
    for (int k = 0; k <= kMax; k++) {
      double term = (1 - pPrime) * Math.pow(pPrime, k) * geom(eps[i], o + k - f[i]);
      for (int j = 0; j < i && term > 0; j++) {
        term *= geomBelow(eps[j], k - f[j]);
      }
      total += term;
    }
    return total;
  }

  /** Pr[M(f) = ⊥] = Σ_k Geom'(k) Π_j Geom_j(< k − f_j). */
  static double probabilityBottom(long[] f, double[] eps, double epsPrime) {
    double pPrime = Math.exp(-epsPrime);
    int kMax = (int) Math.ceil(80 / epsPrime) + 50;
    double total = 0;
    for (int k = 0; k <= kMax; k++) {
      double term = (1 - pPrime) * Math.pow(pPrime, k);
      for (int j = 0; j < f.length; j++) {
        term *= geomBelow(eps[j], k - f[j]);
      }
      total += term;
    }
    return total;
  }

  private static double geom(double eps, long y) {
    return y < 0 ? 0 : -Math.expm1(-eps) * Math.exp(-eps * y);
  }

  /** Geom(< x) = 1 − p^x for x ≥ 1, else 0. */
  private static double geomBelow(double eps, long x) {
    return x <= 0 ? 0 : -Math.expm1(-eps * x);
  }

  @Test
  void exactLawSumsToOne() {
    long[] f = {1, -1, 2};
    double total = probabilityBottom(f, EPS, EPS_PRIME);
    for (int i = 0; i < f.length; i++) {
      for (long o = 0; o <= 400; o++) {
        total += probabilityAbove(f, EPS, EPS_PRIME, o, i);
      }
    }
    assertThat(total).isCloseTo(1, within(1e-9));
  }

  /** Theorem 8 on every pair of neighbouring query vectors in {−1, …, 2}^3, by exact enumeration. */
  @Test
  void everyOutcomeRespectsTheorem8ExPostBound() {
    ExPostAboveThreshold m = ExPostAboveThreshold.of(EPS, EPS_PRIME, false);
    forEveryNeighbouringPair(-1, 1, (f, g) -> assertExPostBound(m, f, g));
  }

  /** Theorem 9: monotone neighbours (all queries move the same way) cost only ε_i + ε′. */
  @Test
  void monotoneNeighboursRespectTheorem9ExPostBound() {
    ExPostAboveThreshold m = ExPostAboveThreshold.of(EPS, EPS_PRIME, true);
    forEveryNeighbouringPair(0, 1, (f, g) -> {
      assertExPostBound(m, f, g);
      assertExPostBound(m, g, f);
    });
  }

  /** Without monotonicity the factor 2 of Theorem 8 is needed: ε_i + ε′ is violated somewhere. */
  @Test
  void nonMonotoneNeighboursCanExceedTheMonotoneBound() {
    ExPostAboveThreshold monotoneClaim = ExPostAboveThreshold.of(EPS, EPS_PRIME, true);
    double[] worst = {0};
    forEveryNeighbouringPair(-1, 1, (f, g) -> {
      double[] p = law(f);
      double[] q = law(g);
      for (int i = 0; i < f.length; i++) {
        for (int o = 0; o <= 3; o++) {
          int cell = i * (MAX_ESTIMATE + 1) + o;
          double excess = Math.log(p[cell] / q[cell]) - monotoneClaim.epsilonOf(new Above(o, i));
          worst[0] = Math.max(worst[0], excess);
        }
      }
    });
    assertThat(worst[0]).isGreaterThan(0.05);
  }

  @Test
  void samplerFollowsTheExactLaw() {
    long[] f = {0, 1, -1};
    ExPostAboveThreshold m = ExPostAboveThreshold.of(EPS, EPS_PRIME, false);
    int cells = f.length * (MAX_ESTIMATE + 1);
    long[] observed = new long[cells + 1 + f.length];
    double[] expected = new double[cells + 1 + f.length];
    for (int i = 0; i < f.length; i++) {
      double inRange = 0;
      for (int o = 0; o <= MAX_ESTIMATE; o++) {
        expected[i * (MAX_ESTIMATE + 1) + o] = probabilityAbove(f, EPS, EPS_PRIME, o, i);
        inRange += expected[i * (MAX_ESTIMATE + 1) + o];
      }
      double all = 0;
      for (int o = 0; o <= 2000; o++) {
        all += probabilityAbove(f, EPS, EPS_PRIME, o, i);
      }
      expected[cells + 1 + i] = all - inRange;
    }
    expected[cells] = probabilityBottom(f, EPS, EPS_PRIME);
    RandomGenerator random = Randomness.seeded(90);
    for (int n = 0; n < 100_000; n++) {
      Outcome outcome = m.release(f, random);
      if (outcome instanceof Above a) {
        assertThat(a.estimate()).isNotNegative();
        int cell =
            a.estimate() <= MAX_ESTIMATE
                ? a.index() * (MAX_ESTIMATE + 1) + (int) a.estimate()
                : cells + 1 + a.index();
        observed[cell]++;
      } else {
        observed[cells]++;
      }
    }
    assertThat(chiSquarePValue(observed, expected)).isGreaterThan(ALPHA);
  }

  @Test
  void statesTheExPostGuaranteeOfTheorems8And9() {
    ExPostAboveThreshold m = ExPostAboveThreshold.of(EPS, EPS_PRIME, false);
    ExPostDp<Outcome> g = m.guarantee();
    assertThat(g.epsilonOf(new Above(5, 1))).isCloseTo(1.8, within(1e-15)).isGreaterThanOrEqualTo(1.8);
    assertThat(g.epsilonOf(new Bottom())).isEqualTo(0.4);
    assertThat(g.exAnteEpsilon()).isEqualTo(g.epsilonOf(new Above(0, 1)));
    assertThat(g.delta()).isZero();
    assertThat(m.event()).isEqualTo(new GuaranteeEvent(new PureDp(g.exAnteEpsilon())));
    ExPostAboveThreshold monotone = ExPostAboveThreshold.of(EPS, EPS_PRIME, true);
    assertThat(monotone.epsilonOf(new Above(0, 0))).isCloseTo(0.7, within(1e-15)).isGreaterThanOrEqualTo(0.7);
  }

  @Test
  void tinyExtraEpsilonGivesThresholdsInTheThousandsWithoutOverflow() {
    ExPostAboveThreshold m = ExPostAboveThreshold.of(new double[] {0.01}, 1e-3, false);
    RandomGenerator random = Randomness.seeded(91);
    int bottoms = 0;
    for (int n = 0; n < 2_000; n++) {
      bottoms += m.release(new long[] {0}, random) instanceof Bottom ? 1 : 0;
    }
    // Pr[⊥] = Pr[y < k] with y ~ Geom(e^-0.01), k ~ Geom(e^-0.001): about 1/1.1 ≈ 0.909
    double exact = probabilityBottom(new long[] {0}, new double[] {0.01}, 1e-3);
    assertThat((double) bottoms / 2_000).isCloseTo(exact, within(0.03));
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> ExPostAboveThreshold.of(new double[] {0.1, -1}, 0.1, false))
        .hasMessage("queryEpsilons[1] must be > 0 and finite, but was -1.0");
    assertThatThrownBy(() -> ExPostAboveThreshold.of(new double[0], 0.1, false))
        .hasMessage("queryEpsilons must not be empty");
    assertThatThrownBy(() -> ExPostAboveThreshold.of(EPS, 0, false))
        .hasMessage("extraEpsilon must be > 0 and finite, but was 0.0");
    ExPostAboveThreshold m = ExPostAboveThreshold.of(EPS, EPS_PRIME, false);
    assertThatThrownBy(() -> m.release(new long[] {1, 2}, Randomness.seeded(1)))
        .hasMessage("values must have one entry per query budget (3), but was 2");
  }

  private final java.util.Map<java.util.List<Long>, double[]> laws = new java.util.HashMap<>();

  /** The exact law on f: entries i·(MAX_ESTIMATE + 1) + o for (o, i), and ⊥ last; memoised. */
  private double[] law(long[] f) {
    return laws.computeIfAbsent(
        java.util.Arrays.stream(f).boxed().toList(),
        key -> {
          double[] law = new double[f.length * (MAX_ESTIMATE + 1) + 1];
          for (int i = 0; i < f.length; i++) {
            for (int o = 0; o <= MAX_ESTIMATE; o++) {
              law[i * (MAX_ESTIMATE + 1) + o] = probabilityAbove(f, EPS, EPS_PRIME, o, i);
            }
          }
          law[law.length - 1] = probabilityBottom(f, EPS, EPS_PRIME);
          return law;
        });
  }

  private void assertExPostBound(ExPostAboveThreshold m, long[] f, long[] g) {
    double[] p = law(f);
    double[] q = law(g);
    for (int i = 0; i < f.length; i++) {
      double bound = Math.exp(m.epsilonOf(new Above(0, i)));
      for (int o = 0; o <= MAX_ESTIMATE; o++) {
        int cell = i * (MAX_ESTIMATE + 1) + o;
        assertThat(p[cell])
            .as("f=%s g=%s o=%s i=%s", java.util.Arrays.toString(f), java.util.Arrays.toString(g), o, i)
            .isLessThanOrEqualTo(bound * q[cell] * (1 + 1e-9));
      }
    }
    assertThat(p[p.length - 1])
        .isLessThanOrEqualTo(Math.exp(m.epsilonOf(new Bottom())) * q[q.length - 1] * (1 + 1e-9));
  }

  /** Calls {@code check} on every f in {−1, …, 2}^3 and every g = f + s with s in {lo, …, hi}^3. */
  private static void forEveryNeighbouringPair(int lo, int hi, java.util.function.BiConsumer<long[], long[]> check) {
    for (int a = -1; a <= 2; a++) {
      for (int b = -1; b <= 2; b++) {
        for (int c = -1; c <= 2; c++) {
          for (int sa = lo; sa <= hi; sa++) {
            for (int sb = lo; sb <= hi; sb++) {
              for (int sc = lo; sc <= hi; sc++) {
                check.accept(new long[] {a, b, c}, new long[] {a + sa, b + sb, c + sc});
              }
            }
          }
        }
      }
    }
  }
}
