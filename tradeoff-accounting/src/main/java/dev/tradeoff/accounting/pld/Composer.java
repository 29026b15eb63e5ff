package dev.tradeoff.accounting.pld;

import java.util.List;
import java.util.function.Supplier;

/**
 * Composes discretized privacy loss distributions: the loss of an adaptive composition is the sum
 * of independent losses, so its distribution is the convolution of theirs (Sommer, Meiser and
 * Mohammadi 2019; Koskela, Jälkö and Honkela 2020).
 *
 * <p>All terms are transformed once at a common FFT length N, each raised pointwise to its count by
 * repeated squaring, multiplied, and transformed back. N covers a window of the summed grid index
 * chosen by Chernoff bounds, Pr[S ≥ s] ≤ min_t M(t)e^{−ts} over a grid of t, so that at most τ of
 * the mass lies outside on each side. Circular convolution folds mass outside the window into it:
 * mass from below lands at the top of the window (only increases δ: safe for a pessimistic result;
 * an optimistic result subtracts its Chernoff bound), mass from above lands at the bottom (a
 * pessimistic result adds its Chernoff bound to Pr[L = ∞]). The FFT round-off is bounded in
 * ℓ₁ by √N times the ℓ₂ bound of Higham's Theorem 24.2 propagated through powers and products (see
 * {@link #roundOffBound}); it is added to Pr[L = ∞] (pessimistic) or to the deficit (optimistic),
 * and negative outputs are clamped to zero.
 */
final class Composer {

  /** A distribution and how many times it runs. */
  record Term(PrivacyLossDistribution distribution, long count) {}

  private final double tailMass;
  private final int maxSize;

  Composer(double tailMass, int maxSize) {
    this.tailMass = tailMass;
    this.maxSize = maxSize;
  }

  PrivacyLossDistribution compose(List<Term> terms) {
    if (terms.size() == 1 && terms.get(0).count() == 1) {
      return terms.get(0).distribution();
    }
    PrivacyLossDistribution first = terms.get(0).distribution();
    Discretization discretization = first.discretization();
    double interval = first.interval();
    boolean pessimistic = discretization == Discretization.PESSIMISTIC;

    long offset = 0;
    double logFinite = 0; // log Π (1 − Pr[L_j = ∞])^{c_j}
    for (Term term : terms) {
      PrivacyLossDistribution d = term.distribution();
      offset = Math.addExact(offset, Math.multiplyExact(term.count(), d.offset()));
      logFinite += term.count() * Math.log1p(-d.infinityMass());
    }
    double infinity = -Math.expm1(logFinite);

    Chernoff chernoff = new Chernoff(terms);
    long fullWidth = fullWidth(terms);
    long windowLo = Math.max(0, chernoff.lowerQuantile(tailMass));
    long windowHi = Math.min(fullWidth - 1, chernoff.upperQuantile(tailMass));
    long width = Math.max(1, windowHi - windowLo + 1);
    if (width > maxSize) {
      throw new IllegalStateException(
          "the composed losses need " + width + " grid points, more than " + maxSize
              + ": the accountant must coarsen the interval " + interval + " first");
    }
    int size = Math.max(4, nextPowerOfTwo(width));
    double foldedFromAbove = 0;
    double foldedFromBelow = 0;
    if (size >= fullWidth) {
      windowLo = 0;
    } else {
      foldedFromAbove = windowLo + size <= fullWidth - 1 ? chernoff.upperTail(windowLo + size) : 0;
      foldedFromBelow = windowLo > 0 ? chernoff.lowerTail(windowLo - 1) : 0;
    }

    RealFft fft = new RealFft(size);
    Convolution plain = convolve(terms, fft, 0);
    double[] masses = new double[size];
    int rotation = (int) (windowLo & (size - 1));
    for (int k = 0; k < size; k++) {
      masses[k] = Math.max(0, plain.values()[(rotation + k) & (size - 1)]);
    }
    long start = offset + windowLo;
    PrivacyLossDistribution.RoundOff roundOff = new PrivacyLossDistribution.RoundOff(
        plain.l2Error(), Long.MAX_VALUE, 0, 0, start, start + size);
    double theta = chernoff.tailRate(TILT_TAIL);
    double infinityMass = pessimistic ? infinity + foldedFromAbove : infinity;
    double deficit = pessimistic ? 0 : foldedFromBelow;
    long windowStart = windowLo;
    long origin = offset;
    // The tilted transform costs as much again; it is run only when a query needs it.
    Supplier<PrivacyLossDistribution> refinement = theta > 0
        ? () -> {
          double[] refined = masses.clone();
          PrivacyLossDistribution.RoundOff tiltedRoundOff = tilted(
              terms, fft, chernoff, theta, windowStart, origin, refined, plain.l2Error());
          return trimmed(discretization, interval, origin + windowStart, refined, infinityMass,
              deficit, tiltedRoundOff, null);
        }
        : null;
    return trimmed(discretization, interval, offset + windowLo, masses, infinityMass, deficit,
        roundOff, refinement);
  }

  /**
   * The tail at which the tilted transform is aimed: its rate is the Chernoff-optimal one for this
   * tail, which keeps the relative round-off small for every δ from about 1e-3 down to far below.
   */
  private static final double TILT_TAIL = 1e-11;

  /** A circular convolution and an ℓ₂ bound on its round-off. */
  private record Convolution(double[] values, double l2Error) {}

  /**
   * Replaces the masses at the top of the window by those of an exponentially tilted convolution
   * (the masses m_i e^{θ(i − top)}/Z of every term; the convolution of tilted distributions is the
   * tilted convolution, so untilting its output gives the same masses), where its round-off,
   * scaled back by e^{−θs}, is below the plain transform's. Composition tails of 1e-12 and below
   * are then resolved to a small relative error instead of sinking under an absolute round-off
   * floor. Returns the round-off bound of the combined masses.
   */
  private PrivacyLossDistribution.RoundOff tilted(
      List<Term> terms, RealFft fft, Chernoff chernoff, double theta, long windowLo, long offset,
      double[] masses, double plainL2) {
    int size = masses.length;
    double logScale = 0; // Σ_j c_j log Z_j
    double top = 0; // Σ_j c_j top_j, the summed index of the tilting reference
    for (Term term : terms) {
      double[] m = term.distribution().massesView();
      double z = 0;
      for (int i = 0; i < m.length; i++) {
        z += m[i] * Math.exp(theta * (i - (m.length - 1)));
      }
      logScale += term.count() * Math.log(z);
      top += (double) term.count() * (m.length - 1);
    }
    Convolution tilted = convolve(terms, fft, theta);
    // The tilted law sits higher than the plain one: it is read on a window of the same length
    // centred on the tail it aims at. The circular transform folds the tilted mass outside that
    // window into it, where untilting scales it up; its total is bounded by Chernoff on the tilted
    // law, Pr~[S ≥ s] ≤ M(r)e^{−(r−θ)s}/M(θ) for r > θ and Pr~[S ≤ s] ≤ M(r)e^{(θ−r)s}/M(θ) for
    // r < θ, and counted like the round-off.
    long tiltedLo = Math.max(windowLo, chernoff.upperQuantile(TILT_TAIL) - size / 2);
    double logMgf = logScale + theta * top;
    double folded = chernoff.tiltedUpperTail(theta, logMgf, tiltedLo + size)
        + chernoff.tiltedLowerTail(theta, logMgf, tiltedLo - 1);
    double coefficient = tilted.l2Error() / Math.sqrt(-Math.expm1(-2 * theta)) + folded;
    double logCoefficient = Math.log(coefficient);
    if (!(Double.isFinite(logScale) && Double.isFinite(logCoefficient) && plainL2 > 0)) {
      return new PrivacyLossDistribution.RoundOff(
          plainL2, Long.MAX_VALUE, 0, 0, offset + windowLo, offset + windowLo + size);
    }
    // Masses from s* on come from the tilted transform: there its error weight
    // coefficient·e^{logScale + θ(top − s)} is below the plain ℓ₂ bound.
    double switchAt = Math.ceil(top + (logScale + logCoefficient - Math.log(plainL2)) / theta);
    long from = (long) Math.max(tiltedLo, Math.min(windowLo + size, switchAt));
    for (long s = from; s < windowLo + size; s++) {
      double v = tilted.values()[(int) (s & (size - 1))];
      masses[(int) (s - windowLo)] = v > 0 ? Math.exp(Math.log(v) + logScale + theta * (top - s)) : 0;
    }
    // In absolute grid indices g = offset + s.
    return new PrivacyLossDistribution.RoundOff(
        plainL2, offset + from, theta, logCoefficient + logScale + theta * (top + offset),
        offset + windowLo, offset + windowLo + size);
  }

  /**
   * Transforms every term (tilted by e^{θ(i − top)}/Z when θ > 0), raises it to its count,
   * multiplies and transforms back; the ℓ₂ round-off bound is {@link #roundOffL2}.
   */
  private static Convolution convolve(List<Term> terms, RealFft fft, double theta) {
    int size = fft.size();
    double[] accRe = null;
    double[] accIm = null;
    double logGrowth = 0; // Σ_j c_j log(max(1, ‖m_j‖₁) + c√N‖m_j‖₂) bounds log Π|X̂_j|^{c_j}
    double sumForwardError = 0; // Σ_j c_j · c · ‖m_j‖₂
    int multiplications = 0;
    // One more u for the additions that fold a long term onto the circle.
    double c = fft.relativeErrorBound() + Fft.UNIT_ROUNDOFF;
    for (Term term : terms) {
      double[] folded = new double[size];
      double[] m = term.distribution().massesView();
      double[] weights = m;
      if (theta > 0) {
        weights = new double[m.length];
        double z = 0;
        for (int i = 0; i < m.length; i++) {
          weights[i] = m[i] * Math.exp(theta * (i - (m.length - 1)));
          z += weights[i];
        }
        for (int i = 0; i < m.length; i++) {
          weights[i] /= z;
        }
      }
      double norm2 = 0;
      double mass = 0;
      for (int i = 0; i < weights.length; i++) {
        folded[i & (size - 1)] += weights[i];
        norm2 += weights[i] * weights[i];
        mass += weights[i];
      }
      // Folding can only grow the ℓ₂ norm by √(entries per slot); the ℓ₁ norm bounds it too.
      // The computed ℓ₁ norm is widened by the summation bound 1 + 2nu.
      mass *= 1 + 2.0 * weights.length * Fft.UNIT_ROUNDOFF;
      double termNorm =
          Math.min(Math.sqrt(norm2) * Math.sqrt(Math.ceil((double) weights.length / size)), mass);
      logGrowth += term.count() * Math.log(Math.max(1, mass) + c * Math.sqrt(size) * termNorm);
      sumForwardError += term.count() * c * termNorm;
      double[][] spectrum = fft.forward(folded);
      double[] re = spectrum[0];
      double[] im = spectrum[1];
      multiplications += power(re, im, term.count());
      if (accRe == null) {
        accRe = re;
        accIm = im;
      } else {
        multiply(accRe, accIm, re, im);
        multiplications++;
      }
    }
    double[] composed = fft.inverse(accRe, accIm);
    double computedNorm2 = 0;
    for (double v : composed) {
      computedNorm2 += v * v;
    }
    double l2 = roundOffL2(
        size, c, logGrowth, sumForwardError, multiplications, Math.sqrt(computedNorm2));
    return new Convolution(composed, l2);
  }

  /**
   * The number of grid points of the window that {@link #compose} would transform: the Chernoff
   * window of the summed index, at most the full range of summed indices.
   */
  long requiredPoints(List<Term> terms) {
    if (terms.size() == 1 && terms.get(0).count() == 1) {
      return terms.get(0).distribution().size();
    }
    Chernoff chernoff = new Chernoff(terms);
    long windowLo = Math.max(0, chernoff.lowerQuantile(tailMass));
    long windowHi = Math.min(fullWidth(terms) - 1, chernoff.upperQuantile(tailMass));
    return Math.max(1, windowHi - windowLo + 1);
  }

  /** 1 + Σ c_j (size_j − 1), the number of possible summed indices, saturating at 2^60. */
  private static long fullWidth(List<Term> terms) {
    double width = 1;
    for (Term term : terms) {
      width += (double) term.count() * (term.distribution().size() - 1);
    }
    return (long) Math.min(width, 0x1p60);
  }

  /**
   * ℓ₂ bound on the round-off of the composed masses. Forward transforms: ‖E_j‖₂ ≤ c√N‖m_j‖₂
   * (Higham Thm 24.2, c = {@link RealFft#relativeErrorBound()}), hence |X̂_j| ≤ ‖m_j‖₁ + c√N‖m_j‖₂.
   * Powers and products: |ΠX̂_j^{c_j} − ΠX_j^{c_j}| ≤ g·Σ_j c_j|E_j| with
   * g = Π_j (max(1, ‖m_j‖₁) + c√N‖m_j‖₂)^{c_j}, plus
   * 5u per complex multiplication relative to g. Inverse: ‖ŷ − y‖₂ ≤ ‖e_power‖₂/√N + c'(‖ŷ‖₂ +
   * ‖ŷ − y‖₂) with c' = c + 2u for the 1/N scaling. A sum of n entries' errors is then at most
   * √n times this ({@link PrivacyLossDistribution.RoundOff}).
   */
  static double roundOffL2(
      int size,
      double c,
      double logGrowth,
      double sumForwardError,
      int multiplications,
      double computedNorm) {
    double u = Fft.UNIT_ROUNDOFF;
    double growth = Math.exp(logGrowth);
    double powerError = growth * (sumForwardError + 5 * u * multiplications * 1.01);
    double cInverse = c + 2 * u;
    return (powerError + cInverse * computedNorm) / (1 - cInverse);
  }

  static int nextPowerOfTwo(long n) {
    int size = 2;
    while (size < n) {
      size <<= 1;
    }
    return size;
  }

  /** z ← z^count pointwise, by repeated squaring; returns the number of complex multiplications. */
  private static int power(double[] re, double[] im, long count) {
    if (count == 1) {
      return 0;
    }
    int n = re.length;
    double[] baseRe = re.clone();
    double[] baseIm = im.clone();
    long remaining = count - 1;
    int multiplications = 0;
    while (remaining > 0) {
      if ((remaining & 1) == 1) {
        multiply(re, im, baseRe, baseIm);
        multiplications++;
      }
      remaining >>= 1;
      if (remaining > 0) {
        for (int k = 0; k < n; k++) {
          double r = baseRe[k];
          double i = baseIm[k];
          baseRe[k] = r * r - i * i;
          baseIm[k] = 2 * r * i;
        }
        multiplications++;
      }
    }
    return multiplications;
  }

  private static void multiply(double[] re, double[] im, double[] otherRe, double[] otherIm) {
    for (int k = 0; k < re.length; k++) {
      double r = re[k] * otherRe[k] - im[k] * otherIm[k];
      double i = re[k] * otherIm[k] + im[k] * otherRe[k];
      re[k] = r;
      im[k] = i;
    }
  }

  /** Drops exact zeros at both ends. */
  private static PrivacyLossDistribution trimmed(
      Discretization discretization,
      double interval,
      long offset,
      double[] masses,
      double infinity,
      double deficit,
      PrivacyLossDistribution.RoundOff roundOff,
      Supplier<PrivacyLossDistribution> refinement) {
    int lo = 0;
    int hi = masses.length - 1;
    while (lo < hi && masses[lo] == 0) {
      lo++;
    }
    while (hi > lo && masses[hi] == 0) {
      hi--;
    }
    double[] kept = lo == 0 && hi == masses.length - 1
        ? masses : java.util.Arrays.copyOfRange(masses, lo, hi + 1);
    // Trimmed entries were computed as 0 but may carry round-off: the bound keeps the full window.
    return new PrivacyLossDistribution(
        discretization, interval, offset + lo, kept, infinity, deficit, roundOff, refinement);
  }

  /**
   * Chernoff bounds on the summed grid index S = Σ_j Σ_{r ≤ c_j} I_{j,r} (finite parts, so the
   * "distribution" has total mass ≤ 1 and the bounds hold a fortiori): Pr[S ≥ s] ≤ M(t)e^{−ts} and
   * Pr[S ≤ s] ≤ M(−t)e^{ts} for t > 0. Each term's moment generating function is evaluated exactly,
   * by Horner's rule on the factor e^{−t} per grid index for all rates at once (one multiply-add per
   * grid point and rate, no exponentials): an approximation that moved mass by even a few grid
   * points per term would widen the window by that many points times the count, which for 10^5
   * DP-SGD steps is several times the window itself. Exponents are taken relative to the outermost
   * occupied grid points, so the largest term of each sum is e^0 and nothing overflows; the sums
   * are widened by the relative rounding of n multiplications and by n times the smallest normal
   * number for anything flushed to zero. The rates t run over 2^{−20} … 2^{12} per unit of loss.
   */
  private static final class Chernoff {
    private static final int RATES = 65;
    private final double[] rates;
    private final double[] logMgfUp;
    private final double[] logMgfDown;

    Chernoff(List<Term> terms) {
      double interval = terms.get(0).distribution().interval();
      rates = new double[RATES];
      logMgfUp = new double[rates.length];
      logMgfDown = new double[rates.length];
      double[] decay = new double[rates.length];
      for (int k = 0; k < rates.length; k++) {
        rates[k] = Math.pow(2, -20 + k * 0.5) * interval;
        decay[k] = Math.exp(-rates[k]);
      }
      double[] up = new double[rates.length];
      double[] down = new double[rates.length];
      for (Term term : terms) {
        double[] m = term.distribution().massesView();
        int lowest = 0;
        while (lowest < m.length - 1 && m[lowest] == 0) {
          lowest++;
        }
        int highest = m.length - 1;
        while (highest > lowest && m[highest] == 0) {
          highest--;
        }
        // up_k = Σ_i m_i e^{−t_k(highest − i)}, accumulated upwards; down_k = Σ_i m_i e^{−t_k(i −
        // lowest)}, accumulated downwards.
        java.util.Arrays.fill(up, 0);
        java.util.Arrays.fill(down, 0);
        for (int i = lowest; i <= highest; i++) {
          double mass = m[i];
          for (int k = 0; k < up.length; k++) {
            up[k] = up[k] * decay[k] + mass;
          }
        }
        for (int i = highest; i >= lowest; i--) {
          double mass = m[i];
          for (int k = 0; k < down.length; k++) {
            down[k] = down[k] * decay[k] + mass;
          }
        }
        int n = highest - lowest + 1;
        // Each summand carries at most n + 1 roundings of e^{−t} powers and additions, each
        // relative u; 4nu covers them with room. Flushed subnormals: at most n·MIN_NORMAL.
        double widen = 1 + 4.0 * (n + 1) * Fft.UNIT_ROUNDOFF;
        double floor = n * Double.MIN_NORMAL;
        for (int k = 0; k < rates.length; k++) {
          double t = rates[k];
          logMgfUp[k] += term.count() * (Math.log(up[k] * widen + floor) + t * highest);
          logMgfDown[k] += term.count() * (Math.log(down[k] * widen + floor) - t * lowest);
        }
      }
    }

    /** The smallest s for which the bound on Pr[S ≥ s] is ≤ tail. */
    long upperQuantile(double tail) {
      double best = Double.POSITIVE_INFINITY;
      for (int k = 0; k < rates.length; k++) {
        best = Math.min(best, Math.ceil((logMgfUp[k] - Math.log(tail)) / rates[k]));
      }
      return (long) Math.min(best, Long.MAX_VALUE / 4.0);
    }

    /** The largest s for which the bound on Pr[S ≤ s] is ≤ tail. */
    long lowerQuantile(double tail) {
      double best = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < rates.length; k++) {
        best = Math.max(best, Math.floor((Math.log(tail) - logMgfDown[k]) / rates[k]));
      }
      return (long) Math.max(best, -Long.MAX_VALUE / 4.0);
    }

    /**
     * The Chernoff-optimal rate (per grid index) for the upper tail of the given mass: the t
     * minimizing M(t)e^{−ts} at the quantile s of that tail; 0 if there is none.
     */
    double tailRate(double tail) {
      long s = upperQuantile(tail);
      double best = Double.POSITIVE_INFINITY;
      double rate = 0;
      for (int k = 0; k < rates.length; k++) {
        double exponent = logMgfUp[k] - rates[k] * s;
        if (exponent < best) {
          best = exponent;
          rate = rates[k];
        }
      }
      return Double.isFinite(best) ? rate : 0;
    }

    /**
     * Bound on the mass at or above s of the law tilted by e^{θS}/M(θ), given log M(θ):
     * min over rates r > θ of M(r)e^{−(r−θ)s}/M(θ), at most 1.
     */
    double tiltedUpperTail(double theta, double logMgfAtTheta, long s) {
      double best = 0;
      for (int k = 0; k < rates.length; k++) {
        if (rates[k] > theta) {
          best = Math.min(best, logMgfUp[k] - logMgfAtTheta - (rates[k] - theta) * s);
        }
      }
      // A relative 1e-9 covers the rounding of log M(θ), computed from the same masses.
      return Math.exp(best) * (1 + 1e-9);
    }

    /**
     * Bound on the mass at or below s of the law tilted by e^{θS}/M(θ): min over rates r < θ
     * (and r = 0, where M(0) ≤ 1) of M(r)e^{(θ−r)s}/M(θ), at most 1.
     */
    double tiltedLowerTail(double theta, double logMgfAtTheta, long s) {
      double best = Math.min(0, theta * s - logMgfAtTheta);
      for (int k = 0; k < rates.length; k++) {
        if (rates[k] < theta) {
          best = Math.min(best, logMgfUp[k] - logMgfAtTheta + (theta - rates[k]) * s);
        }
      }
      return Math.exp(best) * (1 + 1e-9);
    }

    /** Bound on Pr[S ≥ s]. */
    double upperTail(long s) {
      double best = 1;
      for (int k = 0; k < rates.length; k++) {
        best = Math.min(best, Math.exp(logMgfUp[k] - rates[k] * s));
      }
      return best;
    }

    /** Bound on Pr[S ≤ s]. */
    double lowerTail(long s) {
      double best = 1;
      for (int k = 0; k < rates.length; k++) {
        best = Math.min(best, Math.exp(logMgfDown[k] + rates[k] * s));
      }
      return best;
    }
  }
}
