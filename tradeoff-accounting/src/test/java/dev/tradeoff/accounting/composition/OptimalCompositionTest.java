package dev.tradeoff.accounting.composition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Collections;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OptimalCompositionTest {

  @Test
  void fullProfileEqualsTheoremThreeThreeAtEveryGridPoint() {
    SplittableRandom random = new SplittableRandom(33);
    for (int trial = 0; trial < 60; trial++) {
      double epsilon0 = 0.01 + 2 * random.nextDouble();
      double delta0 = random.nextBoolean() ? 0 : Math.pow(10, -1 - 6 * random.nextDouble());
      int k = 1 + random.nextInt(80);
      OptimalComposition optimal = OptimalComposition.of(new ApproxDp(epsilon0, delta0), k);
      for (int i = 0; i <= k / 2; i++) {
        ApproxDp theorem = optimal.theoremGuarantee(i);
        double gridPoint = (k - 2.0 * i) * epsilon0;
        assertThat(theorem.epsilon()).isCloseTo(gridPoint, within(1e-13 * (1 + gridPoint)));
        // at or above the exact grid point (a rounded product may lie just below it, where δ is
        // positive although the theorem's δ is 0)
        if (Math.fma(k - 2.0 * i, epsilon0, -gridPoint) > 0) {
          gridPoint = Math.nextUp(gridPoint);
        }
        assertThat(optimal.delta(gridPoint))
            .as("k=%d eps0=%s delta0=%s i=%d", k, epsilon0, delta0, i)
            .isCloseTo(theorem.delta(), within(1e-12 * theorem.delta() + 1e-300));
      }
    }
  }

  @Test
  void theoremGridListsTheGuaranteesInDecreasingEpsilon() {
    OptimalComposition optimal = OptimalComposition.of(new ApproxDp(0.5, 1e-6), 9);

    assertThat(optimal.theoremGrid()).hasSize(5);
    double floor = -Math.expm1(9 * Math.log1p(-1e-6));
    assertThat(optimal.theoremGrid().get(0).delta()).isCloseTo(floor, within(1e-12 * floor));
    for (int i = 1; i < 5; i++) {
      assertThat(optimal.theoremGrid().get(i).epsilon())
          .isLessThan(optimal.theoremGrid().get(i - 1).epsilon());
      assertThat(optimal.theoremGrid().get(i).delta())
          .isGreaterThan(optimal.theoremGrid().get(i - 1).delta());
    }
  }

  @Test
  void profileEqualsHockeyStickOfCanonicalProductsAtEveryEpsilon() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 200; trial++) {
      double epsilon0 = 0.05 + 1.5 * random.nextDouble();
      double delta0 = random.nextInt(3) == 0 ? 0 : 0.2 * random.nextDouble();
      int k = 1 + random.nextInt(7);
      ApproxDp g = new ApproxDp(epsilon0, delta0);
      double epsilon = (k * epsilon0 + 0.3) * random.nextDouble();
      double exact = CanonicalProducts.exactDelta(Collections.nCopies(k, g), epsilon);

      double delta = OptimalComposition.of(g, k).delta(epsilon);

      assertThat(delta).isGreaterThanOrEqualTo(exact - 1e-15);
      assertThat(delta).isCloseTo(exact, within(1e-12 * exact + 1e-15));
    }
  }

  @Test
  void singleMechanismProfileIsTheRandomizedResponseHockeyStick() {
    double epsilon0 = 1.3;
    OptimalComposition one = OptimalComposition.of(new ApproxDp(epsilon0, 0), 1);
    for (double epsilon = 0; epsilon < 1.6; epsilon += 0.1) {
      double expected =
          Math.max(0, Math.exp(epsilon0) - Math.exp(epsilon)) / (1 + Math.exp(epsilon0));
      assertThat(one.delta(epsilon)).isCloseTo(expected, within(1e-14 * expected));
      assertThat(one.delta(epsilon)).isGreaterThanOrEqualTo(expected * (1 - 1e-15));
    }
  }

  @Test
  void exactForTenThousandMechanismsAgainstRationalArithmetic() {
    // e^{ε₀} = 2, e^{ε} = 3·2^n: both sides exactly rational.
    int k = 10_000;
    OptimalComposition optimal = OptimalComposition.of(new ApproxDp(Math.log(2), 0), k);
    for (int n : new int[] {0, 3600, 5000}) {
      double epsilon = n * Math.log(2) + Math.log(3);
      BigDecimal exact =
          CanonicalProducts.exactPureDelta(
              k, 2, 1, BigInteger.valueOf(3).shiftLeft(n), BigInteger.ONE);

      double delta = optimal.delta(epsilon);

      assertThat(delta / exact.doubleValue() - 1).as("n=%d delta=%s", n, delta).isBetween(-2e-12, 1e-10);
    }
  }

  @Test
  void approximateProfileIsLiftedThroughTheFailureProbabilityForLargeCounts() {
    // δ(ε) = 1 − (1 − δ)^k (1 − δ_pure(ε)), against rational δ_pure with e^{ε₀} = 3/2.
    int k = 2_000;
    double delta0 = 1e-7;
    OptimalComposition optimal = OptimalComposition.of(new ApproxDp(Math.log(1.5), delta0), k);
    for (int n : new int[] {10, 60, 120}) {
      double epsilon = n * Math.log(1.5);
      BigDecimal pure =
          CanonicalProducts.exactPureDelta(
              k, 3, 2, BigInteger.valueOf(3).pow(n), BigInteger.valueOf(2).pow(n));
      double failure = -Math.expm1(k * Math.log1p(-delta0));
      double expected = failure + (1 - failure) * pure.doubleValue();

      assertThat(optimal.delta(epsilon) / expected - 1).isBetween(-2e-12, 1e-10);
      assertThat(optimal.pureDelta(epsilon) / pure.doubleValue() - 1).isBetween(-2e-12, 1e-10);
    }
  }

  @Test
  void deepTailIsPositiveAndNeverUnderflowsToZeroWhileTheTrueDeltaIsPositive() {
    OptimalComposition optimal = OptimalComposition.of(new ApproxDp(0.1, 0), 10_000);

    double nearTop = optimal.delta(999.0);
    double beyondTop = optimal.delta(1000.5);

    assertThat(nearTop).isPositive();
    assertThat(beyondTop).isZero();
  }

  @Test
  void epsilonIsTheSmallestEpsilonWhoseDeltaMeetsTheTarget() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 100; trial++) {
      double epsilon0 = 0.01 + random.nextDouble();
      double delta0 = random.nextBoolean() ? 0 : Math.pow(10, -4 - 4 * random.nextDouble());
      int k = 1 + random.nextInt(2000);
      OptimalComposition optimal = OptimalComposition.of(new ApproxDp(epsilon0, delta0), k);
      double target = Math.pow(10, -1 - 9 * random.nextDouble());

      double epsilon = optimal.epsilon(target);

      if (Double.isInfinite(epsilon)) {
        assertThat(optimal.delta(k * epsilon0)).isGreaterThan(target);
      } else {
        assertThat(optimal.delta(epsilon)).isLessThanOrEqualTo(target);
        if (epsilon > 0) {
          assertThat(optimal.delta(epsilon * (1 - 1e-9))).isGreaterThan(target);
        }
      }
    }
  }

  @Test
  void epsilonAtATheoremDeltaIsItsGridPoint() {
    OptimalComposition optimal = OptimalComposition.of(new ApproxDp(0.2, 1e-6), 40);
    for (int i = 0; i <= 20; i++) {
      ApproxDp theorem = optimal.theoremGuarantee(i);
      // the theorem's δ is padded by a roundoff margin and the profile by its certified error:
      // the answer is within a few ulps of the grid point where δ(ε) is steep, and within 1e-8
      // where it is flat (δ has slope 4e-11 left of ε = 8)
      assertThat(optimal.epsilon(theorem.delta()))
          .isCloseTo((40 - 2.0 * i) * 0.2, within(1e-7));
    }
  }

  @Test
  void epsilonIsInfiniteBelowTheFailureFloorAndZeroAboveTheTotalVariation() {
    OptimalComposition optimal = OptimalComposition.of(new ApproxDp(0.5, 1e-3), 10);

    assertThat(optimal.epsilon(0.5 * (1 - Math.pow(1 - 1e-3, 10)))).isInfinite();
    assertThat(optimal.epsilon(optimal.delta(0))).isZero();
    assertThat(OptimalComposition.of(new ApproxDp(0, 0), 5).epsilon(0)).isZero();
  }

  @Test
  void deltaIsMonotoneInEpsilonAndInTheMechanismAndCount() {
    SplittableRandom random = new SplittableRandom(5);
    for (int trial = 0; trial < 200; trial++) {
      double epsilon0 = 0.01 + random.nextDouble();
      double delta0 = random.nextBoolean() ? 0 : Math.pow(10, -3 - 5 * random.nextDouble());
      int k = 1 + random.nextInt(300);
      double epsilon = k * epsilon0 * random.nextDouble();
      OptimalComposition base = OptimalComposition.of(new ApproxDp(epsilon0, delta0), k);
      double delta = base.delta(epsilon);

      assertThat(base.delta(epsilon + 0.01 * random.nextDouble())).isLessThanOrEqualTo(delta);
      assertThat(OptimalComposition.of(new ApproxDp(epsilon0 * 1.05, delta0), k).delta(epsilon))
          .isGreaterThanOrEqualTo(delta);
      assertThat(OptimalComposition.of(new ApproxDp(epsilon0, delta0 * 2 + 1e-9), k).delta(epsilon))
          .isGreaterThanOrEqualTo(delta);
      assertThat(OptimalComposition.of(new ApproxDp(epsilon0, delta0), k + 1).delta(epsilon))
          .isGreaterThanOrEqualTo(delta);
    }
  }

  @Test
  void rejectsBadInput() {
    ApproxDp g = new ApproxDp(1, 0);
    assertThatThrownBy(() -> OptimalComposition.of(g, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("count must be in [1, 1000000], but was 0");
    assertThatThrownBy(() -> OptimalComposition.of(g, OptimalComposition.MAX_COUNT + 1))
        .hasMessageContaining("count must be in [1, 1000000]");
    assertThatThrownBy(() -> OptimalComposition.of(null, 3))
        .hasMessage("perMechanism must not be null");
    OptimalComposition optimal = OptimalComposition.of(g, 3);
    assertThatThrownBy(() -> optimal.delta(-1))
        .hasMessage("epsilon must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> optimal.delta(Double.NaN)).hasMessageContaining("epsilon must be");
    assertThatThrownBy(() -> optimal.epsilon(1.0)).hasMessage("delta must be in [0, 1), but was 1.0");
    assertThatThrownBy(() -> optimal.theoremGuarantee(2))
        .hasMessage("i must be in [0, 1], but was 2");
  }

  @Test
  void epsilonIsNeverBelowTheExactValueNearAGridPoint() {
    // {ε₀, k, δ, exact ε(δ)} of k-fold ε₀-DP: mpmath at 80 digits, bisection on
    // Σ_l C(k,l)(e^{(k−l)ε₀} − e^{ε+lε₀})₊/(1 + e^{ε₀})^k with ε₀ the double's exact value.
    // The answers lie within a few ulps of the grid point kε₀, whose rounded product may fall
    // on either side of the true one.
    Object[][] cases = {
      {0.1, 3, 1e-18, "0.300000000000000009741822635354"},
      {0.7, 3, 1e-17, "2.09999999999999983325320473046"},
      {0.3, 7, 1e-20, "2.09999999999999992179991038204"},
      {0.1, 3, 1e-300, "0.300000000000000016653345369377"},
      {2.2, 7, 1e-12, "15.3999999999979145447693646751"},
      {1.1, 2, 1e-16, "2.19999999999999999998115136418"},
    };
    for (Object[] c : cases) {
      OptimalComposition optimal = OptimalComposition.of(new ApproxDp((double) c[0], 0), (int) c[1]);
      double epsilon = optimal.epsilon((double) c[2]);
      BigDecimal exact = new BigDecimal((String) c[3]);
      assertThat(new BigDecimal(epsilon)).as("%s", c[0]).isGreaterThanOrEqualTo(exact);
      assertThat(epsilon).as("%s", c[0]).isLessThanOrEqualTo(exact.doubleValue() * (1 + 1e-12));
      // the bracket's lower end is below the exact value and within 1e-12 relative of the upper
      EpsilonBounds bounds = optimal.epsilonBounds((double) c[2]);
      assertThat(new BigDecimal(bounds.lower())).as("%s", c[0]).isLessThanOrEqualTo(exact);
      assertThat(bounds.upper()).isEqualTo(epsilon);
      assertThat(bounds.gap()).isLessThan(1e-12 * epsilon);
    }
  }

  @Test
  void deltaBoundsEncloseTheArbitraryPrecisionProfileAndAreTight() {
    SplittableRandom random = new SplittableRandom(2026);
    for (int trial = 0; trial < 60; trial++) {
      double epsilon0 = 0.005 + 2 * random.nextDouble();
      double delta0 = random.nextBoolean() ? 0 : Math.pow(10, -1 - 12 * random.nextDouble());
      int k = 1 + random.nextInt(trial < 50 ? 400 : 3000);
      double epsilon = k * epsilon0 * random.nextDouble();
      OptimalComposition optimal = OptimalComposition.of(new ApproxDp(epsilon0, delta0), k);

      DeltaBounds bounds = optimal.deltaBounds(epsilon);
      // the oracle carries 150 digits; 120 of them are certain at these k
      BigDecimal exact =
          CanonicalProducts.exactDelta(epsilon0, delta0, k, epsilon).round(new MathContext(120));

      String label = "eps0=" + epsilon0 + " delta0=" + delta0 + " k=" + k + " eps=" + epsilon;
      assertThat(new BigDecimal(bounds.lower())).as(label).isLessThanOrEqualTo(exact);
      assertThat(new BigDecimal(bounds.upper())).as(label).isGreaterThanOrEqualTo(exact);
      assertThat(bounds.upper()).as(label).isEqualTo(optimal.delta(epsilon));
      assertThat(bounds.gap()).as(label).isLessThanOrEqualTo(1e-10 * exact.doubleValue());
    }
  }

  @Test
  void boundsStayTightForTenThousandMechanismsAndInTheDeepTail() {
    // exact values: arbitrary-precision sum at 150 digits (CanonicalProducts.exactDelta)
    Object[][] cases = {
      {Math.log(2), 0.0, 10_000, 3600 * Math.log(2) + Math.log(3)},
      {0.1, 0.0, 10_000, 150.0},
      {0.1, 1e-9, 10_000, 40.0},
      {0.01, 0.0, 10_000, 3.0},
    };
    for (Object[] c : cases) {
      double epsilon0 = (double) c[0];
      double delta0 = (double) c[1];
      int k = (int) c[2];
      double epsilon = (double) c[3];
      DeltaBounds bounds =
          OptimalComposition.of(new ApproxDp(epsilon0, delta0), k).deltaBounds(epsilon);
      BigDecimal exact = CanonicalProducts.exactDelta(epsilon0, delta0, k, epsilon);

      assertThat(exact.doubleValue()).isPositive();
      assertThat(new BigDecimal(bounds.lower())).as("%s", epsilon).isLessThanOrEqualTo(exact);
      assertThat(new BigDecimal(bounds.upper())).as("%s", epsilon).isGreaterThanOrEqualTo(exact);
      // about (6k + 2|log δ|) units of roundoff apart: 2.2e-11 measured at k = 10^4
      assertThat(bounds.gap() / exact.doubleValue()).as("%s", epsilon).isLessThan(3e-11);
    }
  }

  @Test
  void deltaBelowTheSmallestDoubleIsBracketedByZeroAndTheSmallestDoubles() {
    // one term, e^{1000 − 10^4 log(1 + e^{0.1})}(1 − e^{-1}) ≈ e^{-6444}
    DeltaBounds bounds = OptimalComposition.of(new ApproxDp(0.1, 0), 10_000).deltaBounds(999.0);

    assertThat(bounds.lower()).isZero();
    assertThat(bounds.upper()).isPositive().isLessThanOrEqualTo(2 * Double.MIN_VALUE);
    assertThat(CanonicalProducts.exactDelta(0.1, 0, 10_000, 999.0).signum()).isPositive();
  }

  @Test
  void epsilonBoundsEncloseTheExactInverseAndAreTight() {
    SplittableRandom random = new SplittableRandom(20);
    for (int trial = 0; trial < 40; trial++) {
      double epsilon0 = 0.01 + random.nextDouble();
      double delta0 = random.nextBoolean() ? 0 : Math.pow(10, -6 - 4 * random.nextDouble());
      int k = 1 + random.nextInt(300);
      double target = Math.pow(10, -1 - 11 * random.nextDouble());
      OptimalComposition optimal = OptimalComposition.of(new ApproxDp(epsilon0, delta0), k);

      EpsilonBounds bounds = optimal.epsilonBounds(target);

      String label = "eps0=" + epsilon0 + " delta0=" + delta0 + " k=" + k + " d=" + target;
      assertThat(bounds.upper()).as(label).isEqualTo(optimal.epsilon(target));
      BigDecimal delta = new BigDecimal(target);
      if (Double.isFinite(bounds.upper())) {
        assertThat(CanonicalProducts.exactDelta(epsilon0, delta0, k, bounds.upper()))
            .as(label).isLessThanOrEqualTo(delta);
      }
      if (bounds.lower() > 0 && Double.isFinite(bounds.lower())) {
        // the exact profile is above δ at the lower end, so the exact ε(δ) is not below it
        assertThat(CanonicalProducts.exactDelta(epsilon0, delta0, k, bounds.lower()))
            .as(label).isGreaterThan(delta);
        assertThat(bounds.gap()).as(label).isLessThanOrEqualTo(1e-9 * bounds.upper());
      }
      if (Double.isInfinite(bounds.lower())) {
        assertThat(bounds.upper()).isInfinite();
      }
    }
  }

  @Test
  void epsilonBoundsAreInfiniteOnlyBelowTheFailureFloor() {
    OptimalComposition optimal = OptimalComposition.of(new ApproxDp(0.5, 1e-3), 10);
    double floor = -Math.expm1(10 * Math.log1p(-1e-3));

    assertThat(optimal.epsilonBounds(0.5 * floor).lower()).isInfinite();
    assertThat(optimal.epsilonBounds(optimal.delta(0)).lower()).isZero();
    EpsilonBounds justAbove = optimal.epsilonBounds(floor * (1 + 1e-9));
    assertThat(justAbove.lower()).isFinite().isLessThanOrEqualTo(justAbove.upper());
  }
}
