package csgen

import (
	"fmt"
	"strconv"
	"strings"
)

// bclTypes returns the common BCL types, fresh for one program (user
// types are appended to the same table as units declare them).
func bclTypes() []*vtype {
	obsS := func(expr string) func(v string) string {
		return func(v string) string {
			return "Chk.S(" + v + " == null ? null : " + strings.ReplaceAll(expr, "$", v) + ");"
		}
	}
	lits := func(g *gen, t *vtype, n int, d int, sc *scope) string {
		var xs []string
		for i := 0; i < n; i++ {
			xs = append(xs, g.expr(t, d-1, sc))
		}
		return strings.Join(xs, ", ")
	}
	mid := func(g *gen) string { // ticks between years 1900 and 2900
		return strconv.FormatInt(599266080000000000+g.r.Int63n(315569520000000000), 10) + "L"
	}
	return []*vtype{
		{cs: "Guid", feat: "bcl:Guid", value: true, make: func(g *gen, d int, sc *scope) string {
			if g.chance(0.1) {
				return "Guid.Empty"
			}
			b := make([]byte, 16)
			g.r.Read(b)
			return fmt.Sprintf(`new Guid("%x-%x-%x-%x-%x")`, b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
		}, obs: func(v string) string { return "Chk.S(" + v + ".ToString());" }},
		{cs: "DateTime", feat: "bcl:DateTime", value: true, make: func(g *gen, d int, sc *scope) string {
			switch g.intn(5) {
			case 0:
				return pick(g, []string{"DateTime.MinValue", "DateTime.MaxValue"})
			case 1:
				return fmt.Sprintf("new DateTime(%d, %d, %d, %d, %d, %d, DateTimeKind.Utc)", g.between(1, 9999), g.between(1, 12), g.between(1, 28), g.intn(24), g.intn(60), g.intn(60))
			case 2:
				return fmt.Sprintf("new DateTime(%s).AddSeconds(%d)", mid(g), g.between(-100000, 100000))
			}
			return fmt.Sprintf("new DateTime(%s, DateTimeKind.%s)", mid(g), pick(g, []string{"Utc", "Unspecified"}))
		}, obs: func(v string) string { return "Chk.L(" + v + ".Ticks); Chk.L((int)" + v + ".Kind);" }},
		{cs: "DateTimeOffset", feat: "bcl:DateTimeOffset", value: true, make: func(g *gen, d int, sc *scope) string {
			return fmt.Sprintf("new DateTimeOffset(%s, TimeSpan.FromMinutes(%d))", mid(g), 15*g.between(-56, 56))
		}, obs: func(v string) string { return "Chk.L(" + v + ".UtcTicks); Chk.L(" + v + ".Offset.Ticks);" }},
		{cs: "TimeSpan", feat: "bcl:TimeSpan", value: true, make: func(g *gen, d int, sc *scope) string {
			switch g.intn(4) {
			case 0:
				return pick(g, []string{"TimeSpan.Zero", "TimeSpan.MaxValue", "TimeSpan.MinValue"})
			case 1:
				return fmt.Sprintf("new TimeSpan(%d, %d, %d, %d)", g.between(-100, 100), g.intn(24), g.intn(60), g.intn(60))
			}
			return "TimeSpan.FromTicks(" + g.expr(tLong, d-1, sc) + ")"
		}, obs: func(v string) string { return "Chk.L(" + v + ".Ticks);" }},
		{cs: "Uri", feat: "bcl:Uri", make: func(g *gen, d int, sc *scope) string {
			switch g.intn(6) {
			case 0:
				return "null"
			case 1:
				return fmt.Sprintf(`new Uri("seg%d/x?y=%d", UriKind.Relative)`, g.intn(100), g.intn(100))
			case 2:
				return fmt.Sprintf(`new Uri("file:///tmp/f%d.txt")`, g.intn(1000))
			}
			return fmt.Sprintf(`new Uri("%s://h%d.example.org:%d/%s/%s?q=%d#f")`, pick(g, []string{"http", "https", "ftp"}), g.intn(50), g.between(1, 65535),
				pick(g, nameParts), pick(g, []string{"a%20b", "x", "caf%C3%A9", "p.html"}), g.intn(999))
		}, obs: obsS(`$.OriginalString + ($.IsAbsoluteUri ? "|" + $.AbsoluteUri : "")`)},
		{cs: "Version", feat: "bcl:Version", make: func(g *gen, d int, sc *scope) string {
			switch g.intn(4) {
			case 0:
				return fmt.Sprintf("new Version(%d, %d)", g.intn(100), g.intn(100))
			case 1:
				return fmt.Sprintf(`new Version("%d.%d.%d")`, g.intn(100), g.intn(100), g.intn(100))
			}
			return fmt.Sprintf("new Version(%d, %d, %d, %d)", g.intn(100), g.intn(100), g.intn(10000), g.intn(70000))
		}, obs: obsS("$.ToString()")},
		{cs: "StringBuilder", feat: "bcl:StringBuilder", make: func(g *gen, d int, sc *scope) string {
			return "new StringBuilder(" + stringLit(g, false) + ").Append(" + g.expr(tInt, d-1, sc) + ").Append(" + g.expr(tChar, d-1, sc) + ")"
		}, obs: obsS("$.ToString()")},
		{cs: "List<int>", feat: "bcl:List", make: func(g *gen, d int, sc *scope) string {
			return "new List<int> { " + lits(g, tInt, g.intn(6), d, sc) + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "List<string>", feat: "bcl:List", make: func(g *gen, d int, sc *scope) string {
			return "new List<string> { " + lits(g, tString, g.intn(5), d, sc) + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "Dictionary<string, int>", feat: "bcl:Dictionary", make: func(g *gen, d int, sc *scope) string {
			var xs []string
			for i, n := 0, g.intn(5); i < n; i++ {
				xs = append(xs, fmt.Sprintf(`{ "%s%d", %s }`, pick(g, []string{"k", "password", "id", "név"}), i, g.expr(tInt, d-1, sc)))
			}
			return "new Dictionary<string, int> { " + strings.Join(xs, ", ") + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "Dictionary<int, string>", feat: "bcl:Dictionary", make: func(g *gen, d int, sc *scope) string {
			var xs []string
			for i, n := 0, g.intn(5); i < n; i++ {
				xs = append(xs, fmt.Sprintf(`{ %d, %s }`, i*7-3, g.expr(tString, d-1, sc)))
			}
			return "new Dictionary<int, string> { " + strings.Join(xs, ", ") + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "HashSet<int>", feat: "bcl:HashSet", make: func(g *gen, d int, sc *scope) string {
			return "new HashSet<int> { " + lits(g, tInt, g.intn(6), d, sc) + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		// The generic Queue<T> and Stack<T> are not forwarded by .NET Core
		// 3.1's mscorlib facade (mcs binds them there): the
		// non-generic ones are.
		{cs: "System.Collections.Queue", feat: "bcl:Queue", make: func(g *gen, d int, sc *scope) string {
			return "new System.Collections.Queue(new string[] { " + lits(g, tString, g.intn(4), d, sc) + " })"
		}, obs: func(v string) string { return "Chk.N(" + v + ");" }},
		{cs: "System.Collections.Stack", feat: "bcl:Stack", make: func(g *gen, d int, sc *scope) string {
			return "new System.Collections.Stack(new long[] { " + lits(g, tLong, g.intn(4), d, sc) + " })"
		}, obs: func(v string) string { return "Chk.N(" + v + ");" }},
		{cs: "int[][]", feat: "bcl:jagged-array", make: func(g *gen, d int, sc *scope) string {
			var rows []string
			for i, n := 0, g.intn(4); i < n; i++ {
				if g.chance(0.15) {
					rows = append(rows, "null")
					continue
				}
				rows = append(rows, "new int[] { "+lits(g, tInt, g.intn(4), d, sc)+" }")
			}
			return "new int[][] { " + strings.Join(rows, ", ") + " }"
		}, obs: func(v string) string { return "Chk.J(" + v + ");" }},
		{cs: "double[,]", feat: "bcl:multidim-array", make: func(g *gen, d int, sc *scope) string {
			if g.chance(0.3) {
				return fmt.Sprintf("new double[%d, %d]", g.intn(4), g.intn(4))
			}
			var rows []string
			cols := g.between(1, 3)
			for i, n := 0, g.between(1, 3); i < n; i++ {
				rows = append(rows, "{ "+lits(g, tDouble, cols, d, sc)+" }")
			}
			return "new double[,] { " + strings.Join(rows, ", ") + " }"
		}, obs: func(v string) string { return "Chk.R(" + v + ");" }},
		{cs: "string[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return "new string[] { " + lits(g, tString, g.intn(4), d, sc) + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "byte[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return "Encoding.UTF8.GetBytes(" + g.expr(tString, d-1, sc) + " ?? \"\")"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "Tuple<int, string>", feat: "bcl:Tuple", make: func(g *gen, d int, sc *scope) string {
			return "Tuple.Create(" + g.expr(tInt, d-1, sc) + ", " + g.expr(tString, d-1, sc) + ")"
		}, obs: obsS(`$.Item1.ToString(CultureInfo.InvariantCulture) + "|" + $.Item2`)},
		{cs: "Tuple<long, double, Guid>", feat: "bcl:Tuple", make: func(g *gen, d int, sc *scope) string {
			return "new Tuple<long, double, Guid>(" + g.expr(tLong, d-1, sc) + ", " + g.expr(tDouble, d-1, sc) + ", Guid.Empty)"
		}, obs: func(v string) string {
			return "if (" + v + " != null) { Chk.L(" + v + ".Item1); Chk.D(" + v + ".Item2); Chk.S(" + v + ".Item3.ToString()); }"
		}},
		{cs: "ValueTuple<int, string>", feat: "bcl:ValueTuple", value: true, make: func(g *gen, d int, sc *scope) string {
			return "ValueTuple.Create(" + g.expr(tInt, d-1, sc) + ", " + g.expr(tString, d-1, sc) + ")"
		}, obs: func(v string) string { return "Chk.L(" + v + ".Item1); Chk.S(" + v + ".Item2);" }},
		{cs: "KeyValuePair<string, int>", feat: "bcl:KeyValuePair", value: true, make: func(g *gen, d int, sc *scope) string {
			k := stringLit(g, true)
			if g.chance(0.3) {
				k = `"apiKey"`
			}
			return "new KeyValuePair<string, int>(" + k + ", " + g.expr(tInt, d-1, sc) + ")"
		}, obs: func(v string) string { return "Chk.S(" + v + ".Key); Chk.L(" + v + ".Value);" }},
		{cs: "Lazy<int>", feat: "bcl:Lazy", make: func(g *gen, d int, sc *scope) string {
			return "new Lazy<int>(() => " + g.expr(tInt, d-1, sc.forLambda()) + ")"
		}, obs: func(v string) string { return "Chk.L(" + v + " == null ? -1 : " + v + ".Value);" }},
		{cs: "Task<int>", feat: "bcl:Task", make: func(g *gen, d int, sc *scope) string {
			if g.chance(0.3) {
				// Waited for at once: a task nobody reads might otherwise run
				// after Main returns, and the number of calls would vary.
				return "Chk.Done(Task.Run(() => " + g.expr(tInt, d-1, sc.forLambda()) + "))"
			}
			return "Task.FromResult(" + g.expr(tInt, d-1, sc) + ")"
		}, obs: func(v string) string { return "Chk.L(" + v + " == null ? -1 : " + v + ".Result);" }},
		{cs: "CancellationToken", feat: "bcl:CancellationToken", value: true, make: func(g *gen, d int, sc *scope) string {
			switch g.intn(3) {
			case 0:
				return "CancellationToken.None"
			case 1:
				return "new CancellationTokenSource().Token"
			}
			return "new CancellationToken(" + g.expr(tBool, d-1, sc) + ")"
		}, obs: func(v string) string {
			return "Chk.B(" + v + ".IsCancellationRequested); Chk.B(" + v + ".CanBeCanceled);"
		}},
		{cs: "Regex", feat: "bcl:Regex", make: func(g *gen, d int, sc *scope) string {
			opts := pick(g, []string{"RegexOptions.None", "RegexOptions.IgnoreCase | RegexOptions.CultureInvariant", "RegexOptions.Multiline"})
			if g.chance(0.05) {
				opts = "RegexOptions.Compiled"
			}
			return `new Regex(@"` + pick(g, []string{`[a-z]+\d*`, `(\w+)-(\d+)`, `^\s*$`, `p.ss`, `(?<k>\w)=(?<v>\d+)`, `[^/]+$`}) + `", ` + opts + ")"
		}, obs: obsS(`$.ToString() + "|" + $.Match("order-7 Cart ab=12 pen/x").Value`)},
		{cs: "Encoding", feat: "bcl:Encoding", make: func(g *gen, d int, sc *scope) string {
			return pick(g, []string{"Encoding.UTF8", "Encoding.Unicode", "Encoding.ASCII", "Encoding.UTF32", "Encoding.BigEndianUnicode", "new UTF8Encoding(false)"})
		}, obs: obsS(`$.WebName + $.GetByteCount("h\u00e9llo \u4e2d").ToString(CultureInfo.InvariantCulture)`)},
		{cs: "object", feat: "bcl:object", make: func(g *gen, d int, sc *scope) string {
			switch g.intn(6) {
			case 0:
				return "null"
			case 1:
				return "new object()"
			}
			t := pick(g, prims)
			return "(object)" + g.expr(t, d-1, sc)
		}, obs: func(v string) string { return "Chk.O(" + v + ");" }},
		{cs: "int?", feat: "nullable", value: true, make: func(g *gen, d int, sc *scope) string {
			if g.chance(0.3) {
				return "(int?)null"
			}
			return "(int?)" + g.expr(tInt, d-1, sc)
		}, obs: func(v string) string { return "Chk.L(" + v + " ?? -1); Chk.B(" + v + ".HasValue);" }},
		{cs: "decimal?", feat: "nullable", value: true, make: func(g *gen, d int, sc *scope) string {
			if g.chance(0.3) {
				return "(decimal?)null"
			}
			return "(decimal?)" + g.expr(tDecimal, d-1, sc)
		}, obs: func(v string) string { return "Chk.M(" + v + " ?? -1m);" }},
		{cs: "Guid[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return "new Guid[] { Guid.Empty, new Guid(" + g.expr(tInt, d-1, sc) + ", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "decimal[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return "new decimal[] { " + lits(g, tDecimal, g.intn(4), d, sc) + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "DateTime[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return fmt.Sprintf("new DateTime[] { new DateTime(%s, DateTimeKind.Utc), DateTime.MinValue }", mid(g))
		}, obs: func(v string) string {
			return "if (" + v + " != null) foreach (var el_ in " + v + ") Chk.L(el_.Ticks);"
		}},
		{cs: "int?[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return "new int?[] { null, " + g.expr(tInt, d-1, sc) + " }"
		}, obs: func(v string) string {
			return "if (" + v + " != null) foreach (var el_ in " + v + ") Chk.L(el_ ?? -1);"
		}},
		{cs: "object[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return "new object[] { null, (object)" + g.expr(pick(g, prims), d-1, sc) + ", \"s\", (object)" + g.expr(tDecimal, d-1, sc) + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "char[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return "(" + g.expr(tString, d-1, sc) + " ?? \"\").ToCharArray()"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "bool[]", feat: "bcl:array", make: func(g *gen, d int, sc *scope) string {
			return "new bool[] { " + lits(g, tBool, g.intn(5), d, sc) + " }"
		}, obs: func(v string) string { return "Chk.E(" + v + ");" }},
		{cs: "long[,,]", feat: "bcl:multidim-array", make: func(g *gen, d int, sc *scope) string {
			return fmt.Sprintf("new long[%d, %d, %d]", g.between(1, 3), g.between(0, 2), g.between(1, 3))
		}, obs: func(v string) string {
			return "if (" + v + " != null) { Chk.L(" + v + ".Rank); Chk.L(" + v + ".Length); foreach (long el_ in " + v + ") Chk.L(el_); }"
		}},
		{cs: "Array", feat: "bcl:array-lower-bound", make: func(g *gen, d int, sc *scope) string {
			// An array whose index starts at 5: its type is int[*].
			return fmt.Sprintf("Chk.Based(%d, %s)", g.between(0, 4), g.expr(tInt, d-1, sc))
		}, obs: func(v string) string {
			return "if (" + v + " != null) { Chk.L(" + v + ".GetLowerBound(0)); Chk.L(" + v + ".Length); Chk.N(" + v + "); }"
		}},
		{cs: "IntPtr", feat: "bcl:IntPtr", value: true, make: func(g *gen, d int, sc *scope) string {
			return "new IntPtr(" + g.expr(tLong, d-1, sc) + ")"
		}, obs: func(v string) string { return "Chk.L(" + v + ".ToInt64());" }},
		{cs: "DateTime?", feat: "nullable", value: true, make: func(g *gen, d int, sc *scope) string {
			if g.chance(0.3) {
				return "(DateTime?)null"
			}
			return fmt.Sprintf("(DateTime?)new DateTime(%s)", mid(g))
		}, obs: func(v string) string { return "Chk.L(" + v + ".HasValue ? " + v + ".Value.Ticks : -1);" }},
		{cs: "Exception", feat: "bcl:Exception", make: func(g *gen, d int, sc *scope) string {
			switch g.intn(3) {
			case 0:
				return "(Exception)null"
			case 1:
				return "new ArgumentException(" + stringLit(g, false) + ", \"p\", new InvalidOperationException(\"inner\"))"
			}
			return "new InvalidOperationException(" + stringLit(g, false) + ")"
		}, obs: obsS(`$.GetType().Name + "|" + $.Message + "|" + ($.InnerException == null ? "" : $.InnerException.Message)`)},
		{cs: "Type", feat: "bcl:Type", make: func(g *gen, d int, sc *scope) string {
			return "typeof(" + pick(g, []string{"int", "string", "List<int>", "Dictionary<string, Guid>", "int[,]", "Chk", "IMix"}) + ")"
		}, obs: obsS("$.FullName")},
		{cs: "Func<int, int>", feat: "delegate", make: func(g *gen, d int, sc *scope) string {
			p := g.name("x")
			return "(Func<int, int>)(" + p + " => " + p + " * " + g.expr(tInt, 0, nil) + " + " + g.expr(tInt, d-1, sc.forLambda()) + ")"
		}, obs: func(v string) string { return "Chk.L(" + v + " == null ? -5 : " + v + "(3));" }},
	}
}

// chkHelpers are Chk's members for collections (appended to chkClass).
const chkHelpers = `        public static void E<T>(IEnumerable<T> xs) {
            if (xs == null) { L(-11); return; }
            long n = 0;
            foreach (T x in xs) { O(x); n++; }
            L(n);
        }
        public static void N(System.Collections.IEnumerable xs) {
            if (xs == null) { L(-12); return; }
            long n = 0;
            foreach (object x in xs) { O(x); n++; }
            L(n);
        }
        public static Task<int> Done(Task<int> t) { t.Wait(); return t; }
        public static Array Based(int n, int v) {
            Array a = Array.CreateInstance(typeof(int), new int[] { n }, new int[] { 5 });
            for (int i = 0; i < n; i++) a.SetValue(v + i, 5 + i);
            return a;
        }
        public static void J(int[][] a) {
            if (a == null) { L(-13); return; }
            foreach (int[] r in a) { if (r == null) L(-14); else E(r); }
        }
        public static void R(double[,] a) {
            if (a == null) { L(-15); return; }
            L(a.GetLength(0)); L(a.GetLength(1));
            foreach (double x in a) D(x);
        }
`
