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
	n := 2
	for len(lines) >= 2 && ctx.Err() == nil {
		chunk := (len(lines) + n - 1) / n
		reduced := false
		for start := 0; start < len(lines); start += chunk {
			end := start + chunk
			if end > len(lines) {
				end = len(lines)
			}
			cand := append(append([]string(nil), lines[:start]...), lines[end:]...)
			if fails(cand) {
				lines = cand
				if n > 2 {
					n--
				}
				reduced = true
				if progress != nil {
					progress(len(lines))
				}
				break
			}
		}
		if !reduced {
			if n >= len(lines) {
				break
			}
			n *= 2
			if n > len(lines) {
				n = len(lines)
			}
		}
	}
	return strings.Join(lines, "\n") + "\n", ctx.Err()
}
