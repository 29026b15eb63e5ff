/**
 * Privacy filters for ex-post guarantees: [ExPost25, Algorithm 4] for Rényi DP ({@link
 * dev.tradeoff.selection.filter.RenyiFilter}, Theorem 16) and its pure-DP and approximate-DP
 * counterparts ({@link dev.tradeoff.selection.filter.PureDpFilter}, {@link
 * dev.tradeoff.selection.filter.ApproxDpFilter}), with Lemma 7's conversions. The spent budget lives
 * in a pluggable {@link dev.tradeoff.accounting.budget.BudgetStore}: {@link
 * dev.tradeoff.accounting.budget.InMemoryBudgetStore} or the persistent {@code SqliteLedger} of
 * tradeoff-ledger.
 */
package dev.tradeoff.selection.filter;
