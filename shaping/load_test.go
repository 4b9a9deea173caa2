package shaping

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// logged records what Load reports.
type logged struct{ errs, infos []string }

func (l *logged) Errorf(f string, a ...any) { l.errs = append(l.errs, fmt.Sprintf(f, a...)) }
func (l *logged) Infof(f string, a ...any)  { l.infos = append(l.infos, fmt.Sprintf(f, a...)) }

func TestLoad(t *testing.T) {
	own := &Rules{Targets: []*Target{{Type: "Acme.Own", Method: "Run"}}}
	files := map[string]string{
		"otel.yaml": upstream,
		"bad.yaml":  "instrumentation/development:\n  dotnet:\n    no_code:\n      targets:\n        - target: {}\n",
		"none.yaml": "file_format: \"1.0\"\n",
	}
	read := func(path string) ([]byte, error) {
		if s, ok := files[path]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("open " + path + ": no such file")
	}
	up, err := Parse("otel.yaml", []byte(upstream))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		own   *Rules
		path  string
		types []string // the targets' types, in order; nil: no rules
		errs  []string // each error's beginning
		infos []string
	}{
		{"nothing", nil, "", nil, nil, nil},
		{"own file only", own, "", []string{"Acme.Own"}, nil, nil},
		{"own first, then the file's", own, "otel.yaml", append([]string{"Acme.Own"}, types(up)...), nil,
			[]string{fmt.Sprintf("no-code configuration otel.yaml: %d targets", len(up.Targets))}},
		{"a file that cannot be read is not used", own, "gone.yaml", []string{"Acme.Own"},
			[]string{"no-code configuration: open gone.yaml: no such file; its targets do not shape spans"}, nil},
		{"a file with problems is not used", nil, "bad.yaml", nil,
			[]string{"no-code configuration bad.yaml is not used (its targets do not shape spans; the app runs traced):\nbad.yaml:"}, nil},
		{"a file without targets", nil, "none.yaml", nil, nil, []string{"no-code configuration none.yaml: 0 targets"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logged
			got := Load(tc.own, tc.path, read, &l)
			if (got == nil) != (tc.types == nil) || got != nil && strings.Join(types(got), ",") != strings.Join(tc.types, ",") {
				t.Errorf("targets %v, want %v", types(got), tc.types)
			}
			if len(l.errs) != len(tc.errs) {
				t.Fatalf("errors %q, want %q", l.errs, tc.errs)
			}
			for i := range tc.errs {
				if !strings.HasPrefix(l.errs[i], tc.errs[i]) {
					t.Errorf("error %q, want it to begin %q", l.errs[i], tc.errs[i])
				}
			}
			if strings.Join(l.infos, "\n") != strings.Join(tc.infos, "\n") {
				t.Errorf("infos %q, want %q", l.infos, tc.infos)
			}
		})
	}
}

func types(r *Rules) []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, tg := range r.Targets {
		out = append(out, tg.Type)
	}
	return out
}

func TestUnmatched(t *testing.T) {
	tg := &Target{Path: "/etc/otel.yaml", Line: 12, Type: "Acme.Shop.Cart", Method: "Add"}
	want := "no-code target at /etc/otel.yaml:12 (Acme.Shop.Cart.Add) shaped no span: no method it selects was called while traced (check its names and signature)"
	if got := tg.Unmatched(); got != want {
		t.Errorf("Unmatched() = %q, want %q", got, want)
	}
}
