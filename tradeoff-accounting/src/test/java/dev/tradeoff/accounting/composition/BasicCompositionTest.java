package dev.tradeoff.accounting.composition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class BasicCompositionTest {

  @Test
  void kFoldCompositionMultipliesEpsilonAndDelta() {
    ApproxDp total = BasicComposition.compose(new ApproxDp(0.2676, 0.0003), 20);

    assertThat(total.epsilon()).isCloseTo(5.352, within(1e-13)).isGreaterThanOrEqualTo(5.352);
    assertThat(total.delta()).isCloseTo(0.006, within(1e-16)).isGreaterThanOrEqualTo(0.006);
  }

  @Test
  void heterogeneousCompositionSumsEpsilonsAndDeltas() {
    ApproxDp total =
        BasicComposition.compose(
            List.of(new ApproxDp(0.5, 1e-6), new ApproxDp(0.25, 0), new ApproxDp(1, 1e-5)));

    assertThat(total.epsilon()).isCloseTo(1.75, within(1e-14)).isGreaterThanOrEqualTo(1.75);
    assertThat(total.delta()).isCloseTo(1.1e-5, within(1e-19)).isGreaterThanOrEqualTo(1.1e-5);
  }

  @Test
  void homogeneousAndRepeatedListAgree() {
    ApproxDp g = new ApproxDp(0.1, 1e-7);
    ApproxDp homogeneous = BasicComposition.compose(g, 37);
    ApproxDp list = BasicComposition.compose(Collections.nCopies(37, g));

    assertThat(list.epsilon()).isCloseTo(homogeneous.epsilon(), within(1e-13));
    assertThat(list.delta()).isCloseTo(homogeneous.delta(), within(1e-19));
  }

  @Test
  void deltaSumThatReachesOneIsCappedBelowOne() {
    ApproxDp total = BasicComposition.compose(new ApproxDp(0.1, 0.3), 5);

    assertThat(total.delta()).isEqualTo(Math.nextDown(1.0));
    assertThat(total.epsilon()).isCloseTo(0.5, within(1e-14));
  }

  @Test
  void refusesWhenEvenTheExactDeltaRoundsToOne() {
    assertThatThrownBy(() -> BasicComposition.compose(new ApproxDp(0.1, 0.9), 40))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("composed delta must be < 1");
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> BasicComposition.compose(new ApproxDp(1, 0), 0))
        .hasMessage("count must be >= 1, but was 0");
    assertThatThrownBy(() -> BasicComposition.compose(null, 2))
        .hasMessage("perMechanism must not be null");
    assertThatThrownBy(() -> BasicComposition.compose(List.of()))
        .hasMessage("guarantees must not be empty");
    assertThatThrownBy(() -> BasicComposition.compose(java.util.Arrays.asList(new ApproxDp(1, 0), null)))
        .hasMessage("guarantees[1] must not be null");
  }
}
