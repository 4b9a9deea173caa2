// Steady: traced calls at a steady rate, for the fault, load and soak
// tests. Every mode prints how many traced calls it made, so a test can
// check that each one reached the receiver or was counted as dropped.
using System;
using System.Diagnostics;
using System.Threading;

namespace Acme.Load
{
    public static class Work
    {
        // The traced unit: one root span per call, with two int arguments
        // and a return value.
        public static int Step(int i, int salt) { return (i ^ salt) & 0xff; }

        // Recurses until the stack overflows.
        public static int Overflow(int n) { return Overflow(n + 1) + 1; }

        // A traced call with a traced child, for nesting under churn.
        public static int Pair(int i) { return Step(i, 7) + 1; }
    }

    public static class Program
    {
        // Calls Work.Step at perSecond for seconds, in 1 ms slices.
        static long Steady(double seconds, int perSecond)
        {
            var sw = Stopwatch.StartNew();
            long done = 0, acc = 0;
            long total = (long)(seconds * perSecond);
            while (done < total)
            {
                long due = (long)(sw.Elapsed.TotalSeconds * perSecond);
                while (done < due && done < total) acc += Work.Step((int)done++, 3);
                Thread.Sleep(1);
            }
            Console.WriteLine("acc " + (acc & 1));
            return done;
        }

        // Keeps `threads` threads alive at a time, each making `each` Pair
        // calls (two spans) and ending, for seconds.
        static long Churn(double seconds, int threads, int each)
        {
            var sw = Stopwatch.StartNew();
            long calls = 0, started = 0;
            var live = new Thread[threads];
            while (sw.Elapsed.TotalSeconds < seconds)
            {
                for (int k = 0; k < threads; k++)
                {
                    if (live[k] != null && live[k].IsAlive) continue;
                    if (live[k] != null) live[k].Join();
                    live[k] = new Thread(() => { for (int i = 0; i < each; i++) Work.Pair(i); });
                    live[k].Start();
                    started++;
                    calls += 2 * each;
                }
                Thread.Sleep(1);
            }
            foreach (var t in live) if (t != null) t.Join();
            Console.WriteLine("threads " + started);
            return calls;
        }

        public static int Main(string[] args)
        {
            long calls = 0;
            switch (args[0])
            {
                case "steady":
                    calls = Steady(double.Parse(args[1]), int.Parse(args[2]));
                    break;
                case "churn":
                    calls = Churn(double.Parse(args[1]), int.Parse(args[2]), int.Parse(args[3]));
                    break;
                case "overflow":
                    Console.WriteLine("overflowing");
                    Console.Out.Flush();
                    Work.Overflow(0);
                    break;
                default:
                    Console.Error.WriteLine("usage: Steady steady <seconds> <calls/s> | churn <seconds> <threads> <calls each> | overflow");
                    return 2;
            }
            Console.WriteLine("calls " + calls);
            return 0;
        }
    }
}
