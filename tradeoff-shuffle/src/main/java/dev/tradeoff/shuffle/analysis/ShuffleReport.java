package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.fdp.GaussianTradeoff;
import dev.tradeoff.accounting.fdp.PiecewiseLinearTradeoff;
import dev.tradeoff.accounting.fdp.TensorProduct;
import dev.tradeoff.accounting.fdp.TradeoffBound;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.util.OptionalDouble;

/**
 * Everything Tradeoff says about the privacy of P^{0/1}_{n,λ} (bits = 1) or P^R_{n,λ,r}: the
 * paper's claim [ShuffleGDP21, Theorems 2–3, Corollaries 3.2–3.3] checked against the exact
 * analysis ({@link ExactShuffleAnalysis}), the exact guarantee, the Cheu et al. (2019) bound
 * (Claim C.1, {@link CheuBound}) and the generic amplification bound of Feldman, McMillan and
 * Talwar (2021) for the local ε₀. The guarantee to rely on is {@link #exact()}: it never claims
 * more than the exact analysis; the paper's numbers are reported with a verdict.
 *
 * @param parameters n and λ
 * @param bits r (1 for the binary protocol)
 * @param delta the δ at which ε values are reported
 * @param paper the paper's claim and whether the exact analysis confirms it
 * @param exact the guarantee from the exact analysis
 * @param cheuEpsilon Claim C.1 at this δ (basic composition over r bits at δ/r each); empty where
 *     the claim does not apply
 * @param amplificationEpsilon Feldman–McMillan–Talwar numerical bound for an (r·ε₀)-LDP
 *     randomizer at this δ; empty when n·e^{−rε₀} is too small for it to give ε &lt; r·ε₀
 * @param localEpsilon ε₀ = ln((2n − λ)/λ) of one message (local DP, no shuffling)
 */
public record ShuffleReport(
    ShuffleParameters parameters,
    int bits,
    double delta,
    Paper paper,
    Exact exact,
    OptionalDouble cheuEpsilon,
    OptionalDouble amplificationEpsilon,
    double localEpsilon) {

  /** Tolerance (absolute, on β) when comparing the paper's curve with the exact one. */
  public static final double COMPARISON_TOLERANCE = 1e-13;

  /**
   * The paper's claim.
   *
   * @param mu √r·μ*_λ (Corollaries 3.2 and 3.3; convention in {@link PaperTradeoff})
   * @param tradeoff for r = 1 the corners (α, f(α)) of Theorem 2's step function, starting at
   *     (0, f(0)); for r &gt; 1 the vertices of Theorem 3's f^{⊗r} (of the convex minorant of f,
   *     {@link PaperTradeoff#composed})
   * @param validLowerBound true when the exact analysis confirms the claimed curve: for r = 1,
   *     f ≤ T at every corner; for r &gt; 1, f^{⊗r} ≤ T at the vertices of both (or, when only the
   *     GDP composition of the exact analysis is available, G_{√r μ*} ≤ it)
   * @param muValid true when G_μ with the paper's μ lies below the exact curve
   * @param maxExcess the largest amount (in β) by which the claimed curve exceeds the exact one (≤ 0
   *     when valid)
   */
  public record Paper(double mu, double[][] tradeoff, boolean validLowerBound, boolean muValid,
      double maxExcess) {}

  /**
   * The exact guarantee.
   *
   * @param method "exact" (the worst-case optimal trade-off of the protocol's whole output) or
   *     "gdp-composition" (r-fold composition of the exact one-bit curve through GDP, μ_1·√r, when
   *     the exact r-bit analysis is too large)
   * @param mu for r = 1 the smallest μ with G_μ below the exact curve; for r &gt; 1 the smaller of
   *     that and √r·μ_1 (per-bit composition of the exact one-bit curve, Theorem 1 and
   *     G_μ^{⊗r} = G_{μ√r}; the count of all messages is a post-processing of the per-bit counts),
   *     both valid; rounded up
   * @param epsilon the smallest ε with δ(ε) ≤ delta on the exact curve (rounded up)
   * @param delta the requested δ
   * @param tradeoff vertices (α, β) of the exact curve reduced to at most
   *     {@link #DISPLAYED_SEGMENTS} segments by supporting lines (never above the exact curve), or
   *     points of G_μ for "gdp-composition"
   * @param tradeoffGap how far the displayed curve may lie below the exact one (0 when unreduced)
   * @param curve the exact curve when method is "exact", else null
   */
  public record Exact(String method, double mu, double epsilon, double delta, double[][] tradeoff,
      double tradeoffGap, PowerCurve curve) {}

  /** Largest number of segments of the reported exact curve. */
  public static final int DISPLAYED_SEGMENTS = 400;

  /** Computes the report. */
  public static ShuffleReport of(ShuffleParameters parameters, int bits, double delta) {
    Require.nonNull("parameters", parameters);
    Require.positive("bits", bits);
    Require.openUnit("delta", delta);
    Exact exact = exact(parameters, bits, delta);
    Paper paper = paper(parameters, bits, exact);
    double eps0 = parameters.localEpsilon();
    OptionalDouble cheu = CheuBound.protocolEpsilon(parameters, delta / bits);
    OptionalDouble cheuTotal = cheu.isPresent() ? OptionalDouble.of(bits * cheu.getAsDouble())
        : OptionalDouble.empty();
    double fmt = new FeldmanMcMillanTalwar(parameters.users(), bits * eps0).epsilon(delta);
    OptionalDouble amplification = Double.isFinite(fmt) && fmt < bits * eps0
        ? OptionalDouble.of(fmt) : OptionalDouble.empty();
    return new ShuffleReport(parameters, bits, delta, paper, exact, cheuTotal, amplification,
        eps0);
  }

  private static Exact exact(ShuffleParameters parameters, int bits, double delta) {
    if (bits == 1
        || ExactShuffleAnalysis.estimatedOperations(parameters, bits)
            <= ExactShuffleAnalysis.MAX_OPERATIONS) {
      PowerCurve curve = ExactShuffleAnalysis.worstCase(parameters, bits);
      double mu = curve.gaussianMu();
      if (bits > 1) {
        mu = Math.min(mu, composedMu(parameters, bits));
      }
      TradeoffBound shown = TensorProduct.reduce(curve.tradeoff(), DISPLAYED_SEGMENTS);
      return new Exact("exact", mu, curve.epsilon(delta), delta, vertices(shown.lower()),
          shown.gap(), curve);
    }
    double mu = composedMu(parameters, bits);
    GaussianTradeoff g = new GaussianTradeoff(mu);
    return new Exact("gdp-composition", mu, g.profile().epsilon(delta), delta,
        gaussianPoints(mu), 0, null);
  }

  private static double composedMu(ShuffleParameters parameters, int bits) {
    double mu1 = ExactShuffleAnalysis.worstCase(parameters, 1).gaussianMu();
    return Math.nextUp(Math.sqrt(bits) * mu1);
  }

  static double[][] vertices(PiecewiseLinearTradeoff f) {
    double[][] out = new double[f.vertexCount()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = new double[] {f.vertexAlpha(i), f.vertexBeta(i)};
    }
    return out;
  }

  private static Paper paper(ShuffleParameters parameters, int bits, Exact exact) {
    PaperTradeoff paper = new PaperTradeoff(parameters);
    double mu = paper.mu(bits);
    boolean muValid = mu >= exact.mu() - PowerCurve.MU_MARGIN;
    if (bits > 1) {
      PiecewiseLinearTradeoff composed = paper.composed(bits).lower();
      if (exact.curve() == null) {
        return new Paper(mu, vertices(composed), muValid, muValid, Double.NaN);
      }
      double excess = composed.maxExcessOver(exact.curve().tradeoff());
      return new Paper(mu, vertices(composed), excess <= COMPARISON_TOLERANCE, muValid, excess);
    }
    CompoundBinomial c = paper.compoundBinomial();
    int n = parameters.users();
    double[][] corners = new double[n + 1][];
    corners[0] = new double[] {0, c.survival(1)};
    double maxExcess = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      double alpha = c.cdf(k);
      corners[k + 1] = new double[] {alpha, c.survival(k + 1)};
      // f ≤ T  ⇔  power of the paper F(k+1) ≥ exact power γ(F(k)).
      maxExcess = Math.max(maxExcess, exact.curve().power(alpha) - c.cdf(k + 1));
    }
    return new Paper(mu, corners, maxExcess <= COMPARISON_TOLERANCE, muValid, maxExcess);
  }

  /** Points (α, G_μ(α)) on a grid dense near 0, for reporting and plotting. */
  public static double[][] gaussianPoints(double mu) {
    GaussianTradeoff g = new GaussianTradeoff(mu);
    int m = 201;
    double[][] out = new double[m][];
    for (int i = 0; i < m; i++) {
      double alpha = Math.pow((double) i / (m - 1), 2);
      out[i] = new double[] {alpha, g.beta(alpha)};
    }
    return out;
  }
}
