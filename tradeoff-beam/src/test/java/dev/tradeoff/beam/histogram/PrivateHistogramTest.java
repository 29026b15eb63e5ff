package dev.tradeoff.beam.histogram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.beam.budget.PrivatePipeline;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.beam.runner.Collected;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivateHistogramTest {

  @TempDir Path tmp;

  private static Map<String, Double> parse(List<String> lines, String prefix) {
    Map<String, Double> m = new HashMap<>();
    for (String line : lines) {
      String[] f = line.split(" ");
      if (f[0].equals(prefix)) {
        m.put(f[1], Double.parseDouble(f[2]));
      }
    }
    return m;
  }

  @Test
  void boundsContributionsReleasesTheWholeDomainAndAddsCalibratedNoise() {
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(2),
        new ApproxDp(1e8, 1e-6), ElementRandomness.seeded(3));
    List<KV<String, String>> pairs = new ArrayList<>();
    // Unit u0 visits a, b, c, d (twice each) and an off-domain key; l0 = 2 keeps two of them once.
    for (String k : List.of("a", "b", "c", "d", "a", "b", "c", "d", "zzz")) {
      pairs.add(KV.of("u0", k));
    }
    // 50 units visit only "a", 30 only "b" (some repeatedly).
    for (int u = 1; u <= 50; u++) {
      pairs.add(KV.of("u" + u, "a"));
      pairs.add(KV.of("u" + u, "a"));
    }
    for (int u = 51; u <= 80; u++) {
      pairs.add(KV.of("u" + u, "b"));
    }
    // Noise check: 400 keys nobody visits, each gets discrete Laplace noise.
    List<String> empty = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      empty.add("e" + i);
    }
    PCollection<KV<String, String>> in = pp.pipeline().apply(Create.of(pairs)
        .withCoder(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of())));
    // epsilon = 1e7: Laplace noise of scale 2e-7, so rounding recovers the bounded counts.
    PCollection<String> exact = pp.apply("Exact", in, PrivateHistogram.over(
            List.of("a", "b", "c", "d", "never"), HistogramNoise.laplace(1e7, 2), pp.randomness()))
        .apply("F1", MapElements.into(TypeDescriptors.strings())
            .via(kv -> "exact " + kv.getKey() + " " + Math.round(kv.getValue())));
    PCollection<String> noisy = pp.apply("Noisy", in, PrivateHistogram.over(empty,
            HistogramNoise.discreteLaplace(1, 1), pp.randomness()))
        .apply("F2", MapElements.into(TypeDescriptors.strings())
            .via(kv -> "noisy " + kv.getKey() + " " + kv.getValue()));
    Collected out = Collected.writeTo(
        org.apache.beam.sdk.values.PCollectionList.of(exact).and(noisy)
            .apply(org.apache.beam.sdk.transforms.Flatten.pCollections()), tmp.resolve("out"));
    pp.run();

    Map<String, Double> counts = parse(out.lines(), "exact");
    assertThat(counts.keySet()).containsExactlyInAnyOrder("a", "b", "c", "d", "never");
    double u0 = counts.get("a") - 50 + counts.get("b") - 30 + counts.get("c") + counts.get("d");
    assertThat(u0).isEqualTo(2.0); // u0 kept exactly l0 = 2 distinct keys, each once
    assertThat(counts.get("a") - 50).isBetween(0.0, 1.0);
    assertThat(counts.get("never")).isZero();

    Map<String, Double> noise = parse(out.lines(), "noisy");
    assertThat(noise).hasSize(400);
    assertThat(noise.values()).allMatch(v -> v == Math.rint(v));
    double mean = noise.values().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double var = noise.values().stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / 399;
    // Discrete Laplace with t = 1: variance 2e^-1/(1 - e^-1)^2 = 1.8416; the sample variance of
    // 400 draws has sd about 0.25 (kurtosis 6), so 5 sd either side.
    double expected = 2 * Math.exp(-1) / Math.pow(1 - Math.exp(-1), 2);
    assertThat(var).isBetween(expected - 1.25, expected + 1.25);
    assertThat(mean).isBetween(-5 * Math.sqrt(expected / 400), 5 * Math.sqrt(expected / 400));
  }

  @Test
  void eventIsTheMechanismsGuaranteeForTheContributionBound() {
    assertThat(HistogramNoise.laplace(0.5, 3).event()).isEqualTo(new GuaranteeEvent(
        new PureDp(0.5)));
    assertThat(PrivateHistogram.over(List.of("x"), HistogramNoise.discreteLaplace(0.7, 2),
        ElementRandomness.secure()).event()).isEqualTo(new GuaranteeEvent(new PureDp(0.7)));
  }

  @Test
  void badParametersAreRejectedWithTheParameterName() {
    assertThatThrownBy(() -> HistogramNoise.laplace(-1, 1))
        .hasMessageContaining("epsilon must be > 0");
    assertThatThrownBy(() -> HistogramNoise.gaussian(1, 1.5, 1)).hasMessageContaining("delta");
    assertThatThrownBy(() -> HistogramNoise.laplace(1, 0)).hasMessageContaining("l0");
    assertThatThrownBy(() -> PrivateHistogram.over(List.of("a", "a"),
        HistogramNoise.laplace(1, 1), ElementRandomness.secure()))
        .hasMessageContaining("domain must not repeat a key");
    assertThatThrownBy(() -> PrivateHistogram.over(List.of(), HistogramNoise.laplace(1, 1),
        ElementRandomness.secure())).hasMessageContaining("domain size must be >= 1, but was 0");
  }
}
