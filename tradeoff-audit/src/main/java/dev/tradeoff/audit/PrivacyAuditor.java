package dev.tradeoff.audit;

import dev.tradeoff.accounting.internal.Require;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Statistical privacy auditor: draws outputs of a mechanism on two neighbouring inputs and returns
 * a high-confidence lower bound on its ε (at the claimed δ), in the style of the black-box audits
 * of Ding et al. 2018 ("Detecting Violations of Differential Privacy") and Jagielski et al. 2020.
 *
 * <h2>Why the bound is valid</h2>
 *
 * If M is (ε, δ)-DP then for every event S, p ≤ e^ε p′ + δ with p = Pr[M(D) ∈ S] and p′ =
 * Pr[M(D′) ∈ S] (and symmetrically with D, D′ swapped). Hence for any p_lo ≤ p and p′_hi ≥ p′ with
 * p_lo &gt; δ, {@code log((p_lo − δ) / p′_hi) ≤ ε}. The auditor:
 *
 * <ol>
 *   <li>draws {@code samplesPerInput} outputs on each input and splits each sample into a
 *       <em>selection</em> half (the first ⌊n/2⌋ draws) and an independent <em>certification</em>
 *       half (the rest);
 *   <li>asks the {@link EventFamily} for candidate events on the selection half only, scores each
 *       event in both directions (D vs D′ and D′ vs D) by the same bound computed on the selection
 *       half, and keeps the best {@code K = certifiedEvents} (event, direction) pairs. Because the
 *       pairs depend only on the selection half, they are fixed with respect to the certification
 *       half: looking at the data to choose events introduces no selection bias;
 *   <li>on the certification half computes, for each of the K' ≤ K pairs kept, an exact one-sided
 *       {@link ClopperPearson} lower bound p_lo and upper bound p′_hi, each at error level
 *       α/(2K'), with α = 1 − confidence. By the union bound (Bonferroni) all 2K' intervals hold
 *       simultaneously with probability ≥ 1 − α, so the maximum of the K' certified values of
 *       {@code log((p_lo − δ)/p′_hi)} is a lower bound on ε with confidence ≥ 1 − α.
 * </ol>
 *
 * A pair with p_lo ≤ δ certifies nothing and is skipped (no log of a non-positive number);
 * p′_hi is always strictly positive, so every certified value is finite. The reported bound is
 * clamped at 0 and rounded one ulp down.
 *
 * <h2>Defaults and fail-closed semantics</h2>
 *
 * Default confidence is 0.95, the convention of the auditing literature: together with the exact
 * (conservative) Clopper–Pearson intervals and the conservative Bonferroni correction, a correct
 * mechanism is flagged in well under 5% of audits, while the power lost to a higher level is small
 * (the bound moves by a few standard errors of a log-ratio). Callers who run many audits and want
 * fewer false alarms raise it. The auditor fails closed: an exception thrown by the mechanism, a
 * {@code null} output or a NaN feature aborts the audit with an exception — it never yields a
 * passing result for a mechanism it could not evaluate. A pass only means that no violation was
 * detected with this budget, inputs and events.
 */
public final class PrivacyAuditor {

  /** Default confidence level of the lower bound. */
  public static final double DEFAULT_CONFIDENCE = 0.95;

  /** Default number of (event, direction) pairs certified. */
  public static final int DEFAULT_CERTIFIED_EVENTS = 8;

  private final long samplesPerInput;
  private final double confidence;
  private final int certifiedEvents;

  /**
   * @param samplesPerInput outputs drawn on each of the two inputs, ≥ 2 (half select, half certify)
   * @param confidence confidence level of the lower bound, in (0, 1)
   * @param certifiedEvents K, the number of (event, direction) pairs certified, ≥ 1
   */
  public PrivacyAuditor(long samplesPerInput, double confidence, int certifiedEvents) {
    Require.that(samplesPerInput >= 2, "samplesPerInput", "must be >= 2", samplesPerInput);
    Require.that(
        samplesPerInput <= Integer.MAX_VALUE - 8,
        "samplesPerInput",
        "must be <= " + (Integer.MAX_VALUE - 8),
        samplesPerInput);
    this.samplesPerInput = samplesPerInput;
    this.confidence = Require.openUnit("confidence", confidence);
    this.certifiedEvents = Require.positive("certifiedEvents", certifiedEvents);
  }

  /** An auditor with the default confidence (0.95) and 8 certified events. */
  public static PrivacyAuditor withSamples(long samplesPerInput) {
    return new PrivacyAuditor(samplesPerInput, DEFAULT_CONFIDENCE, DEFAULT_CERTIFIED_EVENTS);
  }

  /** The same auditor at another confidence level. */
  public PrivacyAuditor withConfidence(double level) {
    return new PrivacyAuditor(samplesPerInput, level, certifiedEvents);
  }

  public long samplesPerInput() {
    return samplesPerInput;
  }

  public double confidence() {
    return confidence;
  }

  public int certifiedEvents() {
    return certifiedEvents;
  }

  /**
   * Audits one case. All randomness — the mechanism's — comes from {@code random}; a seeded
   * generator makes the audit reproducible.
   */
  public <I, O> AuditResult audit(AuditCase<I, O> auditCase, RandomGenerator random) {
    Require.nonNull("auditCase", auditCase);
    Require.nonNull("random", random);
    int n = (int) samplesPerInput;
    int selection = n / 2;
    List<O> first = new ArrayList<>(n);
    List<O> second = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      first.add(draw(auditCase, auditCase.first(), random));
      second.add(draw(auditCase, auditCase.second(), random));
    }
    List<O> selectFirst = first.subList(0, selection);
    List<O> selectSecond = second.subList(0, selection);
    List<O> certifyFirst = first.subList(selection, n);
    List<O> certifySecond = second.subList(selection, n);
    double delta = auditCase.claimed().delta();
    double alpha = 1 - confidence;

    List<CandidateEvent<O>> candidates =
        auditCase.events().candidates(selectFirst, selectSecond);
    List<Scored<O>> chosen =
        choose(candidates, selection, delta, alpha / (2.0 * certifiedEvents));

    Certified<O> best = null;
    if (!chosen.isEmpty()) {
      double alphaEach = alpha / (2.0 * chosen.size());
      long m = n - selection;
      for (Scored<O> pair : chosen) {
        long countFirst = pair.event().count(certifyFirst);
        long countSecond = pair.event().count(certifySecond);
        long num = pair.firstOverSecond() ? countFirst : countSecond;
        long den = pair.firstOverSecond() ? countSecond : countFirst;
        double bound = logRatioBound(num, den, m, delta, alphaEach);
        if (best == null || bound > best.bound()) {
          best = new Certified<>(pair, num, den, bound);
        }
      }
    }
    double lowerBound =
        best == null || !(best.bound() > 0) ? 0.0 : Math.nextDown(best.bound());
    double claimed = auditCase.claimed().epsilon();
    return new AuditResult(
        auditCase.name(),
        claimed,
        delta,
        lowerBound,
        best == null ? "none" : best.pair().event().description(),
        best == null ? "none" : best.pair().firstOverSecond() ? "D vs D'" : "D' vs D",
        confidence,
        samplesPerInput,
        n - selection,
        candidates.size(),
        chosen.size(),
        best == null ? 0 : best.countNumerator(),
        best == null ? 0 : best.countDenominator(),
        lowerBound <= claimed);
  }

  /**
   * Certified log((p_lo − δ)/p′_hi) for counts {@code num} (likelier side) and {@code den} out of
   * {@code trials} each, or −∞ when p_lo ≤ δ.
   */
  static double logRatioBound(long num, long den, long trials, double delta, double alphaEach) {
    double pLo = ClopperPearson.lower(num, trials, alphaEach);
    double pHi = ClopperPearson.upper(den, trials, alphaEach);
    double excess = pLo - delta;
    if (!(excess > 0)) {
      return Double.NEGATIVE_INFINITY;
    }
    return Math.log(excess) - Math.log(pHi);
  }

  private <O> List<Scored<O>> choose(
      List<CandidateEvent<O>> candidates, long trials, double delta, double alphaEach) {
    List<Scored<O>> scored = new ArrayList<>();
    if (trials == 0) {
      return scored;
    }
    for (CandidateEvent<O> c : candidates) {
      double forward = logRatioBound(c.countFirst(), c.countSecond(), trials, delta, alphaEach);
      double backward = logRatioBound(c.countSecond(), c.countFirst(), trials, delta, alphaEach);
      if (forward > Double.NEGATIVE_INFINITY) {
        scored.add(new Scored<>(c.event(), true, forward));
      }
      if (backward > Double.NEGATIVE_INFINITY) {
        scored.add(new Scored<>(c.event(), false, backward));
      }
    }
    return scored.stream()
        .sorted(Comparator.comparingDouble((Scored<O> s) -> s.score()).reversed())
        .limit(certifiedEvents)
        .toList();
  }

  private <I, O> O draw(AuditCase<I, O> auditCase, I input, RandomGenerator random) {
    O output = auditCase.mechanism().apply(input, random);
    if (output == null) {
      throw new IllegalStateException("mechanism " + auditCase.name() + " returned null");
    }
    return output;
  }

  private record Scored<O>(OutputEvent<O> event, boolean firstOverSecond, double score) {}

  private record Certified<O>(Scored<O> pair, long countNumerator, long countDenominator,
      double bound) {}
}
