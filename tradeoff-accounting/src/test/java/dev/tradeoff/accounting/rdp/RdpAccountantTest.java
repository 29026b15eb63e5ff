package dev.tradeoff.accounting.rdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.conversion.RdpConversion;
import dev.tradeoff.accounting.conversion.RdpProfile;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RdpAccountantTest {

  private static final Neighbouring ADD_REMOVE = Neighbouring.ADD_OR_REMOVE_ONE;
  private final RdpAccountant rdp = new RdpAccountant();

  @Test
  void reportsItsMethod() {
    assertThat(rdp.method()).isEqualTo(AccountingMethod.RDP);
  }

  @Test
  void subsampledGaussianDpSgdReferenceValue() {
    // q = 0.01, σ = 1, 1000 steps, δ = 1e-5. Reference by mpmath quadrature of A_α on the default
    // grid orders ≤ 64 with the improved conversion: ε = 2.1014306298897586 at α = 7.75 (classic
    // conversion: 2.5383475454589217 at α = 8). Sanity: the same setting is ~2.1-2.5 in the
    // DP-SGD literature (Abadi et al. 2016 moments accountant, MTZ19).
    DpEvent event =
        new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1)), 1000);
    RdpProfile profile = rdp.account(event, ADD_REMOVE);
    RdpConversion.EpsilonAtOrder best = profile.bestOrder(1e-5).orElseThrow();
    assertThat(best.epsilon()).isCloseTo(2.1014306298897586, within(1e-9));
    assertThat(best.order()).isEqualTo(7.75);
    assertThat(profile.epsilon(1e-5)).isEqualTo(best.epsilon());
    RdpConversion.EpsilonAtOrder classic = RdpConversion.bestClassic(profile.rdp(), 1e-5);
    assertThat(classic.epsilon()).isCloseTo(2.5383475454589217, within(1e-9));
    assertThat(classic.order()).isEqualTo(8);
  }

  @Test
  void kGaussiansEqualOneGaussianWithSigmaOverRootK() {
    SplittableRandom rng = new SplittableRandom(41);
    for (int i = 0; i < 50; i++) {
      double sigma = 0.5 + 20 * rng.nextDouble();
      int k = 1 + rng.nextInt(1000);
      RenyiDp many = rdp.rdp(new SelfComposedEvent(new GaussianEvent(sigma), k), ADD_REMOVE);
      RenyiDp one = rdp.rdp(new GaussianEvent(sigma / Math.sqrt(k)), ADD_REMOVE);
      for (int j = 0; j < many.size(); j++) {
        assertThat(many.epsilon(j)).isCloseTo(one.epsilon(j), withinPercentage(1e-12));
      }
    }
  }

  @Test
  void rdpEpsilonUpperBoundsTheExactGaussianEpsilon() {
    SplittableRandom rng = new SplittableRandom(42);
    for (int i = 0; i < 200; i++) {
      double sigma = 0.3 + 30 * rng.nextDouble();
      int k = 1 + rng.nextInt(500);
      double delta = Math.pow(10, -2 - 10 * rng.nextDouble());
      double viaRdp =
          rdp.account(new SelfComposedEvent(new GaussianEvent(sigma), k), ADD_REMOVE)
              .epsilon(delta);
      double exact = GaussianDpConversion.epsilon(Math.sqrt(k) / sigma, delta);
      assertThat(viaRdp).isGreaterThanOrEqualTo(exact);
    }
  }

  @Test
  void profileDeltaUpperBoundsTheExactGaussianDelta() {
    SplittableRandom rng = new SplittableRandom(43);
    for (int i = 0; i < 200; i++) {
      double sigma = 0.5 + 10 * rng.nextDouble();
      double eps = 5 * rng.nextDouble();
      double viaRdp = rdp.account(new GaussianEvent(sigma), ADD_REMOVE).delta(eps);
      assertThat(viaRdp).isGreaterThanOrEqualTo(GaussianDpConversion.delta(1 / sigma, eps));
    }
  }

  @Test
  void epsilonIsMonotoneInDeltaAndCount() {
    SplittableRandom rng = new SplittableRandom(44);
    for (int i = 0; i < 50; i++) {
      DpEvent base = randomEvent(rng);
      int k = 1 + rng.nextInt(50);
      double delta = Math.pow(10, -2 - 10 * rng.nextDouble());
      double e = rdp.account(new SelfComposedEvent(base, k), ADD_REMOVE).epsilon(delta);
      assertThat(rdp.account(new SelfComposedEvent(base, k + 1), ADD_REMOVE).epsilon(delta))
          .isGreaterThanOrEqualTo(e);
      assertThat(rdp.account(new SelfComposedEvent(base, k), ADD_REMOVE).epsilon(delta / 10))
          .isGreaterThanOrEqualTo(e);
      double eps = 10 * rng.nextDouble();
      RdpProfile p = rdp.account(new SelfComposedEvent(base, k), ADD_REMOVE);
      assertThat(p.delta(eps + 0.1)).isLessThanOrEqualTo(p.delta(eps));
    }
  }

  @Test
  void composedEventIsTheSumOfItsParts() {
    SplittableRandom rng = new SplittableRandom(45);
    List<DpEvent> events = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      events.add(randomEvent(rng));
    }
    RenyiDp total = rdp.rdp(new ComposedEvent(events), ADD_REMOVE);
    RenyiDp summed = rdp.rdp(events.get(0), ADD_REMOVE);
    for (DpEvent e : events.subList(1, events.size())) {
      summed = summed.compose(rdp.rdp(e, ADD_REMOVE));
    }
    for (int j = 0; j < total.size(); j++) {
      assertThat(total.epsilon(j)).isCloseTo(summed.epsilon(j), withinPercentage(1e-12));
    }
  }

  @Test
  void guaranteesAreReadWithTheirConversions() {
    double[] orders = {1.5, 2, 10};
    RdpAccountant small = new RdpAccountant(orders);
    assertThat(small.rdp(new GuaranteeEvent(new ZeroConcentratedDp(0.1)), ADD_REMOVE).epsilons())
        .containsExactly(new double[] {0.15, 0.2, 1.0}, within(1e-15));
    assertThat(small.rdp(new GuaranteeEvent(new GaussianDp(1)), ADD_REMOVE).epsilons())
        .containsExactly(0.75, 1.0, 5.0);
    assertThat(small.rdp(new GuaranteeEvent(new PureDp(1)), ADD_REMOVE).epsilon(1))
        .isEqualTo(MechanismRdp.randomizedResponse(1, 2, 2));
    assertThat(small.rdp(new GuaranteeEvent(new ApproxDp(1, 0)), ADD_REMOVE).epsilon(1))
        .isEqualTo(MechanismRdp.randomizedResponse(1, 2, 2));
    RenyiDp given = RenyiDp.of(new double[] {2, 8}, new double[] {0.3, 0.9});
    assertThat(small.rdp(new GuaranteeEvent(given), ADD_REMOVE).epsilons())
        .containsExactly(0.3, 0.3, Double.POSITIVE_INFINITY);
  }

  @Test
  void mechanismEventsUseTheirDivergences() {
    RdpAccountant one = new RdpAccountant(new double[] {3});
    assertThat(one.rdp(new LaplaceEvent(2), ADD_REMOVE).epsilon(0))
        .isEqualTo(MechanismRdp.laplace(2, 3));
    assertThat(one.rdp(new RandomizedResponseEvent(1, 4), ADD_REMOVE).epsilon(0))
        .isEqualTo(MechanismRdp.randomizedResponse(1, 4, 3));
    assertThat(one.rdp(new DiscreteLaplaceEvent(2), ADD_REMOVE).epsilon(0))
        .isEqualTo(MechanismRdp.discreteLaplace(2, 3));
    assertThat(one.rdp(new DiscreteGaussianEvent(2), ADD_REMOVE).epsilon(0)).isEqualTo(3.0 / 8);
    assertThat(
            one.rdp(new PoissonSampledEvent(0.1, new GaussianEvent(2)), ADD_REMOVE).epsilon(0))
        .isEqualTo(SampledGaussianRdp.epsilon(0.1, 2, 3));
  }

  @Test
  void fullPoissonSamplingIsThePlainGaussian() {
    RenyiDp sampled = rdp.rdp(new PoissonSampledEvent(1, new GaussianEvent(1.7)), ADD_REMOVE);
    RenyiDp plain = rdp.rdp(new GaussianEvent(1.7), ADD_REMOVE);
    assertThat(sampled).isEqualTo(plain);
  }

  @Test
  void refusesWhatItCannotAnalyse() {
    DpEvent approx = new GuaranteeEvent(new ApproxDp(1, 1e-6));
    DpEvent sampledLaplace = new PoissonSampledEvent(0.1, new LaplaceEvent(1));
    DpEvent sampledGaussian = new PoissonSampledEvent(0.1, new GaussianEvent(1));
    DpEvent withoutReplacement =
        new SampledWithoutReplacementEvent(100, 10, new GaussianEvent(1));
    assertThat(rdp.whyUnsupported(approx, ADD_REMOVE)).get().asString().contains("delta > 0");
    assertThat(rdp.whyUnsupported(sampledLaplace, ADD_REMOVE)).isPresent();
    assertThat(rdp.whyUnsupported(sampledGaussian, Neighbouring.REPLACE_ONE))
        .get()
        .asString()
        .contains("add/remove-one");
    assertThat(rdp.supports(sampledGaussian, ADD_REMOVE)).isTrue();
    assertThat(rdp.whyUnsupported(withoutReplacement, Neighbouring.REPLACE_ONE)).isPresent();
    assertThat(rdp.whyUnsupported(ComposedEvent.of(new GaussianEvent(1), approx), ADD_REMOVE))
        .isPresent();
    assertThatThrownBy(() -> rdp.account(new SelfComposedEvent(approx, 3), ADD_REMOVE))
        .isInstanceOf(UnsupportedEventException.class)
        .hasMessageContaining("method rdp cannot account for");
  }

  @Test
  void rejectsBadConstruction() {
    assertThatThrownBy(() -> new RdpAccountant(new double[] {2, 1}))
        .hasMessageContaining("orders");
    assertThatThrownBy(() -> new RdpAccountant(new double[] {0.5}))
        .hasMessageContaining("orders[0] must be > 1");
    assertThatThrownBy(() -> new RdpAccountant(null)).hasMessageContaining("orders");
    assertThatThrownBy(() -> rdp.whyUnsupported(null, ADD_REMOVE))
        .hasMessageContaining("event");
  }

  private static DpEvent randomEvent(SplittableRandom rng) {
    return switch (rng.nextInt(5)) {
      case 0 -> new GaussianEvent(0.5 + 10 * rng.nextDouble());
      case 1 -> new LaplaceEvent(0.5 + 10 * rng.nextDouble());
      case 2 -> new PoissonSampledEvent(rng.nextDouble(), new GaussianEvent(0.6 + 3 * rng.nextDouble()));
      case 3 -> new RandomizedResponseEvent(3 * rng.nextDouble(), 2 + rng.nextInt(10));
      default -> new GuaranteeEvent(new ZeroConcentratedDp(rng.nextDouble()));
    };
  }
}
