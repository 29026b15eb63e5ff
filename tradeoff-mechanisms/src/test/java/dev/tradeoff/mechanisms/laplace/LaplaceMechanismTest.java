package dev.tradeoff.mechanisms.laplace;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.ALPHA;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.chiSquarePValue;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.kolmogorovCriticalValue;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.scaledKolmogorovSmirnov;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.mechanisms.IntegerNoiseMechanism;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class LaplaceMechanismTest {

  @Test
  void outputFollowsLaplaceWithScaleSensitivityOverEpsilon() {
    LaplaceMechanism m = LaplaceMechanism.of(0.5, 2);
    double b = 4.0;
    assertThat(m.scale()).isGreaterThanOrEqualTo(b).isLessThanOrEqualTo(b * (1 + 0x1.0p-39));
    RandomGenerator random = Randomness.seeded(40);
    double[] samples = new double[40_000];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = m.release(42.0, random) - 42.0;
    }
    double ks =
        scaledKolmogorovSmirnov(
            samples, x -> x < 0 ? 0.5 * Math.exp(x / b) : 1 - 0.5 * Math.exp(-x / b));
    assertThat(ks).isLessThan(kolmogorovCriticalValue());
  }

  @Test
  void statesPureDpAndAPureDpEvent() {
    LaplaceMechanism m = LaplaceMechanism.of(1.25, 3);
    assertThat(m.guarantee()).isEqualTo(new PureDp(1.25));
    assertThat(m.event()).isEqualTo(new GuaranteeEvent(new PureDp(1.25)));
  }

  @Test
  void outputsAreMultiplesOfTheGranularityForAnyInput() {
    LaplaceMechanism m = LaplaceMechanism.of(1, 1);
    double g = m.noise().grid().granularity();
    assertThat(g).isEqualTo(0x1.0p-40);
    RandomGenerator random = Randomness.seeded(41);
    for (double x : new double[] {0.1, Math.PI, -1e-300, 1e15 + 0.3}) {
      for (int i = 0; i < 1000; i++) {
        double y = m.release(x, random);
        assertThat(y / g).isEqualTo(Math.rint(y / g));
      }
    }
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> LaplaceMechanism.of(0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("epsilon must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> LaplaceMechanism.of(1, -2))
        .hasMessage("sensitivity must be > 0 and finite, but was -2.0");
    assertThatThrownBy(() -> LaplaceMechanism.of(Double.NaN, 1))
        .hasMessage("epsilon must be > 0 and finite, but was NaN");
    LaplaceMechanism m = LaplaceMechanism.of(1, 1);
    assertThatThrownBy(() -> m.release(Double.POSITIVE_INFINITY, Randomness.seeded(1)))
        .hasMessage("value must be finite, but was Infinity");
    assertThatThrownBy(() -> m.release(1.0, null)).hasMessage("random must not be null");
  }

  @Test
  void discreteLaplaceMechanismFitsItsPmfAndReportsItsEvent() {
    DiscreteLaplaceMechanism m = DiscreteLaplaceMechanism.of(0.8, 1);
    assertThat(m.event()).isInstanceOf(DiscreteLaplaceEvent.class);
    assertThat(((DiscreteLaplaceEvent) m.event()).scale()).isLessThanOrEqualTo(1 / 0.8);
    assertThat(DiscreteLaplaceMechanism.of(0.8, 3).event())
        .isEqualTo(new GuaranteeEvent(new PureDp(0.8)));
    RandomGenerator random = Randomness.seeded(42);
    long[] samples = new long[100_000];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = m.release(10L, random) - 10;
    }
    double rate = 0.8;
    assertThat(chiSquarePValue(samples, y -> Math.tanh(rate / 2) * Math.exp(-rate * Math.abs(y)), 0))
        .isGreaterThan(ALPHA);
    assertThatThrownBy(() -> DiscreteLaplaceMechanism.of(1, 0))
        .hasMessage("sensitivity must be >= 1, but was 0");
  }

  @Test
  void discreteLaplaceWithSensitivityThreeUsesScaleThreeOverEpsilon() {
    DiscreteLaplaceMechanism m = DiscreteLaplaceMechanism.of(1.5, 3);
    RandomGenerator random = Randomness.seeded(43);
    long[] samples = new long[100_000];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = m.release(0L, random);
    }
    double rate = 0.5;
    assertThat(chiSquarePValue(samples, y -> Math.tanh(rate / 2) * Math.exp(-rate * Math.abs(y)), 0))
        .isGreaterThan(ALPHA);
  }

  @Test
  void everyReleaseIsFiniteAndAnInfiniteScaleIsRefused() {
    LaplaceMechanism m = LaplaceMechanism.of(1, 1);
    RandomGenerator random = Randomness.seeded(308);
    for (double x : new double[] {1e308, -1e308, Double.MAX_VALUE, -Double.MAX_VALUE}) {
      double released = m.release(x, random);
      assertThat(Double.isFinite(released)).as("%s -> %s", x, released).isTrue();
      // the noise (scale about 1) is far below an ulp of these values
      assertThat(released).isEqualTo(x);
    }
    assertThatThrownBy(() -> LaplaceMechanism.of(1e-300, 1))
        .hasMessageStartingWith("epsilon must be large enough that the noise scale");
  }

  @Test
  void integerReleasesSaturateAtTheLongRangeInsteadOfFailing() {
    RandomGenerator random = Randomness.seeded(300);
    // ε = 1e-300: noise of scale 1e300, almost every sum beyond the long range
    DiscreteLaplaceMechanism wide = DiscreteLaplaceMechanism.of(1e-300, 1);
    boolean sawMax = false;
    boolean sawMin = false;
    for (int i = 0; i < 200; i++) {
      long released = wide.release(0L, random);
      sawMax |= released == Long.MAX_VALUE;
      sawMin |= released == Long.MIN_VALUE;
    }
    assertThat(sawMax).isTrue();
    assertThat(sawMin).isTrue();
    // ordinary noise at the edge of the range: clamped on one side, exact on the other
    DiscreteLaplaceMechanism narrow = DiscreteLaplaceMechanism.of(1, 1);
    for (int i = 0; i < 200; i++) {
      long released = narrow.release(Long.MAX_VALUE, random);
      assertThat(released).isLessThanOrEqualTo(Long.MAX_VALUE).isGreaterThan(Long.MAX_VALUE - 100);
      assertThat(narrow.release(Long.MIN_VALUE, random)).isLessThan(Long.MIN_VALUE + 100);
    }
    assertThat(IntegerNoiseMechanism.saturatedSum(Long.MAX_VALUE, java.math.BigInteger.ONE))
        .isEqualTo(Long.MAX_VALUE);
    assertThat(IntegerNoiseMechanism.saturatedSum(Long.MIN_VALUE, java.math.BigInteger.ONE.negate()))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(IntegerNoiseMechanism.saturatedSum(5, java.math.BigInteger.valueOf(-7))).isEqualTo(-2);
    // the long path against the BigInteger definition, on seeded values near and away from
    // the edges of the range
    java.math.BigInteger max = java.math.BigInteger.valueOf(Long.MAX_VALUE);
    java.math.BigInteger min = java.math.BigInteger.valueOf(Long.MIN_VALUE);
    long[] edges =
        {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
    for (int i = 0; i < 20_000; i++) {
      long value = i % 3 == 0 ? edges[random.nextInt(edges.length)] : random.nextLong();
      long y = i % 5 == 0 ? edges[random.nextInt(edges.length)]
          : random.nextLong() >> random.nextInt(64);
      java.math.BigInteger exact = java.math.BigInteger.valueOf(value)
          .add(java.math.BigInteger.valueOf(y)).max(min).min(max);
      assertThat(IntegerNoiseMechanism.saturatedSum(value, java.math.BigInteger.valueOf(y)))
          .as("%d + %d", value, y).isEqualTo(exact.longValueExact());
    }
    // the discrete Gaussian likewise
    var gaussian = dev.tradeoff.mechanisms.gaussian.DiscreteGaussianMechanism.of(1e300, 1);
    for (int i = 0; i < 20; i++) {
      long released = gaussian.release(0L, random);
      assertThat(released == Long.MAX_VALUE || released == Long.MIN_VALUE).isTrue();
    }
  }
}
