package dev.tradeoff.mechanisms.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GridTest {

  @Test
  void indexRoundsHalfToEven() {
    Grid unit = new Grid(0);
    assertThat(unit.index(0.5)).isEqualTo(BigInteger.ZERO);
    assertThat(unit.index(1.5)).isEqualTo(BigInteger.TWO);
    assertThat(unit.index(-2.5)).isEqualTo(BigInteger.valueOf(-2));
    assertThat(unit.index(2.4999999999999996)).isEqualTo(BigInteger.TWO);
    assertThat(new Grid(-2).index(0.3)).isEqualTo(BigInteger.ONE); // 0.3/0.25 = 1.2
  }

  @Test
  void indexIsExactForHugeAndTinyInputsOnRandomGrids() {
    SplittableRandom random = new SplittableRandom(30);
    for (int i = 0; i < 500; i++) {
      double x = Double.longBitsToDouble(random.nextLong());
      if (!Double.isFinite(x)) {
        continue;
      }
      int exponent = random.nextInt(-1074, 1024);
      Grid grid = new Grid(exponent);
      BigDecimal g =
          exponent >= 0
              ? new BigDecimal(BigInteger.ONE.shiftLeft(exponent))
              : BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(-exponent)));
      BigInteger expected =
          new BigDecimal(x).divide(g).setScale(0, RoundingMode.HALF_EVEN).toBigIntegerExact();
      assertThat(grid.index(x)).as("x=%s k=%s", x, exponent).isEqualTo(expected);
    }
  }

  @Test
  void latticePointsRoundTrip() {
    Grid grid = new Grid(-40);
    for (long m : new long[] {0, 1, -1, 123_456_789_012L, -(1L << 52)}) {
      assertThat(grid.index(grid.value(m))).isEqualTo(BigInteger.valueOf(m));
    }
  }

  @Test
  void indexSensitivityIsFloorOfDeltaOverGranularityPlusOne() {
    Grid grid = new Grid(-2); // g = 1/4
    assertThat(grid.indexSensitivity(1.0)).isEqualTo(BigInteger.valueOf(5));
    assertThat(grid.indexSensitivity(0.3)).isEqualTo(BigInteger.TWO);
    // the bound is attained: 0.125 → 0 (tie to even) and 1.125 + ulp → 5
    assertThat(grid.index(Math.nextUp(1.125)).subtract(grid.index(0.125)))
        .isEqualTo(BigInteger.valueOf(5));
  }

  @Test
  void finerThanPicksThePowerOfTwoBelowTheScaledScale() {
    assertThat(Grid.finerThan(1.0, 40).granularity()).isEqualTo(0x1.0p-40);
    assertThat(Grid.finerThan(3.0, 40).granularity()).isEqualTo(0x1.0p-39);
    assertThat(Grid.finerThan(Double.MIN_VALUE, 60).exponent()).isEqualTo(-1074);
    assertThatThrownBy(() -> Grid.finerThan(0, 40))
        .hasMessage("scale must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> new Grid(0).index(Double.NaN))
        .hasMessage("x must be finite, but was NaN");
  }

  @Test
  void valuesNearTheTopOfTheRangeAreExactAndNothingIsInfinite() {
    Grid fine = new Grid(-40);
    SplittableRandom random = new SplittableRandom(308);
    for (int i = 0; i < 200; i++) {
      double x = (random.nextBoolean() ? 1 : -1) * Double.MAX_VALUE * random.nextDouble();
      // round-trip: every double this large is a lattice point of a fine grid
      assertThat(fine.value(fine.index(x))).isEqualTo(x);
      assertThat(fine.value(fine.index(x).add(BigInteger.valueOf(random.nextInt(1000)))))
          .isEqualTo(x);
    }
    BigInteger beyond = fine.index(Double.MAX_VALUE).shiftLeft(1);
    assertThat(fine.value(beyond)).isEqualTo(Double.MAX_VALUE);
    assertThat(fine.value(beyond.negate())).isEqualTo(-Double.MAX_VALUE);
  }
}
