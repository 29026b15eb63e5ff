package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.methods.Accountants;
import dev.tradeoff.accounting.numerics.DirectedRounding;
import java.util.ArrayList;
import java.util.List;

/**
 * The guarantee of a whole run (a Beam pipeline, a labelling job, a deployment of Q queries): the
 * composition of every release, computed before the run; this is the tightest-accountant choice
 * of the budget API.
 *
 * <p>Every accountant's δ(ε) is an upper bound on the true δ(ε) of the composed event, so every
 * accountant that supports the event yields a valid ε at the budget's δ; the smallest is reported,
 * with the method that gave it. The methods tried are {@link #METHODS}: PLD (tight for Laplace,
 * Gaussian and sampled events), RDP, zCDP, Kairouz et al.'s general composition and basic
 * composition (always applicable to (ε, δ) guarantees). Each ε is rounded up by the accountant
 * (bisection returns the upper end of its bracket).
 *
 * <p>Beside the charged ε the guarantee carries a lower bound on the true ε of the composed
 * releases at δ ({@link PrivacyProfile#epsilonBounds}): the largest lower end any accountant gave
 * (the PLD's optimistic discretization, GDP's exact value), 0 where none gives one, and 0 when the
 * releases had to be accounted one by one (a sum of per-release bounds at δ/n says nothing from
 * below about the whole at δ).
 *
 * @param releases the releases composed
 * @param total (ε, δ) of the run, δ being the budget's δ
 * @param method the accountant that gave the smallest ε
 * @param epsilonLower a lower bound on the true ε at δ, at most {@code total.epsilon()}
 */
public record RunGuarantee(
    List<Release> releases, ApproxDp total, AccountingMethod method, double epsilonLower) {

  /** The accounting methods tried, in order. */
  public static final List<AccountingMethod> METHODS = List.of(AccountingMethod.PLD,
      AccountingMethod.RDP, AccountingMethod.ZCDP, AccountingMethod.KAIROUZ,
      AccountingMethod.BASIC);

  public RunGuarantee {
    releases = List.copyOf(Require.nonNull("releases", releases));
    Require.nonNull("total", total);
    Require.nonNull("method", method);
    Require.that(epsilonLower >= 0 && epsilonLower <= total.epsilon(), "epsilonLower",
        "must be in [0, " + total.epsilon() + "]", epsilonLower);
  }

  /**
   * Composes the releases under add-or-remove-one neighbouring and reports ε at {@code delta}.
   *
   * <p>If some accountant supports the composition of all releases, the smallest ε over those
   * accountants is reported when it is finite. Otherwise (releases of different kinds that no single
   * method composes, e.g. a zCDP histogram next to (ε, δ) DaRRM labels, or a joint bound that is
   * infinite) δ is split evenly, each release is accounted
   * alone at δ/n by its best method, and the ε's are added (basic composition,
   * {@link AccountingMethod#BASIC}).
   *
   * @throws IllegalArgumentException if no release was declared or some release is supported by no
   *     accountant
   * @throws UnreachableDeltaException if no finite ε reaches {@code delta} (the releases' own δ's
   *     add up to more)
   */
  public static RunGuarantee of(List<Release> releases, double delta) {
    return of(releases, delta, METHODS);
  }

  /**
   * {@link #of(List, double)} trying only the given accounting methods (for compositions so long
   * that some method is too slow); every method's ε is a valid bound, so any subset is sound.
   */
  public static RunGuarantee of(List<Release> releases, double delta,
      List<AccountingMethod> methods) {
    Require.nonNull("releases", releases);
    Require.nonNull("methods", methods);
    Require.that(!methods.isEmpty(), "methods", "must name at least one accounting method",
        methods);
    Require.that(!releases.isEmpty(), "releases", "must contain at least one private transform",
        releases.size());
    Require.delta("delta", delta);
    List<String> reasons = new ArrayList<>();
    Best joint = best(composed(releases), delta, methods, reasons);
    if (joint != null && Double.isFinite(joint.epsilon)) {
      return new RunGuarantee(releases, new ApproxDp(joint.epsilon, delta), joint.method,
          Math.min(joint.lower, joint.epsilon));
    }
    // No single method composes all releases, or the one that does gives no finite bound (e.g. a
    // PLD whose grid had to be coarsened past a huge loss): account each release by its own best
    // method, which may still be finite.
    // One ulp down: the n shares add up to at most δ in exact arithmetic.
    double share = Math.nextDown(delta / releases.size());
    double total = 0;
    for (Release r : releases) {
      List<String> why = new ArrayList<>();
      Best alone = best(r.event(), share, methods, why);
      if (alone == null) {
        throw new IllegalArgumentException("release " + r.name()
            + " must be supported by some accountant, but none supports it: " + why);
      }
      total = Double.isInfinite(total) || Double.isInfinite(alone.epsilon)
          ? Double.POSITIVE_INFINITY
          : DirectedRounding.sumUp(total, alone.epsilon);
    }
    if (Double.isInfinite(total)) {
      throw new UnreachableDeltaException(releases, delta);
    }
    return new RunGuarantee(releases, new ApproxDp(total, delta), AccountingMethod.BASIC, 0);
  }

  /** The smallest upper bound on ε, its method, and the largest lower bound of any method. */
  private record Best(double epsilon, AccountingMethod method, double lower) {}

  /**
   * The smallest ε at δ over the accountants that support the event, with the largest lower bound
   * any of them gave, or null if none does.
   */
  private static Best best(DpEvent event, double delta, List<AccountingMethod> methods,
      List<String> reasons) {
    Best best = null;
    for (AccountingMethod method : methods) {
      Accountant accountant = Accountants.forMethod(method);
      var why = accountant.whyUnsupported(event, Neighbouring.ADD_OR_REMOVE_ONE);
      if (why.isPresent()) {
        reasons.add(method.cliName() + ": " + why.get());
        continue;
      }
      EpsilonBounds bounds;
      try {
        bounds = accountant.account(event, Neighbouring.ADD_OR_REMOVE_ONE).epsilonBounds(delta);
      } catch (IllegalArgumentException e) {
        // Outside the method's numerical range (e.g. a PLD grid too fine for a huge loss); the
        // other methods still give valid bounds.
        reasons.add(method.cliName() + ": " + e.getMessage());
        continue;
      }
      double lower = best == null ? bounds.lower() : Math.max(best.lower, bounds.lower());
      best = best == null || bounds.upper() < best.epsilon
          ? new Best(bounds.upper(), method, lower)
          : new Best(best.epsilon, best.method, lower);
    }
    return best;
  }

  /** The composition of the releases' events as one event. */
  public static DpEvent composed(List<Release> releases) {
    if (releases.size() == 1) {
      return releases.get(0).event();
    }
    return new ComposedEvent(releases.stream().map(Release::event).toList());
  }

  /** No finite ε makes the composed releases (ε, δ)-DP at the asked δ. */
  public static final class UnreachableDeltaException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnreachableDeltaException(List<Release> releases, double delta) {
      super("the releases (" + releases.stream().map(Release::name).toList()
          + ") are (epsilon, " + delta + ")-DP for no finite epsilon: their own deltas exceed "
          + delta);
    }
  }

  /** Whether this guarantee is within the budget: ε ≤ budget ε (δ is the budget's δ). */
  public boolean within(ApproxDp budget) {
    return total.delta() <= budget.delta() && total.epsilon() <= budget.epsilon();
  }
}
