package dev.tradeoff.selection.baseline;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * The truncated negative binomial law 𝒟_{η,γ} of Papernot and Steinke ("Hyperparameter tuning with
 * Rényi differential privacy", ICLR 2022, Section 2): for η &gt; −1 and γ in (0, 1),
 *
 * <pre>
 *   Pr[K = k] = (1 − γ)^k / (γ^{−η} − 1) · Π_{ℓ=0}^{k−1} (ℓ + η)/(ℓ + 1)   (k ≥ 1, η ≠ 0)
 *   Pr[K = k] = (1 − γ)^k / (k·log(1/γ))                              (k ≥ 1, η = 0)
 * </pre>
 *
 * i.e. the negative binomial NB(η, γ) conditioned on K ≥ 1 (logarithmic law for η = 0). Moments in
 * closed form: E[K] = η(1 − γ)/(γ(1 − γ^η)) (η ≠ 0), (1/γ − 1)/log(1/γ) (η = 0), and E[K²] =
 * (η(1 − γ)/γ² + (η(1 − γ)/γ)²)/(1 − γ^η) (η ≠ 0), (1 − γ)/(γ² log(1/γ)) (η = 0).
 *
 * <p>Privacy (their Theorem 2 and Corollary 3; the formulas are restated here from the paper, not
 * from code): if the base mechanism is (λ, ε)-RDP and (λ̂, ε̂)-RDP, running it K ~ 𝒟_{η,γ} times
 * and returning the best is (λ, ε′)-RDP with ε′ = ε + (1 + η)(1 − 1/λ̂)ε̂ + (1 + η)log(1/γ)/λ̂ +
 * log(E[K])/(λ − 1); for an ε-DP base mechanism it is (2 + η)ε-DP.
 *
 * <p>Sampling is by inversion of the pmf with a double uniform (a simulation sampler: the law is
 * correct to about 2^−53 per draw, not exactly).
 */
public record TruncatedNegativeBinomial(double eta, double gamma) {

  public TruncatedNegativeBinomial {
    Require.greaterThan("eta", eta, -1);
    Require.openUnit("gamma", gamma);
  }

  /** E[K]. */
  public double mean() {
    double logInvGamma = -Math.log(gamma);
    if (eta == 0) {
      return (1 / gamma - 1) / logInvGamma;
    }
    // 1 − γ^η = −expm1(η log γ)
    return eta * (1 - gamma) / (gamma * -Math.expm1(-eta * logInvGamma));
  }

  /** Var[K]. */
  public double variance() {
    double logInvGamma = -Math.log(gamma);
    double second;
    if (eta == 0) {
      second = (1 - gamma) / (gamma * gamma * logInvGamma);
    } else {
      double m = eta * (1 - gamma) / gamma;
      second = (eta * (1 - gamma) / (gamma * gamma) + m * m) / -Math.expm1(-eta * logInvGamma);
    }
    double mean = mean();
    return second - mean * mean;
  }

  /** log Pr[K = k] (O(k) time). */
  public double logProbability(long k) {
    if (k < 1) {
      return Double.NEGATIVE_INFINITY;
    }
    double logInvGamma = -Math.log(gamma);
    double log1mGamma = Math.log1p(-gamma);
    if (eta == 0) {
      return k * log1mGamma - Math.log(k) - Math.log(logInvGamma);
    }
    double logProduct = 0;
    for (long l = 0; l < k; l++) {
      logProduct += Math.log(Math.abs(l + eta)) - Math.log(l + 1);
    }
    // γ^{−η} − 1 = expm1(η log(1/γ)); negative for η < 0, as is the product's sign: ratio positive
    return k * log1mGamma + logProduct - Math.log(Math.abs(Math.expm1(eta * logInvGamma)));
  }

  /** One draw K ≥ 1 by sequential inversion. */
  public long sample(RandomGenerator random) {
    double u = random.nextDouble();
    double logInvGamma = -Math.log(gamma);
    double p = eta == 0
        ? (1 - gamma) / logInvGamma
        : (1 - gamma) * eta / Math.expm1(eta * logInvGamma);
    long k = 1;
    double cumulative = p;
    while (u >= cumulative && p > 0) {
      p *= (1 - gamma) * (k + eta) / (k + 1);
      k++;
      cumulative += p;
    }
    return k;
  }

  /** Corollary 3: (2 + η)ε-DP for an ε-DP base mechanism (rounded up). */
  public double pureEpsilon(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    return Math.nextUp((2 + eta) * epsilon);
  }

  /**
   * Theorem 2: the RDP ε′ at order λ of best-of-K for a base mechanism that is (λ, ε)-RDP and (λ̂,
   * ε̂)-RDP (rounded up).
   */
  public double renyiEpsilon(double lambda, double epsilon, double lambdaHat, double epsilonHat) {
    Require.renyiOrder("lambda", lambda);
    Require.nonNegative("epsilon", epsilon);
    Require.inClosedRange("lambdaHat", lambdaHat, 1, Double.MAX_VALUE);
    Require.nonNegative("epsilonHat", epsilonHat);
    double v =
        epsilon
            + (1 + eta) * (1 - 1 / lambdaHat) * epsilonHat
            + (1 + eta) * -Math.log(gamma) / lambdaHat
            + Math.log(mean()) / (lambda - 1);
    return Math.nextUp(v);
  }
}
