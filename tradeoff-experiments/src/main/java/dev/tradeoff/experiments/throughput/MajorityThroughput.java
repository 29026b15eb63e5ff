package dev.tradeoff.experiments.throughput;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.coder.IntArrayCoder;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.ensemble.aggregate.Darrm;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Throughput of DaRRM aggregation: Q queries × K votes through {@link PrivateMajority} on a Beam
 * runner, next to the same work as a plain Java loop in the same JVM. The votes of query q are a
 * deterministic function of q (generated inside the pipeline, so no Q-element list is held by the
 * driver); the labels are counted with a Beam counter so that nothing is collected.
 *
 * <p>Usage: {@code MajorityThroughput [queries] [runner] [parallelism]}; prints one line per
 * measurement. Not a unit test (timings depend on the machine).
 */
public final class MajorityThroughput {

  private static final int K = 11;

  private MajorityThroughput() {}

  /** The votes of query q: K votes, each 1 with a query-specific probability. */
  static int[] votes(long q) {
    SplittableRandom r = new SplittableRandom(q * 0x9E3779B97F4A7C15L + 17);
    double p = r.nextDouble();
    int[] v = new int[K];
    for (int t = 0; t < K; t++) {
      v[t] = r.nextDouble() < p ? 1 : 0;
    }
    return v;
  }

  /** Seconds for the plain loop; also returns the number of ones through {@code ones[0]}. */
  static double plainLoop(long queries, NoiseFunction gamma, ElementRandomness randomness,
      long[] ones) {
    long start = System.nanoTime();
    long count = 0;
    for (long q = 0; q < queries; q++) {
      count += Darrm.aggregate(votes(q), gamma, randomness.forElement("majority-darrm", q));
    }
    ones[0] = count;
    return (System.nanoTime() - start) / 1e9;
  }

  /** Seconds for the pipeline (construction excluded, run to completion included). */
  static double pipeline(long queries, NoiseFunction gamma, DarrmSetting setting,
      ElementRandomness randomness, BeamRunner runner, int parallelism, long[] ones) {
    Pipeline p = Pipeline.create(runner.options(parallelism));
    p.apply("Queries", GenerateSequence.from(0).to(queries))
        .apply("Votes", MapElements.into(TypeDescriptors.kvs(TypeDescriptors.longs(),
            TypeDescriptors.voids())).via(q -> KV.of(q, (Void) null)))
        .apply("VoteVectors", ParDo.of(new DoFn<KV<Long, Void>, KV<Long, int[]>>() {
          private static final long serialVersionUID = 1L;

          @ProcessElement
          public void process(@Element KV<Long, Void> q, OutputReceiver<KV<Long, int[]>> out) {
            out.output(KV.of(q.getKey(), votes(q.getKey())));
          }
        })).setCoder(KvCoder.of(VarLongCoder.of(), IntArrayCoder.of()))
        .apply("Darrm", PrivateMajority.darrm(setting, gamma, (int) queries, randomness))
        .apply("Count", ParDo.of(new DoFn<KV<Long, Integer>, Void>() {
          private static final long serialVersionUID = 1L;
          private final Counter counter = Metrics.counter(MajorityThroughput.class, "ones");

          @ProcessElement
          public void process(@Element KV<Long, Integer> label) {
            counter.inc(label.getValue());
          }
        }));
    long start = System.nanoTime();
    PipelineResult result = p.run();
    result.waitUntilFinish();
    double seconds = (System.nanoTime() - start) / 1e9;
    var counters = result.metrics().queryMetrics(MetricsFilter.builder()
        .addNameFilter(MetricNameFilter.named(MajorityThroughput.class, "ones")).build())
        .getCounters();
    ones[0] = -1;
    for (var c : counters) {
      ones[0] = c.getAttempted();
    }
    return seconds;
  }

  public static void main(String[] args) {
    long queries = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
    BeamRunner runner = args.length > 1 ? BeamRunner.parse(args[1]) : BeamRunner.DIRECT;
    int parallelism = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Require.positive("queries", queries);
    DarrmSetting setting = DarrmSetting.withDefaultDelta(K, 0.0852, 1e-4, 3);
    NoiseFunction gamma = NoiseFunction.subsampling(K, 3);
    ElementRandomness seeded = ElementRandomness.seeded(1);
    long[] loopOnes = new long[1];
    double loop = plainLoop(queries, gamma, seeded, loopOnes);
    System.out.printf(Locale.ROOT, "plain Java loop (seeded): %d queries x %d votes in %.2f s "
        + "(%.0f queries/s), ones = %d%n", queries, K, loop, queries / loop, loopOnes[0]);
    long[] secureOnes = new long[1];
    double secureLoop = plainLoop(queries, gamma, ElementRandomness.secure(), secureOnes);
    System.out.printf(Locale.ROOT, "plain Java loop (SecureRandom): %.2f s (%.0f queries/s)%n",
        secureLoop, queries / secureLoop);
    long[] beamOnes = new long[1];
    double beam = pipeline(queries, gamma, setting, seeded, runner, parallelism, beamOnes);
    System.out.printf(Locale.ROOT, "%s runner, parallelism %d (seeded): %.2f s (%.0f queries/s), "
        + "ones = %d (%s the loop's)%n", runner.cliName(), parallelism, beam, queries / beam,
        beamOnes[0], beamOnes[0] == loopOnes[0] ? "identical to" : "DIFFERENT from");
  }
}
