package dev.tradeoff.accounting.gdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GdpAccountantTest {

  private static final Neighbouring REL = Neighbouring.ADD_OR_REMOVE_ONE;
  private final GdpAccountant gdp = new GdpAccountant();

  @Test
  void hundredGaussiansWithSigmaOneAreMuTenAndGiveTheReferenceEpsilon() {
    var profile = gdp.account(new SelfComposedEvent(new GaussianEvent(1), 100), REL);
    assertThat(gdp.gdp(new SelfComposedEvent(new GaussianEvent(1), 100), REL).mu())
        .isCloseTo(10, within(1e-14));
    assertThat(profile.epsilon(1e-5)).isCloseTo(91.81728962466374, withinPercentage(1e-10));
    assertThat(gdp.method()).isEqualTo(AccountingMethod.GDP);
  }

  @Test
  void kGaussiansEqualOneGaussianWithSigmaOverRootK() {
    SplittableRandom rng = new SplittableRandom(51);
    for (int i = 0; i < 200; i++) {
      double sigma = 0.2 + 20 * rng.nextDouble();
      int k = 1 + rng.nextInt(10_000);
      double many = gdp.gdp(new SelfComposedEvent(new GaussianEvent(sigma), k), REL).mu();
      double one = gdp.gdp(new GaussianEvent(sigma / Math.sqrt(k)), REL).mu();
      assertThat(many).isCloseTo(one, withinPercentage(1e-12));
    }
  }

  @Test
  void heterogeneousCompositionIsRootSumOfSquares() {
    var event =
        ComposedEvent.of(
            new GaussianEvent(0.5),
            new GuaranteeEvent(new GaussianDp(1)),
            new SelfComposedEvent(new GaussianEvent(2), 4));
    // μ² = 4 + 1 + 4 · 1/4 = 6
    assertThat(gdp.gdp(event, REL).mu()).isCloseTo(Math.sqrt(6), within(1e-15));
  }

  @Test
  void epsilonIsMonotoneInCount() {
    double previous = 0;
    for (int k = 1; k <= 64; k *= 2) {
      double e = gdp.account(new SelfComposedEvent(new GaussianEvent(3), k), REL).epsilon(1e-6);
      assertThat(e).isGreaterThan(previous);
      previous = e;
    }
  }

  @Test
  void refusesNonGaussianEvents() {
    assertThat(gdp.whyUnsupported(new LaplaceEvent(1), REL)).isPresent();
    assertThat(gdp.whyUnsupported(new DiscreteGaussianEvent(1), REL)).isPresent();
    assertThat(gdp.whyUnsupported(new PoissonSampledEvent(0.1, new GaussianEvent(1)), REL))
        .isPresent();
    assertThat(gdp.whyUnsupported(new GuaranteeEvent(new ZeroConcentratedDp(1)), REL))
        .get()
        .asString()
        .contains("GaussianDp");
    assertThatThrownBy(
            () -> gdp.account(ComposedEvent.of(new GaussianEvent(1), new LaplaceEvent(1)), REL))
        .isInstanceOf(UnsupportedEventException.class)
        .hasMessageContaining("method gdp");
  }
}
