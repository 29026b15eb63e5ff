package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The round-off bound of an FFT composition against the exact law. The step laws have masses
 * exact in binary, so their n-fold compositions are binomial laws, whose masses are computed here
 * in 60-digit decimal arithmetic (by the ratio of consecutive masses, k + 1 over n − k times
 * p/(1 − p)).
 */
class ComposerRoundOffTest {

  private static final MathContext DIGITS = new MathContext(60);

  /** Binomial(trials, p) masses for k = 0 … trials, rounded to double from 60 digits. */
  private static double[] binomial(int trials, BigDecimal p) {
    BigDecimal q = BigDecimal.ONE.subtract(p);
    BigDecimal mass = q.pow(trials, DIGITS);
    BigDecimal odds = p.divide(q, DIGITS);
    double[] masses = new double[trials + 1];
    for (int k = 0; k <= trials; k++) {
      masses[k] = mass.doubleValue();
      mass = mass.multiply(BigDecimal.valueOf(trials - k)).multiply(odds)
          .divide(BigDecimal.valueOf(k + 1), DIGITS);
    }
    return masses;
  }

  /**
   * Checks Σ_{g ≥ from} |computed − exact| ≤ the bound at 40 cut points, the exact masses' own
   * rounding to double (half an ulp each) allowed for; returns the largest ratio of the bound to
   * the normwise bound count·c·‖m‖₂·√(entries) at those points.
   */
  private static double checkBound(double[] step, int count, double[] exact) {
    PrivacyLossDistribution composed = new Composer(1e-300, 1 << 20).compose(List.of(
        new Composer.Term(new PrivacyLossDistribution(
            Discretization.PESSIMISTIC, 1, 0, step, 0, 0), count)));
    int top = exact.length - 1;
    double[] error = new double[exact.length + 1]; // error[g] = Σ_{k ≥ g} |computed − exact|
    double[] allowance = new double[exact.length + 1];
    for (int k = top; k >= 0; k--) {
      int index = (int) (k - composed.offset());
      double computed = index >= 0 && index < composed.size() ? composed.massAt(index) : 0;
      error[k] = error[k + 1] + Math.abs(computed - exact[k]);
      allowance[k] = allowance[k + 1] + Math.ulp(exact[k]);
    }
    double norm2 = 0;
    for (double m : step) {
      norm2 += m * m;
    }
    RealFft fft = new RealFft(Math.max(4, Composer.nextPowerOfTwo(top + 1)));
    double normwise = count * fft.relativeErrorBound() * Math.sqrt(norm2);
    double largestRatio = 0;
    for (int from = 0; from <= top; from += Math.max(1, top / 40)) {
      double bound = composed.roundOffAbove(from - 1);
      assertThat(error[from]).as("count=%d, from=%d", count, from)
          .isLessThanOrEqualTo(bound + allowance[from]);
      largestRatio = Math.max(largestRatio, bound / (normwise * Math.sqrt(top + 1.0 - from)));
    }
    return largestRatio;
  }

  @Test
  void theBoundCoversTheErrorOfComposedTwoPointLaws() {
    for (int count : new int[] {1, 2, 50, 700, 3000}) {
      checkBound(new double[] {0.75, 0.25}, count,
          binomial(count, new BigDecimal("0.25")));
    }
  }

  /**
   * A long composition of a spread-out step (binomial(7, 1/2), composed 20000 times: binomial(
   * 140000, 1/2) over an FFT of 2^18 points): the frequency-by-frequency bound covers the error and
   * is far below a normwise bound, because almost every frequency of the composed law is tiny.
   */
  @Test
  void theBoundOfALongCompositionIsFarBelowTheNormwiseBound() {
    double[] step = new double[8];
    long coefficient = 1;
    for (int k = 0; k < 8; k++) {
      step[k] = coefficient / 128.0;
      coefficient = coefficient * (7 - k) / (k + 1);
    }
    double ratio = checkBound(step, 20_000, binomial(140_000, new BigDecimal("0.5")));
    assertThat(ratio).isLessThan(0.125);
  }
}
