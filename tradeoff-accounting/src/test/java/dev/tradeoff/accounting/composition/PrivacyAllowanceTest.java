package dev.tradeoff.accounting.composition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import org.junit.jupiter.api.Test;

class PrivacyAllowanceTest {

  @Test
  void multiplierTimesEpsilonIsTheComposedEpsilon() {
    ApproxDp g = new ApproxDp(0.1, 1e-5);
    PrivacyAllowance allowance = PrivacyAllowance.generalComposition(g, 13, 0.1);
    ApproxDp composed = KairouzComposition.compose(g, 13, 0.1);

    assertThat(allowance.epsilon()).isEqualTo(composed.epsilon());
    assertThat(allowance.delta()).isEqualTo(composed.delta());
    assertThat(allowance.multiplier() * 0.1).isGreaterThanOrEqualTo(composed.epsilon());
  }

  @Test
  void pureSimpleCompositionGivesTauEqualToKAndLambdaZero() {
    PrivacyAllowance allowance = PrivacyAllowance.simpleComposition(new ApproxDp(0.1, 0), 11);

    assertThat(allowance.multiplier()).isCloseTo(11, within(1e-12));
    assertThat(allowance.delta()).isZero();
  }

  @Test
  void generalCompositionNeverExceedsSimpleComposition() {
    for (int count = 1; count <= 60; count++) {
      assertThat(PrivacyAllowance.generalComposition(new ApproxDp(0.1, 1e-5), count, 0.1).multiplier())
          .isLessThanOrEqualTo(count * (1 + 1e-12));
    }
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> PrivacyAllowance.generalComposition(new ApproxDp(0, 1e-5), 10, 0.1))
        .hasMessage("epsilon must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> PrivacyAllowance.generalComposition(new ApproxDp(0.1, 1e-5), 0, 0.1))
        .hasMessage("count must be >= 1, but was 0");
    assertThatThrownBy(() -> PrivacyAllowance.generalComposition(new ApproxDp(0.1, 1e-5), 10, 1.5))
        .hasMessage("deltaSlack must be in (0, 1), but was 1.5");
    assertThatThrownBy(() -> new PrivacyAllowance(-1, 0, 0))
        .hasMessage("multiplier must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new PrivacyAllowance(1, 1, 1))
        .hasMessage("delta must be in [0, 1), but was 1.0");
  }
}
