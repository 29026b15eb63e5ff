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
      LagrangianCertificate.Lagrangian certificate =
          new LagrangianCertificate(alpha, c, n, (alpha - 1) * epsilon)
              .lagrangian(BinaryRenyi.logPForEpsilon(alpha, epsilon));
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
  void taylorBoundIsAboveTheLagrangianSampledDenselyOverRandomBoxes() {
    SplittableRandom random = new SplittableRandom(29);
    for (int trial = 0; trial < 300; trial++) {
      double alpha = random.nextBoolean() ? 5 : 50;
      double c = random.nextBoolean() ? 0.01 + 0.1 * random.nextDouble() : 0.3;
      int n = 1 + random.nextInt(8);
      double epsilon = 0.05 + 10 * random.nextDouble() * random.nextDouble();
      LagrangianCertificate.Lagrangian lagrangian =
          new LagrangianCertificate(alpha, c, n, (alpha - 1) * epsilon)
              .lagrangian(BinaryRenyi.logPForEpsilon(alpha, epsilon));
      double width = Math.pow(10, -3 + 3 * random.nextDouble());
      double p0 = -15 * random.nextDouble();
      double p1 = Math.min(0, p0 + width);
      double s0 = -15 + 30 * random.nextDouble();
      double s1 = s0 + width * 2 * random.nextDouble();
      double bound = lagrangian.taylorBound(p0, p1, s0, s1);
      double max = Double.NEGATIVE_INFINITY;
      double magnitude = 0;
      for (int i = 0; i <= 30; i++) {
        for (int j = 0; j <= 30; j++) {
          double value = lagrangian.scaledLagrangian(p0 + (p1 - p0) * i / 30, s0 + (s1 - s0) * j / 30);
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
  void taylorBoundOvershootsTheBoxMaximumToSecondOrder() {
    // Along the flat ridge of c = 0.01 (L within 1e-2 of F*, terms of F and G1 cancelling) the
    // overshoot over the box's maximum must shrink faster than the width: first-order bounds
    // shrink only linearly, which is what stalled the search there.
    LagrangianCertificate.Lagrangian lagrangian =
        new LagrangianCertificate(50, 0.01, 3, 49 * 0.1)
            .lagrangian(BinaryRenyi.logPForEpsilon(50, 0.1));
    double coarse = overshoot(lagrangian, -6.97, 7.19, 2e-3);
    double fine = overshoot(lagrangian, -6.97, 7.19, 1e-3);
    assertThat(fine).isGreaterThanOrEqualTo(0).isLessThan(coarse / 3);
  }

  private static double overshoot(
      LagrangianCertificate.Lagrangian lagrangian, double tp, double ts, double half) {
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i <= 20; i++) {
      for (int j = 0; j <= 20; j++) {
        max =
            Math.max(
                max,
                lagrangian.scaledLagrangian(
                    tp - half + half * i / 10, ts - half + half * j / 10));
      }
    }
    return lagrangian.taylorBound(tp - half, tp + half, ts - half, ts + half) - max;
  }

  @Test
  void anchoredBoxBoundTendsToTheValueAsTheBoxShrinks() {
    // Not only valid but tight: on a tiny box the bound is the value to first order.
    LagrangianCertificate.Lagrangian certificate =
        new LagrangianCertificate(50, 0.1, 4, 49 * 1.0).lagrangian(BinaryRenyi.logPForEpsilon(50, 1.0));
    for (double[] point : new double[][] {{-3, 2}, {-1, -4}, {-6, 5}}) {
      double value = certificate.scaledLagrangian(point[0], point[1]);
      double bound =
          certificate.anchoredBoxBound(point[0], point[0] + 1e-7, point[1], point[1] + 1e-7);
      assertThat(bound).isGreaterThanOrEqualTo(value);
      assertThat(bound - value).isLessThanOrEqualTo(1e-4 * Math.max(1, Math.abs(value)));
    }
  }
}
