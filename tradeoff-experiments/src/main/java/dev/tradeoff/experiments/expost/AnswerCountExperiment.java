package dev.tradeoff.experiments.expost;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.SnappedLaplace;
import dev.tradeoff.selection.baseline.Doubling;
import dev.tradeoff.selection.baseline.LaplaceNoiseReduction;
import dev.tradeoff.selection.expost.PureDpCandidate;
import dev.tradeoff.selection.expost.RandomDroppingTuner;
import dev.tradeoff.selection.expost.Scored;
import dev.tradeoff.selection.expost.TuningOutcome;
import dev.tradeoff.selection.filter.PureDpFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * [ExPost25, Table 1] (pure DP, total budget 10): estimate as many thread counts as
 * possible, threads taken in order x = 1, 2, …, each estimate to pass {@link MessageBoard#accept},
 * with budgets on the grid ε_i = 0.001·(√2)^i, by three methods behind a pure-DP privacy filter:
 *
 * <ul>
 *   <li>Doubling (Wu et al. 2019): Laplace at ε_0, ε_1, … until accepted, every attempt paid;
 *   <li>Noise reduction (Koufogiannis et al. 2016 / Wu et al. 2019): correlated Laplace on the
 *       levels whose ε fits the remaining budget, paying the last released level;
 *   <li>Algorithm 3 exactly as Theorem 11 states it: k ~ Geom_{e^{−ε′}}, ε′ = 0.001, one Laplace
 *       candidate per grid level with 2ε_i + ε′ ≤ remaining, score 1/ε_i if the estimate passes the
 *       check and −ε_i otherwise (passing beats failing; among passing the cheaper wins; among
 *       failing the cheaper wins); each run charged its ex-post ε̃ (2ε_i + ε′, or 0 for ⊥) and
 *       repeated until the released estimate passes.
 * </ul>
 *
 * A method stops when its next request no longer fits the budget; "answers" counts accepted
 * estimates and "precision" the fraction of them within 10% of the truth.
 */
public final class AnswerCountExperiment {

  /** Total pure-DP budget of the experiment. */
  public static final double BUDGET = 10;

  /** ε′ of Algorithm 3 in the experiment. */
  public static final double EPSILON_PRIME = 0.001;

  /**
   * One method on one dataset, per repetition: accepted answers, their precision, and the budget
   * spent on releases that failed the acceptance check (failed doubling attempts, failed
   * noise-reduction chains, Algorithm 3 selections that did not pass).
   */
  public record Outcome(double[] answers, double[] precision, double[] spentOnRejected) {
    /** Mean of a sample. */
    public static double mean(double[] xs) {
      return Arrays.stream(xs).average().orElse(Double.NaN);
    }

    /** Sample standard deviation. */
    public static double std(double[] xs) {
      double m = mean(xs);
      double s = 0;
      for (double x : xs) {
        s += (x - m) * (x - m);
      }
      return xs.length > 1 ? Math.sqrt(s / (xs.length - 1)) : 0;
    }
  }

  /** The three methods. */
  public enum Method {
    DOUBLING,
    NOISE_REDUCTION,
    ALGORITHM_3
  }

  private record Run(int answers, double precision, double spentOnRejected) {}

  private AnswerCountExperiment() {}

  /**
   * Runs {@code method} {@code repetitions} times on fresh data of {@code users} users each
   * (data and noise from {@code random}).
   */
  public static Outcome run(Method method, int users, int repetitions, RandomGenerator random) {
    Require.nonNull("method", method);
    Require.positive("repetitions", repetitions);
    double[] answers = new double[repetitions];
    double[] precision = new double[repetitions];
    double[] rejected = new double[repetitions];
    for (int r = 0; r < repetitions; r++) {
      long[] counts = MessageBoard.histogram(users, random);
      Run run =
          switch (method) {
            case DOUBLING -> doubling(counts, random);
            case NOISE_REDUCTION -> noiseReduction(counts, random);
            case ALGORITHM_3 -> algorithm3(counts, random);
          };
      answers[r] = run.answers();
      precision[r] = run.precision();
      rejected[r] = run.spentOnRejected();
    }
    return new Outcome(answers, precision, rejected);
  }

  private static Run summary(List<double[]> released, double spentOnRejected) {
    int precise = 0;
    for (double[] e : released) {
      precise += MessageBoard.precise(e[0], (long) e[1]) ? 1 : 0;
    }
    return new Run(
        released.size(),
        released.isEmpty() ? Double.NaN : (double) precise / released.size(),
        spentOnRejected);
  }

  private static Run doubling(long[] counts, RandomGenerator random) {
    Doubling doubling = new Doubling(MessageBoard.budgetGrid(BUDGET));
    double remaining = BUDGET;
    double rejected = 0;
    List<double[]> released = new ArrayList<>();
    for (long count : counts) {
      Doubling.Result<Double> res =
          doubling.run(
              (eps, g) -> SnappedLaplace.forScale(1 / eps).addTo(g, count),
              MessageBoard::accept,
              remaining,
              random);
      remaining -= res.spent();
      if (!res.accepted()) {
        rejected += res.spent();
        break;
      }
      rejected += res.spent() - MessageBoard.budgetGrid(BUDGET)[res.level()];
      released.add(new double[] {res.output(), count});
    }
    return summary(released, rejected);
  }

  private static Run noiseReduction(long[] counts, RandomGenerator random) {
    double remaining = BUDGET;
    List<double[]> released = new ArrayList<>();
    for (long count : counts) {
      double[] grid = MessageBoard.budgetGrid(remaining);
      if (grid[0] > remaining) {
        break;
      }
      LaplaceNoiseReduction.Result res =
          new LaplaceNoiseReduction(grid, 1).run(count, MessageBoard::accept, random);
      remaining -= res.spent();
      if (!res.accepted()) {
        return summary(released, res.spent());
      }
      released.add(new double[] {res.estimate(), count});
    }
    return summary(released, 0);
  }

  private static Run algorithm3(long[] counts, RandomGenerator random) {
    PureDpFilter filter = new PureDpFilter(new InMemoryBudgetStore(new PureDp(BUDGET)));
    double[] grid = MessageBoard.budgetGrid(BUDGET);
    List<double[]> released = new ArrayList<>();
    double rejected = 0;
    threads:
    for (long count : counts) {
      while (true) {
        double remaining = filter.remainingEpsilon();
        List<PureDpCandidate<Double>> candidates = new ArrayList<>();
        for (double eps : grid) {
          if (2 * eps + EPSILON_PRIME <= remaining * (1 - 1e-12)) {
            candidates.add(
                new PureDpCandidate<>(
                    g -> {
                      double y = SnappedLaplace.forScale(1 / eps).addTo(g, count);
                      return new Scored<>(MessageBoard.accept(y, eps) ? 1 / eps : -eps, y);
                    },
                    eps));
          }
        }
        if (candidates.isEmpty()) {
          break threads;
        }
        RandomDroppingTuner<Double> tuner = RandomDroppingTuner.of(candidates, EPSILON_PRIME);
        ExPostDp<TuningOutcome<Double>> guarantee = tuner.guarantee();
        TuningOutcome<Double> out;
        try {
          out = filter.answer("thread", guarantee, () -> tuner.run(random).outcome());
        } catch (BudgetExceededException e) {
          break threads;
        }
        if (out instanceof TuningOutcome.Selected<Double> s) {
          if (s.result().score() > 0) {
            released.add(new double[] {s.result().output(), count});
            continue threads;
          }
          rejected += guarantee.epsilonOf(out);
        }
      }
    }
    return summary(released, rejected);
  }
}
