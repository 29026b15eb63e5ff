package dev.tradeoff.docs;

import dev.tradeoff.beam.coder.IntArrayCoder;
import dev.tradeoff.beam.pate.PateAggregation;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.ensemble.pate.GnssRelease;
import dev.tradeoff.ensemble.pate.PateAggregator;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;

/** docs/pate.md, on a cluster. */
final class PateBeamExample {
  private PateBeamExample() {}

  static PateAggregation build(Pipeline pipeline) {
    // [example]
    // (query id, vote counts) of 250 teachers over three classes, read from anywhere
    PCollection<KV<String, int[]>> votes = pipeline.apply(Create.of(List.of(
            KV.of("q1", new int[] {231, 12, 7}), KV.of("q2", new int[] {90, 85, 75})))
        .withCoder(KvCoder.of(StringUtf8Coder.of(), IntArrayCoder.of())));
    PateAggregation aggregation = PateAggregation.of(
            new PateAggregator.ConfidentGnmax(200, 150, 40),
            new PateAggregation.Declared(2, 3, 250), ElementRandomness.secure())
        .withRelease(GnssRelease.of(20, 10), 1e-5);   // optional
    PCollectionTuple out = votes.apply(aggregation);
    out.get(PateAggregation.ANSWERS);   // KV<id, Answer>: Labelled, Abstained
    out.get(PateAggregation.RELEASE);   // one GnssRelease.Released
    // Interactive-GNMax: PateAggregation.interactiveGnmax(T, sigma1, sigma2, gamma,
    // studentProbabilities, declared, randomness) joins KV<id, double[]> by id
    // [/example]
    return aggregation;
  }

  static PateAggregation run() {
    Pipeline pipeline = Pipeline.create(BeamRunner.DIRECT.options(1));
    PateAggregation aggregation = build(pipeline);
    pipeline.run().waitUntilFinish();
    return aggregation;
  }
}
