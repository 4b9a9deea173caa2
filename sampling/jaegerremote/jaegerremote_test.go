package jaegerremote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/sampling"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, body string
		want       sampling.Strategy
		err        string
	}{
		{"legacy probabilistic", `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.25}}`, sampling.Strategy{Probability: 0.25}, ""},
		{"proto probabilistic", `{"strategyType":"PROBABILISTIC","probabilisticSampling":{"samplingRate":1}}`, sampling.Strategy{Probability: 1}, ""},
		{"legacy rate limiting", `{"strategyType":1,"rateLimitingSampling":{"maxTracesPerSecond":5},"probabilisticSampling":null}`, sampling.Strategy{MaxTracesPerSecond: 5}, ""},
		{"proto rate limiting zero", `{"strategyType":"RATE_LIMITING","rateLimitingSampling":{"maxTracesPerSecond":0}}`, sampling.Strategy{}, ""},
		// As Jaeger v2's file provider serves a service with operation entries.
		{"per operation", `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.1},"operationSampling":{"defaultSamplingProbability":0.1,"defaultLowerBoundTracesPerSecond":0.5,"perOperationStrategies":[{"operation":"A.dll!N.T.M()","probabilisticSampling":{"samplingRate":0}}],"defaultUpperBoundTracesPerSecond":0}}`,
			sampling.Strategy{Probability: 0.1, LowerBound: 0.5, Operations: map[string]float64{"A.dll!N.T.M()": 0}}, ""},
		{"unknown fields", `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.5},"futureField":3}`, sampling.Strategy{Probability: 0.5}, ""},
		{"not json", `<html>`, sampling.Strategy{}, "not a sampling strategy"},
		{"rate above 1", `{"strategyType":0,"probabilisticSampling":{"samplingRate":1.5}}`, sampling.Strategy{}, "want a probability"},
		{"operation rate below 0", `{"operationSampling":{"defaultSamplingProbability":0.1,"perOperationStrategies":[{"operation":"x","probabilisticSampling":{"samplingRate":-1}}]}}`, sampling.Strategy{}, "operation x"},
		{"no parameters", `{"strategyType":0}`, sampling.Strategy{}, "without probabilisticSampling"},
	}
	for _, tt := range tests {
		got, err := Parse([]byte(tt.body))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("%s: %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
}

func TestHTTPFetcher(t *testing.T) {
	var gotPath, gotService string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotService = r.URL.Path, r.URL.Query().Get("service")
		if gotService == "missing" {
			http.Error(w, "no such service", http.StatusNotFound)
			return
		}
		fmt.Fprint(w, `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.5}}`)
	}))
	defer srv.Close()
	ctx := context.Background()
	b, err := HTTPFetcher{Endpoint: srv.URL}.Fetch(ctx, "shop & co")
	if err != nil || gotPath != "/" || gotService != "shop & co" || !strings.Contains(string(b), "0.5") {
		t.Fatalf("%q %v; path %q service %q", b, err, gotPath, gotService)
	}
	if _, err := (HTTPFetcher{Endpoint: srv.URL + "/sampling"}).Fetch(ctx, "x"); err != nil || gotPath != "/sampling" {
		t.Fatalf("path %q, %v", gotPath, err)
	}
	_, err = HTTPFetcher{Endpoint: srv.URL}.Fetch(ctx, "missing")
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 404 {
		t.Fatalf("err %v, want HTTP 404", err)
	}
}

// fakeFetcher answers from a script, one step per Fetch.
type fakeFetcher struct{ steps []string }

func (f *fakeFetcher) Fetch(context.Context, string) ([]byte, error) {
	s := f.steps[0]
	if len(f.steps) > 1 {
		f.steps = f.steps[1:]
	}
	switch {
	case s == "down":
		return nil, errors.New("connection refused")
	case strings.HasPrefix(s, "status"):
		return nil, &StatusError{Code: 500, Body: "boom"}
	}
	return []byte(s), nil
}

func TestPollerKeepsLastAndLogsStateChanges(t *testing.T) {
	p10 := `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.1}}`
	p50 := `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.5}}`
	f := &fakeFetcher{steps: []string{"down", "down", p10, p10, "down", "down", "status", "garbage", "garbage", p10, p50}}
	var published []float64
	var logs []string
	p := &Poller{Fetcher: f, Service: "svc", Interval: 10 * time.Second,
		Publish: func(s sampling.Strategy) { published = append(published, s.Probability) },
		Log:     func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) },
	}
	var waits []time.Duration
	for range 11 {
		p.Poll(context.Background())
		waits = append(waits, p.Next())
	}
	if fmt.Sprint(published) != "[0.1 0.5]" {
		t.Errorf("published %v, want [0.1 0.5]: only changes", published)
	}
	if p.Last() == nil || p.Last().Probability != 0.5 {
		t.Errorf("last %+v", p.Last())
	}
	want := []string{
		"connection refused; sampling at the initial rate until it answers",
		"answers again",
		"probability 0.1",
		"connection refused; keeping the last strategy",
		"HTTP 500: boom; keeping the last strategy",
		"bad answer",
		"answers again",
		"probability 0.5",
	}
	if len(logs) != len(want) {
		t.Fatalf("logs:\n%s", strings.Join(logs, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(logs[i], w) {
			t.Errorf("log %d = %q, want it to say %q", i, logs[i], w)
		}
	}
	// Backoff: 1 s, 2 s after failures, the interval when answered.
	if waits[0] != time.Second || waits[1] != 2*time.Second || waits[2] != 10*time.Second || waits[7] != 8*time.Second || waits[8] != 10*time.Second {
		t.Errorf("waits %v", waits)
	}
}

func TestDescribe(t *testing.T) {
	s := Describe(sampling.Strategy{Probability: 0.1, Operations: map[string]float64{"b": 0, "a": 1}})
	if s != "per operation: default probability 0.1, at least 0 traces per second per method\n  a: probability 1\n  b: probability 0\n" {
		t.Errorf("%q", s)
	}
}
