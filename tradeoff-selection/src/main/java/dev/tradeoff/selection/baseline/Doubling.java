package dev.tradeoff.selection.baseline;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.DirectedRounding;
import java.util.function.BiPredicate;
import java.util.random.RandomGenerator;

/**
 * The doubling method (Wu, Roth, Ligett, Waggoner, Neel, "Accuracy first", JPC 2019; the baseline
 * of [ExPost25, Section 1 and Table 1]): run the base mechanism with budgets ε_1 &lt; ε_2 &lt;
 * … in turn until an output passes the (private, post-processing) acceptance test. Every attempt is
 * paid by basic composition: the cost of stopping at level t is Σ_{s≤t} ε_s (summed with upward
 * rounding). With a finite budget it stops, unanswered, when the next attempt would not fit.
 */
public final class Doubling {

  /** A base mechanism run at budget ε. */
  @FunctionalInterface
  public interface Attempt<O> {
    O run(double epsilon, RandomGenerator random);
  }

  /**
   * The outcome: the accepted output (or the last one, when none passed), the 0-based level it came
   * from (−1 when nothing ran), whether it passed, and the composed cost.
   */
  public record Result<O>(O output, int level, boolean accepted, double spent) {}

  private final double[] budgets;

  /** @param budgets ε_1 &lt; ε_2 &lt; … (each &gt; 0 and finite, strictly increasing) */
  public Doubling(double[] budgets) {
    this.budgets = Require.finiteValues("budgets", budgets).clone();
    Require.that(budgets.length > 0, "budgets", "must be non-empty", "[]");
    for (int i = 0; i < budgets.length; i++) {
      Require.positive("budgets[" + i + "]", budgets[i]);
      if (i > 0) {
        Require.greaterThan("budgets[" + i + "]", budgets[i], budgets[i - 1]);
      }
    }
  }

  /** Runs levels in order while the composed cost stays within {@code available}. */
  public <O> Result<O> run(
      Attempt<O> attempt, BiPredicate<O, Double> accept, double available, RandomGenerator random) {
    Require.nonNull("attempt", attempt);
    Require.nonNull("accept", accept);
    Require.nonNegative("available", available);
    double spent = 0;
    O last = null;
    int level = -1;
    for (int t = 0; t < budgets.length; t++) {
      double next = DirectedRounding.sumUp(spent, budgets[t]);
      if (next > available) {
        break;
      }
      spent = next;
      last = attempt.run(budgets[t], random);
      level = t;
      if (accept.test(last, budgets[t])) {
        return new Result<>(last, t, true, spent);
      }
    }
    return new Result<>(last, level, false, spent);
  }
}
