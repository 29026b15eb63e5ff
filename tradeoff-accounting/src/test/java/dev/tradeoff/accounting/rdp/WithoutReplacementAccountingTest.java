package dev.tradeoff.accounting.rdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.composition.WithoutReplacementAmplification;
import dev.tradeoff.accounting.conversion.RdpProfile;
import dev.tradeoff.accounting.event.ComposedEvent;
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
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.pld.PldAccountant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The RDP accountant on {@link SampledWithoutReplacementEvent} [WBK19, Theorem 9]. */
class WithoutReplacementAccountingTest {

  private static final Neighbouring REPLACE = Neighbouring.REPLACE_ONE;
  private final RdpAccountant rdp = new RdpAccountant();

  private static DpEvent sampled(int n, int m, DpEvent inner) {
    return new SampledWithoutReplacementEvent(n, m, inner);
  }

  @Test
  void integerGridOrdersAreTheoremNineCappedByTheInnerCurve() {
    double[] orders = {2, 3, 5, 8, 13, 21, 34};
    RdpAccountant grid = new RdpAccountant(orders);
    RenyiDp curve = grid.rdp(sampled(1000, 10, new GaussianEvent(1.5)), REPLACE);
    for (int i = 0; i < orders.length; i++) {
      double expected =
          SampledWithoutReplacementRdp.epsilon(
              0.01, j -> MechanismRdp.gaussian(1.5, j), Double.POSITIVE_INFINITY, orders[i]);
      assertThat(curve.epsilon(i)).isLessThanOrEqualTo(expected);
    }
    // the largest order is not lowered by the monotone envelope
    assertThat(curve.epsilon(orders.length - 1))
        .isEqualTo(
            SampledWithoutReplacementRdp.epsilon(
                0.01, j -> MechanismRdp.gaussian(1.5, j), Double.POSITIVE_INFINITY, 34));
  }

  @Test
  void nonIntegerGridOrdersAreAnsweredFromTheNextInteger() {
    RdpAccountant grid = new RdpAccountant(new double[] {2.5, 3});
    RenyiDp curve = grid.rdp(sampled(500, 5, new GaussianEvent(2)), REPLACE);
    assertThat(curve.epsilon(0)).isEqualTo(curve.epsilon(1));
  }

  @Test
  void fullSamplingIsTheInnerMechanism() {
    for (DpEvent inner :
        new DpEvent[] {
          new GaussianEvent(1.7), new LaplaceEvent(0.8), RandomizedResponseEvent.binary(1.2)
        }) {
      assertThat(rdp.rdp(sampled(40, 40, inner), REPLACE)).isEqualTo(rdp.rdp(inner, REPLACE));
    }
  }

  @Test
  void seededEventsAreMonotoneInOrderAndRatioAndNeverWorseThanWithoutSampling() {
    SplittableRandom rng = new SplittableRandom(2019);
    RdpAccountant coarse = new RdpAccountant(new double[] {1.5, 2, 3.5, 8, 20, 64, 256});
    for (int trial = 0; trial < 40; trial++) {
      DpEvent inner = randomInner(rng);
      int n = rng.nextInt(2, 5000);
      int m1 = rng.nextInt(1, n + 1);
      int m2 = rng.nextInt(m1, n + 1);
      RenyiDp small = coarse.rdp(sampled(n, m1, inner), REPLACE);
      RenyiDp large = coarse.rdp(sampled(n, m2, inner), REPLACE);
      RenyiDp plain = coarse.rdp(inner, REPLACE);
      for (int i = 0; i < small.size(); i++) {
        assertThat(small.epsilon(i)).as("%s at %s", inner, small.order(i))
            .isLessThanOrEqualTo(large.epsilon(i));
        assertThat(large.epsilon(i)).isLessThanOrEqualTo(plain.epsilon(i));
        if (i > 0) {
          assertThat(small.epsilon(i - 1)).isLessThanOrEqualTo(small.epsilon(i));
        }
      }
    }
  }

  @Test
  void pureInnerCurveStaysBelowTheAmplifiedPureEpsilonAndItsProfileAboveTheExactOne() {
    // Discrete Laplace count on an m-of-n subsample: exact hockey-stick divergence of the
    // neighbouring pair (ones vs ones + 1) must lie below the RDP accountant's delta(eps).
    int n = 20;
    int m = 4;
    double t = 1;
    RdpProfile profile = rdp.account(sampled(n, m, new DiscreteLaplaceEvent(t)), REPLACE);
    double cap = WithoutReplacementAmplification.amplifiedEpsilon(1, 0.2);
    RenyiDp curve = profile.rdp();
    for (int i = 0; i < curve.size(); i++) {
      assertThat(curve.epsilon(i)).isLessThanOrEqualTo(cap);
    }
    for (int ones = 0; ones < n; ones++) {
      for (double eps : new double[] {0, 0.02, 0.05, 0.1, 0.2}) {
        assertThat(profile.delta(eps))
            .as("ones=%d eps=%s", ones, eps)
            .isGreaterThanOrEqualTo(exactHockeyStick(n, m, ones, t, eps));
      }
    }
  }

  @Test
  void innerEventsTheAccountantSupportsAreSupportedInside() {
    DpEvent[] inners = {
      new GuaranteeEvent(new PureDp(0.5)),
      new GuaranteeEvent(new ApproxDp(0.5, 0)),
      new GuaranteeEvent(new ZeroConcentratedDp(0.1)),
      new GuaranteeEvent(RenyiDp.ofOrder(4, 0.3)),
      new SelfComposedEvent(new LaplaceEvent(2), 3),
      ComposedEvent.of(new GaussianEvent(3), RandomizedResponseEvent.binary(0.2)),
      sampled(10, 5, new LaplaceEvent(1)),
    };
    for (DpEvent inner : inners) {
      RenyiDp curve = rdp.rdp(sampled(100, 7, inner), REPLACE);
      RenyiDp plain = rdp.rdp(inner, REPLACE);
      for (int i = 0; i < curve.size(); i++) {
        assertThat(curve.epsilon(i)).as("%s", inner).isLessThanOrEqualTo(plain.epsilon(i));
      }
    }
    // RenyiDp guarantee at order 4 only: orders up to 4 are bounded, beyond it nothing is known
    RenyiDp single = rdp.rdp(sampled(100, 7, new GuaranteeEvent(RenyiDp.ofOrder(4, 0.3))), REPLACE);
    assertThat(single.epsilonAt(3)).isFinite().isLessThan(0.3);
    assertThat(single.epsilonAt(5)).isInfinite();
  }

  @Test
  void pureEpsilonIsReadOffEventsThatHaveOne() {
    assertThat(RdpAccountant.pureEpsilon(new LaplaceEvent(4))).isEqualTo(0.25);
    assertThat(RdpAccountant.pureEpsilon(new LaplaceEvent(3))).isGreaterThanOrEqualTo(1.0 / 3);
    assertThat(RdpAccountant.pureEpsilon(new SelfComposedEvent(new LaplaceEvent(4), 3)))
        .isGreaterThanOrEqualTo(0.75)
        .isLessThan(0.7500001);
    assertThat(
            RdpAccountant.pureEpsilon(
                ComposedEvent.of(
                    RandomizedResponseEvent.binary(0.5), new GuaranteeEvent(new PureDp(0.25)))))
        .isGreaterThanOrEqualTo(0.75)
        .isLessThan(0.7500001);
    assertThat(RdpAccountant.pureEpsilon(sampled(10, 1, new GuaranteeEvent(new PureDp(1)))))
        .isGreaterThanOrEqualTo(Math.log1p(0.1 * Math.expm1(1)));
    assertThat(RdpAccountant.pureEpsilon(new GaussianEvent(1))).isInfinite();
    assertThat(RdpAccountant.pureEpsilon(ComposedEvent.of(new LaplaceEvent(1), new GaussianEvent(1))))
        .isInfinite();
  }

  @Test
  void refusesAddRemoveAndUnsupportedInnerEventsWithReasons() {
    DpEvent gaussian = sampled(100, 10, new GaussianEvent(1));
    assertThat(rdp.whyUnsupported(gaussian, Neighbouring.ADD_OR_REMOVE_ONE))
        .get()
        .asString()
        .contains("replace-one")
        .contains("ADD_OR_REMOVE_ONE");
    assertThatThrownBy(() -> rdp.account(gaussian, Neighbouring.ADD_OR_REMOVE_ONE))
        .isInstanceOf(UnsupportedEventException.class);
    DpEvent poissonInside = sampled(100, 10, new PoissonSampledEvent(0.1, new GaussianEvent(1)));
    assertThat(rdp.whyUnsupported(poissonInside, REPLACE)).get().asString().contains("add/remove");
    DpEvent approxInside = sampled(100, 10, new GuaranteeEvent(new ApproxDp(1, 1e-6)));
    assertThat(rdp.whyUnsupported(approxInside, REPLACE)).get().asString().contains("delta > 0");
    assertThat(new PldAccountant().whyUnsupported(sampled(100, 10, new LaplaceEvent(1)), REPLACE))
        .get()
        .asString()
        .contains("rdp");
  }

  private static DpEvent randomInner(SplittableRandom rng) {
    double p = 0.3 + 4 * rng.nextDouble();
    return switch (rng.nextInt(4)) {
      case 0 -> new GaussianEvent(p);
      case 1 -> new LaplaceEvent(p);
      case 2 -> RandomizedResponseEvent.binary(1 / p);
      default -> new SelfComposedEvent(new LaplaceEvent(3 * p), 1 + rng.nextInt(4));
    };
  }

  /** max over both directions of Σ_y max(0, P(y) − e^ε P′(y)) for the subsampled count pair. */
  private static double exactHockeyStick(int n, int m, int ones, double t, double eps) {
    int margin = (int) Math.ceil(60 * t) + 40;
    double[] p = law(n, m, ones, t, margin);
    double[] q = law(n, m, ones + 1, t, margin);
    double forward = 0;
    double backward = 0;
    for (int i = 0; i < p.length; i++) {
      forward += Math.max(0, p[i] - Math.exp(eps) * q[i]);
      backward += Math.max(0, q[i] - Math.exp(eps) * p[i]);
    }
    return Math.max(forward, backward);
  }

  private static double[] law(int n, int m, int ones, double t, int margin) {
    double logNorm = Math.log(Math.tanh(1 / (2 * t)));
    double logAll = LogMath.logBinomial(n, m);
    double[] law = new double[m + 2 * margin + 1];
    for (int y = -margin; y <= m + margin; y++) {
      double acc = 0;
      for (int c = Math.max(0, m - (n - ones)); c <= Math.min(ones, m); c++) {
        double logHyper =
            LogMath.logBinomial(ones, c) + LogMath.logBinomial(n - ones, m - c) - logAll;
        acc += Math.exp(logHyper + logNorm - Math.abs(y - c) / t);
      }
      law[y + margin] = acc;
    }
    return law;
  }
}
