// Hot tiny methods under a few traced ones: what folding is for.
//   Fold hot N     Run() calls Get() N times, Slow() 5 times, and Risky()
//                  (which throws on every 1000th call) N/10 times
//   Fold wide N    Run() calls Mid() N times, each Mid() a few statements,
//                  then Slow() 5 times
//   Fold exit N    Leaving() calls Get() N times, then the process exits
//                  from inside it (its span never gets a Leave)
using System;
using System.Threading;

namespace Acme.Fold
{
    public class Box
    {
        int v;
        public Box(int v) { this.v = v; }
        public int Get() { return v; }
        public int Risky(int i)
        {
            if (i % 1000 == 999)
                throw new InvalidOperationException("risky " + i);
            return i & 7;
        }
        public int Mid(int i) { return (i * 31) ^ v; }
        // Folded once called often; its last call ends the process from
        // inside (a folded call still running at exit).
        public int Last(int k)
        {
            if (k < 0)
                Environment.Exit(0);
            return k & v;
        }
        public void Slow() { Thread.Sleep(2); }
    }

    public static class Program
    {
        static long Hot(Box b, int n)
        {
            long sum = 0;
            for (int i = 0; i < n; i++)
                sum += b.Get();
            for (int i = 0; i < 5; i++)
                b.Slow();
            int caught = 0;
            for (int i = 0; i < n / 10; i++)
            {
                try { sum += b.Risky(i); }
                catch (InvalidOperationException) { caught++; }
            }
            return sum + caught;
        }

        static long Wide(Box b, int n)
        {
            long sum = 0;
            for (int i = 0; i < n; i++)
                sum += b.Mid(i);
            for (int i = 0; i < 5; i++)
                b.Slow();
            return sum;
        }

        static void Leaving(Box b, int n)
        {
            long sum = 0;
            for (int i = 0; i < n; i++)
                sum += b.Get() + b.Last(i);
            Console.WriteLine("result " + sum);
            Console.WriteLine("calls " + n);
            Console.Out.Flush();
            b.Last(-1);
        }

        public static int Main(string[] args)
        {
            int n = int.Parse(args[1]);
            var b = new Box(3);
            if (args[0] == "exit")
                Leaving(b, n);
            long r = args[0] == "hot" ? Hot(b, n) : Wide(b, n);
            Console.WriteLine("result " + r);
            Console.WriteLine("calls " + (args[0] == "hot" ? n + 5 + n / 10 : n + 5));
            return 0;
        }
    }
}
