package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RealFftTest {

  @Test
  void forwardMatchesTheComplexTransformOfTheSameRealSequence() {
    SplittableRandom random = new SplittableRandom(71);
    for (int log = 2; log <= 10; log++) {
      int n = 1 << log;
      double[] x = random.doubles(n, -1, 1).toArray();
      double[] re = x.clone();
      double[] im = new double[n];
      new Fft(n).forward(re, im);
      double[][] half = new RealFft(n).forward(x);
      for (int k = 0; k <= n / 2; k++) {
        assertThat(half[0][k]).isCloseTo(re[k % n], within(1e-12));
        assertThat(half[1][k]).isCloseTo(im[k % n], within(1e-12));
      }
    }
  }

  @Test
  void inverseRecoversTheSequenceAndConvolvesThroughProducts() {
    SplittableRandom random = new SplittableRandom(72);
    int n = 256;
    double[] a = random.doubles(n, 0, 1).toArray();
    double[] b = random.doubles(n, 0, 1).toArray();
    RealFft fft = new RealFft(n);
    double[] back = fft.inverse(fft.forward(a)[0], fft.forward(a)[1]);
    for (int i = 0; i < n; i++) {
      assertThat(back[i]).isCloseTo(a[i], within(1e-13));
    }
    double[][] fa = fft.forward(a);
    double[][] fb = fft.forward(b);
    double[] re = new double[n / 2 + 1];
    double[] im = new double[n / 2 + 1];
    for (int k = 0; k <= n / 2; k++) {
      re[k] = fa[0][k] * fb[0][k] - fa[1][k] * fb[1][k];
      im[k] = fa[0][k] * fb[1][k] + fa[1][k] * fb[0][k];
    }
    double[] conv = fft.inverse(re, im);
    for (int s = 0; s < n; s++) {
      double expected = 0;
      for (int i = 0; i < n; i++) {
        expected += a[i] * b[(s - i + n) % n];
      }
      assertThat(conv[s]).isCloseTo(expected, within(1e-11));
    }
  }

  @Test
  void rejectsTooShortLengths() {
    assertThatThrownBy(() -> new RealFft(2))
        .hasMessage("size must be a power of two >= 4, but was 2");
  }
}
