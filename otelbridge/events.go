package otelbridge

import "go.opentelemetry.io/otel/attribute"

// event is one of a span's events: an exception thrown or caught.
type event struct {
	name  string
	time  int64
	attrs []attribute.KeyValue
}

// MaxEvents bounds the events one span keeps, as the OpenTelemetry SDK's
// default span limits do: a frame open as long as the process (a serving
// loop that catches its handlers' exceptions) must not grow at every turn.
// The events past it are counted and exported as the span's
// dropped_events_count.
const MaxEvents = 128

// events are a span's events, at most MaxEvents, and how many more came.
type events struct {
	list    []event
	dropped uint32
}

func (es *events) add(evs ...event) {
	room := max(MaxEvents-len(es.list), 0)
	if len(evs) > room {
		es.dropped += uint32(len(evs) - room)
		evs = evs[:room]
	}
	es.list = append(es.list, evs...)
}

// addAll adds o's events, and counts those o dropped.
func (es *events) addAll(o *events) {
	es.add(o.list...)
	es.dropped += o.dropped
}

func (es *events) empty() bool { return len(es.list) == 0 && es.dropped == 0 }

// clone copies es, for a span exported after its frame is reused.
func (es *events) clone() events {
	return events{list: append([]event(nil), es.list...), dropped: es.dropped}
}
