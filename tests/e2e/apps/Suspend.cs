// Suspend: hardware faults while another thread suspends the runtime. The
// main thread dereferences null N times (each a SIGSEGV the runtime turns
// into a NullReferenceException) while a second thread forces a GC every
// millisecond, which interrupts the main thread with the runtime's
// activation signal, often in the middle of that turning.
using System;
using System.Threading;

namespace Acme.Suspend
{
    public static class Program
    {
        static volatile bool done;

        static string Missing(int k) { return k > int.MaxValue - 1 ? "x" : null; }

        static int Length(int k)
        {
            try { return Missing(k).Length; }
            catch (NullReferenceException) { return 1; }
        }

        public static int Main(string[] args)
        {
            int n = int.Parse(args[0]);
            var collector = new Thread(() => { while (!done) { GC.Collect(0); Thread.Sleep(1); } });
            collector.Start();
            long caught = 0;
            for (int i = 0; i < n; i++)
                caught += Length(i);
            done = true;
            collector.Join();
            Console.WriteLine("caught " + caught);
            return 0;
        }
    }
}
