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

        public static int Main(string[] args)
        {
            if (args[0] == "exit") Deep(3);
            if (args[0] == "wait") Wait();
            return 0;
        }
    }
}
