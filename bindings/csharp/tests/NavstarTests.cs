// SPDX-License-Identifier: MIT
//
// The C# binding, run under Mono against libnavstar.so: meshes, paths and their corners,
// the no-allocation path call, options, every documented error with its message, handle
// lifetimes, threads and worlds of tiles. Compiled together with the binding's sources
// (so the raw P/Invoke declarations can be called with NULLs too), and a second time with
// UNITY_5_3_OR_NEWER against UnityEngineStub.cs for the Unity overloads. The last line
// printed is "N passed, M failed"; the exit code is 1 when M > 0.
//
//   mcs -unsafe -langversion:7.2 -warnaserror -out:NavstarTests.exe \
//       bindings/csharp/unity/Runtime/*.cs bindings/csharp/tests/NavstarTests.cs
//   LD_LIBRARY_PATH=target/debug mono --debug NavstarTests.exe
//
// The main mesh (seen from above, Y up, all at y = 0) is a U of unit quads plus an island:
//
//   z=3 +---+   +---+
//       | 5 |   | 6 |
//   z=2 +---+   +---+
//       | 3 |   | 4 |
//   z=1 +---+---+---+
//       | 0 | 1 | 2 |         +---+
//   z=0 +---+---+---+         | 7 |
//      x=0 x=1 x=2 x=3      x=5 x=6

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;
using Navstar;
using Vector3 = Navstar.Vector3;

internal static unsafe partial class NavstarTests
{
    private static int passed;
    private static int failed;

    private static readonly Vector3[] UTurn =
    {
        new Vector3(0.5f, 0, 2.5f), new Vector3(1, 0, 1), new Vector3(2, 0, 1), new Vector3(2.5f, 0, 2.5f),
    };

    private static int Main()
    {
        Console.WriteLine("navstar " + NavstarLibrary.VersionString + " from C# on " + Environment.Version +
                          (IsUnityBuild() ? " (UNITY_5_3_OR_NEWER, stub UnityEngine)" : ""));
        Run("library", TestLibrary);
        Run("paths", TestPaths);
        Run("buffers", TestBuffers);
        Run("no allocation", TestNoAllocation);
        Run("path errors", TestPathErrors);
        Run("mesh errors", TestMeshErrors);
        Run("NULL and argument checks", TestNullAndArguments);
        Run("handles", TestHandles);
        Run("grid, Z up, welding", TestGridZUpWelding);
        Run("threads", TestThreads);
        Run("filters, flags, links, path details", TestFiltersFlagsLinks);
        Run("nearest target, reachable polygons", TestTargetsAndFlood);
        Run("nearest point, raycast, interpolation", TestSpatialQueries);
        Run("degenerate connectors", TestDegenerateConnectors);
        Run("save and load, query options", TestSaveLoadAndQueryOptions);
        Run("worlds of tiles", TestWorld);
        Run("obstacles", TestObstacles);
        Run("loading files, reading meshes back", TestLoadAndReadBack);
        Run("agents: move along the surface, walls, random points", TestAgents);
        Run("time-sliced path searches", TestSliced);
        Run("corridor: corners, moves, repair", TestCorridor);
#if UNITY_5_3_OR_NEWER
        Run("Unity overloads", UnityTests.Run);
        Run("Unity idioms: Vector3 twins, areas, NavstarNavMesh", UnityIdiomTests.Run);
#endif
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed > 0 ? 1 : 0;
    }

    private static bool IsUnityBuild()
    {
#if UNITY_5_3_OR_NEWER
        return true;
#else
        return false;
#endif
    }

    // ---------------------------------------------------------------------------------
    // Helpers

    private static void Run(string name, Action test)
    {
        Console.WriteLine("-- " + name);
        try
        {
            test();
        }
        catch (Exception e)
        {
            Check(false, name + " threw " + e);
        }
    }

    internal static void Check(bool ok, string what)
    {
        Console.WriteLine((ok ? "PASS: " : "FAIL: ") + what);
        if (ok)
        {
            passed++;
        }
        else
        {
            failed++;
        }
    }

    internal static void ExpectStatus(Status got, Status want, string what)
    {
        string message = got < 0 ? "; message: " + NavstarLibrary.LastErrorMessage : "";
        Check(got == want, what + ": " + NavstarLibrary.StatusName(got) + " (want " + NavstarLibrary.StatusName(want) +
                           ")" + message);
    }

    // An error status whose thread-local message names the culprit.
    internal static void ExpectError(Status got, Status want, string culprit, string what)
    {
        string message = NavstarLibrary.LastErrorMessage; // read before any other call
        Check(got == want, what + ": " + NavstarLibrary.StatusName(got) + " (want " + NavstarLibrary.StatusName(want) +
                           ")");
        Check(message.Contains(culprit), what + ": message \"" + message + "\" names \"" + culprit + "\"");
    }

    // A convenience call that must throw NavstarException with the status and message.
    internal static void ExpectThrows(Action call, Status want, string culprit, string what)
    {
        try
        {
            call();
            Check(false, what + ": no exception");
        }
        catch (NavstarException e)
        {
            Check(e.Status == want && e.Message.Contains(culprit),
                  what + ": NavstarException " + e.Status + " \"" + e.Message + "\" (want " + want + ", \"" +
                  culprit + "\")");
        }
    }

    internal static void ExpectException<T>(Action call, string culprit, string what)
        where T : Exception
    {
        try
        {
            call();
            Check(false, what + ": no exception");
        }
        catch (Exception e)
        {
            Check(e is T && e.Message.Contains(culprit),
                  what + ": " + e.GetType().Name + " \"" + e.Message.Replace(Environment.NewLine, " ") + "\" (want " +
                  typeof(T).Name + ")");
        }
    }

    internal static bool Near(float ax, float ay, float az, Vector3 b)
    {
        return Math.Abs(ax - b.X) <= 1e-4f && Math.Abs(ay - b.Y) <= 1e-4f && Math.Abs(az - b.Z) <= 1e-4f;
    }

    internal static bool Near(Vector3 a, Vector3 b)
    {
        return Near(a.X, a.Y, a.Z, b);
    }

    internal static void ExpectPath(Vector3[] got, int count, Vector3[] want, string what)
    {
        bool same = count == want.Length;
        for (int i = 0; same && i < count; i++)
        {
            same = Near(got[i], want[i]);
        }
        Check(same, what + ": " + count + " points (want " + want.Length + ")");
        if (!same)
        {
            for (int i = 0; i < count && i < got.Length; i++)
            {
                Console.WriteLine("      got  " + got[i]);
            }
            foreach (Vector3 p in want)
            {
                Console.WriteLine("      want " + p);
            }
        }
    }

    internal static void ExpectPath(Vector3[] got, Vector3[] want, string what)
    {
        ExpectPath(got, got.Length, want, what);
    }

    internal static Vector3 V(float x, float y, float z)
    {
        return new Vector3(x, y, z);
    }

    // The U mesh: a 4x4 vertex grid (index 4 * z + x), the island's corners 16..19.
    internal static void UMesh(out Vector3[] vertices, out int[] indices, out int[] sizes)
    {
        var points = new List<Vector3>();
        for (int z = 0; z < 4; z++)
        {
            for (int x = 0; x < 4; x++)
            {
                points.Add(V(x, 0, z));
            }
        }
        points.AddRange(new[] { V(5, 0, 0), V(6, 0, 0), V(6, 0, 1), V(5, 0, 1) });
        var corners = new List<int>();
        var counts = new List<int>();
        int[,] cells = { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 0, 1 }, { 2, 1 }, { 0, 2 }, { 2, 2 } };
        for (int c = 0; c < cells.GetLength(0); c++)
        {
            int x = cells[c, 0], z = cells[c, 1];
            corners.AddRange(new[] { 4 * z + x, 4 * z + x + 1, 4 * (z + 1) + x + 1, 4 * (z + 1) + x });
            counts.Add(4);
        }
        corners.AddRange(new[] { 16, 17, 18, 19 });
        counts.Add(4);
        vertices = points.ToArray();
        indices = corners.ToArray();
        sizes = counts.ToArray();
    }

    internal static NavstarMesh MakeUMesh()
    {
        Vector3[] vertices;
        int[] indices, sizes;
        UMesh(out vertices, out indices, out sizes);
        return NavstarMesh.Create(vertices, indices, sizes);
    }

    // ---------------------------------------------------------------------------------
    // Tests

    private static void TestLibrary()
    {
        Check(NavstarLibrary.Version > 0 && NavstarLibrary.VersionString.Contains("."),
              "version " + NavstarLibrary.VersionString);
        Check(NavstarLibrary.StatusName(Status.ErrorInvalidMesh) == "NAVSTAR_ERROR_INVALID_MESH" &&
              NavstarLibrary.StatusName((Status)12345) == "unknown status", "status names");
        Check(sizeof(Vector3) == 12 && Marshal.SizeOf(typeof(MeshOptions)) == 24 &&
              Marshal.SizeOf(typeof(PathOptions)) == 32 + 2 * IntPtr.Size, "struct sizes match navstar.h (12, 24, 32 + 2 pointers)");

        MeshOptions mesh = MeshOptions.Default;
        Check(mesh.StructSize == 24 && mesh.UpAxis == UpAxis.Y && mesh.WeldVertices && mesh.WeldDistance == 0 &&
              !mesh.AllowDegenerateConnectors && mesh.AgentRadius == 0,
              "MeshOptions.Default: struct size 24, Y up, welding at distance 0, no degenerate connectors, radius 0");
        PathOptions path = PathOptions.Default;
        Check(path.StructSize == 32 + 2 * IntPtr.Size && path.Strategy == SearchStrategy.AStar && path.HeuristicWeight == 1 &&
              float.IsPositiveInfinity(path.MaxSnapDistance) && path.AllowPartial && path.Mode == PathMode.Auto &&
              path.AgentRadius == 0,
              "PathOptions.Default: struct size 32 + 2 pointers, A*, weight 1, unlimited snapping, partial allowed, funnel mode, radius 0");
    }

    private static void TestPaths()
    {
        NavstarQuery query;
        using (NavstarMesh mesh = MakeUMesh())
        {
            Check(mesh.PolygonCount == 8, "the U mesh has 8 polygons");
            ExpectStatus(NavstarQuery.TryCreate(mesh, out query), Status.Ok, "TryCreate query");
        }
        // The mesh is disposed; the query holds its own reference.
        using (query)
        {
            ExpectPath(query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f)), UTurn, "U-turn around (1,1) and (2,1)");
            ExpectPath(query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 0.5f)),
                       new[] { V(0.5f, 0, 2.5f), V(1, 0, 1), V(2.5f, 0, 0.5f) }, "L-turn at (1,1)");
            ExpectPath(query.FindPath(V(0.2f, 0, 0.2f), V(2.7f, 0, 0.8f)),
                       new[] { V(0.2f, 0, 0.2f), V(2.7f, 0, 0.8f) }, "direct sight gives 2 points");
            ExpectPath(query.FindPath(V(0.5f, 2, 2.5f), V(2.5f, 0, 0.5f)),
                       new[] { V(0.5f, 0, 2.5f), V(1, 0, 1), V(2.5f, 0, 0.5f) }, "start 2 above is snapped");

            bool partial;
            Vector3[] toIsland = query.FindPath(V(0.5f, 0, 2.5f), V(5.5f, 0, 0.5f), PathOptions.Default, out partial);
            Check(partial, "goal on the island: partial");
            ExpectPath(toIsland, new[] { V(0.5f, 0, 2.5f), V(1, 0, 1), V(3, 0, 0.5f) },
                       "partial path ends at (3, 0, 0.5)");
            query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), PathOptions.Default, out partial);
            Check(!partial, "a reachable goal: not partial");

            // A disc of radius 0.25 goes round the U's inner corners (1, 1) and (2, 1) at
            // 0.25 at least, in both modes; a negative radius is an error naming it.
            foreach (PathMode mode in new[] { PathMode.Funnel, PathMode.Optimal })
            {
                PathOptions disc = PathOptions.Default;
                disc.AgentRadius = 0.25f;
                disc.Mode = mode;
                Vector3[] wide = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), disc, out partial);
                Check(!partial && wide.Length > UTurn.Length, "a disc's U-turn is complete, with arc corners");
                double least = double.MaxValue;
                for (int i = 0; i + 1 < wide.Length; i++)
                {
                    least = Math.Min(least, Math.Min(SegmentDistance(V(1, 0, 1), wide[i], wide[i + 1]),
                                                     SegmentDistance(V(2, 0, 1), wide[i], wide[i + 1])));
                }
                Check(least >= 0.25 - 1e-4, "the disc's path keeps 0.25 from the inner corners: " + least);
                // Its turns: round (1, 1), then (2, 1), each point between 0.25 and the
                // octagon's reach from its centre.
                PathArc[] arcs = query.GetPathArcs();
                Check(arcs.Length == 2 && arcs[0].Centre.X == 1 && arcs[0].Centre.Z == 1 && arcs[1].Centre.X == 2 &&
                      arcs[1].Centre.Z == 1 && arcs[0].Radius == 0.25f && arcs[0].LastPoint < arcs[1].FirstPoint &&
                      arcs[1].LastPoint + 1 < wide.Length, "two turns, round (1, 1) then (2, 1)");
                foreach (PathArc arc in arcs)
                {
                    for (int i = arc.FirstPoint; i <= arc.LastPoint; i++)
                    {
                        double d = Math.Sqrt(Math.Pow(wide[i].X - arc.Centre.X, 2) + Math.Pow(wide[i].Z - arc.Centre.Z, 2));
                        Check(d >= 0.25 - 1e-4 && d <= 0.25 / Math.Cos(Math.PI / 8) + 1e-4, "a turn's point lies round its centre: " + d);
                    }
                }
                int arcCount;
                Check(query.GetPathArcs(new PathArc[1], out arcCount) == Status.BufferTooSmall && arcCount == 2,
                      "GetPathArcs into a buffer of 1: BufferTooSmall, count 2");
            }
            query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), PathOptions.Default, out partial);
            Check(query.GetPathArcs().Length == 0, "no turns without a radius");
            PathOptions negative = PathOptions.Default;
            negative.AgentRadius = -1;
            ExpectThrows(() => query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), negative), Status.ErrorInvalidArgument,
                         "agent_radius", "FindPath with a negative radius");

            // A path longer than the per-thread scratch array (64 points) still comes back whole.
            LongPath();
        }
    }

    // The ground-plane distance from p to the segment a..b.
    private static double SegmentDistance(Vector3 p, Vector3 a, Vector3 b)
    {
        double ex = b.X - a.X, ez = b.Z - a.Z, px = p.X - a.X, pz = p.Z - a.Z;
        double len2 = ex * ex + ez * ez;
        double t = len2 > 0 ? Math.Max(0, Math.Min(1, (px * ex + pz * ez) / len2)) : 0;
        double dx = px - t * ex, dz = pz - t * ez;
        return Math.Sqrt(dx * dx + dz * dz);
    }

    // A grid mesh whose shortest path has more corners than the 64-point scratch array.
    private static void LongPath()
    {
        const int teeth = 40;
        // A serpentine made of unit cells: column x = 2k is a vertical strip of 3 cells; strips
        // are joined by a cell at the bottom (odd k) or the top (even k).
        var cellList = new List<int[]>();
        for (int k = 0; k < teeth; k++)
        {
            for (int z = 0; z < 3; z++)
            {
                cellList.Add(new[] { 2 * k, z });
            }
            if (k + 1 < teeth)
            {
                cellList.Add(new[] { 2 * k + 1, k % 2 == 0 ? 2 : 0 });
            }
        }
        int width = 2 * teeth, height = 3;
        var cells = new byte[width * height];
        foreach (int[] c in cellList)
        {
            cells[c[1] * width + c[0]] = 1;
        }
        using (NavstarMesh comb = NavstarMesh.CreateFromGrid(cells, width, height, 1.0f, V(0, 0, 0)))
        using (NavstarQuery query = comb.CreateQuery())
        {
            Vector3[] path = query.FindPath(V(0.5f, 0, 0.5f), V(2 * teeth - 1.5f, 0, teeth % 2 == 0 ? 0.5f : 2.5f));
            Check(path.Length > 64, "serpentine path has " + path.Length + " points (> 64)");
            Check(Near(path[0], V(0.5f, 0, 0.5f)) && Near(path[path.Length - 1], V(2 * teeth - 1.5f, 0, teeth % 2 == 0 ? 0.5f : 2.5f)),
                  "it starts and ends at start and goal");
            int count;
            Status s = query.FindPath(V(0.5f, 0, 0.5f), V(2 * teeth - 1.5f, 0, teeth % 2 == 0 ? 0.5f : 2.5f), null, out count);
            Check(s == Status.BufferTooSmall && count == path.Length, "the count alone agrees: " + count);
        }
    }

    private static void TestBuffers()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = mesh.CreateQuery())
        {
            var buffer = new Vector3[8];
            int count;
            Status s = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), buffer, out count);
            ExpectStatus(s, Status.Ok, "into an 8-point buffer");
            ExpectPath(buffer, count, UTurn, "the buffer holds the U-turn");

            var small = new Vector3[3];
            small[2] = V(-7, -7, -7);
            var two = new Vector3[2];
            s = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), two, out count);
            ExpectStatus(s, Status.BufferTooSmall, "a 2-point buffer");
            Check(count == 4 && Near(two[0], UTurn[0]) && Near(two[1], UTurn[1]),
                  "BufferTooSmall: the first 2 points and the full count 4");

            s = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), null, out count);
            Check(s == Status.BufferTooSmall && count == 4, "a null buffer asks for the count: 4");
            s = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), new Vector3[0], out count);
            Check(s == Status.BufferTooSmall && count == 4, "an empty buffer asks for the count: 4");

            // The raw call with a sentinel past the capacity.
            float* start = stackalloc float[3];
            float* goal = stackalloc float[3];
            start[0] = 0.5f; start[1] = 0; start[2] = 2.5f;
            goal[0] = 2.5f; goal[1] = 0; goal[2] = 2.5f;
            fixed (Vector3* p = small)
            {
                s = query.Find(start, goal, null, (float*)p, 2, out count);
            }
            Check(s == Status.BufferTooSmall && count == 4 && small[2] == V(-7, -7, -7),
                  "nothing is written past the capacity");

            PathOptions options = PathOptions.Default;
            options.HeuristicWeight = 2;
            s = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), options, buffer, out count);
            Check(s == Status.Ok && count == 4, "with options into a buffer");
        }
    }

    private static void TestNoAllocation()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = mesh.CreateQuery())
        {
            var buffer = new Vector3[16];
            PathOptions options = PathOptions.Default;
            int count;
            bool ok = true;
            for (int i = 0; i < 10; i++) // warm up (JIT, first P/Invoke binding)
            {
                ok &= query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), buffer, out count) == Status.Ok;
                ok &= query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), options, buffer, out count) == Status.Ok;
            }
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000; i++)
            {
                ok &= query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), buffer, out count) == Status.Ok;
                ok &= query.FindPath(V(0.2f, 0, 0.2f), V(2.7f, 0, 0.8f), options, buffer, out count) == Status.Ok;
            }
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Check(ok && allocated == 0, "2000 FindPath calls into a buffer allocated " + allocated + " managed bytes");
            // The counter does see allocations (so the 0 above means something).
            before = GC.GetAllocatedBytesForCurrentThread();
            Vector3[] fresh = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f));
            allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Check(fresh.Length == 4 && allocated >= 4 * 12, "the array-returning FindPath allocates (" + allocated +
                                                            " bytes): the counter works");
        }
    }

    private static void TestPathErrors()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = mesh.CreateQuery())
        {
            var buffer = new Vector3[8];
            int count;
            Status s = query.FindPath(V(float.NaN, 0, 0), V(2.5f, 0, 0.5f), buffer, out count);
            ExpectError(s, Status.ErrorInvalidArgument, "start has a non-finite", "NaN start");
            Check(count == 0, "count 0 after an error");
            s = query.FindPath(V(0.5f, 0, 2.5f), V(0, float.PositiveInfinity, 0), buffer, out count);
            ExpectError(s, Status.ErrorInvalidArgument, "goal has a non-finite", "infinite goal");

            PathOptions options = PathOptions.Default;
            options.AllowPartial = false;
            s = query.FindPath(V(0.5f, 0, 2.5f), V(5.5f, 0, 0.5f), options, buffer, out count);
            ExpectError(s, Status.ErrorNoPath, "unreachable", "AllowPartial = false");

            options = PathOptions.Default;
            options.MaxSnapDistance = 1;
            s = query.FindPath(V(0.5f, 2, 2.5f), V(2.5f, 0, 0.5f), options, buffer, out count);
            ExpectError(s, Status.ErrorNotOnMesh, "start point", "start 2 above, snap distance 1");

            options = PathOptions.Default;
            options.HeuristicWeight = float.NaN;
            s = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 0.5f), options, buffer, out count);
            ExpectError(s, Status.ErrorInvalidArgument, "heuristic_weight", "NaN heuristic weight");

            s = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 0.5f), new PathOptions(), buffer, out count);
            ExpectError(s, Status.ErrorInvalidArgument, "struct_size is 0", "new PathOptions() (not Default)");

            s = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), buffer, out count);
            Check(s == Status.Ok && NavstarLibrary.LastErrorMessage == "", "a success clears the message");

            // The convenience overloads throw with status and message.
            ExpectThrows(() => query.FindPath(V(float.NaN, 0, 0), V(2.5f, 0, 0.5f)), Status.ErrorInvalidArgument,
                         "start has a non-finite", "FindPath(NaN, goal)");
            options = PathOptions.Default;
            options.AllowPartial = false;
            PathOptions noPartial = options;
            ExpectThrows(() => query.FindPath(V(0.5f, 0, 2.5f), V(5.5f, 0, 0.5f), noPartial), Status.ErrorNoPath,
                         "unreachable", "FindPath to the island without partial paths");
        }
    }

    private static void TestMeshErrors()
    {
        Vector3[] vertices;
        int[] indices, sizes;
        UMesh(out vertices, out indices, out sizes);
        NavstarMesh mesh;

        var bad = (Vector3[])vertices.Clone();
        bad[5].Y = float.NaN;
        Status s = NavstarMesh.TryCreate(bad, indices, sizes, out mesh);
        ExpectError(s, Status.ErrorInvalidMesh, "vertex 5", "NaN in vertex 5");
        Check(mesh == null, "no mesh after an error");
        ExpectThrows(() => NavstarMesh.Create(bad, indices, sizes), Status.ErrorInvalidMesh, "vertex 5",
                     "Create with a NaN vertex");

        var badIndices = (int[])indices.Clone();
        badIndices[4 * 2 + 1] = 20;
        s = NavstarMesh.TryCreate(vertices, badIndices, sizes, out mesh);
        ExpectError(s, Status.ErrorInvalidMesh, "polygon 2", "index 20 out of range in polygon 2");
        badIndices[4 * 2 + 1] = -1;
        s = NavstarMesh.TryCreate(vertices, badIndices, sizes, out mesh);
        ExpectError(s, Status.ErrorInvalidMesh, "4294967295", "index -1 (read as 4294967295)");

        bad = (Vector3[])vertices.Clone();
        bad[5] = V(0.4f, 0, 0.4f);
        s = NavstarMesh.TryCreate(bad, indices, sizes, out mesh);
        ExpectError(s, Status.ErrorInvalidMesh, "polygon 0 is not convex", "vertex 5 pushed inside polygon 0");

        var moreIndices = new List<int>(indices) { 1, 5, 18 };
        var moreSizes = new List<int>(sizes) { 3 };
        s = NavstarMesh.TryCreate(vertices, moreIndices.ToArray(), moreSizes.ToArray(), out mesh);
        ExpectError(s, Status.ErrorInvalidMesh, "more than two polygons (0, 1, 8)", "edge shared by 3 polygons");

        s = NavstarMesh.TryCreate(vertices, new int[0], null, out mesh);
        ExpectError(s, Status.ErrorInvalidMesh, "zero polygons", "zero polygons");

        MeshOptions options = MeshOptions.Default;
        options.UpAxis = (UpAxis)7;
        s = NavstarMesh.TryCreate(vertices, indices, sizes, options, out mesh);
        ExpectError(s, Status.ErrorInvalidArgument, "up_axis is 7", "UpAxis 7");
        s = NavstarMesh.TryCreate(vertices, indices, sizes, new MeshOptions(), out mesh);
        ExpectError(s, Status.ErrorInvalidArgument, "struct_size is 0", "new MeshOptions() (not Default)");
        options = MeshOptions.Default;
        options.WeldDistance = -1;
        ExpectThrows(() => NavstarMesh.Create(vertices, indices, sizes, options), Status.ErrorInvalidArgument,
                     "weld_distance", "Create with weld distance -1");
    }

    private static void TestNullAndArguments()
    {
        Vector3[] vertices;
        int[] indices, sizes;
        UMesh(out vertices, out indices, out sizes);
        NavstarMesh mesh;

        // Null arrays and mismatched lengths are programming errors: .NET argument exceptions.
        ExpectException<ArgumentNullException>(() => NavstarMesh.TryCreate((Vector3[])null, indices, sizes, out mesh),
                                               "vertices", "null vertices");
        ExpectException<ArgumentNullException>(() => NavstarMesh.TryCreate(vertices, null, sizes, out mesh),
                                               "indices", "null indices");
        ExpectException<ArgumentException>(() => NavstarMesh.TryCreate(vertices, new[] { 0, 1, 2, 3 }, null, out mesh),
                                           "not a multiple of 3", "4 triangle indices");
        var longer = (int[])sizes.Clone();
        longer[0] = 5;
        ExpectException<ArgumentException>(() => NavstarMesh.TryCreate(vertices, indices, longer, out mesh),
                                           "add up to 33 corners but indices has 32", "sizes longer than indices");
        ExpectException<ArgumentException>(
            () => NavstarMesh.TryCreateFromGrid(new byte[3], 2, 2, 1, V(0, 0, 0), out mesh), "width * height is 4",
            "grid of 3 cells for 2 x 2");
        ExpectException<ArgumentNullException>(() => NavstarQuery.TryCreate(null, out _), "mesh", "null mesh");

        // The C ABI's NULL checks, through the raw declarations.
        fixed (Vector3* v = vertices)
        fixed (int* i = indices)
        {
            IntPtr raw = new IntPtr(1);
            Status s = NativeMethods.navstar_mesh_create_raw(null, 4, (uint*)i, null, 1, null, &raw);
            ExpectError(s, Status.ErrorNullArgument, "vertices is NULL", "NULL vertices");
            Check(raw == IntPtr.Zero, "*out_mesh is set to NULL on error");
            s = NativeMethods.navstar_mesh_create_raw((float*)v, 20, null, null, 2, null, &raw);
            ExpectError(s, Status.ErrorNullArgument, "indices is NULL", "NULL indices");
            s = NativeMethods.navstar_mesh_create_raw((float*)v, 20, (uint*)i, null, 2, null, null);
            ExpectError(s, Status.ErrorNullArgument, "out_mesh is NULL", "NULL out_mesh");
        }
        IntPtr query = new IntPtr(1);
        ExpectError(NativeMethods.navstar_query_create_raw(IntPtr.Zero, &query), Status.ErrorNullArgument,
                    "mesh is NULL", "query from a NULL mesh");
        Check(query == IntPtr.Zero, "*out_query is set to NULL on error");

        using (NavstarMesh real = MakeUMesh())
        using (NavstarQuery q = real.CreateQuery())
        {
            float* start = stackalloc float[3];
            float* goal = stackalloc float[3];
            start[0] = 0.5f; start[1] = 0; start[2] = 2.5f;
            goal[0] = 2.5f; goal[1] = 0; goal[2] = 2.5f;
            float* points = stackalloc float[12];
            uint count = 7;
            ExpectError(NativeMethods.navstar_find_path_raw(IntPtr.Zero, start, goal, null, points, 4, &count),
                        Status.ErrorNullArgument, "query is NULL", "NULL query");
            Check(count == 0, "*out_count is 0 on error");
            IntPtr handle = q.DangerousGetHandle();
            ExpectError(NativeMethods.navstar_find_path_raw(handle, null, goal, null, points, 4, &count),
                        Status.ErrorNullArgument, "start is NULL", "NULL start");
            ExpectError(NativeMethods.navstar_find_path_raw(handle, start, null, null, points, 4, &count),
                        Status.ErrorNullArgument, "goal is NULL", "NULL goal");
            ExpectError(NativeMethods.navstar_find_path_raw(handle, start, goal, null, null, 4, &count),
                        Status.ErrorNullArgument, "out_points", "NULL out_points with capacity 4");
            ExpectError(NativeMethods.navstar_find_path_raw(handle, start, goal, null, points, 4, null),
                        Status.ErrorNullArgument, "out_count is NULL", "NULL out_count");
            GC.KeepAlive(q);
        }
    }

    private static void TestHandles()
    {
        NavstarMesh mesh = MakeUMesh();
        NavstarQuery query = mesh.CreateQuery();
        mesh.Dispose();
        Check(mesh.IsClosed, "a disposed mesh is closed");
        ExpectException<ObjectDisposedException>(() => mesh.CreateQuery(), "", "CreateQuery on a disposed mesh");
        Check(query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f)).Length == 4, "its query still works");
        query.Dispose();
        query.Dispose(); // twice is fine
        ExpectException<ObjectDisposedException>(() => query.FindPath(V(0, 0, 0), V(1, 0, 1)), "",
                                                 "FindPath on a disposed query");

        // Handles left to the finalizer are freed without a crash.
        for (int i = 0; i < 100; i++)
        {
            MakeUMesh().CreateQuery();
        }
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Check(true, "100 meshes and queries freed by finalizers");
    }

    private static void TestGridZUpWelding()
    {
        // 3 x 3 cells of size 2 from (10, 1, 20), the centre blocked.
        byte[] cells = { 1, 1, 1, 1, 0, 1, 1, 1, 1 };
        using (NavstarMesh grid = NavstarMesh.CreateFromGrid(cells, 3, 3, 2.0f, V(10, 1, 20)))
        using (NavstarQuery query = grid.CreateQuery())
        {
            Vector3[] path = query.FindPath(V(11, 1, 21), V(15, 1, 25));
            Check(path.Length == 3 && (Near(path[1], V(14, 1, 22)) || Near(path[1], V(12, 1, 24))),
                  "grid: around the blocked centre by one of its corners");
        }

        // The U mesh with Z up: (x, 0, z) becomes (x, z, 0).
        Vector3[] vertices;
        int[] indices, sizes;
        UMesh(out vertices, out indices, out sizes);
        for (int i = 0; i < vertices.Length; i++)
        {
            vertices[i] = V(vertices[i].X, vertices[i].Z, 0);
        }
        MeshOptions zUp = MeshOptions.Default;
        zUp.UpAxis = UpAxis.Z;
        using (NavstarMesh mesh = NavstarMesh.Create(vertices, indices, sizes, zUp))
        using (NavstarQuery query = mesh.CreateQuery())
        {
            ExpectPath(query.FindPath(V(0.5f, 2.5f, 0), V(2.5f, 2.5f, 0)),
                       new[] { V(0.5f, 2.5f, 0), V(1, 1, 0), V(2, 1, 0), V(2.5f, 2.5f, 0) }, "Z-up U-turn");
        }

        // Triangles with their own copies of shared corners, as engines export them.
        Vector3[] soup = { V(0, 0, 0), V(2, 0, 0), V(0, 0, 2), V(2, 0, 0), V(2, 0, 2), V(0, 0, 2) };
        int[] triangles = { 0, 1, 2, 3, 4, 5 };
        MeshOptions noWeld = MeshOptions.Default;
        noWeld.WeldVertices = false;
        using (NavstarMesh welded = NavstarMesh.Create(soup, triangles))
        using (NavstarMesh separate = NavstarMesh.Create(soup, triangles, null, noWeld))
        using (NavstarQuery q1 = welded.CreateQuery())
        using (NavstarQuery q2 = separate.CreateQuery())
        {
            bool partial1, partial2;
            q1.FindPath(V(0.2f, 0, 0.2f), V(1.8f, 0, 1.8f), PathOptions.Default, out partial1);
            q2.FindPath(V(0.2f, 0, 0.2f), V(1.8f, 0, 1.8f), PathOptions.Default, out partial2);
            Check(!partial1 && partial2, "welded triangles connect (default); unwelded ones do not");
        }
    }

    // The U mesh with areas and flags, and a one-way link from the U's corner (2.5, 0.5)
    // to the island (5.5, 0.5).
    private static NavstarMesh MakeLinkedUMesh(byte[] areas, uint[] flags)
    {
        Vector3[] vertices;
        int[] indices, sizes;
        UMesh(out vertices, out indices, out sizes);
        OffMeshLink link = OffMeshLink.Between(V(2.5f, 0, 0.5f), V(5.5f, 0, 0.5f), false);
        return NavstarMesh.Create(vertices, indices, sizes, areas, flags, new[] { link });
    }

    private static void TestFiltersFlagsLinks()
    {
        Check(Marshal.SizeOf(typeof(QueryFilter)) == 268 && Marshal.SizeOf(typeof(OffMeshLink)) == 44 &&
              Marshal.SizeOf(typeof(MeshRaycastHit)) == 36 && Marshal.SizeOf(typeof(PathInfo)) == 20 &&
              Marshal.SizeOf(typeof(CornerDetail)) == 12 && Marshal.SizeOf(typeof(ReachedPolygon)) == 12 &&
              Marshal.SizeOf(typeof(MeshInput)) == 16 + 6 * IntPtr.Size,
              "struct sizes match navstar.h (268, 44, 36, 20, 12, 12, 16 + 6 pointers)");
        QueryFilter defaults = QueryFilter.Default;
        Check(defaults.StructSize == 268 && defaults.IncludeFlags == uint.MaxValue && defaults.ExcludeFlags == 0 &&
              defaults.GetAreaCost(0) == 1 && defaults.GetAreaCost(63) == 1,
              "QueryFilter.Default: include all, exclude none, every cost 1");
        OffMeshLink linkDefaults = OffMeshLink.Default;
        Check(linkDefaults.Bidirectional && linkDefaults.Cost == OffMeshLink.CostDistance && linkDefaults.Area == 0 &&
              linkDefaults.Flags == 1 && linkDefaults.Radius == 1, "OffMeshLink.Default: two-way, distance cost, area 0, flags 1, radius 1");
        ExpectException<ArgumentOutOfRangeException>(() => defaults.SetAreaCost(64, 2), "area", "area id 64 is refused");

        // Polygon 0 (the corner cell) has area 3; every polygon starts with flags 1.
        var areas = new byte[8];
        areas[0] = 3;
        using (NavstarMesh mesh = MakeLinkedUMesh(areas, null))
        using (NavstarQuery query = mesh.CreateQuery())
        {
            Check(mesh.LinkCount == 1, "one off-mesh link");
            uint flags;
            int area;
            ExpectStatus(mesh.GetPolygonInfo(0, out flags, out area), Status.Ok, "polygon info");
            Check(flags == 1 && area == 3, "polygon 0: flags 1, area 3 (got " + flags + ", " + area + ")");
            ExpectError(mesh.GetPolygonInfo(8, out flags, out area), Status.ErrorInvalidArgument, "polygon 8",
                        "polygon 8 is out of range");

            // Corridor and details of the U-turn.
            var buffer = new Vector3[16];
            int count;
            ExpectStatus(query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), buffer, out count), Status.Ok, "U-turn");
            PathInfo info;
            ExpectStatus(query.GetPathInfo(out info), Status.Ok, "path info");
            float length = 2 * (float)Math.Sqrt(0.25 + 2.25) + 1;
            Check(info.PointCount == 4 && info.Status == Status.Ok && Math.Abs(info.Length - length) < 1e-4f &&
                  Math.Abs(info.Cost - length) < 1e-4f && info.PolygonCount == 7,
                  "U-turn info: 4 points, 7 polygons, length = cost = " + length + " (got " + info.Length + ", " + info.Cost + ")");
            int[] corridor = query.GetPathCorridor();
            Check(string.Join(",", corridor) == "5,3,0,1,2,4,6", "U-turn corridor 5,3,0,1,2,4,6 (got " + string.Join(",", corridor) + ")");
            CornerDetail[] details = query.GetPathDetails();
            Check(details.Length == 4 && details[0].Flags == CornerFlags.Start && details[3].Flags == CornerFlags.End &&
                  details[1].Flags == CornerFlags.None && details[1].Link == CornerDetail.NoLink,
                  "U-turn corners: start, two plain corners, end");
            var small = new int[2];
            ExpectStatus(query.GetPathCorridor(small, out count), Status.BufferTooSmall, "corridor into 2 entries");
            Check(count == 7 && small[0] == 5 && small[1] == 3, "the first two corridor polygons and the count 7");

            // Area costs: walking the corner cell (area 3) at cost 4 makes the path dearer than its length.
            QueryFilter rough = QueryFilter.Default;
            rough.SetAreaCost(3, 4);
            bool partial;
            Vector3[] path = query.FindPath(V(0.2f, 0, 0.2f), V(2.5f, 0, 0.5f), PathOptions.Default, rough, out partial);
            ExpectStatus(query.GetPathInfo(out info), Status.Ok, "path info under a filter");
            Check(!partial && path.Length >= 2 && info.Cost > info.Length + 3 * 0.79f && info.Cost < 4 * info.Length,
                  "area 3 at cost 4: cost " + info.Cost + " for length " + info.Length);
            rough.SetAreaCost(3, -1);
            ExpectError(query.FindPath(V(0.2f, 0, 0.2f), V(2.5f, 0, 0.5f), PathOptions.Default, rough, buffer, out count),
                        Status.ErrorInvalidArgument, "area 3", "a negative area cost is refused");

            // The off-mesh link takes the path to the island.
            path = query.FindPath(V(0.5f, 0, 2.5f), V(5.5f, 0, 0.5f), PathOptions.Default, out partial);
            details = query.GetPathDetails();
            bool linkStart = false, linkEnd = false;
            for (int i = 0; i < details.Length; i++)
            {
                if ((details[i].Flags & CornerFlags.LinkStart) != 0)
                {
                    linkStart = details[i].Link == 0 && Near(path[i], V(2.5f, 0, 0.5f));
                }
                if ((details[i].Flags & CornerFlags.LinkEnd) != 0)
                {
                    linkEnd = details[i].Link == 0 && Near(path[i], V(5.5f, 0, 0.5f));
                }
            }
            Check(!partial && linkStart && linkEnd && Near(path[path.Length - 1], V(5.5f, 0, 0.5f)),
                  "to the island through the link: " + path.Length + " points, link start and end flagged");
            path = query.FindPath(V(5.5f, 0, 0.5f), V(0.5f, 0, 2.5f), PathOptions.Default, out partial);
            Check(partial, "the link is one-way: back from the island is partial");

            // Runtime flags: a closed link, a closed door.
            uint previous;
            ExpectStatus(mesh.SetLinkFlags(0, 2, out previous), Status.Ok, "link flags 2");
            QueryFilter noTwo = QueryFilter.Default;
            noTwo.ExcludeFlags = 2;
            path = query.FindPath(V(0.5f, 0, 2.5f), V(5.5f, 0, 0.5f), PathOptions.Default, noTwo, out partial);
            Check(previous == 1 && partial, "a link with an excluded flag is not taken");
            mesh.SetPolygonFlags(1, 2);
            path = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), PathOptions.Default, noTwo, out partial);
            Check(partial, "polygon 1 closed: the U-turn is partial");
            path = query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), PathOptions.Default, out partial);
            Check(!partial && path.Length == 4, "the default filter still walks polygon 1 (flags 2 share a bit with all)");
            ExpectStatus(mesh.SetPolygonFlags(1, 1, out previous), Status.Ok, "reopen polygon 1");
            Check(previous == 2, "previous flags 2");
            ExpectThrows(() => mesh.SetPolygonFlags(99, 1), Status.ErrorInvalidArgument, "polygon 99", "polygon 99 is out of range");
        }

        // Input checks.
        Vector3[] vertices;
        int[] indices, sizes;
        UMesh(out vertices, out indices, out sizes);
        NavstarMesh bad;
        ExpectException<ArgumentException>(
            () => NavstarMesh.TryCreate(vertices, indices, sizes, new byte[3], null, null, null, out bad), "areas",
            "3 areas for 8 polygons");
        var tooBig = new byte[8];
        tooBig[5] = 64;
        ExpectError(NavstarMesh.TryCreate(vertices, indices, sizes, tooBig, null, null, null, out bad),
                    Status.ErrorInvalidMesh, "polygon 5", "area id 64");
        Check(bad == null, "no mesh after an error");
        OffMeshLink far = OffMeshLink.Between(V(2.5f, 0, 0.5f), V(50, 0, 50));
        ExpectError(NavstarMesh.TryCreate(vertices, indices, sizes, null, null, new[] { far }, null, out bad),
                    Status.ErrorInvalidMesh, "link 0", "a link end far from the mesh");
    }

    private static void TestTargetsAndFlood()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = mesh.CreateQuery())
        {
            Vector3[] goals = { V(2.5f, 0, 2.5f), V(0.5f, 0, 0.5f), V(5.5f, 0, 0.5f) };
            var buffer = new Vector3[8];
            int count, goal;
            ExpectStatus(query.FindNearestTarget(V(0.5f, 0, 2.5f), goals, buffer, out count, out goal), Status.Ok,
                         "nearest target");
            Check(goal == 1 && count == 2 && Near(buffer[1], goals[1]), "goal 1 (2 away) is nearest: " + goal);
            PathInfo info;
            query.GetPathInfo(out info);
            Check(Math.Abs(info.Length - 2) < 1e-5f, "its length 2");
            ExpectError(query.FindNearestTarget(V(0.5f, 0, 2.5f), new[] { goals[2] }, buffer, out count, out goal),
                         Status.ErrorNoPath, "unreachable", "only the island: no path");
            Check(goal == -1, "no goal index after an error");

            var reached = new ReachedPolygon[8];
            ExpectStatus(query.ReachablePolygons(V(0.5f, 0, 2.5f), 1, reached, out count), Status.Ok, "flood to cost 1");
            Check(count == 2 && reached[0].Polygon == 5 && reached[0].Parent == ReachedPolygon.NoPolygon &&
                  reached[0].Cost == 0 && reached[1].Polygon == 3 && reached[1].Parent == 5 &&
                  reached[1].Cost > 0 && reached[1].Cost <= 1,
                  "within cost 1 of the top-left cell: polygons 5 and 3 (got " + count + ")");
            ExpectStatus(query.ReachablePolygons(V(0.5f, 0, 2.5f), float.PositiveInfinity, reached, out count),
                         Status.Ok, "flood everything");
            Check(count == 7, "7 polygons reachable (not the island): " + count);
            var two = new ReachedPolygon[2];
            ExpectStatus(query.ReachablePolygons(V(0.5f, 0, 2.5f), float.PositiveInfinity, two, out count),
                         Status.BufferTooSmall, "flood into 2 entries");
            Check(count == 7 && two[0].Polygon == 5, "count 7, the cheapest first");
            QueryFilter closed = QueryFilter.Default;
            closed.IncludeFlags = 2;
            ExpectError(query.ReachablePolygons(V(0.5f, 0, 2.5f), 1, reached, out count, null, closed),
                        Status.ErrorNotOnMesh, "admits no polygon", "no polygon has flag 2: the start is not on the mesh");
        }
    }

    private static void TestSpatialQueries()
    {
        using (NavstarMesh mesh = MakeUMesh())
        {
            Vector3 nearest;
            int polygon;
            float distance;
            ExpectStatus(mesh.NearestPoint(V(0.5f, 3, 0.5f), 5, out nearest, out polygon, out distance), Status.Ok,
                         "nearest point below");
            Check(Near(nearest, V(0.5f, 0, 0.5f)) && polygon == 0 && Math.Abs(distance - 3) < 1e-5f,
                  "(0.5, 0, 0.5) in polygon 0 at distance 3");
            ExpectError(mesh.NearestPoint(V(1.5f, 0, 2.5f), 0.1f, out nearest, out polygon, out distance),
                        Status.ErrorNotOnMesh, "0.5 away", "the gap of the U is 0.5 from the mesh");
            Check(polygon == -1 && distance == 0, "outputs cleared after an error");
            ExpectStatus(mesh.NearestPoint(V(1.5f, 0, 2.5f), float.PositiveInfinity, out nearest, out polygon, out distance),
                         Status.Ok, "any distance");
            Check(Math.Abs(distance - 0.5f) < 1e-5f && (polygon == 5 || polygon == 6), "0.5 to a side of the gap");

            MeshRaycastHit hit;
            Check(mesh.Raycast(V(0.5f, 0, 0.5f), V(0.5f, 0, 5), out hit), "raycast up the left arm: true, it hit");
            Check(hit.Hit && Math.Abs(hit.T - 2.5f / 4.5f) < 1e-5f && Near(hit.Point, V(0.5f, 0, 3)) &&
                  Near(hit.Normal, V(0, 0, -1)) && hit.Polygon == 5,
                  "hits the top wall at t = 2.5/4.5, normal (0, 0, -1), in polygon 5");
            Check(!mesh.Raycast(V(0.5f, 0, 0.5f), V(2.5f, 0, 0.5f), out hit), "raycast along the bottom: false, no hit");
            Check(!hit.Hit && hit.T == 1 && Near(hit.Point, V(2.5f, 0, 0.5f)), "no hit along the bottom row");
            ExpectStatus(mesh.TryRaycast(V(0.5f, 0, 0.5f), V(0.5f, 0, 5), out hit), Status.Ok, "TryRaycast with a hit");
            Check(hit.Hit, "TryRaycast: Ok, and Hit says it hit");
            QueryFilter closed = QueryFilter.Default;
            closed.IncludeFlags = 2;
            ExpectError(mesh.TryRaycast(V(0.5f, 0, 0.5f), V(2.5f, 0, 0.5f), out hit, closed), Status.ErrorNotOnMesh, "admits no polygon",
                        "no polygon admitted: the start is not on the mesh");
            ExpectThrows(() => mesh.Raycast(V(0.5f, 0, 0.5f), V(2.5f, 0, 0.5f), out hit, closed), Status.ErrorNotOnMesh,
                         "admits no polygon", "Raycast throws for a start off the admitted polygons");

            // One channel: x + 10 z at every vertex, so linear data comes back exactly.
            Vector3[] vertices;
            int[] indices, sizes;
            UMesh(out vertices, out indices, out sizes);
            var values = new float[vertices.Length];
            for (int i = 0; i < vertices.Length; i++)
            {
                values[i] = vertices[i].X + 10 * vertices[i].Z;
            }
            Check(mesh.VertexCount == vertices.Length, "one value per input vertex (got " + mesh.VertexCount + ")");
            var output = new float[1];
            ExpectStatus(mesh.Interpolate(V(0.5f, 0, 2.25f), values, 1, output, out polygon), Status.Ok, "interpolate");
            Check(Math.Abs(output[0] - 23) < 1e-4f && polygon == 5, "x + 10 z at (0.5, 2.25) is 23 (got " + output[0] + ")");
            ExpectError(mesh.Interpolate(V(0.5f, 0, 2.25f), new float[3], 1, output, out polygon),
                        Status.ErrorInvalidArgument, "3", "3 values for 20 vertices");
            ExpectException<ArgumentException>(() => mesh.Interpolate(V(0, 0, 0), values, 2, output, out polygon),
                                               "output", "1 output for 2 channels");
        }
    }

    // A T-junction (an upper room over A-B, lower rooms under A-M and M-B) stitched by
    // the degenerate connector A, M, B (polygon 3).
    private static void TestDegenerateConnectors()
    {
        Vector3[] vertices =
        {
            V(0, 0, 1), V(1, 0, 1), V(2, 0, 1), V(2, 0, 2), V(0, 0, 2), V(0, 0, 0), V(1, 0, 0), V(2, 0, 0),
        };
        int[] indices = { 0, 2, 3, 4, 5, 6, 1, 0, 6, 7, 2, 1, 0, 1, 2 };
        int[] sizes = { 4, 4, 4, 3 };
        NavstarMesh mesh;
        ExpectError(NavstarMesh.TryCreate(vertices, indices, sizes, out mesh), Status.ErrorInvalidMesh, "polygon 3",
                    "a zero-area triangle by default");
        MeshOptions options = MeshOptions.Default;
        options.AllowDegenerateConnectors = true;
        using (mesh = NavstarMesh.Create(vertices, indices, sizes, options))
        using (NavstarQuery query = mesh.CreateQuery())
        {
            Vector3[] path = query.FindPath(V(0.5f, 0, 0.5f), V(1.8f, 0, 1.5f));
            ExpectPath(path, new[] { V(0.5f, 0, 0.5f), V(1.8f, 0, 1.5f) }, "straight across the connector");
        }
    }

    private static void TestSaveLoadAndQueryOptions()
    {
        using (NavstarMesh mesh = MakeUMesh())
        {
            byte[] bytes = mesh.Save();
            Check(bytes.Length > 32, "Save gives " + bytes.Length + " bytes");
            int size;
            ExpectStatus(mesh.Save(null, out size), Status.BufferTooSmall, "Save(null) asks for the size");
            Check(size == bytes.Length, "the size alone: " + size);
            var shortBuffer = new byte[size - 1];
            ExpectStatus(mesh.Save(shortBuffer, out size), Status.BufferTooSmall, "one byte short");
            bool prefix = size == bytes.Length;
            for (int i = 0; i < shortBuffer.Length; i++)
            {
                prefix = prefix && shortBuffer[i] == bytes[i];
            }
            Check(prefix, "one byte short: the prefix is written and the full size reported");
            var exact = new byte[size];
            ExpectStatus(mesh.Save(exact, out size), Status.Ok, "an exact buffer");
            Check(SameBytes(exact, bytes), "the same bytes into a caller's buffer");

            using (NavstarMesh loaded = NavstarMesh.Load(bytes))
            using (NavstarQuery query = loaded.CreateQuery())
            {
                Check(loaded.PolygonCount == 8 && SameBytes(loaded.Save(), bytes), "loaded bytes save the same");
                ExpectPath(query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f)), UTurn, "the loaded mesh answers");
            }
            string path = System.IO.Path.GetTempFileName();
            try
            {
                mesh.SaveToFile(path);
                NavstarMesh fromFile;
                ExpectStatus(NavstarMesh.TryLoadFile(path, out fromFile), Status.Ok, "TryLoadFile");
                using (fromFile)
                {
                    Check(fromFile.PolygonCount == 8 && SameBytes(fromFile.Save(), bytes), "the file holds the mesh");
                }
            }
            finally
            {
                System.IO.File.Delete(path);
            }

            bytes[40] ^= 0xff;
            NavstarMesh damaged;
            ExpectError(NavstarMesh.TryLoad(bytes, out damaged), Status.ErrorInvalidMesh, "checksum",
                        "a damaged byte");
            Check(damaged == null, "no mesh after a refusal");
            ExpectThrows(() => NavstarMesh.Load(new byte[3]), Status.ErrorInvalidMesh, "navstar_mesh_load_navstar_bytes",
                         "Load of 3 bytes");
            ExpectError(NavstarMesh.TryLoadFile("/nonexistent/level.navstar", out damaged),
                        Status.ErrorInvalidArgument, "cannot read", "a missing file");
            ExpectThrows(() => NavstarMesh.LoadFile("/nonexistent/level.navstar"), Status.ErrorInvalidArgument,
                         "cannot read", "LoadFile of a missing file");
            ExpectException<ArgumentNullException>(() => NavstarMesh.TryLoad(null, out damaged), "bytes",
                                                   "TryLoad(null)");

            // Query options: a node limit, and the scratch memory.
            Check(QueryOptions.Default.MaxNodes == 0 && QueryOptions.Default.StructSize == 8,
                  "QueryOptions.Default: no limit, struct size 8");
            using (NavstarQuery free = NavstarQuery.Create(mesh, QueryOptions.Default))
            {
                Check(free.ScratchBytes == 0 && free.NodesExpanded == 0, "a new query holds no search memory");
                ExpectPath(free.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f)), UTurn, "no limit: the U-turn");
                Check(free.ScratchBytes > 0, "searching grows the scratch memory: " + free.ScratchBytes);
                Check(free.NodesExpanded > 0, "the U-turn's search expanded nodes: " + free.NodesExpanded);
                // The landmark table: built on request, chosen per query; the U-turn is the same.
                bool hasTable;
                ExpectStatus(mesh.PrepareLandmarks(out hasTable), Status.Ok, "PrepareLandmarks");
                Check(hasTable, "the U has a landmark table");
                ExpectStatus(free.SetLandmarks(Landmarks.On), Status.Ok, "SetLandmarks(On)");
                ExpectPath(free.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f)), UTurn, "the U-turn with landmarks");
                ExpectError(free.SetLandmarks((Landmarks)7), Status.ErrorInvalidArgument, "mode", "SetLandmarks(7)");
                // The fast lane: built on request, turned off per query; the exact U-turn is
                // the same, answered without a search from the index, with one without it.
                PathOptions optimal = PathOptions.Default;
                optimal.Mode = PathMode.Optimal;
                ExpectPath(free.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), optimal), UTurn, "the exact U-turn");
                Check(free.NodesExpanded > 0, "a small mesh builds no index by itself: " + free.NodesExpanded);
                bool hasIndex;
                ExpectStatus(mesh.PrepareFastLane(out hasIndex), Status.Ok, "PrepareFastLane");
                Check(hasIndex, "the U has a fast-lane index");
                ExpectPath(free.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), optimal), UTurn, "the U-turn from the index");
                Check(free.NodesExpanded == 0, "the index answers without a search: " + free.NodesExpanded);
                ExpectStatus(free.SetFastLane(false), Status.Ok, "SetFastLane(false)");
                ExpectPath(free.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), optimal), UTurn, "the U-turn searched");
                Check(free.NodesExpanded > 0, "with the lane off the search runs: " + free.NodesExpanded);
                ExpectStatus(free.SetFastLane(true), Status.Ok, "SetFastLane(true)");
                ExpectError(NativeMethods.navstar_query_set_fast_lane(free, 2), Status.ErrorInvalidArgument, "on",
                            "navstar_query_set_fast_lane(2)");
            }
            QueryOptions tiny = QueryOptions.Default;
            tiny.MaxNodes = 1;
            NavstarQuery limited;
            ExpectStatus(NavstarQuery.TryCreate(mesh, tiny, out limited), Status.Ok, "TryCreate with a node limit");
            using (limited)
            {
                var buffer = new Vector3[16];
                int count;
                Status s = limited.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), buffer, out count);
                ExpectStatus(s, Status.PartialNodeLimit, "a search cut by the node limit");
                Check(count >= 2 && Near(buffer[0], V(0.5f, 0, 2.5f)) && !Near(buffer[count - 1], V(2.5f, 0, 2.5f)),
                      "the cut path starts at the start and stops short of the goal");
                PathInfo info;
                ExpectStatus(limited.GetPathInfo(out info), Status.Ok, "GetPathInfo");
                Check(info.Status == Status.PartialNodeLimit, "path info says the node limit cut it");
                bool partial;
                limited.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), PathOptions.Default, out partial);
                Check(partial, "the array overload reports the cut path as partial");
            }
            ExpectThrows(() => NavstarQuery.Create(mesh, new QueryOptions()), Status.ErrorInvalidArgument,
                         "struct_size", "new QueryOptions() (not Default)");
        }
    }

    private static bool SameBytes(byte[] a, byte[] b)
    {
        if (a.Length != b.Length)
        {
            return false;
        }
        for (int i = 0; i < a.Length; i++)
        {
            if (a[i] != b[i])
            {
                return false;
            }
        }
        return true;
    }

    // Two grid tiles that meet along x = 2 over z in [0, 1] (tile A: 2 x 2 without its
    // cell (1, 1); tile B: a full 2 x 2 from x = 2). The path from (0.5, 1.5) to
    // (3.5, 1.5) crosses the seam and turns at (1, 1) and (2, 1).
    private static void TestWorld()
    {
        Check(Marshal.SizeOf(typeof(WorldOptions)) == 20 && Marshal.SizeOf(typeof(TileRef)) == 12,
              "WorldOptions and TileRef have the C layout");
        WorldOptions options = WorldOptions.Default;
        Check(options.StructSize == 20 && options.UpAxis == UpAxis.Y && options.MaxTiles > 0, "world defaults");
        options.MaxTiles = 3;
        NavstarWorld bad;
        ExpectError(NavstarWorld.TryCreate(options, out bad), Status.ErrorInvalidArgument, "max_tiles",
                    "max_tiles must be a power of two");
        Check(bad == null, "no world after an error");
        options.MaxTiles = 64;
        Vector3[] across = { V(0.5f, 0, 1.5f), V(1, 0, 1), V(2, 0, 1), V(3.5f, 0, 1.5f) };
        using (NavstarMesh a = NavstarMesh.CreateFromGrid(new byte[] { 1, 1, 1, 0 }, 2, 2, 1, V(0, 0, 0)))
        using (NavstarMesh b = NavstarMesh.CreateFromGrid(new byte[] { 1, 1, 1, 1 }, 2, 2, 1, V(2, 0, 0)))
        using (NavstarWorld world = NavstarWorld.Create(options))
        {
            TileRef ta = world.AddTile(a);
            TileRef tb = world.AddTile(b);
            Check(world.TileCount == 2 && ta.World == tb.World && ta.Slot != tb.Slot, "two tiles in one world");
            Check(world.PrepareLandmarks(), "a world of two tiles with portals gets landmark tables");
            Check(world.PrepareFastLane(), "a world of two tiles gets a fast-lane index");
            int polygons = a.PolygonCount + b.PolygonCount;
            using (NavstarMesh snapshot = world.Snapshot())
            using (NavstarQuery query = snapshot.CreateQuery())
            {
                Check(snapshot.PolygonCount == polygons, "the snapshot has every polygon of both tiles");
                ExpectPath(query.FindPath(across[0], across[3]), across, "a path across the seam");
                Check(query.NodesExpanded == 0, "the world's index answers the path across the seam");
                int[] ids = snapshot.GetPolygonIds();
                Check(ids.Length == polygons, "one number per polygon");
                var refs = new ulong[ids.Length];
                for (int i = 0; i < ids.Length; i++)
                {
                    refs[i] = snapshot.GetPolygonRef(ids[i]);
                }
                world.RemoveTile(tb);
                ExpectError(world.TryRemoveTile(tb), Status.ErrorStaleReference, "slot " + tb.Slot, "remove B twice");
                ExpectThrows(() => world.RemoveTile(tb), Status.ErrorStaleReference, "generation", "RemoveTile throws");
                using (NavstarMesh without = world.Snapshot())
                {
                    Check(without.PolygonCount == a.PolygonCount, "the new snapshot has tile A only");
                    int stale = 0;
                    for (int i = 0; i < ids.Length; i++)
                    {
                        int polygon;
                        Status s = without.TryResolvePolygonRef(refs[i], out polygon);
                        stale += s == Status.ErrorStaleReference && polygon == -1 ? 1 : 0;
                    }
                    Check(stale == b.PolygonCount, "references into the removed tile are stale (" + stale + ")");
                }
                ExpectPath(query.FindPath(across[0], across[3]), across, "the older snapshot still crosses");
            }
            TileRef again = world.AddTile(b);
            Check(again.Slot == tb.Slot && again.Generation > tb.Generation, "the slot is filled in a new generation");
            TileRef replaced = world.ReplaceTile(again, b);
            Check(replaced.Generation > again.Generation, "replacing makes a new generation");
            TileRef ignored;
            ExpectError(world.TryReplaceTile(again, b, out ignored), Status.ErrorStaleReference, "generation",
                        "the replaced tile is stale");
            Check(ignored.Equals(default(TileRef)), "the out reference is zeroed after an error");

            byte[] bytes = world.Save();
            int size;
            Check(world.Save(null, out size) == Status.BufferTooSmall && size == bytes.Length,
                  "a null buffer asks for the size");
            using (NavstarWorld loaded = NavstarWorld.Load(bytes))
            using (NavstarMesh snapshot = loaded.Snapshot())
            using (NavstarQuery query = snapshot.CreateQuery())
            {
                TileRef[] tiles = loaded.GetTiles();
                Check(tiles.Length == 2 && tiles[0].Slot == ta.Slot && tiles[0].Generation == ta.Generation &&
                          tiles[1].Slot == replaced.Slot && tiles[1].Generation == replaced.Generation,
                      "the loaded world keeps slots and generations");
                ExpectError(loaded.TryRemoveTile(ta), Status.ErrorStaleReference, "world",
                            "a reference of the saved world is refused by the loaded one");
                ExpectPath(query.FindPath(across[0], across[3]), across, "the loaded world crosses the seam");
                byte[] again2 = loaded.Save();
                Check(again2.Length == bytes.Length && Convert.ToBase64String(again2) == Convert.ToBase64String(bytes),
                      "the loaded world saves to the same bytes");
            }
            string file = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "navstar-cs-world-" + Environment.TickCount + ".navstar");
            world.SaveToFile(file);
            using (NavstarWorld fromFile = NavstarWorld.LoadFile(file))
            {
                Check(fromFile.TileCount == 2, "a world from a file");
            }
            System.IO.File.Delete(file);
            bytes[bytes.Length - 1] ^= 1;
            NavstarWorld damaged;
            ExpectError(NavstarWorld.TryLoad(bytes, out damaged), Status.ErrorInvalidMesh, "checksum", "a damaged file");
            Check(damaged == null, "no world after an error");
            ExpectException<ArgumentNullException>(() => world.AddTile(null), "tile", "a null tile");
        }
        // The two tiles as one 4 x 2 grid mesh, added in tiles of side 2: the same path.
        using (NavstarMesh whole = NavstarMesh.CreateFromGrid(new byte[] { 1, 1, 1, 1, 1, 0, 1, 1 }, 4, 2, 1, V(0, 0, 0)))
        using (NavstarWorld world = NavstarWorld.Create(options))
        {
            ExpectThrows(() => world.AddMeshTiles(whole, float.NaN), Status.ErrorInvalidArgument, "tile size",
                         "a NaN tile size");
            Check(world.TileCount == 0, "nothing added after an error");
            TileRef[] tiles = world.AddMeshTiles(whole, 2);
            Check(tiles.Length == 2 && world.TileCount == 2 && tiles[0].World == tiles[1].World,
                  "two tiles and their references");
            using (NavstarMesh snapshot = world.Snapshot())
            using (NavstarQuery query = snapshot.CreateQuery())
            {
                ExpectPath(query.FindPath(across[0], across[3]), across, "the cut world turns where the tiles do");
            }
            ExpectException<ArgumentNullException>(() => world.AddMeshTiles(null, 2), "mesh", "a null mesh");
        }
    }

    private static void TestThreads()
    {
        using (NavstarMesh mesh = MakeUMesh())
        {
            int good = 0;
            var threads = new Thread[4];
            for (int t = 0; t < threads.Length; t++)
            {
                threads[t] = new Thread(() =>
                {
                    using (NavstarQuery query = mesh.CreateQuery()) // one per thread, the mesh shared
                    {
                        var buffer = new Vector3[8];
                        for (int i = 0; i < 250; i++)
                        {
                            int count;
                            if (query.FindPath(V(0.5f, 0, 2.5f), V(2.5f, 0, 2.5f), buffer, out count) == Status.Ok &&
                                count == 4 && Near(buffer[1], UTurn[1]) && Near(buffer[2], UTurn[2]))
                            {
                                Interlocked.Increment(ref good);
                            }
                        }
                    }
                });
                threads[t].Start();
            }
            foreach (Thread thread in threads)
            {
                thread.Join();
            }
            Check(good == 1000, "4 threads x 250 paths on one shared mesh: " + good + " right");
        }
    }
}

#if UNITY_5_3_OR_NEWER
internal static class UnityTests
{
    internal static void Run()
    {
        var u = new UnityEngine.Vector3(1, 2, 3);
        Navstar.Vector3 n = u;
        UnityEngine.Vector3 back = n;
        NavstarTests.Check(n.X == 1 && n.Y == 2 && n.Z == 3 && back.x == 1 && back.y == 2 && back.z == 3,
                           "implicit conversions to and from UnityEngine.Vector3");

        // What NavMesh.CalculateTriangulation() gives: triangles with repeated corners.
        Navstar.Vector3[] vertices;
        int[] indices, sizes;
        NavstarTests.UMesh(out vertices, out indices, out sizes);
        var soup = new System.Collections.Generic.List<UnityEngine.Vector3>();
        var triangles = new System.Collections.Generic.List<int>();
        int first = 0;
        foreach (int size in sizes)
        {
            for (int k = 1; k + 1 < size; k++) // fan-triangulate, one copy of each corner per triangle
            {
                foreach (int corner in new[] { first, first + k, first + k + 1 })
                {
                    Navstar.Vector3 p = vertices[indices[corner]];
                    triangles.Add(soup.Count);
                    soup.Add(new UnityEngine.Vector3(p.X, p.Y, p.Z));
                }
            }
            first += size;
        }
        var triangulation = new UnityEngine.AI.NavMeshTriangulation
        {
            vertices = soup.ToArray(),
            indices = triangles.ToArray(),
            areas = new int[triangles.Count / 3],
        };
        using (NavstarMesh mesh = NavstarMesh.Create(triangulation))
        using (NavstarQuery query = mesh.CreateQuery())
        {
            NavstarTests.Check(mesh.PolygonCount == 16, "NavMeshTriangulation of the U mesh: 16 triangles");
            UnityEngine.Vector3[] path = query.FindPath(new UnityEngine.Vector3(0.5f, 0, 2.5f),
                                                        new UnityEngine.Vector3(2.5f, 0, 2.5f));
            NavstarTests.Check(path.Length == 4 && path[1].x == 1 && path[1].z == 1 && path[2].x == 2 && path[2].z == 1,
                               "U-turn on the welded triangulation, as UnityEngine.Vector3[]");

            var buffer = new UnityEngine.Vector3[8];
            int count;
            Status s = query.FindPath(new UnityEngine.Vector3(0.5f, 0, 2.5f), new UnityEngine.Vector3(2.5f, 0, 2.5f),
                                      buffer, out count);
            NavstarTests.Check(s == Status.Ok && count == 4 && buffer[3].x == 2.5f && buffer[3].z == 2.5f,
                               "FindPath into a UnityEngine.Vector3[] buffer");
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000; i++)
            {
                query.FindPath(new UnityEngine.Vector3(0.5f, 0, 2.5f), new UnityEngine.Vector3(2.5f, 0, 2.5f), buffer,
                               out count);
            }
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            NavstarTests.Check(allocated == 0, "1000 calls into a UnityEngine.Vector3[] allocated " + allocated + " bytes");

            PathOptions options = PathOptions.Default;
            options.AllowPartial = false;
            NavstarTests.ExpectThrows(
                () => query.FindPath(new UnityEngine.Vector3(0.5f, 0, 2.5f), new UnityEngine.Vector3(5.5f, 0, 0.5f),
                                     options),
                Status.ErrorNoPath, "unreachable", "UnityEngine.Vector3 FindPath to the island without partial paths");
        }

        MeshOptions noWeld = MeshOptions.Default;
        noWeld.WeldVertices = false;
        using (NavstarMesh separate = NavstarMesh.Create(triangulation, noWeld))
        using (NavstarQuery query = separate.CreateQuery())
        {
            bool partial;
            query.FindPath(new UnityEngine.Vector3(0.5f, 0, 2.5f), new UnityEngine.Vector3(2.5f, 0, 2.5f),
                           PathOptions.Default, out partial);
            NavstarTests.Check(partial, "without welding the triangulation falls apart (partial path)");
        }

        NavstarMesh none;
        triangulation.vertices[0].y = float.NaN;
        Status status = NavstarMesh.TryCreate(triangulation, out none);
        NavstarTests.ExpectError(status, Status.ErrorInvalidMesh, "vertex 0", "NaN in the triangulation");
    }
}
#endif
