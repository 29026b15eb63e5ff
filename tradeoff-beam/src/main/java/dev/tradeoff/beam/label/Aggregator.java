package dev.tradeoff.beam.label;

import java.util.Locale;

/**
 * How the K teachers' votes on a query become its label, and so which analysis bounds a run
 * ({@link LabelPrivacy}).
 */
public enum Aggregator {
  /**
   * The plurality vote of K DP-SGD teachers, each trained to the run's whole (E, D) on its own
   * partition: no noise per label, since every label is post-processing of the K private models
   * (parallel composition), so the run costs (E, D) for any number of queries. K = 1 is one DP
   * model trained on all the data. The default.
   */
  DP_MAJORITY("DP majority"),
  /**
   * DaRRM with γ_opt, optimised for the surrogate objective of [DaRRM24, Section 5] (two classes),
   * over DP-SGD teachers whose budget is derived from the per-label composition over Q.
   */
  DARRM_OPT("DaRRM gamma_opt"),
  /** DaRRM with γ_Sub, the subsampling baseline [DaRRM24] (two classes). */
  DARRM_SUB("DaRRM gamma_Sub"),
  /**
   * GNMax [PSMRTE18] over non-private teachers (any number of classes): every label is a
   * Gaussian mechanism, composed over the Q labels.
   */
  GNMAX("GNMax");

  private final String label;

  Aggregator(String label) {
    this.label = label;
  }

  /** The paper's name. */
  public String label() {
    return label;
  }

  /** Whether this is a DaRRM aggregator (binary votes, private teachers). */
  public boolean isDarrm() {
    return this == DARRM_OPT || this == DARRM_SUB;
  }

  /** Whether the teachers are trained with DP-SGD (every aggregator but GNMax). */
  public boolean privateTeachers() {
    return this != GNMAX;
  }

  /** The command-line spelling: dp-majority, darrm-opt, darrm-sub, gnmax. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Parses the command-line spelling. */
  public static Aggregator parse(String name) {
    for (Aggregator a : values()) {
      if (a.cliName().equalsIgnoreCase(name)) {
        return a;
      }
    }
    throw new IllegalArgumentException("aggregator must be one of dp-majority, darrm-opt, "
        + "darrm-sub, gnmax, but was " + name);
  }
}
