package dev.tradeoff.accounting.rdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.conversion.PureDpConversion;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MechanismRdpTest {

  @Test
  void gaussianIsAlphaOverTwoSigmaSquared() {
    assertThat(MechanismRdp.gaussian(2, 3)).isEqualTo(3.0 / 8);
  }

  @Test
  void laplaceMatchesNumericalIntegrationOfTheDefinition() {
    // mpmath quad of ∫ p^α q^{1−α} at 40 digits
    double[][] cases = {
      {1, 2, 0.6191236299985928834},
      {1, 1.5, 0.5128835112945085956},
      {10, 3, 0.014375812634703677485},
      {1000, 2, 9.9966641691672482502e-7},
      {0.1, 5, 9.8530533337744696928},
      {3, 100, 0.32638247839660200982},
    };
    for (double[] c : cases) {
      assertThat(MechanismRdp.laplace(c[0], c[1]))
          .as("b=%s alpha=%s", c[0], c[1])
          .isCloseTo(c[2], withinPercentage(1e-10));
    }
  }

  @Test
  void laplaceStaysAccurateForHugeScales() {
    // leading term α/(2b²) (Taylor expansion of the closed form), next term O(1/b³)
    double b = 1e6;
    assertThat(MechanismRdp.laplace(b, 2)).isCloseTo(2 / (2 * b * b), withinPercentage(1e-4));
  }

  @Test
  void laplaceBranchesAgreeAtTheSwitch() {
    double alpha = 4;
    double scale = alpha; // α/b = 1: series branch
    assertThat(MechanismRdp.laplace(Math.nextDown(scale), alpha))
        .isCloseTo(MechanismRdp.laplace(scale, alpha), withinPercentage(1e-12));
  }

  @Test
  void laplaceIsBoundedByItsPureDpGuarantee() {
    SplittableRandom rng = new SplittableRandom(21);
    for (int i = 0; i < 1000; i++) {
      double b = Math.pow(10, -1 + 4 * rng.nextDouble());
      double alpha = 1.01 + 200 * rng.nextDouble() * rng.nextDouble();
      double lap = MechanismRdp.laplace(b, alpha);
      assertThat(lap)
          .isGreaterThanOrEqualTo(0)
          .isLessThanOrEqualTo(
              PureDpConversion.renyiEpsilonOfRandomizedResponse(1 / b, 2, alpha) * (1 + 1e-12));
      assertThat(MechanismRdp.laplace(b, alpha * 1.05)).isGreaterThanOrEqualTo(lap);
    }
  }

  @Test
  void discreteLaplaceEqualsBinaryRandomizedResponse() {
    assertThat(MechanismRdp.discreteLaplace(2, 3))
        .isEqualTo(PureDpConversion.renyiEpsilonOfRandomizedResponse(0.5, 2, 3));
  }

  @Test
  void discreteLaplaceMatchesTheDefiningSeries() {
    double t = 1.5;
    double alpha = 2.5;
    double r = Math.exp(-1 / t);
    double c = (1 - r) / (1 + r);
    double sum = 0;
    for (int z = -200; z <= 200; z++) {
      sum += Math.pow(c * Math.pow(r, Math.abs(z)), alpha)
          * Math.pow(c * Math.pow(r, Math.abs(z - 1)), 1 - alpha);
    }
    assertThat(MechanismRdp.discreteLaplace(t, alpha))
        .isCloseTo(Math.log(sum) / (alpha - 1), within(1e-13));
  }

  @Test
  void expm1MinusXHasNoCancellation() {
    assertThat(MechanismRdp.expm1MinusX(1e-10)).isCloseTo(5e-21, withinPercentage(1e-8));
    assertThat(MechanismRdp.expm1MinusX(-0.3))
        .isCloseTo(Math.exp(-0.3) - 1 + 0.3, withinPercentage(1e-11));
    assertThat(MechanismRdp.expm1MinusX(2)).isCloseTo(Math.exp(2) - 3, withinPercentage(1e-13));
  }

  @Test
  void rejectsBadInputs() {
    assertThatThrownBy(() -> MechanismRdp.gaussian(0, 2)).hasMessageContaining("sigma");
    assertThatThrownBy(() -> MechanismRdp.laplace(1, 0.5)).hasMessageContaining("alpha");
    assertThatThrownBy(() -> MechanismRdp.laplace(Double.NaN, 2)).hasMessageContaining("scale");
    assertThatThrownBy(() -> MechanismRdp.discreteLaplace(-1, 2)).hasMessageContaining("scale");
  }
}
