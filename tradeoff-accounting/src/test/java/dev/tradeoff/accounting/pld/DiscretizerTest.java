package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DiscretizerTest {

  private static PrivacyLossDistribution discretize(
      LossModel model, double interval, Discretization discretization) {
    return new Discretizer(interval, 1e-15, discretization).discretize(model);
  }

  @Test
  void connectTheDotsIsExactAtGridPointsAndAboveBetweenThem() {
    SplittableRandom random = new SplittableRandom(81);
    for (int trial = 0; trial < 5; trial++) {
      double sigma = 0.3 + 3 * random.nextDouble();
      double interval = 1e-3;
      PrivacyLossDistribution pessimistic =
          discretize(new SampledGaussianLoss(sigma, 1, Direction.REMOVE), interval,
              Discretization.PESSIMISTIC);
      PrivacyLossDistribution optimistic =
          discretize(new SampledGaussianLoss(sigma, 1, Direction.REMOVE), interval,
              Discretization.OPTIMISTIC);
      for (int i = 0; i < 40; i++) {
        double grid = random.nextInt((int) (3 / sigma / interval) + 1) * interval;
        double exact = ExactProfiles.gaussianDelta(1 / sigma, grid);
        assertThat(pessimistic.delta(grid)).as("sigma=%f eps=%f", sigma, grid)
            .isCloseTo(exact, within(1e-14 + 1e-8 * exact))
            .isGreaterThanOrEqualTo(exact);
        double between = grid + interval * random.nextDouble();
        double exactBetween = ExactProfiles.gaussianDelta(1 / sigma, between);
        assertThat(pessimistic.delta(between)).isGreaterThanOrEqualTo(exactBetween);
        assertThat(optimistic.delta(between)).isLessThanOrEqualTo(exactBetween);
      }
    }
  }

  @Test
  void pessimisticDiscretizationPreservesBothMassesOfEveryModel() {
    SplittableRandom random = new SplittableRandom(82);
    for (int trial = 0; trial < 12; trial++) {
      double q = trial % 3 == 0 ? 1 : 0.01 + 0.9 * random.nextDouble();
      Direction direction = random.nextBoolean() ? Direction.REMOVE : Direction.ADD;
      double scale = 0.3 + 2 * random.nextDouble();
      LossModel model =
          switch (trial % 4) {
            case 0 -> new SampledGaussianLoss(scale, q, direction);
            case 1 -> new SampledLaplaceLoss(scale, q, direction);
            case 2 -> Outcomes.randomizedResponse(scale, 2 + random.nextInt(6)).sampled(q, direction);
            default -> Outcomes.approxDp(scale, 1e-4).sampled(q, direction);
          };
      PrivacyLossDistribution pld = discretize(model, 1e-3, Discretization.PESSIMISTIC);
      double pMass = pld.infinityMass();
      double qMass = 0;
      for (int i = 0; i < pld.size(); i++) {
        double loss = (pld.offset() + i) * pld.interval();
        pMass += pld.massAt(i);
        qMass += pld.massAt(i) * Math.exp(-loss);
      }
      assertThat(pMass).as("%s", model).isCloseTo(1, within(1e-8));
      assertThat(qMass).as("%s", model).isLessThanOrEqualTo(1 + 1e-8);
    }
  }

  @Test
  void laplaceAtomsLandOnTheirGridPointsWithTheirExactMasses() {
    PrivacyLossDistribution pld =
        discretize(new SampledLaplaceLoss(0.5, 1, Direction.REMOVE), 1e-2, Discretization.PESSIMISTIC);
    // Loss 1/b = 2 carries Pr[x >= 1] = 1/2 under P = Lap(1, b), plus a sliver of the density.
    int top = (int) Math.round(2 / 1e-2 - pld.offset());
    assertThat(pld.massAt(top)).isGreaterThanOrEqualTo(0.5).isLessThan(0.5 + 1e-2);
    assertThat(pld.highestLoss()).isLessThanOrEqualTo(2.0 + 2e-2);
    assertThat(pld.infinityMass()).isZero();
  }
}
