// Package logging is the profiler's own log: stderr, and a file when
// CLROTEL_LOG_FILE names one, filtered by CLROTEL_LOG_LEVEL.
//
// It must not block the traced app for long or stop it: a file that cannot
// be written is dropped, and stderr's errors are ignored.
package logging
