package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.util.OptionalDouble;

/**
 * Everything Tradeoff says about the privacy of P^{0/1}_{n,λ} (bits = 1) or P^R_{n,λ,r}: the
 * paper's claim (Chen and Long, Theorems 2–3, Corollaries 3.2–3.3) checked against the exact
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
   *     (0, f(0)); for r &gt; 1 points of G_{√r μ*} (Corollary 3.3)
   * @param validLowerBound true when the exact analysis confirms the claimed curve: for r = 1,
   *     f ≤ T at every corner; for r &gt; 1, G_{√r μ*} ≤ T
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
   * @param mu the smallest μ with G_μ below the exact curve (rounded up)
   * @param epsilon the smallest ε with δ(ε) ≤ delta (rounded up)
   * @param delta the requested δ
   * @param tradeoff vertices (α, β) of the exact curve, or points of G_μ for "gdp-composition"
   * @param curve the exact curve when method is "exact"
   */
  public record Exact(String method, double mu, double epsilon, double delta, double[][] tradeoff,
      PowerCurve curve) {}

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
      double[] a = curve.alphas();
      double[] g = curve.powers();
      double[][] points = new double[a.length][];
      for (int i = 0; i < a.length; i++) {
        points[i] = new double[] {a[i], 1 - g[i]};
      }
      return new Exact("exact", curve.gaussianMu(), curve.epsilon(delta), delta, points, curve);
    }
    double mu = Math.sqrt(bits) * ExactShuffleAnalysis.worstCase(parameters, 1).gaussianMu();
    return new Exact("gdp-composition", mu, new GaussianDpProfile(mu).epsilon(delta), delta,
        gaussianPoints(mu), null);
  }

  private static Paper paper(ShuffleParameters parameters, int bits, Exact exact) {
    PaperTradeoff paper = new PaperTradeoff(parameters);
    double mu = paper.mu(bits);
    boolean muValid = mu >= exact.mu() - PowerCurve.MU_MARGIN;
    if (bits > 1) {
      return new Paper(mu, gaussianPoints(mu), muValid, muValid, Double.NaN);
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
  static double[][] gaussianPoints(double mu) {
    int m = 101;
    double[][] out = new double[m][];
    for (int i = 0; i < m; i++) {
      double alpha = i == 0 ? 0 : i == m - 1 ? 1 : Math.pow((double) i / (m - 1), 2);
      double beta = alpha == 0 ? 1 : alpha == 1 ? 0
          : StandardNormal.cdf(StandardNormal.inverseSurvival(alpha) - mu);
      out[i] = new double[] {alpha, beta};
    }
    return out;
  }
}
