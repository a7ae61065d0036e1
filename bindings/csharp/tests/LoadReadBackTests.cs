// SPDX-License-Identifier: MIT
//
// The C# binding's loaders (NavstarMesh.LoadFile, Load, LoadObj, ...) and mesh read-back
// (GetVertices, GetPolygonCorners, GetPolygonNeighbours, ...), on a mesh and on a world
// snapshot. Part of NavstarTests (compiled with NavstarTests.cs).
//
// The OBJ is two unit squares side by side (Y up, y = 0):
//
//   z=1 3-------2-------5
//       |   0   |   1   |
//   z=0 0-------1-------4        (vertex numbers from 0)
//      x=0     x=1     x=2

using System;
using System.IO;
using System.Text;
using Navstar;
using Vector3 = Navstar.Vector3;

internal static unsafe partial class NavstarTests
{
    private const string TwoSquaresObj =
        "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nv 2 0 1\nf 1 4 3 2\nf 2 3 6 5\n";

    private static bool Same(Vector3 a, Vector3 b)
    {
        return a.X == b.X && a.Y == b.Y && a.Z == b.Z;
    }

    private static void TestLoadAndReadBack()
    {
        byte[] bytes = Encoding.ASCII.GetBytes(TwoSquaresObj);
        using (NavstarMesh mesh = NavstarMesh.Load(bytes, MeshFormat.Obj))
        {
            Check(mesh.PolygonCount == 2, "two squares from OBJ bytes");
            ReadBackTwoSquares(mesh);
            ReadBackSnapshot(mesh);
#if UNITY_5_3_OR_NEWER
            ReadBackIntoUnityVectors(mesh);
#endif
        }

        string path = Path.Combine(Path.GetTempPath(), "navstar-cs-" + Guid.NewGuid().ToString("N") + ".obj");
        File.WriteAllText(path, TwoSquaresObj);
        try
        {
            using (NavstarMesh auto = NavstarMesh.LoadFile(path, MeshFormat.Auto))
            using (NavstarMesh obj = NavstarMesh.LoadObj(path))
            {
                Check(auto.PolygonCount == 2 && obj.PolygonCount == 2, "the file by its extension and as OBJ");
            }
            // Options pass through: with Z up, the squares (flat in x-z) have no area.
            MeshOptions zUp = MeshOptions.Default;
            zUp.UpAxis = UpAxis.Z;
            ExpectThrows(() => NavstarMesh.LoadObj(path, zUp), Status.ErrorInvalidMesh, "polygon 0",
                         "LoadObj with Z up: the squares are edge-on");
            NavstarMesh none;
            ExpectError(NavstarMesh.TryLoadFile(path, MeshFormat.PolyanyaMesh, out none), Status.ErrorInvalidMesh,
                        "line 1: ", "an OBJ read as a Polyanya mesh");
            Check(none == null, "no mesh after an error");
            ExpectThrows(() => NavstarMesh.LoadMovingAiMap(path), Status.ErrorInvalidMesh, "line 1", "LoadMovingAiMap of an OBJ");
        }
        finally
        {
            File.Delete(path);
        }
        NavstarMesh missing;
        ExpectError(NavstarMesh.TryLoadFile(path, MeshFormat.Auto, out missing), Status.ErrorInvalidArgument,
                    "cannot read", "a missing file");
        ExpectThrows(() => NavstarMesh.LoadPolyanyaMesh(path), Status.ErrorInvalidArgument, "cannot read",
                     "LoadPolyanyaMesh of a missing file");
        ExpectException<ArgumentNullException>(() => NavstarMesh.LoadFile(null, MeshFormat.Auto), "path", "a null path");
        ExpectError(NavstarMesh.TryLoad(Encoding.ASCII.GetBytes("v 0 0\n"), MeshFormat.Obj, out missing),
                    Status.ErrorInvalidMesh, "line 1: ", "a bad OBJ line");
        ExpectError(NavstarMesh.TryLoad(bytes, MeshFormat.Auto, out missing), Status.ErrorInvalidArgument,
                    "NAVSTAR_FORMAT_AUTO", "Auto for bytes");
        ExpectError(NavstarMesh.TryLoad(bytes, (MeshFormat)9, out missing), Status.ErrorInvalidArgument,
                    "format is 9", "an unknown format");
        using (NavstarMesh map = NavstarMesh.Load(
            Encoding.ASCII.GetBytes("type octile\nheight 1\nwidth 3\nmap\n.@.\n"), MeshFormat.MovingAiMap))
        {
            Check(map.PolygonCount == 2 && map.IslandCount == 2, "a grid map: two cells apart, two islands");
        }
    }

    private static void ReadBackTwoSquares(NavstarMesh mesh)
    {
        Vector3[] vertices = mesh.GetVertices();
        Check(vertices.Length == 6 && Same(vertices[4], V(2, 0, 0)), "6 vertices, vertex 4 at (2, 0, 0)");
        int[] sizes = mesh.GetPolygonSizes();
        Check(sizes.Length == 2 && sizes[0] == 4 && sizes[1] == 4, "two quads");
        int[] corners = mesh.GetPolygonCorners();
        int[] neighbours = mesh.GetPolygonNeighbours();
        Check(corners.Length == 8 && neighbours.Length == 8, "8 corners and 8 neighbours");
        int shared = 0;
        for (int i = 0; i < 8; i++)
        {
            int first = i < 4 ? 0 : 4;
            int a = corners[i], b = corners[first + (i - first + 1) % 4];
            bool between = (a == 1 && b == 2) || (a == 2 && b == 1);
            int want = between ? (i < 4 ? 1 : 0) : NavstarMesh.NoPolygon;
            shared += between ? 1 : 0;
            Check(neighbours[i] == want, "corner " + i + " (edge " + a + "-" + b + "): neighbour " + neighbours[i]);
        }
        Check(shared == 2, "the edge 1-2 is shared, seen from both sides");
        byte[] areas = mesh.GetPolygonAreas();
        Check(areas.Length == 2 && areas[0] == 0 && areas[1] == 0, "default areas");
        mesh.SetPolygonFlags(1, 8);
        uint[] flags = mesh.GetPolygonFlags();
        Check(flags.Length == 2 && flags[0] == 1 && flags[1] == 8, "flags as they are now");
        mesh.SetPolygonFlags(1, 1);
        int[] islands = mesh.GetPolygonIslands();
        Check(islands.Length == 2 && islands[0] == 0 && islands[1] == 0 && mesh.IslandCount == 1, "one island");
        Vector3 min, max;
        mesh.GetBounds(out min, out max);
        Check(Same(min, V(0, 0, 0)) && Same(max, V(2, 0, 1)), "bounds (0, 0, 0) to (2, 0, 1)");
        Vector3[] points = mesh.GetPolygonPoints(1);
        bool match = points.Length == 4;
        for (int i = 0; match && i < 4; i++)
        {
            match = Same(points[i], vertices[corners[4 + i]]);
        }
        Check(match, "polygon 1's points are its corners' vertices");
        var two = new Vector3[2];
        int count;
        ExpectStatus(mesh.TryGetPolygonPoints(1, two, out count), Status.BufferTooSmall, "points into room for 2");
        Check(count == 4 && Same(two[0], points[0]) && Same(two[1], points[1]), "the first two points, count 4");
        ExpectError(mesh.TryGetPolygonPoints(7, two, out count), Status.ErrorInvalidArgument, "polygon 7", "polygon 7");
        ExpectThrows(() => mesh.GetPolygonPoints(-1), Status.ErrorInvalidArgument, "polygon 4294967295",
                     "GetPolygonPoints(-1)");
    }

    private static void ReadBackSnapshot(NavstarMesh mesh)
    {
        // A copy two units along x, rebuilt from the read-back, beside the original.
        Vector3[] vertices = mesh.GetVertices();
        for (int i = 0; i < vertices.Length; i++)
        {
            vertices[i].X += 2;
        }
        using (NavstarMesh moved = NavstarMesh.Create(vertices, mesh.GetPolygonCorners(), mesh.GetPolygonSizes()))
        using (NavstarWorld world = NavstarWorld.Create())
        {
            world.AddTile(mesh);
            world.AddTile(moved);
            using (NavstarMesh snapshot = world.Snapshot())
            {
                int[] ids = snapshot.GetPolygonIds();
                Vector3[] all = snapshot.GetVertices();
                int[] corners = snapshot.GetPolygonCorners();
                int[] neighbours = snapshot.GetPolygonNeighbours();
                Check(ids.Length == 4 && all.Length == 12 && corners.Length == 16 && neighbours.Length == 16,
                      "4 polygons, 12 vertices, 16 corners");
                bool across = false;
                for (int i = 0; i < 8 && ids.Length == 4; i++)
                {
                    across |= neighbours[i] == ids[2] && all[corners[i]].X == 2;
                }
                Check(across, "the first tile has the second tile's polygon across x = 2");
                Vector3[] points = snapshot.GetPolygonPoints(ids[ids.Length - 1]);
                Check(points.Length == 4 && points[0].X >= 2, "points by a snapshot id lie in the second tile");
                Check(snapshot.GetPolygonIslands().Length == 4 && snapshot.IslandCount == 1, "one island over the seam");
            }
        }
    }

#if UNITY_5_3_OR_NEWER
    private static void ReadBackIntoUnityVectors(NavstarMesh mesh)
    {
        var vertices = new UnityEngine.Vector3[4];
        int count;
        ExpectStatus(mesh.TryGetVertices(vertices, out count), Status.BufferTooSmall, "UnityEngine.Vector3 vertices, room for 4");
        Check(count == 6 && vertices[1].x == 1 && vertices[1].z == 0, "4 of 6 vertices written, vertex 1 at (1, 0, 0)");
        var points = new UnityEngine.Vector3[8];
        ExpectStatus(mesh.TryGetPolygonPoints(0, points, out count), Status.Ok, "UnityEngine.Vector3 points");
        Check(count == 4 && points[4].x == 0 && points[4].y == 0 && points[4].z == 0, "4 points, nothing after them");
    }
#endif
}
