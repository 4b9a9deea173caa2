// Package shaping reads OpenTelemetry .NET's no-code instrumentation
// configuration (its docs/nocode-instrumentation.md, followed at upstream
// commit 338fc9e040d40372b843fe8516dd9586b0d5162b of
// open-telemetry/opentelemetry-dotnet-instrumentation) and decides, per
// traced method, how its spans are shaped: their name and kind, attributes
// taken from the values clrotel already captured (arguments, this, the
// return value) under the names the file gives, with their types, and
// status rules.
//
// It owns the file's format (upstream's no_code section, in an
// OpenTelemetry configuration file or under clrotel's own no_code key),
// upstream's CEL-based expression language as its CelLexer, CelParser and
// Cel nodes define it (paths into captured values, literals, every
// operator, the conditional, indexing and the five functions, with
// upstream's null semantics), the rejection at load, with line and column,
// of what upstream's parser rejects or can only evaluate to null, target
// matching (exact names and signatures in upstream's metadata form, as
// clrotel names them, or clrotel's globs), and the evaluation over an Env,
// which gives the captured values, an async method's return being its
// task's result, and the elements of arrays captured whole. Shaping is
// decided on the exporter's side from captured values: it must not touch
// the runtime or the hooks.
package shaping
