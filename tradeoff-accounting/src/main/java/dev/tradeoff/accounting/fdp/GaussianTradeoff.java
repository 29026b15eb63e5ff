package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.TradeoffFunction;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.StandardNormal;
import org.apache.commons.numbers.gamma.Erfcx;

/**
 * The Gaussian trade-off function G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) = T(N(0, 1), N(μ, 1)) (Dong, Roth
 * and Su 2022, Section 2.3; [ShuffleGDP21, Definition 2.4]). It is symmetric (G_μ⁻¹ = G_μ).
 *
 * <p>Evaluation uses Φ⁻¹(1 − α) = {@link StandardNormal#inverseSurvival(double)} without forming
 * 1 − α and Φ with full relative precision in the lower tail, so G_μ(α) is accurate for α as
 * small as 1e-300 and for β = G_μ(α) down to the subnormal range.
 *
 * @param mu μ ≥ 0 and finite
 */
public record GaussianTradeoff(double mu) implements TradeoffFunction {

  private static final double SQRT2 = Math.sqrt(2);
  private static final double LOG2 = Math.log(2);

  public GaussianTradeoff {
    Require.nonNegative("mu", mu);
  }

  /** μ-GDP → G_μ ([ShuffleGDP21, Definition 2.4]: μ-GDP means G_μ-DP). */
  public static GaussianTradeoff of(GaussianDp guarantee) {
    Require.nonNull("guarantee", guarantee);
    return new GaussianTradeoff(guarantee.mu());
  }

  /** The μ-GDP guarantee this curve expresses. */
  public GaussianDp toGaussianDp() {
    return new GaussianDp(mu);
  }

  @Override
  public double beta(double alpha) {
    Require.probability("alpha", alpha);
    if (alpha == 0) {
      return 1;
    }
    if (alpha == 1) {
      return 0;
    }
    return StandardNormal.cdf(StandardNormal.inverseSurvival(alpha) - mu);
  }

  /** G_μ⁻¹ = G_μ: the Gaussian trade-off function is symmetric. */
  public GaussianTradeoff inverse() {
    return this;
  }

  /**
   * G_μ ⊗ G_ν = G_√(μ²+ν²) (Dong, Roth and Su 2022, Corollary 3.3), exact; the root is rounded up
   * by one ulp so the result never claims more privacy than the exact composition.
   */
  public GaussianTradeoff compose(GaussianTradeoff other) {
    Require.nonNull("other", other);
    double m = Math.hypot(mu, other.mu);
    return new GaussianTradeoff(m == 0 ? 0 : Math.nextUp(m));
  }

  /**
   * The privacy profile of μ-GDP, δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Dong, Roth and Su
   * 2022, Section 2.4; [ShuffleGDP21, Corollary 2.5]), which is 1 + G_μ*(−e^ε) (Proposition
   * 2.12).
   *
   * <p>Computed without cancellation: with t₋ = ε/μ − μ/2 and t₊ = ε/μ + μ/2 one has t₊² − t₋² =
   * 2ε, so δ = ½ e^{−t₋²/2} (erfcx(t₋/√2) − erfcx(t₊/√2)) where erfcx(z) = e^{z²} erfc(z); the
   * factor e^ε cancels exactly and the result keeps about 1e-14 relative precision wherever it is
   * representable (for t₋ &lt; −30, where erfcx would overflow, δ is within 1e-190 of 1 and the
   * direct formula is used).
   */
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    if (mu == 0) {
      return 0;
    }
    double tMinus = epsilon / mu - mu / 2;
    double tPlus = epsilon / mu + mu / 2;
    if (tMinus < -30) {
      return StandardNormal.cdf(-tMinus) - Math.exp(epsilon) * StandardNormal.cdf(-tPlus);
    }
    double diff = Erfcx.value(tMinus / SQRT2) - Erfcx.value(tPlus / SQRT2);
    if (!(diff > 0)) {
      return 0;
    }
    return Math.exp(-tMinus * tMinus / 2 - LOG2 + Math.log(diff));
  }

  /** δ(ε) as a {@link PrivacyProfile}; see {@link #delta(double)}. */
  public PrivacyProfile profile() {
    return this::delta;
  }

  /**
   * A piecewise-linear lower bound on G_μ with its certified gap: the upper envelope of
   * {@code tangents} tangent lines, whose likelihood ratios e^{μt − μ²/2} are equally spaced in
   * log scale (thresholds t of the Neyman–Pearson tests "reject when x &gt; t"). Tangents of a
   * convex function lie below it, so the envelope is a valid lower bound (safe); the gap
   * sup(G_μ − envelope) is attained at a vertex of the envelope (G_μ minus a line is convex on each
   * piece) and is computed there. It shrinks like the square of the spacing: about 1.1e-4 for
   * μ = 1 and 400 tangents, 7e-6 for 1600 tangents; 1.7e-3 for μ = 8 and 400 tangents.
   *
   * @param tangents number of tangent lines, ≥ 2
   */
  public TradeoffBound lowerPiecewiseLinear(int tangents) {
    Require.that(tangents >= 2, "tangents", "must be >= 2", tangents);
    if (mu == 0) {
      return TradeoffBound.exact(PiecewiseLinearTradeoff.identity());
    }
    // Thresholds from t = −9 (α = 1 − 1e-19 rounds to 1) to t = μ + 9 (β = 1 − 1e-19 rounds to
    // 1, so the envelope starts exactly at (0, 1)), capped where the slope would overflow.
    double lo = Math.max(-9, mu / 2 - 700 / mu);
    double hi = Math.min(9 + mu, mu / 2 + 700 / mu);
    double[] slopes = new double[tangents];
    double[] intercepts = new double[tangents];
    for (int k = 0; k < tangents; k++) {
      double t = lo + (hi - lo) * k / (tangents - 1);
      double alpha = StandardNormal.survival(t);
      double beta = StandardNormal.cdf(t - mu);
      double slope = -Math.exp(mu * t - mu * mu / 2);
      slopes[k] = slope;
      intercepts[k] = beta - slope * alpha;
    }
    PiecewiseLinearTradeoff lower = Tradeoffs.upperEnvelopeOfLines(slopes, intercepts);
    double gap = 0;
    for (int i = 0; i < lower.vertexCount(); i++) {
      gap = Math.max(gap, beta(lower.vertexAlpha(i)) - lower.vertexBeta(i));
    }
    return new TradeoffBound(lower, gap);
  }

  /**
   * True when G_μ ≤ curve everywhere on [0, 1], i.e. a mechanism with trade-off curve {@code curve}
   * is μ-GDP. Exact (up to the rounding of Φ) by checking the vertices only: on each segment the
   * curve is linear and G_μ is convex, so G_μ lies below its chord there, and the chord lies below
   * the segment as soon as both endpoints do.
   */
  public boolean isBelow(PiecewiseLinearTradeoff curve) {
    Require.nonNull("curve", curve);
    for (int i = 0; i < curve.vertexCount(); i++) {
      if (beta(curve.vertexAlpha(i)) > curve.vertexBeta(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The smallest μ such that G_μ ≤ curve everywhere (so a mechanism with trade-off curve
   * {@code curve} is μ-GDP); +∞ if there is none (curve(0) &lt; 1, or curve(α) = 0 for some
   * α &lt; 1). [ShuffleGDP21, Section 3]: μ = max_α Φ⁻¹(1 − α) − Φ⁻¹(curve(α)). Because G_μ is
   * convex and the curve linear between vertices (see {@link #isBelow}), the maximum over α is
   * attained at a vertex, so μ = max_i Φ⁻¹(1 − α_i) − Φ⁻¹(β_i) exactly. The value is then certified
   * with {@link #isBelow} and rounded up ulp by ulp until the check passes (safe direction).
   */
  public static double smallestMuBelow(PiecewiseLinearTradeoff curve) {
    Require.nonNull("curve", curve);
    if (curve.vertexBeta(0) < 1) {
      return Double.POSITIVE_INFINITY;
    }
    double mu = 0;
    for (int i = 1; i < curve.vertexCount() - 1; i++) {
      double b = curve.vertexBeta(i);
      if (b == 0) {
        return Double.POSITIVE_INFINITY;
      }
      double need =
          StandardNormal.inverseSurvival(curve.vertexAlpha(i)) - StandardNormal.inverseCdf(b);
      mu = Math.max(mu, need);
    }
    double step = Math.ulp(Math.max(mu, Double.MIN_NORMAL));
    for (int i = 0; i < 200 && !new GaussianTradeoff(mu).isBelow(curve); i++) {
      mu += step;
      step *= 2;
    }
    if (!new GaussianTradeoff(mu).isBelow(curve)) {
      throw new IllegalStateException("could not certify mu = " + mu + " for " + curve);
    }
    return mu;
  }
}
