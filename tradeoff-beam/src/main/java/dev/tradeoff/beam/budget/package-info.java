/** Privacy budgets of Beam pipelines: private transforms declare their accounting events, and the composed guarantee is checked before a pipeline runs. */
package dev.tradeoff.beam.budget;
