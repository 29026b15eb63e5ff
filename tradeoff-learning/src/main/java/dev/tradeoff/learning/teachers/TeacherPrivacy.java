package dev.tradeoff.learning.teachers;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.internal.Require;

/**
 * What a private teacher's training satisfies: the (ε, Δ) guarantee (computed by an accountant for
 * DP-SGD, stated by the mechanism for output perturbation), the event it was computed from, and
 * the neighbouring relation it holds under.
 *
 * @param guarantee (ε, Δ); Δ = 0 for pure DP
 * @param event the accounting event of the training run
 * @param neighbouring the relation the guarantee is stated for
 */
public record TeacherPrivacy(ApproxDp guarantee, DpEvent event, Neighbouring neighbouring) {
  public TeacherPrivacy {
    Require.nonNull("guarantee", guarantee);
    Require.nonNull("event", event);
    Require.nonNull("neighbouring", neighbouring);
  }
}
