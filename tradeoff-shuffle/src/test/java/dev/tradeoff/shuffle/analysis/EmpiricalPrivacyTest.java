package dev.tradeoff.shuffle.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.shuffle.protocol.BinarySumProtocol;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Runs the protocol on neighbouring inputs and estimates the hockey-stick divergence of its view
 * from samples: it must not exceed the exact worst-case δ(ε) beyond sampling error, and for the
 * extreme pair (no other 1s) it should come close to it.
 */
class EmpiricalPrivacyTest {

  @Test
  void empiricalHockeyStickStaysBelowTheExactProfile() {
    int n = 20;
    ShuffleParameters params = new ShuffleParameters(n, 6);
    BinarySumProtocol protocol = new BinarySumProtocol(params);
    PowerCurve exact = ExactShuffleAnalysis.worstCase(params, 1);
    SplittableRandom random = new SplittableRandom(2024L);
    int trials = 200_000;
    for (int others : new int[] {0, 9}) {
      int[] x = new int[n];
      Arrays.fill(x, 1, 1 + others, 1);
      int[] xPrime = x.clone();
      xPrime[0] = 1;
      double[] p = histogram(protocol, x, random, trials);
      double[] q = histogram(protocol, xPrime, random, trials);
      for (double eps : new double[] {0.2, 0.5, 1.0}) {
        double empirical = Math.max(hockey(p, q, eps), hockey(q, p, eps));
        // Each histogram cell has standard error ≤ 1/(2√T); 21 cells, both directions.
        assertThat(empirical).isLessThanOrEqualTo(exact.delta(eps) + 0.01);
        if (others == 0 && eps == 0.2) {
          assertThat(empirical).isGreaterThan(exact.delta(eps) * 0.5);
        }
      }
    }
  }

  private static double[] histogram(BinarySumProtocol protocol, int[] bits,
      SplittableRandom random, int trials) {
    double[] h = new double[bits.length + 1];
    for (int t = 0; t < trials; t++) {
      h[Arrays.stream(protocol.shuffledReports(bits, random)).sum()] += 1.0 / trials;
    }
    return h;
  }

  private static double hockey(double[] p, double[] q, double eps) {
    double s = 0;
    for (int i = 0; i < p.length; i++) {
      s += Math.max(0, p[i] - Math.exp(eps) * q[i]);
    }
    return s;
  }
}
