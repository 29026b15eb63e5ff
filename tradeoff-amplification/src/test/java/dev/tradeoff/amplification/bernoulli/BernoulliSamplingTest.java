package dev.tradeoff.amplification.bernoulli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BernoulliSamplingTest {

  private static final BernoulliSampling PAPER = new BernoulliSampling(50, 0.1, 1, 1);

  @Test
  void reproducesTheSingleSampleValuesForCOneTenthAlphaFifty() {
    // The issue prints 6 decimals (5 significant digits for 2.19507 and 0.077143): each printed
    // value is matched to its last digit; the exact values are 0.0771434739, 0.7730714246,
    // 2.1368347813 and 2.1950743627.
    assertThat(PAPER.amplify(0.1).post()).isCloseTo(0.077143, within(5e-7));
    assertThat(PAPER.amplify(1).post()).isCloseTo(0.773071, within(0.773071 * 1e-6));
    assertThat(PAPER.amplify(5).post()).isCloseTo(2.136835, within(2.136835 * 1e-6));
    assertThat(PAPER.asymptote()).isCloseTo(2.19507, within(5e-6));
    for (double epsilon : new double[] {0.1, 1, 5}) {
      Amplification a = PAPER.amplify(epsilon);
      assertThat(a.certified()).isTrue();
      assertThat(a.gap()).isLessThanOrEqualTo(1e-9);
    }
  }

  /** Brute force over all 2^{dk} outcomes of Bern_k applied to the pair (3)–(4), plain doubles. */
  private static double bruteForceLowerBound(double alpha, double c, int d, int k, double p) {
    int coins = d * k;
    double sum = 0;
    for (int b = 0; b < 1 << coins; b++) {
      int ones = Integer.bitCount(b);
      double atC = Math.pow(c, ones) * Math.pow(1 - c, coins - ones);
      double atOneMinusC = Math.pow(1 - c, ones) * Math.pow(c, coins - ones);
      double pb = p * atC + (1 - p) * atOneMinusC;
      double qb = (1 - p) * atC + p * atOneMinusC;
      sum += Math.pow(pb, alpha) * Math.pow(qb, 1 - alpha);
    }
    return Math.log(sum) / (alpha - 1);
  }

  @Test
  void theorem4LowerBoundAgreesWithEnumeratingEveryOutcome() {
    SplittableRandom random = new SplittableRandom(3);
    for (int trial = 0; trial < 60; trial++) {
      double alpha = 1.5 + random.nextDouble() * 20;
      double c = random.nextDouble() * 0.45 + 0.01;
      int d = 1 + random.nextInt(3);
      int k = 1 + random.nextInt(3);
      double epsilon = 0.05 + random.nextDouble() * 4;
      double p = BinaryRenyi.pForEpsilon(alpha, epsilon);
      double expected = bruteForceLowerBound(alpha, c, d, k, p);
      assertThat(new BernoulliSampling(alpha, c, d, k).lowerBound(epsilon))
          .as("alpha=%s c=%s d=%s k=%s eps=%s", alpha, c, d, k, epsilon)
          .isCloseTo(expected, within(1e-9 * Math.max(1, expected)));
    }
  }

  @Test
  void cornerChannelReproducesTheorem4OnTheAntipodalPair() {
    double alpha = 7;
    double c = 0.2;
    for (int d = 1; d <= 3; d++) {
      for (int k = 1; k <= 3; k++) {
        double epsilon = 0.8;
        double p = BinaryRenyi.pForEpsilon(alpha, epsilon);
        int corners = 1 << d;
        double[] x = new double[corners];
        double[] y = new double[corners];
        x[corners - 1] = p;
        x[0] = 1 - p;
        y[corners - 1] = 1 - p;
        y[0] = p;
        double viaChannel =
            new CornerChannel(c, d, k).logRenyiSum(alpha, x, y) / (alpha - 1);
        // lowerBound is rounded down by the stated relative 1e-12
        assertThat(viaChannel)
            .isCloseTo(new BernoulliSampling(alpha, c, d, k).lowerBound(epsilon), within(3e-12));
      }
    }
  }

  @Test
  void kSamplesInDimensionDBoundBelowLikeOneSampleInDimensionDk() {
    assertThat(new BernoulliSampling(50, 0.1, 3, 4).lowerBound(2))
        .isEqualTo(new BernoulliSampling(50, 0.1, 12, 1).lowerBound(2));
    assertThat(new BernoulliSampling(50, 0.1, 3, 4).asymptote())
        .isCloseTo(12 * BinaryRenyi.r(50, 0.1), within(1e-12));
  }

  @Test
  void certifiedPostIsTheTrueMaximumOnAFineGridForOneDimension() {
    for (int k : new int[] {1, 2, 4}) {
      BernoulliSampling setting = new BernoulliSampling(5, 0.1, 1, k);
      double epsilon = 0.7;
      CornerChannel channel = new CornerChannel(0.1, 1, k);
      double best = Double.NEGATIVE_INFINITY;
      int grid = 600;
      for (int i = 1; i < grid; i++) {
        for (int j = 1; j < grid; j++) {
          double[] x = {i / (double) grid, 1 - i / (double) grid};
          double[] y = {j / (double) grid, 1 - j / (double) grid};
          double c1 = Math.pow(x[0], 5) * Math.pow(y[0], -4) + Math.pow(x[1], 5) * Math.pow(y[1], -4);
          double c2 = Math.pow(y[0], 5) * Math.pow(x[0], -4) + Math.pow(y[1], 5) * Math.pow(x[1], -4);
          if (Math.log(c1) / 4 <= epsilon && Math.log(c2) / 4 <= epsilon) {
            best = Math.max(best, channel.logRenyiSum(5, x, y) / 4);
          }
        }
      }
      Amplification a = setting.amplify(epsilon);
      assertThat(a.certified()).isTrue();
      assertThat(best).isLessThanOrEqualTo(a.upperBound());
      assertThat(best).isCloseTo(a.post(), within(2e-3));
    }
  }

  @Test
  void boundsAreOrderedOnASeededSweep() {
    SplittableRandom random = new SplittableRandom(2024);
    for (int trial = 0; trial < 150; trial++) {
      double alpha = 1.2 + random.nextDouble() * 80;
      double c = random.nextDouble() * 0.49;
      int d = 1 + random.nextInt(trial % 5 == 0 ? 20 : 3);
      int k = 1 + random.nextInt(4);
      double epsilon = Math.exp(-4 + random.nextDouble() * 8);
      BernoulliSampling setting = new BernoulliSampling(alpha, c, d, k);
      Amplification a =
          setting.amplify(epsilon, new SearchBudget(1e-6, d == 1 && k == 1 ? 50_000 : 2_000));
      String label = setting + " eps=" + epsilon;
      assertThat(a.lowerBound()).as(label).isLessThanOrEqualTo(a.post());
      assertThat(a.post()).as(label).isLessThanOrEqualTo(a.upperBound());
      assertThat(a.upperBound()).as(label).isLessThanOrEqualTo(Math.min(epsilon, a.asymptote()));
      assertThat(a.gap()).as(label).isCloseTo(a.upperBound() - a.post(), within(1e-15));
      setting
          .theorem2Bound(epsilon)
          .ifPresent(t2 -> assertThat(t2).as(label).isLessThanOrEqualTo(a.lowerBound() + 1e-12));
      if (d == 1 && k == 1) {
        assertThat(a.certified()).as(label).isTrue();
      }
    }
  }

  @Test
  void conjectureHoldsWhereverOneDimensionIsCertified() {
    for (double alpha : new double[] {5, 50}) {
      for (double c : new double[] {0.01, 0.1, 0.3}) {
        for (int k : new int[] {1}) {
          BernoulliSampling setting = new BernoulliSampling(alpha, c, 1, k);
          for (double epsilon = 0.25; epsilon <= 8; epsilon *= 2) {
            Amplification a = setting.amplify(epsilon);
            assertThat(a.certified()).isTrue();
            assertThat(a.upperBound() - a.lowerBound())
                .as("%s eps=%s", setting, epsilon)
                .isLessThanOrEqualTo(1e-9);
          }
        }
      }
    }
  }

  @Test
  void conjectureHoldsForSeveralSamplesWhereTheSearchCertifies() {
    for (int k : new int[] {2, 4}) {
      BernoulliSampling setting = new BernoulliSampling(50, 0.1, 1, k);
      for (double epsilon : new double[] {0.25, 0.5, 1, 2}) {
        Amplification a = setting.amplify(epsilon);
        assertThat(a.certified()).as("%s eps=%s", setting, epsilon).isTrue();
        assertThat(a.upperBound() - a.lowerBound()).isLessThanOrEqualTo(1e-9);
      }
    }
  }

  @Test
  void staysFiniteWherePlainDoublesOverflow() {
    // (α − 1)·ε = 49·30 = 1470 > 709: the paper's curves stop before this point.
    Amplification a = PAPER.amplify(30);
    assertThat(a.post()).isFinite().isCloseTo(PAPER.asymptote(), within(1e-9));
    assertThat(a.certified()).isTrue();
    Amplification far = new BernoulliSampling(1000, 0.3, 2, 3).amplify(500);
    assertThat(far.lowerBound()).isFinite().isPositive();
    assertThat(far.upperBound()).isLessThanOrEqualTo(far.asymptote());
  }

  @Test
  void withoutAMarginThereIsNoAmplification() {
    Amplification a = new BernoulliSampling(5, 0, 2, 3).amplify(1.3);
    assertThat(a.post()).isCloseTo(1.3, within(3e-12));
    assertThat(a.asymptote()).isInfinite();
    assertThat(a.certified()).isTrue();
  }

  @Test
  void statesTheAmplifiedGuaranteeAtOrderAlpha() {
    RenyiDp guarantee = PAPER.guarantee(1);
    assertThat(guarantee.orders()).containsExactly(50);
    assertThat(guarantee.epsilon(0)).isEqualTo(PAPER.amplify(1).upperBound());
    assertThat(guarantee.epsilon(0)).isLessThan(1);
  }

  @Test
  void rejectsBadInputWithRequireMessages() {
    assertThatThrownBy(() -> new BernoulliSampling(1, 0.1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("alpha must be > 1 and finite, but was 1.0");
    assertThatThrownBy(() -> new BernoulliSampling(2, 0.5, 1, 1))
        .hasMessage("c must be in [0, 0.5), but was 0.5");
    assertThatThrownBy(() -> new BernoulliSampling(2, -0.1, 1, 1))
        .hasMessage("c must be in [0, 0.5), but was -0.1");
    assertThatThrownBy(() -> new BernoulliSampling(2, 0.1, 0, 1))
        .hasMessage("dimension must be >= 1, but was 0");
    assertThatThrownBy(() -> new BernoulliSampling(2, 0.1, 1, 0))
        .hasMessage("samples must be >= 1, but was 0");
    assertThatThrownBy(() -> PAPER.amplify(0))
        .hasMessage("epsilon must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> PAPER.lowerBound(-1))
        .hasMessage("epsilon must be > 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new BernoulliSampling(Double.NaN, 0.1, 1, 1))
        .hasMessage("alpha must be > 1 and finite, but was NaN");
  }

  @Test
  void lowerBoundIsNeverAboveTheValueItBounds() {
    // {α, c, d, k, ε, R_α(Bern_k(P), Bern_k(Q)) at the p the library picks for ε}: mpmath at 60
    // digits, Theorem 4's sum over Hamming weights with p = exp(BinaryRenyi.logPForEpsilon(α, ε))
    // taken from its double exactly.
    double[][] cases = {
      {2, 0.1, 1, 1, 0.5, 0.330941591086494623892678748578},
      {4, 0.25, 3, 2, 1, 0.857782591126597292491478812495},
      {1.5, 0.05, 2, 5, 0.2, 0.199986224004957643590851675938},
      {3, 0.3, 10, 10, 2, 1.99995500314976864785915968552},
    };
    for (double[] c : cases) {
      double lower = new BernoulliSampling(c[0], c[1], (int) c[2], (int) c[3]).lowerBound(c[4]);
      // the exact value's double is within half an ulp; the bound is below it by the stated
      // relative 1e-12
      assertThat(lower).as("%s", c[0]).isLessThan(c[5] * (1 - 1e-13))
          .isGreaterThan(c[5] - 3e-12 * Math.max(1, c[5]));
    }
  }
}
