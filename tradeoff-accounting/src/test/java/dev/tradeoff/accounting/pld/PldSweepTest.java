package dev.tradeoff.accounting.pld;

import static dev.tradeoff.accounting.guarantee.Neighbouring.ADD_OR_REMOVE_ONE;

import dev.tradeoff.accounting.ExactReferences;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.DoubleStream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * A seeded sweep of the default PLD accountant over mechanisms, compositions and δ from 1e-300 to
 * 0.1 (issue 20): every ε bracket is finite, ordered, at most 0.5% wide (relative to its upper
 * end), consistent with the brackets at larger δ (the true ε is non-increasing in δ), and it
 * contains the exact value where one is known; where the exact δ(ε) is known, the δ bracket at
 * 0.999 times the exact ε(δ) contains it and has a positive lower end. Each case is asked at
 * δ = 0.1, 1e-5, 1e-12, 1e-15, at one δ drawn log-uniformly from [1e-300, 1e-15) and, where an
 * exact value is known, at 1e-300.
 *
 * <p>DP-SGD with a small sampling rate (σ = 1.74, q = 1.57e-4, 594 steps, and seeded cases with
 * q = 1e-3 and q = 1e-5 and a few hundred steps) is also asked at δ = 1e-20, 1e-50 and 1e-100: its
 * tail there is made of single steps with a huge loss, which the split by the number of large
 * steps ({@link LargeStepSplit}) resolves (before it, σ = 1.74 gave [0.02770, 0.02908] at 1e-20
 * and [0.0389, 0.719] at 1e-50). These cases are asked down to 1e-250 only: at 1e-300 the
 * split's one-large-step term is certified only by a tilted transform whose rate (the largest the
 * bulk's window offers, 54 per unit of loss for σ = 1.74) is below the growth rate of the large
 * step's tail, and the bracket is [6.92, 13.06] (see docs/accounting.md).
 *
 * <p>References, all evaluated in log space independently of the accountant: k Gaussians of σ are
 * μ-GDP with μ = √k/σ, δ(ε) = Φ(−ε/μ + μ/2) − e^εΦ(−ε/μ − μ/2) ({@link ExactReferences#gdpDelta});
 * k-fold pure ε0-DP and k-fold discrete Laplace of scale 1/ε0 are k-fold binary randomized
 * response, a binomial sum ({@link ExactReferences#binaryRrDelta}, Kairouz, Oh and Viswanath
 * 2015); k-fold m-ary randomized response is a multinomial sum ({@link
 * ExactProfiles#randomizedResponseDelta}). DP-SGD (Poisson sampled Gaussians) and mixtures have
 * no closed form: there the bracket itself is checked.
 */
class PldSweepTest {

  private static final PldAccountant DEFAULT = new PldAccountant();
  private static final double[] DELTAS = {1e-1, 1e-5, 1e-12, 1e-15};
  private static final double SMALLEST = 1e-300;
  private static final double BRACKET = 0.005;

  /**
   * A case, its exact δ(ε) (null if none is known), the smallest δ at which it is asked (the
   * sweep's {@value #SMALLEST} unless the case is a known limit) and whether it is small-rate
   * DP-SGD, asked at {@link #SMALL_RATE_DELTAS} too.
   */
  private record Case(String name, DpEvent event, DoubleUnaryOperator exactDelta,
      double smallestDelta, boolean smallRate) {
    Case(String name, DpEvent event, DoubleUnaryOperator exactDelta) {
      this(name, event, exactDelta, SMALLEST, false);
    }
  }

  /** The smallest δ at which a small-rate DP-SGD case is asked (see the class comment). */
  private static final double SMALL_RATE_SMALLEST = 1e-250;

  /** The δ at which small-rate DP-SGD cases are asked besides the sweep's. */
  private static final double[] SMALL_RATE_DELTAS = {1e-20, 1e-50, 1e-100};

  private static List<Case> cases() {
    SplittableRandom random = new SplittableRandom(20);
    List<Case> cases = new ArrayList<>();
    // The Gaussian cases, then random ones.
    cases.add(gaussians(0.3, 1));
    cases.add(gaussians(14.99, 534));
    cases.add(gaussians(0.5 + 10 * random.nextDouble(), 1 + random.nextInt(200)));
    // Pure ε0-DP and discrete Laplace: the 2.2 × 7, and random ones.
    cases.add(pure(2.2, 7));
    double eps0 = 0.1 + random.nextDouble();
    int k = 2 + random.nextInt(30);
    cases.add(new Case("discrete Laplace scale " + 1 / eps0 + " x" + k,
        new SelfComposedEvent(new DiscreteLaplaceEvent(1 / eps0), k),
        e -> ExactReferences.binaryRrDelta(eps0, k, e)));
    // Randomized response: the ε = 3, k = 100 categories × 12, and a random one.
    cases.add(randomizedResponse(3, 100, 12));
    cases.add(randomizedResponse(0.2 + random.nextDouble(), 2 + random.nextInt(6),
        2 + random.nextInt(20)));
    // DP-SGD: the σ = 3.95, q = 0.028, 15 steps, the small-ε bracket cases, a random one.
    cases.add(sgd(3.95, 0.028, 15));
    cases.add(smallRateSgd(1.74, 1.57e-4, 594));
    cases.add(sgd(0.8 + 3 * random.nextDouble(), 0.001 + 0.05 * random.nextDouble(),
        10 + random.nextInt(500)));
    // A mixture of sampled Gaussians, pure DP and Gaussians.
    cases.add(new Case("mixture", ComposedEvent.of(
        new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1.0)), 100),
        new SelfComposedEvent(new GuaranteeEvent(new PureDp(0.5)), 3),
        new SelfComposedEvent(new GaussianEvent(5), 10)), null));
    // Small-rate DP-SGD, drawn from a generator of their own so that the cases above keep theirs.
    SplittableRandom smallRates = new SplittableRandom(2020);
    cases.add(smallRateSgd(
        0.8 + 2 * smallRates.nextDouble(), 1e-3, 100 + smallRates.nextInt(400)));
    cases.add(smallRateSgd(
        0.6 + 0.6 * smallRates.nextDouble(), 1e-5, 100 + smallRates.nextInt(400)));
    return cases;
  }

  private static Case smallRateSgd(double sigma, double q, int steps) {
    return new Case("DP-SGD sigma " + sigma + " q " + q + " x" + steps,
        new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(sigma)), steps), null,
        SMALL_RATE_SMALLEST, true);
  }

  private static Case gaussians(double sigma, int k) {
    double mu = Math.sqrt(k) / sigma;
    return new Case(k + " Gaussians sigma " + sigma, new SelfComposedEvent(new GaussianEvent(sigma), k),
        e -> ExactReferences.gdpDelta(mu, e));
  }

  private static Case pure(double eps0, int k) {
    return new Case("pure " + eps0 + " x" + k,
        new SelfComposedEvent(new GuaranteeEvent(new PureDp(eps0)), k),
        e -> ExactReferences.binaryRrDelta(eps0, k, e));
  }

  private static Case randomizedResponse(double eps0, int categories, int k) {
    return new Case("RR " + eps0 + " m=" + categories + " x" + k,
        new SelfComposedEvent(new RandomizedResponseEvent(eps0, categories), k),
        e -> ExactProfiles.randomizedResponseDelta(eps0, categories, k, e));
  }

  private static Case sgd(double sigma, double q, int steps) {
    return new Case("DP-SGD sigma " + sigma + " q " + q + " x" + steps,
        new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(sigma)), steps), null);
  }

  /**
   * The case's δ, falling: the sweep's fixed ones, one drawn in [1e-300, 1e-15), 1e-300 where
   * an exact value is known and 1e-20, 1e-50, 1e-100 for small-rate DP-SGD, down to the case's
   * smallest (DP-SGD and mixtures are asked at the drawn δ only otherwise, to keep the test within
   * its time: the mixture alone took 16 CPU-s at 1e-300, bracketed to 5e-8).
   */
  private static double[] deltas(Case c, SplittableRandom random) {
    double drawn = Math.pow(10, -300 + 285 * random.nextDouble());
    DoubleStream small = c.exactDelta() == null
        ? DoubleStream.of(drawn) : DoubleStream.of(drawn, SMALLEST);
    if (c.smallRate()) {
      small = DoubleStream.concat(small, Arrays.stream(SMALL_RATE_DELTAS));
    }
    return DoubleStream.concat(Arrays.stream(DELTAS), small)
        .filter(delta -> delta >= c.smallestDelta())
        .map(delta -> -delta)
        .sorted()
        .map(delta -> -delta)
        .toArray();
  }

  @Test
  void everyBracketIsFiniteOrderedNarrowMonotoneAndContainsTheExactValue() {
    SoftAssertions softly = new SoftAssertions();
    SplittableRandom random = new SplittableRandom(300);
    for (Case c : cases()) {
      PldProfile profile = DEFAULT.account(c.event(), ADD_OR_REMOVE_ONE);
      EpsilonBounds previous = null;
      for (double delta : deltas(c, random)) {
        EpsilonBounds bounds = profile.epsilonBounds(delta);
        String what = c.name() + " at delta " + delta + ": " + bounds;
        softly.assertThat(bounds.upper()).as(what).isFinite();
        softly.assertThat(bounds.lower()).as(what).isLessThanOrEqualTo(bounds.upper());
        softly.assertThat(bounds.gap()).as(what).isLessThanOrEqualTo(BRACKET * bounds.upper());
        if (previous != null) {
          // δ falls along the sweep, so the true ε does not fall: the bracket must reach the one
          // at the larger δ, and its upper end may lie below that one's by no more than the
          // bracket's tolerance (each upper end is valid; one computed for a smaller δ, with a
          // smaller tail, can be the tighter: randomized response m = 100 gives 36.00036 at
          // 1e-15 and 36.00000000004 at 1e-142, against the true 35.9999981 and 36).
          softly.assertThat(bounds.upper()).as(what + " after " + previous)
              .isGreaterThanOrEqualTo(previous.lower())
              .isGreaterThanOrEqualTo(previous.upper() * (1 - BRACKET));
        }
        if (c.exactDelta() != null) {
          double exact = ExactReferences.epsilon(c.exactDelta(), delta);
          // The reference is bisected to a relative 1e-13.
          softly.assertThat(bounds.lower()).as(what + ", exact " + exact)
              .isLessThanOrEqualTo(exact * (1 + 1e-12));
          softly.assertThat(bounds.upper()).as(what + ", exact " + exact)
              .isGreaterThanOrEqualTo(exact * (1 - 1e-12));
          if (delta < 1e-15) {
            // δ(ε) just below the exact ε(δ): positive, and bracketed around the exact value.
            double epsilon = 0.999 * exact;
            double exactDelta = c.exactDelta().applyAsDouble(epsilon);
            DeltaBounds deltaBounds = profile.deltaBounds(epsilon);
            String at =
                c.name() + " delta(" + epsilon + ") " + deltaBounds + ", exact " + exactDelta;
            softly.assertThat(deltaBounds.lower()).as(at).isPositive()
                .isLessThanOrEqualTo(exactDelta * (1 + 1e-9));
            softly.assertThat(deltaBounds.upper()).as(at)
                .isGreaterThanOrEqualTo(exactDelta * (1 - 1e-9));
          }
        }
        previous = bounds;
      }
    }
    softly.assertAll();
  }
}
