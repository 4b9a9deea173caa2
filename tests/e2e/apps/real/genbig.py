#!/usr/bin/env python3
"""Writes Big.cs, the large C# input of the real-program suite, to stdout.

Deterministic (no randomness: every constant derives from the module
number), so the committed Big.cs is exactly `python3 genbig.py > Big.cs`.
Each module exercises another mix of language features the Mono C#
compiler has to handle: classes, structs, enums (flags, byte and long
underlying), generics with constraints, interfaces, virtual/override over
several levels, properties, indexers, operators, events and delegates,
lambdas and closures, LINQ, iterators, exceptions with filters and
finally, switch, params/ref/out, optional and named arguments, nullable
structs, boxing, string formatting, async/await. Main prints one checksum
line per module and a total, so a miscompiled assembly shows as a
different output.
"""

MODULES = 9


def module(k):
    a, b, c = 3 + k % 7, 5 + k % 11, 17 + k * 13 % 29
    return f"""
namespace Big.M{k}
{{
    [Flags]
    public enum Mode{k} : byte {{ None = 0, Read = 1, Write = 2, Exec = 4, All = Read | Write | Exec }}

    public enum Level{k} : long {{ Low = -{c}L, Mid = {a}L, High = {c * 1000}L, Extreme{k}WithALongMemberNameThatGoesOnAndOn = long.MaxValue - {k} }}

    public interface IShape{k}
    {{
        double Area {{ get; }}
        string Describe(string prefix = "shape");
    }}

    public struct Vec{k} : IEquatable<Vec{k}>
    {{
        public readonly int X, Y;
        public Vec{k}(int x, int y) {{ X = x; Y = y; }}
        public static Vec{k} operator +(Vec{k} p, Vec{k} q) {{ return new Vec{k}(p.X + q.X, p.Y + q.Y); }}
        public static Vec{k} operator *(Vec{k} p, int s) {{ return new Vec{k}(p.X * s, p.Y * s); }}
        public static bool operator ==(Vec{k} p, Vec{k} q) {{ return p.Equals(q); }}
        public static bool operator !=(Vec{k} p, Vec{k} q) {{ return !p.Equals(q); }}
        public bool Equals(Vec{k} o) {{ return X == o.X && Y == o.Y; }}
        public override bool Equals(object o) {{ return o is Vec{k} && Equals((Vec{k})o); }}
        public override int GetHashCode() {{ return X * 397 ^ Y; }}
        public int Length2 {{ get {{ return X * X + Y * Y; }} }}
        public override string ToString() {{ return string.Format("({{0}},{{1}})", X, Y); }}
    }}

    public abstract class Base{k} : IShape{k}
    {{
        protected readonly string name;
        public const int Seed = {c};
        public const string Tag = "m{k}\\t\\"q\\"";
        public const char Mark = '{chr(ord("a") + k % 26)}';
        public static readonly decimal Rate = {a}.{b}m;
        [ThreadStatic] static int perThread;
        protected Base{k}(string name) {{ this.name = name; perThread++; }}
        public abstract double Area {{ get; }}
        public virtual string Describe(string prefix = "shape") {{ return prefix + ":" + name + ":" + Area.ToString("F2", CultureInfo.InvariantCulture); }}
        public virtual int Weight() {{ return Seed; }}
    }}

    public class Rect{k} : Base{k}
    {{
        public int W {{ get; private set; }}
        public int H {{ get; private set; }}
        public Rect{k}(int w, int h) : base("rect") {{ W = w; H = h; }}
        public override double Area {{ get {{ return W * H; }} }}
        public override int Weight() {{ return base.Weight() + W; }}
    }}

    public class Square{k} : Rect{k}
    {{
        public Square{k}(int s) : base(s, s) {{ }}
        public override string Describe(string prefix = "sq") {{ return "[" + base.Describe(prefix) + "]"; }}
        public override int Weight() {{ return base.Weight() * 2; }}
    }}

    public sealed class Tiny{k} : Square{k}
    {{
        public Tiny{k}() : base(1) {{ }}
        public override int Weight() {{ return base.Weight() + 1; }}
    }}

    public class Bag{k}<T> : IEnumerable<T> where T : IComparable<T>
    {{
        readonly List<T> items = new List<T>();
        public event EventHandler<EventArgs> Changed;
        public void Add(params T[] xs) {{ foreach (var x in xs) items.Add(x); if (Changed != null) Changed(this, EventArgs.Empty); }}
        public T this[int i] {{ get {{ return items[i]; }} set {{ items[i] = value; }} }}
        public int Count {{ get {{ return items.Count; }} }}
        public T Max() {{ T m = items[0]; foreach (var x in items) if (x.CompareTo(m) > 0) m = x; return m; }}
        public IEnumerator<T> GetEnumerator() {{ for (int i = 0; i < items.Count; i++) yield return items[i]; }}
        IEnumerator IEnumerable.GetEnumerator() {{ return GetEnumerator(); }}
        public static U Fold<U>(IEnumerable<T> xs, U seed, Func<U, T, U> f) where U : struct {{ foreach (var x in xs) seed = f(seed, x); return seed; }}
    }}

    public class Pair{k}<TKey, TValue> where TValue : class, new()
    {{
        public TKey Key;
        public TValue Value = new TValue();
        public class Node {{ public TKey K; public Node Next; }}
        public Node Chain(int n, TKey k) {{ Node h = null; for (int i = 0; i < n; i++) h = new Node {{ K = k, Next = h }}; return h; }}
    }}

    public delegate int Op{k}(int x, int y);

    public static class Ext{k}
    {{
        public static int Sum(this IEnumerable<int> xs, Func<int, bool> keep) {{ int s = 0; foreach (var x in xs) if (keep(x)) s += x; return s; }}
        public static string Twice(this string s) {{ return s + s; }}
    }}

    public class MyError{k} : Exception
    {{
        public int Code {{ get; private set; }}
        public MyError{k}(int code) : base("code " + code) {{ Code = code; }}
    }}

    public static class Program{k}
    {{
        static int Fib(int n) {{ return n < 2 ? n : Fib(n - 1) + Fib(n - 2); }}

        static void Split(int v, out int hi, out int lo) {{ hi = v >> 4; lo = v & 15; }}

        static void Bump(ref int x, int by = {a}) {{ x += by; }}

        static string Classify(object o)
        {{
            switch (o == null ? "null" : o.GetType().Name)
            {{
                case "Int32": return "int" + (int)o;
                case "String": return "str" + ((string)o).Length;
                case "null": return "nil";
                default: return "other";
            }}
        }}

        static IEnumerable<int> Evens(int max) {{ for (int i = 0; i <= max; i++) {{ if (i % 2 != 0) continue; yield return i; }} }}

        static int Guarded(int code)
        {{
            int log = 0;
            try
            {{
                try {{ if (code % 3 == 0) throw new MyError{k}(code); log += 1; }}
                finally {{ log += 10; }}
            }}
            catch (MyError{k} e) when (e.Code % 2 == 0) {{ log += 100; }}
            catch (MyError{k}) {{ log += 1000; }}
            return log;
        }}

        static async Task<int> SlowAdd(int x, int y)
        {{
            await Task.Yield();
            int r = x + y;
            await Task.Delay(0);
            return r;
        }}

        public static long Run()
        {{
            long h = {c};
            Func<long, long, long> mix = (acc, v) => unchecked(acc * 31 + v);
            var vec = new Vec{k}({a}, {b}) + new Vec{k}(1, 2) * 3;
            h = mix(h, vec.Length2);
            h = mix(h, vec == new Vec{k}({a} + 3, {b} + 6) ? 1 : 0);
            object boxed = vec;
            h = mix(h, boxed.Equals(vec) ? 7 : 9);

            var shapes = new List<IShape{k}> {{ new Rect{k}({a}, {b}), new Square{k}({a}), new Tiny{k}() }};
            foreach (var s in shapes) h = mix(h, s.Describe().Length + (long)s.Area);
            h = mix(h, shapes.OfType<Base{k}>().Sum(s => s.Weight()));

            var m = Mode{k}.Read | Mode{k}.Exec;
            h = mix(h, (long)m + ((m & Mode{k}.Write) == 0 ? 100 : 0));
            h = mix(h, (long)Level{k}.High + (long)Level{k}.Low);
            h = mix(h, Level{k}.Extreme{k}WithALongMemberNameThatGoesOnAndOn.ToString().Length);

            var bag = new Bag{k}<int>();
            int changes = 0;
            bag.Changed += (s, e) => changes++;
            bag.Add({a}, {b}, {c}, {k});
            bag.Add();
            bag[0] = bag[0] + 1;
            h = mix(h, bag.Max() + changes + bag.Count);
            h = mix(h, Bag{k}<int>.Fold(bag, 0L, (acc, x) => acc + x * x));

            var words = new Bag{k}<string>();
            words.Add("delta", "alpha{k}", "charlie", "bravo");
            h = mix(h, words.Max().Length);

            var q = from x in Enumerable.Range(0, {20 + k})
                    where x % {a} != 0
                    group x by x % 4 into g
                    orderby g.Key descending
                    select new {{ g.Key, Total = g.Sum() }};
            foreach (var g in q) h = mix(h, g.Key * 1000 + g.Total);
            h = mix(h, Evens({b * 3}).Sum(x => x > {a}));

            int counter = 0;
            Action inc = () => counter += {a};
            for (int i = 0; i < 5; i++) inc();
            Op{k} op = (x, y) => x * y - counter;
            h = mix(h, op({a}, {b}));

            int hi, lo;
            Split({c * 7}, out hi, out lo);
            int bumped = {k};
            Bump(ref bumped);
            Bump(ref bumped, by: 2);
            h = mix(h, hi * 100 + lo + bumped);

            int? maybe = (k{k}Even() ? (int?){a} : null);
            h = mix(h, maybe ?? -1);
            h = mix(h, maybe.HasValue ? maybe.Value : 0);

            h = mix(h, Classify({k}).Length + Classify("x{k}").Length + Classify(null).Length + Classify(2.5).Length);
            for (int i = 0; i < 6; i++) h = mix(h, Guarded(i + {k}));
            h = mix(h, Fib(10 + {k} % 6));

            var dict = new Dictionary<string, int>();
            foreach (var w in "the quick brown fox jumps over the lazy dog the end".Split(' '))
            {{
                int n;
                dict[w] = dict.TryGetValue(w, out n) ? n + 1 : 1;
            }}
            h = mix(h, dict["the"] * 10 + dict.Count);

            var p = new Pair{k}<int, StringBuilder> {{ Key = {k} }};
            p.Value.Append(Base{k}.Tag).Append(Base{k}.Mark).Append("x".Twice());
            int chain = 0;
            for (var n = p.Chain({a}, p.Key); n != null; n = n.Next) chain += n.K;
            h = mix(h, p.Value.Length + chain);
            h = mix(h, (long)(Base{k}.Rate * 100));

            var sb = new StringBuilder();
            sb.AppendFormat(CultureInfo.InvariantCulture, "{{0:D4}}|{{1,-6}}|{{2:X}}", {k}, "m", {c * 255});
            h = mix(h, sb.ToString().GetHashCodeStable());

            h = mix(h, SlowAdd({a}, {b}).Result);
            h = mix(h, new[] {{ 5, 3, {k}, 9 }}.Where(x => x > 2).Select(x => x * 2).OrderBy(x => x).Aggregate(0, (s, x) => s * 7 + x));
            int[,] grid = new int[3, {a}];
            for (int i = 0; i < 3; i++) for (int j = 0; j < {a}; j++) grid[i, j] = i * j + {k};
            long gs = 0; foreach (int g in grid) gs += g;
            h = mix(h, gs);
            int[][] jag = {{ new[] {{ 1 }}, new[] {{ 2, 3 }}, new int[{b}] }};
            h = mix(h, jag.Sum(r => r.Length));
            return h;
        }}

        static bool k{k}Even() {{ return {k} % 2 == 0; }}
    }}
}}
"""


HEADER = """// Generated by genbig.py: do not edit (run `python3 genbig.py > Big.cs`).
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using System.Threading.Tasks;

namespace Big
{
    public static class Stable
    {
        // A string hash that is the same on every runtime (string.GetHashCode
        // is randomized on CoreCLR).
        public static int GetHashCodeStable(this string s)
        {
            unchecked
            {
                int h = 5381;
                foreach (char ch in s) h = h * 33 + ch;
                return h;
            }
        }
    }
}
"""


def main():
    out = [HEADER]
    for k in range(MODULES):
        out.append(module(k).replace("namespace Big.M%d\n{\n" % k,
                                     "namespace Big.M%d\n{\n    using Big;\n" % k))
    out.append("namespace Big\n{\n    public static class Main_\n    {\n"
               "        public static int Main()\n        {\n            long total = 0;\n")
    for k in range(MODULES):
        out.append(f"            {{ long r = Big.M{k}.Program{k}.Run(); total = unchecked(total * 131 + r); "
                   f"Console.WriteLine(\"module {k} \" + r); }}\n")
    out.append("            Console.WriteLine(\"total \" + total);\n            return (int)(total & 0x3f);\n"
               "        }\n    }\n}\n")
    print("".join(out), end="")


main()
