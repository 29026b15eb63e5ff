package dev.tradeoff.docs;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.budget.PipelineManifest;
import dev.tradeoff.beam.budget.PrivatePipeline;
import dev.tradeoff.beam.coder.IntArrayCoder;
import dev.tradeoff.beam.histogram.HistogramNoise;
import dev.tradeoff.beam.histogram.PrivateHistogram;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;

/** docs/beam.md. */
final class BeamExample {
  private BeamExample() {}

  record Out(List<String> lines, double epsilon) {}

  static Out run(Path outDir) {
    // [example]
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(2),
        new ApproxDp(2.0, 1e-3),            // the budget of the whole run
        ElementRandomness.secure())         // ElementRandomness.seeded(s) only for tests
        .writingTo(outDir, false);          // results committed there only if the run succeeds

    // A histogram of pages per user: each user counts on at most 2 pages.
    PCollection<KV<String, String>> visits = pp.pipeline().apply("Visits", Create.of(
            KV.of("ann", "home"), KV.of("ann", "faq"), KV.of("bob", "home"))
        .withCoder(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of())));
    PCollection<KV<String, Double>> counts = pp.apply("Pages", visits, PrivateHistogram.over(
        List.of("home", "faq", "contact"), HistogramNoise.discreteLaplace(0.5, 2),
        pp.randomness()));

    // DaRRM labels for 2 queries of 11 teachers' votes.
    DarrmSetting setting = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    PCollection<KV<Long, int[]>> votes = pp.pipeline().apply("Votes", Create.of(
            KV.of(0L, new int[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}),
            KV.of(1L, new int[] {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1}))
        .withCoder(KvCoder.of(VarLongCoder.of(), IntArrayCoder.of())));
    PCollection<KV<Long, Integer>> labels = pp.apply("Labels", votes, PrivateMajority.darrm(
        setting, NoiseFunction.subsampling(11, 3), 2, pp.randomness()));

    pp.writeCsv("pages", counts.apply("F1", MapElements.into(TypeDescriptors.strings())
        .via(kv -> kv.getKey() + "," + kv.getValue())), "page,count", 3); // 3 public pages
    pp.writeCsv("labels", labels.apply("F2", MapElements.into(TypeDescriptors.strings())
        .via(kv -> kv.getKey() + "," + kv.getValue())), "query,label", 2); // 2 queries
    double epsilon = pp.guarantee().total().epsilon(); // computed before anything runs
    // charges the budget (refused, nothing run, if epsilon exceeds it), runs, checks that each
    // output has its planned rows, commits pages-*.csv, labels-*.csv and manifest.json
    PipelineManifest manifest = pp.run().manifest().orElseThrow();
    // [/example]
    List<String> lines = new ArrayList<>();
    for (List<String> files : manifest.files().values()) {
      for (String file : files) {
        try {
          List<String> shard = Files.readAllLines(outDir.resolve(file));
          lines.addAll(shard.subList(1, shard.size()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return new Out(lines, epsilon);
  }
}
