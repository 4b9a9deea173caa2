// Bench: the overhead benchmark's workload. Many small calls, timed inside
// the app with a Stopwatch around the steady-state loop (after a warm-up that
// JIT-compiles and tiers everything). Prints one line per workload:
//   <workload> <ns per call>
using System;
using System.Diagnostics;
using System.Threading.Tasks;

namespace Bench
{
    public class Point3
    {
        public int X = 1;
        public int Y = 2;
        public string Name = "p";
    }

    public static class Work
    {
        public static int TwoInts(int a, int b) { return a + b; }
        public static int OneString(string s) { return s.Length; }
        public static int OneObject(Point3 p) { return p.X; }

        // k resumes of one async method, each after a real suspension (the
        // continuation is queued to the thread pool): one span, k
        // continuations of it.
        // k work items queued with a callback that captures nothing, each
        // waited for: the queuing span is carried to each item's run by the
        // item itself (profiler/workitems.c).
        public static int QueueItems(int k)
        {
            int acc = 0;
            for (int i = 0; i < k; i++)
                acc += Task.Factory.StartNew(s => TwoInts((int)s, 1), i).Result;
            return acc;
        }

        public static async Task<int> Resumes(int k)
        {
            int acc = 0;
            for (int i = 0; i < k; i++)
            {
                await Task.Yield();
                acc += i;
            }
            return acc;
        }
    }

    public static class Program
    {
        static void Time(string name, int n, Func<int, int> body)
        {
            body(20000);
            System.Threading.Thread.Sleep(200); // let tier-1 compilation land
            body(20000);
            var sw = Stopwatch.StartNew();
            int acc = body(n);
            sw.Stop();
            double ns = sw.Elapsed.TotalMilliseconds * 1e6 / n;
            Console.WriteLine(name + " " + ns.ToString("F2") + " " + (acc & 1));
        }

        // Paced: two-ints calls at rate per second for seconds, in 1 ms
        // slices, spinning between them (what an exporter must keep up with).
        static void Paced(int rate, int seconds)
        {
            int perMs = rate / 1000, acc = 0;
            long total = (long)rate * seconds, done = 0;
            var sw = Stopwatch.StartNew();
            while (done < total)
            {
                for (int i = 0; i < perMs; i++) acc += Work.TwoInts(i, acc);
                done += perMs;
                long due = done * 1000 / rate; // ms at which this slice is due
                while (sw.ElapsedMilliseconds < due) { }
            }
            sw.Stop();
            Console.WriteLine("paced-calls " + done + " " + (acc & 1));
            Console.WriteLine("paced-rate " + (done / sw.Elapsed.TotalSeconds).ToString("F0") + " " + (acc & 1));
        }

        public static int Main(string[] args)
        {
            if (args.Length == 3 && args[0] == "paced")
            {
                Paced(int.Parse(args[1]), int.Parse(args[2]));
                return 0;
            }
            int n = args.Length > 0 ? int.Parse(args[0]) : 20000000;
            string s100 = new string('s', 100);
            var p = new Point3();
            Time("two-ints", n, k => { int acc = 0; for (int i = 0; i < k; i++) acc += Work.TwoInts(i, acc); return acc; });
            Time("string-100", n, k => { int acc = 0; for (int i = 0; i < k; i++) acc += Work.OneString(s100); return acc; });
            Time("object-3-fields", n, k => { int acc = 0; for (int i = 0; i < k; i++) acc += Work.OneObject(p); return acc; });
            Time("await-resume", Math.Max(n / 100, 1000), k => Work.Resumes(k).Result);
            Time("queued-item", Math.Max(n / 100, 1000), k => Work.QueueItems(k));
            return 0;
        }
    }
}
