package dev.tradeoff.accounting.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RequireTest {

  @Test
  void messageNamesParameterRangeAndValue() {
    assertThatThrownBy(() -> Require.positive("epsilon", -1.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("epsilon must be > 0 and finite, but was -1.0");
    assertThatThrownBy(() -> Require.delta("delta", 1.0))
        .hasMessage("delta must be in [0, 1), but was 1.0");
    assertThatThrownBy(() -> Require.renyiOrder("alpha", 1.0))
        .hasMessage("alpha must be > 1 and finite, but was 1.0");
    assertThatThrownBy(() -> Require.positive("count", 0))
        .hasMessage("count must be >= 1, but was 0");
  }

  @Test
  void rejectsNanAndInfinitiesEverywhere() {
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      assertThatThrownBy(() -> Require.positive("x", bad)).hasMessageContaining("x must be");
      assertThatThrownBy(() -> Require.nonNegative("x", bad)).hasMessageContaining("x must be");
      assertThatThrownBy(() -> Require.delta("x", bad)).hasMessageContaining("x must be");
      assertThatThrownBy(() -> Require.finite("x", bad)).hasMessageContaining("x must be");
      assertThatThrownBy(() -> Require.probability("x", bad)).hasMessageContaining("x must be");
      assertThatThrownBy(() -> Require.renyiOrder("x", bad)).hasMessageContaining("x must be");
    }
  }

  @Test
  void acceptsBoundaryValuesInsideTheRange() {
    assertThat(Require.nonNegative("epsilon", 0.0)).isZero();
    assertThat(Require.delta("delta", 0.0)).isZero();
    assertThat(Require.probability("q", 1.0)).isEqualTo(1.0);
    assertThat(Require.inClosedRange("k", 2, 2, 5)).isEqualTo(2);
    assertThat(Require.finiteValues("v", new double[] {1, 2})).containsExactly(1, 2);
    assertThatThrownBy(() -> Require.finiteValues("v", new double[] {1, Double.NaN}))
        .hasMessage("v[1] must be finite, but was NaN");
  }
}
