package naming

import (
	"strconv"
	"strings"
)

// Compiler-generated methods (a lambda, an anonymous method, a local
// function) are named after the method whose body holds them, as the user
// wrote it: Acme.Shop.Program.Main()::lambda#1 for a lambda of Main,
// Acme.Shop.Program.Main()::Retry for its local function Retry. The
// containing method's parameters are not shown: the compilers' names say
// which method, not which overload.
//
// The compilers encode the containing method in the names they make:
//
//   - Roslyn: <Main>b__0_1 (a lambda, in the type itself, in its shared
//     <>c class or in a closure class <>c__DisplayClass0_0), the last
//     number the lambda's ordinal in the method; <Main>g__Retry|0_0 (a
//     local function);
//   - mcs: <Main>m__0 (a lambda that captures nothing, in the type
//     itself), and <>m__0 in a closure class <Main>c__AnonStorey0.
//
// A name is read so only when metadata says the compiler made the method
// (CompilerGeneratedAttribute on it or on its type), never from the
// pattern alone.

// CompilerGeneratedAttribute marks what a compiler made.
const CompilerGeneratedAttribute = "System.Runtime.CompilerServices.CompilerGeneratedAttribute"

// AttributeReader is implemented by Metadata that can tell whether a
// token carries a custom attribute (by its type's full name).
type AttributeReader interface {
	HasAttribute(token uint32, attribute string) bool
}

// AsWritten returns how the compiler-generated method method of the type
// typeName (its full name, enclosing types joined by '.') reads as the
// user wrote it, from the compilers' naming: owner is the type's own
// name as metadata stores it. ok is false for a name no compiler scheme
// here explains.
func AsWritten(typeName, owner, method string) (string, bool) {
	container, what, ok := generatedParts(owner, method)
	if !ok {
		return "", false
	}
	return userType(typeName) + "." + container + "()::" + what, true
}

// generatedParts splits a generated method's name into the method that
// holds it and what it is there (lambda#N, or a local function's name).
func generatedParts(owner, method string) (container, what string, ok bool) {
	if rest, ok := strings.CutPrefix(method, "<>m__"); ok {
		// mcs: a lambda of a closure class, <Main>c__AnonStorey0.
		c, tail, ok := angled(owner)
		if !ok || !strings.HasPrefix(tail, "c__AnonStorey") {
			return "", "", false
		}
		n, ok := ordinal(rest)
		if !ok {
			return "", "", false
		}
		return c, "lambda#" + strconv.Itoa(n+1), true
	}
	c, tail, ok := angled(method)
	if !ok {
		return "", "", false
	}
	switch {
	case strings.HasPrefix(tail, "b__"): // Roslyn: b__<method>_<lambda>, or b__<lambda>
		digits := tail[len("b__"):]
		if i := strings.LastIndexByte(digits, '_'); i >= 0 {
			digits = digits[i+1:]
		}
		n, ok := ordinal(digits)
		if !ok {
			return "", "", false
		}
		return c, "lambda#" + strconv.Itoa(n+1), true
	case strings.HasPrefix(tail, "m__"): // mcs
		n, ok := ordinal(tail[len("m__"):])
		if !ok {
			return "", "", false
		}
		return c, "lambda#" + strconv.Itoa(n+1), true
	case strings.HasPrefix(tail, "g__"): // Roslyn's local function: g__Name|0_0
		name, _, found := strings.Cut(tail[len("g__"):], "|")
		if !found || name == "" {
			return "", "", false
		}
		return c, name, true
	}
	return "", "", false
}

// angled splits "<Main>b__0_1" into "Main" and "b__0_1".
func angled(s string) (inside, tail string, ok bool) {
	if !strings.HasPrefix(s, "<") {
		return "", "", false
	}
	i := strings.IndexByte(s, '>')
	if i < 2 {
		return "", "", false
	}
	return s[1:i], s[i+1:], true
}

// ordinal reads a compiler's decimal ordinal.
func ordinal(s string) (int, bool) {
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// userType is typeName without the compiler's nested types (<>c,
// <>c__DisplayClass0_0, <Main>c__AnonStorey0): the type the user wrote.
func userType(typeName string) string {
	depth := 0
	for i := 0; i < len(typeName); i++ {
		switch typeName[i] {
		case '<':
			if depth == 0 && i > 0 && typeName[i-1] == '.' {
				return typeName[:i-1]
			}
			depth++
		case '>':
			depth--
		}
	}
	return typeName
}

// Plumbing reports whether the method name of the TypeDef owner is the
// compiler's plumbing, which makes no span: a constructor, instance or
// static, of a type the compiler generated and nested in the user's. Such
// are a closure's class (Roslyn's <>c__DisplayClass0_0, mcs's
// <Main>c__AnonStorey0), the cache of capture-free lambdas (Roslyn's <>c,
// its .cctor and .ctor), an iterator's enumerator and an async method's
// class state machine. Told from metadata (the type's
// CompilerGeneratedAttribute and its nesting), never from the names.
func Plumbing(meta Metadata, owner uint32, name string) bool {
	if name != ".ctor" && name != ".cctor" || meta.EnclosingClass(owner) == 0 {
		return false
	}
	a, ok := meta.(AttributeReader)
	return ok && a.HasAttribute(owner, CompilerGeneratedAttribute)
}

// compilerGenerated reports whether metadata says the compiler made the
// method md or its type owner.
func compilerGenerated(meta Metadata, owner, md uint32) bool {
	a, ok := meta.(AttributeReader)
	return ok && (a.HasAttribute(md, CompilerGeneratedAttribute) || a.HasAttribute(owner, CompilerGeneratedAttribute))
}
