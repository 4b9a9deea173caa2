// The order service of OpenTelemetry .NET's no-code instrumentation
// documentation (its complete example), as an app: tests/e2e/testdata/nocode.yaml
// shapes ProcessOrder's spans, and those of an async, a generic and a
// nested type's method as upstream's targets select them.
//   NoCode   processes a small order (Completed) and a large one (Failed),
//            each also asynchronously, saves one and audits them
using System;
using System.Threading.Tasks;

namespace MyApp.Models
{
    public class OrderRequest
    {
        public string OrderId { get; set; }
        public string CustomerId { get; set; }
        public double TotalAmount { get; set; }
        public string OrderType { get; set; }
    }

    public class OrderResult
    {
        public string Status { get; set; }
    }
}

namespace MyApp.Services
{
    using MyApp.Models;

    public class OrderService
    {
        public OrderResult ProcessOrder(OrderRequest request)
        {
            var result = new OrderResult();
            result.Status = request.TotalAmount > 1000 ? "Failed" : "Completed";
            return result;
        }

        // Completes after it returns: its task's result decides its span.
        public async Task<OrderResult> ProcessOrderAsync(OrderRequest request)
        {
            await Task.Delay(20);
            var result = new OrderResult();
            result.Status = request.TotalAmount > 1000 ? "Failed" : "Completed";
            return result;
        }

        public class Audit
        {
            public static int Record(string[] tags, int[] counts)
            {
                return counts.Length;
            }
        }
    }

    public class Repository<T>
    {
        public TKey Save<TKey>(TKey key, T item)
        {
            return key;
        }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            var service = new OrderService();
            var small = service.ProcessOrder(new OrderRequest { OrderId = "A-1", CustomerId = "c7", TotalAmount = 25.5, OrderType = "Express" });
            var large = service.ProcessOrder(new OrderRequest { OrderId = "B-2", CustomerId = "c8", TotalAmount = 5000, OrderType = "Bulk" });
            var smallAsync = service.ProcessOrderAsync(new OrderRequest { OrderId = "A-1", CustomerId = "c7", TotalAmount = 25.5, OrderType = "Express" }).Result;
            var largeAsync = service.ProcessOrderAsync(new OrderRequest { OrderId = "B-2", CustomerId = "c8", TotalAmount = 5000, OrderType = "Bulk" }).Result;
            var key = new Repository<OrderRequest>().Save("A-1", new OrderRequest { OrderId = "A-1" });
            int audited = OrderService.Audit.Record(new[] { "express", "gift" }, new[] { 1, 2 });
            Console.WriteLine(small.Status + " " + large.Status + " " + smallAsync.Status + " " + largeAsync.Status + " " + key + " " + audited);
            return 0;
        }
    }
}
