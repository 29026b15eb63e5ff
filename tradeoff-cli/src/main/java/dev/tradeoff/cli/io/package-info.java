/**
 * Input and output shared by every command: input checks and their one-line messages ({@link
 * dev.tradeoff.cli.io.Inputs}), JSON and number printing, reports and tables, progress on
 * standard error, and the mapping of failures to exit statuses.
 */
package dev.tradeoff.cli.io;
