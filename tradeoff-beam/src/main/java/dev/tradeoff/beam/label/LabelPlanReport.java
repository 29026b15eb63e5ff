package dev.tradeoff.beam.label;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a labelling run will do and cost, printed by {@code tradeoff label --plan} before anything
 * is trained or charged: the model and features, every bound with the one that would be charged,
 * the derivation, how strongly the per-label noise can blur even a unanimous vote, and warnings
 * where the labels are likely to be near random.
 *
 * @param aggregator the aggregator
 * @param teachers K
 * @param queries Q
 * @param classes the classes
 * @param model what each teacher is
 * @param features each feature as the teachers see it
 * @param bounds every bound, "analysis: (ε, δ) by accountant"
 * @param charged what the run would be charged
 * @param unanimousLabelAgreement the probability that a query all K teachers vote for is labelled
 *     with their class
 * @param steps the derivation
 * @param notes what the training data needs for useful labels (its size is not read)
 * @param warnings what will make the labels poor whatever the data
 */
public record LabelPlanReport(String aggregator, int teachers, long queries, List<String> classes,
    String model, List<String> features, List<String> bounds, LabelManifest.EpsilonDelta charged,
    double unanimousLabelAgreement, List<String> steps, List<String> notes,
    List<String> warnings) {

  public LabelPlanReport {
    classes = List.copyOf(classes);
    features = List.copyOf(features);
    bounds = List.copyOf(bounds);
    steps = List.copyOf(steps);
    notes = List.copyOf(notes);
    warnings = List.copyOf(warnings);
  }

  /** The report of a plan. */
  public static LabelPlanReport of(LabelJob.Plan plan) {
    LabelPrivacy p = plan.privacy();
    List<String> bounds = p.bounds().stream().map(b -> b.analysis() + ": (" + b.total().epsilon()
        + ", " + b.total().delta() + ") by " + b.guarantee().method().cliName()).toList();
    List<String> warnings = new ArrayList<>();
    if (plan.unanimous() < 0.9) {
      warnings.add(String.format(Locale.ROOT, "the per-label noise is large: even a query all %d "
          + "teachers agree on gets their class with probability %.3f only; labels will be "
          + "close to random (raise the budget, lower the number of queries, or use "
          + "dp-majority)", p.teachers(), plan.unanimous()));
    }
    List<String> notes = new ArrayList<>();
    if (p.trainer() instanceof PartitionTrainer.Softmax s && s.dpSgd() != null) {
      double rows = s.dpSgd().noiseMultiplier() / s.dpSgd().samplingRate();
      notes.add(String.format(Locale.ROOT, "DP-SGD's noise (multiplier %.3g) outweighs a "
          + "teacher's clipped gradients unless its partition has well over sigma/q = %.0f rows, "
          + "so the training set needs well over %.0f rows for useful labels; with fewer, they "
          + "will be near random", s.dpSgd().noiseMultiplier(), rows, rows * p.teachers()));
    }
    return new LabelPlanReport(p.aggregator().cliName(), p.teachers(), plan.queryCount(),
        plan.request().classes().names(), p.trainer().describe(),
        plan.featurizer().map().describe(), bounds, LabelManifest.EpsilonDelta.of(p.total()),
        plan.unanimous(), p.derivation(), notes, warnings);
  }

  /** The report as text, one fact a line. */
  public String text() {
    StringBuilder b = new StringBuilder();
    b.append("plan: ").append(aggregator).append(", K = ").append(teachers).append(" teachers, Q = ")
        .append(queries).append(" queries, classes ").append(classes).append('\n');
    b.append("model: ").append(model).append('\n');
    for (String f : features) {
      b.append("feature: ").append(f).append('\n');
    }
    for (String bound : bounds) {
      b.append("bound: ").append(bound).append('\n');
    }
    b.append("charged: (").append(charged.epsilon()).append(", ").append(charged.delta())
        .append(")\n");
    b.append(String.format(Locale.ROOT, "unanimous vote kept as the label with probability "
        + "%.4f%n", unanimousLabelAgreement));
    for (String s : steps) {
      b.append("step: ").append(s).append('\n');
    }
    for (String n : notes) {
      b.append("note: ").append(n).append('\n');
    }
    for (String w : warnings) {
      b.append("warning: ").append(w).append('\n');
    }
    return b.toString().stripTrailing();
  }
}
