/**
 * {@code tradeoff ledger}: create, read and charge a privacy budget ledger.
 */
package dev.tradeoff.cli.ledger;
