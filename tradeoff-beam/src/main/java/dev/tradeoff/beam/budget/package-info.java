/**
 * Privacy budgets of Beam pipelines: private transforms declare their accounting events, and the
 * composed guarantee is charged to a {@link dev.tradeoff.accounting.budget.BudgetStore} (the budget
 * API of tradeoff-accounting) before a pipeline runs.
 */
package dev.tradeoff.beam.budget;
