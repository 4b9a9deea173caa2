package cgraph

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Graph is a directed graph between files: Edges[a][b] lists why a depends
// on b (the header a includes, or the symbols of b that a uses).
type Graph struct {
	Edges map[string]map[string][]string
}

func newGraph() *Graph { return &Graph{Edges: map[string]map[string][]string{}} }

func (g *Graph) add(from, to, why string) {
	if from == to {
		return
	}
	m := g.Edges[from]
	if m == nil {
		m = map[string][]string{}
		g.Edges[from] = m
	}
	for _, w := range m[to] {
		if w == why {
			return
		}
	}
	m[to] = append(m[to], why)
	sort.Strings(m[to])
}

// Nodes are every file with an edge from or to it, sorted.
func (g *Graph) Nodes() []string {
	set := map[string]bool{}
	for a, m := range g.Edges {
		set[a] = true
		for b := range m {
			set[b] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// Loops returns the strongly connected components of more than one file,
// each sorted, in a stable order: every file of one is on a loop with
// every other.
func (g *Graph) Loops() [][]string {
	nodes := g.Nodes()
	index := map[string]int{}
	low := map[string]int{}
	on := map[string]bool{}
	var stack []string
	var out [][]string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v] = next
		low[v] = next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range slices.Sorted(maps.Keys(g.Edges[v])) {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			if len(scc) > 1 {
				sort.Strings(scc)
				out = append(out, scc)
			}
		}
	}
	for _, v := range nodes {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// Cycle is one shortest cycle through the first file of the component
// scc, as "a -> b (why) -> ... -> a".
func (g *Graph) Cycle(scc []string) string {
	in := map[string]bool{}
	for _, v := range scc {
		in[v] = true
	}
	start := scc[0]
	prev := map[string]string{}
	queue := []string{start}
	seen := map[string]bool{start: true}
	end := ""
	for len(queue) > 0 && end == "" {
		v := queue[0]
		queue = queue[1:]
		for _, w := range slices.Sorted(maps.Keys(g.Edges[v])) {
			if !in[w] {
				continue
			}
			if w == start {
				prev[start+"#end"] = v
				end = v
				break
			}
			if !seen[w] {
				seen[w] = true
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	if end == "" {
		return ""
	}
	path := []string{start}
	for v := end; v != start; v = prev[v] {
		path = append(path, v)
	}
	path = append(path, start)
	// path is start, end, ..., start reversed: put it in edge order.
	for i, j := 1, len(path)-2; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	var b strings.Builder
	b.WriteString(path[0])
	for i := 1; i < len(path); i++ {
		why := g.Edges[path[i-1]][path[i]]
		if len(why) > 3 {
			why = append(why[:3:3], "...")
		}
		fmt.Fprintf(&b, " -(%s)-> %s", strings.Join(why, ","), path[i])
	}
	return b.String()
}

// Layers groups the files of a graph with no loop by the length of the
// longest chain of dependencies below them: layer 0 depends on no file,
// layer n only on files of lower layers.
func (g *Graph) Layers() [][]string {
	level := map[string]int{}
	var depth func(v string, seen map[string]bool) int
	depth = func(v string, seen map[string]bool) int {
		if l, ok := level[v]; ok {
			return l
		}
		if seen[v] {
			return 0 // a loop: Report names it
		}
		seen[v] = true
		l := 0
		for w := range g.Edges[v] {
			l = max(l, depth(w, seen)+1)
		}
		level[v] = l
		return l
	}
	var out [][]string
	for _, v := range g.Nodes() {
		l := depth(v, map[string]bool{})
		for len(out) <= l {
			out = append(out, nil)
		}
		out[l] = append(out[l], v)
	}
	return out
}

// Report describes every loop of g ("" when it has none): the files on
// it, one shortest cycle, and every edge between those files with the
// symbols (or #include) that make it.
func (g *Graph) Report(what string) string {
	var b strings.Builder
	for _, scc := range g.Loops() {
		fmt.Fprintf(&b, "%s: a loop through %d files {%s}\n  cycle: %s\n", what, len(scc), strings.Join(scc, " "), g.Cycle(scc))
		in := map[string]bool{}
		for _, v := range scc {
			in[v] = true
		}
		for _, a := range scc {
			for _, c := range slices.Sorted(maps.Keys(g.Edges[a])) {
				if in[c] {
					fmt.Fprintf(&b, "  %s -> %s: %s\n", a, c, strings.Join(g.Edges[a][c], " "))
				}
			}
		}
	}
	return b.String()
}

var includeRE = regexp.MustCompile(`^\s*#\s*include\s*"([^"]+)"`)

// Includes reads the include graph of the C files (.c, .h, .S) in dir:
// an edge for each #include "x" of a file in dir.
func Includes(dir string) (*Graph, error) {
	g := newGraph()
	files, err := cFiles(dir, ".c", ".h", ".S")
	if err != nil {
		return nil, err
	}
	present := map[string]bool{}
	for _, f := range files {
		present[f] = true
	}
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(src))
		for sc.Scan() {
			if m := includeRE.FindStringSubmatch(sc.Text()); m != nil && present[m[1]] {
				g.add(f, m[1], "#include")
			}
		}
	}
	return g, nil
}

func cFiles(dir string, exts ...string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		for _, x := range exts {
			if strings.HasSuffix(e.Name(), x) {
				out = append(out, e.Name())
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// unit is what one .c or .S file defines and uses.
type unit struct {
	defines map[string]bool // functions and variables with external linkage
	uses    map[string]bool // identifiers its own code names (header inlines resolved)
}

// Calls reads the call graph of the .c and .S files in dir: an edge from a
// file to the file that defines (with external linkage) a function or
// variable it uses. cc is the C compiler (preprocessing only); cgo's
// generated _cgo_export.h is stood in for by an empty file.
func Calls(dir, cc string) (*Graph, error) {
	stub, err := os.MkdirTemp("", "cgraph")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stub)
	if err := os.WriteFile(filepath.Join(stub, "_cgo_export.h"), nil, 0o644); err != nil {
		return nil, err
	}
	files, err := cFiles(dir, ".c", ".S")
	if err != nil {
		return nil, err
	}
	units := map[string]*unit{}
	for _, f := range files {
		var u *unit
		if strings.HasSuffix(f, ".S") {
			src, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				return nil, err
			}
			u = readAsm(string(src))
		} else {
			cmd := exec.Command(cc, "-E", "-I", dir, "-I", stub, f)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				return nil, fmt.Errorf("%s -E %s: %v: %s", cc, f, err, stderr.String())
			}
			u = readC(string(out), dir, f)
		}
		units[f] = u
	}
	definer := map[string]string{}
	for _, f := range files {
		for s := range units[f].defines {
			if other, dup := definer[s]; dup {
				return nil, fmt.Errorf("%s is defined in both %s and %s", s, other, f)
			}
			definer[s] = f
		}
	}
	g := newGraph()
	for _, f := range files {
		for s := range units[f].uses {
			if d, ok := definer[s]; ok {
				g.add(f, d, s)
			}
		}
	}
	return g, nil
}

var (
	asmGlobalRE = regexp.MustCompile(`(?m)^\s*\.globl\s+(.+)$`)
	identRE     = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	lineComment = regexp.MustCompile(`//[^\n]*`)
	blockCommen = regexp.MustCompile(`(?s)/\*.*?\*/`)
)

// readAsm reads an assembly file: what .globl names it defines, and every
// identifier it names (a call, a jump or a macro's argument).
func readAsm(src string) *unit {
	src = blockCommen.ReplaceAllString(src, " ")
	src = lineComment.ReplaceAllString(src, " ")
	u := &unit{defines: map[string]bool{}, uses: map[string]bool{}}
	for _, m := range asmGlobalRE.FindAllStringSubmatch(src, -1) {
		for _, s := range strings.Split(m[1], ",") {
			if s = strings.TrimSpace(s); s != "" && !strings.HasPrefix(s, "\\") {
				u.defines[s] = true
			}
		}
	}
	for _, id := range identRE.FindAllString(src, -1) {
		u.uses[id] = true
	}
	return u
}

type token struct {
	text   string
	origin string // the file of dir the token comes from, "" for any other
}

var lineMarkerRE = regexp.MustCompile(`^#\s*(?:line\s+)?\d+\s+"([^"]*)"`)

// tokenize splits preprocessed C into identifiers and punctuation, each
// tagged with the file of dir it comes from (line markers tell).
func tokenize(pre, dir, self string) []token {
	absDir, _ := filepath.Abs(dir)
	var toks []token
	origin := self
	for _, line := range strings.Split(pre, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			if m := lineMarkerRE.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				p := m[1]
				if !filepath.IsAbs(p) {
					p = filepath.Join(absDir, p)
				}
				if filepath.Dir(p) == absDir {
					origin = filepath.Base(p)
				} else {
					origin = ""
				}
			}
			continue
		}
		for i := 0; i < len(line); {
			c := line[i]
			switch {
			case c == '"' || c == '\'':
				j := i + 1
				for j < len(line) && line[j] != c {
					if line[j] == '\\' {
						j++
					}
					j++
				}
				i = j + 1
			case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				j := i
				for j < len(line) && (line[j] == '_' || line[j] >= 'a' && line[j] <= 'z' || line[j] >= 'A' && line[j] <= 'Z' || line[j] >= '0' && line[j] <= '9') {
					j++
				}
				toks = append(toks, token{line[i:j], origin})
				i = j
			case c >= '0' && c <= '9':
				j := i
				for j < len(line) && (line[j] == '.' || line[j] == '_' || line[j] >= 'a' && line[j] <= 'z' || line[j] >= 'A' && line[j] <= 'Z' || line[j] >= '0' && line[j] <= '9') {
					j++
				}
				i = j
			case c == '-' && i+1 < len(line) && line[i+1] == '>':
				toks = append(toks, token{"->", origin})
				i += 2
			case strings.IndexByte("{}()[];,=.", c) >= 0:
				toks = append(toks, token{string(c), origin})
				i++
			default:
				i++
			}
		}
	}
	return toks
}

func isIdent(s string) bool {
	c := s[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// readC reads one preprocessed translation unit whose main file is self:
// the functions and variables self defines with external linkage, and the
// identifiers self's code names, counting for it what the static inline
// functions of dir's headers it calls name in turn.
func readC(pre, dir, self string) *unit {
	toks := tokenize(pre, dir, self)
	u := &unit{defines: map[string]bool{}, uses: map[string]bool{}}
	inlines := map[string]map[string]bool{} // header functions: what their bodies name
	own := map[string]bool{}                // what self's code names
	var stmt []token                        // the tokens of the top-level declaration being read
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.text == ";" {
			declare(stmt, self, u)
			if len(stmt) > 0 && stmt[0].origin == self {
				after := false
				for k, d := range stmt {
					if d.text == "=" {
						after = true
					} else if after && isIdent(d.text) && stmt[k-1].text != "." && stmt[k-1].text != "->" {
						own[d.text] = true
					}
				}
			}
			stmt = stmt[:0]
			continue
		}
		if t.text == "{" && len(stmt) > 0 && stmt[len(stmt)-1].text == ")" {
			// A function definition: its name precedes the parameter list.
			name, static := funcName(stmt)
			end := matching(toks, i)
			body := map[string]bool{}
			for k := i + 1; k < end; k++ {
				if isIdent(toks[k].text) && toks[k-1].text != "." && toks[k-1].text != "->" {
					body[toks[k].text] = true
				}
			}
			switch {
			case t.origin == self:
				for id := range body {
					own[id] = true
				}
				if name != "" && !static {
					u.defines[name] = true
				}
			case t.origin != "" && name != "":
				inlines[name] = body
			}
			stmt = stmt[:0]
			i = end
			continue
		}
		if t.text == "{" {
			// An initializer, or a struct, union or enum body: part of the
			// declaration; what an initializer names is self's use.
			end := matching(toks, i)
			if t.origin == self {
				for k := i + 1; k < end; k++ {
					if isIdent(toks[k].text) && toks[k-1].text != "." && toks[k-1].text != "->" {
						own[toks[k].text] = true
					}
				}
			}
			stmt = append(stmt, token{"{}", t.origin})
			i = end
			continue
		}
		stmt = append(stmt, t)
	}
	// What self names through the header functions it calls, transitively.
	work := slices.Sorted(maps.Keys(own))
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		for inner := range inlines[id] {
			if !own[inner] {
				own[inner] = true
				work = append(work, inner)
			}
		}
	}
	u.uses = own
	return u
}

// matching is the index of the brace closing the one at toks[i].
func matching(toks []token, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch toks[k].text {
		case "{":
			depth++
		case "}":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return len(toks) - 1
}

// funcName is the name of the function whose definition stmt begins (the
// identifier before its outermost last parenthesised list), and whether it
// is static.
func funcName(stmt []token) (string, bool) {
	name := ""
	for end := len(stmt); name == "" && end > 0; {
		// The last parenthesised list before end; an attribute's is passed.
		depth, open := 0, -1
		for k := end - 1; k >= 0 && open < 0; k-- {
			switch stmt[k].text {
			case ")":
				depth++
			case "(":
				depth--
				if depth == 0 {
					open = k
				}
			}
		}
		if open <= 0 || !isIdent(stmt[open-1].text) {
			break
		}
		if s := stmt[open-1].text; s == "__attribute__" || s == "__asm__" || s == "asm" {
			end = open - 1
			continue
		}
		name = stmt[open-1].text
	}
	static := false
	depth := 0
	for _, t := range stmt {
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
		case "static":
			if depth == 0 {
				static = true
			}
		}
	}
	return name, static
}

// declare records the variables a top-level declaration of self defines
// with external linkage: not extern, static or typedef; a name followed by
// '=', ';', ',' or '[' outside parentheses, or by an attribute.
func declare(stmt []token, self string, u *unit) {
	if len(stmt) == 0 || stmt[0].origin != self {
		return
	}
	depth := 0
	for _, t := range stmt {
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
		case "extern", "static", "typedef":
			if depth == 0 {
				return
			}
		}
	}
	depth = 0
	for k, t := range stmt {
		switch t.text {
		case "(":
			depth++
			continue
		case ")":
			depth--
			continue
		}
		if depth != 0 || !isIdent(t.text) || keyword[t.text] {
			continue
		}
		if k > 0 && (stmt[k-1].text == "struct" || stmt[k-1].text == "union" || stmt[k-1].text == "enum") {
			continue
		}
		next := ";"
		if k+1 < len(stmt) {
			next = stmt[k+1].text
		}
		if next == "=" || next == ";" || next == "," || next == "[" || next == "__attribute__" {
			u.defines[t.text] = true
		}
	}
}

var keyword = map[string]bool{
	"const": true, "volatile": true, "_Atomic": true, "__thread": true, "_Thread_local": true, "__attribute__": true,
	"unsigned": true, "signed": true, "int": true, "char": true, "long": true, "short": true, "void": true,
	"struct": true, "union": true, "enum": true, "restrict": true, "__restrict": true, "inline": true, "__inline": true,
}

// Check reads dir's include and call graphs and describes their loops
// ("" when there is none).
func Check(dir, cc string) (string, error) {
	inc, err := Includes(dir)
	if err != nil {
		return "", err
	}
	calls, err := Calls(dir, cc)
	if err != nil {
		return "", err
	}
	return inc.Report("include graph") + calls.Report("call graph"), nil
}

// CC is the C compiler cgo would use.
func CC() string {
	if cc := os.Getenv("CC"); cc != "" {
		if f := strings.Fields(cc); len(f) > 0 {
			return f[0]
		}
	}
	if out, err := exec.Command("go", "env", "CC").Output(); err == nil {
		if f := strings.Fields(string(out)); len(f) > 0 {
			return f[0]
		}
	}
	return "cc"
}
