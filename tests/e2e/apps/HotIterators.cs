// Iterators the fold rule judges by their steps (each MoveNext call):
// one whose steps are short, enumerated again and again in one trace by a
// loop whose body takes far longer than the steps (its enumerations are
// long, its steps tiny: it folds, and loses its hooks); one whose steps
// are long (never folds); one whose steps are short but that each trace
// enumerates once (a request's part: it keeps its spans).
using System;
using System.Collections.Generic;
using System.Diagnostics;

namespace Acme.Hot
{
    public static class Seq
    {
        public static IEnumerable<int> Tiny(int n)
        {
            for (int i = 0; i < n; i++)
                yield return i;
        }

        public static IEnumerable<int> Slow(int n)
        {
            for (int i = 0; i < n; i++)
            {
                Spin(60);
                yield return i;
            }
        }

        public static IEnumerable<int> Once(int n)
        {
            for (int i = 0; i < n; i++)
                yield return i;
        }

        // Busy for us microseconds (no sleep: the step's time is its own).
        public static void Spin(int us)
        {
            var w = Stopwatch.StartNew();
            while (w.Elapsed.TotalMilliseconds * 1000 < us) { }
        }
    }

    public static class Work
    {
        public static long Walk(int n)
        {
            long sum = 0;
            for (int k = 0; k < n; k++)
                foreach (var x in Seq.Tiny(4))
                {
                    Seq.Spin(30); // the consumer's work, longer than a step
                    sum += x;
                }
            // The same enumerable enumerated twice: the second enumeration
            // begins at its first MoveNext.
            var twice = Seq.Tiny(3);
            for (int k = 0; k < 2; k++)
                foreach (var x in twice) sum += x;
            return sum;
        }

        public static long Slowly(int n)
        {
            long sum = 0;
            for (int k = 0; k < n; k++)
                foreach (var x in Seq.Slow(2)) sum += x;
            return sum;
        }

        // Each enumeration in a request of its own: the test names Handle
        // an entry method (CLROTEL_ENTRY), each call a trace of its own.
        public static long Requests(int n)
        {
            long sum = 0;
            for (int k = 0; k < n; k++)
                sum += Handle(k);
            return sum;
        }

        public static long Handle(int k)
        {
            long s = k;
            foreach (var x in Seq.Once(3)) s += x;
            return s;
        }
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        int n = int.Parse(args[0]);
        Console.WriteLine("walk " + Acme.Hot.Work.Walk(n));
        Console.WriteLine("slow " + Acme.Hot.Work.Slowly(300));
        Console.WriteLine("requests " + Acme.Hot.Work.Requests(300));
        return 0;
    }
}
