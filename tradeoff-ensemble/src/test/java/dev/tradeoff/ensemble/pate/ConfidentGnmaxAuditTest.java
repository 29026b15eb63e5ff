package dev.tradeoff.ensemble.pate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.audit.AuditCase;
import dev.tradeoff.audit.AuditResult;
import dev.tradeoff.audit.EventFamily;
import dev.tradeoff.audit.OutputEvent;
import dev.tradeoff.audit.PrivacyAuditor;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A statistical privacy test of Confident-GNMax on neighbouring vote histograms: one teacher moves
 * its vote from class 0 to class 1, which moves the maximum count across the threshold and narrows
 * the top margin. The output is the label or −1 for an abstention.
 */
class ConfidentGnmaxAuditTest {

  static final Votes D = new Votes("q", new int[] {6, 4});
  static final Votes D_PRIME = new Votes("q", new int[] {5, 5});

  static AuditResult audit(PateAggregator agg, ApproxDp claimed, int samples) {
    AuditCase<Votes, Integer> auditCase = new AuditCase<>("confident-gnmax",
        (votes, random) -> agg.answer(votes, random) instanceof Answer.Labelled l ? l.label() : -1,
        D, D_PRIME, claimed, EventFamily.of(List.of(OutputEvent.equalTo(-1),
            OutputEvent.equalTo(0), OutputEvent.equalTo(1))));
    return PrivacyAuditor.withSamples(samples).audit(auditCase, new SplittableRandom(11));
  }

  @Test
  void theAuditorsLowerBoundStaysBelowTheDataIndependentEpsilon() {
    PateAggregator agg = new PateAggregator.ConfidentGnmax(5.5, 1.5, 1.5);
    ApproxDp claimed = PateRun.allQueries(VoteTable.of(List.of(D)), agg, 1e-5,
        new SplittableRandom(1)).guarantee();
    AuditResult result = audit(agg, claimed, 400_000);
    assertThat(result.passed()).as("%s", result).isTrue();
    // the pair has power: the vote moves the output distribution measurably
    assertThat(result.epsilonLowerBound()).as("%s", result).isGreaterThan(0.3);
  }

  @Test
  void aThresholdCheckWithoutItsNoiseFailsTheAudit() {
    // σ₁ ≈ 0: D always passes the check, D′ never does; claimed as if σ₁ were 1.5
    PateAggregator broken = new PateAggregator.ConfidentGnmax(5.5, 1e-9, 1.5);
    ApproxDp claimed = PateRun.allQueries(VoteTable.of(List.of(D)),
        new PateAggregator.ConfidentGnmax(5.5, 1.5, 1.5), 1e-5, new SplittableRandom(1))
        .guarantee();
    AuditResult result = audit(broken, claimed, 20_000);
    assertThat(result.passed()).as("%s", result).isFalse();
  }
}
