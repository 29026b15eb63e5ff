package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import java.util.Optional;

/**
 * {@link AccountingMethod#OPTIMAL}: the exact optimal composition of k identical (ε, δ)-DP
 * mechanisms (Kairouz, Oh and Viswanath 2015, Theorem 3.3; {@link OptimalComposition}), the
 * smallest δ(ε) that holds for every sequence of k mechanisms with that guarantee.
 *
 * <p>It reads the same events as {@link BasicAccountant}; in addition it refuses sequences whose
 * leaves have different (ε, δ) (computing the optimal heterogeneous composition is #P-complete,
 * Murtagh and Vadhan 2016; use kairouz, pld or basic) and more than {@value
 * OptimalComposition#MAX_COUNT} mechanisms.
 */
public final class OptimalAccountant implements Accountant {

  /** A stateless accountant; every instance behaves the same. */
  public OptimalAccountant() {}

  @Override
  public AccountingMethod method() {
    return AccountingMethod.OPTIMAL;
  }

  @Override
  public Optional<String> whyUnsupported(DpEvent event, Neighbouring neighbouring) {
    Require.nonNull("event", event);
    Require.nonNull("neighbouring", neighbouring);
    Optional<String> unreadable = EventGuarantees.whyUnreadable(event, neighbouring);
    if (unreadable.isPresent()) {
      return unreadable;
    }
    GuaranteeSequence sequence = EventGuarantees.sequence(event, neighbouring);
    if (!sequence.isHomogeneous()) {
      return Optional.of(
          "the events have different (epsilon, delta) guarantees and the optimal heterogeneous"
              + " composition is #P-complete (Murtagh and Vadhan 2016); use kairouz, pld or basic");
    }
    if (sequence.length() > OptimalComposition.MAX_COUNT) {
      return Optional.of(
          "the composition count must be <= "
              + OptimalComposition.MAX_COUNT
              + ", but was "
              + sequence.length());
    }
    return Optional.empty();
  }

  @Override
  public PrivacyProfile account(DpEvent event, Neighbouring neighbouring) {
    requireSupported(event, neighbouring);
    GuaranteeSequence sequence = EventGuarantees.sequence(event, neighbouring);
    return OptimalComposition.of(sequence.first(), (int) sequence.length());
  }
}
