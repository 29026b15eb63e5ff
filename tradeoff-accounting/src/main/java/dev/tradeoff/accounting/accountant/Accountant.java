package dev.tradeoff.accounting.accountant;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import java.util.Optional;

/**
 * A privacy accountant: given what ran, it answers ε(δ) and δ(ε) by one method. Accountants are
 * stateless and immutable; the event tree is the state.
 *
 * <p>Contract: {@link #account} returns a profile whose δ(ε) is an upper bound on the true δ(ε)
 * of the event (never an under-estimate), and whose {@link PrivacyProfile#epsilonBounds} /
 * {@link PrivacyProfile#deltaBounds} bracket the truth, or throws {@link
 * UnsupportedEventException} for exactly the events where {@link #whyUnsupported} returns a reason
 * (every accountant here derives both from one walk of the tree: {@link EventAccountant}).
 */
public interface Accountant {

  /** The method this accountant implements. */
  AccountingMethod method();

  /** Empty if the event can be accounted for under the relation, else the reason it cannot. */
  Optional<String> whyUnsupported(DpEvent event, Neighbouring neighbouring);

  /** Whether {@link #account} accepts this event. */
  default boolean supports(DpEvent event, Neighbouring neighbouring) {
    return whyUnsupported(event, neighbouring).isEmpty();
  }

  /**
   * The privacy profile of the event.
   *
   * @throws UnsupportedEventException if the event is not supported
   */
  PrivacyProfile account(DpEvent event, Neighbouring neighbouring);
}
