package dev.tradeoff.accounting.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import org.junit.jupiter.api.Test;

/** [DaRRM24, Appendix D.2.1 and Table 4] (see REPRODUCTION.md, "DaRRM Table 4"). */
class GnMaxRdpGridSearchTest {

  private static final ApproxDp MNIST = new ApproxDp(0.2676, 0.0003);
  private static final ApproxDp FASHION_MNIST = new ApproxDp(0.2556, 0.0003);

  @Test
  void reproducesTheSigmaColumnOfTable4() {
    assertThat(GnMaxRdpGridSearch.search(MNIST).sigma()).isCloseTo(21.46, within(0.005));
    assertThat(GnMaxRdpGridSearch.search(FASHION_MNIST).sigma()).isCloseTo(22.46, within(0.005));
  }

  @Test
  void theLambdaColumnOfTable4IsNotTheGridMinimiser() {
    GnMaxRdpGridSearch.Result mnist = GnMaxRdpGridSearch.search(MNIST);
    GnMaxRdpGridSearch.Result fashion = GnMaxRdpGridSearch.search(FASHION_MNIST);
    // The search selects λ ≈ 62.31 and 64.74, not the printed 34.31 and 35.74 ...
    assertThat(mnist.lambda()).isCloseTo(62.31, within(0.005));
    assertThat(fashion.lambda()).isCloseTo(64.74, within(0.005));
    // ... and at the printed λ the required σ is far above σ_min, so the two columns disagree.
    assertThat(GnMaxRdpGridSearch.sigmaAt(MNIST, 34.31)).isCloseTo(37.75, within(0.005));
    assertThat(GnMaxRdpGridSearch.sigmaAt(FASHION_MNIST, 35.74)).isCloseTo(40.21, within(0.005));
  }

  @Test
  void thePrintedLambdaIsTheGridStartPlusThree() {
    // λ_min = log(1/δ)/ε + 1 = 31.3129 and 32.7360; the printed λ is λ_min + 3 (grid index 6) in
    // both rows, to the printed two decimals.
    assertThat(GnMaxRdpGridSearch.lambdaMin(MNIST)).isCloseTo(31.3129, within(1e-4));
    assertThat(GnMaxRdpGridSearch.lambdaMin(FASHION_MNIST)).isCloseTo(32.7360, within(1e-4));
    assertThat(GnMaxRdpGridSearch.lambdaMin(MNIST) + 3).isCloseTo(34.31, within(0.005));
    assertThat(GnMaxRdpGridSearch.lambdaMin(FASHION_MNIST) + 3).isCloseTo(35.74, within(0.005));
  }

  @Test
  void theSelectedSigmaMeetsTheTargetUnderTheClassicConversion() {
    GnMaxRdpGridSearch.Result r = GnMaxRdpGridSearch.search(MNIST);
    double eps =
        r.lambda() / (r.sigma() * r.sigma()) + Math.log(1 / MNIST.delta()) / (r.lambda() - 1);
    assertThat(eps).isCloseTo(MNIST.epsilon(), within(1e-12));
  }

  @Test
  void rejectsTargetsOutsideTheGrid() {
    assertThatThrownBy(() -> GnMaxRdpGridSearch.search(new ApproxDp(0.001, 1e-5)))
        .hasMessageContaining("lambda_min");
    assertThatThrownBy(() -> GnMaxRdpGridSearch.search(new ApproxDp(0, 1e-5)))
        .hasMessageContaining("target epsilon");
    assertThatThrownBy(() -> GnMaxRdpGridSearch.sigmaAt(MNIST, 1)).hasMessageContaining("lambda");
  }
}
