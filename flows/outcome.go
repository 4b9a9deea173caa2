package flows

import (
	"strings"

	"go.opentelemetry.io/otel/attribute"
)

// returnKey is the return value's attribute (otelbridge.KeyReturn).
const returnKey = attribute.Key("dotnet.return")

// Outcome is how an async method's task completed.
type Outcome struct {
	Attrs []attribute.KeyValue // the result, as dotnet.return
	// Known: the result was captured, or there is none (a Task's); the
	// caller says. Elements are the typed elements of arrays in it, as
	// dotnet.return (values.AppendElements), for no-code shaping only.
	Known    bool
	Elements []attribute.KeyValue
	Failed   bool
	Canceled bool
	// The exception's type and message (Failed or Canceled), when known.
	ExcType, ExcMessage string
}

// AsyncOutcome reads a builder completion's arguments: SetResult's is the
// task's result; SetException's the exception (rendered "Type: message"),
// an OperationCanceledException (or a type derived by name from it, as
// TaskCanceledException) meaning the task was canceled.
func AsyncOutcome(setException bool, args []attribute.KeyValue) Outcome {
	var o Outcome
	if !setException {
		for _, a := range args {
			k := string(a.Key)
			if i := strings.IndexByte(strings.TrimPrefix(k, "dotnet.arg."), '.'); strings.HasPrefix(k, "dotnet.arg.") {
				rest := ""
				if i >= 0 {
					rest = k[len("dotnet.arg.")+i:]
				}
				o.Attrs = append(o.Attrs, attribute.KeyValue{Key: returnKey + attribute.Key(rest), Value: a.Value})
			}
		}
		return o
	}
	o.Failed = true
	for _, a := range args {
		k := string(a.Key)
		if !strings.HasPrefix(k, "dotnet.arg.") || strings.Contains(k[len("dotnet.arg."):], ".") {
			continue
		}
		text := a.Value.Emit()
		typ, msg, _ := strings.Cut(text, ": ")
		if i := strings.IndexByte(typ, '{'); i > 0 {
			typ, msg = typ[:i], "" // its layout not read yet: the type only
		}
		o.ExcType, o.ExcMessage = typ, msg
		if strings.HasSuffix(typ, "CanceledException") {
			o.Failed, o.Canceled = false, true
		}
		break
	}
	return o
}
