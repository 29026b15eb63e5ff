/**
 * Statistical privacy auditor: black-box, high-confidence lower bounds on the ε of any mechanism.
 *
 * <p>Describe the audit as an {@link dev.tradeoff.audit.AuditCase} — the mechanism as a function
 * of (input, {@link java.util.random.RandomGenerator}), two neighbouring inputs, the claimed
 * {@link dev.tradeoff.accounting.guarantee.ApproxDp} and an {@link dev.tradeoff.audit.EventFamily}
 * — and run it with a {@link dev.tradeoff.audit.PrivacyAuditor}:
 *
 * <pre>{@code
 * AuditCase<Double, Double> laplace = new AuditCase<>("laplace", myLaplace, 0.0, 1.0,
 *     new ApproxDp(1.0, 0), EventFamily.forRealOutputs());
 * AuditResult result = PrivacyAuditor.withSamples(1_000_000).audit(laplace, seededOrSecure);
 * }</pre>
 *
 * The bound comes from exact {@link dev.tradeoff.audit.ClopperPearson} intervals on a certification
 * half of the samples, for events chosen on the other half, with a Bonferroni correction; see
 * {@link dev.tradeoff.audit.PrivacyAuditor} for the argument.
 */
package dev.tradeoff.audit;
