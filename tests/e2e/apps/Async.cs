// Async.cs: async methods, awaits that really suspend, Task<T> results,
// iterators and lambdas: the compiler-generated state machines and the
// task types they touch, for the value-capture planner.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace Acme.Async
{
    public class Order
    {
        public int Id;
        public string Customer;
        public Task<int> Pending;
    }

    public static class Work
    {
        public static async Task<int> Fetch(int id, string apiKey)
        {
            await Task.Delay(5);
            await Task.Yield();
            return id * 2;
        }

        public static async Task<string> Chain(Order order)
        {
            int a = await Fetch(order.Id, "sk-live-async");
            int b = await Fetch(a, "sk-live-async");
            order.Pending = Task.FromResult(b);
            return order.Customer + ":" + b;
        }

        public static async Task Fail()
        {
            await Task.Delay(1);
            throw new InvalidOperationException("async failure");
        }

        public static IEnumerable<int> Squares(int n)
        {
            for (int i = 0; i < n; i++)
                yield return i * i;
        }

        public static int Sum(Task<int> t, CancellationToken ct) { return t.Result; }
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse(args[0]) : 20;
        long total = 0;
        for (int i = 0; i < rounds; i++)
        {
            var o = new Acme.Async.Order { Id = i, Customer = "c" + i };
            total += Acme.Async.Work.Chain(o).Result.Length;
            total += Acme.Async.Work.Squares(4).Sum();
            total += Acme.Async.Work.Sum(Task.Run(() => i), CancellationToken.None);
            try { Acme.Async.Work.Fail().Wait(); }
            catch (AggregateException e) { total += e.InnerException.Message.Length; }
        }
        var all = Enumerable.Range(0, 8).Select(k => Acme.Async.Work.Fetch(k, "sk-live-async")).ToArray();
        Task.WaitAll(all);
        Console.WriteLine("done " + total + " " + all.Sum(t => t.Result));
        return 0;
    }
}
