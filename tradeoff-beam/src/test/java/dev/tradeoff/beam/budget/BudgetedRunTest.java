package dev.tradeoff.beam.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.histogram.HistogramNoise;
import dev.tradeoff.beam.histogram.PrivateHistogram;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.beam.shuffle.ShuffleSum;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BudgetedRunTest {

  private static final List<String> PAGES = List.of("a", "b", "c", "d", "e");

  @TempDir Path tmp;

  /** A histogram over PAGES and a shuffled sum of 40 users, written as two outputs. */
  private static PrivatePipeline histogramAndSum(InMemoryBudgetStore ledger, Path out,
      long declaredPages) {
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(2), ledger, 1e-6,
        ElementRandomness.seeded(4)).writingTo(out, false);
    List<KV<String, String>> visits = new ArrayList<>();
    List<KV<String, Double>> values = new ArrayList<>();
    for (int u = 0; u < 40; u++) {
      visits.add(KV.of("u" + u, PAGES.get(u % PAGES.size())));
      values.add(KV.of("u" + u, (u % 10) / 10.0));
    }
    PCollection<String> counts = pp.apply("Pages", pp.pipeline().apply("Visits",
            Create.of(visits).withCoder(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of()))),
        PrivateHistogram.over(PAGES, HistogramNoise.laplace(1, 1), pp.randomness()))
        .apply("FormatCounts", MapElements.into(TypeDescriptors.strings())
            .via(kv -> kv.getKey() + "," + kv.getValue()));
    pp.writeCsv("counts", counts, "page,count", declaredPages);
    PCollection<String> sum = pp.apply("Sum", pp.pipeline().apply("Values", Create.of(values)
            .withCoder(KvCoder.of(StringUtf8Coder.of(), DoubleCoder.of()))),
        ShuffleSum.of(40, 4, 2, pp.randomness()))
        .apply("FormatSum", MapElements.into(TypeDescriptors.strings()).via(String::valueOf));
    pp.writeCsv("sum", sum, "sum", 1);
    return pp;
  }

  private static List<String> entries(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void histogramAndShuffleSumCommitTheirRowsAndAManifestAfterOneCharge() throws IOException {
    InMemoryBudgetStore ledger = new InMemoryBudgetStore(new ApproxDp(100, 1e-5));
    Path out = tmp.resolve("out");
    PrivatePipeline.Outcome outcome = histogramAndSum(ledger, out, PAGES.size()).run();

    PipelineManifest manifest = outcome.manifest().orElseThrow();
    assertThat(manifest.rows()).containsEntry("counts", 5L).containsEntry("sum", 1L);
    List<String> lines = new ArrayList<>();
    for (String file : manifest.files().get("counts")) {
      List<String> shard = Files.readAllLines(out.resolve(file));
      assertThat(shard.get(0)).isEqualTo("page,count");
      lines.addAll(shard.subList(1, shard.size()));
    }
    assertThat(lines).extracting(l -> l.substring(0, l.indexOf(',')))
        .containsExactlyInAnyOrderElementsOf(PAGES);
    assertThat(manifest.files().get("sum")).hasSize(1);
    assertThat(Files.readAllLines(out.resolve(manifest.files().get("sum").get(0)))).hasSize(2);
    // one charge, of the run's guarantee; the manifest on disk is the returned one
    assertThat(ledger.entries()).hasSize(1);
    assertThat(ledger.entries().get(0).charged()).isEqualTo(outcome.guarantee().total());
    assertThat(manifest.ledger().id()).isEqualTo(ledger.entries().get(0).id());
    assertThat(Files.readString(out.resolve(RunOutput.MANIFEST)).strip())
        .isEqualTo(manifest.json());
    assertThat(entries(out)).noneMatch(f -> f.startsWith(".tradeoff-") || f.equals(
        RunOutput.INCOMPLETE));
  }

  @Test
  void anOutputWithOtherThanItsPlannedRowsCommitsNothingAndKeepsTheCharge() throws IOException {
    InMemoryBudgetStore ledger = new InMemoryBudgetStore(new ApproxDp(100, 1e-5));
    Path out = tmp.resolve("out");
    PrivatePipeline pp = histogramAndSum(ledger, out, 3);
    assertThatThrownBy(pp::run).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("produced 5 counts where 3 were planned and charged");
    assertThat(out).doesNotExist(); // the run created it; nothing was committed
    assertThat(ledger.entries()).hasSize(1); // the data was read
  }

  @Test
  void aRefusedChargeRunsNothingAndLeavesTheOutputEmpty() throws IOException {
    InMemoryBudgetStore ledger = new InMemoryBudgetStore(new ApproxDp(0.5, 1e-5));
    Path out = tmp.resolve("out");
    PrivatePipeline pp = histogramAndSum(ledger, out, PAGES.size());
    assertThatThrownBy(pp::run).isInstanceOf(BudgetExceededException.class);
    assertThat(out).doesNotExist();
    assertThat(ledger.entries()).isEmpty();
  }

  @Test
  void outputsAreNamedOnceWithSafeNamesAfterTheDirectory() {
    InMemoryBudgetStore ledger = new InMemoryBudgetStore(new ApproxDp(100, 1e-5));
    PrivatePipeline bare = PrivatePipeline.create(BeamRunner.DIRECT.options(1), ledger, 1e-6,
        ElementRandomness.seeded(1));
    PCollection<String> rows = bare.pipeline().apply(Create.of(List.of("x")));
    assertThatThrownBy(() -> bare.writeCsv("rows", rows, "h", 1))
        .hasMessageContaining("writingTo");
    bare.writingTo(tmp.resolve("o"), false);
    assertThatThrownBy(() -> bare.writeCsv("../up", rows, "h", 1)).hasMessageContaining("name");
    bare.writeCsv("rows", rows, "h", 1);
    assertThatThrownBy(() -> bare.writeCsv("rows", rows, "h", 1))
        .hasMessageContaining("once");
  }
}
