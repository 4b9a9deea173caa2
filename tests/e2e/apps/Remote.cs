// Remote: a long-running app for the live sampling tests. It reads commands
// from stdin, one a line, so a test decides when each phase runs:
//   burst <phase> <n>   n root calls of Work.Alpha and n of Work.Beta, then
//                       one of Work.Mark (the tests always sample it: when
//                       its span arrives, the phase's spans have been sent)
//   quit                exit 0
// Its output depends on its input only.
using System;

namespace Acme.Remote
{
    public static class Work
    {
        public static int Alpha(int phase, int i) { return (phase * 31 + i) & 0xff; }
        public static int Beta(int phase, int i) { return (phase * 17 ^ i) & 0xff; }
        public static int Mark(int phase) { return phase; }
    }

    public static class Program
    {
        public static int Main()
        {
            string line;
            while ((line = Console.ReadLine()) != null)
            {
                var f = line.Split(' ');
                if (f[0] == "quit") break;
                if (f[0] != "burst" || f.Length != 3) { Console.WriteLine("? " + line); continue; }
                int phase = int.Parse(f[1]), n = int.Parse(f[2]);
                long acc = 0;
                for (int i = 0; i < n; i++) acc += Work.Alpha(phase, i);
                for (int i = 0; i < n; i++) acc += Work.Beta(phase, i);
                acc += Work.Mark(phase);
                Console.WriteLine("burst " + phase + " " + n + " " + acc);
            }
            Console.WriteLine("bye");
            return 0;
        }
    }
}
