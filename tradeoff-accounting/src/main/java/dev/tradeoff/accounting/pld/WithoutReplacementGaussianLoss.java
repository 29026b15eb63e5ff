package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.numerics.StandardNormal;
import org.apache.commons.numbers.gamma.Erf;

/**
 * A dominating pair, for every hockey-stick order, of the Gaussian mechanism (noise N(0, σ²) on a
 * query of replace-one sensitivity 1) run on a batch of m records drawn without replacement from n,
 * γ = m/n, under replace-one neighbouring.
 *
 * <p><b>The pair.</b> Let R = γN(1, σ²) + (1 − γ)N(0, σ²), Q = N(0, σ²) and ℓ = log dR/dQ, which
 * increases in the output x and is 0 at x = 1/2. For ε ≥ 0 every neighbouring pair of outputs has
 * H_{e^ε} at most H_{e^ε}(R ‖ Q) = γ·H_{e^ε′}(N(1, σ²) ‖ N(0, σ²)), e^ε′ = 1 + (e^ε − 1)/γ (Balle,
 * Barthe and Gaboardi 2018, Theorem 10: the batch that holds the replaced record and the batches
 * that do not are replace-one neighbours of each other). The relation is symmetric, so for ε &lt; 0
 * the bound is H_{e^ε}(Q ‖ R) (H_α(X ‖ Y) = 1 − α + αH_{1/α}(Y ‖ X)); the pair (R, Q) alone does
 * not give it, and composing it would not be valid (Lebeda, Regehr, Kamath and Steinke 2024,
 * "Avoiding Pitfalls for Privacy Accounting of Subsampled Mechanisms under Composition"). The pair
 * held here has exactly the profile max{H(R ‖ Q), H(Q ‖ R)} at every ε — the symmetrization C_γ(f)
 * = min{f_γ, f_γ⁻¹}** of Dong, Roth and Su 2022, Theorem 4.2, in loss form. Because the Gaussian
 * pair is symmetric, H(Q ‖ R) ≤ H(R ‖ Q) at every ε ≥ 0 (with s = e^ε − 1 the orders compare as
 * e^ε γ/(1 − e^ε(1 − γ)) ≥ e^ε′, the difference of the cross products being s²(1 − γ), and the
 * weights as 1 − e^ε(1 − γ) ≤ γ), so the maximum is H(R ‖ Q) for ε ≥ 0 and H(Q ‖ R) for ε &lt; 0,
 * and its privacy-loss distribution (P-mass of loss above ε = δ(ε) − δ′(ε)) is:
 *
 * <ul>
 *   <li>losses ℓ(x) &gt; 0 with the R-density of x, x &gt; 1/2;
 *   <li>an atom at loss 0 of P- and Q-mass R(ℓ &lt; 0) − Q(ℓ &gt; 0) = (1 − γ)·erf(1/(2√2 σ)), the
 *       jump of δ′ at 0;
 *   <li>losses −ℓ(x′) &lt; 0 with the Q-density of x′ &gt; 1/2, held here as y = 1 − x′ &lt; 1/2
 *       (density that of N(1, σ²) at y, loss −log(γe^{−u(y)} + 1 − γ)).
 * </ul>
 *
 * The variable of the continuous part is x on both sides of 1/2, where the loss is 0 and the
 * density (φ_σ(1/2) from either side) continuous; loss 0 is a grid point of every discretization,
 * so no bin's quadrature crosses the junction. With u(x) = (2x − 1)/(2σ²): L(x) = log(γe^u + 1 − γ)
 * for x ≥ 1/2 and −log(γe^{−u} + 1 − γ) below, increasing.
 *
 * @param sigma σ &gt; 0 (divided by the replace-one sensitivity)
 * @param gamma γ = m/n in (0, 1), rounded up
 */
record WithoutReplacementGaussianLoss(double sigma, double gamma) implements MonotoneLoss {

  /** The atom at loss 0: (1 − γ)·(Φ(1/(2σ)) − Φ(−1/(2σ))). */
  private double atomMass() {
    return (1 - gamma) * Erf.value(1 / (2 * Math.sqrt(2) * sigma));
  }

  @Override
  public Outcomes atoms() {
    double mass = atomMass();
    return new Outcomes(new double[] {mass}, new double[] {mass}, new double[] {0}, 0, 0);
  }

  @Override
  public double xLower(double tailMass) {
    // below 1/2 the density is that of N(1, σ²)
    return 1 - sigma * StandardNormal.inverseSurvival(tailMass);
  }

  @Override
  public double xUpper(double tailMass) {
    // above 1/2 the density is a mixture of N(1, σ²) and N(0, σ²)
    return 1 + sigma * StandardNormal.inverseSurvival(tailMass);
  }

  @Override
  public double massBelow(double x) {
    if (x < 0.5) {
      return StandardNormal.cdf((x - 1) / sigma);
    }
    return 1 - atomMass() - massAbove(x);
  }

  @Override
  public double massAbove(double x) {
    if (x >= 0.5) {
      return gamma * StandardNormal.survival((x - 1) / sigma)
          + (1 - gamma) * StandardNormal.survival(x / sigma);
    }
    return 1 - atomMass() - massBelow(x);
  }

  @Override
  public double density(double x) {
    double shifted = SampledGaussianLoss.normal(x - 1, sigma);
    return x < 0.5 ? shifted : gamma * shifted + (1 - gamma) * SampledGaussianLoss.normal(x, sigma);
  }

  @Override
  public double loss(double x) {
    double u = (2 * x - 1) / (2 * sigma * sigma);
    return x >= 0.5 ? MixtureLoss.mixed(gamma, u) : -MixtureLoss.mixed(gamma, -u);
  }

  @Override
  public double xAtLoss(double l) {
    double u = l >= 0 ? MixtureLoss.unmixed(gamma, l) : -MixtureLoss.unmixed(gamma, -l);
    return sigma * sigma * u + 0.5;
  }

  @Override
  public boolean increasing() {
    return true;
  }

  @Override
  public double scale() {
    return sigma;
  }
}
