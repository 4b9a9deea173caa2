// Shed: requests made as fast as a few threads can, for the load-shedding
// test. Each request is one trace: a root with children, a value-heavy
// argument, a lambda run on the thread pool and an async method that
// resumes elsewhere, so a trace cut short anywhere would show.
//   Shed THREADS SECONDS   prints the requests made
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace Acme.Shed
{
    public class Item
    {
        public int Id;
        public string Name;
        public Item(int id, string name) { Id = id; Name = name; }
    }

    public class Repo
    {
        readonly Dictionary<int, Item> items = new Dictionary<int, Item>();
        public Repo()
        {
            for (int i = 0; i < 100; i++)
                items[i] = new Item(i, "item-" + i);
        }
        public Item Lookup(int id) { Item it; return items.TryGetValue(id % 100, out it) ? it : null; }
    }

    public static class Work
    {
        public static int Parse(int i) { return i * 7 % 1000; }

        public static int Render(Item it, int i) { return it.Name.Length + i % 3; }

        public static async Task<int> StepAsync(int i)
        {
            await Task.Yield();
            return Parse(i) + 1;
        }

        public static int Request(Repo repo, int i)
        {
            Item it = repo.Lookup(Parse(i));
            // Not a tail call (the JIT may make one: on the first call, Render,
            // compiled only once the lambda has jumped to it, is not known to be
            // hooked, and would begin a trace; docs/architecture.md, tail calls).
            int r = Task.Run(() => Render(it, i) + 1).Result - 1;
            return r + StepAsync(i).Result;
        }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            int threads = int.Parse(args[0]);
            double seconds = double.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture);
            var repo = new Repo();
            long requests = 0, sum = 0;
            var sw = Stopwatch.StartNew();
            var ts = new Thread[threads];
            for (int k = 0; k < threads; k++)
            {
                ts[k] = new Thread(() =>
                {
                    long n = 0, s = 0;
                    for (int i = 0; sw.Elapsed.TotalSeconds < seconds; i++, n++)
                        s += Work.Request(repo, i) - (i * 7 % 1000 + 1) - ("item-".Length + (i * 7 % 1000 % 100 >= 10 ? 2 : 1) + i % 3);
                    Interlocked.Add(ref requests, n);
                    Interlocked.Add(ref sum, s);
                });
                ts[k].Start();
            }
            foreach (var t in ts)
                t.Join();
            Console.WriteLine("requests " + requests);
            Console.WriteLine("sum " + sum); // 0: every request computed what it should
            return 0;
        }
    }
}
