package dev.tradeoff.learning.perturbation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.calibration.AnalyticGaussian;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.logistic.LogisticRegression;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.random.RandomGenerator;
import org.apache.commons.statistics.distribution.GammaDistribution;
import org.junit.jupiter.api.Test;

class OutputPerturbationTest {

  /** Kolmogorov–Smirnov statistic sup |F_n − F| of a sample against a continuous CDF. */
  static double ksStatistic(double[] sample, DoubleUnaryOperator cdf) {
    double[] x = sample.clone();
    Arrays.sort(x);
    int n = x.length;
    double d = 0;
    for (int i = 0; i < n; i++) {
      double f = cdf.applyAsDouble(x[i]);
      d = Math.max(d, Math.max((i + 1.0) / n - f, f - (double) i / n));
    }
    return d;
  }

  /** The asymptotic KS critical value at level 0.001: 1.949/√n. */
  static double ksCritical(int n) {
    return 1.949 / Math.sqrt(n);
  }

  static Dataset unitBallData(SplittableRandom random, int n, int d) {
    double[][] rows = new double[n][d];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      double norm = 0;
      for (int j = 0; j < d; j++) {
        rows[i][j] = random.nextGaussian();
        norm += rows[i][j] * rows[i][j];
      }
      norm = Math.sqrt(norm) / random.nextDouble();
      for (int j = 0; j < d; j++) {
        rows[i][j] /= norm;
      }
      labels[i] = rows[i][0] + 0.3 * random.nextGaussian() > 0 ? 1 : 0;
    }
    return Dataset.of(rows, labels);
  }

  @Test
  void sensitivityIsTwoOverNLambdaPlusTwiceTheCertifiedTolerance() {
    OutputPerturbation op = OutputPerturbation.pure(0.5, new LogisticRegression(0.1, 1e-9, 1000));
    assertThat(OutputPerturbation.exactSensitivity(100, 0.1)).isCloseTo(0.2, within(1e-16));
    assertThat(op.sensitivity(100)).isGreaterThanOrEqualTo(0.2 + 2e-9).isCloseTo(0.2 + 2e-9,
        within(1e-15));
    assertThat(op.normNoise(100, 7).orElseThrow())
        .isEqualTo(new NormNoise(7, Math.nextUp(op.sensitivity(100) / 0.5)));
    assertThat(op.guarantee()).isEqualTo(new PureDp(0.5));
    assertThat(op.event(100)).isEqualTo(new GuaranteeEvent(new PureDp(0.5)));
    assertThat(op.neighbouring()).isEqualTo(Neighbouring.REPLACE_ONE);
  }

  @Test
  void noiseNormFollowsGammaOfDimensionAndSensitivityOverEpsilon() {
    // The density ∝ exp(−ε‖b‖/Δ) has ‖b‖ ~ Gamma(d, Δ/ε): a KS test at level 0.001 per case.
    RandomGenerator random = Randomness.seeded(20240601L);
    int[] dims = {1, 3, 50};
    for (int d : dims) {
      OutputPerturbation op = OutputPerturbation.pure(0.7, 0.05);
      int n = 200;
      double scale = op.sensitivity(n) / 0.7;
      int draws = 3000;
      double[] norms = new double[draws];
      for (int k = 0; k < draws; k++) {
        double[] b = op.noise(n, d, random);
        double s = 0;
        for (double v : b) {
          s += v * v;
        }
        norms[k] = Math.sqrt(s);
      }
      GammaDistribution gamma = GammaDistribution.of(d, scale);
      assertThat(ksStatistic(norms, gamma::cumulativeProbability))
          .as("KS statistic for d = %d", d)
          .isLessThan(ksCritical(draws));
      // and a wrong scale is rejected: the test has power
      GammaDistribution wrong = GammaDistribution.of(d, scale * 1.1);
      assertThat(ksStatistic(norms, wrong::cumulativeProbability))
          .isGreaterThan(ksCritical(draws));
    }
  }

  @Test
  void noiseDirectionIsUniform() {
    // Uniform on the sphere: each squared coordinate has mean 1/d; each coordinate has mean 0.
    NormNoise noise = new NormNoise(4, 1);
    RandomGenerator random = Randomness.seeded(77);
    int draws = 20000;
    double[] mean = new double[4];
    double[] square = new double[4];
    for (int k = 0; k < draws; k++) {
      double[] u = noise.sampleDirection(random);
      double s = 0;
      for (int j = 0; j < 4; j++) {
        mean[j] += u[j] / draws;
        square[j] += u[j] * u[j] / draws;
        s += u[j] * u[j];
      }
      assertThat(s).isCloseTo(1, within(1e-12));
    }
    for (int j = 0; j < 4; j++) {
      // sd of a coordinate is 1/2, of the mean 1/(2√n) ≈ 0.0035; of u² about 0.22/√n ≈ 0.0016
      assertThat(mean[j]).isCloseTo(0, within(0.02));
      assertThat(square[j]).isCloseTo(0.25, within(0.01));
    }
  }

  @Test
  void gaussianVariantUsesTheAnalyticGaussianAtTheSensitivity() {
    OutputPerturbation op = OutputPerturbation.gaussian(0.5, 1e-5, 0.1);
    double sens = op.sensitivity(50);
    double sigma = op.gaussianSigma(50);
    assertThat(sigma).isEqualTo(AnalyticGaussian.sigma(0.5, 1e-5, sens));
    assertThat(op.event(50)).isEqualTo(new GaussianEvent(sigma / sens));
    assertThat(op.guarantee()).isEqualTo(new ApproxDp(0.5, 1e-5));
    assertThat(op.normNoise(50, 3)).isEmpty();
    double[] b = op.noise(50, 4000, Randomness.seeded(3));
    double s = 0;
    for (double v : b) {
      s += v * v;
    }
    // sample sd of 4000 normals is within 5% of σ with overwhelming probability
    assertThat(Math.sqrt(s / b.length)).isCloseTo(sigma, within(0.05 * sigma));
  }

  @Test
  void replacingOneRecordMovesTheSolutionByAtMostTheSensitivity() {
    SplittableRandom random = new SplittableRandom(99);
    for (int trial = 0; trial < 15; trial++) {
      int n = 20 + random.nextInt(40);
      int d = 1 + random.nextInt(4);
      double lambda = 0.01 + random.nextDouble();
      Dataset data = unitBallData(random, n, d);
      Dataset other = unitBallData(random, 1, d);
      double[][] rows = new double[n][];
      int[] labels = data.labels();
      for (int i = 0; i < n; i++) {
        rows[i] = data.row(i);
      }
      int replaced = random.nextInt(n);
      rows[replaced] = other.row(0);
      labels[replaced] = 1 - labels[replaced];
      Dataset neighbour = Dataset.of(rows, labels);
      LogisticRegression solver = new LogisticRegression(lambda, 1e-10, 1_000_000);
      double[] w = solver.fit(data).model().weights();
      double[] v = solver.fit(neighbour).model().weights();
      double dist = 0;
      for (int j = 0; j < d; j++) {
        dist += (w[j] - v[j]) * (w[j] - v[j]);
      }
      assertThat(Math.sqrt(dist))
          .isLessThanOrEqualTo(OutputPerturbation.pure(1, solver).sensitivity(n));
    }
  }

  @Test
  void releaseAddsNoiseToTheCertifiedSolution() {
    Dataset data = unitBallData(new SplittableRandom(5), 100, 3);
    OutputPerturbation op = OutputPerturbation.pure(1.0, 0.1);
    OutputPerturbation.Release release = op.train(data, Randomness.seeded(8));
    assertThat(release.size()).isEqualTo(100);
    assertThat(release.sensitivity()).isEqualTo(op.sensitivity(100));
    // the same seed reproduces the release; the noise is the difference from the exact solution
    double[] again = op.train(data, Randomness.seeded(8)).model().weights();
    assertThat(release.model().weights()).containsExactly(again);
    double[] exact = op.solver().fit(data).model().weights();
    double[] noise = op.noise(100, 3, Randomness.seeded(8));
    for (int j = 0; j < 3; j++) {
      assertThat(release.model().weights()[j]).isCloseTo(exact[j] + noise[j], within(1e-12));
    }
  }

  @Test
  void rejectsFeaturesOutsideTheUnitBall() {
    Dataset data = Dataset.of(new double[][] {{2, 0}, {0, 1}}, new int[] {1, 0});
    assertThatThrownBy(() -> OutputPerturbation.pure(1, 0.1).train(data, Randomness.seeded(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("withBiasUnitNorm");
    assertThat(data.withBiasUnitNorm(1).maxRowNorm()).isCloseTo(1, within(1e-15));
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> OutputPerturbation.pure(-1, 0.1))
        .hasMessage("epsilon must be > 0 and finite, but was -1.0");
    assertThatThrownBy(() -> OutputPerturbation.gaussian(1, 0, 0.1))
        .hasMessage("delta must be in (0, 1), but was 0.0");
    assertThatThrownBy(() -> new NormNoise(0, 1)).hasMessage("dimension must be >= 1, but was 0");
  }
}
