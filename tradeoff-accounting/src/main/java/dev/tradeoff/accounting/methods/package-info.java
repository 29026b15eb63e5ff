/**
 * The default accountant of each {@link dev.tradeoff.accounting.accountant.AccountingMethod}
 * ({@link dev.tradeoff.accounting.methods.Accountants#forMethod}). It sits above the accountant
 * packages (composition, gdp, pld, rdp, zcdp), which depend only on the {@code accountant}
 * interfaces, so the package graph has no cycle.
 */
package dev.tradeoff.accounting.methods;
