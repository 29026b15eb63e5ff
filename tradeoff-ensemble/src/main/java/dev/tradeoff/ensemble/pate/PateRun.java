package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.gdp.GdpAccountant;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A PATE aggregation over a {@link VoteTable} with its data-independent guarantee, in one of two
 * plans fixed before any vote is read.
 *
 * <ul>
 *   <li>{@link #allQueries}: every query is checked and may be answered, so the guarantee is the
 *       adaptive composition of Q threshold checks and Q GNMax steps (the worst case: any query
 *       may pass the check): for these Gaussian events the exact GDP composition μ = √(Q/σ₁² +
 *       2Q/σ₂²) ({@link #guarantee}).
 *   <li>{@link #answerUntil}: a budget (ε, δ) becomes μ_B, the largest μ with μ-GDP ⇒ (ε, δ)-DP;
 *       queries are taken in order while the spent Σ μ_i² plus the worst case of the next query
 *       (its check and its GNMax step) stays ≤ μ_B². Whether a query passes its check is decided by
 *       the released outputs only, so this is the fully adaptive (filter) composition of Gaussian
 *       DP of Smith and Thakurta, <i>Fully adaptive composition for Gaussian differential
 *       privacy</i> (arXiv:2210.17520, 2022): the run is μ_B-GDP whatever the votes, hence (ε,
 *       δ)-DP. Abstentions cost only their check, so more queries are answered than the ex-ante
 *       plan would allow.
 * </ul>
 *
 * Accounting by RDP (Papernot et al. 2018, Theorem 5 or the improved conversion) gives a larger ε
 * for the same events; the GDP figure is charged because it is exact for Gaussian composition.
 *
 * @param answers one per query processed, in table order (a prefix of the table)
 * @param answered how many were labelled
 * @param event the accounting event of the guarantee
 * @param guarantee the (ε, δ) charged: data-independent, valid for any votes
 */
public record PateRun(List<Answer> answers, int answered, DpEvent event, ApproxDp guarantee) {

  public PateRun {
    answers = List.copyOf(Require.nonNull("answers", answers));
    Require.nonNull("event", event);
    Require.nonNull("guarantee", guarantee);
  }

  /** How many queries were processed (checked): a prefix of the table. */
  public int processed() {
    return answers.size();
  }

  /** The event of every query checked and answered: Q checks and Q GNMax steps. */
  public static DpEvent exAnteEvent(PateAggregator aggregator, int queries) {
    Require.nonNull("aggregator", aggregator);
    Require.positive("queries", queries);
    DpEvent answers = new SelfComposedEvent(aggregator.answerEvent(), queries);
    return aggregator.checkEvent()
        .<DpEvent>map(c -> ComposedEvent.of(new SelfComposedEvent(c, queries), answers))
        .orElse(answers);
  }

  /** Every query, with the ex-ante guarantee of {@link #exAnteEvent} at {@code delta}. */
  public static PateRun allQueries(VoteTable table, PateAggregator aggregator, double delta,
      RandomGenerator random) {
    Require.nonNull("random", random);
    return allQueries(table, aggregator, delta, id -> random);
  }

  /**
   * Every query, its noise drawn from {@code noise}'s generator for the query's id: with a
   * generator derived from (seed, id) alone, the labels do not depend on the order in which the
   * queries are processed, which is how a Beam pipeline on any runner gives the same labels
   * ({@code dev.tradeoff.beam.pate.PateAggregation}).
   */
  public static PateRun allQueries(VoteTable table, PateAggregator aggregator, double delta,
      QueryNoise noise) {
    Require.nonNull("table", table);
    Require.nonNull("aggregator", aggregator);
    Require.nonNull("noise", noise);
    DpEvent event = exAnteEvent(aggregator, table.size());
    ApproxDp guarantee = guarantee(event, delta);
    List<Answer> answers = new ArrayList<>(table.size());
    int answered = 0;
    for (Votes v : table.rows()) {
      Answer a = aggregator.answer(v, noise.forQuery(v.id()));
      answers.add(a);
      answered += a instanceof Answer.Labelled ? 1 : 0;
    }
    return new PateRun(answers, answered, event, guarantee);
  }

  /** Where the noise of one query comes from, by its id. */
  @FunctionalInterface
  public interface QueryNoise {
    /** The generator for the query {@code id}. */
    RandomGenerator forQuery(String id);
  }

  /**
   * Queries in order while the budget allows the next one's worst case (the Gaussian DP filter of
   * Smith and Thakurta 2022); the guarantee is {@code budget}'s μ_B-GDP at its δ.
   *
   * @param budget the (ε, δ) no run may exceed, ε &gt; 0
   */
  public static PateRun answerUntil(VoteTable table, PateAggregator aggregator, ApproxDp budget,
      RandomGenerator random) {
    Require.nonNull("table", table);
    Require.nonNull("aggregator", aggregator);
    Require.nonNull("budget", budget);
    Require.nonNull("random", random);
    Require.positive("budget epsilon", budget.epsilon());
    Require.openUnit("budget delta", budget.delta());
    double mu = GaussianDpConversion.mu(budget.epsilon(), budget.delta());
    double cap = mu * mu;
    double check = aggregator.checkMuSquared();
    double step = aggregator.answerMuSquared();
    List<Answer> answers = new ArrayList<>();
    int answered = 0;
    for (Votes v : table.rows()) {
      int checked = answers.size();
      // the spend if this query is checked and answered, rounded up
      double next = Math.nextUp((checked + 1) * check + (answered + 1) * step);
      if (next > cap) {
        break;
      }
      Answer a = aggregator.answer(v, random);
      answers.add(a);
      answered += a instanceof Answer.Labelled ? 1 : 0;
    }
    // μ_B was rounded down so that μ_B-GDP implies the budget itself
    return new PateRun(answers, answered, new GuaranteeEvent(new GaussianDp(mu)), budget);
  }

  /**
   * The (ε, δ) of a composition of Gaussian events: exact GDP composition (Dong, Roth and Su,
   * <i>Gaussian differential privacy</i>, JRSS-B 2022, Corollary 3.3: μ = √Σ μ_i²), μ rounded up,
   * then the tight μ-GDP → (ε, δ) conversion (their Corollary 2.13), ε rounded up. Tighter than
   * any RDP conversion and than the discretised PLD bound for the same events.
   */
  public static ApproxDp guarantee(DpEvent event, double delta) {
    Require.nonNull("event", event);
    Require.openUnit("delta", delta);
    double mu = new GdpAccountant().gdp(event, Neighbouring.ADD_OR_REMOVE_ONE).mu();
    return new ApproxDp(GaussianDpConversion.epsilon(Math.nextUp(mu), delta), delta);
  }

  /**
   * The data-dependent RDP curve of this run on {@code orders} (Papernot et al. 2018, Theorem 6
   * with Proposition 7), summed over the processed queries, and its ε at {@code delta} by their
   * Theorem 5 (ε + log(1/δ)/(λ − 1), the smallest over the orders). NOT a differential privacy
   * guarantee: it is a function of the votes and must not be released or charged as one.
   *
   * @param table the table this run processed
   * @param aggregator the aggregator it used
   */
  public DataDependent dataDependent(VoteTable table, PateAggregator aggregator, double[] orders,
      double delta) {
    Require.nonNull("table", table);
    Require.nonNull("aggregator", aggregator);
    Require.nonNull("orders", orders);
    Require.openUnit("delta", delta);
    double[] curve = new double[orders.length];
    for (int q = 0; q < answers.size(); q++) {
      boolean labelled = answers.get(q) instanceof Answer.Labelled;
      for (int i = 0; i < orders.length; i++) {
        curve[i] += aggregator.dataDependentRdp(table.rows().get(q), labelled, orders[i]);
      }
    }
    double best = Double.POSITIVE_INFINITY;
    double bestOrder = Double.NaN;
    for (int i = 0; i < orders.length; i++) {
      Require.renyiOrder("orders[" + i + "]", orders[i]);
      double eps = curve[i] + Math.log(1 / delta) / (orders[i] - 1);
      if (eps < best) {
        best = eps;
        bestOrder = orders[i];
      }
    }
    return new DataDependent(RenyiDp.of(orders, curve), Math.nextUp(best), bestOrder, delta);
  }

  /**
   * The data-dependent RDP of a run: NOT a differential privacy guarantee (Papernot et al. 2018,
   * Section 3: it must itself be released privately, Section 4).
   *
   * @param rdp Σ over the processed queries of the per-query bound at each order λ
   * @param epsilon min over λ of rdp(λ) + log(1/δ)/(λ − 1), rounded up
   * @param order the λ attaining it
   * @param delta δ
   */
  public record DataDependent(RenyiDp rdp, double epsilon, double order, double delta) {}
}
