// Serving: a long-running service in the shapes real services take, for
// the one-trace-per-request test (tests/e2e/serving_test.go). Every shape
// but "queue-leaf" handles each request with Handler.Handle (HandleAsync
// for "async"), which calls exactly two traced children, Repo.Lookup and
// Render.Format, and is short and hot: the kind of method folding would
// take. "queue-leaf" handles each message with Handler.Count, a leaf (it
// calls no traced method), tinier and hotter still. Selected with
// CLROTEL_INCLUDE=Acme.Serving.*, so Main, the loops, the thread bodies and
// the lambdas are traced too, as a service's own code is by default.
// The plumbing (HTTP, stdin, Activity by reflection, counting) is in
// Acme.Plumbing, which that selection leaves out.
//   Serving.exe thread-loop PORT   4 threads, each GetContext + Handle
//   Serving.exe pool PORT          an accept loop queuing each request to
//                                  the pool: QueueUserWorkItem (even ids),
//                                  Task.Run tail-calling Serve (odd ids)
//   Serving.exe async PORT         async accept loop, HandleAsync not awaited
//   Serving.exe queue RATE         a paced producer thread and a consumer
//                                  thread over a BlockingCollection
//   Serving.exe queue-leaf RATE    queue, the consumer calling Count
//   Serving.exe timer              a 20 ms Timer and a Task.Delay(20) loop
//   Serving.exe activity PORT      thread-loop, each request under an
//                                  Activity started from its traceparent
// HTTP shapes serve GET /r/<id> (the id is Handle's argument) and print
// "listening PORT". The others print "ready" and make work from stdin "go"
// on, so that a test can start its clock; stdin "stop" stops making work,
// waits for the work in hand, and prints "stopped N". stdin "quit" or
// GET /quit ends the service, which prints "served N" (requests, messages
// or ticks handled) and exits 0. It ends its threads, loops and timers
// first, as a service stopping gracefully does, so that no traced code
// runs while the runtime shuts down (where .NET Core 3.1 can crash in its
// ProfileLeave helper: a Timer left ticking at exit did, 2 runs in 8).
using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Acme.Serving
{
    public static class Repo
    {
        public static int Lookup(int id) { return id * 7 % 1000; }
    }

    public static class Render
    {
        public static string Format(int id, int v) { return "ok " + id + " " + v; }
    }

    public static class Handler
    {
        public static string Handle(int id)
        {
            int v = Repo.Lookup(id);
            string r = Render.Format(id, v);
            if (r.Length == 0) // work after the call: no tail call ends Handle's span early
                throw new InvalidOperationException();
            Interlocked.Increment(ref Acme.Plumbing.Control.Served);
            return r;
        }

        // A leaf: arithmetic and the served count, no call to traced code.
        public static int Count(int id)
        {
            Interlocked.Increment(ref Acme.Plumbing.Control.Served);
            return id * 7 % 13;
        }

        public static async Task HandleAsync(HttpListenerContext ctx, int id)
        {
            await Task.Yield();
            int v = Repo.Lookup(id);
            string r = Render.Format(id, v);
            Interlocked.Increment(ref Acme.Plumbing.Control.Served);
            Acme.Plumbing.Http.Respond(ctx, r);
        }
    }

    public static class Threads
    {
        // Four threads, each serving requests one after another for the
        // service's life: each thread's body is its outermost traced frame.
        // With activity, each request runs under an Activity started from
        // its traceparent, as ASP.NET Core's hosting does.
        public static void Serve(HttpListener listener, bool activity)
        {
            var threads = new Thread[4];
            for (int k = 0; k < threads.Length; k++)
            {
                var th = new Thread(() =>
                {
                    while (true)
                    {
                        HttpListenerContext ctx = Acme.Plumbing.Http.Next(listener);
                        if (ctx == null)
                            return;
                        int id = Acme.Plumbing.Http.Id(ctx);
                        if (id < 0)
                            continue;
                        object act = activity ? Acme.Plumbing.Act.Start(ctx.Request.Headers["traceparent"]) : null;
                        string body = Handler.Handle(id);
                        if (act != null)
                            Acme.Plumbing.Act.Stop(act);
                        Acme.Plumbing.Http.Respond(ctx, body);
                    }
                });
                th.IsBackground = true;
                th.Start();
                threads[k] = th;
            }
            Acme.Plumbing.Control.WaitQuit(); // which closes the listener
            foreach (var th in threads)
                th.Join();
        }
    }

    public static class Pool
    {
        // One accept loop on Main's thread; every request runs on the
        // thread pool.
        public static void AcceptLoop(HttpListener listener)
        {
            while (true)
            {
                HttpListenerContext ctx = Acme.Plumbing.Http.Next(listener);
                if (ctx == null)
                    return;
                int id = Acme.Plumbing.Http.Id(ctx);
                if (id < 0)
                    continue;
                if (id % 3 == 0)
                    ThreadPool.QueueUserWorkItem(_ => Acme.Plumbing.Http.Respond(ctx, Handler.Handle(id)));
                else if (id % 3 == 1)
                    Task.Run(() => Serve(ctx, id));
                else
                    ThreadPool.QueueUserWorkItem(ServeQueued, ctx);
            }
        }

        // A method group given the request as its state: no closure
        // carries the loop's span, the work item does.
        static void ServeQueued(object state)
        {
            var ctx = (HttpListenerContext)state;
            Acme.Plumbing.Http.Respond(ctx, Handler.Handle(Acme.Plumbing.Http.Id(ctx)));
        }

        // A call in the lambda's tail position, which an optimizing JIT
        // makes a tail call: the lambda's frame is replaced by Serve's, and
        // the request stays one trace all the same.
        static void Serve(HttpListenerContext ctx, int id)
        {
            Acme.Plumbing.Http.Respond(ctx, Handler.Handle(id));
        }
    }

    public static class Async
    {
        // An async accept loop: one async span for the service's life,
        // resumed once per request.
        public static async Task AcceptLoop(HttpListener listener)
        {
            while (true)
            {
                HttpListenerContext ctx;
                try
                {
                    ctx = await listener.GetContextAsync();
                }
                catch (Exception)
                {
                    return; // the listener was closed
                }
                int id = Acme.Plumbing.Http.Id(ctx);
                if (id < 0)
                    continue;
#pragma warning disable 4014 // not awaited: the loop accepts the next request
                Handler.HandleAsync(ctx, id);
#pragma warning restore 4014
            }
        }
    }

    public static class Queue
    {
        static readonly BlockingCollection<int> q = new BlockingCollection<int>();
        static long produced;

        // A producer adding message ids at rate per second, in 1 ms slices,
        // and a consumer handling them as they come, with Handle, or with
        // Count when leaf.
        public static void Run(int rate, bool leaf)
        {
            var producer = new Thread(() =>
            {
                var sw = Stopwatch.StartNew();
                while (!Acme.Plumbing.Control.Quitting) // after stop too: the thread's frame stays open
                {
                    long due = (long)(sw.Elapsed.TotalSeconds * rate);
                    while (!Acme.Plumbing.Control.Stopping && produced < due)
                        q.Add((int)Interlocked.Increment(ref produced));
                    Thread.Sleep(1);
                }
                q.CompleteAdding();
            });
            var consumer = new Thread(() =>
            {
                foreach (int m in q.GetConsumingEnumerable())
                {
                    if (leaf)
                        Handler.Count(m);
                    else
                        Handler.Handle(m);
                }
            });
            producer.IsBackground = consumer.IsBackground = true;
            consumer.Start();
            Acme.Plumbing.Control.Ready("ready");
            Acme.Plumbing.Control.WaitGo();
            producer.Start();
            Acme.Plumbing.Control.WaitStop();
            while (Interlocked.Read(ref Acme.Plumbing.Control.Served) < Interlocked.Read(ref produced))
                Thread.Sleep(1);
            Acme.Plumbing.Control.Stopped();
            Acme.Plumbing.Control.WaitQuit();
            producer.Join();
            consumer.Join();
        }
    }

    public static class Ticker
    {
        static int ticks;

        public static void OnTick(object state)
        {
            if (Acme.Plumbing.Control.Stopping)
                return;
            Handler.Handle(Interlocked.Increment(ref ticks));
        }

        // What PeriodicTimer does on later runtimes: one async method for
        // the service's life, resumed every period.
        public static async Task TickLoop()
        {
            int n = 1000000;
            while (!Acme.Plumbing.Control.Quitting)
            {
                await Task.Delay(20);
                if (Acme.Plumbing.Control.Going && !Acme.Plumbing.Control.Stopping)
                    Handler.Handle(n++);
            }
        }

        public static void Run()
        {
            Task loop = TickLoop();
            Acme.Plumbing.Control.Ready("ready");
            Acme.Plumbing.Control.WaitGo();
            var timer = new Timer(OnTick, null, 20, 20);
            Acme.Plumbing.Control.WaitStop();
            Thread.Sleep(200); // a tick or a resume already past its check
            Acme.Plumbing.Control.Stopped();
            Acme.Plumbing.Control.WaitQuit();
            using (var disposed = new ManualResetEvent(false))
            {
                timer.Dispose(disposed); // and waits for a tick in progress
                disposed.WaitOne();
            }
            loop.Wait();
        }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            Acme.Plumbing.Control.ReadStdin();
            string shape = args[0];
            switch (shape)
            {
                case "queue":
                case "queue-leaf":
                    Queue.Run(int.Parse(args[1]), shape == "queue-leaf");
                    break;
                case "timer":
                    Ticker.Run();
                    break;
                case "thread-loop":
                case "pool":
                case "async":
                case "activity":
                    HttpListener listener = Acme.Plumbing.Http.Listen(int.Parse(args[1]));
                    if (shape == "pool")
                        Pool.AcceptLoop(listener);
                    else if (shape == "async")
                        Async.AcceptLoop(listener).Wait(); // ends when quitting closes the listener
                    else
                        Threads.Serve(listener, shape == "activity");
                    break;
                default:
                    Console.Error.WriteLine("unknown shape " + shape);
                    return 2;
            }
            Console.WriteLine("served " + Interlocked.Read(ref Acme.Plumbing.Control.Served));
            Console.Out.Flush();
            return 0;
        }
    }
}

namespace Acme.Plumbing
{
    public static class Control
    {
        public static long Served;
        public static volatile bool Going, Stopping, Quitting;
        static readonly ManualResetEventSlim go = new ManualResetEventSlim(), stop = new ManualResetEventSlim();
        static readonly TaskCompletionSource<bool> quit = new TaskCompletionSource<bool>();
        static HttpListener listener;

        public static void Ready(string line)
        {
            Console.WriteLine(line);
            Console.Out.Flush();
        }

        public static void ReadStdin()
        {
            var th = new Thread(() =>
            {
                string line;
                while ((line = Console.ReadLine()) != null)
                {
                    if (line == "go")
                    {
                        Going = true;
                        go.Set();
                    }
                    else if (line == "stop")
                        Stop();
                    else if (line == "quit")
                        break;
                }
                Quit();
            });
            th.IsBackground = true;
            th.Start();
        }

        public static void Stop()
        {
            Stopping = true;
            stop.Set();
        }

        public static void WaitGo() { go.Wait(); }

        public static void WaitStop() { stop.Wait(); }

        public static void Stopped() { Ready("stopped " + Interlocked.Read(ref Served)); }

        // Ends the service: closing the listener ends the loops blocked on it.
        public static void Quit()
        {
            Quitting = true;
            Stop();
            go.Set();
            HttpListener l;
            lock (quit)
                l = listener;
            if (l != null)
            {
                try { l.Stop(); } catch (Exception) { }
            }
            quit.TrySetResult(true);
        }

        public static void WaitQuit() { quit.Task.Wait(); }

        public static void Listening(HttpListener l)
        {
            lock (quit)
                listener = l;
        }
    }

    public static class Http
    {
        public static HttpListener Listen(int port)
        {
            var l = new HttpListener();
            l.Prefixes.Add("http://127.0.0.1:" + port + "/");
            l.Start();
            Control.Listening(l);
            Control.Ready("listening " + port);
            return l;
        }

        // The next request, or null once the listener is closed.
        public static HttpListenerContext Next(HttpListener l)
        {
            try
            {
                return l.GetContext();
            }
            catch (Exception)
            {
                return null;
            }
        }

        // The request's id (/r/<id>); -1 for anything else, answered here
        // (/quit ends the service).
        public static int Id(HttpListenerContext ctx)
        {
            string path = ctx.Request.Url.AbsolutePath;
            int id;
            if (path.StartsWith("/r/") && int.TryParse(path.Substring(3), out id) && id >= 0)
                return id;
            Respond(ctx, path == "/quit" ? "bye" : "no");
            if (path == "/quit")
                Control.Quit();
            return -1;
        }

        public static void Respond(HttpListenerContext ctx, string body)
        {
            byte[] b = Encoding.UTF8.GetBytes(body);
            ctx.Response.ContentLength64 = b.Length;
            ctx.Response.OutputStream.Write(b, 0, b.Length);
            ctx.Response.Close();
        }
    }

    // System.Diagnostics.Activity by reflection: mcs compiles against
    // Mono's reference assemblies, which lack it.
    public static class Act
    {
        static readonly Type type = Type.GetType("System.Diagnostics.Activity, System.Diagnostics.DiagnosticSource", true);
        static readonly System.Reflection.MethodInfo setParent = type.GetMethod("SetParentId", new Type[] { typeof(string) });
        static readonly System.Reflection.MethodInfo start = type.GetMethod("Start", Type.EmptyTypes);
        static readonly System.Reflection.MethodInfo stop = type.GetMethod("Stop", Type.EmptyTypes);

        public static object Start(string traceparent)
        {
            object a = Activator.CreateInstance(type, new object[] { "Acme.Serving.Request" });
            if (!string.IsNullOrEmpty(traceparent))
                setParent.Invoke(a, new object[] { traceparent });
            start.Invoke(a, null);
            return a;
        }

        public static void Stop(object a) { stop.Invoke(a, null); }
    }
}
