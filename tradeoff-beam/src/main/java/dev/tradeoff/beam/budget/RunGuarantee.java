package dev.tradeoff.beam.budget;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.Accountants;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import java.util.ArrayList;
import java.util.List;

/**
 * The guarantee of a whole pipeline run: the composition of every release, computed before the
 * run by the accounting module.
 *
 * <p>Every accountant's δ(ε) is an upper bound on the true δ(ε) of the composed event, so every
 * accountant that supports the event yields a valid ε at the budget's δ; the smallest is reported,
 * with the method that gave it. The methods tried are {@link #METHODS}: PLD (tight for Laplace,
 * Gaussian and sampled events), RDP, zCDP, Kairouz et al.'s general composition and basic
 * composition (always applicable to (ε, δ) guarantees). Each ε is rounded up by the accountant
 * (bisection returns the upper end of its bracket).
 *
 * @param releases the releases composed
 * @param total (ε, δ) of the run, δ being the budget's δ
 * @param method the accountant that gave the smallest ε
 */
public record RunGuarantee(List<Release> releases, ApproxDp total, AccountingMethod method) {

  /** The accounting methods tried, in order. */
  public static final List<AccountingMethod> METHODS = List.of(AccountingMethod.PLD,
      AccountingMethod.RDP, AccountingMethod.ZCDP, AccountingMethod.KAIROUZ,
      AccountingMethod.BASIC);

  public RunGuarantee {
    releases = List.copyOf(Require.nonNull("releases", releases));
    Require.nonNull("total", total);
    Require.nonNull("method", method);
  }

  /**
   * Composes the releases under add-or-remove-one neighbouring and reports ε at {@code delta}.
   *
   * @throws IllegalArgumentException if no release was declared or no accountant supports the
   *     composed event
   */
  public static RunGuarantee of(List<Release> releases, double delta) {
    Require.nonNull("releases", releases);
    Require.that(!releases.isEmpty(), "releases", "must contain at least one private transform",
        releases.size());
    Require.delta("delta", delta);
    DpEvent event = composed(releases);
    double best = Double.POSITIVE_INFINITY;
    AccountingMethod bestMethod = null;
    List<String> reasons = new ArrayList<>();
    for (AccountingMethod method : METHODS) {
      Accountant accountant = Accountants.forMethod(method);
      var why = accountant.whyUnsupported(event, Neighbouring.ADD_OR_REMOVE_ONE);
      if (why.isPresent()) {
        reasons.add(method.cliName() + ": " + why.get());
        continue;
      }
      double epsilon = accountant.account(event, Neighbouring.ADD_OR_REMOVE_ONE).epsilon(delta);
      if (epsilon < best) {
        best = epsilon;
        bestMethod = method;
      }
    }
    if (bestMethod == null) {
      throw new IllegalArgumentException(
          "releases must be supported by some accountant, but none supports them: " + reasons);
    }
    return new RunGuarantee(releases, new ApproxDp(best, delta), bestMethod);
  }

  /** The composition of the releases' events as one event. */
  public static DpEvent composed(List<Release> releases) {
    if (releases.size() == 1) {
      return releases.get(0).event();
    }
    return new ComposedEvent(releases.stream().map(Release::event).toList());
  }

  /** Whether this guarantee is within the budget: ε ≤ budget ε (δ is the budget's δ). */
  public boolean within(ApproxDp budget) {
    return total.delta() <= budget.delta() && total.epsilon() <= budget.epsilon();
  }
}
