/**
 * Privacy filters for ex-post guarantees: [ExPost25, Algorithm 4] for Rényi DP ({@link
 * dev.tradeoff.selection.filter.RenyiFilter}, Theorem 16) and its pure-DP and approximate-DP
 * counterparts ({@link dev.tradeoff.selection.filter.PureDpFilter}, {@link
 * dev.tradeoff.selection.filter.ApproxDpFilter}), with Lemma 7's conversions. The spent budget lives
 * in a pluggable {@link dev.tradeoff.selection.ledger.BudgetStore}: {@link
 * dev.tradeoff.selection.filter.InMemoryBudgetStore} or the persistent SQLite ledger.
 */
package dev.tradeoff.selection.filter;
