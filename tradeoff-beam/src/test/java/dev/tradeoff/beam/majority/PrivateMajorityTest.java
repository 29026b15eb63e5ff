package dev.tradeoff.beam.majority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.budget.PrivatePipeline;
import dev.tradeoff.beam.coder.IntArrayCoder;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.beam.runner.Collected;
import dev.tradeoff.ensemble.gnmax.GnMax;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.pate.PateAggregator;
import dev.tradeoff.ensemble.pate.PateRun;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivateMajorityTest {

  private static final int K = 11;

  @TempDir Path tmp;

  private static PCollection<KV<Long, int[]>> votes(PrivatePipeline pp, String name,
      List<KV<Long, int[]>> rows) {
    return pp.pipeline().apply(name, Create.of(rows)
        .withCoder(KvCoder.of(VarLongCoder.of(), IntArrayCoder.of())));
  }

  private static PCollection<String> format(PCollection<KV<Long, Integer>> labels, String tag) {
    return labels.apply("Format" + tag, MapElements.into(TypeDescriptors.strings())
        .via(kv -> tag + " " + kv.getKey() + " " + kv.getValue()));
  }

  @Test
  void labelsFollowDarrmAndGnMaxLaws() {
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(2),
        new ApproxDp(1e9, 0.5), ElementRandomness.seeded(11));
    SplittableRandom data = new SplittableRandom(5);
    List<KV<Long, int[]>> mixed = new ArrayList<>();
    int[] truth = new int[300];
    for (int q = 0; q < truth.length; q++) {
      int[] v = new int[K];
      int ones = data.nextInt(K + 1);
      for (int t = 0; t < ones; t++) {
        v[t] = 1;
      }
      truth[q] = 2 * ones >= K + 1 ? 1 : 0;
      mixed.add(KV.of((long) q, v));
    }
    int n = 3000;
    List<KV<Long, int[]>> fourOnes = new ArrayList<>();
    for (long q = 0; q < n; q++) {
      fourOnes.add(KV.of(q, new int[] {1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0}));
    }
    // Pure teachers and m = 6 >= (K + 1)/2: gamma = 1 is private [DaRRM24, Theorem 4.1].
    DarrmSetting pure = DarrmSetting.withDefaultDelta(K, 0.1, 0, 6);
    PCollection<String> exact = format(pp.apply("Exact", votes(pp, "Mixed", mixed),
        PrivateMajority.darrm(pure, NoiseFunction.constant(K, 1), truth.length,
            pp.randomness())), "exact");
    DarrmSetting setting = DarrmSetting.withDefaultDelta(K, 0.1, 1e-6, 3);
    PCollection<String> sub = format(pp.apply("Sub", votes(pp, "FourOnes", fourOnes),
        PrivateMajority.darrm(setting, NoiseFunction.subsampling(K, 3), n, pp.randomness())),
        "sub");
    PCollection<String> gn = format(pp.apply("GnMax", votes(pp, "Mixed2", mixed),
        PrivateMajority.gnmax(new GnMax(1e-3, 2), 2, truth.length, pp.randomness())), "gnmax");
    Collected out = Collected.writeTo(PCollectionList.of(exact).and(sub).and(gn)
        .apply(Flatten.pCollections()), tmp.resolve("out"));
    PrivatePipeline.Outcome outcome = pp.run();
    assertThat(pp.budget().entries()).singleElement()
        .satisfies(e -> assertThat(e.charged()).isEqualTo(outcome.guarantee().total()));

    int ones = 0;
    int exactSeen = 0;
    int gnSeen = 0;
    for (String line : out.lines()) {
      String[] f = line.split(" ");
      int q = Integer.parseInt(f[1]);
      int label = Integer.parseInt(f[2]);
      switch (f[0]) {
        case "exact" -> {
          assertThat(label).as("query %d", q).isEqualTo(truth[q]);
          exactSeen++;
        }
        case "gnmax" -> {
          // sigma = 1e-3 against count gaps >= 1: the noisy argmax is the plurality.
          assertThat(label).as("query %d", q).isEqualTo(truth[q]);
          gnSeen++;
        }
        default -> ones += label;
      }
    }
    assertThat(exactSeen).isEqualTo(truth.length);
    assertThat(gnSeen).isEqualTo(truth.length);
    // gamma_Sub: the law of the majority of 3 of the 11 votes drawn without replacement; with 4
    // ones, P(1) = (C(4,2) C(7,1) + C(4,3)) / C(11,3) = 46/165.
    double p = 46.0 / 165;
    double sd = Math.sqrt(p * (1 - p) / n);
    assertThat((double) ones / n).isBetween(p - 5 * sd, p + 5 * sd);
  }

  @Test
  void gammaThatFailsTheVerifierIsRejectedBeforeAnyPipeline() {
    DarrmSetting setting = DarrmSetting.withDefaultDelta(K, 0.1, 0, 1);
    assertThatThrownBy(() -> PrivateMajority.darrm(setting, NoiseFunction.constant(K, 1), 10,
        ElementRandomness.secure()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gamma must make DaRRM");
  }

  @Test
  void confidentGnmaxAbstainsOnSplitVotesAndLabelsUnanimousOnes() {
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(2),
        new ApproxDp(1e9, 0.5), ElementRandomness.seeded(12));
    List<KV<Long, int[]>> rows = new ArrayList<>();
    for (long q = 0; q < 40; q++) {
      // even queries: all 11 teachers say 2; odd: 4, 4, 3 over the three classes
      rows.add(KV.of(q, q % 2 == 0 ? new int[] {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}
          : new int[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2}));
    }
    // T = 9 with σ₁ = 1e-3: unanimous (11) passes, a top count of 4 never does
    PateAggregator.ConfidentGnmax confident = new PateAggregator.ConfidentGnmax(9, 1e-3, 1e-3);
    Collected out = Collected.writeTo(format(pp.apply("Confident", votes(pp, "Votes", rows),
        PrivateMajority.confidentGnmax(confident, 3, rows.size(), pp.randomness())), "c"),
        tmp.resolve("out"));
    pp.run();
    assertThat(out.lines()).hasSize(40).allSatisfy(line -> {
      String[] f = line.split(" ");
      int q = Integer.parseInt(f[1]);
      assertThat(Integer.parseInt(f[2])).as("query %d", q)
          .isEqualTo(q % 2 == 0 ? 2 : PrivateMajority.ABSTAINED);
    });
  }

  @Test
  void eventsAreTheQFoldCompositionOfThePerQueryGuarantee() {
    DarrmSetting setting = DarrmSetting.withDefaultDelta(K, 0.1, 1e-6, 3);
    PrivateMajority darrm = PrivateMajority.darrm(setting, NoiseFunction.subsampling(K, 3), 50,
        ElementRandomness.secure());
    assertThat(darrm.event()).isEqualTo(new SelfComposedEvent(
        new GuaranteeEvent(setting.target()), 50));
    assertThat(darrm.certificate()).hasValueSatisfying(c -> assertThat(c.isPrivate()).isTrue());
    PrivateMajority gnmax = PrivateMajority.gnmax(new GnMax(4, 2), 2, 1,
        ElementRandomness.secure());
    // One teacher moves two counts by one: L2 sensitivity sqrt(2), sigma per unit 4/sqrt(2).
    assertThat(gnmax.event()).isEqualTo(new GaussianEvent(4 / Math.sqrt(2)));
    PateAggregator.ConfidentGnmax c = new PateAggregator.ConfidentGnmax(9, 3, 4);
    assertThat(PrivateMajority.confidentGnmax(c, 3, 20, ElementRandomness.secure()).event())
        .isEqualTo(new SelfComposedEvent(PateRun.exAnteEvent(c, 1), 20));
  }

  @Test
  void budgetIsCheckedBeforeTheRunAndNothingRunsWhenExceeded() {
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(1),
        new ApproxDp(2.0, 1e-3), ElementRandomness.seeded(1));
    DarrmSetting setting = DarrmSetting.withDefaultDelta(K, 0.1, 1e-6, 3);
    List<KV<Long, int[]>> rows = List.of(KV.of(0L, new int[K]));
    PCollection<KV<Long, Integer>> labels = pp.apply("Darrm", votes(pp, "Votes", rows),
        PrivateMajority.darrm(setting, NoiseFunction.subsampling(K, 3), 100, pp.randomness()));
    Path dir = tmp.resolve("never");
    Collected.writeTo(format(labels, "x"), dir);
    double requested = pp.guarantee().total().epsilon();
    assertThat(requested).isGreaterThan(2.0);
    assertThatThrownBy(pp::run)
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("epsilon=" + requested)
        .hasMessageContaining("only ApproxDp[epsilon=2.0, delta=0.001] remains")
        .hasMessageContaining("nothing was charged");
    assertThat(pp.budget().entries()).isEmpty();
    assertThat(Files.exists(dir)).isFalse();
  }

  @Test
  void queryIndexOutsideTheDeclaredRangeFailsThePipeline() {
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(1),
        new ApproxDp(100, 0.5), ElementRandomness.seeded(1));
    DarrmSetting setting = DarrmSetting.withDefaultDelta(K, 0.1, 1e-6, 3);
    pp.apply("Darrm", votes(pp, "Votes", List.of(KV.of(5L, new int[K]))),
        PrivateMajority.darrm(setting, NoiseFunction.subsampling(K, 3), 5, pp.randomness()));
    assertThatThrownBy(pp::run).hasStackTraceContaining(
        "query index must be in [0, 5) (the declared number of queries), but was 5");
  }

  @Test
  void aRunIsChargedToASharedBudgetAndRefusedWhenEarlierChargesLeaveTooLittle() {
    BudgetStore shared = new InMemoryBudgetStore(new ApproxDp(100, 1e-3));
    shared.charge("an earlier job", new ApproxDp(99.9, 0));
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(1), shared, 1e-3,
        ElementRandomness.seeded(1));
    DarrmSetting setting = DarrmSetting.withDefaultDelta(K, 0.1, 1e-6, 3);
    pp.apply("Darrm", votes(pp, "Votes", List.of(KV.of(0L, new int[K]))),
        PrivateMajority.darrm(setting, NoiseFunction.subsampling(K, 3), 10, pp.randomness()));
    ApproxDp cost = pp.guarantee().total();
    assertThat(cost.epsilon()).isLessThan(100).isGreaterThan(0.1);
    assertThatThrownBy(pp::run)
        .isInstanceOfSatisfying(BudgetExceededException.class, e -> {
          assertThat(e.requested()).contains(cost);
          assertThat(((ApproxDp) e.remaining()).epsilon()).isLessThanOrEqualTo(0.1 + 1e-12);
        });
    assertThat(shared.entries()).hasSize(1);
  }
}
