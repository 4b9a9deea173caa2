package config

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The configuration reference (docs/configuration.md) is checked against
// the code both ways, so that neither can change without the other: every
// variable this package reads and every key of the YAML file has a row in
// it, and every CLROTEL_* variable and YAML key it names exists here.

const referencePath = "../docs/configuration.md"

// referenceName is how messages name it: from the repository's root.
const referenceName = "docs/configuration.md"

// yamlKeysHeading opens the reference's table of YAML keys.
const yamlKeysHeading = "## YAML keys"

var (
	// envName is a variable the reference is checked for: clrotel's own and
	// the OpenTelemetry ones this package reads.
	envName = regexp.MustCompile(`^(CLROTEL|OTEL)_[A-Z0-9_]+$`)
	// codeName finds a variable's name in a table cell or in prose.
	codeName = regexp.MustCompile("`((?:CLROTEL|OTEL)_[A-Z0-9_]+)`")
	// clrotelWord is any CLROTEL_* name anywhere in the reference.
	clrotelWord = regexp.MustCompile(`\bCLROTEL_[A-Z0-9_]+\b`)
	// yamlKey is a dotted key in the first cell of the YAML key table.
	yamlKey = regexp.MustCompile("^`([a-z_]+(?:\\.[a-z_]+)*)`$")
)

// where is a place in a file, for messages.
type where struct {
	file string
	line int
}

func (w where) String() string { return w.file + ":" + strconv.Itoa(w.line) }

// codeVariables returns the CLROTEL_* and OTEL_* names that appear as
// string literals in this package's non-test Go files, with where each
// first appears.
func codeVariables(t *testing.T) map[string]where {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]where{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !envName.MatchString(s) {
				return true
			}
			if _, seen := out[s]; !seen {
				p := fset.Position(lit.Pos())
				out[s] = where{"config/" + p.Filename, p.Line}
			}
			return true
		})
	}
	if len(out) == 0 {
		t.Fatal("no CLROTEL_* or OTEL_* string literal found in config/*.go: the scan is broken")
	}
	return out
}

// fileKeys returns the dotted YAML keys of File, from its yaml tags: a
// section's keys under its name (sampling.remote.endpoint), a list of
// mappings as itself and its entries' keys (sampling.rules,
// sampling.rules.match).
func fileKeys(t *testing.T) []string {
	t.Helper()
	var out []string
	var walk func(prefix string, typ reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "-" {
				continue
			}
			if tag == "" {
				t.Fatalf("field %s.%s has no yaml tag: name its key", typ.Name(), f.Name)
			}
			key := tag
			if prefix != "" {
				key = prefix + "." + tag
			}
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch {
			case ft == reflect.TypeOf(yaml.Node{}):
				out = append(out, key) // a section another package reads (no_code)
			case ft.Kind() == reflect.Struct:
				walk(key, ft) // a section: its keys, not itself
			case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
				out = append(out, key)
				walk(key, ft.Elem())
			default:
				out = append(out, key)
			}
		}
	}
	walk("", reflect.TypeOf(File{}))
	return out
}

// reference is what docs/configuration.md documents.
type reference struct {
	rows    map[string]int // variables named in a table row's first cell, and the row's line
	clrotel map[string]int // every CLROTEL_* name anywhere in it, and its first line
	keys    map[string]int // the YAML key table's keys, and their lines
}

func readReference(t *testing.T) reference {
	t.Helper()
	f, err := os.Open(referencePath)
	if err != nil {
		t.Fatalf("the configuration reference: %v", err)
	}
	defer f.Close()
	ref := reference{rows: map[string]int{}, clrotel: map[string]int{}, keys: map[string]int{}}
	inKeys := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		for _, m := range clrotelWord.FindAllString(line, -1) {
			if _, ok := ref.clrotel[m]; !ok {
				ref.clrotel[m] = n
			}
		}
		if strings.HasPrefix(line, "#") {
			inKeys = strings.TrimSpace(line) == yamlKeysHeading
			continue
		}
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "|") || len(cells) < 3 {
			continue
		}
		first := strings.TrimSpace(cells[1])
		if inKeys {
			if m := yamlKey.FindStringSubmatch(first); m != nil {
				if prev, ok := ref.keys[m[1]]; ok {
					t.Errorf("%s:%d: YAML key %s has a second row (first at line %d)", referenceName, n, m[1], prev)
				}
				ref.keys[m[1]] = n
			}
			continue
		}
		for _, m := range codeName.FindAllStringSubmatch(first, -1) {
			if _, ok := ref.rows[m[1]]; !ok {
				ref.rows[m[1]] = n
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(ref.keys) == 0 {
		t.Fatalf("%s: no YAML key table under %q", referenceName, yamlKeysHeading)
	}
	return ref
}

func TestReferenceDocumentsEveryVariable(t *testing.T) {
	code, ref := codeVariables(t), readReference(t)
	for _, name := range slices.Sorted(maps.Keys(code)) {
		if _, ok := ref.rows[name]; !ok {
			t.Errorf("%s is read at %s but has no row in %s (a table row whose first cell names it)", name, code[name], referenceName)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(ref.clrotel)) {
		if _, ok := code[name]; !ok {
			t.Errorf("%s:%d names %s, which config/*.go does not read (renamed or gone? fix the reference)", referenceName, ref.clrotel[name], name)
		}
	}
}

func TestReferenceDocumentsEveryYAMLKey(t *testing.T) {
	keys, ref := fileKeys(t), readReference(t)
	inCode := map[string]bool{}
	for _, k := range keys {
		inCode[k] = true
		if _, ok := ref.keys[k]; !ok {
			t.Errorf("YAML key %s (config.File, config/file.go) has no row in the table under %q in %s", k, yamlKeysHeading, referenceName)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ref.keys)) {
		if !inCode[k] {
			t.Errorf("%s:%d lists YAML key %s, which config.File does not have (renamed or gone? fix the reference)", referenceName, ref.keys[k], k)
		}
	}
}
