// Exceptions.cs: throws, catches, rethrows, filters, finally blocks,
// generics, inner exceptions, an unhandled exception, and a stress mode.
using System;
using System.Threading;

namespace Acme.Errors
{
    public class ShopException : ApplicationException
    {
        public ShopException(string message) : base(message) { }
        public ShopException() { }
    }

    public class PaymentException : ShopException
    {
        public PaymentException(string message) : base(message) { }
    }

    public class CardDeclinedException : PaymentException
    {
        public CardDeclinedException(string message) : base(message) { }
    }

    // Built without a message: Exception() leaves _message null.
    public class Quiet : Exception
    {
        public Quiet() { }
    }

    public static class Levels
    {
        public static int Top()
        {
            try { return Middle(); }
            catch (InvalidOperationException) { return -1; }
        }

        public static int Middle() { return Bottom() + 1; }

        public static int Bottom() { throw new InvalidOperationException("boom at the bottom"); }
    }

    public static class Custom
    {
        public static string Catch()
        {
            try { Charge(); return "charged"; }
            catch (ShopException e) { return "caught " + e.GetType().Name; }
        }

        public static void Charge() { throw new CardDeclinedException("card 4000 declined"); }

        public static string CatchQuiet()
        {
            try { Silent(); return "no"; }
            catch (Quiet) { return "quiet caught"; }
        }

        public static void Silent() { throw new Quiet(); }

        public static string CatchInner()
        {
            try { Wrap(); return "no"; }
            catch (InvalidOperationException e) { return "inner " + e.InnerException.Message; }
        }

        public static void Wrap()
        {
            try { Parse("x"); }
            catch (FormatException e) { throw new InvalidOperationException("wrapped", e); }
        }

        public static int Parse(string s) { throw new FormatException("not a number: " + s); }
    }

    public static class Flow
    {
        public static string Rethrow()
        {
            try { Again(); return "no"; }
            catch (ArgumentException e) { return "rethrown " + e.Message; }
        }

        public static void Again()
        {
            try { Fail("first"); }
            catch (ArgumentException) { throw; }
        }

        public static void Fail(string what) { throw new ArgumentException(what); }

        public static string Finally()
        {
            try { WithFinally(); return "no"; }
            catch (TimeoutException) { return "finally ran " + cleaned; }
        }

        static int cleaned;

        public static void WithFinally()
        {
            try { Slow(); }
            finally { Cleanup(); }
        }

        public static void Slow() { throw new TimeoutException("too slow"); }
        public static void Cleanup() { cleaned++; }

        public static string Filter()
        {
            try { Code(404); return "no"; }
            catch (ApplicationException e) when (IsNotFound(e)) { return "filtered"; }
        }

        public static void Code(int code) { throw new ApplicationException("code " + code); }
        public static bool IsNotFound(Exception e) { return e.Message.EndsWith("404"); }
    }

    public static class Tasks
    {
        public static string Fault()
        {
            var t = System.Threading.Tasks.Task.Run(() => Faulty());
            try { t.Wait(); return "no"; }
            catch (AggregateException e) { return "task " + e.InnerException.Message; }
        }

        public static int Faulty() { throw new InvalidOperationException("in a task"); }

        // An exception thrown and caught inside the framework, under a
        // traced call: only the traced caller sees it.
        public static string Framework()
        {
            try { return "parsed " + Convert.ToInt32("not a number"); }
            catch (FormatException) { return "framework threw"; }
        }
    }

    public class Box<T>
    {
        public U Open<U>(U value) { throw new NotSupportedException("cannot open " + typeof(T).Name); }

        public static string Try(T item)
        {
            try { new Box<T>().Open<int>(1); return "no"; }
            catch (NotSupportedException e) { return e.Message; }
        }
    }

    public static class Unhandled
    {
        public static void Outer() { Inner(); }
        public static void Inner() { throw new InvalidProgramException("nobody catches this"); }
    }

    public static class Stress
    {
        public static int Throw(int i) { throw new InvalidOperationException("n" + i); }

        public static int Catch(int i)
        {
            try { return Throw(i); }
            catch (InvalidOperationException) { return 1; }
        }

        public static int Run(int n)
        {
            int caught = 0;
            for (int i = 0; i < n; i++) caught += Catch(i);
            return caught;
        }
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : "all";
        if (mode == "all")
        {
            Console.WriteLine("levels " + Acme.Errors.Levels.Top());
            Console.WriteLine(Acme.Errors.Custom.Catch());
            Console.WriteLine(Acme.Errors.Custom.CatchQuiet());
            Console.WriteLine(Acme.Errors.Custom.CatchInner());
            Console.WriteLine(Acme.Errors.Flow.Rethrow());
            Console.WriteLine(Acme.Errors.Flow.Finally());
            Console.WriteLine(Acme.Errors.Flow.Filter());
            Console.WriteLine(Acme.Errors.Box<string>.Try("s"));
            Console.WriteLine(Acme.Errors.Tasks.Fault());
            Console.WriteLine(Acme.Errors.Tasks.Framework());
        }
        if (mode == "unhandled")
        {
            Console.WriteLine("before");
            Acme.Errors.Unhandled.Outer();
        }
        if (mode == "rate")
        {
            // Exceptions thrown and caught at perSecond for seconds, paced
            // in 1 ms slices; the achieved rate goes to stderr.
            int perSecond = int.Parse(args[1]);
            double seconds = double.Parse(args[2]);
            long total = (long)(perSecond * seconds), done = 0, caught = 0;
            var sw = System.Diagnostics.Stopwatch.StartNew();
            while (done < total)
            {
                long due = (long)(sw.Elapsed.TotalSeconds * perSecond);
                while (done < due && done < total) caught += Acme.Errors.Stress.Catch((int)done++);
                Thread.Sleep(1);
            }
            Console.WriteLine("caught " + caught);
            Console.Error.WriteLine("rate " + (long)(done / sw.Elapsed.TotalSeconds));
        }
        if (mode == "stress")
        {
            int threads = 4, each = int.Parse(args[1]);
            var ts = new Thread[threads];
            int total = 0;
            for (int t = 0; t < threads; t++)
            {
                ts[t] = new Thread(() => { int c = Acme.Errors.Stress.Run(each); Interlocked.Add(ref total, c); });
                ts[t].Start();
            }
            foreach (var t in ts) t.Join();
            Console.WriteLine("caught " + total);
        }
        return 0;
    }
}
