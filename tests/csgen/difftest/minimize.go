package difftest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Minimize shrinks src, line by line (delta debugging), to a program that
// still compiles and still fails with kind on runtime rt in the traced
// mode named mode. progress, if set, hears about each smaller program.
func (c *Config) Minimize(ctx context.Context, src string, rt Runtime, mode, kind string, progress func(lines int)) (string, error) {
	var m Mode
	for _, x := range Modes {
		if x.Name == mode && x.Traced {
			m = x
		}
	}
	if m.Name == "" {
		return "", fmt.Errorf("no traced mode %q", mode)
	}
	dir, err := os.MkdirTemp(c.Dir, "min-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	try := 0
	fails := func(lines []string) bool {
		try++
		d := filepath.Join(dir, fmt.Sprint(try))
		defer os.RemoveAll(d)
		exe, err := Compile(ctx, strings.Join(lines, "\n")+"\n", d, "Gen")
		if err != nil {
			return false
		}
		if err := os.WriteFile(filepath.Join(d, "Gen.runtimeconfig.json"), []byte(runtimeConfig(rt)), 0o644); err != nil {
			return false
		}
		base := c.RunOnce(ctx, rt, exe, Modes[0])
		traced := c.RunOnce(ctx, rt, exe, m)
		for _, f := range c.compare([]Run{base, traced}, false) {
			if f.Kind == kind {
				return true
			}
		}
		return false
	}
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if !fails(lines) {
		return "", fmt.Errorf("the program does not fail with %s on %s %s", kind, rt.Name, mode)
	}
	// First the units Main runs (a generated program's Main calls each
	// unit's Run and prints a line after it), so that the unused ones
	// go as whole declarations next.
	var units [][]int
	for i, l := range lines {
		if strings.HasSuffix(strings.TrimSpace(l), ".Run();") {
			u := []int{i}
			if i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "Console.WriteLine(") {
				u = append(u, i+1)
			}
			units = append(units, u)
		}
	}
	if kept, ok := ddmin(units, func(keep [][]int) bool { return fails(without(lines, keep, units)) }, ctx); ok {
		lines = without(lines, kept, units)
		if progress != nil {
			progress(len(lines))
		}
	}
	// Then whole declarations, members and statements (blocks by
	// indentation, as the generator writes them), outermost first and
	// again while anything goes; then single lines.
	for changed := true; changed && ctx.Err() == nil; {
		changed = false
		for _, ind := range []int{4, 8, 12, 16, 20} {
			kept, ok := ddmin(blocks(lines, ind), func(keep [][]int) bool {
				return fails(without(lines, keep, blocks(lines, ind)))
			}, ctx)
			if ok {
				lines = without(lines, kept, blocks(lines, ind))
				changed = true
				if progress != nil {
					progress(len(lines))
				}
			}
		}
	}
	var single [][]int
	for i := range lines {
		single = append(single, []int{i})
	}
	if kept, ok := ddmin(single, func(keep [][]int) bool { return fails(without(lines, keep, single)) }, ctx); ok {
		lines = without(lines, kept, single)
		if progress != nil {
			progress(len(lines))
		}
	}
	return strings.Join(lines, "\n") + "\n", ctx.Err()
}

// blocks lists the line groups that start at indentation ind: a line
// ending in "{" with everything up to its closing brace at the same
// indentation, or a single line.
func blocks(lines []string, ind int) [][]int {
	pre := strings.Repeat(" ", ind)
	var out [][]int
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, pre) || len(l) == ind || l[ind] == ' ' || strings.HasPrefix(l[ind:], "}") {
			continue
		}
		b := []int{i}
		if strings.HasSuffix(strings.TrimSpace(l), "{") {
			j := i + 1
			for ; j < len(lines); j++ {
				b = append(b, j)
				if strings.HasPrefix(lines[j], pre+"}") {
					break
				}
			}
			i = j
		}
		out = append(out, b)
	}
	return out
}

// without returns lines minus the groups of all that are not in keep.
func without(lines []string, keep, all [][]int) []string {
	kept := map[int]bool{}
	for _, b := range keep {
		kept[b[0]] = true
	}
	drop := map[int]bool{}
	for _, b := range all {
		if !kept[b[0]] {
			for _, i := range b {
				drop[i] = true
			}
		}
	}
	var out []string
	for i, l := range lines {
		if !drop[i] {
			out = append(out, l)
		}
	}
	return out
}

// ddmin removes chunks of items while test (given the items to keep)
// holds, halving the chunk size when no chunk can go. It returns the
// items kept and whether any went.
func ddmin(items [][]int, test func(keep [][]int) bool, ctx context.Context) ([][]int, bool) {
	removed := false
	n := 2
	for len(items) >= 1 && ctx.Err() == nil {
		if n > len(items) {
			n = len(items)
		}
		chunk := (len(items) + n - 1) / n
		reduced := false
		for start := 0; start < len(items); start += chunk {
			end := min(start+chunk, len(items))
			cand := append(append([][]int(nil), items[:start]...), items[end:]...)
			if test(cand) {
				items, reduced, removed = cand, true, true
				n = max(n-1, 2)
				break
			}
		}
		if !reduced {
			if n >= len(items) {
				break
			}
			n *= 2
		}
	}
	return items, removed
}
