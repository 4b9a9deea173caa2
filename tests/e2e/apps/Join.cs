// Join: an HttpListener service that starts an Activity from the request's
// traceparent header (SetParentId + Start, as ASP.NET Core does with no
// ActivityListener), runs a few of its own methods per request, and stops
// the Activity at the end of the request. "/chain" also calls a second
// service through HttpClient. Activity and HttpClient are reached by
// reflection: mcs compiles against Mono's reference assemblies, which lack
// them.
//   Join.exe <port> [downstream port]   serves until GET /quit
//   Join.exe bench <n>                  ns per root call (Work.Step), with no
//                                       Activity and under one (joined)
//   Join.exe stdin                      the same requests, one per line
//                                       "<path> [traceparent]", until EOF
//                                       (.NET Core 3.1 here: its HttpListener
//                                       needs OpenSSL 1.x, which is not installed)
using System;
using System.IO;
using System.Net;
using System.Reflection;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Acme.Join
{
    public static class Work
    {
        public static string Handle(int n, string downstream)
        {
            int sum = 0;
            for (int i = 0; i < n; i++)
                sum += Step(i);
            string below = downstream == null ? "" : Call(downstream);
            string r = Format(sum, below);
            if (r.Length == 0) // work after the call: no tail call ends Handle's span early
                throw new InvalidOperationException();
            return r;
        }

        public static int Step(int i) { return i * i + 1; }

        public static string Format(int sum, string below) { return "sum=" + sum + (below == "" ? "" : " below=" + below); }

        public static string Call(string url) { return Program.HttpGet(url); }

        public static int Pooled(int i) { return i + 1; }

        // An async method: one span until its task completes, its resumes
        // (on pool threads) nested under it.
        public static async Task<int> HandleAsync(int n)
        {
            await Task.Delay(5);
            int sum = Step(n);
            await Task.Delay(5);
            return sum + Step(n + 1);
        }
    }

    public static class Program
    {
        static readonly Type ActivityType = Type.GetType("System.Diagnostics.Activity, System.Diagnostics.DiagnosticSource", true);
        static Type clientType; // loaded on first use: on .NET Core 3.1 System.Net.Http needs OpenSSL 1.x
        static object client;

        public static string HttpGet(string url)
        {
            if (client == null)
            {
                clientType = Type.GetType("System.Net.Http.HttpClient, System.Net.Http", true);
                client = Activator.CreateInstance(clientType);
            }
            object task = clientType.GetMethod("GetStringAsync", new Type[] { typeof(string) }).Invoke(client, new object[] { url });
            return (string)task.GetType().GetProperty("Result").GetValue(task, null);
        }

        static object StartActivity(string parent)
        {
            object a = Activator.CreateInstance(ActivityType, new object[] { "Acme.Join.HandleRequest" });
            if (!string.IsNullOrEmpty(parent))
                ActivityType.GetMethod("SetParentId", new Type[] { typeof(string) }).Invoke(a, new object[] { parent });
            ActivityType.GetMethod("Start", Type.EmptyTypes).Invoke(a, null);
            return a;
        }

        static string Prop(object a, string name)
        {
            return ActivityType.GetProperty(name).GetValue(a, null).ToString();
        }

        // One request: the Activity the caller's context starts, the work
        // under it, the Activity stopped at the end. "/pool" also runs work
        // on a pool thread (Activity.Current flows there with the
        // ExecutionContext); "/async" an async method; "/gc" forces
        // compacting collections first.
        static string Serve(string path, string traceparent, string downstream)
        {
            if (path == "/gc")
            {
                GC.Collect(2, GCCollectionMode.Forced, true, true);
                GC.WaitForPendingFinalizers();
                GC.Collect(2, GCCollectionMode.Forced, true, true);
            }
            object act = StartActivity(traceparent);
            string body = Work.Handle(3, path == "/chain" ? downstream : null);
            if (path == "/pool")
                Task.Run(() => Work.Pooled(9)).Wait();
            if (path == "/async")
                Work.HandleAsync(4).Wait();
            body = Prop(act, "TraceId") + " " + Prop(act, "SpanId") + " " + body;
            ActivityType.GetMethod("Stop", Type.EmptyTypes).Invoke(act, null);
            Console.WriteLine(path + " " + body);
            return body;
        }

        // "/many": the request runs with more AsyncLocal values set than the
        // runtime keeps in fields (an array-based map), in a flow of its own;
        // "/dict": with more than an array holds (a Dictionary-based map).
        static readonly AsyncLocal<int>[] extra = new AsyncLocal<int>[24];

        static string Dispatch(string path, string traceparent, string downstream)
        {
            if (path != "/many" && path != "/dict")
                return Serve(path, traceparent, downstream);
            int n = path == "/many" ? 6 : extra.Length;
            return Task.Run(() =>
            {
                for (int i = 0; i < n; i++)
                {
                    if (extra[i] == null)
                        extra[i] = new AsyncLocal<int>();
                    extra[i].Value = i + 1;
                }
                return Serve(path, traceparent, downstream);
            }).Result;
        }

        static double PerRoot(int n)
        {
            var sw = System.Diagnostics.Stopwatch.StartNew();
            for (int i = 0; i < n; i++)
                Work.Step(i);
            return sw.Elapsed.TotalMilliseconds * 1e6 / n;
        }

        static void Bench(int n)
        {
            PerRoot(n / 10); // warm up (JIT, the plan)
            double none = PerRoot(n);
            object act = StartActivity("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            PerRoot(n / 10);
            double joined = PerRoot(n);
            ActivityType.GetMethod("Stop", Type.EmptyTypes).Invoke(act, null);
            Console.WriteLine("ns per root: no Activity " + none.ToString("F1") + ", joined " + joined.ToString("F1"));
        }

        public static int Main(string[] args)
        {
            if (args[0] == "bench")
            {
                Bench(int.Parse(args[1]));
                return 0;
            }
            if (args[0] == "stdin")
            {
                string line;
                while ((line = Console.ReadLine()) != null)
                {
                    string[] parts = line.Split(' ');
                    Dispatch(parts[0], parts.Length > 1 ? parts[1] : null, null);
                }
                return 0;
            }
            int port = int.Parse(args[0]);
            string downstream = args.Length > 1 ? "http://127.0.0.1:" + args[1] + "/leaf" : null;
            var listener = new HttpListener();
            listener.Prefixes.Add("http://127.0.0.1:" + port + "/");
            listener.Start();
            Console.WriteLine("listening " + port);
            Console.Out.Flush();
            while (true)
            {
                HttpListenerContext ctx = listener.GetContext();
                string path = ctx.Request.Url.AbsolutePath;
                if (path == "/quit")
                {
                    ctx.Response.ContentLength64 = 0;
                    ctx.Response.Close();
                    break;
                }
                byte[] b = Encoding.UTF8.GetBytes(Dispatch(path, ctx.Request.Headers["traceparent"], downstream));
                ctx.Response.ContentLength64 = b.Length;
                ctx.Response.OutputStream.Write(b, 0, b.Length);
                ctx.Response.Close();
            }
            listener.Stop();
            return 0;
        }
    }
}
