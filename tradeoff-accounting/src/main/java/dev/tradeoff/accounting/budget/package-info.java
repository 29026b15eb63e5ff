/**
 * The one budget API: every module that spends privacy (Beam jobs, tuning, filters, the command
 * line) charges it here, and every refusal is a {@link
 * dev.tradeoff.accounting.budget.BudgetExceededException} carrying what was requested and what
 * remained.
 *
 * <ul>
 *   <li>{@link dev.tradeoff.accounting.budget.BudgetStore}: a budget and the record of its
 *       charges. {@code charge(label, cost)} for an ordinary (ex-ante) release; {@code reserve}
 *       (admission at the worst case, durable) then {@code commit} (at the realised, ex-post cost)
 *       for filters; {@code spent()} and {@code remaining()} rounded in the safe direction.
 *       Implementations: {@link dev.tradeoff.accounting.budget.InMemoryBudgetStore} here, and
 *       {@code SqliteLedger} in the optional module tradeoff-ledger (durable across processes).
 *   <li>{@link dev.tradeoff.accounting.budget.RunGuarantee}: what a set of {@link
 *       dev.tradeoff.accounting.budget.Release}s costs together: their composition accounted by
 *       every accountant that supports it (PLD, RDP, zCDP, Kairouz et al., basic), the smallest ε
 *       at the asked δ winning. Charge its {@code total()} to a store.
 *   <li>{@link dev.tradeoff.accounting.budget.GuaranteeKind}: how charges compose against a
 *       budget (pure ε, (ε, δ), or Rényi ε at each order).
 * </ul>
 *
 * <p>A job computes its cost first, charges it, and only then releases anything:
 *
 * <pre>{@code
 * BudgetStore budget = new InMemoryBudgetStore(new ApproxDp(1.0, 1e-6));
 * RunGuarantee cost = RunGuarantee.of(List.of(new Release("labels", event)), 1e-6);
 * budget.charge("label job", cost.total()); // throws BudgetExceededException, nothing charged
 * // ... run the mechanism and release its output ...
 * }</pre>
 */
package dev.tradeoff.accounting.budget;
