/**
 * A persistent privacy-budget ledger: the record of every privacy charge made against a dataset,
 * and the gate that refuses a charge that would overspend the budget.
 *
 * <p>{@link dev.tradeoff.selection.ledger.BudgetStore} is the interface privacy filters use (the
 * [ExPost25, Algorithm 4] and its pure-DP and approximate-DP counterparts): a two-phase
 * {@code reserve} (admission at the largest possible cost) then {@code commit} (the realised,
 * ex-post cost), plus a listing of what was charged for what. {@link
 * dev.tradeoff.selection.ledger.SqliteLedger} implements it in an embedded SQLite file, safe under
 * concurrent threads and processes, with every charge durable before the call returns.
 */
package dev.tradeoff.selection.ledger;
