package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.List;
import java.util.Optional;

/**
 * What a release costs, as a ledger records it: the release's accounting event where there is one,
 * and always its (ε, δ).
 *
 * <p>A ledger that knows the event can admit it by a tighter filter than (ε, δ) basic composition
 * (for example Gaussian releases by their GDP μ); one that does not falls back to the (ε, δ). The
 * two must describe the same release: {@code approxDp} must be a valid (ε, δ) guarantee of {@code
 * event} under add-or-remove-one neighbouring ({@link #of(DpEvent, double)} computes one).
 *
 * @param event the release's accounting event, or {@code null} for an opaque (ε, δ) charge
 * @param approxDp the release's (ε, δ)
 */
public record Charge(DpEvent event, ApproxDp approxDp) {

  public Charge {
    Require.nonNull("approxDp", approxDp);
  }

  /** An opaque (ε, δ) charge: nothing is known about the release but its (ε, δ). */
  public static Charge opaque(ApproxDp approxDp) {
    return new Charge(null, approxDp);
  }

  /**
   * The charge of {@code event} with its (ε, δ) at {@code delta}: the smallest ε over the
   * accountants of {@link RunGuarantee#of(List, double)} (each rounded up).
   */
  public static Charge of(DpEvent event, double delta) {
    Require.nonNull("event", event);
    ApproxDp total = RunGuarantee.of(List.of(new Release("charge", event)), delta).total();
    return new Charge(event, total);
  }

  /** The event, if the charge has one. */
  public Optional<DpEvent> eventIfKnown() {
    return Optional.ofNullable(event);
  }
}
