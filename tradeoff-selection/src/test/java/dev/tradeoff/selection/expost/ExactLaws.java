package dev.tradeoff.selection.expost;

import java.util.SplittableRandom;

/**
 * Exact output laws of Algorithms 2 and 3 on small instances: candidate i outputs score o in {0,
 * …, m−1} with probability q[i][o]. Written from the proofs of Theorems 10, 11 and 13 (the
 * formulas for 𝒜(o, i)), independently of the tuner code. Geometric levels are summed to K =
 * ⌈100/ε′⌉ (omitted mass e^{−100}); exponential levels are integrated in closed form by expanding
 * the product over j ≠ i (inclusion–exclusion; exact up to rounding, d ≤ 6).
 */
final class ExactLaws {

  private ExactLaws() {}

  /** Pr[(o', j) &gt; (o, i)] for candidate j: o' &gt; o, or o' = o when j &gt; i. */
  static double above(double[] qj, int o, int i, int j) {
    double s = 0;
    for (int x = 0; x < qj.length; x++) {
      if (x > o || (x == o && j > i)) {
        s += qj[x];
      }
    }
    return s;
  }

  /** Algorithm 3 with Geom_{e^{−ε′}}: law[i][o], and law[d][0] = Pr[⊥]. */
  static double[][] algorithm3Geometric(double[][] q, double[] eps, double epsPrime) {
    int d = q.length;
    int m = q[0].length;
    double[][] law = new double[d + 1][m];
    long last = (long) Math.ceil(100 / epsPrime);
    double oneMinusP = -Math.expm1(-epsPrime);
    for (long k = 0; k <= last; k++) {
      double geom = oneMinusP * Math.exp(-epsPrime * k);
      double none = geom;
      for (int j = 0; j < d; j++) {
        none *= 1 - Math.exp(-eps[j] * k);
      }
      law[d][0] += none;
      for (int i = 0; i < d; i++) {
        for (int o = 0; o < m; o++) {
          double t = geom * Math.exp(-eps[i] * k) * q[i][o];
          for (int j = 0; j < d; j++) {
            if (j != i) {
              t *= 1 - Math.exp(-eps[j] * k) * above(q[j], o, i, j);
            }
          }
          law[i][o] += t;
        }
      }
    }
    return law;
  }

  /** Algorithm 2 with threshold τ (scores ≥ τ pass): law[i][o], law[d][0] = Pr[⊥]. */
  static double[][] algorithm2(double[][] q, double[] eps, double epsPrime, int tau) {
    int d = q.length;
    int m = q[0].length;
    double[][] law = new double[d + 1][m];
    long last = (long) Math.ceil(100 / epsPrime);
    double oneMinusP = -Math.expm1(-epsPrime);
    for (long k = 0; k <= last; k++) {
      double geom = oneMinusP * Math.exp(-epsPrime * k);
      double prefix = geom;
      for (int i = 0; i < d; i++) {
        double keep = Math.exp(-eps[i] * k);
        double pass = 0;
        for (int o = tau; o < m; o++) {
          law[i][o] += prefix * keep * q[i][o];
          pass += q[i][o];
        }
        prefix *= 1 - keep * pass;
      }
      law[d][0] += prefix;
    }
    return law;
  }

  /**
   * Algorithm 3 with Exp_{ε′}: with t = e^{−ε′x} and a_j = ε_j/ε′, 𝒜(o, i) = q_i(o) ∫_0^1 t^{a_i}
   * Π_{j≠i}(1 − c_j t^{a_j}) dt = q_i(o) Σ_{S} (−1)^{|S|} Π_{j∈S} c_j / (1 + a_i + Σ_{j∈S} a_j).
   */
  static double[][] algorithm3Exponential(double[][] q, double[] eps, double epsPrime) {
    int d = q.length;
    int m = q[0].length;
    double[][] law = new double[d + 1][m];
    double[] a = new double[d];
    for (int j = 0; j < d; j++) {
      a[j] = eps[j] / epsPrime;
    }
    double none = 0;
    for (int mask = 0; mask < (1 << d); mask++) {
      double exponent = 0;
      int sign = 1;
      for (int j = 0; j < d; j++) {
        if ((mask >> j & 1) == 1) {
          exponent += a[j];
          sign = -sign;
        }
      }
      none += sign / (1 + exponent);
    }
    law[d][0] = none;
    for (int i = 0; i < d; i++) {
      for (int o = 0; o < m; o++) {
        double s = 0;
        for (int mask = 0; mask < (1 << d); mask++) {
          if ((mask >> i & 1) == 1) {
            continue;
          }
          double exponent = a[i];
          double coefficient = 1;
          for (int j = 0; j < d; j++) {
            if ((mask >> j & 1) == 1) {
              exponent += a[j];
              coefficient *= -above(q[j], o, i, j);
            }
          }
          s += coefficient / (1 + exponent);
        }
        law[i][o] = q[i][o] * s;
      }
    }
    return law;
  }

  /** A random law on m points with every mass ≥ 0.05/m. */
  static double[] randomLaw(SplittableRandom r, int m) {
    double[] p = new double[m];
    double s = 0;
    for (int o = 0; o < m; o++) {
      p[o] = 0.05 + r.nextDouble();
      s += p[o];
    }
    for (int o = 0; o < m; o++) {
      p[o] /= s;
    }
    return p;
  }

  /** A neighbour of p at pure-DP distance ≤ ε: tilt by e^{u_o}, u_o in [−ε/2, ε/2], renormalise. */
  static double[] tilt(SplittableRandom r, double[] p, double epsilon) {
    double[] t = new double[p.length];
    double s = 0;
    for (int o = 0; o < p.length; o++) {
      double u = r.nextBoolean() ? epsilon / 2 : -epsilon / 2;
      if (r.nextInt(4) == 0) {
        u = (r.nextDouble() - 0.5) * epsilon;
      }
      t[o] = p[o] * Math.exp(u);
      s += t[o];
    }
    for (int o = 0; o < p.length; o++) {
      t[o] /= s;
    }
    return t;
  }

  /** max_o |log p(o) − log q(o)|: the pure-DP ε of the pair. */
  static double pureDistance(double[] p, double[] q) {
    double e = 0;
    for (int o = 0; o < p.length; o++) {
      e = Math.max(e, Math.abs(Math.log(p[o]) - Math.log(q[o])));
    }
    return e;
  }

  /** D_α(p ‖ q). */
  static double renyi(double[] p, double[] q, double alpha) {
    double s = 0;
    for (int o = 0; o < p.length; o++) {
      s += Math.pow(p[o], alpha) * Math.pow(q[o], 1 - alpha);
    }
    return Math.log(s) / (alpha - 1);
  }
}
