package dev.tradeoff.accounting.pld;

import static dev.tradeoff.accounting.guarantee.Neighbouring.ADD_OR_REMOVE_ONE;
import static dev.tradeoff.accounting.guarantee.Neighbouring.REPLACE_ONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.accounting.numerics.StandardNormal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PldAccountantTest {

  private static final PldAccountant DEFAULT = new PldAccountant();
  private static final PldAccountant COARSE = new PldAccountant(1e-3, 1e-15);

  @Test
  void hundredGaussiansMatchTheExactGdpValueFromAbove() {
    double exact = ExactProfiles.gaussianEpsilon(10, 1e-5);
    assertThat(exact).isCloseTo(91.81728962, within(1e-7));
    double epsilon =
        DEFAULT.account(new SelfComposedEvent(new GaussianEvent(1), 100), ADD_OR_REMOVE_ONE)
            .epsilon(1e-5);
    assertThat(epsilon).isCloseTo(exact, within(1e-4));
    assertThat(epsilon).isGreaterThanOrEqualTo(exact - 1e-9);
  }

  @Test
  void tenLaplaceMechanismsAtDeltaOneInAMillion() {
    double epsilon =
        DEFAULT.account(new SelfComposedEvent(new LaplaceEvent(1), 10), ADD_OR_REMOVE_ONE)
            .epsilon(1e-6);
    assertThat(epsilon).isCloseTo(9.99898, within(1e-4));
  }

  @Test
  void singleLaplaceIsExactlyPureDpAtDeltaZeroAndKnownDeltaBelow() {
    PldProfile profile = DEFAULT.account(new LaplaceEvent(2), REPLACE_ONE);
    // Lap(b): δ(ε) = 1 − e^{(ε − 1/b)/2} for 0 ≤ ε ≤ 1/b (closed form of the hockey stick).
    for (double eps : new double[] {0, 0.1, 0.25, 0.4, 0.5}) {
      double exact = -Math.expm1((eps - 0.5) / 2);
      assertThat(profile.delta(eps)).isCloseTo(exact, within(1e-9)).isGreaterThanOrEqualTo(exact);
    }
    assertThat(profile.delta(0.5001)).isLessThan(1e-12);
  }

  @Test
  void kGaussiansEqualOneGaussianWithSigmaOverRootK() {
    SplittableRandom random = new SplittableRandom(21);
    for (int trial = 0; trial < 4; trial++) {
      int k = 2 + random.nextInt(30);
      double sigma = 1 + 4 * random.nextDouble();
      double delta = Math.pow(10, -3 - 4 * random.nextDouble());
      double composed =
          COARSE.account(new SelfComposedEvent(new GaussianEvent(sigma), k), REPLACE_ONE)
              .epsilon(delta);
      double single = COARSE.account(new GaussianEvent(sigma / Math.sqrt(k)), REPLACE_ONE)
          .epsilon(delta);
      double exact = ExactProfiles.gaussianEpsilon(Math.sqrt(k) / sigma, delta);
      assertThat(composed).as("k=%d sigma=%f", k, sigma).isCloseTo(single, within(2e-3));
      assertThat(composed).isGreaterThanOrEqualTo(exact).isCloseTo(exact, within(2e-3));
      assertThat(single).isGreaterThanOrEqualTo(exact).isCloseTo(exact, within(1e-4));
    }
  }

  @Test
  void heterogeneousGaussiansComposeLikeGdp() {
    // μ² adds: σ = 1, 2, 3 twice each gives μ = √(2(1 + 1/4 + 1/9)).
    DpEvent event =
        ComposedEvent.of(
            new GaussianEvent(1),
            new SelfComposedEvent(new GaussianEvent(2), 2),
            new GuaranteeEvent(new GaussianDp(1.0 / 3)),
            new GaussianEvent(1),
            new GaussianEvent(3));
    double mu = Math.sqrt(2 * (1 + 0.25 + 1.0 / 9));
    PldProfile pessimistic = COARSE.account(event, ADD_OR_REMOVE_ONE);
    PrivacyProfile optimistic = COARSE.account(event, ADD_OR_REMOVE_ONE).lower();
    for (double eps : new double[] {0, 0.5, 1, 2, 4, 6}) {
      double exact = ExactProfiles.gaussianDelta(mu, eps);
      assertThat(pessimistic.delta(eps)).isGreaterThanOrEqualTo(exact);
      assertThat(optimistic.delta(eps)).isLessThanOrEqualTo(exact);
      assertThat(pessimistic.delta(eps)).isCloseTo(exact, within(1e-6 + 1e-4 * exact));
    }
  }

  @Test
  void heterogeneousCompositionDoesNotDependOnOrderAndExceedsEachPart() {
    DpEvent laplace = new LaplaceEvent(3);
    DpEvent gaussian = new GaussianEvent(2);
    DpEvent rr = RandomizedResponseEvent.binary(0.3);
    double forward = COARSE.account(ComposedEvent.of(laplace, gaussian, rr), REPLACE_ONE)
        .epsilon(1e-6);
    double backward = COARSE.account(ComposedEvent.of(rr, gaussian, laplace), REPLACE_ONE)
        .epsilon(1e-6);
    assertThat(forward).isCloseTo(backward, within(1e-9));
    for (DpEvent part : new DpEvent[] {laplace, gaussian, rr}) {
      assertThat(forward).isGreaterThan(COARSE.account(part, REPLACE_ONE).epsilon(1e-6));
    }
  }

  @Test
  void composedRandomizedResponseIsBracketedByTheExactMultinomialSum() {
    SplittableRandom random = new SplittableRandom(31);
    for (int trial = 0; trial < 6; trial++) {
      double eps0 = 0.05 + random.nextDouble();
      int categories = 2 + random.nextInt(5);
      int k = 1 + random.nextInt(40);
      DpEvent event = new SelfComposedEvent(new RandomizedResponseEvent(eps0, categories), k);
      PldProfile pessimistic = DEFAULT.account(event, REPLACE_ONE);
      PrivacyProfile optimistic = DEFAULT.account(event, REPLACE_ONE).lower();
      for (double eps : new double[] {0, 0.3, 1, 2.5}) {
        double exact = ExactProfiles.randomizedResponseDelta(eps0, categories, k, eps);
        assertThat(pessimistic.delta(eps))
            .as("eps0=%f m=%d k=%d eps=%f", eps0, categories, k, eps)
            .isGreaterThanOrEqualTo(exact)
            .isCloseTo(exact, within(1e-9 + 2e-3 * exact));
        assertThat(optimistic.delta(eps)).isLessThanOrEqualTo(exact);
      }
    }
  }

  @Test
  void pureDpAndDiscreteLaplaceAreBinaryRandomizedResponse() {
    int k = 25;
    double eps0 = 0.4;
    PldProfile pure =
        DEFAULT.account(new SelfComposedEvent(new GuaranteeEvent(new PureDp(eps0)), k), REPLACE_ONE);
    PldProfile discrete =
        DEFAULT.account(new SelfComposedEvent(new DiscreteLaplaceEvent(1 / eps0), k), REPLACE_ONE);
    for (double eps : new double[] {0, 1, 2, 4, 6}) {
      double exact = ExactProfiles.randomizedResponseDelta(eps0, 2, k, eps);
      assertThat(pure.delta(eps)).isGreaterThanOrEqualTo(exact)
          .isCloseTo(exact, within(1e-10 + 1e-3 * exact));
      assertThat(discrete.delta(eps)).isCloseTo(pure.delta(eps), within(1e-12));
    }
    // Beyond kε0 only the rigorous FFT round-off bound is left: k-fold ε0-DP is kε0-DP.
    assertThat(pure.delta(k * eps0 + 1e-3)).isLessThan(1e-8);
  }

  @Test
  void approxDpComposesAsTheOptimalCompositionOfItsWorstCase() {
    double eps0 = 0.3;
    double delta0 = 1e-4;
    int k = 12;
    PldProfile profile =
        DEFAULT.account(
            new SelfComposedEvent(new GuaranteeEvent(new ApproxDp(eps0, delta0)), k), REPLACE_ONE);
    double survive = Math.pow(1 - delta0, k);
    for (double eps : new double[] {0, 0.5, 1, 2, 3}) {
      double exact = 1 - survive + survive * ExactProfiles.randomizedResponseDelta(eps0, 2, k, eps);
      assertThat(profile.delta(eps)).isGreaterThanOrEqualTo(exact)
          .isCloseTo(exact, within(1e-9 + 1e-3 * exact));
    }
    assertThat(profile.delta(100)).isGreaterThanOrEqualTo(1 - survive);
  }

  @Test
  void gaussianDpGuaranteeIsTheGaussianWithSigmaOneOverMu() {
    double fromGuarantee =
        COARSE.account(new GuaranteeEvent(new GaussianDp(0.5)), REPLACE_ONE).epsilon(1e-5);
    double fromGaussian = COARSE.account(new GaussianEvent(2), REPLACE_ONE).epsilon(1e-5);
    assertThat(fromGuarantee).isEqualTo(fromGaussian);
    assertThat(COARSE.account(new GuaranteeEvent(new GaussianDp(0)), REPLACE_ONE).delta(0))
        .isLessThan(1e-9);
  }

  @Test
  void discreteGaussianMatchesTheDirectSumOverItsSupport() {
    double sigma = 1.5;
    PldProfile profile = DEFAULT.account(new DiscreteGaussianEvent(sigma), REPLACE_ONE);
    double normalizer = 0;
    for (int z = -100; z <= 100; z++) {
      normalizer += Math.exp(-z * z / (2 * sigma * sigma));
    }
    for (double eps : new double[] {0, 0.2, 0.7, 1.5, 3}) {
      double exact = 0;
      for (int z = -100; z <= 100; z++) {
        double p = Math.exp(-z * z / (2 * sigma * sigma)) / normalizer;
        double q = Math.exp(-(z - 1) * (z - 1) / (2 * sigma * sigma)) / normalizer;
        exact += Math.max(0, p - Math.exp(eps) * q);
      }
      assertThat(profile.delta(eps)).isGreaterThanOrEqualTo(exact)
          .isCloseTo(exact, within(1e-12 + 1e-6 * exact));
    }
  }

  @Test
  void poissonSampledGaussianIsBracketedByItsClosedFormInBothDirections() {
    double sigma = 0.8;
    double q = 0.1;
    PldProfile pessimistic =
        DEFAULT.account(new PoissonSampledEvent(q, new GaussianEvent(sigma)), ADD_OR_REMOVE_ONE);
    PrivacyProfile optimistic =
        DEFAULT.account(
            new PoissonSampledEvent(q, new GaussianEvent(sigma)), ADD_OR_REMOVE_ONE).lower();
    assertThat(pessimistic.distributions()).hasSize(2);
    for (double eps : new double[] {0, 0.05, 0.1, 0.3, 0.6, 1}) {
      double exact = Math.max(sampledGaussianRemove(sigma, q, eps), sampledGaussianAdd(sigma, q, eps));
      assertThat(pessimistic.delta(eps)).as("eps=%f", eps).isGreaterThanOrEqualTo(exact)
          .isCloseTo(exact, within(1e-12 + 1e-6 * exact));
      assertThat(optimistic.delta(eps)).isLessThanOrEqualTo(exact);
    }
  }

  /** Remove direction: δ = Pr_P[x > x*] − e^ε Pr_Q[x > x*], x* where the loss equals ε. */
  private static double sampledGaussianRemove(double sigma, double q, double eps) {
    double u = Math.log((Math.expm1(eps) + q) / q);
    double x = sigma * sigma * u + 0.5;
    double p = q * StandardNormal.survival((x - 1) / sigma)
        + (1 - q) * StandardNormal.survival(x / sigma);
    return Math.max(0, p - Math.exp(eps) * StandardNormal.survival(x / sigma));
  }

  /** Add direction: the loss −log(qe^u + 1 − q) exceeds ε for x below x*. */
  private static double sampledGaussianAdd(double sigma, double q, double eps) {
    double inner = Math.expm1(-eps) + q;
    if (inner <= 0) {
      return 0;
    }
    double x = sigma * sigma * Math.log(inner / q) + 0.5;
    double p = StandardNormal.cdf(x / sigma);
    double mixture = q * StandardNormal.cdf((x - 1) / sigma) + (1 - q) * StandardNormal.cdf(x / sigma);
    return Math.max(0, p - Math.exp(eps) * mixture);
  }

  @Test
  void poissonSampledLaplaceIsBracketedByItsClosedFormInBothDirections() {
    double b = 0.7;
    double q = 0.2;
    DpEvent event = new PoissonSampledEvent(q, new LaplaceEvent(b));
    PldProfile pessimistic = DEFAULT.account(event, ADD_OR_REMOVE_ONE);
    PrivacyProfile optimistic = DEFAULT.account(event, ADD_OR_REMOVE_ONE).lower();
    for (double eps : new double[] {0, 0.05, 0.2, 0.4, 0.6}) {
      double exact = Math.max(sampledLaplaceRemove(b, q, eps), sampledLaplaceAdd(b, q, eps));
      assertThat(pessimistic.delta(eps)).as("eps=%f", eps).isGreaterThanOrEqualTo(exact)
          .isCloseTo(exact, within(1e-12 + 1e-6 * exact));
      assertThat(optimistic.delta(eps)).isLessThanOrEqualTo(exact);
    }
  }

  /**
   * Remove direction, P = qLap(1, b) + (1−q)Lap(0, b), Q = Lap(0, b): the loss log(qe^u + 1 − q)
   * with u = (2x − 1)/b on (0, 1) exceeds ε exactly for x > x*.
   */
  private static double sampledLaplaceRemove(double b, double q, double eps) {
    double x = (b * Math.log((Math.expm1(eps) + q) / q) + 1) / 2;
    if (x >= 1) {
      return 0;
    }
    x = Math.max(x, 0);
    double shifted = 1 - 0.5 * Math.exp(-(1 - x) / b); // Lap(1, b) mass above x
    double base = 0.5 * Math.exp(-x / b); // Lap(0, b) mass above x
    return Math.max(0, q * shifted + (1 - q) * base - Math.exp(eps) * base);
  }

  /** Add direction, P = Lap(0, b), Q the mixture: the loss exceeds ε exactly for x < x*. */
  private static double sampledLaplaceAdd(double b, double q, double eps) {
    double inner = Math.expm1(-eps) + q;
    if (inner <= 0) {
      return 0;
    }
    double x = (b * Math.log(inner / q) + 1) / 2;
    if (x <= 0) {
      return 0;
    }
    x = Math.min(x, 1);
    double base = 1 - 0.5 * Math.exp(-x / b); // Lap(0, b) mass below x
    double shifted = 0.5 * Math.exp(-(1 - x) / b); // Lap(1, b) mass below x
    return Math.max(0, base - Math.exp(eps) * (q * shifted + (1 - q) * base));
  }

  @Test
  void poissonSamplingAmplifiesAndItsEndpointsAreExact() {
    SplittableRandom random = new SplittableRandom(41);
    DpEvent[] inners = {
      new GaussianEvent(1.2),
      new LaplaceEvent(0.8),
      RandomizedResponseEvent.binary(1.1),
      new RandomizedResponseEvent(0.9, 5),
      new DiscreteLaplaceEvent(1.3),
      new GuaranteeEvent(new PureDp(0.7)),
      new GuaranteeEvent(new ApproxDp(0.7, 1e-6))
    };
    for (DpEvent inner : inners) {
      int k = 1 + random.nextInt(20);
      double q = 0.05 + 0.5 * random.nextDouble();
      PldProfile whole = COARSE.account(new SelfComposedEvent(inner, k), ADD_OR_REMOVE_ONE);
      PldProfile sampled =
          COARSE.account(
              new SelfComposedEvent(new PoissonSampledEvent(q, inner), k), ADD_OR_REMOVE_ONE);
      PldProfile smaller =
          COARSE.account(
              new SelfComposedEvent(new PoissonSampledEvent(q / 2, inner), k), ADD_OR_REMOVE_ONE);
      PldProfile one =
          COARSE.account(new SelfComposedEvent(new PoissonSampledEvent(1, inner), k), ADD_OR_REMOVE_ONE);
      PldProfile none =
          COARSE.account(new SelfComposedEvent(new PoissonSampledEvent(0, inner), k), ADD_OR_REMOVE_ONE);
      for (double eps : new double[] {0, 0.2, 0.5, 1}) {
        assertThat(sampled.delta(eps)).as("%s eps=%f", inner, eps)
            .isLessThanOrEqualTo(whole.delta(eps) + 1e-9);
        assertThat(smaller.delta(eps)).isLessThanOrEqualTo(sampled.delta(eps) + 1e-9);
        assertThat(one.delta(eps)).isCloseTo(whole.delta(eps), within(1e-12));
        assertThat(none.delta(eps)).isLessThan(1e-9);
      }
    }
  }

  @Test
  void deltaFallsWithEpsilonAndEpsilonFallsWithDeltaAndBothGrowWithCount() {
    SplittableRandom random = new SplittableRandom(51);
    for (int trial = 0; trial < 5; trial++) {
      double sigma = 0.5 + 3 * random.nextDouble();
      double b = 0.5 + 3 * random.nextDouble();
      int k = 1 + random.nextInt(15);
      DpEvent step = ComposedEvent.of(new GaussianEvent(sigma), new LaplaceEvent(b));
      PldProfile profile = COARSE.account(new SelfComposedEvent(step, k), REPLACE_ONE);
      PldProfile more = COARSE.account(new SelfComposedEvent(step, k + 1), REPLACE_ONE);
      double previousDelta = 1;
      for (double eps = 0; eps < 10; eps += 0.37) {
        double delta = profile.delta(eps);
        assertThat(delta).isLessThanOrEqualTo(previousDelta);
        assertThat(more.delta(eps)).isGreaterThanOrEqualTo(delta);
        previousDelta = delta;
      }
      double previousEps = Double.POSITIVE_INFINITY;
      for (double delta = 1e-10; delta < 0.5; delta *= 7) {
        double eps = profile.epsilon(delta);
        assertThat(eps).isLessThanOrEqualTo(previousEps);
        assertThat(more.epsilon(delta)).isGreaterThanOrEqualTo(eps);
        previousEps = eps;
      }
    }
  }

  @Test
  void epsilonOfDeltaIsTheSmallestEpsilonReachingDelta() {
    SplittableRandom random = new SplittableRandom(61);
    for (int trial = 0; trial < 8; trial++) {
      DpEvent event =
          new SelfComposedEvent(
              ComposedEvent.of(
                  new GaussianEvent(0.5 + 2 * random.nextDouble()),
                  RandomizedResponseEvent.binary(random.nextDouble())),
              1 + random.nextInt(10));
      PldProfile profile = COARSE.account(event, REPLACE_ONE);
      double delta = Math.pow(10, -1 - 8 * random.nextDouble());
      // Per distribution (the profile may answer ε and δ from recomputations on other grids).
      PrivacyLossDistribution distribution = profile.distributions().get(0);
      double eps = distribution.epsilon(delta);
      assertThat(distribution.delta(eps)).isLessThanOrEqualTo(delta);
      if (eps > 0) {
        assertThat(distribution.delta(eps - 1e-9 * Math.max(1, eps) - 1e-12)).isGreaterThan(delta);
      }
      assertThat(profile.epsilon(delta)).isLessThanOrEqualTo(eps);
      PrivacyProfile optimistic = COARSE.account(event, REPLACE_ONE).lower();
      double lower = optimistic.epsilon(delta);
      assertThat(lower).isLessThanOrEqualTo(eps);
      if (lower > 0) {
        assertThat(optimistic.delta(lower)).isGreaterThanOrEqualTo(delta);
      }
    }
  }

  @Test
  void boundsBracketTheExactGaussianAnswer() {
    DpEvent event = new SelfComposedEvent(new GaussianEvent(2), 20);
    double mu = Math.sqrt(20) / 2;
    EpsilonBounds eps = DEFAULT.epsilonBounds(event, ADD_OR_REMOVE_ONE, 1e-6);
    double exactEps = ExactProfiles.gaussianEpsilon(mu, 1e-6);
    assertThat(eps.lower()).isLessThanOrEqualTo(exactEps);
    assertThat(eps.upper()).isGreaterThanOrEqualTo(exactEps);
    assertThat(eps.gap()).isLessThan(2e-3);
    DeltaBounds delta = DEFAULT.deltaBounds(event, ADD_OR_REMOVE_ONE, 3);
    double exactDelta = ExactProfiles.gaussianDelta(mu, 3);
    assertThat(delta.lower()).isLessThanOrEqualTo(exactDelta);
    assertThat(delta.upper()).isGreaterThanOrEqualTo(exactDelta);
  }

  @Test
  void refusesWhatItCannotAccountForExactly() {
    PoissonSampledEvent sampled = new PoissonSampledEvent(0.1, new GaussianEvent(1));
    assertThat(DEFAULT.whyUnsupported(sampled, REPLACE_ONE)).get().asString()
        .contains("add/remove-one");
    assertThat(DEFAULT.supports(sampled, ADD_OR_REMOVE_ONE)).isTrue();
    assertThat(DEFAULT.whyUnsupported(
        new SampledWithoutReplacementEvent(100, 10, new DiscreteGaussianEvent(1)), REPLACE_ONE))
        .get().asString().contains("without replacement");
    assertThat(DEFAULT.whyUnsupported(
        new PoissonSampledEvent(0.1, new DiscreteGaussianEvent(1)), ADD_OR_REMOVE_ONE))
        .isPresent();
    assertThat(DEFAULT.whyUnsupported(
        new PoissonSampledEvent(0.1, new SelfComposedEvent(new GaussianEvent(1), 2)),
        ADD_OR_REMOVE_ONE)).isPresent();
    assertThat(DEFAULT.whyUnsupported(new DiscreteGaussianEvent(1e6), REPLACE_ONE)).isPresent();
    DpEvent zcdp = new GuaranteeEvent(new ZeroConcentratedDp(0.5));
    assertThat(DEFAULT.whyUnsupported(ComposedEvent.of(new GaussianEvent(1), zcdp), REPLACE_ONE))
        .get().asString().contains("ZeroConcentratedDp");
    assertThatThrownBy(() -> DEFAULT.account(sampled, REPLACE_ONE))
        .isInstanceOf(UnsupportedEventException.class)
        .hasMessageStartingWith("method pld cannot account for");
    assertThat(DEFAULT.method()).isEqualTo(AccountingMethod.PLD);
  }

  @Test
  void rejectsBadParametersWithTheStandardMessage() {
    assertThatThrownBy(() -> new PldAccountant(Double.NaN, 1e-15))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be in [1.0E-7, 1.0], but was NaN");
    assertThatThrownBy(() -> new PldAccountant(-1e-4, 1e-15))
        .hasMessage("interval must be in [1.0E-7, 1.0], but was -1.0E-4");
    assertThatThrownBy(() -> new PldAccountant(1e-4, 0.5))
        .hasMessage("tailMass must be in [1.0E-300, 0.001], but was 0.5");
    PldProfile profile = COARSE.account(new GaussianEvent(1), REPLACE_ONE);
    assertThatThrownBy(() -> profile.epsilon(1.0)).hasMessage("delta must be in [0, 1), but was 1.0");
    assertThatThrownBy(() -> profile.epsilon(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> profile.delta(-1)).hasMessage("epsilon must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> profile.delta(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DEFAULT.account(null, REPLACE_ONE)).hasMessage("event must not be null");
    assertThatThrownBy(() -> new PldAccountant(1e-4, 1e-15, 3000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxPoints must be a power of two in [1024, 8388608], but was 3000");
  }

  @Test
  void aBudgetCoarsenedAnswerWithAWideBracketIsRecomputedOnTheFinestGrid() {
    // 100-fold pure 0.3-DP lives on a lattice: a grid coarsened to fit 1024 points does not divide
    // it and its optimistic bound suffers, so the answer comes from the full-budget grid.
    DpEvent event = new SelfComposedEvent(new GuaranteeEvent(new PureDp(0.3)), 100);
    PldProfile small = new PldAccountant(1e-4, 1e-15, 1 << 10).account(event, ADD_OR_REMOVE_ONE);
    assertThat(small.interval()).isGreaterThan(1e-4);
    EpsilonBounds full = new PldAccountant(1e-4, 1e-15, PldAccountant.MAX_COMPOSED_POINTS)
        .epsilonBounds(event, ADD_OR_REMOVE_ONE, 1e-6);
    assertThat(small.epsilonBounds(1e-6)).isEqualTo(full);
    // (A smooth loss keeps the coarse grid: PldExactValuesTest's 100 Gaussians at the defaults.)
  }

  @Test
  void aGridTooFineForTheLossesIsCoarsenedNotRefused() {
    // Lap(b) has δ(ε) = 1 − e^{(ε − 1/b)/2} below 1/b, so ε(δ) = 1/b + 2 log(1 − δ).
    PldProfile profile =
        new PldAccountant(1e-7, 1e-15).account(new LaplaceEvent(1e-3), REPLACE_ONE);
    assertThat(profile.interval()).isGreaterThan(1e-7);
    double exact = 1000 + 2 * Math.log1p(-1e-6);
    EpsilonBounds bounds = profile.epsilonBounds(1e-6);
    assertThat(bounds.lower()).isLessThanOrEqualTo(exact);
    assertThat(bounds.upper()).isGreaterThanOrEqualTo(exact);
    assertThat(bounds.gap()).isLessThan(1e-3 * exact);
  }

  @Test
  void unreachableDeltaGivesInfiniteEpsilon() {
    PldProfile profile =
        COARSE.account(new GuaranteeEvent(new ApproxDp(1, 1e-3)), REPLACE_ONE);
    assertThat(profile.epsilon(1e-4)).isEqualTo(Double.POSITIVE_INFINITY);
    // Below ε0 the worst case has δ(ε) = δ0 + (1 − δ0)(e^{ε0} − e^ε)/(1 + e^{ε0}).
    double exact = Math.log(Math.E - (2e-3 - 1e-3) * (1 + Math.E) / (1 - 1e-3));
    assertThat(profile.epsilon(2e-3)).isGreaterThanOrEqualTo(exact).isCloseTo(exact, within(1e-6));
  }
}
