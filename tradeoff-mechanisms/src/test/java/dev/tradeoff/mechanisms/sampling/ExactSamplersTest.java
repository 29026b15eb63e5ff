package dev.tradeoff.mechanisms.sampling;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.ALPHA;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.binomialZ;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.chiSquarePValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.mechanisms.random.Randomness;
import java.math.BigInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class ExactSamplersTest {

  private static final int N = 200_000;

  @Test
  void uniformBelowASmallBoundFitsTheUniformLaw() {
    RandomGenerator random = Randomness.seeded(1);
    long[] counts = new long[7];
    for (int i = 0; i < 70_000; i++) {
      counts[UniformIntegers.below(random, BigInteger.valueOf(7)).intValueExact()]++;
    }
    assertThat(chiSquarePValue(counts, uniform(7))).isGreaterThan(ALPHA);
  }

  @Test
  void uniformBelowAHugeBoundIsUniformInItsTopDigits() {
    RandomGenerator random = Randomness.seeded(2);
    BigInteger unit = BigInteger.ONE.shiftLeft(100);
    BigInteger bound = unit.multiply(BigInteger.valueOf(3)); // 3·2^100, not a power of two
    long[] counts = new long[3];
    for (int i = 0; i < 30_000; i++) {
      BigInteger u = UniformIntegers.below(random, bound);
      assertThat(u.signum()).isNotNegative();
      assertThat(u).isLessThan(bound);
      counts[u.divide(unit).intValueExact()]++;
    }
    assertThat(chiSquarePValue(counts, uniform(3))).isGreaterThan(ALPHA);
  }

  @Test
  void bernoulliFrequencyMatchesItsRationalProbability() {
    RandomGenerator random = Randomness.seeded(3);
    Bernoulli b = new Bernoulli(Rational.of(3, 7));
    long hits = 0;
    for (int i = 0; i < N; i++) {
      hits += b.sample(random) ? 1 : 0;
    }
    assertThat(binomialZ(hits, N, 3.0 / 7)).isLessThan(4.5);
    assertThat(new Bernoulli(Rational.ZERO).sample(random)).isFalse();
    assertThat(new Bernoulli(Rational.ONE).sample(random)).isTrue();
  }

  @Test
  void bernoulliExpFrequencyMatchesExpMinusGammaAcrossItsRegimes() {
    RandomGenerator random = Randomness.seeded(4);
    Rational[] gammas = {
      Rational.of(1, 3), Rational.ONE, Rational.of(5, 2), Rational.of(7, 1),
      Rational.exactly(0.1), Rational.of(1, 1L << 40)
    };
    for (Rational gamma : gammas) {
      BernoulliExp b = new BernoulliExp(gamma);
      long hits = 0;
      for (int i = 0; i < N; i++) {
        hits += b.sample(random) ? 1 : 0;
      }
      double p = Math.exp(-gamma.doubleValue());
      if (p < 1) {
        assertThat(binomialZ(hits, N, p)).as("gamma = %s", gamma).isLessThan(4.5);
      }
    }
    assertThat(BernoulliExp.sample(random, Rational.ZERO)).isTrue();
  }

  @Test
  void bernoulliExpWithAHugeDenominatorUsesExactBigIntegerArithmetic() {
    RandomGenerator random = Randomness.seeded(5);
    BigInteger d = BigInteger.ONE.shiftLeft(90);
    Rational gamma = new Rational(d.multiply(BigInteger.valueOf(3)).shiftRight(2), d); // 3/4
    long hits = 0;
    for (int i = 0; i < 50_000; i++) {
      hits += BernoulliExp.sample(random, gamma) ? 1 : 0;
    }
    assertThat(binomialZ(hits, 50_000, Math.exp(-0.75))).isLessThan(4.5);
  }

  @Test
  void geometricFitsTheExPostPapersGeomWithFailureProbabilityExpMinusGamma() {
    for (Rational gamma : new Rational[] {Rational.of(1, 2), Rational.of(3, 1), Rational.of(2, 7)}) {
      RandomGenerator random = Randomness.seeded(6);
      Geometric g = new Geometric(gamma);
      long[] samples = new long[N];
      for (int i = 0; i < N; i++) {
        samples[i] = g.sample(random);
        assertThat(samples[i]).isNotNegative();
      }
      double pValue = chiSquarePValue(samples, k -> Math.exp(g.logPmf(k)), 0);
      assertThat(pValue).as("gamma = %s", gamma).isGreaterThan(ALPHA);
    }
  }

  @Test
  void geometricWithTinyEpsilonHasMeanInTheThousandsAndTheRightBinnedLaw() {
    double epsilon = 1e-4; // mean e^-eps/(1-e^-eps) ≈ 9999.5
    Geometric g = Geometric.withFailureProbabilityExpMinus(epsilon);
    RandomGenerator random = Randomness.seeded(7);
    int n = 50_000;
    int binWidth = 2_000;
    int bins = 30; // [0, 60000) in 30 bins, plus the tail
    long[] counts = new long[bins + 1];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      long k = g.sample(random);
      sum += k;
      counts[(int) Math.min(k / binWidth, bins)]++;
    }
    double[] probabilities = new double[bins + 1];
    for (int b = 0; b < bins; b++) {
      // Pr[a <= K < c] = p^a − p^c with p = e^−eps
      probabilities[b] = Math.exp(-epsilon * b * binWidth) - Math.exp(-epsilon * (b + 1) * binWidth);
    }
    probabilities[bins] = Math.exp(-epsilon * bins * binWidth);
    assertThat(chiSquarePValue(counts, probabilities)).isGreaterThan(ALPHA);
    double mean = Math.exp(-epsilon) / -Math.expm1(-epsilon);
    double sd = Math.sqrt(Math.exp(-epsilon)) / -Math.expm1(-epsilon);
    assertThat(Math.abs(sum / n - mean)).isLessThan(4.5 * sd / Math.sqrt(n));
  }

  @Test
  void discreteLaplaceFitsItsPmfForIntegerAndRationalScales() {
    for (Rational scale : new Rational[] {Rational.ONE, Rational.of(5, 2), Rational.of(1, 3)}) {
      RandomGenerator random = Randomness.seeded(8);
      DiscreteLaplace dl = new DiscreteLaplace(scale);
      long[] samples = new long[N];
      for (int i = 0; i < N; i++) {
        samples[i] = dl.sample(random);
      }
      double pValue = chiSquarePValue(samples, y -> Math.exp(dl.logPmf(y)), 0);
      assertThat(pValue).as("scale = %s", scale).isGreaterThan(ALPHA);
    }
  }

  @Test
  void discreteLaplacePmfRatiosAreExpOfOneOverScale() {
    DiscreteLaplace dl = new DiscreteLaplace(Rational.of(2, 1));
    RandomGenerator random = Randomness.seeded(9);
    long zero = 0;
    long one = 0;
    long minusOne = 0;
    for (int i = 0; i < 400_000; i++) {
      long y = dl.sample(random);
      zero += y == 0 ? 1 : 0;
      one += y == 1 ? 1 : 0;
      minusOne += y == -1 ? 1 : 0;
    }
    // exact pmf: Pr[0] = tanh(1/4) and Pr[±1] = Pr[0]·e^{-1/2}
    double p0 = Math.tanh(0.25);
    assertThat(binomialZ(zero, 400_000, p0)).isLessThan(4.5);
    assertThat(binomialZ(one, 400_000, p0 * Math.exp(-0.5))).isLessThan(4.5);
    assertThat(binomialZ(minusOne, 400_000, p0 * Math.exp(-0.5))).isLessThan(4.5);
    assertThat((double) zero / one).isCloseTo(Math.exp(0.5), org.assertj.core.data.Offset.offset(0.03));
  }

  @Test
  void discreteLaplacePmfSumsToOne() {
    DiscreteLaplace dl = new DiscreteLaplace(Rational.of(3, 2));
    double total = 0;
    for (long y = -200; y <= 200; y++) {
      total += Math.exp(dl.logPmf(y));
    }
    assertThat(total).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void discreteGaussianFitsItsPmf() {
    Rational[] variances = {Rational.ONE, Rational.of(2, 3), Rational.of(25, 1), Rational.exactly(0.3)};
    for (Rational s2 : variances) {
      RandomGenerator random = Randomness.seeded(10);
      DiscreteGaussian dg = new DiscreteGaussian(s2);
      long[] samples = new long[N / 2];
      for (int i = 0; i < samples.length; i++) {
        samples[i] = dg.sample(random);
      }
      double pValue = chiSquarePValue(samples, y -> Math.exp(dg.logPmf(y)), 0);
      assertThat(pValue).as("sigma^2 = %s", s2).isGreaterThan(ALPHA);
    }
  }

  /** e^{−r} for a rational r ≥ 0 to 40 digits: 1/Σ r^i/i!. */
  private static java.math.BigDecimal expMinus(Rational r) {
    java.math.MathContext mc = new java.math.MathContext(40);
    java.math.BigDecimal x = new java.math.BigDecimal(r.numerator()).divide(new java.math.BigDecimal(r.denominator()), mc);
    java.math.BigDecimal term = java.math.BigDecimal.ONE;
    java.math.BigDecimal sum = java.math.BigDecimal.ONE;
    for (int i = 1; term.compareTo(java.math.BigDecimal.ONE.movePointLeft(45)) > 0 || i < 3; i++) {
      term = term.multiply(x, mc).divide(java.math.BigDecimal.valueOf(i), mc);
      sum = sum.add(term, mc);
    }
    return java.math.BigDecimal.ONE.divide(sum, mc);
  }

  /**
   * Pearson χ² of 200 000 seeded draws against Pr[y] = e^{−y²/(2σ²)}/Σ_z e^{−z²/(2σ²)} computed in
   * BigDecimal (40 digits; the tail beyond |y| = 12σ + 2 is below 10^−31), one category per y with
   * the rest merged, for σ a whole number (σ = 10), a fraction where step 3 rejects (σ = 3/2), a tiny
   * σ (1/2), a large one (σ = 1000, ⌈kσ⌉ from the table) and a σ² that is not a rational square
   * (2/3, the BigInteger rounds). A sampler with a wrong acceptance step (say e^{−x²/2} for
   * e^{−x(2k+x)/2}) moves Pr[0] alone by several percent, far beyond the test's power.
   */
  @Test
  void discreteGaussianFitsExactProbabilities() {
    Rational[] variances = {
      Rational.of(100, 1), Rational.of(9, 4), Rational.of(1, 4), Rational.of(1_000_000, 1), Rational.of(2, 3)
    };
    for (Rational s2 : variances) {
      DiscreteGaussian dg = new DiscreteGaussian(s2);
      int limit = (int) Math.ceil(12 * Math.sqrt(s2.doubleValue())) + 2;
      java.math.BigDecimal[] weights = new java.math.BigDecimal[2 * limit + 1];
      java.math.BigDecimal total = java.math.BigDecimal.ZERO;
      for (int y = -limit; y <= limit; y++) {
        Rational exponent = Rational.of((long) y * y, 1).dividedBy(s2.times(Rational.of(2, 1)));
        weights[y + limit] = expMinus(exponent);
        total = total.add(weights[y + limit]);
      }
      double[] probabilities = new double[weights.length];
      for (int i = 0; i < weights.length; i++) {
        probabilities[i] = weights[i].divide(total, java.math.MathContext.DECIMAL64).doubleValue();
      }
      RandomGenerator random = Randomness.seeded(21);
      long[] counts = new long[weights.length];
      for (int i = 0; i < N; i++) {
        long y = dg.sample(random);
        assertThat(Math.abs(y)).as("sigma^2 = %s", s2).isLessThanOrEqualTo(limit);
        counts[(int) y + limit]++;
      }
      assertThat(chiSquarePValue(counts, probabilities)).as("sigma^2 = %s", s2).isGreaterThan(ALPHA);
    }
  }

  @Test
  void discreteGaussianExactProbabilitiesOnASmallSupport() {
    // σ² = 1/4: Pr[0] = 1/Z, Pr[±1] = e^{-2}/Z, Pr[±2] = e^{-8}/Z
    DiscreteGaussian dg = new DiscreteGaussian(Rational.of(1, 4));
    double z = 1 + 2 * Math.exp(-2) + 2 * Math.exp(-8) + 2 * Math.exp(-18);
    RandomGenerator random = Randomness.seeded(11);
    long zero = 0;
    long plusOne = 0;
    for (int i = 0; i < N; i++) {
      long y = dg.sample(random);
      zero += y == 0 ? 1 : 0;
      plusOne += y == 1 ? 1 : 0;
    }
    assertThat(binomialZ(zero, N, 1 / z)).isLessThan(4.5);
    assertThat(binomialZ(plusOne, N, Math.exp(-2) / z)).isLessThan(4.5);
  }

  @Test
  void samplersRejectBadParameters() {
    assertThatThrownBy(() -> new Geometric(Rational.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gamma must be > 0, but was 0/1");
    assertThatThrownBy(() -> Geometric.withFailureProbabilityExpMinus(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DiscreteLaplace.withScale(0))
        .hasMessage("scale must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> DiscreteGaussian.withSigma(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Bernoulli(Rational.of(3, 2)))
        .hasMessage("probability must be in [0, 1], but was 3/2");
    assertThatThrownBy(() -> new Exponential(-1)).hasMessage("rate must be > 0 and finite, but was -1.0");
  }

  private static double[] uniform(int k) {
    double[] p = new double[k];
    java.util.Arrays.fill(p, 1.0 / k);
    return p;
  }
}
