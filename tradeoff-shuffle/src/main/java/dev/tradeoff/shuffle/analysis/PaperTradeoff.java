package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.fdp.PiecewiseLinearTradeoff;
import dev.tradeoff.accounting.fdp.TensorProduct;
import dev.tradeoff.accounting.fdp.TradeoffBound;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;

/**
 * The trade-off function claimed by [ShuffleGDP21, Theorem 2] for P^{0/1}_{n,λ},
 * f(α) = 1 − F_λ(F_λ⁻¹(α) + 1), with F_λ the CDF of the compound binomial C ~ Bin(n, λ/(2n))
 * (Definition 3.1) and F_λ⁻¹(α) = min{k : F_λ(k) ≥ α} ({@link CompoundBinomial#quantile}), and its
 * Gaussian parameter μ*_λ (Corollary 3.2), scaled by √r for P^R_{n,λ,r} (Theorem 3, Corollary 3.3,
 * since G_μ^{⊗r} = G_{μ√r}).
 *
 * <p>f is a step function: on (F_λ(k − 1), F_λ(k)] it equals 1 − F_λ(k + 1). It is the curve of
 * deterministic threshold tests between C and C + 1 only. Whether it is a valid lower bound of the
 * protocol's true trade-off is checked by {@link dev.tradeoff.shuffle.analysis.ShuffleReport}, not
 * assumed: for many (n, λ) it is not (see REPRODUCTION.md).
 *
 * <p><b>Convention for μ*_λ.</b> As printed, the supremum over α ∈ [0, 1] is infinite: for
 * α ∈ (0, F_λ(0)] the curve is the constant 1 − F_λ(1) &lt; 1 while Φ⁻¹(1 − α) → ∞, and at
 * α = F_λ(n − 1) &lt; 1 it is already 0. Tradeoff takes the supremum over the type-I errors the
 * proof's tests attain, α = F_λ(k) for k = 0, …, n − 2 (those with f(α) &gt; 0):
 * μ*_λ = max_k Φ⁻¹(1 − F_λ(k)) − Φ⁻¹(1 − F_λ(k + 1)). This is the smallest μ with G_μ below the
 * piecewise-linear interpolation of those points. Both quantiles are taken of upper-tail masses
 * computed from the tail, so no 1 − F rounding enters.
 */
public final class PaperTradeoff {

  private final ShuffleParameters parameters;
  private final CompoundBinomial compound;

  public PaperTradeoff(ShuffleParameters parameters) {
    this.parameters = Require.nonNull("parameters", parameters);
    this.compound = new CompoundBinomial(parameters);
  }

  /** Theorem 2: f(α) = 1 − F_λ(F_λ⁻¹(α) + 1). */
  public double beta(double alpha) {
    Require.probability("alpha", alpha);
    return compound.survival(compound.quantile(alpha) + 1);
  }

  /**
   * The corners of the step function: (F_λ(k), 1 − F_λ(k + 1)) for k = 0, …, n − 1, where f takes
   * the value on its step (F_λ(k − 1), F_λ(k)]; f(0) = 1 − F_λ(1).
   */
  public double[][] corners() {
    int n = parameters.users();
    double[][] out = new double[n][];
    for (int k = 0; k < n; k++) {
      out[k] = new double[] {compound.cdf(k), compound.survival(k + 1)};
    }
    return out;
  }

  /**
   * The greatest convex minorant of the step function f: the lower convex envelope of its step
   * ends (F_λ(k − 1), 1 − F_λ(k + 1)) and (F_λ(k), 1 − F_λ(k + 1)). Composition (Theorem 3) needs a
   * trade-off function, which is convex; this is the largest one below f.
   */
  public PiecewiseLinearTradeoff convexMinorant() {
    int n = parameters.users();
    double[] a = new double[2 * n];
    double[] b = new double[2 * n];
    for (int k = 0; k < n; k++) {
      a[2 * k] = compound.cdf(k - 1);
      a[2 * k + 1] = compound.cdf(k);
      b[2 * k] = compound.survival(k + 1);
      b[2 * k + 1] = compound.survival(k + 1);
    }
    return PiecewiseLinearTradeoff.lowerConvexEnvelope(a, b);
  }

  /**
   * Theorem 3: f^{⊗r} for P^R_{n,λ,r}, applied to {@link #convexMinorant()} and computed by the
   * accounting module's {@link TensorProduct} (a lower bound with its certified gap).
   */
  public TradeoffBound composed(int bits) {
    Require.positive("bits", bits);
    return TensorProduct.selfCompose(convexMinorant(), bits, TensorProduct.DEFAULT_MAX_SEGMENTS);
  }

  /** μ*_λ of Corollary 3.2 under the convention of the class comment. */
  public double mu() {
    int n = parameters.users();
    double mu = Double.NEGATIVE_INFINITY;
    for (int k = 0; k <= n - 2; k++) {
      if (compound.survival(k + 1) <= 0) {
        break;
      }
      // Φ⁻¹(1 − α) − Φ⁻¹(f(α)) at α = F(k), f(α) = 1 − F(k + 1).
      mu = Math.max(mu, upperQuantile(k) - upperQuantile(k + 1));
    }
    return Math.max(0, mu);
  }

  /** Φ⁻¹(1 − F_λ(k)), from whichever of F_λ(k) and 1 − F_λ(k) is the small (accurate) one. */
  private double upperQuantile(int k) {
    double below = compound.cdf(k);
    return below < 0.5 ? -StandardNormal.inverseCdf(below)
        : StandardNormal.inverseCdf(compound.survival(k));
  }

  /** Corollary 3.3: μ = √r · μ*_λ for P^R_{n,λ,r}. */
  public double mu(int bits) {
    Require.positive("bits", bits);
    return Math.sqrt(bits) * mu();
  }

  public CompoundBinomial compoundBinomial() {
    return compound;
  }

  public ShuffleParameters parameters() {
    return parameters;
  }
}
