package dev.tradeoff.accounting.pld;

import java.util.Arrays;

/**
 * A dominating pair (P, Q) on finitely many outcomes, with the privacy loss log(P/Q) of each outcome
 * stored exactly (not recomputed from rounded masses). Outcomes with Q = 0 have loss +∞, outcomes
 * with P = 0 loss −∞.
 *
 * <p>{@code upperTail} and {@code lowerTail} are P-masses of outcomes left out of the list whose
 * losses lie above every listed loss, respectively below every listed loss (used by the discrete
 * Gaussian, whose support is infinite).
 */
record Outcomes(double[] p, double[] q, double[] loss, double upperTail, double lowerTail)
    implements LossModel {

  Outcomes {
    if (p.length != q.length || p.length != loss.length) {
      throw new IllegalArgumentException("outcome arrays must have equal lengths");
    }
  }

  /** The mechanism that reveals nothing: one outcome with loss 0. */
  static Outcomes identity() {
    return new Outcomes(new double[] {1}, new double[] {1}, new double[] {0}, 0, 0);
  }

  /**
   * k-ary randomized response: reporting the true value has P-mass e^ε/(e^ε + k − 1) and Q-mass
   * 1/(e^ε + k − 1); the other k − 2 values have equal masses and loss 0.
   */
  static Outcomes randomizedResponse(double epsilon, int categories) {
    double other = Math.exp(-epsilon) / (1 + (categories - 1) * Math.exp(-epsilon));
    double truth = 1 / (1 + (categories - 1) * Math.exp(-epsilon));
    if (categories == 2) {
      return new Outcomes(
          new double[] {truth, other},
          new double[] {other, truth},
          new double[] {epsilon, -epsilon},
          0,
          0);
    }
    double rest = (categories - 2) * other;
    return new Outcomes(
        new double[] {truth, other, rest},
        new double[] {other, truth, rest},
        new double[] {epsilon, -epsilon, 0},
        0,
        0);
  }

  /**
   * The worst case of (ε, δ)-DP (Kairouz, Oh and Viswanath 2015; Meiser and Mohammadi 2018): P =
   * (δ, (1−δ)e^ε/(1+e^ε), (1−δ)/(1+e^ε), 0), Q the reverse. δ = 0 gives binary randomized response,
   * the worst case of pure ε-DP.
   */
  static Outcomes approxDp(double epsilon, double delta) {
    double high = (1 - delta) / (1 + Math.exp(-epsilon));
    double low = (1 - delta) * Math.exp(-epsilon) / (1 + Math.exp(-epsilon));
    if (delta == 0) {
      return new Outcomes(
          new double[] {high, low},
          new double[] {low, high},
          new double[] {epsilon, -epsilon},
          0,
          0);
    }
    return new Outcomes(
        new double[] {delta, high, low, 0},
        new double[] {0, low, high, delta},
        new double[] {
          Double.POSITIVE_INFINITY, epsilon, -epsilon, Double.NEGATIVE_INFINITY
        },
        0,
        0);
  }

  /**
   * The discrete Laplace mechanism with Pr[Z = z] ∝ e^{−|z|/t} against its shift by one. The
   * likelihood ratio takes only the values e^{±1/t} (z ≤ 0 and z ≥ 1), so the pair reduces
   * losslessly to binary randomized response with ε = 1/t.
   */
  static Outcomes discreteLaplace(double scale) {
    return randomizedResponse(1 / scale, 2);
  }

  /**
   * The discrete Gaussian N_Z(0, σ²) against N_Z(1, σ²) (Canonne, Kamath and Steinke 2020): outcome
   * z has loss (1 − 2z)/(2σ²). Outcomes with |z| beyond σ·Φ⁻¹(1 − τ) + 1 become the two tails.
   */
  static Outcomes discreteGaussian(double sigma, double tailMass) {
    double twoVar = 2 * sigma * sigma;
    long reach = (long) Math.ceil(39 * sigma) + 2;
    long kept = (long) Math.ceil(sigma * dev.tradeoff.accounting.numerics.StandardNormal
        .inverseSurvival(tailMass)) + 1;
    kept = Math.min(kept, reach);
    // Normalizer: Σ_z e^{−z²/(2σ²)}; terms beyond 39σ are below e^{−760} and underflow to 0.
    double normalizer = 1;
    double tailWeight = 0; // Σ_{z > kept} e^{−z²/(2σ²)}, the same on both sides
    for (long z = reach; z >= 1; z--) {
      double w = Math.exp(-(double) z * z / twoVar);
      normalizer += 2 * w;
      if (z > kept + 1) {
        tailWeight += w;
      }
    }
    int count = (int) (2 * kept + 2);
    double[] p = new double[count];
    double[] q = new double[count];
    double[] loss = new double[count];
    for (int i = 0; i < count; i++) {
      long z = -kept + i;
      p[i] = Math.exp(-(double) z * z / twoVar) / normalizer;
      q[i] = Math.exp(-(double) (z - 1) * (z - 1) / twoVar) / normalizer;
      loss[i] = (1 - 2.0 * z) / twoVar;
    }
    // z < −kept: losses above every listed one; z > kept + 1: below every listed one.
    double upper = (tailWeight + Math.exp(-(double) (kept + 1) * (kept + 1) / twoVar)) / normalizer;
    double lower = tailWeight / normalizer;
    return new Outcomes(p, q, loss, upper, lower);
  }

  /**
   * Poisson subsampling with probability a (Zhu, Dong and Wang 2022, Poisson subsampling of a
   * dominating pair under add/remove-one): the remove direction is (aP + (1−a)Q, Q), the add
   * direction (Q, aP + (1−a)Q). Only defined without tails.
   */
  Outcomes sampled(double a, Direction direction) {
    if (upperTail != 0 || lowerTail != 0) {
      throw new IllegalStateException("cannot subsample outcomes with truncated tails");
    }
    int n = p.length;
    double[] mixed = new double[n];
    double[] mixedLoss = new double[n];
    for (int i = 0; i < n; i++) {
      mixed[i] = a * p[i] + (1 - a) * q[i];
      mixedLoss[i] = MixtureLoss.mixed(a, loss[i]);
    }
    if (direction == Direction.REMOVE) {
      return new Outcomes(mixed, q.clone(), mixedLoss, 0, 0);
    }
    double[] negated = Arrays.stream(mixedLoss).map(l -> -l).toArray();
    return new Outcomes(q.clone(), mixed, negated, 0, 0);
  }
}
