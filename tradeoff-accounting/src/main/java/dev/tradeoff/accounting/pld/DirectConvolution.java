package dev.tradeoff.accounting.pld;

import java.util.List;

/**
 * Composes discretized privacy loss distributions by direct (FFT-free) convolution over a window
 * of the grid, for the tails an FFT cannot resolve. Every composed mass is a sum of products of
 * non-negative masses, so its rounding error is relative (at most γ_{n+1} for n products: Higham,
 * Accuracy and Stability of Numerical Algorithms, 2nd ed., §3.1) rather than absolute: a mass of
 * 1e-20 or 1e-200 is computed to about n·u of itself, where an FFT's error is a fixed share of the
 * whole distribution, and an exponentially tilted FFT's a share of a Chernoff bound that lies far
 * above the true tail when single steps with a large loss dominate it (Poisson-sampled Gaussians
 * with a small rate, at δ far below 1e-15).
 *
 * <p>Counts are taken by repeated squaring. After each convolution the masses are kept on the
 * window of absolute grid indices [lo, hi'), hi' = hi + the most the remaining terms could lower
 * the loss (so that a sum cut off there ends at hi or above): for a {@link
 * Discretization#PESSIMISTIC} result the mass below lo is moved up to lo and the mass from hi' on
 * is moved to +∞ (both only raise losses, so δ(ε) only grows: still an upper bound), and every
 * mass is scaled up by its rounding bound; for an {@link Discretization#OPTIMISTIC} result both
 * are dropped (δ only falls) and masses are scaled down. Products that underflow lose at most
 * the smallest subnormal each, counted in Pr[L = ∞] (pessimistic) or the deficit (optimistic).
 * Where lo cuts into partial sums the result is still valid, only less tight; the bracket says
 * how tight.
 *
 * <p>The work is Σ n_a n_b over the convolutions; {@link #compose} refuses (returns null) beyond
 * {@value #MAX_WORK} multiply-adds (about a second).
 */
final class DirectConvolution {

  /** The most multiply-adds one composition may take. */
  static final double MAX_WORK = 2e9;

  private DirectConvolution() {}

  /** Masses on absolute grid indices offset, offset + 1, …. */
  private record Part(double[] masses, long offset) {
    int size() {
      return masses.length;
    }
  }

  /** Lost mass in the safe direction: to +∞ (pessimistic) or to the deficit (optimistic). */
  private static final class Losses {
    double mass;
  }

  /**
   * The composition of the terms over [lo, hi) (absolute grid indices), or null if it would take
   * more than {@link #MAX_WORK}.
   *
   * @param infinity Pr[L = ∞] of the composition's finite terms, 1 − Π(1 − Pr[L_j = ∞])^{c_j}
   */
  static PrivacyLossDistribution compose(List<Composer.Term> terms, long lo, long hi,
      Discretization discretization, double interval, double infinity) {
    boolean pessimistic = discretization == Discretization.PESSIMISTIC;
    // The most the terms can lower the loss, so the upper cut for a partial sum.
    double lowestSum = 0;
    double work = 0; // multiply-adds
    long width = hi - lo;
    for (Composer.Term term : terms) {
      PrivacyLossDistribution d = term.distribution();
      lowestSum += (double) term.count() * Math.min(0, d.offset());
    }
    long cut = (long) Math.min(hi - lowestSum, 0x1p60);
    double kept = cut - lo;
    // The work, following the lengths through the squarings (each at most the window kept).
    double resultLength = 0;
    for (Composer.Term term : terms) {
      double base = term.distribution().size();
      double power = 0;
      for (long k = term.count(); k > 0 && work <= MAX_WORK; k >>= 1) {
        if ((k & 1) == 1) {
          work += power * base;
          power = power == 0 ? base : Math.min(kept, power + base);
        }
        if (k > 1) {
          work += base * base;
          base = Math.min(kept, 2 * base);
        }
      }
      work += resultLength * power;
      resultLength = resultLength == 0 ? power : Math.min(kept, resultLength + power);
    }
    if (!(width > 0) || work > MAX_WORK) {
      return null;
    }
    Losses losses = new Losses();
    Part result = null;
    for (Composer.Term term : terms) {
      PrivacyLossDistribution d = term.distribution();
      Part base = new Part(d.massesView(), d.offset());
      Part power = null;
      long k = term.count();
      while (k > 0) {
        if ((k & 1) == 1) {
          power = power == null ? base : convolve(power, base, lo, cut, pessimistic, losses);
        }
        k >>= 1;
        if (k > 0) {
          base = convolve(base, base, lo, cut, pessimistic, losses);
        }
      }
      result = result == null ? power : convolve(result, power, lo, cut, pessimistic, losses);
    }
    // The last cut at hi: above it a pessimistic result has nothing left to lower its loss.
    double[] masses = result.masses();
    long offset = result.offset();
    int end = (int) Math.max(0, Math.min(masses.length, hi - offset));
    double above = 0;
    for (int i = end; i < masses.length; i++) {
      above += masses[i];
    }
    double[] window = java.util.Arrays.copyOf(masses, end);
    double sumRounding = 1 + 2.0 * (masses.length + 1) * Fft.UNIT_ROUNDOFF;
    if (pessimistic) {
      double extra = (above * sumRounding + losses.mass) * sumRounding;
      return new PrivacyLossDistribution(
          discretization, interval, offset, window, (infinity + extra) * sumRounding, 0);
    }
    return new PrivacyLossDistribution(
        discretization, interval, offset, window, infinity, losses.mass * sumRounding);
  }

  /**
   * The convolution of a and b kept on [lo, cut) (see the class comment), each mass scaled by its
   * rounding bound in the safe direction.
   */
  private static Part convolve(
      Part a, Part b, long lo, long cut, boolean pessimistic, Losses losses) {
    long first = a.offset() + b.offset();
    long last = first + a.size() + b.size() - 2;
    long from = Math.max(first, lo);
    long to = Math.min(last + 1, cut);
    if (to <= from) {
      // Everything falls outside: a pessimistic result keeps it at lo or at +∞.
      double total = total(a) * total(b) * (1 + 4.0 * (a.size() + b.size()) * Fft.UNIT_ROUNDOFF);
      if (pessimistic && last < lo) {
        return new Part(new double[] {total}, lo);
      }
      if (pessimistic) {
        losses.mass += total;
      }
      return new Part(new double[] {0}, lo);
    }
    double[] c = new double[(int) (to - from)];
    double[] bMasses = b.masses();
    // prefix[j] = Σ_{i < j} b_i, for the parts of each row that fall outside the window.
    double[] prefix = new double[bMasses.length + 1];
    for (int j = 0; j < bMasses.length; j++) {
      prefix[j + 1] = prefix[j] + bMasses[j];
    }
    double below = 0;
    double outside = 0;
    double[] aMasses = a.masses();
    for (int i = 0; i < aMasses.length; i++) {
      double ai = aMasses[i];
      if (ai == 0) {
        continue;
      }
      long rowStart = first + i; // absolute index of ai·b_0
      int jFrom = (int) Math.max(0, Math.min(bMasses.length, from - rowStart));
      int jTo = (int) Math.max(jFrom, Math.min(bMasses.length, to - rowStart));
      below += ai * prefix[jFrom];
      outside += ai * (prefix[bMasses.length] - prefix[jTo]);
      int shift = (int) (rowStart - from);
      for (int j = jFrom; j < jTo; j++) {
        c[shift + j] += ai * bMasses[j];
      }
    }
    // Each mass is a sum of at most min(n_a, n_b) products; the mass cut below or above sums
    // n_a products of prefix sums of up to n_b terms: relative error at most γ_{n_a+n_b+1} <
    // (n_a + n_b + 2)·1.01u, and one more u for the scaling. Underflowed products lose at most the
    // smallest subnormal each.
    double relative = (aMasses.length + bMasses.length + 3.0) * 1.01 * Fft.UNIT_ROUNDOFF;
    double underflow = (double) aMasses.length * bMasses.length * Double.MIN_VALUE;
    double factor = pessimistic ? 1 + relative : 1 - relative;
    for (int k = 0; k < c.length; k++) {
      c[k] *= factor;
    }
    if (pessimistic) {
      c[0] += below * (1 + relative);
      losses.mass += outside * (1 + relative) + underflow;
    } else {
      losses.mass += underflow;
    }
    return new Part(c, from);
  }

  private static double total(Part part) {
    double sum = 0;
    for (double m : part.masses()) {
      sum += m;
    }
    return sum;
  }
}
