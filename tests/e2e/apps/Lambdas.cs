// Lambdas and an anonymous method as mcs compiles them: a lambda that
// captures a local (a closure class, <Run>c__AnonStorey0, holding
// <>m__0), a capture-free lambda and an anonymous method (static methods
// <Run>m__1, <Run>m__2 of the type itself).
using System;
using System.Threading;

namespace Acme.Lambdas
{
    public static class Work
    {
        public static int Square(int x) { return x * x; }

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
        return 0;
    }
}
