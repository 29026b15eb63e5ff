/**
 * A persistent privacy-budget ledger: the record of every privacy charge made against a dataset,
 * and the gate that refuses a charge that would overspend the budget. This module is optional: it
 * is the only one that needs sqlite-jdbc or the PostgreSQL driver.
 *
 * <p>{@link dev.tradeoff.accounting.budget.BudgetStore} (tradeoff-accounting) is the budget API
 * that Beam jobs, tuning and the privacy filters use ([ExPost25, Algorithm 4] and its pure-DP and
 * approximate-DP counterparts): a two-phase
 * {@code reserve} (admission at the largest possible cost) then {@code commit} (the realised,
 * ex-post cost), plus a listing of what was charged for what. {@link
 * dev.tradeoff.ledger.SqliteLedger} implements it in an embedded SQLite file, safe under
 * concurrent threads and processes, with every charge durable before the call returns; {@link
 * dev.tradeoff.ledger.PostgresLedger} in a PostgreSQL database a team shares across machines,
 * one budget per dataset, with roles enforced by the database. Both are a {@link
 * dev.tradeoff.ledger.PrivacyLedger}: the same filters, entry format and hash chain.
 */
package dev.tradeoff.ledger;
