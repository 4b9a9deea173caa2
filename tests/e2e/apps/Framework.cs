// Framework: calls methods of the framework's ReadyToRun assemblies
// (System.Private.CoreLib, System.Linq) and one of its own, many times and
// across pauses long enough for tiered compilation to recompile hot code.
using System;
using System.Linq;
using System.Threading;

namespace Acme.Fw
{
    public static class Program
    {
        static int Work(int i)
        {
            return i * 2 + 1;
        }

        public static int Main(string[] args)
        {
            int n = args.Length > 0 ? int.Parse(args[0]) : 300;
            long sum = 0;
            for (int i = 0; i < n; i++)
            {
                sum += Work(i);
                sum += System.IO.Path.GetFileName("/a/b" + (i % 3)).Length;
                sum += Enumerable.Range(i, 3).Sum();
                if (i % 50 == 0)
                    Thread.Sleep(150);
            }
            Console.WriteLine(sum);
            return 0;
        }
    }
}
