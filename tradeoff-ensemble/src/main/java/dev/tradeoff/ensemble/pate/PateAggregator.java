package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.ensemble.gnmax.GnMax;
import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The aggregators of Papernot, Song, Mironov, Raghunathan, Talwar and Erlingsson, <i>Scalable
 * private learning with PATE</i> (ICLR 2018) over one query's vote histogram, each with the
 * Gaussian events its release is a post-processing of.
 *
 * <p>Sensitivities, under the relation of {@link VoteTable} (one teacher's vote changes from class
 * a to class b): the count vector (n_1, …, n_C) changes by −1 in coordinate a and +1 in b, so its
 * L2 sensitivity is √2 and GNMax, the argmax of (n_j + N(0, σ₂²))_j, is post-processing of a
 * Gaussian mechanism with noise σ₂/√2 per unit sensitivity: (λ, λ/σ₂²)-RDP (Proposition 8),
 * exactly (√2/σ₂)-GDP. The threshold check's input max_j n_j changes by at most 1 (each count
 * moves by at most 1, and a maximum of coordinates moved by at most 1 moves by at most 1), so the
 * check is a Gaussian mechanism of sensitivity 1: (λ, λ/(2σ₁²))-RDP, (1/σ₁)-GDP.
 *
 * <p>Aggregators are immutable values, serializable so that a Beam pipeline ships them to its
 * workers.
 */
public sealed interface PateAggregator extends Serializable {

  /** One query's release, drawing noise from {@code random}. */
  Answer answer(Votes votes, RandomGenerator random);

  /** σ₂, the noise of the GNMax step. */
  double sigma2();

  /** The event of the threshold check, run on every query; empty when there is none. */
  Optional<DpEvent> checkEvent();

  /** The event of the GNMax step, run on every answered query: noise σ₂/√2 per unit sensitivity. */
  DpEvent answerEvent();

  /** μ² of one threshold check (0 when there is none): (1/σ₁)². */
  double checkMuSquared();

  /** μ² of one GNMax step: (√2/σ₂)². */
  double answerMuSquared();

  /**
   * The data-dependent RDP of this query's release at order λ (Papernot et al. 2018, Theorem 6
   * with Proposition 7 for GNMax; the threshold check by Theorem 6 with q = min(Pr[answer],
   * Pr[abstain])). NOT a differential privacy guarantee: it depends on the votes, so releasing it
   * (or anything computed from it) leaks; only a private release of it (Section 4) may be charged.
   *
   * @param votes the query's votes
   * @param answered whether the query was answered (GNMax ran)
   * @param lambda the order λ &gt; 1
   */
  double dataDependentRdp(Votes votes, boolean answered, double lambda);

  /**
   * The data-dependent RDP at order λ of a threshold check v + N(0, σ₁²) ≥ T whose input v has
   * sensitivity 1 (Papernot et al. 2018, Theorem 6 with σ replaced by √2·σ₁ and q =
   * min(Pr[answer], Pr[abstain]), Pr[answer] = Φ((v − T)/σ₁)). NOT a differential privacy
   * guarantee: it depends on v.
   */
  static double checkRdp(double value, double threshold, double sigma1, double lambda) {
    double logAnswered = StandardNormal.logCdf((value - threshold) / sigma1);
    double logQ = Math.min(logAnswered, LogMath.log1mExp(logAnswered));
    return GnMax.theorem6(logQ, Math.sqrt(2) * sigma1, lambda);
  }

  /** GNMax (Section 4.1): argmax_j {n_j + N(0, σ₂²)} on every query. */
  record Gnmax(double sigma2) implements PateAggregator {

    public Gnmax {
      Require.positive("sigma2", sigma2);
      Require.finite("sigma2", sigma2);
    }

    @Override
    public Answer answer(Votes votes, RandomGenerator random) {
      return new Answer.Labelled(GnMax.noisyArgmax(votes.counts(), sigma2, random));
    }

    @Override
    public Optional<DpEvent> checkEvent() {
      return Optional.empty();
    }

    @Override
    public DpEvent answerEvent() {
      return new GaussianEvent(sigma2 / Math.sqrt(2));
    }

    @Override
    public double checkMuSquared() {
      return 0;
    }

    @Override
    public double answerMuSquared() {
      return 2 / (sigma2 * sigma2);
    }

    @Override
    public double dataDependentRdp(Votes votes, boolean answered, double lambda) {
      return answered ? GnMax.theorem6(GnMax.logQ(votes.counts(), sigma2), sigma2, lambda) : 0;
    }
  }

  /**
   * Confident-GNMax (Algorithm 1): if max_j n_j + N(0, σ₁²) ≥ T, release argmax_j {n_j + N(0,
   * σ₂²)}; otherwise abstain. The two noises are independent.
   *
   * @param threshold T (finite)
   * @param sigma1 σ₁ &gt; 0, the threshold check's noise
   * @param sigma2 σ₂ &gt; 0, GNMax's noise
   */
  record ConfidentGnmax(double threshold, double sigma1, double sigma2) implements PateAggregator {

    public ConfidentGnmax {
      Require.finite("threshold", threshold);
      Require.positive("sigma1", sigma1);
      Require.finite("sigma1", sigma1);
      Require.positive("sigma2", sigma2);
      Require.finite("sigma2", sigma2);
    }

    @Override
    public Answer answer(Votes votes, RandomGenerator random) {
      Require.nonNull("votes", votes);
      Require.nonNull("random", random);
      if (votes.maxCount() + sigma1 * random.nextGaussian() < threshold) {
        return new Answer.Abstained();
      }
      return new Answer.Labelled(GnMax.noisyArgmax(votes.counts(), sigma2, random));
    }

    @Override
    public Optional<DpEvent> checkEvent() {
      return Optional.of(new GaussianEvent(sigma1));
    }

    @Override
    public DpEvent answerEvent() {
      return new GaussianEvent(sigma2 / Math.sqrt(2));
    }

    @Override
    public double checkMuSquared() {
      return 1 / (sigma1 * sigma1);
    }

    @Override
    public double answerMuSquared() {
      return 2 / (sigma2 * sigma2);
    }

    /** log Pr[max_j n_j + N(0, σ₁²) ≥ T]. */
    public double logProbabilityAnswered(Votes votes) {
      return StandardNormal.logCdf((votes.maxCount() - threshold) / sigma1);
    }

    @Override
    public double dataDependentRdp(Votes votes, boolean answered, double lambda) {
      double check = checkRdp(votes.maxCount(), threshold, sigma1, lambda);
      return answered
          ? check + GnMax.theorem6(GnMax.logQ(votes.counts(), sigma2), sigma2, lambda)
          : check;
    }
  }

  /**
   * Interactive-GNMax (Papernot et al. 2018, Algorithm 2), for a student whose class probabilities
   * p(x) on each query are given: if max_j {n_j − K·p_j} + N(0, σ₁²) ≥ T (the teachers disagree
   * with the student), release GNMax's argmax_j {n_j + N(0, σ₂²)}; otherwise, if max_j p_j ≥ γ,
   * release the student's argmax_j p_j ({@link Answer.Reinforced}); otherwise abstain.
   *
   * <p>The student's predictions are public here: a model trained on public data and on labels
   * already released privately, so its outputs are post-processing. Then n_j − K·p_j moves by at
   * most 1 in each coordinate when one teacher's vote moves, and so does its maximum: the check is
   * the same Gaussian mechanism of sensitivity 1 as Confident-GNMax's, (1/σ₁)-GDP, and the GNMax
   * step the same (√2/σ₂)-GDP; the reinforcing branch reads no vote. The data-independent
   * accounting is Confident-GNMax's.
   *
   * @param threshold T (finite)
   * @param sigma1 σ₁ &gt; 0
   * @param sigma2 σ₂ &gt; 0
   * @param studentConfidence γ in [0, 1]: the student's probability above which its own class is
   *     released
   * @param student query id → the student's class probabilities (C entries in [0, 1] summing to 1
   *     within 1e-6; copied)
   */
  record InteractiveGnmax(double threshold, double sigma1, double sigma2,
      double studentConfidence, Map<String, double[]> student)
      implements PateAggregator {

    public InteractiveGnmax {
      Require.finite("threshold", threshold);
      Require.positive("sigma1", sigma1);
      Require.finite("sigma1", sigma1);
      Require.positive("sigma2", sigma2);
      Require.finite("sigma2", sigma2);
      Require.probability("studentConfidence", studentConfidence);
      Require.nonNull("student", student);
      Map<String, double[]> copy = new HashMap<>();
      for (Map.Entry<String, double[]> e : student.entrySet()) {
        copy.put(e.getKey(), checkedPrediction(e.getKey(), e.getValue()));
      }
      student = Collections.unmodifiableMap(copy);
    }

    /**
     * Interactive-GNMax whose student predictions come with each query instead ({@link
     * #answer(Votes, double[], RandomGenerator)}): a Beam pipeline joins them to the votes by query
     * id rather than holding them all in the aggregator.
     */
    public static InteractiveGnmax withPredictionsPerQuery(double threshold, double sigma1,
        double sigma2, double studentConfidence) {
      return new InteractiveGnmax(threshold, sigma1, sigma2, studentConfidence, Map.of());
    }

    /** A copy of {@code p} checked: C ≥ 2 probabilities summing to 1 within 1e-6. */
    private static double[] checkedPrediction(String id, double[] p) {
      double[] copy = Require.nonNull("student prediction of " + id, p).clone();
      Require.that(copy.length >= 2, "classes of the student prediction of " + id,
          "must be >= 2", copy.length);
      double sum = 0;
      for (int j = 0; j < copy.length; j++) {
        Require.probability("student probability of class " + j + " for " + id, copy[j]);
        sum += copy[j];
      }
      Require.that(Math.abs(sum - 1) <= 1e-6, "student probabilities of " + id,
          "must sum to 1 within 1e-6", sum);
      return copy;
    }

    /** The student's probabilities for {@code votes}' query (a copy), checked against C. */
    public double[] prediction(Votes votes) {
      double[] p = student.get(votes.id());
      Require.that(p != null, "student prediction", "must be given for every query", votes.id());
      return matching(votes, p);
    }

    /** {@code p} checked as the prediction for {@code votes}' query and its C classes (a copy). */
    private static double[] matching(Votes votes, double[] p) {
      double[] copy = checkedPrediction(votes.id(), p);
      Require.that(copy.length == votes.classes(), "classes of the student prediction of "
          + votes.id(), "must equal the votes' " + votes.classes(), copy.length);
      return copy;
    }

    /** max_j {n_j − K·p_j}: the check's input. */
    public double disagreement(Votes votes) {
      return disagreement(votes, prediction(votes));
    }

    /** max_j {n_j − K·p_j} for the given prediction p of {@code votes}' query. */
    public static double disagreement(Votes votes, double[] prediction) {
      double[] p = matching(votes, prediction);
      long k = votes.teachers();
      double max = Double.NEGATIVE_INFINITY;
      for (int j = 0; j < p.length; j++) {
        max = Math.max(max, votes.count(j) - k * p[j]);
      }
      return max;
    }

    @Override
    public Answer answer(Votes votes, RandomGenerator random) {
      Require.nonNull("votes", votes);
      return answer(votes, prediction(votes), random);
    }

    /** One query's release with the student's prediction p for it given. */
    public Answer answer(Votes votes, double[] prediction, RandomGenerator random) {
      Require.nonNull("votes", votes);
      Require.nonNull("random", random);
      double[] p = matching(votes, prediction);
      if (disagreement(votes, p) + sigma1 * random.nextGaussian() >= threshold) {
        return new Answer.Labelled(GnMax.noisyArgmax(votes.counts(), sigma2, random));
      }
      int best = 0;
      for (int j = 1; j < p.length; j++) {
        best = p[j] > p[best] ? j : best;
      }
      return p[best] >= studentConfidence ? new Answer.Reinforced(best) : new Answer.Abstained();
    }

    /** Confident-GNMax with the same T, σ₁, σ₂: the same check and GNMax events. */
    private ConfidentGnmax sameEvents() {
      return new ConfidentGnmax(threshold, sigma1, sigma2);
    }

    @Override
    public Optional<DpEvent> checkEvent() {
      return sameEvents().checkEvent();
    }

    @Override
    public DpEvent answerEvent() {
      return sameEvents().answerEvent();
    }

    @Override
    public double checkMuSquared() {
      return sameEvents().checkMuSquared();
    }

    @Override
    public double answerMuSquared() {
      return sameEvents().answerMuSquared();
    }

    /**
     * The check at v = max_j {n_j − K·p_j} ({@link PateAggregator#checkRdp}, with the exact v,
     * where TensorFlow Privacy's {@code compute_logpr_answered} rounds it to an integer) plus,
     * when the teachers answered, GNMax's Theorem 6 with Proposition 7.
     */
    @Override
    public double dataDependentRdp(Votes votes, boolean answered, double lambda) {
      return dataDependentRdp(votes, prediction(votes), answered, lambda);
    }

    /** {@link #dataDependentRdp(Votes, boolean, double)} with the student's prediction given. */
    public double dataDependentRdp(Votes votes, double[] prediction, boolean answered,
        double lambda) {
      double check = checkRdp(disagreement(votes, prediction), threshold, sigma1, lambda);
      return answered
          ? check + GnMax.theorem6(GnMax.logQ(votes.counts(), sigma2), sigma2, lambda)
          : check;
    }
  }
}
