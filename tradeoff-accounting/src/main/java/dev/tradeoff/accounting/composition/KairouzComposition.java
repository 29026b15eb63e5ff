package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import java.util.List;
import java.util.Optional;

/**
 * The closed-form "general composition" of [KOV15]: Theorem 3.4 for k identical mechanisms, as
 * [DaRRM24, Theorem 2.3] states it, and Theorem 3.5 for heterogeneous sequences.
 *
 * <p>For (ε_l, δ_l)-DP mechanisms l = 1..k and a slack δ′ ∈ (0, 1), the adaptive composition is
 * (ε̃, 1 − (1 − δ′) Π(1 − δ_l))-DP with
 *
 * <pre>
 *   ε̃ = min{ Σε_l,
 *            Σ ε_l (e^{ε_l} − 1)/(e^{ε_l} + 1) + √(2 Σε_l² · log(e + √(Σε_l²) / δ′)),
 *            Σ ε_l (e^{ε_l} − 1)/(e^{ε_l} + 1) + √(2 Σε_l² · log(1 / δ′)) }
 * </pre>
 *
 * which for k identical (ε, δ) mechanisms is [DaRRM24, Theorem 2.3]: min{kε, (e^ε − 1)εk/(e^ε + 1) +
 * ε√(2k log(e + √(kε²)/δ′)), (e^ε − 1)εk/(e^ε + 1) + ε√(2k log(1/δ′))} with total δ 1 − (1 −
 * δ)^k(1 − δ′).
 *
 * <p>Numerics: (e^ε − 1)/(e^ε + 1) is evaluated as tanh(ε/2) and the total δ as −expm1(Σ
 * log1p(−δ_l) + log1p(−δ′)), so nothing cancels; ε̃ and δ are rounded up by a relative margin of a
 * few tens of units of roundoff (see {@code RoundoffMargin}).
 *
 * <p>The CLI's {@code --method kairouz --delta-slack D'} calls {@link #compose(ApproxDp, int,
 * double)}; {@code --method kairouz --delta D} calls {@link #profile(ApproxDp, int)} and asks its
 * {@code epsilon(D)}, which spends the slack optimally.
 */
public final class KairouzComposition {

  private KairouzComposition() {}

  /**
   * [DaRRM24, Theorem 2.3] ([KOV15, Theorem 3.4]): k-fold composition of one (ε, δ) guarantee with slack δ′.
   * Example: (0.2676, 0.0003), k = 20, δ′ = 1e-4 gives (5.352, 0.00608) [DaRRM24, Table 2].
   *
   * @param perMechanism the (ε, δ) of each mechanism
   * @param count k ≥ 1
   * @param deltaSlack δ′ in (0, 1)
   * @return (ε̃, 1 − (1 − δ)^k (1 − δ′)), both rounded up
   */
  public static ApproxDp compose(ApproxDp perMechanism, int count, double deltaSlack) {
    Require.nonNull("perMechanism", perMechanism);
    Require.positive("count", count);
    Require.openUnit("deltaSlack", deltaSlack);
    return compose(GuaranteeSequence.homogeneous(perMechanism, count), deltaSlack);
  }

  /**
   * [KOV15, Theorem 3.5]: composition of a heterogeneous sequence with slack δ′.
   *
   * @param guarantees the (ε_l, δ_l) of the mechanisms, in order
   * @param deltaSlack δ′ in (0, 1)
   */
  public static ApproxDp compose(List<ApproxDp> guarantees, double deltaSlack) {
    GuaranteeSequence sequence = GuaranteeSequence.of(guarantees);
    Require.openUnit("deltaSlack", deltaSlack);
    return compose(sequence, deltaSlack);
  }

  /**
   * [KOV15, Theorems 3.4/3.5] with slack δ′ for any event that reads as a sequence of (ε, δ) guarantees
   * (pure/approximate guarantees, Laplace, discrete Laplace, randomized response, and their
   * compositions): the paper's pair (ε̃, 1 − Π(1 − δ_l)(1 − δ′)), rounded up.
   *
   * @throws UnsupportedEventException if the event has no (ε, δ) reading (e.g. Gaussian noise)
   */
  public static ApproxDp compose(DpEvent event, double deltaSlack) {
    Require.nonNull("event", event);
    Require.openUnit("deltaSlack", deltaSlack);
    return compose(
        EventGuarantees.sequence(event, null).orThrow(AccountingMethod.KAIROUZ, event),
        deltaSlack);
  }

  /**
   * The privacy profile of k identical (ε, δ) mechanisms under [KOV15, Theorem 3.4] with the slack δ′
   * chosen optimally for every query: δ(ε′) is the smallest 1 − (1 − δ)^k(1 − δ′) over the δ′ whose
   * ε̃(δ′) ≤ ε′ (closed-form inversion of each term), with δ(ε′) = 1 − (1 − δ)^k for ε′ ≥ kε (the
   * first term holds without slack: [KOV15, Theorem 3.3] at i = 0), and 1 where no slack reaches ε′.
   * {@code epsilon(δ_total)} spends the largest slack the target allows, δ′ = 1 − (1 − δ_total)/(1 −
   * δ)^k, which minimizes ε̃ because every term is non-increasing in δ′.
   */
  public static PrivacyProfile profile(ApproxDp perMechanism, int count) {
    Require.nonNull("perMechanism", perMechanism);
    Require.positive("count", count);
    return new OptimalSlackProfile(GuaranteeSequence.homogeneous(perMechanism, count));
  }

  /** As {@link #profile(ApproxDp, int)} for a heterogeneous sequence [KOV15, Theorem 3.5]. */
  public static PrivacyProfile profile(List<ApproxDp> guarantees) {
    return new OptimalSlackProfile(GuaranteeSequence.of(guarantees));
  }

  /**
   * The profile that holds with one fixed slack δ′: it knows exactly two statements, (ε̃(δ′), 1 −
   * (1 − δ)^k(1 − δ′)) and (kε, 1 − (1 − δ)^k), and answers δ(ε′) = 1 below ε̃(δ′).
   */
  public static PrivacyProfile profile(ApproxDp perMechanism, int count, double deltaSlack) {
    Require.nonNull("perMechanism", perMechanism);
    Require.positive("count", count);
    Require.openUnit("deltaSlack", deltaSlack);
    return fixedSlackProfile(GuaranteeSequence.homogeneous(perMechanism, count), deltaSlack);
  }

  static PrivacyProfile optimalSlackProfile(GuaranteeSequence sequence) {
    return new OptimalSlackProfile(sequence);
  }

  static PrivacyProfile fixedSlackProfile(GuaranteeSequence sequence, double deltaSlack) {
    return new FixedSlackProfile(sequence, compose(sequence, deltaSlack));
  }

  static ApproxDp compose(GuaranteeSequence sequence, double deltaSlack) {
    double epsilon = epsilonTotal(sequence, deltaSlack);
    double delta = RoundoffMargin.failureFloorPlus(sequence.logNoFailure(), deltaSlack, 0);
    return new ApproxDp(epsilon, delta);
  }

  /** ε̃(δ′) of the theorem, rounded up; δ′ in (0, 1). */
  private static double epsilonTotal(GuaranteeSequence sequence, double deltaSlack) {
    double sumEpsilon = sequence.sumEpsilon();
    double sumSquares = sequence.sumEpsilonSquared();
    double mean = sequence.sumMeanLoss();
    double best = sumEpsilon;
    if (sumSquares > 0) {
      double logSlack = Math.log(deltaSlack);
      double logTerm = LogMath.logAddExp(1.0, 0.5 * Math.log(sumSquares) - logSlack);
      double second = mean + Math.sqrt(2 * sumSquares * logTerm);
      double third = mean + Math.sqrt(2 * sumSquares * -logSlack);
      best = Math.min(best, Math.min(second, third));
    }
    return RoundoffMargin.up(best, sequence.termCount() + 16);
  }

  /** The profile of Theorem 3.4/3.5 with the slack chosen per query. */
  private record OptimalSlackProfile(GuaranteeSequence sequence) implements PrivacyProfile {

    @Override
    public double delta(double epsilon) {
      Require.nonNegative("epsilon", epsilon);
      double logNoFailure = sequence.logNoFailure();
      double terms = sequence.termCount() + 8;
      if (epsilon >= RoundoffMargin.up(sequence.sumEpsilon(), sequence.termCount())) {
        return RoundoffMargin.failureFloor(logNoFailure);
      }
      double mean = sequence.sumMeanLoss();
      double sumSquares = sequence.sumEpsilonSquared();
      if (epsilon <= mean) {
        return 1;
      }
      double gap = epsilon - mean;
      double s = gap * gap / (2 * sumSquares);
      // Third term: ε′ = mean + √(2S log(1/δ′))  ⇔  δ′ = e^{−s}.
      double logSlack = -s;
      if (s > 1) {
        // Second term: log(e + √S/δ′) = s  ⇔  δ′ = √S / (e^s − e).
        logSlack = Math.min(logSlack, 0.5 * Math.log(sumSquares) - s - LogMath.log1mExp(1 - s));
      }
      // s carries a relative error of about u·(ε′ + mean)/(ε′ − mean); δ′ = e^{−s…} inherits it
      // multiplied by s. Rounding δ′ up keeps ε̃(δ′) ≤ ε′.
      double slackTerms = terms + 16 + s * (4 + 4 * (epsilon + mean) / gap);
      double slack = RoundoffMargin.up(Math.exp(logSlack), slackTerms);
      if (slack >= 1) {
        return 1;
      }
      return RoundoffMargin.failureFloorPlus(logNoFailure, slack, 0);
    }

    @Override
    public double epsilon(double delta) {
      Require.delta("delta", delta);
      double logNoFailure = sequence.logNoFailure();
      double logRemaining = Math.log1p(-delta);
      double x = logRemaining - logNoFailure; // log((1 − δ_total)/Π(1 − δ_l)) = log(1 − δ′)
      if (x > 0) {
        return Double.POSITIVE_INFINITY;
      }
      double sumEpsilon = RoundoffMargin.up(sequence.sumEpsilon(), sequence.termCount());
      if (x == 0) {
        return sumEpsilon;
      }
      double cancellation = (Math.abs(logRemaining) + Math.abs(logNoFailure)) / Math.abs(x);
      double slack = RoundoffMargin.down(-Math.expm1(x), sequence.termCount() + 8 + cancellation);
      if (!(slack > 0)) {
        return sumEpsilon;
      }
      return Math.min(sumEpsilon, epsilonTotal(sequence, Math.min(slack, Math.nextDown(1.0))));
    }
  }

  /** The two statements that hold with one fixed slack. */
  private record FixedSlackProfile(GuaranteeSequence sequence, ApproxDp withSlack)
      implements PrivacyProfile {

    @Override
    public double delta(double epsilon) {
      Require.nonNegative("epsilon", epsilon);
      if (epsilon >= RoundoffMargin.up(sequence.sumEpsilon(), sequence.termCount())) {
        return withoutSlackDelta();
      }
      return epsilon >= withSlack.epsilon() ? withSlack.delta() : 1;
    }

    @Override
    public double epsilon(double delta) {
      Require.delta("delta", delta);
      if (delta >= withSlack.delta()) {
        return withSlack.epsilon();
      }
      if (delta >= withoutSlackDelta()) {
        return RoundoffMargin.up(sequence.sumEpsilon(), sequence.termCount());
      }
      return Double.POSITIVE_INFINITY;
    }

    private double withoutSlackDelta() {
      return RoundoffMargin.failureFloor(sequence.logNoFailure());
    }
  }
}
