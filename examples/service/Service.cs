// A small HTTP service for the service benchmark (make bench, "service"):
// an HttpListener app whose request path runs a few methods with values,
// as a controller, a parser, a repository and a renderer would. The
// dispatch loop lives in Acme.Service.Hosting, which the benchmark leaves
// out of the selection as ASP.NET Core's host is framework code: each
// request is then a trace of its own.
//   Service PORT     serves http://127.0.0.1:PORT/item?id=N until /quit
using System;
using System.Collections.Generic;
using System.Net;
using System.Text;
using System.Threading;

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
        public static int Main(string[] args)
        {
            var listener = new HttpListener();
            listener.Prefixes.Add("http://127.0.0.1:" + args[0] + "/");
            listener.Start();
            var repo = new Acme.Service.Repository();
            var done = new ManualResetEvent(false);
            int workers = Environment.ProcessorCount * 2;
            for (int w = 0; w < workers; w++)
            {
                var t = new Thread(() =>
                {
                    while (true)
                    {
                        HttpListenerContext ctx;
                        try { ctx = listener.GetContext(); }
                        catch (Exception) { return; }
                        string path = ctx.Request.Url.AbsolutePath;
                        byte[] body = Encoding.UTF8.GetBytes(path == "/quit" ? "bye" : Acme.Service.Handler.Handle(repo, ctx.Request.Url.Query));
                        ctx.Response.ContentLength64 = body.Length;
                        ctx.Response.OutputStream.Write(body, 0, body.Length);
                        ctx.Response.OutputStream.Close();
                        if (path == "/quit")
                            done.Set();
                    }
                });
                t.IsBackground = true;
                t.Start();
            }
            Console.WriteLine("listening");
            done.WaitOne();
            listener.Stop();
            return 0;
        }
    }
}
