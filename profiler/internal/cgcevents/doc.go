// Package cgcevents tests how the profiler reads the runtime's GC range
// events (profiler/gcevents.c, symlinked here with the work-item table it
// feeds and what they include) outside the runtime: the EventPipe session
// it asks for, and GCBulkMovedObjectRanges and GCBulkSurvivingObjectRanges
// payloads, well-formed, unaligned, split over batches, or malformed, moving
// and keeping the work items of profiler/workitems.c. Test-only: nothing
// imports it.
package cgcevents
