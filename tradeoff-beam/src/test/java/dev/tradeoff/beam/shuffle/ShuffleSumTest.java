package dev.tradeoff.beam.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.beam.budget.PrivatePipeline;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.beam.runner.Collected;
import dev.tradeoff.shuffle.protocol.RealSumProtocol;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShuffleSumTest {

  @TempDir Path tmp;

  @Test
  void estimateIsWithinFiveStandardErrorsOfTheTrueSumAndUsesTheExactMu() {
    int n = 400;
    double lambda = 40;
    int bits = 4;
    SplittableRandom data = new SplittableRandom(2);
    List<KV<String, Double>> values = new ArrayList<>();
    double truth = 0;
    for (int i = 0; i < n; i++) {
      double x = data.nextDouble();
      truth += x;
      values.add(KV.of("user" + i, x));
    }
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(2),
        new ApproxDp(100, 1e-6), ElementRandomness.seeded(9));
    ShuffleSum sum = ShuffleSum.of(n, lambda, bits, pp.randomness());
    Collected out = Collected.writeTo(pp.apply("Sum", pp.pipeline().apply(Create.of(values)
            .withCoder(KvCoder.of(StringUtf8Coder.of(), DoubleCoder.of()))), sum)
        .apply(MapElements.into(TypeDescriptors.strings()).via(d -> Double.toString(d))),
        tmp.resolve("out"));
    pp.run();
    assertThat(out.lines()).hasSize(1);
    double estimate = Double.parseDouble(out.lines().get(0));
    double sd = Math.sqrt(new RealSumProtocol(new ShuffleParameters(n, lambda), bits)
        .varianceBound());
    assertThat(estimate).isBetween(truth - 5 * sd, truth + 5 * sd);
    assertThat(sum.event()).isEqualTo(new GuaranteeEvent(new GaussianDp(sum.mu())));
    assertThat(sum.mu()).isPositive().isFinite();
  }

  @Test
  void fewerUsersThanDeclaredFailsBeforeTheSumIsReleased() {
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(1),
        new ApproxDp(100, 1e-6), ElementRandomness.seeded(9));
    pp.apply("Sum", pp.pipeline().apply(Create.of(List.of(KV.of("a", 0.5), KV.of("b", 0.5)))
        .withCoder(KvCoder.of(StringUtf8Coder.of(), DoubleCoder.of()))),
        ShuffleSum.of(10, 2, 1, pp.randomness()));
    assertThatThrownBy(pp::run).hasStackTraceContaining(
        "messages must number users * bits = 10");
  }
}
