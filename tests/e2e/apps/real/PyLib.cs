// PyLib is the assembly that host.py calls through pythonnet: CoreCLR runs
// hosted inside CPython and is never shut down. Every traced method
// counts its calls, so the test knows how many spans must arrive.
using System.Collections.Generic;
using System.Threading;

namespace Acme.Py
{
    public class Ledger
    {
        static int calls;
        readonly List<decimal> entries = new List<decimal>();
        public string Name;

        public Ledger(string name) { Interlocked.Increment(ref calls); Name = name; }
        public static int Calls { get { return Volatile.Read(ref calls); } }

        public decimal Post(decimal amount, string memo)
        {
            Interlocked.Increment(ref calls);
            entries.Add(Round(amount));
            return Total();
        }

        decimal Round(decimal d) { Interlocked.Increment(ref calls); return decimal.Round(d, 2); }

        public decimal Total()
        {
            Interlocked.Increment(ref calls);
            decimal s = 0;
            foreach (var e in entries) s += e;
            return s;
        }
    }
}
