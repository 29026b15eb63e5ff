package dev.tradeoff.cli;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.audit.AuditCase;
import dev.tradeoff.audit.EventFamily;
import java.util.Set;

/**
 * Turns the {@code --mechanism} spec of {@code tradeoff audit} into an {@link AuditCase}: the
 * mechanism, the worst-case neighbouring inputs for sensitivity 1, the claimed guarantee and the
 * events to search.
 *
 * <ul>
 *   <li>{@code laplace:epsilon=E[,scale-factor=F]}: Laplace noise of scale F/E on inputs 0 and 1
 *       (F &lt; 1 audits a deliberately broken mechanism), claimed E-DP; thresholds and histogram
 *       bins on the output.
 *   <li>{@code randomized-response:epsilon=E}: binary randomized response on bits 0 and 1, claimed
 *       E-DP; each output value as an event.
 * </ul>
 */
final class AuditCases {

  static final String SYNTAX =
      "laplace:epsilon=E[,scale-factor=F] | randomized-response:epsilon=E";

  private AuditCases() {}

  static AuditCase<?, ?> parse(String text, AuditableMechanisms mechanisms) {
    Spec spec = Spec.parse("--mechanism", text);
    switch (spec.name()) {
      case "laplace":
        {
          spec.allowOnly(Set.of("epsilon", "scale-factor"));
          double epsilon = Require.positive("epsilon", spec.number("epsilon"));
          double factor = Require.positive("scale-factor", spec.number("scale-factor", 1.0));
          return new AuditCase<>(
              spec.text(),
              mechanisms.laplace(factor / epsilon),
              0.0,
              1.0,
              new ApproxDp(epsilon, 0),
              EventFamily.forRealOutputs());
        }
      case "randomized-response":
        {
          spec.allowOnly(Set.of("epsilon"));
          double epsilon = Require.positive("epsilon", spec.number("epsilon"));
          return new AuditCase<>(
              spec.text(),
              mechanisms.randomizedResponse(epsilon),
              0,
              1,
              new ApproxDp(epsilon, 0),
              EventFamily.<Integer>categories(2));
        }
      default:
        throw new IllegalArgumentException(
            "--mechanism must be one of " + SYNTAX + ", but was '" + text + "'");
    }
  }
}
