package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.numerics.StandardNormal;
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

  /**
   * Algorithm 1 of Doroshenko, Ghazi, Kamath, Kumar and Manurangsi ("Connect the Dots", PETS 2022)
   * defines the pessimistic PLD on grid points ε_i from the exact hockey-stick values δ_i = δ(ε_i):
   * the mass at an interior ε_i is (δ_i − δ_{i−1})/(e^{ε_{i−1}−ε_i} − 1) + (δ_{i+1} − δ_i)/
   * (e^{ε_{i+1}−ε_i} − 1). Our discretizer instead splits each bin's P-mass between its two grid
   * points preserving P- and Q-mass; both are the unique grid PLD with δ exact at every grid
   * point, so the masses must agree (up to the relative safety margin and the quadrature).
   */
  @Test
  void pessimisticMassesAreThoseOfAlgorithmOneOfConnectTheDots() {
    for (double sigma : new double[] {0.7, 1, 2}) {
      double interval = 1e-2;
      double mu = 1 / sigma;
      PrivacyLossDistribution pld = discretize(
          new SampledGaussianLoss(sigma, 1, Direction.REMOVE), interval,
          Discretization.PESSIMISTIC);
      int checked = 0;
      for (int i = 1; i + 1 < pld.size(); i++) {
        double loss = (pld.offset() + i) * interval;
        double before = ExactProfiles.gaussianDelta(mu, loss - interval);
        double at = ExactProfiles.gaussianDelta(mu, loss);
        double after = ExactProfiles.gaussianDelta(mu, loss + interval);
        double algorithmOne =
            (at - before) / Math.expm1(-interval) + (after - at) / Math.expm1(interval);
        if (algorithmOne < 1e-6) {
          continue; // far tails: the differences of δ lose their relative accuracy
        }
        // Differences of δ values of order 1 divided by e^{±Δ} − 1 carry about 1e-16/Δ.
        assertThat(pld.massAt(i)).as("sigma=%f loss=%f", sigma, loss)
            .isCloseTo(algorithmOne, within(1e-9 * algorithmOne + 1e-12));
        checked++;
      }
      assertThat(checked).isGreaterThan(100);
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
  /**
   * The optimistic garble of a Poisson-sampled Gaussian whose rate q is of the order of the grid
   * (its loss piles up just above log(1 − q)): δ(ε) stays at or below the exact single-step value
   * (closed form: Pr_P[x > x*] − e^ε Pr_Q[x > x*] at the output x* of loss ε), and its mean loss
   * per step stays within 1e-4·Δ of the pessimistic pair's (which keeps both masses of every bin)
   * once Δ ≤ q/4. Matching neighbouring bins only, then rounding the rest down, was first order:
   * −3.29e-6 against 2.543e-7 at σ = 0.5, q = 1e-4, Δ = 2e-5, a difference of 0.18Δ.
   */
  @Test
  void optimisticSampledGaussianStaysBelowTheExactProfileAndKeepsItsMeanLoss() {
    SplittableRandom random = new SplittableRandom(2020);
    for (int trial = 0; trial < 6; trial++) {
      double sigma = 0.4 + 1.6 * random.nextDouble();
      double q = Math.pow(10, -4 - random.nextDouble());
      double interval = q / (4 + 4 * random.nextDouble());
      SampledGaussianLoss model = new SampledGaussianLoss(sigma, q, Direction.REMOVE);
      PrivacyLossDistribution optimistic =
          discretize(model, interval, Discretization.OPTIMISTIC);
      PrivacyLossDistribution pessimistic =
          discretize(model, interval, Discretization.PESSIMISTIC);
      String what = String.format("sigma=%f q=%g interval=%g", sigma, q, interval);
      assertThat(meanLoss(optimistic)).as(what)
          .isCloseTo(meanLoss(pessimistic), within(1e-4 * interval));
      for (int i = 0; i < 20; i++) {
        double epsilon = 0.05 * random.nextDouble();
        double x = sigma * sigma * Math.log(Math.expm1(epsilon) / q + 1) + 0.5;
        double exact = q * StandardNormal.survival((x - 1) / sigma)
            + (1 - q) * StandardNormal.survival(x / sigma)
            - Math.exp(epsilon) * StandardNormal.survival(x / sigma);
        assertThat(optimistic.delta(epsilon)).as("%s eps=%f", what, epsilon)
            .isLessThanOrEqualTo(exact + 1e-15);
      }
    }
  }

  private static double meanLoss(PrivacyLossDistribution pld) {
    double mean = 0;
    for (int i = 0; i < pld.size(); i++) {
      mean += pld.massAt(i) * (pld.offset() + i) * pld.interval();
    }
    return mean;
  }
}
