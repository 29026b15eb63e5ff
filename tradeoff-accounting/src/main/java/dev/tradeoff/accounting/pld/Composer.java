package dev.tradeoff.accounting.pld;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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

  /**
   * The Chernoff bounds built so far, by terms (sizing, then composing, each direction; the
   * directions may be composed concurrently).
   */
  private final Map<List<Term>, Chernoff> chernoffs = new ConcurrentHashMap<>();

  Composer(double tailMass, int maxSize) {
    this.tailMass = tailMass;
    this.maxSize = maxSize;
  }

  /**
   * The Chernoff bounds of the terms, reused when {@link #requiredPoints} and then {@link
   * #compose} ask for the same terms (the bounds cost a pass over every term per rate).
   */
  private Chernoff chernoff(List<Term> terms) {
    return chernoffs.computeIfAbsent(List.copyOf(terms), Chernoff::new);
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

    Chernoff chernoff = chernoff(terms);
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
    // Above the highest occupied sum the exact masses are 0, and where no sum lies below the
    // window nothing folds up there either: what the transform computes there is round-off
    // alone, so the masses are set to 0, exactly, and the round-off bound stops at that sum (a
    // bounded loss, such as pure DP or randomized response, then has no round-off above its top).
    long highest = occupiedSum(terms, true);
    long exactEnd = occupiedSum(terms, false) >= windowLo
        ? Math.min(windowLo + size, highest + 1) : windowLo + size;
    for (int k = 0; k < exactEnd - windowLo; k++) {
      masses[k] = Math.max(0, plain.values()[(rotation + k) & (size - 1)]);
    }
    long start = offset + windowLo;
    PrivacyLossDistribution.RoundOff roundOff = new PrivacyLossDistribution.RoundOff(
        plain.l2Error(), Long.MAX_VALUE, Long.MAX_VALUE, 0, 0, start, offset + exactEnd);
    double infinityMass = pessimistic ? infinity + foldedFromAbove : infinity;
    double deficit = pessimistic ? 0 : foldedFromBelow;
    // The tilted transforms cost as much again each; they are run only when a query needs one.
    Tilts refinement = new Tilts(terms, fft, chernoff, windowLo, exactEnd, highest, offset, masses,
        plain.l2Error(), discretization, interval, infinity, infinityMass, deficit);
    return trimmed(discretization, interval, offset + windowLo, masses, infinityMass, deficit,
        roundOff, refinement);
  }

  /** How many tilted recomputations one composed distribution keeps (each holds its masses). */
  private static final int CACHED_TILTS = 3;

  /**
   * The tilted recomputations of one composition, aimed where a query needs relative accuracy:
   * the rate is the Chernoff-optimal one for the summed grid index at the aim (the quantile of the
   * δ asked for, or the ε asked at), so the round-off stays relative there for every δ down to the
   * smallest the tail mass allows. Rates come from the Chernoff grid, so nearby aims share one
   * transform; the last few are cached.
   */
  private final class Tilts implements PrivacyLossDistribution.Refinement {
    private final List<Term> terms;
    private final RealFft fft;
    private final Chernoff chernoff;
    private final long windowLo;
    private final long exactEnd;
    private final long highest;
    private final long offset;
    private final double[] masses;
    private final double plainL2;
    private final Discretization discretization;
    private final double interval;
    private final double infinity;
    private final double infinityMass;
    private final double deficit;
    private PrivacyLossDistribution direct;
    private boolean directTried;
    private final Map<Integer, Tilted> cache =
        new LinkedHashMap<>(4, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Integer, Tilted> eldest) {
            return size() > CACHED_TILTS;
          }
        };

    Tilts(List<Term> terms, RealFft fft, Chernoff chernoff, long windowLo, long exactEnd,
        long highest, long offset, double[] masses, double plainL2, Discretization discretization,
        double interval, double infinity, double infinityMass, double deficit) {
      this.terms = terms;
      this.fft = fft;
      this.chernoff = chernoff;
      this.windowLo = windowLo;
      this.exactEnd = exactEnd;
      this.highest = highest;
      this.offset = offset;
      this.masses = masses;
      this.plainL2 = plainL2;
      this.discretization = discretization;
      this.interval = interval;
      this.infinity = infinity;
      this.infinityMass = infinityMass;
      this.deficit = deficit;
    }

    @Override
    public synchronized PrivacyLossDistribution direct() {
      if (!directTried) {
        directTried = true;
        direct = DirectConvolution.compose(terms, offset + windowLo, offset + exactEnd,
            discretization, interval, infinity);
      }
      return direct;
    }

    @Override
    public synchronized LargeStepSplit split(double delta, double aim) {
      if (terms.size() != 1) {
        return null;
      }
      return LargeStepSplit.of(Composer.this, terms.get(0), infinity, delta, aim);
    }

    @Override
    public PrivacyLossDistribution forTail(double tail) {
      return at(chernoff.upperQuantile(Math.max(Double.MIN_NORMAL, tail)), tail);
    }

    @Override
    public PrivacyLossDistribution atLoss(double loss, double resolve) {
      double s = Math.floor(loss / interval) + 1 - offset;
      return at((long) Math.max(windowLo, Math.min(windowLo + masses.length, s)), resolve);
    }

    /**
     * The recomputation aimed at summed index s (relative to the composition's offset), resolving
     * a δ of about {@code resolve} (0: unknown). A kept transform at the same rate serves if it
     * folded no more than this one may.
     */
    private synchronized PrivacyLossDistribution at(long s, double resolve) {
      double theta = chernoff.optimalRate(s);
      // Rates are quantized to steps of 2^(1/32) so that nearby aims share one transform.
      int key = theta > 0 ? (int) Math.round(32 * Math.log(theta) / Math.log(2)) : Integer.MIN_VALUE;
      double rate = Math.pow(2, key / 32.0);
      double foldTail = theta > 0 ? foldTail(terms, rate, s, resolve) : FOLD_TAIL;
      Tilted cached = cache.get(key);
      if (cached != null && cached.foldTail() <= foldTail) {
        return cached.distribution();
      }
      double[] refined = masses.clone();
      PrivacyLossDistribution.RoundOff roundOff = theta > 0
          ? tilted(terms, fft, chernoff, rate, foldTail, s, windowLo, exactEnd, highest,
              offset, refined, plainL2)
          : new PrivacyLossDistribution.RoundOff(plainL2, Long.MAX_VALUE, Long.MAX_VALUE, 0, 0,
              offset + windowLo, offset + exactEnd);
      PrivacyLossDistribution result = trimmed(discretization, interval, offset + windowLo,
          refined, infinityMass, deficit, roundOff, null);
      cache.put(key, new Tilted(result, foldTail));
      return result;
    }
  }

  /**
   * The normalization of a tilt by e^{θ(i − top_j)} of every term: {@code logScale} = Σ_j c_j log
   * Z_j with Z_j = Σ_i m_{j,i} e^{θ(i − top_j)}, and {@code top} = Σ_j c_j top_j, the summed index
   * of the tilting reference (top_j the term's last stored index), so log M(θ) = logScale + θ·top.
   */
  private record TiltScale(double logScale, double top) {
    static TiltScale of(List<Term> terms, double theta) {
      double logScale = 0;
      double top = 0;
      for (Term term : terms) {
        double[] m = term.distribution().massesView();
        double z = 0;
        for (int i = 0; i < m.length; i++) {
          z += m[i] * Math.exp(theta * (i - (m.length - 1)));
        }
        logScale += term.count() * Math.log(z);
        top += (double) term.count() * (m.length - 1);
      }
      return new TiltScale(logScale, top);
    }

    double logMgf(double theta) {
      return logScale + theta * top;
    }
  }

  /** A tilted recomputation and the tilted mass per side its window was allowed to fold. */
  private record Tilted(PrivacyLossDistribution distribution, double foldTail) {}

  /**
   * The tilted mass per side that a tilted transform at rate θ aimed at summed index s may fold
   * into its window when the answer is a δ of about {@code resolve}: {@value #FOLD_SHARE}·δ in
   * untilted units at the aim, i.e. {@value #FOLD_SHARE}·δ·e^{θs}/M(θ) of the tilted law, at
   * least {@value #FOLD_TAIL} (the fixed figure this replaces; also what an unknown δ gets) and at
   * most {@value #MAX_FOLD_TAIL}.
   *
   * <p>Why the answer stays valid and tight: whatever the window, the folded tilted mass is
   * bounded by Chernoff and counted in the round-off bound (see {@link #tilted}), so every bound
   * stays valid; only its tightness depends on the fold. The bound on the summed error of the
   * masses at and above index g is (tilted ℓ₂ term + folded mass)·M(θ)e^{−θg}, so the fold adds at
   * most 2·{@value #FOLD_SHARE}·δ at the aim (both sides), and e^{θ(s − g)} times that below it:
   * far under the 1e-3·δ at which {@link PrivacyLossDistribution} calls a round-off bound material,
   * and a change of δ by a relative 2e-5 moves ε by about 2e-5 over the slope of log δ(ε). A
   * larger fold lets the window shrink: DP-SGD (σ = 1.1, q = 0.004, 10^4 steps) at δ = 1e-12 has
   * e^{θs}/M(θ) ≈ 1e10 at its aims, so the rule allows 1e-7 and the cap 1e-9 of the tilted law
   * instead of 1e-18, and its tilted law then fits 2^18 points instead of 2^19 (398735 points at
   * 1e-18, 254412 at 1e-9).
   */
  private static double foldTail(List<Term> terms, double theta, long s, double resolve) {
    if (!(resolve > 0)) {
      return FOLD_TAIL;
    }
    double fold = FOLD_SHARE
        * Math.exp(Math.log(resolve) + theta * s - TiltScale.of(terms, theta).logMgf(theta));
    return Double.isFinite(fold) ? Math.min(MAX_FOLD_TAIL, Math.max(FOLD_TAIL, fold)) : FOLD_TAIL;
  }

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
      List<Term> terms, RealFft fft, Chernoff chernoff, double theta, double foldTail, long aim,
      long windowLo,
      long exactEnd, long highest, long offset, double[] masses, double plainL2) {
    int size = masses.length;
    TiltScale scale = TiltScale.of(terms, theta);
    double logScale = scale.logScale();
    double top = scale.top();
    // The tilted law sits higher than the plain one and may be wider: it is transformed on a
    // window of its own that holds all but foldTail of it on each side (see foldTail; at most
    // MAX_TILT_POINTS points, else centred on the aim). The circular
    // transform folds the tilted mass outside that window into it, where untilting scales it up;
    // its total is bounded by Chernoff on the tilted law, Pr~[S ≥ s] ≤ M(r)e^{−(r−θ)s}/M(θ) for
    // r > θ and Pr~[S ≤ s] ≤ M(r)e^{(θ−r)s}/M(θ) for r < θ, and counted like the round-off. Mass
    // folded from below the window start T lands at least the window length L higher, where
    // untilting scales it by e^{−θL} relative to its own untilted value: at most e^{−θL} in all,
    // which is e^{θT}/M(θ) in the tilted units of the bound (at every index below T + L the
    // untilting factor M(θ)e^{−θs} is at least M(θ)e^{−θ(T+L)}). Only the part of the plain
    // window inside the tilted one is replaced.
    double logMgf = logScale + theta * top;
    Chernoff.TiltedLaw law = chernoff.tiltedLaw(theta, logMgf);
    long lawLo = law.lowerQuantile(foldTail);
    long lawHi = Math.min(highest, law.upperQuantile(foldTail)); // no tilted mass above
    lawLo = Math.min(lawLo, lawHi);
    long tiltedSize = nextPowerOfTwo(Math.max(size, Math.min(MAX_TILT_POINTS, lawHi - lawLo + 1)));
    long tiltedLo = lawHi - lawLo + 1 <= tiltedSize ? lawLo : aim - tiltedSize / 2;
    RealFft tiltedFft = tiltedSize == size ? fft : new RealFft((int) tiltedSize);
    Convolution tilted = convolve(terms, tiltedFft, theta);
    // 1.01: the finite masses sum to at most 1 + 1e-10 (the discretization's margin).
    double foldedFromBelow = Math.min(law.lowerTail(tiltedLo - 1),
        1.01 * Math.exp(theta * tiltedLo - logMgf));
    double folded = (tiltedLo + tiltedSize > highest ? 0 : law.upperTail(tiltedLo + tiltedSize))
        + foldedFromBelow;
    double coefficient = tilted.l2Error() / Math.sqrt(-Math.expm1(-2 * theta)) + folded;
    double logCoefficient = Math.log(coefficient);
    if (!(Double.isFinite(logScale) && Double.isFinite(logCoefficient) && plainL2 > 0)) {
      return new PrivacyLossDistribution.RoundOff(
          plainL2, Long.MAX_VALUE, Long.MAX_VALUE, 0, 0, offset + windowLo, offset + exactEnd);
    }
    // Masses from s* on come from the tilted transform: there its error weight
    // coefficient·e^{logScale + θ(top − s)} is below the plain ℓ₂ bound.
    double switchAt = Math.ceil(top + (logScale + logCoefficient - Math.log(plainL2)) / theta);
    long to = Math.min(exactEnd, tiltedLo + tiltedSize);
    long from = (long) Math.max(Math.max(windowLo, tiltedLo), Math.min(to, switchAt));
    for (long s = from; s < to; s++) {
      double v = tilted.values()[(int) (s & (tiltedSize - 1))];
      masses[(int) (s - windowLo)] = v > 0 ? Math.exp(Math.log(v) + logScale + theta * (top - s)) : 0;
    }
    // In absolute grid indices g = offset + s.
    return new PrivacyLossDistribution.RoundOff(
        plainL2, offset + from, offset + to, theta,
        logCoefficient + logScale + theta * (top + offset),
        offset + windowLo, offset + exactEnd);
  }

  /**
   * The least tilted mass per side a tilted transform may fold into its window (see {@link
   * #tilted} and {@link #foldTail}).
   */
  private static final double FOLD_TAIL = 1e-18;

  /**
   * The most tilted mass per side a tilted transform may fold: the error it adds grows as
   * e^{θ(s − g)} below the aim s, and an aim taken from masses swamped by round-off can lie far
   * above the solution (DP-SGD σ = 1.1, q = 0.004, 10^5 steps at δ = 1e-12, add direction: a cap
   * of 1e-6 left the answer's round-off material there, and two more transforms were run).
   */
  private static final double MAX_FOLD_TAIL = 1e-9;

  /** The share of the δ asked that the folded tilted mass may add at the aim, per side. */
  private static final double FOLD_SHARE = 1e-5;

  /** The most grid points of a tilted transform's window. */
  private static final long MAX_TILT_POINTS = 1 << 22;

  /**
   * Transforms every term (tilted by e^{θ(i − top)}/Z when θ > 0), raises it to its count,
   * multiplies and transforms back, with an ℓ₂ bound on the round-off of the result.
   *
   * <p>The bound is taken frequency by frequency, where the powers are small. (1) Forward
   * transforms: each computed spectrum entry is within e_j = c‖x_j‖₁ of the exact transform of
   * the term's masses x_j (c = {@link RealFft#relativeErrorBound()} plus the folding sums; the
   * componentwise form of Higham's Theorem 24.2, see {@link RealFft}). (2) Powers and products:
   * with m_{j,k} ≥ |X̂_{j,k}| + e_j, which bounds both the computed and the exact entry, |a^c − b^c|
   * ≤ c|a − b| max(|a|, |b|)^{c−1} and the telescoping bound on a product give |ΠX̂_j^{c_j} −
   * ΠX_j^{c_j}| ≤ W_k Σ_j c_j e_j/m_{j,k} with W_k = Π_j m_{j,k}^{c_j}; every complex
   * multiplication rounds with a relative error of at most √2γ₂ &lt; 3u (Higham Lemma 3.5), and
   * repeated squaring raises each rounding to at most 2c_j + 64 in total, so the computed product
   * is within (e^{3uM} − 1)W_k of ΠX̂_j^{c_j}, M the summed exponents. Where the characteristic
   * function of the composed loss is small (almost every frequency of a long composition) W_k is
   * tiny, which is what makes this bound much tighter than a normwise one. (3) Inverse: by
   * Parseval the spectrum error contributes its ℓ₂ norm over √N, and the inverse transform's own
   * error is at most c'‖ŷ‖₂/(1 − c'), c' = c + 2u (the 1/N scaling). Tilted weights are rounded
   * relatively by at most 4u each (exp, product, division by Z), so, all inputs being
   * non-negative, each exact output moves by at most the factor (1 + 4u)^{Σc_j} − 1, which adds
   * that relative share of ‖y‖₂. (4) Negligible entries: where one term's factor bound
   * m_{j,k}^{c_j} is below e^{{@value #LOG_NEGLIGIBLE}} (most frequencies of a long composition:
   * |X̂| ≤ 1 − 0.0035 already gives 1e-150 at 10^5 steps) the entry is set to 0 and not raised to
   * its power; the exact entry has modulus at most W_k, so its error is at most W_k and is counted
   * as max(1, Σ_j c_j e_j/m_{j,k} + e^{3uM} − 1)·W_k. A product with a 0 stays 0, so the rest of
   * the terms' powers skip it too. Below 1e-150 the squared errors of the ℓ₂ sum do not underflow.
   */
  private static Convolution convolve(List<Term> terms, RealFft fft, double theta) {
    int size = fft.size();
    int half = size / 2 + 1;
    double u = Fft.UNIT_ROUNDOFF;
    double c = fft.relativeErrorBound();
    double[] accRe = null;
    double[] accIm = null;
    double[] logWeight = new double[half]; // Σ_j c_j log m_{j,k}
    double[] ratio = new double[half]; // Σ_j c_j e_j / m_{j,k}
    double logSlack = 0; // bound on the rounding of the sums of logarithms
    double roundings = 0; // M: the summed exponents of the multiplication roundings
    double totalCount = 0;
    boolean[] negligible = new boolean[half]; // entries set to 0 instead of raised to a power
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
      double mass = 0;
      for (int i = 0; i < weights.length; i++) {
        folded[i & (size - 1)] += weights[i];
        mass += weights[i];
      }
      // The computed ℓ₁ norm widened by the summation bound 1 + 2nu; each folded slot sums at
      // most ⌈n/N⌉ entries, with a relative rounding of u per addition.
      mass *= 1 + 2.0 * weights.length * u;
      double perSlot = Math.ceil((double) weights.length / size);
      double e = (c + (perSlot - 1) * u * 1.01) * mass + Double.MIN_NORMAL;
      double[][] spectrum = fft.forward(folded);
      double[] re = spectrum[0];
      double[] im = spectrum[1];
      long count = term.count();
      for (int k = 0; k < half; k++) {
        // The computed modulus is within 3u of |X̂|; m = (|X̂| + e) rounded up.
        double bound = (Math.sqrt(re[k] * re[k] + im[k] * im[k]) * (1 + 4 * u) + e) * (1 + 2 * u);
        double logPower = count * Math.log(bound);
        logWeight[k] += logPower;
        ratio[k] += count * (e / bound);
        if (logPower < LOG_NEGLIGIBLE) {
          negligible[k] = true;
        }
        if (negligible[k]) {
          re[k] = 0;
          im[k] = 0;
        }
      }
      double largestLog = Math.max(Math.abs(Math.log(e)), Math.abs(Math.log(mass + e)));
      logSlack += count * 4 * u * (1 + largestLog);
      roundings += 2.0 * count + 64 + 1;
      totalCount += count;
      power(re, im, count);
      if (accRe == null) {
        accRe = re;
        accIm = im;
      } else {
        multiply(accRe, accIm, re, im);
      }
    }
    double[] composed = fft.inverse(accRe, accIm);
    double computedNorm2 = 0;
    for (double v : composed) {
      computedNorm2 += v * v;
    }
    double multiplicationError = Math.expm1(3 * u * roundings * 1.01);
    double widen = Math.exp(logSlack) * (1 + 8 * u * terms.size()) * (1 + 2.0 * half * u);
    double spectrum2 = 0;
    for (int k = 0; k < half; k++) {
      double error = Math.exp(logWeight[k]) * widen
          * (negligible[k] ? Math.max(1, ratio[k] + multiplicationError)
              : ratio[k] + multiplicationError);
      spectrum2 += (k == 0 || k == half - 1 ? 1 : 2) * error * error;
    }
    double weightRounding = theta > 0 ? Math.expm1(4 * u * totalCount * 1.01) : 0;
    double l2 = roundOffL2(size, c, Math.sqrt(spectrum2) * (1 + 2.0 * size * u),
        weightRounding, Math.sqrt(computedNorm2) * (1 + 2.0 * size * u));
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
    Chernoff chernoff = chernoff(terms);
    long windowLo = Math.max(0, chernoff.lowerQuantile(tailMass));
    long windowHi = Math.min(fullWidth(terms) - 1, chernoff.upperQuantile(tailMass));
    return Math.max(1, windowHi - windowLo + 1);
  }

  /**
   * The highest (or lowest) summed index that holds mass: Σ c_j times each term's highest (or
   * lowest) index with a non-zero mass, in exact long arithmetic (a rounded sum could put the top
   * of the support one index low and zero a real mass). A sum beyond the long range answers the
   * side on which nothing is set to zero: 2^62 for the highest, −2^62 for the lowest.
   */
  private static long occupiedSum(List<Term> terms, boolean highest) {
    long sum = 0;
    try {
      for (Term term : terms) {
        int[] support = support(term.distribution().massesView());
        sum = Math.addExact(sum, Math.multiplyExact(term.count(), support[highest ? 1 : 0]));
      }
    } catch (ArithmeticException beyondLong) {
      return highest ? 1L << 62 : -(1L << 62);
    }
    return sum;
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
   * ℓ₂ bound on the round-off of the composed masses ŷ of an inverse transform of length N: the
   * spectrum's error (ℓ₂ over all N entries) over √N by Parseval, plus the inverse's own error
   * c'‖ŷ‖₂/(1 − c') with c' = c + 2u for the 1/N scaling, plus a relative error of the exact
   * result (rounded inputs), which adds that share of ‖y‖₂ ≤ ‖ŷ‖₂ + the bound. A sum of n entries'
   * errors is then at most √n times this ({@link PrivacyLossDistribution.RoundOff}).
   */
  static double roundOffL2(
      int size, double c, double spectrumError, double relativeInputError, double computedNorm) {
    double cInverse = c + 2 * Fft.UNIT_ROUNDOFF;
    double fromSpectrum = spectrumError / Math.sqrt(size) * (1 + 4 * Fft.UNIT_ROUNDOFF);
    double bound = (fromSpectrum + cInverse * computedNorm) / (1 - cInverse);
    return (bound + relativeInputError * computedNorm) / (1 - relativeInputError);
  }

  static int nextPowerOfTwo(long n) {
    int size = 2;
    while (size < n) {
      size <<= 1;
    }
    return size;
  }

  /**
   * z ← z^count pointwise, by repeated squaring: the result is multiplied by the current square
   * for each set bit of count − 1, from the lowest, and the square is squared between bits. The
   * arrays are taken in blocks of {@value #POWER_BLOCK} entries, each through all its squarings
   * while it is in cache (one pass over the arrays, no copies of them); every entry sees the same
   * operations as when whole arrays are squared bit by bit, so the result is the same. A block
   * of zeros (negligible entries, see {@link #convolve}) is skipped.
   */
  private static void power(double[] re, double[] im, long count) {
    if (count == 1) {
      return;
    }
    double[] baseRe = new double[POWER_BLOCK];
    double[] baseIm = new double[POWER_BLOCK];
    for (int from = 0; from < re.length; from += POWER_BLOCK) {
      int n = Math.min(POWER_BLOCK, re.length - from);
      if (zero(re, im, from, n)) {
        continue; // every power of 0 is 0
      }
      System.arraycopy(re, from, baseRe, 0, n);
      System.arraycopy(im, from, baseIm, 0, n);
      long remaining = count - 1;
      while (remaining > 0) {
        if ((remaining & 1) == 1) {
          for (int k = 0; k < n; k++) {
            double r = re[from + k] * baseRe[k] - im[from + k] * baseIm[k];
            double i = re[from + k] * baseIm[k] + im[from + k] * baseRe[k];
            re[from + k] = r;
            im[from + k] = i;
          }
        }
        remaining >>= 1;
        if (remaining > 0) {
          for (int k = 0; k < n; k++) {
            double r = baseRe[k];
            double i = baseIm[k];
            baseRe[k] = r * r - i * i;
            baseIm[k] = 2 * r * i;
          }
        }
      }
    }
  }

  /** Whether the n entries from {@code from} are all 0 (both parts). */
  private static boolean zero(double[] re, double[] im, int from, int n) {
    for (int k = from; k < from + n; k++) {
      if (re[k] != 0 || im[k] != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The log of the factor bound below which a spectrum entry is set to 0 rather than raised to
   * its power (see {@link #convolve}): e^{−345} &lt; 1e-149, far below the round-off bound of any
   * entry, so the composition is as tight, and its square is still a normal number.
   */
  static final double LOG_NEGLIGIBLE = -345;

  /** Entries per block of {@link #power}: four arrays of this many doubles take 32 KiB. */
  private static final int POWER_BLOCK = 1024;

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
      PrivacyLossDistribution.Refinement refinement) {
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
    private final List<Term> terms;

    Chernoff(List<Term> terms) {
      this.terms = terms;
      double interval = terms.get(0).distribution().interval();
      rates = new double[RATES];
      for (int k = 0; k < rates.length; k++) {
        rates[k] = Math.pow(2, -20 + k * 0.5) * interval;
      }
      logMgfUp = logMgf(rates, true);
      logMgfDown = logMgf(rates, false);
    }

    /**
     * Σ_j c_j log of each term's moment generating function at the rates t (upper: E[e^{tI}];
     * lower: E[e^{−tI}]), by Horner's rule on e^{−t} per grid index relative to the term's
     * outermost occupied point — up = Σ_i m_i e^{−t(highest − i)} accumulated upwards, down =
     * Σ_i m_i e^{−t(i − lowest)} accumulated downwards — for all rates in one pass over the masses
     * (the rates' independent chains of multiply-adds side by side).
     */
    private double[] logMgf(double[] t, boolean upper) {
      double[] decay = new double[t.length];
      for (int k = 0; k < t.length; k++) {
        decay[k] = Math.exp(-t[k]);
      }
      double[] log = new double[t.length];
      double[] sum = new double[t.length];
      for (Term term : terms) {
        double[] m = term.distribution().massesView();
        int[] support = support(m);
        int lowest = support[0];
        int highest = support[1];
        java.util.Arrays.fill(sum, 0);
        for (int i = upper ? lowest : highest; upper ? i <= highest : i >= lowest;
            i += upper ? 1 : -1) {
          double mass = m[i];
          for (int k = 0; k < t.length; k++) {
            sum[k] = sum[k] * decay[k] + mass;
          }
        }
        int n = highest - lowest + 1;
        // Each summand carries at most n + 1 roundings of e^{−t} powers and additions, each
        // relative u; 4nu covers them with room. Flushed subnormals: at most n·MIN_NORMAL.
        double widen = 1 + 4.0 * (n + 1) * Fft.UNIT_ROUNDOFF;
        double floor = n * Double.MIN_NORMAL;
        for (int k = 0; k < t.length; k++) {
          log[k] += term.count() * (Math.log(sum[k] * widen + floor)
              + (upper ? t[k] * highest : -t[k] * lowest));
        }
      }
      return log;
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
     * log M(t) = log E[e^{tS}] for a rate t > 0 per grid index, evaluated like the grid of rates
     * (Horner's rule relative to each term's highest occupied point, widened for rounding), so an
     * upper bound on the true value up to those widenings.
     */
    double logMgfAt(double t) {
      double decay = Math.exp(-t);
      double log = 0;
      for (Term term : terms) {
        double[] m = term.distribution().massesView();
        int[] support = support(m);
        int lowest = support[0];
        int highest = support[1];
        double up = 0;
        for (int i = lowest; i <= highest; i++) {
          up = up * decay + m[i];
        }
        int n = highest - lowest + 1;
        double widen = 1 + 4.0 * (n + 1) * Fft.UNIT_ROUNDOFF;
        log += term.count() * (Math.log(up * widen + n * Double.MIN_NORMAL) + t * highest);
      }
      return log;
    }

    /**
     * The Chernoff-optimal rate for the upper tail at summed index s: the t > 0 minimizing
     * log M(t) − ts (a convex function), found on the grid of rates and refined by golden-section
     * search between the grid neighbours of the best; 0 if there is none. At that rate the tilted
     * law has its mean near s, which a coarse grid of rates would miss by far for a heavy tail.
     */
    double optimalRate(long s) {
      double best = Double.POSITIVE_INFINITY;
      int index = -1;
      for (int k = 0; k < rates.length; k++) {
        double exponent = logMgfUp[k] - rates[k] * s;
        if (exponent < best) {
          best = exponent;
          index = k;
        }
      }
      if (index < 0) {
        return 0;
      }
      double lo = index > 0 ? rates[index - 1] : rates[0] / 2;
      double hi = index < rates.length - 1 ? rates[index + 1] : rates[index];
      double ratio = (Math.sqrt(5) - 1) / 2;
      double a = hi - ratio * (hi - lo);
      double b = lo + ratio * (hi - lo);
      double fa = logMgfAt(a) - a * s;
      double fb = logMgfAt(b) - b * s;
      for (int i = 0; i < 40 && hi - lo > 1e-4 * lo; i++) {
        if (fa <= fb) {
          hi = b;
          b = a;
          fb = fa;
          a = hi - ratio * (hi - lo);
          fa = logMgfAt(a) - a * s;
        } else {
          lo = a;
          a = b;
          fa = fb;
          b = lo + ratio * (hi - lo);
          fb = logMgfAt(b) - b * s;
        }
      }
      double rate = 0.5 * (lo + hi);
      return Double.isFinite(logMgfAt(rate)) ? rate : 0;
    }

    /**
     * Chernoff bounds on the law tilted by e^{θS}/M(θ), given log M(θ): Pr~[S ≥ s] ≤
     * M(r)e^{−(r−θ)s}/M(θ) for r > θ, Pr~[S ≤ s] ≤ M(r)e^{(θ−r)s}/M(θ) for r < θ (and r = 0,
     * where M(0) ≤ 1), over the grid of rates and rates θ(1 ± 2^{−j/2}) near θ.
     */
    TiltedLaw tiltedLaw(double theta, double logMgfAtTheta) {
      int near = 12;
      double[] upRates = new double[rates.length + near];
      double[] upLogs = new double[upRates.length];
      double[] downRates = new double[rates.length + near + 1];
      double[] downLogs = new double[downRates.length];
      int ups = 0;
      int downs = 0;
      downRates[downs] = 0;
      downLogs[downs++] = 0;
      for (int k = 0; k < rates.length; k++) {
        if (rates[k] > theta) {
          upRates[ups] = rates[k];
          upLogs[ups++] = logMgfUp[k];
        } else if (rates[k] < theta) {
          downRates[downs] = rates[k];
          downLogs[downs++] = logMgfUp[k];
        }
      }
      double[] nearRates = new double[2 * near];
      for (int j = 0; j < near; j++) {
        double step = Math.pow(2, -(j + 1) * 0.5);
        nearRates[2 * j] = theta * (1 + step);
        nearRates[2 * j + 1] = theta * (1 - step);
      }
      double[] nearLogs = logMgf(nearRates, true);
      for (int j = 0; j < near; j++) {
        upRates[ups] = nearRates[2 * j];
        upLogs[ups++] = nearLogs[2 * j];
        downRates[downs] = nearRates[2 * j + 1];
        downLogs[downs++] = nearLogs[2 * j + 1];
      }
      return new TiltedLaw(theta, logMgfAtTheta, java.util.Arrays.copyOf(upRates, ups),
          java.util.Arrays.copyOf(upLogs, ups), java.util.Arrays.copyOf(downRates, downs),
          java.util.Arrays.copyOf(downLogs, downs));
    }

    /** Chernoff bounds on a tilted law at fixed rates (see {@link #tiltedLaw}). */
    record TiltedLaw(double theta, double logMgfAtTheta, double[] upRates, double[] upLogs,
        double[] downRates, double[] downLogs) {
      /** Bound on the tilted mass at or above s, at most 1. */
      double upperTail(long s) {
        double best = 0;
        for (int k = 0; k < upRates.length; k++) {
          best = Math.min(best, upLogs[k] - logMgfAtTheta - (upRates[k] - theta) * s);
        }
        // A relative 1e-9 covers the rounding of log M(θ), computed from the same masses.
        return Math.exp(best) * (1 + 1e-9);
      }

      /** Bound on the tilted mass at or below s, at most 1. */
      double lowerTail(long s) {
        double best = 0;
        for (int k = 0; k < downRates.length; k++) {
          best = Math.min(best, downLogs[k] - logMgfAtTheta + (theta - downRates[k]) * s);
        }
        return Math.exp(best) * (1 + 1e-9);
      }

      /** The smallest s whose upper-tail bound is at most the tail. */
      long upperQuantile(double tail) {
        double best = Double.POSITIVE_INFINITY;
        for (int k = 0; k < upRates.length; k++) {
          best = Math.min(best,
              Math.ceil((upLogs[k] - logMgfAtTheta - Math.log(tail)) / (upRates[k] - theta)));
        }
        return (long) Math.max(-Long.MAX_VALUE / 4.0, Math.min(best, Long.MAX_VALUE / 4.0));
      }

      /** The largest s whose lower-tail bound is at most the tail. */
      long lowerQuantile(double tail) {
        double best = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < downRates.length; k++) {
          best = Math.max(best,
              Math.floor((Math.log(tail) - downLogs[k] + logMgfAtTheta) / (theta - downRates[k])));
        }
        return (long) Math.max(-Long.MAX_VALUE / 4.0, Math.min(best, Long.MAX_VALUE / 4.0));
      }
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

  /**
   * The first and last index of {@code m} holding a non-zero mass (both the last index when all
   * are zero): the range the tilted sums run over.
   */
  private static int[] support(double[] m) {
    int lowest = 0;
    while (lowest < m.length - 1 && m[lowest] == 0) {
      lowest++;
    }
    int highest = m.length - 1;
    while (highest > lowest && m[highest] == 0) {
      highest--;
    }
    return new int[] {lowest, highest};
  }
}
