// ZipTrip drives Debian's SharpZipLib 0.84 (libmono-sharpzip4.84-cil):
// writes a zip of eight generated text files, reads it back with CRCs,
// then gzips and bzip2s a buffer. A driver for the real-program suite:
// the work is SharpZipLib's deflate, inflate, CRC and BZip2 code.
using System;
using System.IO;
using System.Text;
using ICSharpCode.SharpZipLib.Zip;
using ICSharpCode.SharpZipLib.GZip;
using ICSharpCode.SharpZipLib.BZip2;
using ICSharpCode.SharpZipLib.Checksums;

static class ZipTrip
{
    static int Main(string[] args)
    {
        var ms = new MemoryStream();
        var zs = new ZipOutputStream(ms);
        zs.SetLevel(6);
        for (int i = 0; i < 8; i++)
        {
            var e = new ZipEntry("dir/file" + i + ".txt");
            e.DateTime = new DateTime(2026, 1, 1 + i);
            zs.PutNextEntry(e);
            var sb = new StringBuilder();
            for (int k = 0; k < 400 * (i + 1); k++) sb.Append("line ").Append(k * i).Append('\n');
            var b = Encoding.ASCII.GetBytes(sb.ToString());
            zs.Write(b, 0, b.Length);
        }
        zs.Finish();
        Console.WriteLine("zip " + ms.Length);
        ms.Position = 0;
        var zin = new ZipInputStream(ms);
        ZipEntry z;
        while ((z = zin.GetNextEntry()) != null)
        {
            var crc = new Crc32();
            var buf = new byte[4096]; int n; long len = 0;
            while ((n = zin.Read(buf, 0, buf.Length)) > 0) { crc.Update(buf, 0, n); len += n; }
            Console.WriteLine(z.Name + " " + len + " crc " + crc.Value.ToString("x8"));
        }
        var raw = Encoding.UTF8.GetBytes(new string('a', 5000) + "xyz" + new string('b', 3000));
        var g = new MemoryStream();
        using (var gz = new GZipOutputStream(g)) { gz.IsStreamOwner = false; gz.Write(raw, 0, raw.Length); }
        var bz = new MemoryStream();
        BZip2.Compress(new MemoryStream(raw), bz, 4096);
        Console.WriteLine("gzip " + g.Length + " bzip2 " + bz.ToArray().Length);
        return 0;
    }
}
