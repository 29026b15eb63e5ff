package dev.tradeoff.accounting.accountant;

import dev.tradeoff.accounting.event.DpEvent;

/** An accountant was asked to account for an event it cannot analyse; nothing is approximated. */
public final class UnsupportedEventException extends IllegalArgumentException {

  public UnsupportedEventException(AccountingMethod method, DpEvent event, String reason) {
    super("method " + method.cliName() + " cannot account for " + event + ": " + reason);
  }
}
