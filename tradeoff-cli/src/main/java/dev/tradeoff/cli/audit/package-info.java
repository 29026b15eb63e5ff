/**
 * {@code tradeoff audit}: statistical privacy audits of the mechanisms.
 */
package dev.tradeoff.cli.audit;
