/**
 * Flags that several commands take (the ledger, mechanism specs), parsed in one place.
 */
package dev.tradeoff.cli.options;
