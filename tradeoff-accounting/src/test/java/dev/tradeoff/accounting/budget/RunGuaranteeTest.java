package dev.tradeoff.accounting.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.accounting.numerics.StandardNormal;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunGuaranteeTest {

  @Test
  void pureReleasesNeverExceedTheirSum() {
    RunGuarantee g = RunGuarantee.of(List.of(new Release("a", new GuaranteeEvent(new PureDp(0.5))),
        new Release("b", new GuaranteeEvent(new PureDp(0.25)))), 1e-6);
    assertThat(g.total().epsilon()).isLessThanOrEqualTo(0.75 + 1e-12);
    assertThat(g.total().delta()).isEqualTo(1e-6);
  }

  @Test
  void gaussianCompositionMatchesTheGdpClosedForm() {
    // 100 Gaussians with sigma = 10: mu = 1 GDP; delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).
    RunGuarantee g = RunGuarantee.of(List.of(new Release("g",
        new SelfComposedEvent(new GaussianEvent(10), 100))), 1e-5);
    double eps = g.total().epsilon();
    double delta = StandardNormal.cdf(-eps + 0.5) - Math.exp(eps) * StandardNormal.cdf(-eps - 0.5);
    assertThat(delta).isLessThanOrEqualTo(1e-5 * (1 + 1e-6));
    assertThat(delta).isGreaterThan(0.9e-5); // tight, not a loose bound
  }

  @Test
  void selfComposedApproxDpIsNoWorseThanBasicComposition() {
    ApproxDp perQuery = new ApproxDp(0.3, 3e-5);
    RunGuarantee g = RunGuarantee.of(List.of(new Release("q",
        new SelfComposedEvent(new GuaranteeEvent(perQuery), 100))), 0.01);
    assertThat(g.total().epsilon()).isLessThanOrEqualTo(30.0 + 1e-9).isGreaterThan(3.0);
  }

  @Test
  void mixedReleasesFallBackToSplittingDeltaAndAddingEpsilons() {
    Release zcdp = new Release("h", new GuaranteeEvent(new ZeroConcentratedDp(0.05)));
    Release approx = new Release("m", new GuaranteeEvent(new ApproxDp(0.2, 1e-7)));
    RunGuarantee joint = RunGuarantee.of(List.of(zcdp, approx), 1e-5);
    RunGuarantee alone1 = RunGuarantee.of(List.of(zcdp), Math.nextDown(0.5e-5));
    RunGuarantee alone2 = RunGuarantee.of(List.of(approx), Math.nextDown(0.5e-5));
    assertThat(joint.method()).isEqualTo(AccountingMethod.BASIC);
    assertThat(joint.total().epsilon())
        .isGreaterThanOrEqualTo(alone1.total().epsilon() + alone2.total().epsilon());
    assertThat(joint.total().epsilon())
        .isLessThan((alone1.total().epsilon() + alone2.total().epsilon()) * (1 + 1e-12));
  }

  @Test
  void unreachableDeltaIsReportedNotRoundedToSomeEpsilon() {
    assertThatThrownBy(() -> RunGuarantee.of(List.of(new Release("q",
        new SelfComposedEvent(new GuaranteeEvent(new ApproxDp(0.1, 1e-3)), 100))), 1e-3))
        .isInstanceOf(RunGuarantee.UnreachableDeltaException.class)
        .hasMessageContaining("for no finite epsilon");
  }

  @Test
  void noReleaseIsAnError() {
    assertThatThrownBy(() -> RunGuarantee.of(List.of(), 1e-6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("releases must contain at least one private transform");
  }

  @Test
  void laplaceReleaseIsAccountedExactly() {
    RunGuarantee g = RunGuarantee.of(List.of(new Release("l", new LaplaceEvent(2))), 0);
    assertThat(g.total().epsilon()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-3));
    assertThat(g.total().epsilon()).isGreaterThanOrEqualTo(0.5);
  }
}
