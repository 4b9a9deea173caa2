// Package summary says what the profiler's log reports of its counts: the
// lines at exit (what was folded, shed, dropped, lost; how queued work and
// async spans fared), the drops since the last periodic report, and the
// sizes of the profiler's tables.
//
// It owns the wording and which counts are worth a line at which level;
// it must not read the counts itself (the profiler hands them over) or
// write to the log.
package summary
