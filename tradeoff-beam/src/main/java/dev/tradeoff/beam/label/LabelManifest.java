package dev.tradeoff.beam.label;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.budget.RunManifest;
import java.time.Instant;
import java.util.List;

/**
 * What a labelling run wrote and what it cost: {@code manifest.json} and {@code --json} are this
 * record, written by {@link #json()} alone. It never holds an exact count of sensitive rows.
 *
 * @param version the manifest format's version
 * @param commandLine the command as given
 * @param runner the Beam runner
 * @param master the cluster the job was submitted to (a Flink REST address HOST:PORT or a Spark
 *     master spark://HOST:PORT), or null
 * @param seeded whether the noise came from a seed (then the run is not private)
 * @param isPrivate whether the guarantee holds ({@code private} in JSON)
 * @param guarantee the run's guarantee: the least of {@code bounds}
 * @param bounds every analysis that applies, with its result
 * @param budget (E, D) the run was allowed
 * @param model the teachers and the features they see
 * @param derivation how every parameter was fixed
 * @param ledger the ledger entry, or null without a ledger
 * @param counts public counts: queries, labels written, teachers, classes
 * @param labels the classes (public input), the output's vocabulary
 * @param files the label shards, in the output directory
 * @param started when the run started (ISO-8601)
 * @param finished when it committed
 */
@JsonPropertyOrder({"version", "commandLine", "runner", "master", "seeded", "private", "guarantee",
    "bounds", "budget", "model", "derivation", "ledger", "counts", "labels", "files", "started",
    "finished"})
public record LabelManifest(String version, List<String> commandLine, String runner,
    String master, boolean seeded, @JsonProperty("private") boolean isPrivate,
    Guarantee guarantee, List<BoundEntry> bounds, EpsilonDelta budget, Model model,
    Derivation derivation, Ledger ledger, Counts counts, List<String> labels, List<String> files,
    String started, String finished) implements RunManifest {

  /** The version written. */
  public static final String VERSION = "0.2.0";

  public LabelManifest {
    commandLine = List.copyOf(commandLine);
    bounds = List.copyOf(bounds);
    labels = List.copyOf(labels);
    files = List.copyOf(files);
  }

  /** An (ε, δ) pair. */
  public record EpsilonDelta(double epsilon, double delta) {
    static EpsilonDelta of(ApproxDp g) {
      return new EpsilonDelta(g.epsilon(), g.delta());
    }
  }

  /**
   * The run's guarantee.
   *
   * @param epsilon ε at {@code delta}
   * @param delta the run's δ
   * @param analysis the analysis that gave it (the least bound)
   * @param accountant the accountant that computed it
   * @param neighbouring the relation it holds under
   * @param holds whether it holds (and why not, for a seeded run)
   * @param replaceOne the guarantee under replace-one neighbours, with its argument
   */
  public record Guarantee(double epsilon, double delta, String analysis, String accountant,
      String neighbouring, String holds, ReplaceOne replaceOne) {}

  /** The replace-one guarantee and why it holds. */
  public record ReplaceOne(double epsilon, double delta, String argument) {}

  /** One analysis and the (ε, δ) it gives. */
  public record BoundEntry(String analysis, double epsilon, double delta, String accountant,
      String argument) {}

  /**
   * The model.
   *
   * @param teacher what each teacher is
   * @param partition what the teachers' partition is keyed on
   * @param features each feature as the teachers see it
   */
  public record Model(String teacher, String partition, List<String> features) {
    public Model {
      features = List.copyOf(features);
    }
  }

  /**
   * How the parameters were fixed.
   *
   * @param aggregator the aggregator
   * @param m DaRRM's allowance, or null
   * @param teacher a private teacher's certified (ε, δ) by itself, or null
   * @param dpSgd DP-SGD's parameters, or null for non-private teachers
   * @param gnmaxSigma GNMax's σ, or null
   * @param steps the steps with their numbers
   */
  public record Derivation(String aggregator, Double m, EpsilonDelta teacher, DpSgd dpSgd,
      Double gnmaxSigma, List<String> steps) {
    public Derivation {
      steps = List.copyOf(steps);
    }
  }

  /** DP-SGD's parameters, with the noise of the partition size. */
  public record DpSgd(double noiseMultiplier, double clip, double samplingRate, int steps,
      double learningRate, double countSigma) {}

  /** The ledger entry the run was charged as. */
  public record Ledger(long id, String label, EpsilonDelta charged, Object remaining) {}

  /** Public counts (never the number of training rows). */
  public record Counts(long queries, long labelled, int teachers, int classes) {}

  /** The manifest of a committed run. */
  static LabelManifest of(LabelJob.Plan plan, LabelJob.RunInfo info, Ledger ledger,
      Instant started, List<String> files) {
    LabelJob.Request r = plan.request();
    LabelPrivacy p = plan.privacy();
    ApproxDp total = p.total();
    double replaceEpsilon = Math.nextUp(2 * total.epsilon());
    double replaceDelta = Math.min(1, Math.nextUp((1 + Math.exp(total.epsilon()))
        * total.delta()));
    String relation = plan.trainSchema().partitionColumn() >= 0
        ? "the partition is keyed on the id column " + r.columns().id() + ", so a record "
            + "replaced under the same id changes one teacher"
        : "the partition is keyed on the whole row, so a replaced record may move to another "
            + "partition and change two teachers";
    Guarantee guarantee = new Guarantee(total.epsilon(), total.delta(), p.run().analysis(),
        p.run().guarantee().method().cliName(), "add or remove one training record",
        plan.seeded() ? "no: a seeded run's noise is determined by its seed" : "yes",
        new ReplaceOne(replaceEpsilon, replaceDelta, "a replacement is one removal and one "
            + "addition: group privacy of size 2, (2 epsilon, (1 + e^epsilon) delta); "
            + relation));
    List<BoundEntry> bounds = p.bounds().stream().map(b -> new BoundEntry(b.analysis(),
        b.total().epsilon(), b.total().delta(), b.guarantee().method().cliName(), b.argument()))
        .toList();
    DpSgd dpSgd = null;
    EpsilonDelta teacher = null;
    if (p.trainer() instanceof PartitionTrainer.Softmax s && s.dpSgd() != null) {
      var d = s.dpSgd();
      dpSgd = new DpSgd(d.noiseMultiplier(), d.clipNorm(), d.samplingRate(), d.steps(),
          d.learningRate(), s.countSigma());
      teacher = p.bounds().stream().filter(b -> b.analysis().equals("teachers")).findFirst()
          .map(b -> EpsilonDelta.of(b.total())).orElse(null);
    }
    Derivation derivation = new Derivation(p.aggregator().cliName(),
        p.setting() == null ? null : p.setting().allowance(), teacher, dpSgd,
        p.gnmax() == null ? null : p.gnmax().sigma(), p.derivation());
    Model model = new Model(p.trainer().describe(), plan.trainSchema().partitionColumn() >= 0
        ? "keyed hash of the id column " + r.columns().id() : "keyed hash of the whole row",
        plan.featurizer().map().describe());
    return new LabelManifest(VERSION, info.commandLine(), info.runner(), info.master(),
        plan.seeded(), !plan.seeded(), guarantee, bounds, EpsilonDelta.of(r.budget()), model,
        derivation, ledger, new Counts(plan.queryCount(), plan.queryCount(), r.teachers(),
            r.classes().size()), r.classes().names(), files, started.toString(),
        Instant.now().toString());
  }

  @Override
  public String json() {
    return RunManifest.write(this);
  }

}
