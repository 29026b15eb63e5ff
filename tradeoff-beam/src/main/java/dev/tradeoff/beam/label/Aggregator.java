package dev.tradeoff.beam.label;

import java.util.Locale;

/**
 * The private majority that labels each query (Zhang, Jagielski et al., <i>Private majority
 * ensembling</i>, TMLR 2024, Sections 3–6; Papernot et al., <i>Scalable private learning with
 * PATE</i>, ICLR 2018).
 */
public enum Aggregator {
  /** DaRRM with γ_opt, optimised for the paper's Section 5 surrogate objective (two classes). */
  DARRM_OPT("DaRRM gamma_opt"),
  /** DaRRM with γ_Sub, the subsampling baseline (two classes). */
  DARRM_SUB("DaRRM gamma_Sub"),
  /** GNMax over non-private teachers (any number of classes). */
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
    return this != GNMAX;
  }

  /** The command-line spelling: darrm-opt, darrm-sub, gnmax. */
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
    throw new IllegalArgumentException("aggregator must be one of darrm-opt, darrm-sub, gnmax, "
        + "but was " + name);
  }
}
