package dev.tradeoff.learning.logistic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.learning.data.Dataset;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LogisticRegressionTest {

  /** Random data in the unit ball with labels from a noisy linear rule. */
  static Dataset randomData(SplittableRandom random, int n, int d) {
    double[][] rows = new double[n][d];
    int[] labels = new int[n];
    double[] truth = new double[d];
    for (int j = 0; j < d; j++) {
      truth[j] = random.nextGaussian() * 3;
    }
    for (int i = 0; i < n; i++) {
      double s = 0;
      double norm = 0;
      for (int j = 0; j < d; j++) {
        rows[i][j] = random.nextGaussian();
        norm += rows[i][j] * rows[i][j];
      }
      norm = Math.sqrt(norm) * (1 + random.nextDouble());
      for (int j = 0; j < d; j++) {
        rows[i][j] /= norm;
        s += rows[i][j] * truth[j];
      }
      labels[i] = random.nextDouble() < LogisticLoss.sigmoid(s) ? 1 : 0;
    }
    return Dataset.of(rows, labels);
  }

  /** Newton's method with exact Hessian, solved by Gaussian elimination: the reference optimum. */
  static double[] newtonOptimum(Dataset data, double lambda) {
    int d = data.dimension();
    int n = data.size();
    double[] w = new double[d];
    for (int it = 0; it < 100; it++) {
      double[] g = LogisticLoss.gradient(w, data, lambda);
      double[][] h = new double[d][d + 1];
      for (int i = 0; i < n; i++) {
        double p = LogisticLoss.sigmoid(data.dot(i, w));
        double c = p * (1 - p) / n;
        for (int a = 0; a < d; a++) {
          for (int b = 0; b < d; b++) {
            h[a][b] += c * data.feature(i, a) * data.feature(i, b);
          }
        }
      }
      for (int a = 0; a < d; a++) {
        h[a][a] += lambda;
        h[a][d] = -g[a];
      }
      double[] step = solve(h);
      for (int a = 0; a < d; a++) {
        w[a] += step[a];
      }
    }
    return w;
  }

  private static double[] solve(double[][] m) {
    int d = m.length;
    for (int c = 0; c < d; c++) {
      int pivot = c;
      for (int r = c + 1; r < d; r++) {
        if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) {
          pivot = r;
        }
      }
      double[] t = m[c];
      m[c] = m[pivot];
      m[pivot] = t;
      for (int r = c + 1; r < d; r++) {
        double f = m[r][c] / m[c][c];
        for (int k = c; k <= d; k++) {
          m[r][k] -= f * m[c][k];
        }
      }
    }
    double[] x = new double[d];
    for (int r = d - 1; r >= 0; r--) {
      double s = m[r][d];
      for (int k = r + 1; k < d; k++) {
        s -= m[r][k] * x[k];
      }
      x[r] = s / m[r][r];
    }
    return x;
  }

  @Test
  void convergesToTheNewtonOptimumOnSmallProblems() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 20; trial++) {
      int d = 1 + random.nextInt(6);
      Dataset data = randomData(random, 20 + random.nextInt(80), d);
      double lambda = Math.pow(10, -3 + 2.5 * random.nextDouble());
      LogisticRegression.Fit fit = new LogisticRegression(lambda, 1e-10, 1_000_000).fit(data);
      double[] reference = newtonOptimum(data, lambda);
      double[] w = fit.model().weights();
      double distance = 0;
      for (int j = 0; j < d; j++) {
        distance += (w[j] - reference[j]) * (w[j] - reference[j]);
      }
      assertThat(Math.sqrt(distance)).isLessThanOrEqualTo(fit.distanceBound() + 1e-12);
      assertThat(fit.distanceBound()).isLessThanOrEqualTo(1e-10);
    }
  }

  @Test
  void oneDimensionalOptimumSolvesTheStationarityEquation() {
    // x = 1 for two examples with labels 1 and 0 and one more with label 1:
    // λw + (1/3)(−2σ(−w) + σ(w)) = 0; the root is found independently by bisection.
    Dataset data = Dataset.of(new double[][] {{1}, {1}, {1}}, new int[] {1, 0, 1});
    double lambda = 0.1;
    double lo = -10;
    double hi = 10;
    for (int i = 0; i < 200; i++) {
      double mid = 0.5 * (lo + hi);
      double g =
          lambda * mid
              + (-2 * LogisticLoss.sigmoid(-mid) + LogisticLoss.sigmoid(mid)) / 3;
      if (g > 0) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    double w = new LogisticRegression(lambda, 1e-12, 100_000).fit(data).model().weights()[0];
    assertThat(w).isCloseTo(0.5 * (lo + hi), within(1e-11));
  }

  @Test
  void isDeterministic() {
    Dataset data = randomData(new SplittableRandom(3), 50, 4);
    double[] a = new LogisticRegression(0.01).fit(data).model().weights();
    double[] b = new LogisticRegression(0.01).fit(data).model().weights();
    assertThat(a).containsExactly(b);
  }

  @Test
  void optimumNormIsAtMostOneOverLambda() {
    SplittableRandom random = new SplittableRandom(5);
    for (int trial = 0; trial < 10; trial++) {
      Dataset data = randomData(random, 40, 3);
      double lambda = 0.01 + random.nextDouble();
      assertThat(new LogisticRegression(lambda).fit(data).model().norm())
          .isLessThanOrEqualTo(1 / lambda);
    }
  }

  @Test
  void failsLoudlyWhenTheToleranceIsNotCertified() {
    Dataset data = randomData(new SplittableRandom(1), 30, 3);
    assertThatThrownBy(() -> new LogisticRegression(1e-3, 1e-12, 3).fit(data))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("did not certify");
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new LogisticRegression(0))
        .hasMessage("lambda must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> new LogisticRegression(1, Double.NaN, 10))
        .hasMessage("tolerance must be > 0 and finite, but was NaN");
  }
}
