package dev.tradeoff.learning.softmax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.learning.data.MulticlassData;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SoftmaxDpSgdTest {

  /**
   * The gap sampler keeps each record with probability q, independently: per-record frequencies
   * and the frequency of a pair kept together, over many seeded steps, lie within 5 standard
   * errors of q and q² (a sampler biased by a few percent fails), and q = 1 keeps every record.
   */
  @Test
  void gapSamplingKeepsEachRecordIndependentlyWithProbabilityQ() {
    SplittableRandom seeds = new SplittableRandom(41);
    for (double q : new double[] {0.5, 0.1, 0.01}) {
      int n = 40;
      int steps = 400_000;
      long[] kept = new long[n];
      long pair = 0;
      var random = Randomness.seeded(seeds.nextLong());
      double logKeep = Math.log1p(-q);
      for (int t = 0; t < steps; t++) {
        boolean first = false;
        for (int i = SoftmaxDpSgd.nextSampled(-1, n, logKeep, random); i < n;
            i = SoftmaxDpSgd.nextSampled(i, n, logKeep, random)) {
          kept[i]++;
          if (i == 3) {
            first = true;
          } else if (i == 4 && first) {
            pair++;
          }
        }
      }
      double se = Math.sqrt(q * (1 - q) / steps);
      for (int i = 0; i < n; i++) {
        assertThat((double) kept[i] / steps).as("q %s, record %d", q, i)
            .isCloseTo(q, within(5 * se));
      }
      double pairSe = Math.sqrt(q * q * (1 - q * q) / steps);
      assertThat((double) pair / steps).as("q %s, records 3 and 4 together", q)
          .isCloseTo(q * q, within(5 * pairSe));
    }
    var random = Randomness.seeded(1);
    assertThat(SoftmaxDpSgd.nextSampled(-1, 3, Double.NEGATIVE_INFINITY, random)).isZero();
    assertThat(SoftmaxDpSgd.nextSampled(1, 3, Double.NEGATIVE_INFINITY, random)).isEqualTo(2);
    assertThat(SoftmaxDpSgd.nextSampled(2, 3, Double.NEGATIVE_INFINITY, random)).isEqualTo(3);
  }

  @Test
  void eventIsBinaryDpSgdsEventForTheSameSigmaRateAndSteps() {
    SoftmaxDpSgd dp = new SoftmaxDpSgd(1.3, 2, 0.02, 250, 0.1, 0.01);
    assertThat(dp.event()).isEqualTo(DpSgd.event(1.3, 0.02, 250));
    assertThat(dp.event()).isEqualTo(new DpSgd(1.3, 2, 0.02, 250, 0.1, 0.01).event());
    assertThat(dp.neighbouring()).isEqualTo(Neighbouring.ADD_OR_REMOVE_ONE);
  }

  @Test
  void jointlyClippedGradientHasFrobeniusNormAtMostTheClipNorm() {
    SplittableRandom random = new SplittableRandom(21);
    for (int trial = 0; trial < 500; trial++) {
      int classes = 2 + random.nextInt(8);
      int d = 1 + random.nextInt(10);
      MulticlassData data = SoftmaxLossTest.randomData(random, 1 + random.nextInt(5), classes, d);
      double clip = Math.exp(3 * random.nextGaussian());
      double[] w = SoftmaxLossTest.randomWeights(random, classes * d, Math.exp(random.nextGaussian()));
      int i = random.nextInt(data.size());
      double[] g = new SoftmaxDpSgd(1, clip, 1, 1, 1, 0).clippedGradient(data, i, w);
      double[] unclipped = SoftmaxLoss.exampleGradient(w, data, i);
      double norm = frobenius(g);
      double unclippedNorm = frobenius(unclipped);
      assertThat(norm).isLessThanOrEqualTo(clip * (1 + 1e-12));
      if (unclippedNorm <= clip) {
        assertThat(g).containsExactly(unclipped);
      } else {
        // one common scale for all C·d coordinates: the direction is kept
        assertThat(norm).isCloseTo(clip, within(1e-12 * clip));
        for (int k = 0; k < g.length; k++) {
          assertThat(g[k]).isCloseTo(unclipped[k] * clip / unclippedNorm,
              within(1e-12 * clip + 1e-12 * Math.abs(g[k])));
        }
      }
    }
  }

  @Test
  void atLargeEpsilonItComesWithinAFewPointsOfTheNonPrivateFit() {
    MulticlassData train = Blobs.of(5, 11, 5000, 0.8, 1, 2);
    MulticlassData test = Blobs.of(5, 11, 5000, 0.8, 1, 3);
    double nonPrivate = new SoftmaxRegression(1e-3).fit(train).accuracy(test);
    SoftmaxDpSgd dp = new SoftmaxDpSgd(0.5, 1, 0.05, 200, 1, 0);
    double expectedBatch = 0.05 * 5000;
    for (long seed = 1; seed <= 3; seed++) {
      double accuracy = dp.train(train, expectedBatch, Randomness.seeded(seed)).accuracy(test);
      assertThat(accuracy).isGreaterThan(nonPrivate - 0.03);
    }
  }

  @Test
  void zeroRowsTrainOnNoiseAloneToAFiniteModel() {
    MulticlassData empty = new MulticlassData(4, 3, new double[0], new int[0]);
    SoftmaxModel model =
        new SoftmaxDpSgd(2, 1, 0.1, 300, 0.5, 0.01).train(empty, 10, Randomness.seeded(2));
    assertThat(model.classes()).isEqualTo(4);
    assertThat(model.dimension()).isEqualTo(3);
    assertThat(Arrays.stream(model.weights()).allMatch(Double::isFinite)).isTrue();
    assertThat(model).isNotEqualTo(SoftmaxModel.zero(4, 3));
  }

  @Test
  void noiseOfOneStepHasStandardDeviationSigmaTimesClipOverTheExpectedBatch() {
    // zero features give zero gradients, so with q = 1, T = 1, η = 1, λ = 0 every one of the C·d
    // weights is −(noise)/expectedBatch: N(0, (σC/B)²)
    int classes = 3;
    int d = 1000;
    MulticlassData zeros = new MulticlassData(classes, d, new double[2 * d], new int[] {0, 2});
    double[] w =
        new SoftmaxDpSgd(2.5, 0.4, 1, 1, 1, 0).train(zeros, 7, Randomness.seeded(12)).weights();
    double s = 0;
    for (double v : w) {
      s += v * v;
    }
    double expected = 2.5 * 0.4 / 7;
    // sample sd of 3000 normals: relative error ~ 1.3%; 5% is > 3.8 sd
    assertThat(Math.sqrt(s / w.length)).isCloseTo(expected, within(0.05 * expected));
  }

  @Test
  void sameSeedGivesTheSameModel() {
    MulticlassData data = Blobs.of(3, 4, 200, 1, 7, 8);
    SoftmaxDpSgd dp = new SoftmaxDpSgd(1, 1, 0.2, 20, 0.5, 0.01);
    SoftmaxModel a = dp.train(data, 40, Randomness.seeded(5));
    assertThat(dp.train(data, 40, Randomness.seeded(5))).isEqualTo(a);
    assertThat(dp.train(data, 40, Randomness.seeded(6))).isNotEqualTo(a);
  }

  @Test
  void rejectsBadParametersNamingThem() {
    assertThatThrownBy(() -> new SoftmaxDpSgd(0, 1, 0.1, 1, 0.1, 0))
        .hasMessage("noiseMultiplier must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> new SoftmaxDpSgd(1, -1, 0.1, 1, 0.1, 0))
        .hasMessage("clipNorm must be > 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new SoftmaxDpSgd(1, 1, 0, 1, 0.1, 0))
        .hasMessage("samplingRate must be in (0, 1], but was 0.0");
    assertThatThrownBy(() -> new SoftmaxDpSgd(1, 1, 0.1, 0, 0.1, 0))
        .hasMessage("steps must be >= 1, but was 0");
    assertThatThrownBy(() -> new SoftmaxDpSgd(1, 1, 0.1, 1, Double.NaN, 0))
        .hasMessage("learningRate must be > 0 and finite, but was NaN");
    assertThatThrownBy(() -> new SoftmaxDpSgd(1, 1, 0.1, 1, 0.1, -0.5))
        .hasMessage("lambda must be >= 0 and finite, but was -0.5");
    MulticlassData data = Blobs.of(2, 2, 3, 1, 1, 1);
    SoftmaxDpSgd dp = new SoftmaxDpSgd(1, 1, 0.1, 1, 0.1, 0);
    assertThatThrownBy(() -> dp.train(data, 0, Randomness.seeded(1)))
        .hasMessage("expectedBatch must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> dp.clippedGradient(data, 0, new double[3]))
        .hasMessage("weights.length must equal classes * dimension = 4, but was 3");
  }

  private static double frobenius(double[] g) {
    double s = 0;
    for (double v : g) {
      s += v * v;
    }
    return Math.sqrt(s);
  }
}
