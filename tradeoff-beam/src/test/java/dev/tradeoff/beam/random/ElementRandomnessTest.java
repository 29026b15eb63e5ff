package dev.tradeoff.beam.random;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.mechanisms.random.Randomness;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class ElementRandomnessTest {

  private static long[] draws(RandomGenerator r) {
    long[] d = new long[8];
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextLong();
    }
    return d;
  }

  @Test
  void seededGeneratorDependsOnlyOnSeedStreamAndKey() throws Exception {
    ElementRandomness a = ElementRandomness.seeded(42);
    ElementRandomness b = roundTrip(ElementRandomness.seeded(42));
    SplittableRandom keys = new SplittableRandom(1);
    for (int i = 0; i < 200; i++) {
      long key = keys.nextLong();
      assertThat(draws(b.forElement("s", key))).containsExactly(draws(a.forElement("s", key)));
      assertThat(draws(b.forElement("s", "k" + key)))
          .containsExactly(draws(a.forElement("s", "k" + key)));
    }
  }

  @Test
  void seededGeneratorsAreTheSameFromManyThreadsAtOnce() throws Exception {
    // the per-thread SHA-256 must not leak state between elements or threads
    ElementRandomness r = ElementRandomness.seeded(42);
    long[] expected = new long[2000];
    for (int i = 0; i < expected.length; i++) {
      expected[i] = r.forElement("s", "q" + i).nextLong();
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors
        .newFixedThreadPool(4);
    try {
      java.util.List<java.util.concurrent.Future<long[]>> runs = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t;
        runs.add(pool.submit(() -> {
          long[] got = new long[expected.length];
          for (int j = 0; j < got.length; j++) {
            int i = (j + offset * 500) % got.length;
            got[i] = r.forElement("s", "q" + i).nextLong();
          }
          return got;
        }));
      }
      for (java.util.concurrent.Future<long[]> run : runs) {
        assertThat(run.get()).containsExactly(expected);
      }
    } finally {
      pool.shutdown();
    }
    assertThat(java.util.Arrays.stream(expected).distinct().count()).isEqualTo(expected.length);
  }

  @Test
  void seededGeneratorsOfDifferentKeysStreamsAndSeedsDiffer() {
    ElementRandomness r = ElementRandomness.seeded(42);
    long first = r.forElement("s", 0L).nextLong();
    assertThat(r.forElement("s", 1L).nextLong()).isNotEqualTo(first);
    assertThat(r.forElement("t", 0L).nextLong()).isNotEqualTo(first);
    assertThat(ElementRandomness.seeded(43).forElement("s", 0L).nextLong()).isNotEqualTo(first);
    // A numeric key and its decimal string are different keys.
    assertThat(r.forElement("s", "0").nextLong()).isNotEqualTo(first);
  }

  @Test
  void seededFirstDrawsOverManyKeysLookUniform() {
    ElementRandomness r = ElementRandomness.seeded(7);
    int n = 20_000;
    int[] bins = new int[10];
    for (long k = 0; k < n; k++) {
      bins[(int) (r.forElement("u", k).nextDouble() * 10)]++;
    }
    double chi2 = 0;
    for (int b : bins) {
      chi2 += (b - n / 10.0) * (b - n / 10.0) / (n / 10.0);
    }
    // 9 degrees of freedom: P(chi2 > 27.9) = 0.001.
    assertThat(chi2).isLessThan(27.9);
  }

  @Test
  void secureIsTheDefaultSourceAndUsesTheProductionSource() throws Exception {
    ElementRandomness secure = roundTrip(ElementRandomness.secure());
    assertThat(secure.isSeeded()).isFalse();
    assertThat(secure.seed()).isEmpty();
    assertThat(secure.forElement("s", 1L)).isExactlyInstanceOf(Randomness.secure().getClass());
    assertThat(ElementRandomness.seeded(5).seed()).hasValue(5);
  }

  private static ElementRandomness roundTrip(ElementRandomness r) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(r);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (ElementRandomness) in.readObject();
    }
  }
}
