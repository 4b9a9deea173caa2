// The order service of OpenTelemetry .NET's no-code instrumentation
// documentation (its complete example), as an app: tests/e2e/testdata/nocode.yaml
// shapes ProcessOrder's spans.
//   NoCode   processes a small order (Completed) and a large one (Failed)
using System;

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
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            var service = new OrderService();
            var small = service.ProcessOrder(new OrderRequest { OrderId = "A-1", CustomerId = "c7", TotalAmount = 25.5, OrderType = "Express" });
            var large = service.ProcessOrder(new OrderRequest { OrderId = "B-2", CustomerId = "c8", TotalAmount = 5000, OrderType = "Bulk" });
            Console.WriteLine(small.Status + " " + large.Status);
            return 0;
        }
    }
}
