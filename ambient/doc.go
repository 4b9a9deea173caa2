// Package ambient decides how clrotel joins the caller's trace: the W3C
// context a .NET app holds in System.Diagnostics.Activity.Current.
//
// It owns the decisions, not the reading: which fields of the runtime's
// classes (Thread, ExecutionContext, the IAsyncLocalValueMap
// implementations, Activity) hold what, chosen by name from the layouts the
// runtime reports (the names differ between .NET Core 3.1 and .NET 8);
// how an Activity's ids, start time and name are parsed; and whether
// clrotel exports a span for an Activity that nothing else in the app
// exports; and when to try (Finder): the thread's part of the plan as soon
// as the runtime's classes can be read, the whole plan once the app has
// loaded DiagnosticSource and started an Activity. The C hook
// (profiler/ambient.c) reads through the offsets chosen here;
// profiler/ambient.go is the glue that answers Runtime and copies plans
// into C memory.
//
// It must not call the runtime but through Runtime and Modules, keep state
// beyond the Finder's progress, or guess an offset: a field it cannot find
// by name leaves the feature off ("not joined"), never on with a wrong
// layout.
package ambient
