// CalcTests: NUnit 2.6 tests that NUnitRun runs, with NUnit's classic and
// constraint assertions, expected exceptions, collections and strings.
// Two tests fail on purpose (their messages are NUnit's own).
using System;
using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace Calc.Tests
{
    public class Account
    {
        readonly List<decimal> moves = new List<decimal>();
        public string Owner { get; private set; }
        public Account(string owner) { Owner = owner; }
        public decimal Balance { get { return moves.Sum(); } }
        public void Deposit(decimal m) { if (m <= 0) throw new ArgumentOutOfRangeException("m"); moves.Add(m); }
        public void Withdraw(decimal m) { if (m > Balance) throw new InvalidOperationException("insufficient funds"); moves.Add(-m); }
        public IEnumerable<decimal> Moves { get { return moves; } }
    }

    [TestFixture]
    public class AccountTests
    {
        Account acct;
        int setups;

        [SetUp] public void Open() { acct = new Account("ada"); acct.Deposit(100m); setups++; }

        [Test] public void Deposits() { acct.Deposit(25.5m); Assert.AreEqual(125.5m, acct.Balance); }
        [Test] public void Withdraws() { acct.Withdraw(40m); Assert.That(acct.Balance, Is.EqualTo(60m)); }
        [Test] public void Overdraws() { var e = Assert.Throws<InvalidOperationException>(() => acct.Withdraw(1000m)); StringAssert.Contains("insufficient", e.Message); }
        [Test] public void RejectsZero() { Assert.That(() => acct.Deposit(0m), Throws.TypeOf<ArgumentOutOfRangeException>()); }
        [Test] public void Moves() { acct.Withdraw(1m); CollectionAssert.AreEqual(new[] { 100m, -1m }, acct.Moves.ToArray()); Assert.That(acct.Moves, Has.Member(-1m)); }
        [Test] public void Owner() { Assert.That(acct.Owner, Is.Not.Null.And.StartsWith("a").And.Length.EqualTo(3)); }
        [Test] public void FreshEachTime() { Assert.Greater(setups, 0); Assert.AreEqual(100m, acct.Balance); }
        [Test] public void WrongOnPurpose() { Assert.AreEqual(101m, acct.Balance, "balance after opening"); }
        [Test, Ignore("kept for later")] public void Interest() { }
    }

    [TestFixture]
    public class MathTests
    {
        [TestCase(2, 3, Result = 5)]
        [TestCase(-4, 4, Result = 0)]
        [TestCase(int.MaxValue, 0, Result = int.MaxValue)]
        public int Adds(int a, int b) { return a + b; }

        [TestCase(12, 18, 6)]
        [TestCase(17, 5, 1)]
        [TestCase(0, 9, 9)]
        public void Gcd(int a, int b, int g) { Assert.That(G(a, b), Is.EqualTo(g)); }

        static int G(int a, int b) { return b == 0 ? a : G(b, a % b); }

        [Test] public void Floats() { Assert.AreEqual(0.3, 0.1 + 0.2, 1e-9); Assert.That(Math.Sqrt(2), Is.EqualTo(1.41421).Within(0.0001)); }
        [Test] public void Ranges() { Assert.That(Enumerable.Range(1, 5), Is.Ordered.And.All.InRange(1, 5)); Assert.That(new[] { 3, 1, 2 }, Is.EquivalentTo(new[] { 1, 2, 3 })); }
        [Test] public void Strings() { Assert.That("Hello, World", Is.StringContaining("World").IgnoreCase); StringAssert.EndsWith("rld", "Hello, World"); }
        [Test] public void Dictionaries() { var d = new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }; Assert.That(d, Has.Count.EqualTo(2)); Assert.That(d.Keys, Contains.Item("b")); }
        [Test] public void ListsDifferOnPurpose() { Assert.That(new List<int> { 1, 2, 3 }, Is.EqualTo(new List<int> { 1, 2, 4 })); }
        [Test] public void Passes() { Assert.Pass("fine"); }
        [Test] public void IgnoresAtRunTime() { Assert.Ignore("not on this platform"); }
    }
}
