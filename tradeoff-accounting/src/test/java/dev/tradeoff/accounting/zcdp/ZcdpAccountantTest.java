package dev.tradeoff.accounting.zcdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZcdpAccountantTest {

  private static final Neighbouring REL = Neighbouring.REPLACE_ONE;
  private final ZcdpAccountant zcdp = new ZcdpAccountant();

  @Test
  void rhoAddsOverEvents() {
    var event =
        ComposedEvent.of(
            new SelfComposedEvent(new GaussianEvent(2), 3),
            new DiscreteGaussianEvent(1),
            new LaplaceEvent(0.5),
            new RandomizedResponseEvent(1, 3),
            new GuaranteeEvent(new PureDp(2)),
            new GuaranteeEvent(new GaussianDp(1)));
    // 3/8 + 1/2 + 2 + 1/2 + 2 + 1/2
    assertThat(zcdp.zcdp(event, REL).rho()).isCloseTo(5.875, within(1e-14));
    assertThat(zcdp.method()).isEqualTo(AccountingMethod.ZCDP);
  }

  @Test
  void gaussiansAgreeWithTheRdpAccountantAndUpperBoundTheExactEpsilon() {
    SplittableRandom rng = new SplittableRandom(61);
    RdpAccountant rdp = new RdpAccountant();
    for (int i = 0; i < 50; i++) {
      double sigma = 0.5 + 10 * rng.nextDouble();
      int k = 1 + rng.nextInt(200);
      double delta = Math.pow(10, -3 - 8 * rng.nextDouble());
      var event = new SelfComposedEvent(new GaussianEvent(sigma), k);
      double viaZcdp = zcdp.account(event, REL).epsilon(delta);
      assertThat(viaZcdp).isCloseTo(rdp.account(event, REL).epsilon(delta), within(1e-12));
      assertThat(viaZcdp)
          .isGreaterThanOrEqualTo(GaussianDpConversion.epsilon(Math.sqrt(k) / sigma, delta));
    }
  }

  @Test
  void refusesSamplingAndApproximateGuarantees() {
    assertThat(zcdp.whyUnsupported(new PoissonSampledEvent(0.1, new GaussianEvent(1)), REL))
        .get()
        .asString()
        .contains("no amplification");
    assertThat(zcdp.whyUnsupported(new GuaranteeEvent(new ApproxDp(1, 1e-5)), REL)).isPresent();
    assertThat(
            zcdp.whyUnsupported(
                new GuaranteeEvent(RenyiDp.ofOrder(2, 1)), Neighbouring.ADD_OR_REMOVE_ONE))
        .isPresent();
    assertThat(zcdp.supports(new GuaranteeEvent(new ApproxDp(1, 0)), REL)).isTrue();
    assertThatThrownBy(
            () -> zcdp.account(new GuaranteeEvent(new ApproxDp(1, 1e-5)), REL))
        .isInstanceOf(UnsupportedEventException.class);
  }
}
