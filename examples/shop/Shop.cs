// Shop: a small order-processing console app to trace with clrotel.
// It prices a few orders, reserves stock, charges a (fake) payment gateway
// that declines one card, and runs two checkout workers in parallel.
using System;
using System.Collections.Generic;
using System.Threading;

namespace Acme.Shop
{
    public enum Tier { Standard, Silver, Gold }

    public struct Money
    {
        public long Cents;
        public string Currency;
        public Money(long cents, string currency) { Cents = cents; Currency = currency; }
        public override string ToString() { return (Cents / 100.0).ToString("0.00") + " " + Currency; }
    }

    public class Item
    {
        public string Sku;
        public string Name;
        public Money Price;
        public Item(string sku, string name, long cents) { Sku = sku; Name = name; Price = new Money(cents, "EUR"); }
    }

    public class Customer
    {
        public string Name;
        public Tier Tier;
        public string CardNumber;
        public Customer(string name, Tier tier, string card) { Name = name; Tier = tier; CardNumber = card; }
    }

    public class Catalog
    {
        private readonly Dictionary<string, Item> items = new Dictionary<string, Item>();
        public void Add(Item item) { items[item.Sku] = item; }
        public Item Find(string sku) { return items[sku]; }
    }

    public class Inventory
    {
        private readonly Dictionary<string, int> stock = new Dictionary<string, int>();
        public void Restock(string sku, int quantity) { lock (stock) { stock[sku] = Available(sku) + quantity; } }
        public int Available(string sku) { int n; return stock.TryGetValue(sku, out n) ? n : 0; }
        public bool Reserve(string sku, int quantity)
        {
            lock (stock)
            {
                if (Available(sku) < quantity) return false;
                stock[sku] -= quantity;
                return true;
            }
        }
    }

    public static class Pricing
    {
        public static double DiscountRate(Tier tier)
        {
            switch (tier) { case Tier.Gold: return 0.15; case Tier.Silver: return 0.05; default: return 0.0; }
        }

        public static Money Total(List<KeyValuePair<Item, int>> lines, Tier tier)
        {
            long cents = 0;
            foreach (var line in lines) cents += LineTotal(line.Key, line.Value);
            cents = (long)Math.Round(cents * (1.0 - DiscountRate(tier)));
            return new Money(cents, "EUR");
        }

        public static long LineTotal(Item item, int quantity) { return item.Price.Cents * quantity; }
    }

    public class PaymentDeclinedException : Exception
    {
        public PaymentDeclinedException(string message) : base(message) { }
    }

    public class PaymentGateway
    {
        public string Charge(Customer customer, Money amount)
        {
            Thread.Sleep(2); // the network
            if (customer.CardNumber.EndsWith("0000"))
                throw new PaymentDeclinedException("card declined for " + customer.Name);
            return "txn-" + (amount.Cents ^ customer.Name.Length).ToString("x");
        }
    }

    public class OrderService
    {
        private readonly Catalog catalog;
        private readonly Inventory inventory;
        private readonly PaymentGateway payments = new PaymentGateway();

        public OrderService(Catalog catalog, Inventory inventory) { this.catalog = catalog; this.inventory = inventory; }

        public string PlaceOrder(Customer customer, string[] skus, int[] quantities)
        {
            var lines = new List<KeyValuePair<Item, int>>();
            for (int i = 0; i < skus.Length; i++)
            {
                var item = catalog.Find(skus[i]);
                if (!inventory.Reserve(item.Sku, quantities[i])) return "out of stock: " + item.Name;
                lines.Add(new KeyValuePair<Item, int>(item, quantities[i]));
            }
            Money total = Pricing.Total(lines, customer.Tier);
            try
            {
                string txn = payments.Charge(customer, total);
                return "ok " + total + " " + txn;
            }
            catch (PaymentDeclinedException e)
            {
                return "declined: " + e.Message;
            }
        }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            var catalog = new Catalog();
            catalog.Add(new Item("PEN", "Fountain pen", 2450));
            catalog.Add(new Item("INK", "Ink bottle", 690));
            catalog.Add(new Item("PAD", "Notepad", 350));
            var inventory = new Inventory();
            inventory.Restock("PEN", 10);
            inventory.Restock("INK", 20);
            inventory.Restock("PAD", 5);
            var orders = new OrderService(catalog, inventory);

            Console.WriteLine(orders.PlaceOrder(new Customer("Ada", Tier.Gold, "4111111111111111"), new[] { "PEN", "INK" }, new[] { 1, 2 }));
            Console.WriteLine(orders.PlaceOrder(new Customer("Bob", Tier.Standard, "4000000000000000"), new[] { "PAD" }, new[] { 1 }));

            var workers = new Thread[2];
            for (int w = 0; w < workers.Length; w++)
            {
                string name = "Worker" + w;
                workers[w] = new Thread(() => Console.WriteLine(orders.PlaceOrder(new Customer(name, Tier.Silver, "5500000000000004"), new[] { "PAD", "INK" }, new[] { 1, 1 })));
                workers[w].Start();
            }
            foreach (var t in workers) t.Join();
            return 0;
        }
    }
}
