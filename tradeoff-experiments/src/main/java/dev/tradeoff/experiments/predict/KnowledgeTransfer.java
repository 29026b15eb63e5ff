package dev.tradeoff.experiments.predict;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Release;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.composition.KairouzComposition;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.coder.IntArrayCoder;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.beam.runner.Collected;
import dev.tradeoff.ensemble.gnmax.GnMax;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.optimize.GammaOptimizer;
import dev.tradeoff.ensemble.optimize.Objective;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.learning.data.BinaryTask;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.logistic.LogisticRegression;
import dev.tradeoff.learning.teachers.TeacherEnsemble;
import dev.tradeoff.learning.teachers.TeacherTrainer;
import dev.tradeoff.learning.teachers.TrainingProgress;
import dev.tradeoff.learning.teachers.VoteMatrix;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.random.RandomGenerator;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Private semi-supervised knowledge transfer, [DaRRM24, Section 6.2,
 * Tables 1 and 2]: K teachers on disjoint shards of the sensitive training data answer
 * Q queries (test points) with a private majority; the accuracy of the released labels is measured
 * over repeated draws of the queries.
 *
 * <ul>
 *   <li>GNMax (baseline) aggregates K <em>non-private</em> teachers with Gaussian noise calibrated to
 *       the per-query target (m ε, δ) (RDP grid search, [DaRRM24, Appendix D.2.1]);
 *   <li>DaRRM γ_Sub and DaRRM γ_opt aggregate K (ε, Δ)-DP teachers (DP-SGD, ε computed by the
 *       accountant), each label (m ε, δ)-DP with δ = 1 − (1 − Δ)^m; γ_opt is optimised for the
 *       paper's Section 5 surrogate objective (p_i i.i.d. uniform on [0.5, 1), p̄ = 3/4) and
 *       certified by the exact verifier.
 * </ul>
 *
 * <p>The per-deployment privacy (Table 2) is the Q-fold composition of the per-query target, by
 * Kairouz et al.'s general composition with δ′ = 1e-4 (the paper's) and by the tightest accountant
 * ({@link RunGuarantee}) at the same δ; it is computed, and checked against the optional budget,
 * before any teacher is trained. All labels of the evaluation are then computed in one Beam
 * pipeline (one {@link PrivateMajority} per aggregator and Q, over Q × repeats simulated
 * deployments).
 */
public final class KnowledgeTransfer {

  /** δ′ of the paper's Table 2 (general composition). */
  public static final double TABLE2_SLACK = 1e-4;

  /** Aggregators in the order of Table 1. */
  public enum Aggregator {
    GNMAX("GNMax"), DARRM_SUB("DaRRM gamma_Sub"), DARRM_OPT("DaRRM gamma_opt");

    private final String label;

    Aggregator(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * How the private teachers are trained.
   *
   * @param teacherEpsilon per-teacher ε target (σ calibrated), or NaN to use {@code sigma}
   * @param teacherDelta Δ
   * @param sigma DP-SGD noise multiplier (used when teacherEpsilon is NaN)
   * @param clip clipping norm C
   * @param epochs epochs
   */
  public record Training(double teacherEpsilon, double teacherDelta, double sigma, double clip,
      double epochs) {
    public Training {
      Require.openUnit("teacher delta", teacherDelta);
      if (!Double.isNaN(teacherEpsilon)) {
        Require.positive("teacher epsilon", teacherEpsilon);
      } else {
        Require.positive("sigma", sigma);
      }
      Require.positive("clip", clip);
      Require.positive("epochs", epochs);
    }
  }

  /**
   * One experiment.
   *
   * @param teachers K, odd
   * @param allowance m ∈ [1, K]
   * @param queries the values of Q
   * @param repeats draws of the queries per Q
   * @param seed reproducible run (training, query draws, aggregation noise) when present
   * @param budget if present, every deployment of Q queries must stay within it (checked before
   *     any training)
   */
  public record Config(int teachers, double allowance, Training training, List<Integer> queries,
      int repeats, BeamRunner runner, OptionalLong seed, Optional<ApproxDp> budget) {
    public Config {
      Require.positive("teachers", teachers);
      Require.that(teachers % 2 == 1, "teachers", "must be odd (DaRRM's majority has no ties)",
          teachers);
      Require.inClosedRange("m", allowance, 1, teachers);
      Require.nonNull("training", training);
      queries = List.copyOf(Require.nonNull("queries", queries));
      Require.that(!queries.isEmpty(), "queries", "must list at least one Q", queries);
      for (int q : queries) {
        Require.positive("queries", q);
      }
      Require.positive("repeats", repeats);
      Require.nonNull("runner", runner);
      Require.nonNull("seed", seed);
      Require.nonNull("budget", budget);
    }
  }

  /** Mean and standard deviation of one aggregator's accuracy at one Q. */
  public record Accuracy(int queries, Aggregator aggregator, double mean, double std) {}

  /** Table 2: per-query and total privacy of one deployment of Q queries. */
  public record Privacy(int queries, ApproxDp perQuery, ApproxDp totalGeneral,
      ApproxDp totalAccountant, String accountant) {}

  /** The whole outcome. */
  public record Result(ApproxDp teacher, DarrmSetting setting, double gnmaxSigma,
      double[] gammaSub, double[] gammaOpt, List<Accuracy> accuracy, List<Privacy> privacy,
      double nonPrivateMajorityAccuracy, int trainSize,
      int testSize) {}

  /** Phases reported to a progress bar. */
  public interface Progress extends TrainingProgress {
    /** A named phase starts (training, optimising γ, the pipeline). */
    void phase(String name);
  }

  private KnowledgeTransfer() {}

  /**
   * Checks everything that can be checked without training: K odd and at most the number of
   * training examples, m in range, Q at most the number of test points.
   */
  public static void validate(Config config, BinaryTask task) {
    Require.that(config.teachers() <= task.train().size(), "teachers",
        "must be at most the number of training examples (" + task.train().size() + ")",
        config.teachers());
    int maxQ = config.queries().stream().max(Comparator.naturalOrder()).orElseThrow();
    Require.that(maxQ <= task.test().size(), "queries",
        "must be at most the number of test examples (" + task.test().size() + ")", maxQ);
  }

  /** Runs the experiment; {@code work} is an empty scratch directory for the pipeline output. */
  public static Result run(Config config, BinaryTask task, Progress progress, Path work) {
    validate(config, task);
    RandomGenerator random = config.seed().isPresent()
        ? dev.tradeoff.mechanisms.random.Randomness.seeded(config.seed().getAsLong())
        : dev.tradeoff.mechanisms.random.Randomness.secure();
    long shardSeed = config.seed().orElse(1L);
    Dataset train = task.train().withBiasUnitNorm(1);
    Dataset test = task.test().withBiasUnitNorm(1);
    int k = config.teachers();

    // Everything privacy-related is fixed before any training: the trainer's (ε, Δ) comes from
    // the accountant, then the DaRRM setting, γ's, GNMax's σ and each deployment's guarantee.
    Training t = config.training();
    var accountant = new dev.tradeoff.accounting.pld.PldAccountant();
    TeacherTrainer.DpSgdTrainer trainer = Double.isNaN(t.teacherEpsilon())
        ? dev.tradeoff.learning.teachers.DpSgdTeachers.withNoise(t.sigma(), t.clip(), t.epochs(),
            train.size(), k, t.teacherDelta(), accountant)
        : dev.tradeoff.learning.teachers.DpSgdTeachers.forBudget(t.teacherEpsilon(),
            t.teacherDelta(), t.clip(), t.epochs(), train.size(), k, accountant);
    ApproxDp teacher = trainer.guarantee();
    DarrmSetting setting = DarrmSetting.withDefaultDelta(k, teacher.epsilon(), teacher.delta(),
        config.allowance());
    ElementRandomness noise = config.seed().isPresent()
        ? ElementRandomness.seeded(config.seed().getAsLong()) : ElementRandomness.secure();
    List<Privacy> privacy = new ArrayList<>();
    ApproxDp perQuery = setting.target();
    for (int q : config.queries()) {
      ApproxDp general = KairouzComposition.compose(perQuery, q, TABLE2_SLACK);
      RunGuarantee tight = RunGuarantee.of(List.of(new Release("Q" + q,
          new SelfComposedEvent(new GuaranteeEvent(perQuery), q))), general.delta());
      privacy.add(new Privacy(q, perQuery, general, tight.total(), tight.method().cliName()));
      if (config.budget().isPresent() && !tight.within(config.budget().get())) {
        throw new BudgetExceededException("predict, Q = " + q + " queries", tight.total(),
            config.budget().get());
      }
    }

    progress.phase("training " + k + " non-private teachers");
    TeacherEnsemble plain = TeacherEnsemble.train(train, k, shardSeed,
        new TeacherTrainer.NonPrivate(new LogisticRegression(1e-3)), random, progress);
    progress.phase("training " + k + " DP-SGD teachers");
    TeacherEnsemble dp = TeacherEnsemble.train(train, k, shardSeed, trainer, random, progress);

    progress.phase("certifying gamma_Sub and optimising gamma_opt");
    PrivacyVerifier verifier = new PrivacyVerifier(setting);
    NoiseFunction gammaSub = Baseline.SUBSAMPLING.certified(verifier).gamma();
    NoiseFunction gammaOpt = new GammaOptimizer(setting)
        .optimize(new Objective.Surrogate(0.75)).gamma();
    GnMax gnmax = GnMax.calibrated(setting.target());

    VoteMatrix plainVotes = plain.votes(test);
    VoteMatrix dpVotes = dp.votes(test);
    int plainCorrect = 0;
    for (int i = 0; i < test.size(); i++) {
      plainCorrect += plainVotes.majority(i) == test.label(i) ? 1 : 0;
    }

    // Query draws: for each Q and repeat, Q distinct test indices.
    Map<Integer, int[][]> draws = new HashMap<>();
    for (int q : config.queries()) {
      int[][] d = new int[config.repeats()][];
      for (int r = 0; r < config.repeats(); r++) {
        d[r] = sample(test.size(), q, random);
      }
      draws.put(q, d);
    }

    // One pipeline evaluates every simulated deployment (Q queries, one draw) at once; each
    // deployment's guarantee is the Table 2 row checked above, not the sum over the simulation.
    progress.phase("aggregating on the " + config.runner().cliName() + " runner");
    Pipeline pipeline = Pipeline.create(config.runner().options(2));
    List<PCollection<String>> outputs = new ArrayList<>();
    for (int q : config.queries()) {
      int[][] d = draws.get(q);
      List<KV<Long, int[]>> plainRows = new ArrayList<>();
      List<KV<Long, int[]>> dpRows = new ArrayList<>();
      for (int r = 0; r < d.length; r++) {
        for (int i = 0; i < q; i++) {
          long index = (long) r * q + i;
          plainRows.add(KV.of(index, plainVotes.row(d[r][i])));
          dpRows.add(KV.of(index, dpVotes.row(d[r][i])));
        }
      }
      int total = q * d.length;
      var coder = KvCoder.of(VarLongCoder.of(), IntArrayCoder.of());
      PCollection<KV<Long, int[]>> plainIn = pipeline
          .apply("PlainVotes" + q, Create.of(plainRows).withCoder(coder));
      PCollection<KV<Long, int[]>> dpIn = pipeline
          .apply("DpVotes" + q, Create.of(dpRows).withCoder(coder));
      outputs.add(tag(plainIn.apply("GnMax" + q,
          PrivateMajority.gnmax(gnmax, 2, total, noise)), Aggregator.GNMAX, q));
      outputs.add(tag(dpIn.apply("DarrmSub" + q,
          PrivateMajority.darrm(setting, gammaSub, total, noise)), Aggregator.DARRM_SUB, q));
      outputs.add(tag(dpIn.apply("DarrmOpt" + q,
          PrivateMajority.darrm(setting, gammaOpt, total, noise)), Aggregator.DARRM_OPT, q));
    }
    Path out = work.resolve("labels");
    Collected collected = Collected.writeTo(
        PCollectionList.of(outputs).apply("AllLabels", Flatten.pCollections()), out);
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException("pipeline ended in state " + state);
    }

    // correct[aggregator][Q][repeat]
    Map<String, int[]> correct = new HashMap<>();
    for (String line : collected.lines()) {
      String[] f = line.split(" ");
      Aggregator a = Aggregator.valueOf(f[0]);
      int q = Integer.parseInt(f[1]);
      long index = Long.parseLong(f[2]);
      int label = Integer.parseInt(f[3]);
      int r = (int) (index / q);
      int testIndex = draws.get(q)[r][(int) (index % q)];
      int[] c = correct.computeIfAbsent(a + " " + q, x -> new int[config.repeats()]);
      c[r] += label == test.label(testIndex) ? 1 : 0;
    }
    List<Accuracy> accuracy = new ArrayList<>();
    for (int q : config.queries()) {
      for (Aggregator a : Aggregator.values()) {
        int[] c = correct.getOrDefault(a + " " + q, new int[config.repeats()]);
        double mean = 0;
        for (int v : c) {
          mean += (double) v / q / c.length;
        }
        double var = 0;
        for (int v : c) {
          var += Math.pow((double) v / q - mean, 2);
        }
        double std = c.length > 1 ? Math.sqrt(var / (c.length - 1)) : 0;
        accuracy.add(new Accuracy(q, a, mean, std));
      }
    }
    try {
      deleteRecursively(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Result(teacher, setting, gnmax.sigma(), gammaSub.values(),
        gammaOpt.values(), accuracy, privacy, (double) plainCorrect / test.size(),
        train.size(), test.size());
  }

  private static PCollection<String> tag(PCollection<KV<Long, Integer>> labels, Aggregator a,
      int q) {
    String prefix = a.name() + " " + q + " ";
    return labels.apply("Tag" + a.name() + q, MapElements.into(TypeDescriptors.strings())
        .via(kv -> prefix + kv.getKey() + " " + kv.getValue()));
  }

  /** {@code k} distinct indices of [0, n), uniformly (partial Fisher–Yates). */
  private static int[] sample(int n, int k, RandomGenerator random) {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    for (int i = 0; i < k; i++) {
      int j = i + random.nextInt(n - i);
      int tmp = all[i];
      all[i] = all[j];
      all[j] = tmp;
    }
    return java.util.Arrays.copyOf(all, k);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
