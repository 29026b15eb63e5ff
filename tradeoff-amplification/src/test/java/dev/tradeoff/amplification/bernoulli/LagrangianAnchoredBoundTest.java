package dev.tradeoff.amplification.bernoulli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LagrangianAnchoredBoundTest {

  @Test
  void anchoredBoxBoundIsAboveTheLagrangianSampledDenselyOverRandomBoxes() {
    SplittableRandom random = new SplittableRandom(23);
    for (int trial = 0; trial < 300; trial++) {
      double alpha = random.nextBoolean() ? 5 : 20;
      double c = 0.05 + 0.4 * random.nextDouble();
      int n = 1 + random.nextInt(6);
      double epsilon = 0.1 + 4 * random.nextDouble();
      LagrangianCertificate certificate =
          new LagrangianCertificate(alpha, c, n, (alpha - 1) * epsilon);
      certificate.certify(BinaryRenyi.logPForEpsilon(alpha, epsilon), 1e-9, 1);
      double p0 = -12 * random.nextDouble();
      double p1 = Math.min(0, p0 + 3 * Math.pow(random.nextDouble(), 2));
      double s0 = -12 + 24 * random.nextDouble();
      double s1 = s0 + 3 * Math.pow(random.nextDouble(), 2);
      double bound = certificate.anchoredBoxBound(p0, p1, s0, s1);
      double max = Double.NEGATIVE_INFINITY;
      double magnitude = 0;
      for (int i = 0; i <= 40; i++) {
        for (int j = 0; j <= 40; j++) {
          double tp = p0 + (p1 - p0) * i / 40;
          double ts = s0 + (s1 - s0) * j / 40;
          double value = certificate.scaledLagrangian(tp, ts);
          max = Math.max(max, value);
          magnitude = Math.max(magnitude, Math.abs(value));
        }
      }
      assertThat(bound)
          .as("trial %d: a=%s c=%s n=%d eps=%s box [%s,%s]x[%s,%s]", trial, alpha, c, n, epsilon,
              p0, p1, s0, s1)
          .isGreaterThanOrEqualTo(max - 1e-9 * Math.max(1, magnitude));
    }
  }

  @Test
  void anchoredBoxBoundTendsToTheValueAsTheBoxShrinks() {
    // Not only valid but tight: on a tiny box the bound is the value to first order.
    LagrangianCertificate certificate = new LagrangianCertificate(50, 0.1, 4, 49 * 1.0);
    certificate.certify(BinaryRenyi.logPForEpsilon(50, 1.0), 1e-9, 1);
    for (double[] point : new double[][] {{-3, 2}, {-1, -4}, {-6, 5}}) {
      double value = certificate.scaledLagrangian(point[0], point[1]);
      double bound =
          certificate.anchoredBoxBound(point[0], point[0] + 1e-7, point[1], point[1] + 1e-7);
      assertThat(bound).isGreaterThanOrEqualTo(value);
      assertThat(bound - value).isLessThanOrEqualTo(1e-4 * Math.max(1, Math.abs(value)));
    }
  }
}
