// AsyncFlow.cs: async methods whose spans must last until their task
// completes, with every step after an await nested under them, on
// whatever thread it runs. mcs compiles async methods to struct state
// machines; ClassMachine is written out by hand the way Roslyn's Debug
// builds compile one, as a class.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace Acme.Async
{
    public static class Repo
    {
        public static async Task<int> Load(int id)
        {
            await Task.Delay(20);
            return Score(id);
        }

        public static int Score(int id) { return id * 10 + 1; }
    }

    public static class Handler
    {
        public static async Task<string> Handle(int req)
        {
            int a = await Repo.Load(req);
            int b = await Repo.Load(req + 1);
            return Format(a, b);
        }

        public static string Format(int a, int b) { return a + "/" + b; }
    }

    public static class Cases
    {
        public static async Task<int> Fail(int code)
        {
            await Task.Delay(5);
            throw new InvalidOperationException("failed " + code);
        }

        public static async Task<int> Cancel(CancellationToken ct)
        {
            await Task.Delay(60000, ct);
            return 1;
        }

        public static async void FireAndForget(int n, ManualResetEventSlim done)
        {
            await Task.Delay(15);
            Touch(n);
            done.Set();
        }

        public static int Touch(int n) { return n + 1; }

        // One flow per call, each waiting on the same gate: all are in
        // flight at once, and each step must stay with its own flow.
        public static async Task<int> Wait(int id, Task gate)
        {
            await gate;
            return Check(id);
        }

        public static int Check(int id) { return id; }

        // Check called twice in the flow's trace, after the await.
        public static async Task<int> WaitTwice(int id, Task gate)
        {
            await gate;
            return Check(id) + Check(id);
        }

        public static async Task<int> Deep(int n)
        {
            if (n == 0)
            {
                await Task.Yield();
                return 0;
            }
            return 1 + await Deep(n - 1);
        }

        public static async Task<int> Never(TaskCompletionSource<int> tcs)
        {
            return await tcs.Task;
        }

        // Steps separated by compacting collections: the task boxes move.
        public static async Task<int> Moving(int id)
        {
            int acc = 0;
            for (int i = 0; i < 3; i++)
            {
                await Task.Delay(2);
                acc += Check(id);
            }
            return acc;
        }
    }

    // Async methods of a generic class: their state machines are generic
    // too, and shared between reference-type instantiations.
    public class Box<T>
    {
        public async Task<T> Get(T v)
        {
            await Task.Delay(5);
            return Keep(v);
        }

        public T Keep(T v) { return v; }
    }

    // Work queued from a traced method, every way the framework offers;
    // each lambda captures the method's state (a closure).
    public static class Queued
    {
        public static int Work(int id) { return id; }

        public static void Run(int id)
        {
            var done = new CountdownEvent(7);
            Task.Run(() => { Work(id * 10 + 1); done.Signal(); });
            Task.Factory.StartNew(() => { Work(id * 10 + 2); done.Signal(); });
            ThreadPool.QueueUserWorkItem(_ => { Work(id * 10 + 3); done.Signal(); });
            var th = new Thread(() => { Work(id * 10 + 4); done.Signal(); });
            th.Start();
            var timer = new Timer(_ => { Work(id * 10 + 5); done.Signal(); }, null, 5, Timeout.Infinite);
            Task.Delay(5).ContinueWith(t => { Work(id * 10 + 6); done.Signal(); });
            Task.Run(async () => { await Task.Delay(5); Work(id * 10 + 7); done.Signal(); });
            Parallel.For(0, 4, i => Work(id * 100 + i));
            done.Wait();
            th.Join();
            GC.KeepAlive(timer);
        }
    }

    // Work queued with callbacks that capture nothing (a method group on an
    // app object, lambdas that get their state as an argument): no closure
    // per call carries the link, only the work item CoreLib makes. Two
    // flows run at once, so that work attached by method or by time would
    // land in the wrong one.
    public static class Uncaptured
    {
        static readonly System.Collections.Concurrent.ConcurrentDictionary<int, CountdownEvent> done =
            new System.Collections.Concurrent.ConcurrentDictionary<int, CountdownEvent>();

        public static int Work(int v)
        {
            CountdownEvent e;
            if (done.TryGetValue(v >= 100 ? v / 100 : v / 10, out e))
                e.Signal();
            return v;
        }

        public sealed class Job
        {
            readonly int v;
            public Job(int v) { this.v = v; }
            public void Go() { Work(v); }
            public async Task GoAsync() { await Task.Delay(5); Work(v); }
        }

        public static void Run(int id)
        {
            var e = new CountdownEvent(11);
            done[id] = e;
            Task.Run(new Job(id * 10 + 1).Go);
            Task.Factory.StartNew(s => Work((int)s), id * 10 + 2);
            ThreadPool.QueueUserWorkItem(s => Work((int)s), id * 10 + 3);
            var th = new Thread(s => Work((int)s));
            th.Start(id * 10 + 4);
            var timer = new Timer(s => Work((int)s), id * 10 + 5, 5, Timeout.Infinite);
            Task.Delay(5).ContinueWith((t, s) => Work((int)s), id * 10 + 6);
            Task.Run(new Job(id * 10 + 7).GoAsync);
            Parallel.For(id * 100, id * 100 + 4, i => Work(i));
            e.Wait();
            th.Join();
            GC.KeepAlive(timer);
        }

        // The first collection that forgets a pending work item (made under a
        // span) starts the profiler's GC-events session (.NET 5+), which is up
        // some 20 ms later: one item made here, a collection, and time.
        static void FirstForgotten()
        {
            var t = new Task(() => { });
            GC.Collect(0, GCCollectionMode.Forced, true);
            Thread.Sleep(300);
            t.Start();
            t.Wait();
        }

        // An item made, then a full compacting collection (which moves it),
        // then run: its work still nests under its maker.
        public static void AcrossGC(int id)
        {
            FirstForgotten();
            var t = new Task(s => Work((int)s), id * 10 + 8);
            var junk = new object[1000];
            for (int i = 0; i < junk.Length; i++)
                junk[i] = new byte[64];
            junk = null;
            GC.Collect(2, GCCollectionMode.Forced, true, true);
            t.Start();
            t.Wait();
        }

        // Items made, then one collection of each kind before each runs:
        // a full compacting one (the runtime reports where objects moved),
        // a full blocking one that does not compact, and a generation-0
        // one (it reports the objects that survived where they are).
        public static void AcrossKinds(int id)
        {
            FirstForgotten();
            var a = new Task(s => Work((int)s), id * 10 + 1);
            GC.Collect(2, GCCollectionMode.Forced, true, true);
            a.Start();
            a.Wait();
            var b = new Task(s => Work((int)s), id * 10 + 2);
            GC.Collect(2, GCCollectionMode.Forced, true, false);
            b.Start();
            b.Wait();
            var c = new Task(s => Work((int)s), id * 10 + 3);
            GC.Collect(0, GCCollectionMode.Forced, true);
            c.Start();
            c.Wait();
        }
    }

    // Many work items pending at once, each made under its own span, with
    // no collection in between (a no-GC region): every item's work must
    // nest under its own maker, or start a trace of its own when the
    // table had no room for it; never under another's.
    public static class ManyItems
    {
        public static int Work(int id) { return id; }

        public static Task Make(int id)
        {
            return new Task(s => Work((int)s), id);
        }

        public static void Run(int n)
        {
            var tasks = new Task[n];
            bool region = GC.TryStartNoGCRegion(200L * 1024 * 1024);
            for (int i = 0; i < n; i++)
                tasks[i] = Make(i);
            foreach (var t in tasks)
                t.Start();
            Task.WaitAll(tasks);
            if (region && System.Runtime.GCSettings.LatencyMode == System.Runtime.GCLatencyMode.NoGCRegion)
                GC.EndNoGCRegion();
        }
    }

    // Calls the hooks keep no frame for: enumerations begun on threads of
    // their own (no capture slot with CLROTEL_MAX_THREADS=1), and async
    // methods started past CLROTEL_MAX_DEPTH whose resumes run on pool
    // threads, where they are recorded.
    public static class Unrecorded
    {
        public static IEnumerable<int> Squares(int n)
        {
            for (int i = 1; i <= n; i++)
                yield return Square(i);
        }

        public static int Square(int i) { return i * i; }

        public static int Sum(IEnumerable<int> e)
        {
            int s = 0;
            foreach (int x in e)
                s += x;
            return s;
        }

        public static async Task<int> Kick(int i)
        {
            await Task.Yield();
            return Square(i);
        }

        public static int Deep(int depth, int i)
        {
            return depth == 0 ? Kick(i).Result : Deep(depth - 1, i);
        }

        public static int Run(int n)
        {
            int total = 0;
            for (int i = 0; i < n; i++)
            {
                // Enumerated again, on another thread: a new enumerator,
                // whose first step begins an enumeration of its own.
                var e = Squares(3);
                int s = Sum(e);
                var th = new Thread(() => { s += Sum(e); });
                th.Start();
                th.Join();
                total += s + Deep(40, i);
            }
            return total;
        }
    }

    // Promise-style tasks (a TaskCompletionSource's), which complete without
    // ever running as a work item, beside Task.Run's, which run: made under
    // a span each.
    public static class Promises
    {
        public static int Work(int id) { return id; }

        public static int Make(int id)
        {
            var tcs = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
            var run = Task.Run(() => Work(id));
            tcs.SetResult(run.Result);
            return tcs.Task.Result;
        }

        public static int Run(int n)
        {
            int sum = 0;
            for (int i = 0; i < n; i++)
                sum += Make(i);
            GC.Collect();
            return sum;
        }
    }

    // Work queued where the caller's context does not flow: by the API
    // (UnsafeQueueUserWorkItem) or on the thread (SuppressFlow). Each
    // starts a trace of its own, linked to the span that made it; Flowing
    // is the control.
    public static class Suppressed
    {
        public static int Work(int id) { return id; }

        public static void Unsafe(int id)
        {
            var done = new ManualResetEventSlim();
            ThreadPool.UnsafeQueueUserWorkItem(_ => { Work(id); done.Set(); }, null);
            done.Wait();
        }

        public static void Suppress(int id)
        {
            Task t;
            using (ExecutionContext.SuppressFlow())
            {
                t = Task.Run(() => Work(id));
            }
            t.Wait();
        }

        public static void Flowing(int id)
        {
            Task.Run(() => Work(id)).Wait();
        }

        // A continuation of a completed task, run inline inside the hooked
        // ContinueWith: a call of Inline's, like any other.
        public static void Inline(int id)
        {
            Task.FromResult(0).ContinueWith(t => Work(id), TaskContinuationOptions.ExecuteSynchronously).Wait();
        }
    }

    // An iterator method, written out the way Roslyn compiles one (mcs
    // names no state machine in an attribute): IteratorStateMachineAttribute
    // names a compiler-generated enumerator that the method creates and
    // returns; each MoveNext runs a step of the method's body.
    public static class Iter
    {
        public static int Square(int i) { return i * i; }

        [IteratorStateMachine(typeof(SquaresIterator))]
        public static IEnumerable<int> Squares(int n)
        {
            var it = new SquaresIterator(-2);
            it.n = n;
            return it;
        }

        [CompilerGenerated]
        sealed class SquaresIterator : IEnumerable<int>, IEnumerator<int>
        {
            int state;
            int current;
            int initialThread;
            public int n;
            int i;

            public SquaresIterator(int state)
            {
                this.state = state;
                initialThread = Environment.CurrentManagedThreadId;
            }

            public bool MoveNext()
            {
                switch (state)
                {
                    case 0: state = -1; i = 0; break;
                    case 1: state = -1; i++; break;
                    default: return false;
                }
                if (i < n)
                {
                    current = Square(i);
                    state = 1;
                    return true;
                }
                return false;
            }

            public int Current { get { return current; } }
            object System.Collections.IEnumerator.Current { get { return current; } }
            void System.Collections.IEnumerator.Reset() { throw new NotSupportedException(); }
            void IDisposable.Dispose() { state = -1; }

            public IEnumerator<int> GetEnumerator()
            {
                if (state == -2 && initialThread == Environment.CurrentManagedThreadId)
                {
                    state = 0;
                    return this;
                }
                var again = new SquaresIterator(0);
                again.n = n;
                return again;
            }

            System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() { return GetEnumerator(); }
        }
    }

    public class ClassMachine
    {
        [AsyncStateMachine(typeof(SumMachine))]
        public Task<int> Sum(int n)
        {
            var sm = new SumMachine();
            sm.owner = this;
            sm.n = n;
            sm.builder = AsyncTaskMethodBuilder<int>.Create();
            sm.state = -1;
            sm.builder.Start(ref sm);
            return sm.builder.Task;
        }

        public int Step(int k) { return k + 1; }

        sealed class SumMachine : IAsyncStateMachine
        {
            public int state;
            public AsyncTaskMethodBuilder<int> builder;
            public ClassMachine owner;
            public int n;
            TaskAwaiter awaiter;
            int acc;

            public void MoveNext()
            {
                int result;
                try
                {
                    if (state == 0)
                    {
                        awaiter.GetResult();
                        state = -1;
                    }
                    else
                    {
                        acc = owner.Step(0);
                        TaskAwaiter aw = Task.Delay(20).GetAwaiter();
                        if (!aw.IsCompleted)
                        {
                            state = 0;
                            awaiter = aw;
                            SumMachine self = this;
                            builder.AwaitUnsafeOnCompleted(ref aw, ref self);
                            return;
                        }
                        aw.GetResult();
                    }
                    acc += owner.Step(n);
                    result = acc;
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
}

public static class Program
{
    public static int Main(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : "flow";
        int n = args.Length > 1 ? int.Parse(args[1]) : 0;
        switch (mode)
        {
            case "flow":
            {
                var ts = new Task<string>[3];
                for (int i = 0; i < 3; i++) ts[i] = Acme.Async.Handler.Handle(i * 100);
                Task.WaitAll(ts);
                foreach (var t in ts) Console.WriteLine(t.Result);
                break;
            }
            case "cases":
            {
                try { Acme.Async.Cases.Fail(7).Wait(); }
                catch (AggregateException e) { Console.WriteLine(e.InnerException.Message); }
                var cts = new CancellationTokenSource();
                var c = Acme.Async.Cases.Cancel(cts.Token);
                Thread.Sleep(10);
                cts.Cancel();
                try { c.Wait(); }
                catch (AggregateException e) { Console.WriteLine(e.InnerException.GetType().Name); }
                var done = new ManualResetEventSlim();
                Acme.Async.Cases.FireAndForget(5, done);
                done.Wait();
                Console.WriteLine("void done");
                Console.WriteLine(new Acme.Async.ClassMachine().Sum(4).Result);
                Console.WriteLine(Acme.Async.Cases.Deep(1000).Result);
                break;
            }
            case "generic":
            {
                Console.WriteLine(new Acme.Async.Box<string>().Get("s").Result);
                Console.WriteLine(new Acme.Async.Box<int>().Get(42).Result);
                break;
            }
            case "queued":
            {
                Acme.Async.Queued.Run(1);
                Acme.Async.Queued.Run(2);
                Console.WriteLine("queued done");
                break;
            }
            case "unrecorded":
            {
                Console.WriteLine("unrecorded " + Acme.Async.Unrecorded.Run(int.Parse(args[1])));
                break;
            }
            case "manyitems":
            {
                Acme.Async.ManyItems.Run(int.Parse(args[1]));
                Console.WriteLine("manyitems done");
                break;
            }
            case "promises":
            {
                Console.WriteLine("promises " + Acme.Async.Promises.Run(int.Parse(args[1])));
                break;
            }
            case "uncaptured":
            {
                var a = new Thread(() => Acme.Async.Uncaptured.Run(1));
                var b = new Thread(() => Acme.Async.Uncaptured.Run(2));
                a.Start();
                b.Start();
                a.Join();
                b.Join();
                Acme.Async.Uncaptured.AcrossGC(3);
                Console.WriteLine("uncaptured done");
                break;
            }
            case "acrosskinds":
            {
                Acme.Async.Uncaptured.AcrossKinds(4);
                Console.WriteLine("acrosskinds done");
                break;
            }
            case "suppressed":
            {
                for (int i = 0; i < 2; i++)
                {
                    Acme.Async.Suppressed.Unsafe(i);
                    Acme.Async.Suppressed.Suppress(10 + i);
                    Acme.Async.Suppressed.Flowing(20 + i);
                    Acme.Async.Suppressed.Inline(30 + i);
                }
                Console.WriteLine("suppressed done");
                break;
            }
            case "iter":
            {
                int sum = 0;
                foreach (var x in Acme.Async.Iter.Squares(4)) sum += x;
                Console.WriteLine(sum);
                var never = Acme.Async.Iter.Squares(2);
                Console.WriteLine(never != null);
                break;
            }
            case "many":
            case "manytwice":
            {
                var gate = new TaskCompletionSource<bool>();
                var ts = new Task<int>[n];
                for (int i = 0; i < n; i++)
                    ts[i] = mode == "many" ? Acme.Async.Cases.Wait(i, gate.Task) : Acme.Async.Cases.WaitTwice(i, gate.Task);
                gate.SetResult(true);
                Task.WaitAll(ts);
                long sum = 0;
                foreach (var t in ts) sum += t.Result;
                Console.WriteLine(sum);
                break;
            }
            case "never":
            {
                var tcs = new TaskCompletionSource<int>();
                var ts = new Task<int>[n];
                for (int i = 0; i < n; i++) ts[i] = Acme.Async.Cases.Never(tcs);
                Console.WriteLine(ts.Length + " pending");
                break;
            }
            case "gc":
            {
                var ts = new Task<int>[n];
                for (int i = 0; i < n; i++) ts[i] = Acme.Async.Cases.Moving(i);
                var junk = new List<byte[]>();
                while (!Task.WhenAll(ts).IsCompleted)
                {
                    for (int k = 0; k < 200; k++) junk.Add(new byte[100]);
                    if (junk.Count > 5000) junk.RemoveRange(0, 4000);
                    GC.Collect(2, GCCollectionMode.Forced, true, true);
                    // Leave the timers and the pool room to run the steps:
                    // back-to-back blocking collections starved them on a
                    // loaded 2-core machine (a run that never finished).
                    Thread.Sleep(1);
                }
                long sum = 0;
                foreach (var t in ts) sum += t.Result;
                Console.WriteLine(sum + " " + (GC.CollectionCount(2) > 0));
                break;
            }
        }
        return 0;
    }
}
