package dev.tradeoff.ensemble.optimize;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.ensemble.utility.Prior;

/** What the DaRRM optimiser minimises (Section 5, Eq. 2, and Appendix C). */
public sealed interface Objective {

  /**
   * The paper's surrogate (Appendix C.2.2): the expected error when the p_i are i.i.d. on [½, 1]
   * with mean p̄, exactly linear in γ with coefficients Bin(K, p̄)(l) − Bin(K, p̄)(K − l). (Over
   * [0, 1] the same expectation is identically zero, which is why the paper restricts to [½, 1].)
   *
   * @param priorMean p̄ ∈ [½, 1], ¾ for U[0.5, 1)
   */
  record Surrogate(double priorMean) implements Objective {
    public Surrogate {
      Require.inClosedRange("prior mean", priorMean, 0.5, 1);
    }
  }

  /**
   * The true expected error E_T[E(DaRRM_γ)] under an i.i.d. prior T, by sample-average
   * approximation over {@code samples} draws (seeded by {@code seed}) with one auxiliary variable
   * per draw for the absolute value.
   */
  record ExpectedError(Prior prior, int samples, long seed) implements Objective {
    public ExpectedError {
      Require.nonNull("prior", prior);
      Require.positive("samples", samples);
    }
  }
}
