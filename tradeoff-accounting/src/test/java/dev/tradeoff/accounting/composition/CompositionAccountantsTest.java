package dev.tradeoff.accounting.composition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
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
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import java.math.BigDecimal;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CompositionAccountantsTest {

  private static final Neighbouring ADD_REMOVE = Neighbouring.ADD_OR_REMOVE_ONE;

  private final List<Accountant> accountants =
      List.of(new BasicAccountant(), KairouzAccountant.optimalSlack(), new OptimalAccountant());

  @Test
  void accountantsNameTheirMethods() {
    assertThat(accountants)
        .extracting(Accountant::method)
        .containsExactly(AccountingMethod.BASIC, AccountingMethod.KAIROUZ, AccountingMethod.OPTIMAL);
    assertThat(KairouzAccountant.withSlack(1e-4).method()).isEqualTo(AccountingMethod.KAIROUZ);
  }

  @Test
  void basicAccountantReadsEveryLeafWithASingleEpsilonDelta() {
    DpEvent event =
        ComposedEvent.of(
            new SelfComposedEvent(new LaplaceEvent(2), 10),
            RandomizedResponseEvent.binary(0.5),
            new RandomizedResponseEvent(0.25, 7),
            new DiscreteLaplaceEvent(4),
            new GuaranteeEvent(new PureDp(0.1)),
            new SelfComposedEvent(new GuaranteeEvent(new ApproxDp(0.3, 1e-6)), 3));

    PrivacyProfile profile = new BasicAccountant().account(event, Neighbouring.REPLACE_ONE);

    double epsilon = 5 + 0.5 + 0.25 + 0.25 + 0.1 + 0.9;
    assertThat(profile.epsilon(3.0000001e-6)).isCloseTo(epsilon, within(1e-13)).isGreaterThanOrEqualTo(epsilon);
    assertThat(profile.epsilon(2.9e-6)).isInfinite();
    assertThat(profile.delta(epsilon * (1 + 1e-12))).isCloseTo(3e-6, within(1e-19));
    assertThat(profile.delta(epsilon * 0.99)).isEqualTo(1.0);
  }

  @Test
  void refusesEventsWithoutASingleEpsilonDeltaAndSaysWhichMethodToUse() {
    List<DpEvent> refused =
        List.of(
            new GaussianEvent(1),
            new DiscreteGaussianEvent(2),
            new PoissonSampledEvent(0.01, new LaplaceEvent(1)),
            new SampledWithoutReplacementEvent(100, 10, new LaplaceEvent(1)),
            new GuaranteeEvent(new GaussianDp(1)),
            new GuaranteeEvent(new ZeroConcentratedDp(0.5)),
            ComposedEvent.of(new LaplaceEvent(1), new SelfComposedEvent(new GaussianEvent(1), 3)));
    for (Accountant accountant : accountants) {
      for (DpEvent event : refused) {
        assertThat(accountant.supports(event, ADD_REMOVE)).isFalse();
        assertThat(accountant.whyUnsupported(event, ADD_REMOVE)).get().asString().containsAnyOf("rdp", "pld");
        assertThatThrownBy(() -> accountant.account(event, ADD_REMOVE))
            .isInstanceOf(UnsupportedEventException.class)
            .hasMessageStartingWith("method " + accountant.method().cliName() + " cannot account for");
      }
    }
  }

  @Test
  void optimalAccountantRefusesHeterogeneousSequencesAndAcceptsEqualGuarantees() {
    OptimalAccountant optimal = new OptimalAccountant();
    DpEvent heterogeneous = ComposedEvent.of(new LaplaceEvent(1), new LaplaceEvent(2));
    DpEvent equalGuarantees =
        ComposedEvent.of(new LaplaceEvent(1), RandomizedResponseEvent.binary(1.0),
            new GuaranteeEvent(new PureDp(1.0)));

    assertThat(optimal.whyUnsupported(heterogeneous, ADD_REMOVE)).get().asString().contains("#P-complete");
    assertThat(new KairouzAccountant[] {KairouzAccountant.optimalSlack()}[0].supports(heterogeneous, ADD_REMOVE)).isTrue();
    assertThat(optimal.supports(equalGuarantees, ADD_REMOVE)).isTrue();
    assertThat(optimal.account(equalGuarantees, ADD_REMOVE).delta(1.0))
        .isCloseTo(OptimalComposition.of(new ApproxDp(1, 0), 3).delta(1.0), within(1e-16));
  }

  @Test
  void optimalAccountantRefusesCountsBeyondItsLimitAndOverflowingCounts() {
    DpEvent huge = new SelfComposedEvent(new SelfComposedEvent(new LaplaceEvent(1), 10_000), 1_000);
    DpEvent overflowing =
        new SelfComposedEvent(
            new SelfComposedEvent(new SelfComposedEvent(new LaplaceEvent(1), Integer.MAX_VALUE),
                Integer.MAX_VALUE), Integer.MAX_VALUE);

    assertThat(new OptimalAccountant().whyUnsupported(huge, ADD_REMOVE)).get().asString()
        .contains("count must be <= 1000000");
    assertThat(new BasicAccountant().whyUnsupported(overflowing, ADD_REMOVE)).get().asString()
        .contains("overflows");
  }

  @Test
  void kairouzAccountantWithSlackReproducesTheComposition() {
    // k = 50: the third term (9.901) is the minimum, so the slack is spent [DaRRM24, Table 2].
    DpEvent event = new SelfComposedEvent(new GuaranteeEvent(new ApproxDp(0.2676, 0.0003)), 50);
    ApproxDp expected = KairouzComposition.compose(new ApproxDp(0.2676, 0.0003), 50, 1e-4);

    PrivacyProfile profile = KairouzAccountant.withSlack(1e-4).account(event, ADD_REMOVE);

    assertThat(profile.epsilon(expected.delta())).isEqualTo(expected.epsilon());
    assertThat(profile.delta(expected.epsilon())).isEqualTo(expected.delta());
  }

  @Test
  void kairouzAccountantUsesTheHeterogeneousTheorem() {
    DpEvent event = ComposedEvent.of(new LaplaceEvent(1), new LaplaceEvent(4), new LaplaceEvent(2));
    List<ApproxDp> sequence = List.of(new ApproxDp(1, 0), new ApproxDp(0.25, 0), new ApproxDp(0.5, 0));

    PrivacyProfile profile = KairouzAccountant.optimalSlack().account(event, ADD_REMOVE);

    assertThat(profile.delta(1.2)).isEqualTo(KairouzComposition.profile(sequence).delta(1.2));
  }

  @Test
  void optimalIsAtMostKairouzWhichIsAtMostBasic() {
    SplittableRandom random = new SplittableRandom(10);
    for (int trial = 0; trial < 200; trial++) {
      double epsilon0 = 0.005 + random.nextDouble();
      double delta0 = random.nextBoolean() ? 0 : Math.pow(10, -5 - 4 * random.nextDouble());
      int k = 1 + random.nextInt(500);
      DpEvent event = new SelfComposedEvent(new GuaranteeEvent(new ApproxDp(epsilon0, delta0)), k);
      PrivacyProfile basic = new BasicAccountant().account(event, ADD_REMOVE);
      PrivacyProfile kairouz = KairouzAccountant.optimalSlack().account(event, ADD_REMOVE);
      PrivacyProfile optimal = new OptimalAccountant().account(event, ADD_REMOVE);
      double deltaTotal = k * delta0 + Math.pow(10, -2 - 8 * random.nextDouble());
      double epsilon = 1.2 * k * epsilon0 * random.nextDouble();

      assertThat(optimal.epsilon(deltaTotal)).isLessThanOrEqualTo(kairouz.epsilon(deltaTotal));
      assertThat(kairouz.epsilon(deltaTotal)).isLessThanOrEqualTo(basic.epsilon(deltaTotal));
      assertThat(optimal.delta(epsilon)).isLessThanOrEqualTo(kairouz.delta(epsilon));
      assertThat(kairouz.delta(epsilon)).isLessThanOrEqualTo(basic.delta(epsilon));
    }
  }

  @Test
  void optimalBracketsOnlyTightGuaranteesAndClaimsNoLowerBoundForMechanismsItOverstates() {
    OptimalAccountant optimal = new OptimalAccountant();
    double epsilon0 = 0.5; // 1/2 exactly, so Laplace of scale 2 has the same ε
    // stated guarantees and binary randomized response: the canonical pair itself, attained
    for (DpEvent leaf : List.of(new GuaranteeEvent(new ApproxDp(epsilon0, 1e-8)),
        new GuaranteeEvent(new PureDp(epsilon0)), new RandomizedResponseEvent(epsilon0, 2))) {
      var bounds = optimal.account(new SelfComposedEvent(leaf, 40), ADD_REMOVE).epsilonBounds(1e-6);
      assertThat(bounds.lower()).as("%s", leaf).isPositive()
          .isGreaterThan(bounds.upper() * (1 - 1e-10));
    }
    // Laplace (more private than randomized response at its ε), 3-ary randomized response, steps
    // amplified by sampling and shuffled epochs: the optimal composition only bounds them above
    List<DpEvent> overstated = List.of(
        new SelfComposedEvent(new LaplaceEvent(2), 40),
        new SelfComposedEvent(new RandomizedResponseEvent(epsilon0, 3), 40),
        new SelfComposedEvent(new SampledWithoutReplacementEvent(100, 10,
            new GuaranteeEvent(new PureDp(epsilon0))), 40),
        new dev.tradeoff.accounting.event.ShuffledEpochsEvent(
            new GuaranteeEvent(new PureDp(epsilon0)), 40, 5),
        ComposedEvent.of(new SelfComposedEvent(new GuaranteeEvent(new PureDp(epsilon0)), 20),
            new SelfComposedEvent(new LaplaceEvent(2), 20)));
    for (DpEvent event : overstated) {
      var bounds = optimal.account(event, Neighbouring.REPLACE_ONE).epsilonBounds(1e-6);
      assertThat(bounds.lower()).as("%s", event).isZero();
      assertThat(bounds.upper()).as("%s", event).isPositive();
    }
  }

  @Test
  void epsilonGrowsWithTheCountAndShrinksWithTheTargetDelta() {
    SplittableRandom random = new SplittableRandom(12);
    for (Accountant accountant : accountants) {
      for (int trial = 0; trial < 50; trial++) {
        double scale = 0.5 + 10 * random.nextDouble();
        int k = 1 + random.nextInt(300);
        double delta = Math.pow(10, -2 - 8 * random.nextDouble());
        double epsilon =
            accountant.account(new SelfComposedEvent(new LaplaceEvent(scale), k), ADD_REMOVE).epsilon(delta);

        assertThat(accountant.account(new SelfComposedEvent(new LaplaceEvent(scale), k + 3), ADD_REMOVE)
                .epsilon(delta))
            .isGreaterThanOrEqualTo(epsilon);
        assertThat(accountant.account(new SelfComposedEvent(new LaplaceEvent(scale), k), ADD_REMOVE)
                .epsilon(delta / 10))
            .isGreaterThanOrEqualTo(epsilon);
        assertThat(accountant.account(new SelfComposedEvent(new LaplaceEvent(scale * 0.9), k), ADD_REMOVE)
                .epsilon(delta))
            .isGreaterThanOrEqualTo(epsilon);
      }
    }
  }

  @Test
  void laplaceEpsilonIsTheInverseScaleRoundedUp() {
    SplittableRandom random = new SplittableRandom(13);
    for (int trial = 0; trial < 2000; trial++) {
      double scale = Math.exp(20 * (random.nextDouble() - 0.5));
      double epsilon = EventGuarantees.inverseRoundedUp(scale);

      assertThat(new BigDecimal(epsilon).multiply(new BigDecimal(scale))).isGreaterThanOrEqualTo(BigDecimal.ONE);
      assertThat(new BigDecimal(Math.nextDown(epsilon)).multiply(new BigDecimal(scale)))
          .isLessThan(BigDecimal.ONE);
    }
    assertThat(EventGuarantees.inverseRoundedUp(2)).isEqualTo(0.5);
  }

  @Test
  void rejectsNullArgumentsAndBadSlack() {
    for (Accountant accountant : accountants) {
      assertThatThrownBy(() -> accountant.whyUnsupported(null, ADD_REMOVE))
          .hasMessage("event must not be null");
      assertThatThrownBy(() -> accountant.account(new LaplaceEvent(1), null))
          .hasMessage("neighbouring must not be null");
    }
    assertThatThrownBy(() -> KairouzAccountant.withSlack(0))
        .hasMessage("deltaSlack must be in (0, 1), but was 0.0");
    assertThatThrownBy(() -> KairouzAccountant.withSlack(Double.POSITIVE_INFINITY))
        .hasMessage("deltaSlack must be in (0, 1), but was Infinity");
  }
}
