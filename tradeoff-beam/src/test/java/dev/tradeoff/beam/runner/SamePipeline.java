package dev.tradeoff.beam.runner;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.budget.PrivatePipeline;
import dev.tradeoff.beam.coder.IntArrayCoder;
import dev.tradeoff.beam.histogram.HistogramNoise;
import dev.tradeoff.beam.histogram.PrivateHistogram;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.pate.PateAggregation;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.pate.GnssRelease;
import dev.tradeoff.ensemble.pate.PateAggregator;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * One fixed pipeline (histogram, DaRRM, GNMax, and PATE's Confident-GNMax with its
 * smooth-sensitivity release and Interactive-GNMax with a joined student) run on any runner; its
 * sorted output lines.
 */
final class SamePipeline {

  static final int QUERIES = 400;
  static final int TEACHERS = 11;
  static final int PATE_QUERIES = 60;
  static final int PATE_TEACHERS = 200;

  private SamePipeline() {}

  static List<String> run(BeamRunner runner, long seed, Path out) {
    PrivatePipeline pp = PrivatePipeline.create(runner.options(2), new ApproxDp(1000, 0.1),
        ElementRandomness.seeded(seed));
    SplittableRandom data = new SplittableRandom(7);
    List<KV<String, String>> visits = new ArrayList<>();
    List<String> pages = List.of("a", "b", "c", "d", "e");
    for (int user = 0; user < 300; user++) {
      int n = 1 + data.nextInt(6);
      for (int i = 0; i < n; i++) {
        visits.add(KV.of("u" + user, pages.get(data.nextInt(pages.size()))));
      }
    }
    visits.add(KV.of("u0", "not-in-domain"));
    List<KV<Long, int[]>> votes = new ArrayList<>();
    for (long q = 0; q < QUERIES; q++) {
      int[] v = new int[TEACHERS];
      double p = data.nextDouble();
      for (int t = 0; t < TEACHERS; t++) {
        v[t] = data.nextDouble() < p ? 1 : 0;
      }
      votes.add(KV.of(q, v));
    }
    PCollection<KV<String, String>> visitsIn = pp.pipeline()
        .apply("Visits", Create.of(visits).withCoder(KvCoder.of(StringUtf8Coder.of(),
            StringUtf8Coder.of())));
    PCollection<KV<Long, int[]>> votesIn = pp.pipeline()
        .apply("Votes", Create.of(votes).withCoder(KvCoder.of(VarLongCoder.of(),
            IntArrayCoder.of())));
    PCollection<String> hist = pp.apply("Histogram", visitsIn,
            PrivateHistogram.over(pages, HistogramNoise.discreteLaplace(1, 2), pp.randomness()))
        .apply("FormatHistogram", MapElements.into(TypeDescriptors.strings())
            .via(kv -> "histogram " + kv.getKey() + " " + kv.getValue()));
    PCollection<String> gaussHist = pp.apply("GaussianHistogram", visitsIn,
            PrivateHistogram.over(pages, HistogramNoise.gaussian(1, 1e-6, 3), pp.randomness()))
        .apply("FormatGaussian", MapElements.into(TypeDescriptors.strings())
            .via(kv -> "gaussian " + kv.getKey() + " " + kv.getValue()));
    DarrmSetting setting = DarrmSetting.withDefaultDelta(TEACHERS, 0.1, 1e-5, 3);
    PCollection<String> darrm = pp.apply("Darrm", votesIn,
            PrivateMajority.darrm(setting, NoiseFunction.subsampling(TEACHERS, 3), QUERIES,
                pp.randomness()))
        .apply("FormatDarrm", MapElements.into(TypeDescriptors.strings())
            .via(kv -> "darrm " + kv.getKey() + " " + kv.getValue()));
    PCollection<String> gnmax = pp.apply("GnMax", votesIn,
            PrivateMajority.gnmax(setting.target(), 2, QUERIES, pp.randomness()))
        .apply("FormatGnMax", MapElements.into(TypeDescriptors.strings())
            .via(kv -> "gnmax " + kv.getKey() + " " + kv.getValue()));
    List<KV<String, int[]>> histograms = new ArrayList<>();
    List<KV<String, double[]>> student = new ArrayList<>();
    for (int q = 0; q < PATE_QUERIES; q++) {
      int[] counts = new int[3];
      double agreement = data.nextDouble();
      for (int t = 0; t < PATE_TEACHERS; t++) {
        counts[data.nextDouble() < agreement ? 0 : data.nextInt(3)]++;
      }
      histograms.add(KV.of("q" + q, counts));
      student.add(KV.of("q" + q, q % 2 == 0 ? new double[] {0.9, 0.05, 0.05}
          : new double[] {0.2, 0.5, 0.3}));
    }
    PCollection<KV<String, int[]>> histogramsIn = pp.pipeline().apply("Histograms",
        Create.of(histograms).withCoder(KvCoder.of(StringUtf8Coder.of(), IntArrayCoder.of())));
    PCollection<KV<String, double[]>> studentIn = pp.pipeline().apply("Student",
        Create.of(student).withCoder(KvCoder.of(StringUtf8Coder.of(),
            SerializableCoder.of(double[].class))));
    PateAggregation.Declared shape = new PateAggregation.Declared(PATE_QUERIES, 3,
        PATE_TEACHERS);
    PCollectionTuple confident = pp.apply("Confident", histogramsIn, PateAggregation.of(
        new PateAggregator.ConfidentGnmax(120, 40, 40), shape, pp.randomness())
        .withRelease(GnssRelease.of(20, 10), 1e-5));
    PCollection<String> answers = confident.get(PateAggregation.ANSWERS)
        .apply("FormatConfident", MapElements.into(TypeDescriptors.strings())
            .via(kv -> "confident " + kv.getKey() + " " + kv.getValue()));
    PCollection<String> release = confident.get(PateAggregation.RELEASE)
        .apply("FormatRelease", MapElements.into(TypeDescriptors.strings())
            .via(r -> "release " + r));
    PCollection<String> interactive = pp.apply("Interactive", histogramsIn,
            PateAggregation.interactiveGnmax(60, 20, 40, 0.8, studentIn, shape,
                pp.randomness()))
        .get(PateAggregation.ANSWERS)
        .apply("FormatInteractive", MapElements.into(TypeDescriptors.strings())
            .via(kv -> "interactive " + kv.getKey() + " " + kv.getValue()));
    Collected collected = Collected.writeTo(PCollectionList.of(hist).and(gaussHist).and(darrm)
        .and(gnmax).and(answers).and(release).and(interactive)
        .apply("All", Flatten.pCollections()), out);
    pp.run();
    return collected.lines();
  }
}
