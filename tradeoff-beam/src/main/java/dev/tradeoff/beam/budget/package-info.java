/**
 * Privacy budgets of Beam pipelines: private transforms declare their accounting events, and the
 * composed guarantee is charged to a {@link dev.tradeoff.accounting.budget.BudgetStore} (the budget
 * API of tradeoff-accounting) before a pipeline runs. Every run that spends budget goes one way,
 * {@link dev.tradeoff.beam.budget.BudgetedRun}: charge, run, check each output's planned record
 * count, marker, rename, manifest.
 */
package dev.tradeoff.beam.budget;
