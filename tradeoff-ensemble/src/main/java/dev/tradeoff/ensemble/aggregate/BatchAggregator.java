package dev.tradeoff.ensemble.aggregate;

import dev.tradeoff.accounting.composition.BasicComposition;
import dev.tradeoff.accounting.composition.KairouzComposition;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import java.util.random.RandomGenerator;

/**
 * DaRRM over a batch of Q queries [DaRRM24, Section 6.2]: every query's K votes are aggregated with
 * Algorithm 1 and the same certified γ, so each label is (mε, δ_c)-DP, δ_c the δ its certificate
 * proves ({@link PrivacyCertificate#certifiedDelta}: δ, plus at most the verifier's rounding
 * tolerance), and the Q labels together are reported by the accounting module's composition
 * theorems: basic (Qmε, Qδ_c) and general composition ([KOV15, Theorem 3.4], [DaRRM24, Theorem 2.3]) with
 * slack δ′.
 */
public final class BatchAggregator {

  private final NoiseFunction gamma;
  private final PrivacyCertificate certificate;

  /**
   * Certifies γ for the setting; a γ that fails the verifier is rejected.
   *
   * @throws IllegalArgumentException if DaRRM_γ is not (mε, δ)-DP
   */
  public BatchAggregator(DarrmSetting setting, NoiseFunction gamma) {
    Require.nonNull("setting", setting);
    this.gamma = Require.nonNull("gamma", gamma);
    Require.that(gamma.teachers() == setting.teachers(), "gamma", "must have K + 1 = "
        + (setting.teachers() + 1) + " values", gamma.teachers() + 1);
    this.certificate = new PrivacyVerifier(setting).certify(gamma);
    Require.that(certificate.isPrivate(), "gamma", "must pass the privacy verifier (max privacy "
        + "cost <= " + certificate.bound() + ")", certificate.maxPrivacyCost());
  }

  public PrivacyCertificate certificate() {
    return certificate;
  }

  /** The aggregated labels and the guarantees of all of them together. */
  public record Batch(int[] labels, ApproxDp perQuery, ApproxDp basicTotal,
      ApproxDp generalTotal) {}

  /**
   * Aggregates every row of {@code votes}.
   *
   * @param votes Q rows of K binary votes
   * @param deltaSlack δ′ ∈ (0, 1) for general composition
   * @param random randomness for Algorithm 1
   */
  public Batch aggregate(int[][] votes, double deltaSlack, RandomGenerator random) {
    Require.nonNull("votes", votes);
    Require.positive("queries", votes.length);
    int[] labels = new int[votes.length];
    for (int q = 0; q < votes.length; q++) {
      labels[q] = Darrm.aggregate(votes[q], gamma, random);
    }
    ApproxDp perQuery = certificate.certifiedGuarantee();
    return new Batch(labels, perQuery, BasicComposition.compose(perQuery, votes.length),
        KairouzComposition.compose(perQuery, votes.length, deltaSlack));
  }
}
