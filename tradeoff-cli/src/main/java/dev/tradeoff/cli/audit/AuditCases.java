package dev.tradeoff.cli.audit;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.audit.AuditCase;
import dev.tradeoff.audit.EventFamily;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Spec;
import dev.tradeoff.mechanisms.gaussian.GaussianMechanism;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.response.RandomizedResponse;
import java.util.Set;

/**
 * Turns the {@code --mechanism} spec of {@code tradeoff audit} into an {@link AuditCase} on
 * Tradeoff's own mechanisms: the mechanism, the worst-case neighbouring inputs for sensitivity 1,
 * the claimed guarantee and the events to search.
 *
 * <ul>
 *   <li>{@code laplace:epsilon=E[,scale-factor=F]}: {@link LaplaceMechanism} with noise scale F/E
 *       (i.e. built for ε = E/F) on inputs 0 and 1, audited against the claim E-DP; F &lt; 1
 *       audits a deliberately broken configuration. Thresholds and histogram bins on the output.
 *   <li>{@code randomized-response:epsilon=E[,k=K]}: {@link RandomizedResponse} over K categories
 *       (default 2) on inputs 0 and 1, claimed E-DP; each output value as an event.
 *   <li>{@code gaussian:epsilon=E,delta=D}: {@link GaussianMechanism} (analytic calibration) on
 *       inputs 0 and 1, claimed (E, D)-DP; the bound on ε is at δ = D.
 * </ul>
 */
final class AuditCases {

  static final String SYNTAX =
      "laplace:epsilon=E[,scale-factor=F] | randomized-response:epsilon=E[,k=K]"
          + " | gaussian:epsilon=E,delta=D";

  private AuditCases() {}

  static AuditCase<?, ?> parse(String text) {
    Spec spec = Spec.parse("--mechanism", text);
    switch (spec.name()) {
      case "laplace":
        {
          spec.allowOnly(Set.of("epsilon", "scale-factor"));
          double epsilon = Inputs.epsilon(spec.flag("epsilon"), spec.number("epsilon"));
          double factor = Inputs.range(spec.flag("scale-factor"), spec.number("scale-factor", 1.0),
              0.01, 100, "a multiplier of the noise scale");
          LaplaceMechanism laplace = LaplaceMechanism.of(epsilon / factor, 1.0);
          return new AuditCase<>(
              spec.text(),
              laplace::release,
              0.0,
              1.0,
              new ApproxDp(epsilon, 0),
              EventFamily.forRealOutputs());
        }
      case "randomized-response":
        {
          spec.allowOnly(Set.of("epsilon", "k"));
          int k = Inputs.count(spec.flag("k"), spec.integer("k", 2), 2, 1 << 16);
          RandomizedResponse response =
              RandomizedResponse.kAry(Inputs.epsilon(spec.flag("epsilon"), spec.number("epsilon")), k);
          return new AuditCase<>(
              spec.text(),
              response::release,
              0,
              1,
              response.guarantee().toApproxDp(),
              EventFamily.<Integer>categories(k));
        }
      case "gaussian":
        {
          spec.allowOnly(Set.of("epsilon", "delta"));
          GaussianMechanism gaussian =
              GaussianMechanism.of(Inputs.epsilon(spec.flag("epsilon"), spec.number("epsilon")),
                  Inputs.delta(spec.flag("delta"), spec.number("delta")), 1.0);
          return new AuditCase<>(
              spec.text(),
              gaussian::release,
              0.0,
              1.0,
              gaussian.guarantee(),
              EventFamily.forRealOutputs());
        }
      default:
        throw new IllegalArgumentException(
            "--mechanism must be one of " + SYNTAX + ", but was '" + text + "'");
    }
  }
}
