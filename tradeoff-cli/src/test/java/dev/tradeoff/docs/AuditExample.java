package dev.tradeoff.docs;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.audit.AuditCase;
import dev.tradeoff.audit.AuditResult;
import dev.tradeoff.audit.EventFamily;
import dev.tradeoff.audit.PrivacyAuditor;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.random.Randomness;

/** docs/audit.md. */
final class AuditExample {
  private AuditExample() {}

  static AuditResult run() {
    // [example]
    LaplaceMechanism laplace = LaplaceMechanism.of(1.0, 1.0);
    AuditCase<Double, Double> laplaceCase = new AuditCase<>("laplace(epsilon=1)",
        laplace::release, 0.0, 1.0, new ApproxDp(1.0, 0), EventFamily.forRealOutputs());
    AuditResult result = PrivacyAuditor.withSamples(200_000)
        .audit(laplaceCase, Randomness.seeded(7)); // seeded: a reproducible audit
    // result.epsilonLowerBound() <= 1 with 95% confidence; result.passed() is true
    // [/example]
    return result;
  }
}
