package dev.tradeoff.accounting.methods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.pld.PldAccountant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The accountants answer the same question by different analyses, so their answers must be ordered:
 * an exact value (GDP for Gaussians, the optimal composition for randomized response) lies between
 * the PLD's optimistic and pessimistic discretizations; every upper-bound method (RDP, Kairouz,
 * basic) is at least the PLD's certified lower bound; and optimal ≤ Kairouz ≤ basic.
 */
class CrossMethodConsistencyTest {

  private static final Neighbouring ADD_REMOVE = Neighbouring.ADD_OR_REMOVE_ONE;
  private static final PldAccountant PLD = new PldAccountant(1e-3, 1e-15);

  private static double epsilon(Accountant accountant, DpEvent event, double delta) {
    return accountant.account(event, ADD_REMOVE).epsilon(delta);
  }

  private static double pldLower(DpEvent event, double delta) {
    return PLD.account(event, ADD_REMOVE).lower().epsilon(delta);
  }

  @Test
  void gaussianCompositionsAreBracketedByThePldAndBoundedByRdp() {
    SplittableRandom random = new SplittableRandom(2024);
    for (int trial = 0; trial < 25; trial++) {
      double sigma = random.nextDouble(0.5, 5);
      int k = random.nextInt(1, 60);
      double delta = Math.pow(10, -random.nextDouble(3, 9));
      DpEvent event = new SelfComposedEvent(new GaussianEvent(sigma), k);
      double exact = GaussianDpConversion.epsilon(Math.sqrt(k) / sigma, delta);
      String where = "sigma=" + sigma + " k=" + k + " delta=" + delta;

      assertThat(epsilon(Accountants.forMethod(AccountingMethod.GDP), event, delta))
          .as(where)
          .isCloseTo(exact, within(1e-9 * Math.max(1, exact)));
      assertThat(epsilon(PLD, event, delta)).as(where).isGreaterThanOrEqualTo(exact - 1e-9);
      assertThat(pldLower(event, delta)).as(where).isLessThanOrEqualTo(exact + 1e-9);
      double rdp = epsilon(Accountants.forMethod(AccountingMethod.RDP), event, delta);
      assertThat(rdp).as(where).isGreaterThanOrEqualTo(exact);
      assertThat(epsilon(Accountants.forMethod(AccountingMethod.ZCDP), event, delta))
          .as(where)
          .isGreaterThanOrEqualTo(exact);
    }
  }

  @Test
  void randomizedResponseIsTheWorstPureMechanismSoPldMatchesOptimalComposition() {
    SplittableRandom random = new SplittableRandom(99);
    for (int trial = 0; trial < 15; trial++) {
      double eps0 = random.nextDouble(0.05, 1);
      int k = random.nextInt(1, 40);
      double delta = Math.pow(10, -random.nextDouble(3, 8));
      String where = "eps0=" + eps0 + " k=" + k + " delta=" + delta;
      DpEvent rr = new SelfComposedEvent(RandomizedResponseEvent.binary(eps0), k);
      DpEvent pure = new SelfComposedEvent(new GuaranteeEvent(new PureDp(eps0)), k);

      double optimal = epsilon(Accountants.forMethod(AccountingMethod.OPTIMAL), pure, delta);
      double kairouz = epsilon(Accountants.forMethod(AccountingMethod.KAIROUZ), pure, delta);
      double basic = epsilon(Accountants.forMethod(AccountingMethod.BASIC), pure, delta);
      assertThat(optimal).as(where).isLessThanOrEqualTo(kairouz);
      assertThat(kairouz).as(where).isLessThanOrEqualTo(basic);
      assertThat(basic).as(where).isCloseTo(k * eps0, within(1e-9 * k));

      assertThat(pldLower(rr, delta)).as(where).isLessThanOrEqualTo(optimal + 1e-9);
      assertThat(epsilon(PLD, rr, delta)).as(where).isGreaterThanOrEqualTo(optimal - 1e-9);
      assertThat(epsilon(Accountants.forMethod(AccountingMethod.RDP), rr, delta))
          .as(where)
          .isGreaterThanOrEqualTo(optimal - 1e-9);
    }
  }

  @Test
  void laplaceAndSubsampledGaussianUpperBoundsDominateThePldLowerBound() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 12; trial++) {
      double delta = Math.pow(10, -random.nextDouble(3, 8));
      double scale = random.nextDouble(0.5, 10);
      int k = random.nextInt(1, 30);
      DpEvent laplace = new SelfComposedEvent(new LaplaceEvent(scale), k);
      String where = "scale=" + scale + " k=" + k + " delta=" + delta;
      double lower = pldLower(laplace, delta);
      assertThat(epsilon(PLD, laplace, delta)).as(where).isGreaterThanOrEqualTo(lower);
      for (AccountingMethod m :
          new AccountingMethod[] {AccountingMethod.RDP, AccountingMethod.OPTIMAL, AccountingMethod.BASIC}) {
        assertThat(epsilon(Accountants.forMethod(m), laplace, delta)).as(m + " " + where)
            .isGreaterThanOrEqualTo(lower - 1e-9);
      }

      double q = random.nextDouble(0.001, 0.2);
      double sigma = random.nextDouble(0.7, 3);
      int steps = random.nextInt(1, 200);
      DpEvent sampled = new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(sigma)), steps);
      String where2 = "q=" + q + " sigma=" + sigma + " steps=" + steps + " delta=" + delta;
      double sampledLower = pldLower(sampled, delta);
      assertThat(epsilon(PLD, sampled, delta)).as(where2).isGreaterThanOrEqualTo(sampledLower);
      assertThat(epsilon(Accountants.forMethod(AccountingMethod.RDP), sampled, delta))
          .as(where2)
          .isGreaterThanOrEqualTo(sampledLower - 1e-9);
    }
  }

  @Test
  void everyMethodIsMonotoneInTheNumberOfCompositions() {
    DpEvent once = new GuaranteeEvent(new PureDp(0.2));
    for (AccountingMethod m : AccountingMethod.values()) {
      if (m == AccountingMethod.GDP) {
        continue; // GDP has no analysis of pure DP
      }
      Accountant accountant = m == AccountingMethod.PLD ? PLD : Accountants.forMethod(m);
      double previous = 0;
      for (int k : new int[] {1, 2, 5, 10, 20}) {
        double eps = epsilon(accountant, new SelfComposedEvent(once, k), 1e-6);
        assertThat(eps).as(m + " k=" + k).isGreaterThanOrEqualTo(previous);
        previous = eps;
      }
    }
  }
}
