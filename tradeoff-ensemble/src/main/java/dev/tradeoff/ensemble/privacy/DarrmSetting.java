package dev.tradeoff.ensemble.privacy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;

/**
 * The setting of DaRRM's Problem 1.1 [DaRRM24]: K teachers, each (ε,
 * Δ)-DP, whose private majority must be (m ε, δ)-DP for a privacy allowance m ∈ [1, K] (a real
 * number: general composition gives non-integer m, Appendix D.1.1) and δ ≥ Δ.
 *
 * @param teachers odd K ≥ 1
 * @param teacher (ε, Δ) of each teacher, ε &gt; 0
 * @param allowance m ∈ [1, K]
 * @param delta target δ ∈ [Δ, 1)
 */
public record DarrmSetting(int teachers, ApproxDp teacher, double allowance, double delta) {

  public DarrmSetting {
    Require.positive("K (teachers)", teachers);
    Require.that(teachers % 2 == 1, "K (teachers)", "must be odd", teachers);
    Require.nonNull("teacher guarantee", teacher);
    Require.positive("epsilon", teacher.epsilon());
    Require.inClosedRange("m", allowance, 1, teachers);
    Require.delta("delta", delta);
    Require.that(delta >= teacher.delta(), "delta", "must be >= the teacher delta "
        + teacher.delta(), delta);
  }

  /**
   * The setting with DaRRM's default target δ = 1 − (1 − Δ)^m (Section 6.1; m-fold general
   * composition without slack), computed as −expm1(m log1p(−Δ)) and rounded up.
   */
  public static DarrmSetting withDefaultDelta(int teachers, double epsilon, double teacherDelta,
      double allowance) {
    Require.delta("teacher delta", teacherDelta);
    Require.inClosedRange("m", allowance, 1, Math.max(1, teachers));
    return new DarrmSetting(teachers, new ApproxDp(Require.positive("epsilon", epsilon),
        teacherDelta), allowance, defaultDelta(teacherDelta, allowance));
  }

  /** δ = 1 − (1 − Δ)^m, rounded up (0 when Δ = 0). */
  public static double defaultDelta(double teacherDelta, double allowance) {
    if (teacherDelta == 0) {
      return 0;
    }
    double d = -Math.expm1(allowance * Math.log1p(-teacherDelta));
    return Math.min(Math.nextDown(1.0), Math.max(teacherDelta, Math.nextUp(d)));
  }

  /** Per-teacher ε. */
  public double epsilon() {
    return teacher.epsilon();
  }

  /** Per-teacher Δ. */
  public double teacherDelta() {
    return teacher.delta();
  }

  /** e^{mε}, the likelihood-ratio bound of the target guarantee. */
  public double expTarget() {
    return Math.exp(allowance * teacher.epsilon());
  }

  /** The right-hand side of Lemma 3.4: e^{mε} − 1 + 2δ. */
  public double privacyBound() {
    return Math.expm1(allowance * teacher.epsilon()) + 2 * delta;
  }

  /** The target guarantee (m ε, δ). */
  public ApproxDp target() {
    return new ApproxDp(allowance * teacher.epsilon(), delta);
  }
}
