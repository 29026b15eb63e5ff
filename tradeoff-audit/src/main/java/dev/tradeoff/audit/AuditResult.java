package dev.tradeoff.audit;

import dev.tradeoff.accounting.internal.Require;

/**
 * The outcome of one audit.
 *
 * <p>{@code epsilonLowerBound} is a lower bound on the ε of the mechanism at the claimed δ that
 * holds with probability at least {@code confidence} over the auditor's samples: if the mechanism
 * really is (ε, δ)-DP on the audited pair, then Pr[epsilonLowerBound ≤ ε] ≥ confidence. It is
 * never negative (ε ≥ 0 is trivially true) and is 0 when no event certified anything.
 *
 * <p>{@code passed} is {@code epsilonLowerBound <= claimedEpsilon}: "no violation detected", which
 * is evidence, not proof, of privacy. {@code passed == false} is a proof of a violation up to the
 * stated confidence.
 *
 * @param mechanism name of the audited case
 * @param claimedEpsilon claimed ε
 * @param delta claimed δ, at which ε is bounded
 * @param epsilonLowerBound certified lower bound on ε (≥ 0)
 * @param bestEvent description of the event that attains the bound, or {@code "none"}
 * @param direction {@code "D vs D'"} when the event is likelier on D, {@code "D' vs D"} otherwise
 * @param confidence confidence level of the bound
 * @param samplesPerInput outputs drawn on each of the two inputs
 * @param certificationSamples outputs per input in the certification half
 * @param candidateEvents events proposed by the family on the selection half (each considered in
 *     both directions)
 * @param certifiedEvents (event, direction) pairs certified, over which Bonferroni corrects
 * @param countNumerator certification outputs in the best event on the likelier input
 * @param countDenominator certification outputs in the best event on the other input
 * @param passed whether {@code epsilonLowerBound <= claimedEpsilon}
 */
public record AuditResult(
    String mechanism,
    double claimedEpsilon,
    double delta,
    double epsilonLowerBound,
    String bestEvent,
    String direction,
    double confidence,
    long samplesPerInput,
    long certificationSamples,
    int candidateEvents,
    int certifiedEvents,
    long countNumerator,
    long countDenominator,
    boolean passed) {

  public AuditResult {
    Require.nonNull("mechanism", mechanism);
    Require.nonNegative("epsilonLowerBound", epsilonLowerBound);
    Require.nonNull("bestEvent", bestEvent);
    Require.nonNull("direction", direction);
    Require.that(
        passed == (epsilonLowerBound <= claimedEpsilon),
        "passed",
        "must equal epsilonLowerBound <= claimedEpsilon",
        passed);
  }
}
