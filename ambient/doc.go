// Package ambient decides how clrotel joins the caller's trace: the W3C
// context a .NET app holds in System.Diagnostics.Activity.Current.
//
// It owns the decisions, not the reading: which fields of the runtime's
// classes (Thread, ExecutionContext, the IAsyncLocalValueMap
// implementations, Activity) hold what, chosen by name from the layouts the
// runtime reports (the names differ between .NET Core 3.1 and .NET 8);
// how an Activity's ids, start time and name are parsed; and whether
// clrotel exports a span for an Activity that nothing else in the app
// exports. The C hook (profiler/ambient.c) reads through the offsets
// chosen here; profiler/ambient.go is the glue.
//
// It must not call the runtime, hold state, or guess an offset: a field it
// cannot find by name leaves the feature off ("not joined"), never on with
// a wrong layout.
package ambient
