package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.internal.Require;

/**
 * A mechanism known only by its guarantee ({@code PureDp}, {@code ApproxDp}, {@code RenyiDp},
 * {@code ZeroConcentratedDp}, {@code GaussianDp}, …). Accountants that understand the guarantee's
 * type account for it as the worst mechanism with that guarantee.
 */
public record GuaranteeEvent(PrivacyGuarantee guarantee) implements DpEvent {
  public GuaranteeEvent {
    Require.nonNull("guarantee", guarantee);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.guarantee(this);
  }
}
