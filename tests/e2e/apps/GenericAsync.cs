// A service's generic repository: async methods of a generic class and a
// generic async method, instantiated over reference types (code shared by
// every such instantiation) and over value types (code of their own), and
// a state machine compiled as a class inside a generic class, written out
// by hand the way Roslyn's Debug builds compile it.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

namespace Acme.Generic
{
    public class Order
    {
        public int Id;
        public string Sku;
        public Order(int id, string sku) { Id = id; Sku = sku; }
    }

    public struct Point
    {
        public int X, Y;
        public Point(int x, int y) { X = x; Y = y; }
    }

    public class Repo<T>
    {
        readonly Dictionary<int, T> items = new Dictionary<int, T>();

        public async Task SaveAsync(int id, T item)
        {
            await Task.Delay(10);
            Store(id, item);
        }

        public async Task<T> GetAsync(int id)
        {
            await Task.Delay(10);
            T found = Find(id);
            await Task.Yield();
            return found;
        }

        public void Store(int id, T item)
        {
            lock (items) items[id] = item;
        }

        public T Find(int id)
        {
            lock (items)
            {
                T v;
                if (!items.TryGetValue(id, out v))
                    throw new KeyNotFoundException("no item " + id);
                return v;
            }
        }
    }

    public static class Mapper
    {
        public static async Task<TOut> Map<TIn, TOut>(TIn x, Converter<TIn, TOut> f)
        {
            await Task.Delay(5);
            return f(x);
        }

        public static string Describe(Order o) { return o.Sku + "#" + o.Id; }
        public static int Sum(Point p) { return p.X + p.Y; }
        public static int Length(string s) { return s.Length; }
    }

    public class Cache<T>
    {
        public T Value;
        public Cache(T v) { Value = v; }

        [AsyncStateMachine(typeof(Cache<>.LoadMachine))]
        public Task<T> Load(int wait)
        {
            var sm = new LoadMachine();
            sm.owner = this;
            sm.wait = wait;
            sm.builder = AsyncTaskMethodBuilder<T>.Create();
            sm.state = -1;
            sm.builder.Start(ref sm);
            return sm.builder.Task;
        }

        public T Peek() { return Value; }

        sealed class LoadMachine : IAsyncStateMachine
        {
            public int state;
            public AsyncTaskMethodBuilder<T> builder;
            public Cache<T> owner;
            public int wait;
            TaskAwaiter awaiter;

            public void MoveNext()
            {
                T result;
                try
                {
                    if (state == 0)
                    {
                        awaiter.GetResult();
                        state = -1;
                    }
                    else
                    {
                        TaskAwaiter aw = Task.Delay(wait).GetAwaiter();
                        if (!aw.IsCompleted)
                        {
                            state = 0;
                            awaiter = aw;
                            LoadMachine self = this;
                            builder.AwaitUnsafeOnCompleted(ref aw, ref self);
                            return;
                        }
                        aw.GetResult();
                    }
                    result = owner.Peek();
                }
                catch (Exception e)
                {
                    state = -2;
                    builder.SetException(e);
                    return;
                }
                state = -2;
                builder.SetResult(result);
            }

            public void SetStateMachine(IAsyncStateMachine sm) { }
        }
    }

    public static class Handler
    {
        public static Repo<Order> Orders;
        public static Repo<Point> Points;
        public static Cache<string> Names;
        public static Cache<int> Numbers;

        public static async Task<string> Handle(int req)
        {
            await Orders.SaveAsync(req, new Order(req, "sku" + req));
            await Points.SaveAsync(req, new Point(req, req * 10));
            Order o = await Orders.GetAsync(req);
            Point p = await Points.GetAsync(req);
            string d = await Mapper.Map<Order, string>(o, Mapper.Describe);
            int sum = await Mapper.Map<Point, int>(p, Mapper.Sum);
            int len = await Mapper.Map<string, int>(d, Mapper.Length);
            string name = await Names.Load(5);
            int num = await Numbers.Load(5);
            string miss = "found";
            try { await Orders.GetAsync(-req); }
            catch (KeyNotFoundException e) { miss = e.Message; }
            return d + "/" + sum + "/" + len + "/" + name + "/" + num + "/" + miss;
        }
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        Acme.Generic.Handler.Orders = new Acme.Generic.Repo<Acme.Generic.Order>();
        Acme.Generic.Handler.Points = new Acme.Generic.Repo<Acme.Generic.Point>();
        Acme.Generic.Handler.Names = new Acme.Generic.Cache<string>("names");
        Acme.Generic.Handler.Numbers = new Acme.Generic.Cache<int>(7);
        var ts = new Task<string>[4];
        for (int i = 0; i < 4; i++) ts[i] = Acme.Generic.Handler.Handle(i + 1);
        Task.WaitAll(ts);
        foreach (var t in ts) Console.WriteLine(t.Result);
        return 0;
    }
}
