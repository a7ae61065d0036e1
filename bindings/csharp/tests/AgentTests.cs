// SPDX-License-Identifier: MIT
//
// The agent queries from C#: moving along the surface, the distance to walls and random
// points, on the U mesh of NavstarTests (unit squares 0, 1, 2 along z 0..1, 3 and 4
// above 0 and 2, 5 and 6 above them, and the island 7 at x 5..6, z 0..1).

using System;
using Navstar;

internal static unsafe partial class NavstarTests
{
    private static void TestCorridor()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = NavstarQuery.Create(mesh))
        {
            // Round the U: 5 3 0 1 2 4 6, from (0.5, 2.5) to (2.5, 2.5).
            NavstarCorridor corridor;
            ExpectStatus(NavstarCorridor.TryCreate(mesh, new[] { 5, 3, 0, 1, 2, 4, 6 }, V(0.5f, 0, 2.5f),
                                                   V(2.5f, 0, 2.5f), out corridor),
                         Status.Ok, "corridor round the U");
            using (corridor)
            {
                var points = new Vector3[8];
                var flags = new CornerFlags[8];
                int count;
                ExpectStatus(corridor.GetCorners(points, flags, out count), Status.Ok, "corners");
                Check(count == 3 && Near(points[0], V(1, 0, 1)) && Near(points[1], V(2, 0, 1)) &&
                      Near(points[2], V(2.5f, 0, 2.5f)) && flags[2] == CornerFlags.End && flags[0] == 0,
                      "the corners of the U, the target flagged End");
                var one = new Vector3[1];
                ExpectStatus(corridor.GetCorners(one, null, out count), Status.BufferTooSmall, "one corner's room");
                Check(count == 3 && Near(one[0], V(1, 0, 1)), "the first corner and the full count");
                bool on;
                ExpectStatus(corridor.MovePosition(V(1, 0, 1), out on), Status.Ok, "a step to the first corner");
                Vector3 position, target;
                ExpectStatus(corridor.GetPosition(out position, out target), Status.Ok, "position");
                Check(on && Near(position, V(1, 0, 1)) && Near(target, V(2.5f, 0, 2.5f)), "at the first corner");
                // Square 4 closes: the target is cut off.
                mesh.SetPolygonFlags(4, 0);
                bool valid;
                ExpectStatus(corridor.IsValid(16, out valid), Status.Ok, "is valid");
                Check(!valid, "no longer valid");
                CorridorRepair outcome;
                int kept;
                ExpectStatus(corridor.Repair(query, out outcome, out kept), Status.Ok, "repair");
                Check(outcome == CorridorRepair.CutOff && kept >= 1, "the target is cut off");
                ExpectStatus(corridor.IsValid(16, out valid), Status.Ok, "is valid after the repair");
                Check(valid, "valid after the repair");
                var polygons = new int[16];
                ExpectStatus(corridor.GetPolygons(polygons, out count), Status.Ok, "polygons");
                Check(count >= 1 && Array.IndexOf(polygons, 4, 0, count) < 0, "square 4 is not on the corridor");
            }
            ExpectError(NavstarCorridor.TryCreate(mesh, new[] { 0, 99 }, V(0.5f, 0, 0.5f), V(1.5f, 0, 0.5f),
                                                  out corridor),
                        Status.ErrorInvalidArgument, "polygons[1] = 99", "a polygon out of range");
            Check(corridor == null, "no corridor after an error");
        }
    }

    private static void TestAgents()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = NavstarQuery.Create(mesh))
        {
            // From square 0 up through square 3 into its wall x = 1 at z = 1.15, then along it.
            SurfaceMove move;
            int count;
            var visited = new int[8];
            ExpectStatus(mesh.MoveAlongSurface(0, V(0.5f, 0, 0.5f), V(1.5f, 0, 1.8f), out move, visited, out count),
                         Status.Ok, "move along the surface");
            Check(Near(move.Point, V(1, 0, 1.8f)) && move.Polygon == 3 && move.Walls == 1,
                  "slides along the wall x = 1 to (1, 0, 1.8) in square 3");
            Check(count == 2 && visited[0] == 0 && visited[1] == 3, "walked through squares 0 and 3");
            var one = new int[1];
            ExpectStatus(mesh.MoveAlongSurface(0, V(0.5f, 0, 0.5f), V(1.5f, 0, 1.8f), out move, one, out count),
                         Status.BufferTooSmall, "one slot for two polygons");
            Check(one[0] == 0 && count == 2 && move.Polygon == 3, "the first polygon, the full count, the whole move");
            ExpectStatus(mesh.MoveAlongSurface(-1, V(0.5f, 2, 0.5f), V(1.5f, 0, 1.8f), out move, null, out count),
                         Status.Ok, "-1 snaps the start; no buffer");
            Check(move.Polygon == 3 && count == 2, "the same move from a snapped start");
            ExpectError(mesh.MoveAlongSurface(99, V(0.5f, 0, 0.5f), V(1, 0, 1), out move, visited, out count),
                        Status.ErrorInvalidArgument, "start_polygon 99", "a start polygon out of range");
            QueryFilter refusing = QueryFilter.Default;
            refusing.IncludeFlags = 2;
            ExpectError(mesh.MoveAlongSurface(0, V(0.5f, 0, 0.5f), V(1, 0, 1), out move, visited, out count, refusing),
                        Status.ErrorInvalidArgument, "refused", "a refused start polygon");

            WallDistance wall;
            ExpectStatus(query.DistanceToWall(V(0.3f, 0, 1.5f), 5, out wall), Status.Ok, "distance to wall");
            Check(wall.Found && Math.Abs(wall.Distance - 0.3f) < 1e-6f && Near(wall.Point, V(0, 0, 1.5f)) &&
                  Near(wall.Normal, V(1, 0, 0)) && wall.Polygon == 3,
                  "the wall x = 0 is 0.3 away, normal +x, of square 3");
            ExpectStatus(query.DistanceToWall(V(0.3f, 0, 1.5f), 0.1f, out wall), Status.Ok, "no wall within 0.1");
            Check(!wall.Found && wall.Polygon == -1 && float.IsPositiveInfinity(wall.Distance), "none found");
            ExpectError(query.DistanceToWall(V(0.3f, 0, 1.5f), float.NaN, out wall), Status.ErrorInvalidArgument,
                        "radius", "a NaN radius");

            ulong first = 7, second = 7;
            Vector3 a, b;
            int polygon, other;
            ExpectStatus(mesh.RandomPoint(ref first, out a, out polygon), Status.Ok, "random point");
            ExpectStatus(mesh.RandomPoint(ref second, out b, out other), Status.Ok, "random point again");
            Check(Near(a, b) && polygon == other && first == second && first != 7 && polygon >= 0 && polygon < 8,
                  "a seed gives the same point, and the state moves on");
            bool onIsland = true;
            for (int i = 0; i < 20; i++)
            {
                Status status = query.RandomPointAround(V(5.5f, 0, 0.5f), 0.1f, ref first, out a, out polygon);
                onIsland &= status == Status.Ok && polygon == 7 && a.X >= 5 && a.X <= 6 && a.Z >= 0 && a.Z <= 1;
            }
            Check(onIsland, "random points around the island's centre stay on the island");
            ulong kept = first;
            ExpectError(mesh.RandomPoint(ref first, out a, out polygon, refusing), Status.ErrorNotOnMesh, "no polygon",
                        "nothing admitted");
            Check(first == kept && polygon == -1, "a failed call leaves the state");
        }
    }
}
