package dev.tradeoff.accounting.composition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * [DaRRM24]: Tables 2, 5, 7 and 9 print the total
 * privacy loss over Q queries by general composition (its Theorem 2.3) with δ′ = 1e-4; Table 3
 * prints the privacy allowance m and the RR parameters τ, λ for K = 35, ε = 0.1, Δ = 1e-5, δ′ = 0.1.
 * Every printed digit is reproduced (rounded half-up to the printed precision).
 */
class DarrmCompositionTablesTest {

  static Stream<Arguments> totalPrivacyLoss() {
    return Stream.of(
        // Table 2: m = 3 (MNIST, Fashion-MNIST)
        Arguments.of(0.2676, 0.0003, 20, "5.352", "0.006"),
        Arguments.of(0.2676, 0.0003, 50, "9.901", "0.015"),
        Arguments.of(0.2676, 0.0003, 100, "15.044", "0.030"),
        Arguments.of(0.2556, 0.0003, 20, "5.112", "0.006"),
        Arguments.of(0.2556, 0.0003, 50, "9.382", "0.015"),
        Arguments.of(0.2556, 0.0003, 100, "14.219", "0.030"),
        // Table 5: m = 1
        Arguments.of(0.0892, 0.0001, 20, "1.704", "0.002"),
        Arguments.of(0.0892, 0.0001, 50, "2.837", "0.005"),
        Arguments.of(0.0892, 0.0001, 100, "4.202", "0.010"),
        Arguments.of(0.0852, 0.0001, 20, "1.620", "0.002"),
        Arguments.of(0.0852, 0.0001, 50, "2.695", "0.005"),
        Arguments.of(0.0852, 0.0001, 100, "3.988", "0.010"),
        // Table 7: m = 5
        Arguments.of(0.4460, 0.0005, 20, "8.920", "0.010"),
        Arguments.of(0.4460, 0.0005, 50, "18.428", "0.025"),
        Arguments.of(0.4460, 0.0005, 100, "28.926", "0.049"),
        Arguments.of(0.4260, 0.0005, 20, "8.520", "0.010"),
        Arguments.of(0.4260, 0.0005, 50, "17.398", "0.025"),
        Arguments.of(0.4260, 0.0005, 100, "27.223", "0.049"),
        // Table 9: m = 7
        Arguments.of(0.6244, 0.0007, 20, "12.488", "0.014"),
        Arguments.of(0.6244, 0.0007, 50, "28.392", "0.035"),
        Arguments.of(0.6244, 0.0007, 100, "45.683", "0.068"),
        Arguments.of(0.5964, 0.0007, 20, "11.928", "0.014"),
        Arguments.of(0.5964, 0.0007, 50, "26.738", "0.035"),
        Arguments.of(0.5964, 0.0007, 100, "42.873", "0.068"));
  }

  @ParameterizedTest(name = "(eps, delta) = ({0}, {1}), Q = {2} -> ({3}, {4})")
  @MethodSource("totalPrivacyLoss")
  void generalCompositionReproducesEveryTotalPrivacyLossOfTables2579(
      double epsilon, double delta, int queries, String printedEpsilon, String printedDelta) {
    ApproxDp total = KairouzComposition.compose(new ApproxDp(epsilon, delta), queries, 1e-4);

    assertThat(rounded(total.epsilon(), printedEpsilon)).isEqualTo(printedEpsilon);
    assertThat(rounded(total.delta(), printedDelta)).isEqualTo(printedDelta);
  }

  @ParameterizedTest(name = "M = {0}: m = {1}, m eps = {2}, delta = {3}")
  @MethodSource("allowances")
  void privacyAllowanceReproducesTable3(
      int subsampled, String m, String overallEpsilon, String overallDelta) {
    PrivacyAllowance allowance =
        PrivacyAllowance.generalComposition(new ApproxDp(0.1, 1e-5), subsampled, 0.1);

    assertThat(rounded(allowance.multiplier(), m)).isEqualTo(m);
    assertThat(rounded(allowance.epsilon(), overallEpsilon)).isEqualTo(overallEpsilon);
    assertThat(rounded(allowance.delta(), overallDelta)).isEqualTo(overallDelta);
  }

  static Stream<Arguments> allowances() {
    return Stream.of(
        Arguments.of(10, "6.4521", "0.6452", "0.1001"),
        Arguments.of(13, "7.5742", "0.7574", "0.1001"),
        Arguments.of(15, "8.2708", "0.8271", "0.1001"),
        Arguments.of(20, "9.8823", "0.9882", "0.1002"));
  }

  @Test
  void randomizedResponseParametersReproduceTable3TauAndLambda() {
    PrivacyAllowance all = PrivacyAllowance.generalComposition(new ApproxDp(0.1, 1e-5), 35, 0.1);

    assertThat(rounded(all.multiplier(), "14.0328")).isEqualTo("14.0328");
    assertThat(rounded(all.delta(), "0.1003")).isEqualTo("0.1003");
  }

  @Test
  void cliExampleOfTheIssueGivesTheDocumentedPair() {
    ApproxDp total = KairouzComposition.compose(new ApproxDp(0.2676, 0.0003), 20, 1e-4);

    assertThat(total.epsilon()).isBetween(5.352, 5.352 * (1 + 1e-13));
    // 1 − 0.9997^20 · 0.9999 = 0.0060823324477…
    assertThat(total.delta()).isBetween(0.006082332447719, 0.006082332447721);
  }

  /** The value rounded half-up to as many decimals as the printed string has. */
  private static String rounded(double value, String printed) {
    int decimals = printed.length() - printed.indexOf('.') - 1;
    return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
  }
}
