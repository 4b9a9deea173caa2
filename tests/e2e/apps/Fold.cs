// Hot tiny methods under a few traced ones: what folding is for.
//   Fold hot N     Run() calls Get() N times, Slow() 5 times, and Risky()
//                  (which throws on every 1000th call) N/10 times
//   Fold wide N    Run() calls Mid() N times, each Mid() a few statements,
//                  then Slow() 5 times
//   Fold exit N    Leaving() calls Get() N times, then the process exits
//                  from inside it (its span never gets a Leave)
//   Fold rejit N   ReJit() calls Get(), Step() and Rec() (recursive) N
//                  times each, then a Rec() that sleeps (re-JIT of the
//                  folded methods lands meanwhile) and then calls itself
//                  into a throw it catches, Mark() 3 times, sleeps, then
//                  calls Get(), Step() and Rec() N times each again
//   Fold loop N    Main itself calls Work() (a unit of work: it calls Mid())
//                  and Get() twice, N times, with a pause after the first
//                  N/10 (re-JIT lands meanwhile): a CPU-bound Main's loop
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
        // Outer folds; Inner is what a test names exempt from folding.
        public int Outer(int i) { return Inner(i) + 1; }
        public int Inner(int i) { return i ^ v; }
        public int Work(int i) { return Mid(i) + Mid(i + 1); }
        // Folded once called often; its last call ends the process from
        // inside (a folded call still running at exit).
        public int Last(int k)
        {
            if (k < 0)
                Environment.Exit(0);
            return k & v;
        }
        public void Slow() { Thread.Sleep(2); }
        public int Step(bool wait)
        {
            if (wait)
                Thread.Sleep(1500);
            return v + 1;
        }
        // mode 0: d + 1 calls; mode 1: sleeps, then a throw 4 calls down,
        // caught here; mode 2: throws at the bottom.
        public int Rec(int d, int mode)
        {
            if (mode == 1)
            {
                Thread.Sleep(1500);
                try { return Rec(3, 2); }
                catch (InvalidOperationException) { return -1; }
            }
            if (d == 0)
            {
                if (mode == 2)
                    throw new InvalidOperationException("bottom");
                return 1;
            }
            return Rec(d - 1, mode) + 1;
        }
        public int Mark(int i) { return i * 2; }
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

        static long ReJit(Box b, int n)
        {
            long sum = 0;
            for (int i = 0; i < n; i++)
                sum += b.Get() + b.Step(false) + b.Rec(2, 0);
            sum += b.Rec(0, 1);
            for (int i = 0; i < 3; i++)
                sum += b.Mark(i);
            Thread.Sleep(500);
            for (int i = 0; i < n; i++)
                sum += b.Get() + b.Step(false) + b.Rec(2, 0);
            return sum;
        }

        static long Nested(Box b, int n)
        {
            long sum = 0;
            for (int i = 0; i < n; i++)
                sum += b.Outer(i);
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
            if (args[0] == "loop")
            {
                long sum = 0;
                for (int i = 0; i < n; i++)
                {
                    sum += b.Work(i) + b.Get() + b.Get();
                    if (i == n / 10)
                        Thread.Sleep(500);
                }
                Console.WriteLine("result " + sum);
                return 0;
            }
            if (args[0] == "nested")
            {
                Console.WriteLine("result " + Nested(b, n));
                return 0;
            }
            if (args[0] == "rejit")
            {
                Console.WriteLine("result " + ReJit(b, n));
                Console.WriteLine("calls " + (10 * n + 9));
                return 0;
            }
            long r = args[0] == "hot" ? Hot(b, n) : Wide(b, n);
            Console.WriteLine("result " + r);
            Console.WriteLine("calls " + (args[0] == "hot" ? n + 5 + n / 10 : n + 5));
            return 0;
        }
    }
}
