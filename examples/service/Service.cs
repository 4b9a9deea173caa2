// A small HTTP service for the service benchmark (make bench, "service"):
// an HttpListener app whose request path runs a few methods with values,
// as a controller, a parser, a repository and a renderer would, served in
// one of the shapes hand-written services take. Its hosting code is traced
// with the rest, as an app's own code is by default: each request is a
// trace of its own because its loop serves (docs/user-guide.md "A service: one trace
// per request").
//   Service PORT [threads|pool|async]
//     serves http://127.0.0.1:PORT/item?id=N until /quit:
//     threads (default): 2 threads per core, each a GetContext loop
//     pool: one accept loop queuing each request to the thread pool
//     async: an async accept loop, each request an async method
using System;
using System.Collections.Generic;
using System.Net;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Acme.Service
{
    public class Item
    {
        public int Id;
        public string Name;
        public decimal Price;
        public Item(int id, string name, decimal price) { Id = id; Name = name; Price = price; }
    }

    public class Repository
    {
        readonly Dictionary<int, Item> items = new Dictionary<int, Item>();
        public Repository()
        {
            for (int i = 0; i < 100; i++)
                items[i] = new Item(i, "item-" + i, 1.25m * i);
        }
        public Item Lookup(int id)
        {
            Item it;
            return items.TryGetValue(id % 100, out it) ? it : null;
        }
    }

    public static class Handler
    {
        public static int ParseId(string query)
        {
            int id;
            if (query != null && query.StartsWith("?id=") && int.TryParse(query.Substring(4), out id))
                return id;
            return 0;
        }

        public static string Render(Item item)
        {
            return item == null ? "not found" : item.Id + " " + item.Name + " " + item.Price;
        }

        public static string Handle(Repository repo, string query)
        {
            return Render(repo.Lookup(ParseId(query)));
        }
    }

}

namespace Acme.Service.Hosting
{
    public static class Program
    {
        static HttpListener listener;
        static Acme.Service.Repository repo;
        static readonly ManualResetEvent done = new ManualResetEvent(false);

        public static int Main(string[] args)
        {
            listener = new HttpListener();
            listener.Prefixes.Add("http://127.0.0.1:" + args[0] + "/");
            listener.Start();
            repo = new Acme.Service.Repository();
            string shape = args.Length > 1 ? args[1] : "threads";
            switch (shape)
            {
                case "threads":
                    for (int w = 0; w < Environment.ProcessorCount * 2; w++)
                    {
                        var t = new Thread(Serve);
                        t.IsBackground = true;
                        t.Start();
                    }
                    break;
                case "pool":
                    var accept = new Thread(Accept);
                    accept.IsBackground = true;
                    accept.Start();
                    break;
                case "async":
                    AcceptAsync();
                    break;
                default:
                    Console.Error.WriteLine("unknown shape " + shape);
                    return 2;
            }
            Console.WriteLine("listening");
            done.WaitOne();
            listener.Stop();
            return 0;
        }

        // One request: the handler, then the response.
        static void Respond(HttpListenerContext ctx)
        {
            string path = ctx.Request.Url.AbsolutePath;
            byte[] body = Encoding.UTF8.GetBytes(path == "/quit" ? "bye" : Acme.Service.Handler.Handle(repo, ctx.Request.Url.Query));
            ctx.Response.ContentLength64 = body.Length;
            ctx.Response.OutputStream.Write(body, 0, body.Length);
            ctx.Response.OutputStream.Close();
            if (path == "/quit")
                done.Set();
        }

        static void Serve()
        {
            while (true)
            {
                HttpListenerContext ctx;
                try { ctx = listener.GetContext(); }
                catch (Exception) { return; }
                Respond(ctx);
            }
        }

        static void Accept()
        {
            while (true)
            {
                HttpListenerContext ctx;
                try { ctx = listener.GetContext(); }
                catch (Exception) { return; }
                ThreadPool.QueueUserWorkItem(c => Respond((HttpListenerContext)c), ctx);
            }
        }

        static async void AcceptAsync()
        {
            while (true)
            {
                HttpListenerContext ctx;
                try { ctx = await listener.GetContextAsync(); }
                catch (Exception) { return; }
#pragma warning disable 4014
                RespondAsync(ctx);
#pragma warning restore 4014
            }
        }

        static async Task RespondAsync(HttpListenerContext ctx)
        {
            await Task.Yield();
            Respond(ctx);
        }
    }
}
