package dev.tradeoff.shuffle.protocol;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BadInputTest {

  @Test
  void lambdaMustLieStrictlyBetweenZeroAndN() {
    for (double lambda : new double[] {0, -1, 100, 101, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> new ShuffleParameters(100, lambda))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("lambda must");
    }
  }

  @Test
  void atLeastTwoUsers() {
    assertThatThrownBy(() -> new ShuffleParameters(1, 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("users must be >= 2, but was 1");
  }

  @Test
  void atLeastOneBit() {
    ShuffleParameters params = new ShuffleParameters(10, 3);
    assertThatThrownBy(() -> new RealSumProtocol(params, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bits must be >= 1, but was 0");
    assertThatThrownBy(() -> new UnaryEncoder(-2)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void realSumValuesMustBeInTheUnitInterval() {
    RealSumProtocol protocol = new RealSumProtocol(new ShuffleParameters(3, 1), 4);
    SplittableRandom random = new SplittableRandom(1);
    assertThatThrownBy(() -> protocol.run(new double[] {0.2, 1.5, 0}, random))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("values[1] must be in [0, 1], but was 1.5");
    assertThatThrownBy(() -> protocol.run(new double[] {0.2, Double.NaN, 0}, random))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> protocol.run(new double[] {0.2, 0.1}, random))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("values.length");
  }

  @Test
  void binarySumInputsMustBeBits() {
    BinarySumProtocol protocol = new BinarySumProtocol(new ShuffleParameters(3, 1));
    assertThatThrownBy(() -> protocol.run(new int[] {0, 2, 1}, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bits[1] must be 0 or 1, but was 2");
  }
}
