package dev.tradeoff.accounting.fdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PiecewiseLinearTradeoffTest {

  /** A random valid curve: sorted random slopes, masses of a random dominating pair. */
  static PiecewiseLinearTradeoff randomCurve(SplittableRandom rng) {
    int atoms = 1 + rng.nextInt(8);
    double[] p = new double[atoms];
    double[] q = new double[atoms];
    double sp = 0;
    double sq = 0;
    for (int i = 0; i < atoms; i++) {
      p[i] = rng.nextDouble() < 0.1 ? 0 : rng.nextDouble();
      q[i] = rng.nextDouble() < 0.1 ? 0 : rng.nextDouble() * Math.exp(4 * rng.nextDouble() - 2);
      sp += p[i];
      sq += q[i];
    }
    if (sp == 0 || sq == 0) {
      return PiecewiseLinearTradeoff.identity();
    }
    for (int i = 0; i < atoms; i++) {
      p[i] /= sp;
      q[i] /= sq;
    }
    return new DiscretePair(p, q).tradeoff();
  }

  static void assertValid(PiecewiseLinearTradeoff f) {
    double[] a = f.alphas();
    double[] b = f.betas();
    assertThat(a[0]).isEqualTo(0);
    assertThat(a[a.length - 1]).isEqualTo(1);
    assertThat(b[b.length - 1]).isEqualTo(0);
    for (int i = 0; i < a.length; i++) {
      assertThat(b[i]).isBetween(0.0, 1.0);
      assertThat(b[i]).isLessThanOrEqualTo(1 - a[i] + 1e-15);
      if (i > 0) {
        assertThat(a[i]).isGreaterThan(a[i - 1]);
        assertThat(b[i]).isLessThanOrEqualTo(b[i - 1]);
      }
    }
    double[] s = f.slopes();
    for (int i = 1; i < s.length; i++) {
      assertThat(s[i]).isGreaterThanOrEqualTo(s[i - 1] - 1e-9 * Math.abs(s[i - 1]));
    }
  }

  @Test
  void interpolatesLinearlyBetweenVertices() {
    PiecewiseLinearTradeoff f =
        PiecewiseLinearTradeoff.of(new double[] {0, 0.2, 1}, new double[] {0.9, 0.3, 0});
    assertThat(f.beta(0)).isEqualTo(0.9);
    assertThat(f.beta(0.1)).isCloseTo(0.6, within(1e-15));
    assertThat(f.beta(0.2)).isEqualTo(0.3);
    assertThat(f.beta(0.6)).isCloseTo(0.15, within(1e-15));
    assertThat(f.beta(1)).isEqualTo(0);
    assertThat(f.slope(0)).isCloseTo(-3, within(1e-12));
    assertThat(f.slope(1)).isCloseTo(-0.375, within(1e-12));
    assertThat(f.vertexCount()).isEqualTo(3);
  }

  @Test
  void storesCollinearVerticesInReducedForm() {
    PiecewiseLinearTradeoff f =
        PiecewiseLinearTradeoff.of(new double[] {0, 0.25, 0.5, 1}, new double[] {1, 0.75, 0.5, 0});
    assertThat(f).isEqualTo(PiecewiseLinearTradeoff.identity());
  }

  @Test
  void rejectsNonConvexVertices() {
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.of(new double[] {0, 0.5, 1}, new double[] {0.6, 0.4, 0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("betas[1] must be <=")
        .hasMessageContaining("convex")
        .hasMessageContaining("but was 0.4");
  }

  @Test
  void rejectsCurvesAboveOneMinusAlpha() {
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.of(new double[] {0, 0.5, 1}, new double[] {1, 0.6, 0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("betas[1] must be <= 1 - alpha");
  }

  @Test
  void rejectsIncreasingCurves() {
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.of(new double[] {0, 0.5, 1}, new double[] {0.1, 0.2, 0}))
        .hasMessageContaining("betas[1] must be <= betas[0]");
  }

  @Test
  void rejectsAlphaOutsideTheUnitIntervalAndBadEndpoints() {
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.of(new double[] {0, 1.5, 1}, new double[] {1, 0.5, 0}))
        .hasMessage("alphas[1] must be in [0, 1], but was 1.5");
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.of(new double[] {0.1, 1}, new double[] {0.5, 0}))
        .hasMessage("alphas[0] must be 0, but was 0.1");
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.of(new double[] {0, 0.9}, new double[] {0.5, 0}))
        .hasMessage("alphas[1] must be 1, but was 0.9");
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.lowerConvexEnvelope(
                new double[] {-0.1}, new double[] {1}))
        .hasMessage("alphas[0] must be in [0, 1], but was -0.1");
    PiecewiseLinearTradeoff f = PiecewiseLinearTradeoff.identity();
    assertThatThrownBy(() -> f.beta(1.0000001))
        .hasMessage("alpha must be in [0, 1], but was 1.0000001");
    assertThatThrownBy(() -> f.beta(Double.NaN)).hasMessage("alpha must be in [0, 1], but was NaN");
  }

  @Test
  void rejectsNaNAndMismatchedLengths() {
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.of(
                new double[] {0, Double.NaN, 1}, new double[] {1, 0.5, 0}))
        .hasMessage("alphas[1] must be finite, but was NaN");
    assertThatThrownBy(
            () -> PiecewiseLinearTradeoff.of(new double[] {0, 1}, new double[] {1, 0.5, 0}))
        .hasMessageContaining("betas.length must equal alphas.length 2");
    assertThatThrownBy(() -> PiecewiseLinearTradeoff.of(new double[] {0}, new double[] {1}))
        .hasMessageContaining("alphas.length must be >= 2");
  }

  @Test
  void lowersViolationsWithinToleranceToAValidCurveBelow() {
    double tiny = 1e-12;
    PiecewiseLinearTradeoff f = PiecewiseLinearTradeoff.of(
        new double[] {0, 0.5, 1}, new double[] {1 + 0, 0.5 + tiny, tiny});
    assertValid(f);
    assertThat(f).isEqualTo(PiecewiseLinearTradeoff.identity());
  }

  @Test
  void lowerConvexEnvelopeOfNeymanPearsonPointsAddsTrivialTests() {
    // Tests of Bernoulli(0.2) vs Bernoulli(0.7): reject on 1 gives (0.2, 0.3).
    PiecewiseLinearTradeoff f = PiecewiseLinearTradeoff.lowerConvexEnvelope(
        new double[] {0.2, 0.5, 0.9}, new double[] {0.3, 0.5, 0.05});
    assertThat(f.alphas()).containsExactly(0, 0.2, 1);
    assertThat(f.betas()).containsExactly(1, 0.3, 0);
    assertThat(f).isEqualTo(new DiscretePair(new double[] {0.8, 0.2}, new double[] {0.3, 0.7})
        .tradeoff());
  }

  @Test
  void dominatingPairReproducesTheCurve() {
    SplittableRandom rng = new SplittableRandom(20260101L);
    for (int trial = 0; trial < 500; trial++) {
      PiecewiseLinearTradeoff f = randomCurve(rng);
      assertValid(f);
      PiecewiseLinearTradeoff back = f.dominatingPair().tradeoff();
      assertThat(Math.abs(back.maxExcessOver(f))).isLessThan(1e-14);
      assertThat(Math.abs(f.maxExcessOver(back))).isLessThan(1e-14);
    }
  }

  @Test
  void inverseIsTheTradeoffOfTheSwappedPair() {
    SplittableRandom rng = new SplittableRandom(7);
    for (int trial = 0; trial < 500; trial++) {
      PiecewiseLinearTradeoff f = randomCurve(rng);
      DiscretePair pq = f.dominatingPair();
      PiecewiseLinearTradeoff swapped = new DiscretePair(pq.q(), pq.p()).tradeoff();
      PiecewiseLinearTradeoff inv = f.inverse();
      assertValid(inv);
      assertThat(Math.abs(inv.maxExcessOver(swapped))).isLessThan(1e-14);
      assertThat(Math.abs(swapped.maxExcessOver(inv))).isLessThan(1e-14);
      assertThat(Math.abs(inv.inverse().maxExcessOver(f))).isLessThan(1e-14);
    }
  }

  @Test
  void inverseHandlesJumpsAndFlatParts() {
    // f_{0, 0.2}: (0, 0.8) -> (0.8, 0) -> (1, 0); its inverse is itself.
    PiecewiseLinearTradeoff f =
        PiecewiseLinearTradeoff.of(new double[] {0, 0.8, 1}, new double[] {0.8, 0, 0});
    assertThat(f.inverse()).isEqualTo(f);
    assertThat(f.isSymmetric(0)).isTrue();
  }

  @Test
  void symmetrizationIsSymmetricBelowBothAndTheGreatestSuch() {
    SplittableRandom rng = new SplittableRandom(11);
    for (int trial = 0; trial < 500; trial++) {
      PiecewiseLinearTradeoff f = randomCurve(rng);
      PiecewiseLinearTradeoff s = f.symmetrized();
      assertValid(s);
      assertThat(s.isSymmetric(1e-12)).isTrue();
      assertThat(s.maxExcessOver(f)).isLessThanOrEqualTo(1e-15);
      assertThat(s.maxExcessOver(f.inverse())).isLessThanOrEqualTo(1e-15);
      // Greatest convex minorant: at each vertex of s, s touches min(f, f^-1) or lies on a chord of
      // touching points; equivalently envelope of the min at its own vertices is s itself.
      for (int i = 0; i < s.vertexCount(); i++) {
        double a = s.vertexAlpha(i);
        double m = Math.min(f.beta(a), f.inverse().beta(a));
        assertThat(s.vertexBeta(i)).isCloseTo(m, within(1e-13));
      }
      if (f.isSymmetric(1e-13)) {
        assertThat(Math.abs(s.maxExcessOver(f))).isLessThan(1e-13);
      }
    }
  }
}
