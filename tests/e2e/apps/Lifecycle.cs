// Lifecycle.cs: ways a traced process ends in the middle of traced calls.
using System;
using System.Threading;

namespace Acme.Life
{
    public static class App
    {
        public static void Deep(int n)
        {
            if (n == 0) { Console.WriteLine("exiting"); Environment.Exit(7); }
            Deep(n - 1);
        }

        public static void Wait()
        {
            Console.WriteLine("waiting");
            Console.Out.Flush();
            Thread.Sleep(60000);
        }

        static int ticks;

        public static int Tick(int i) { return Step(i) + 1; }

        static int Step(int i) { Thread.SpinWait(20); return i * 2; }

        public static void OnTick(object state)
        {
            for (int k = 0; k < 20; k++)
                Tick(Interlocked.Increment(ref ticks));
        }

        // Main returns while timers tick into traced methods on pool
        // threads: they run until the process exits, through the runtime's
        // teardown of the profiler.
        public static void Ticking()
        {
            var timers = new Timer[4];
            for (int i = 0; i < timers.Length; i++)
                timers[i] = new Timer(OnTick, null, 1, 1);
            Thread.Sleep(200);
            Console.WriteLine("leaving with timers ticking");
            GC.KeepAlive(timers);
        }

        public static int Main(string[] args)
        {
            if (args[0] == "exit") Deep(3);
            if (args[0] == "wait") Wait();
            if (args[0] == "ticking") Ticking();
            return 0;
        }
    }
}
