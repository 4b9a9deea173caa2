// Lambdas and an anonymous method as mcs compiles them: a lambda that
// captures a local (a closure class, <Run>c__AnonStorey0, holding
// <>m__0), a capture-free lambda and an anonymous method (static methods
// <Run>m__1, <Run>m__2 of the type itself).
using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace Acme.Lambdas
{
    public static class Work
    {
        public static int Square(int x) { return x * x; }

        // Roslyn's shapes, written out (C# cannot spell their names): the
        // cache of capture-free lambdas (<>c, its one instance made by its
        // static constructor) and a display class holding captures, both
        // compiler-generated and nested.
        [CompilerGenerated]
        sealed class Cache
        {
            public static readonly Cache Instance = new Cache();
            public int Twice(int x) { return Square(x) * 2; }
        }

        [CompilerGenerated]
        sealed class DisplayClass
        {
            public int n;
            public int Body() { return Square(n) + 1; }
        }

        public static int Roslyn(int n)
        {
            var d = new DisplayClass();
            d.n = n;
            return d.Body() + Cache.Instance.Twice(n);
        }

        public static int Run(int n)
        {
            int seen = 0;
            var t = new Thread(() => { seen = Square(n); });
            t.Start();
            t.Join();
            Func<int, int> f = x => Square(x) + 1;
            Func<int, int> g = delegate (int y) { return Square(y) * 2; };
            return seen + f(n) + g(n);
        }
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        Console.WriteLine(Acme.Lambdas.Work.Run(3));
        Console.WriteLine(Acme.Lambdas.Work.Roslyn(4));
        return 0;
    }
}
